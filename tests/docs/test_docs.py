"""The documentation stays true: its examples are checked, its content file
reference follows the schemas, and the site builds.

Examples in docs/*.md are fenced blocks whose language tag says what they are:

- ```regles-procedure: statements (a procedure);
- ```regles-ability: one ability, as a card prints it;
- ```regles-expr: one expression (a condition);
- ```yaml with a `kind:` key: a whole content file.

Each is parsed with the grammar and checked with the real checker against the
docs test game (tests/fixtures/docs-game/) or the game it names, and must
give no error and no warning. A block preceded by `<!-- xfail: REASON -->`
shows a construct the language means to accept but the implementation does
not yet: it is expected to fail (strictly, so that the mark goes once fixed).

A content file preceded by `<!-- with-previous -->` is checked in one pack with
the content file shown before it on the page (cards printing the keywords a
keyword library above defines).

A ```yaml block preceded by `<!-- file: NAME -->` is a file written for the
`$ regles ...` transcripts (```text blocks) of the same page that follow it:
each transcript is run in a folder of its own holding the files the page has
written above it (NAME may be a path, `my-game/game.yaml`; a later block of
the same NAME replaces the earlier, so that a tutorial can grow its files step
by step), and must print exactly what the page shows (only its first lines
when the transcript ends with `...`; a last line `[exit status N]` gives the
exit status; spaces at the ends of lines are not compared). A transcript preceded by `<!-- input: A B ... -->` reads those
words as the lines a person types (`regles play`), each shown after its prompt
as a terminal echoes it; one preceded by `<!-- copy: PATH ... -->` runs beside
a copy of those folders of the repository (`content`, as in a clone).
"""
from __future__ import annotations

import importlib.util
import io
import json
import re
import shutil
import subprocess
import sys
import textwrap
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import pytest

from interpreter.codes import BY_ID

CODE_NAMES = set(BY_ID)
import yaml

from interpreter.language.builtins import FUNCTIONS, PROPERTIES, SPECIAL_NAMES
from interpreter.rulings.check import check_paths
from interpreter.diagnostics import ContentError, render_text
from interpreter.language.parser import lark_parser, parse

from gamekit import ROOT
DOCS = ROOT / "docs"
SCHEMAS = ROOT / "schemas"
CONTENT = ROOT / "content"
FIXTURE = ROOT / "tests" / "fixtures" / "docs-game"
KINDS = ("game", "expansion", "cards", "keywords", "board", "scenario", "rules-test", "rules")

# tag -> start symbol of the grammar
RULES_TAGS = {"regles-procedure": "procedure", "regles-ability": "ability", "regles-expr": "condition"}


# Reading the pages ---------------------------------------------------------------

@dataclass
class Block:
    page: str
    line: int  # of the opening fence, from 1
    tag: str
    text: str
    mark: str | None  # the HTML comment just before the block, if any

    @property
    def where(self) -> str:
        return f"docs/{self.page}:{self.line}"

    @property
    def xfail(self) -> str | None:
        if self.mark and self.mark.startswith("xfail:"):
            return self.mark[len("xfail:"):].strip()
        return None

    @property
    def file_name(self) -> str | None:
        if self.mark and self.mark.startswith("file:"):
            return self.mark[len("file:"):].strip()
        return None


_MARK = re.compile(r"^<!--\s*(.*?)\s*-->$")


def blocks(page: Path) -> list[Block]:
    out = []
    lines = page.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"^```([\w-]*)\s*$", lines[i])
        if not m:
            i += 1
            continue
        start, tag = i, m.group(1)
        j = i + 1
        while j < len(lines) and lines[j].rstrip() != "```":
            j += 1
        assert j < len(lines), f"docs/{page.name}:{start + 1}: unclosed code block"
        k = start - 1
        while k >= 0 and not lines[k].strip():
            k -= 1
        mark = _MARK.match(lines[k].strip()) if k >= 0 else None
        out.append(Block(page.name, start + 1, tag, "\n".join(lines[start + 1:j]) + "\n",
                         mark.group(1) if mark else None))
        i = j + 1
    return out


def all_blocks() -> list[Block]:
    return [b for page in sorted(DOCS.glob("*.md")) for b in blocks(page)]


def content_file_kind(block: Block) -> str | None:
    if block.tag != "yaml" or block.file_name:
        return None
    try:
        data = yaml.safe_load(block.text)
    except yaml.YAMLError:
        return None
    return data.get("kind") if isinstance(data, dict) else None


def examples() -> list[Block]:
    return [b for b in all_blocks() if b.tag in RULES_TAGS or content_file_kind(b)]


def _param(b: Block):
    marks = [pytest.mark.xfail(reason=b.xfail, strict=True)] if b.xfail else []
    return pytest.param(b, id=f"{b.page}:{b.line}:{b.tag}", marks=marks)


# Checking one example --------------------------------------------------------------

def _block_scalar(text: str, indent: int) -> str:
    return "|\n" + textwrap.indent(text.rstrip("\n") + "\n", " " * indent)


# Names the expression examples may use: a card, a player, a node.
_EXPR_LOCALS = 'let c = first(market)\nlet p = first(players)\nlet n = node("north")\n'


def wrap(block: Block) -> str:
    """The example as a content file of the docs game."""
    head = f"# {block.where}\n"
    if block.tag == "regles-procedure":
        return head + ("kind: scenario\ngame: docs-game\nid: example\ntitle: Example\n"
                       f"hooks:\n  round_begins: {_block_scalar(block.text, 4)}")
    if block.tag == "regles-ability":
        return head + ("kind: cards\ngame: docs-game\nstart: deck\ncards:\n  - id: example\n    title: Example\n"
                       f"    abilities:\n      - {_block_scalar(block.text, 8)}")
    if block.tag == "regles-expr":
        return head + ("kind: rules-test\ngame: docs-game\ntests:\n  - name: example\n"
                       f"    given: {_block_scalar(_EXPR_LOCALS, 6)}"
                       f"    then:\n      - {_block_scalar(block.text, 8)}")
    return block.text


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    """A folder holding a copy of the docs test game, where `game: docs-game` resolves."""
    ws = tmp_path_factory.mktemp("docs-examples")
    shutil.copytree(FIXTURE, ws / "docs-game")
    return ws


def check_example(block: Block, workspace: Path, monkeypatch) -> None:
    if block.tag in RULES_TAGS:
        try:
            parse(block.text, RULES_TAGS[block.tag])
        except ContentError as exc:
            pytest.fail(f"{block.where}: {exc.message} (line {exc.position.line} of the example)\n{block.text}")
    name = f"{Path(block.page).stem}-{block.line}"
    if block.mark == "with-previous":
        # checked in one pack with the content file shown just before it (keywords, then cards using them)
        page = [b for b in examples() if b.page == block.page and content_file_kind(b)]
        previous = page[page.index(block) - 1]
        folder = workspace / name
        shutil.copytree(FIXTURE, folder, dirs_exist_ok=True)
        for b in (previous, block):
            (folder / f"example-{b.line}.yaml").write_text(b.text, encoding="utf-8")
        target = name
    elif content_file_kind(block) == "game":
        folder = workspace / name
        folder.mkdir(exist_ok=True)
        (folder / "game.yaml").write_text(block.text, encoding="utf-8")
        target = name
    else:
        target = f"{name}.yaml"
        (workspace / target).write_text(wrap(block), encoding="utf-8")
    monkeypatch.chdir(workspace)
    report = check_paths([target])
    assert not report.diagnostics, f"{block.where}: the example does not check clean\n" \
                                   f"{render_text(report)}\n--- example ---\n{block.text}"


@pytest.mark.parametrize("block", [_param(b) for b in examples()])
def test_example_checks(block, workspace, monkeypatch):
    check_example(block, workspace, monkeypatch)


def test_every_regles_tag_is_known():
    for b in all_blocks():
        if b.tag.startswith("regles"):
            assert b.tag in RULES_TAGS, f"{b.where}: unknown tag '{b.tag}'; use one of {sorted(RULES_TAGS)}"


# Coverage: every construct of the grammar, every built-in ----------------------------

def _rules_texts(data):
    """(text, start) of every rules text in a loaded content file."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key in ("ability", "abilities"):
                for t in value if isinstance(value, list) else [value]:
                    if isinstance(t, str):
                        yield t, "ability"
            elif key in ("setup", "given", "when", "body") and isinstance(value, str):
                yield value, "procedure"
            elif key in ("procedures", "hooks", "replace") and isinstance(value, dict):
                for v in value.values():
                    if isinstance(v, str):
                        yield v, "procedure"
                    else:
                        yield from _rules_texts(v)
            elif key == "functions" and isinstance(value, dict):
                for v in value.values():
                    body = v.get("body") if isinstance(v, dict) else v
                    if isinstance(body, str):
                        yield body, "condition"
            elif key == "then" and isinstance(value, list):
                for t in value:
                    yield t, "condition"
            elif key == "heuristic" and isinstance(value, str):
                yield value, "condition"
            else:
                yield from _rules_texts(value)
    elif isinstance(data, list):
        for item in data:
            yield from _rules_texts(item)


def checked_trees():
    """The raw Lark trees of every example expected to check clean."""
    parser = lark_parser()
    for b in examples():
        if b.xfail:
            continue
        if b.tag in RULES_TAGS:
            texts = [(b.text, RULES_TAGS[b.tag])]
        else:
            texts = list(_rules_texts(yaml.safe_load(b.text)))
        for text, start in texts:
            yield parser.parse(text if text.endswith("\n") else text + "\n", start=start)


@pytest.fixture(scope="module")
def used():
    rules, calls, names, attrs = set(), set(), set(), set()
    for tree in checked_trees():
        for t in tree.iter_subtrees():
            rules.add(t.data)
            if t.data == "call":
                calls.add(str(t.children[0]))
            elif t.data == "name":
                names.add(str(t.children[0]))
            elif t.data == "attr":
                attrs.add(str(t.children[1]))
    return {"rules": rules, "calls": calls, "names": names, "attrs": attrs}


def grammar_constructs() -> set[str]:
    """Every rule or alias of the grammar that makes a node of the tree."""
    out = set()
    for r in lark_parser().rules:
        name = r.alias or r.origin.name
        if name.startswith("_") or name == "start" or (r.options.expand1 and not r.alias):
            continue
        out.add(name)
    return out


def statement_keywords() -> dict[str, str]:
    """Each statement rule of the grammar and the keyword it starts with."""
    grammar = (ROOT / "grammar" / "regles.lark").read_text(encoding="utf-8")
    found = dict(re.findall(r'^(\w+_stmt):\s*"(\w+)"', grammar, re.M))
    assert len(found) > 20, "statement rules not found in the grammar"
    return found


def test_every_construct_of_the_grammar_is_in_a_checked_example(used):
    missing = sorted(grammar_constructs() - used["rules"])
    assert not missing, f"constructs of grammar/regles.lark with no checked example in docs/: {missing}"


def test_every_statement_keyword_is_in_a_checked_example(used):
    missing = sorted(f"{kw} ({rule})" for rule, kw in statement_keywords().items() if rule not in used["rules"])
    assert not missing, f"statements with no checked example in docs/: {missing}"


def test_every_builtin_function_is_in_a_checked_example(used):
    missing = sorted(set(FUNCTIONS) - used["calls"])
    assert not missing, f"built-in functions with no checked example in docs/: {missing}"


def test_every_special_name_and_property_is_in_a_checked_example(used):
    missing = sorted(set(SPECIAL_NAMES) - used["names"]) + sorted(f".{p}" for p in set(PROPERTIES) - used["attrs"])
    assert not missing, f"special names and properties with no checked example in docs/: {missing}"


def test_the_tables_of_built_ins_are_made_from_their_records():
    """The reference shows every built-in from its record: a new record appears in the page,
    and a page edited by hand is out of date."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("gen_language_tables", DOCS / "gen_language_tables.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    text = (DOCS / "language.md").read_text(encoding="utf-8")
    assert gen.page(text) == text, "docs/language.md is out of date: run 'python docs/gen_language_tables.py'"
    for name, b in FUNCTIONS.items():
        assert all(f"`{form}`" in text for form in b.forms), name

    class Twice(FUNCTIONS["abs"].__class__.__mro__[1]):  # a new built-in, for this test only
        name, forms, types, doc = "twice", ("twice(N)",), {"N": "number"}, "a number doubled"
    try:
        assert "| `twice(N)` | a number doubled |" in gen.page(text)
    finally:
        del FUNCTIONS["twice"]



# Transcripts: `$ regles check ...` blocks print what they show -------------------------

def transcripts():
    out = []
    for page in sorted(DOCS.glob("*.md")) + [DOCS.parent / "README.md"]:
        files = {}  # the files the page has written so far, the last version of each
        for b in blocks(page):
            if b.file_name:
                files[b.file_name] = b.text
            elif b.tag == "text" and b.text.startswith("$ regles "):
                out.append(pytest.param(b, dict(files), id=f"{b.page}:{b.line}"))
    return out


class _Typed(io.StringIO):
    """What a person types at a transcript's prompts, echoed to the screen after each prompt."""

    def __init__(self, words: list, screen: io.StringIO):
        super().__init__("".join(f"{w}\n" for w in words))
        self.screen = screen

    def readline(self, *args) -> str:
        line = super().readline(*args)
        self.screen.write(line)
        return line


@pytest.mark.parametrize("block,files", transcripts())
def test_transcript(block, files, tmp_path, monkeypatch):
    from interpreter.cli import main
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    mark = block.mark or ""
    if mark.startswith("copy:"):
        for name in mark[len("copy:"):].split():
            shutil.copytree(ROOT / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    command, *expected = block.text.rstrip("\n").split("\n")
    status = None
    if expected and expected[-1].startswith("$ echo $?"):
        raise AssertionError("write the exit status as a separate '[exit status N]' line")
    if expected and re.fullmatch(r"\[exit status \d+\]", expected[-1]):
        status = int(expected.pop()[len("[exit status "):-1])
    out = io.StringIO()
    if mark.startswith("input:"):
        monkeypatch.setattr(sys, "stdin", _Typed(mark[len("input:"):].split(), out))
    with redirect_stdout(out), redirect_stderr(out):
        got_status = main(command.split()[2:])
    got = [line.rstrip() for line in out.getvalue().rstrip("\n").split("\n")]  # a page shows no trailing space
    if expected and expected[-1] == "...":
        # the page shows the first lines only
        expected.pop()
        got = got[:len(expected)]
    assert got == expected, f"{block.where}: '{command}' prints otherwise:\n" + "\n".join(got)
    if status is not None:
        assert got_status == status, f"{block.where}: {command} exits with {got_status}, not {status}"


def test_json_transcript_is_the_report_the_page_describes():
    """The JSON report a page shows (test_transcript checks it is what the command prints)
    has the fields the page names, counts its errors, and points into the files shown."""
    shown = 0
    for page in sorted(DOCS.glob("*.md")):
        bs = blocks(page)
        files = {b.file_name: b.text.split("\n") for b in bs if b.file_name}
        for b in bs:
            if b.tag == "text" and b.text.startswith("$ regles check --format json"):
                body = b.text.split("\n", 1)[1].rsplit("[exit status", 1)[0]
                data = json.loads(body)
                assert set(data) == {"files_checked", "errors", "diagnostics"}, b.where
                diagnostics = data["diagnostics"]
                assert diagnostics, b.where
                assert data["errors"] == sum(d["severity"] == "error" for d in diagnostics), b.where
                for d in diagnostics:
                    assert set(d) == {"path", "line", "column", "end_line", "end_column", "severity", "code",
                                      "message", "hint"}, b.where
                    assert d["severity"] in ("error", "warning"), b.where
                    assert d["code"] in CODE_NAMES and d["code"] != "E000", (b.where, d)
                    lines = files[d["path"]]
                    assert 1 <= d["line"] <= len(lines) and 1 <= d["column"] <= len(lines[d["line"] - 1]) + 1, \
                        (b.where, d)
                    assert (d["end_line"], d["end_column"]) > (d["line"], d["column"]), (b.where, d)
                shown += 1
    assert shown, "no page shows a '$ regles check --format json' transcript"


def test_the_table_of_error_codes_is_made_from_the_engine_s_table():
    import importlib.util
    spec = importlib.util.spec_from_file_location("gen_error_codes", DOCS / "gen_error_codes.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    text = (DOCS / "errors.md").read_text(encoding="utf-8")
    assert gen.page(text) == text, "docs/errors.md is out of date: run 'python docs/gen_error_codes.py'"


def test_the_table_of_trace_events_is_made_from_their_records():
    import importlib.util
    spec = importlib.util.spec_from_file_location("gen_trace_events", DOCS / "gen_trace_events.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    text = (DOCS / "playing.md").read_text(encoding="utf-8")
    assert gen.page(text) == text, "docs/playing.md is out of date: run 'python docs/gen_trace_events.py'"


# The content file reference follows the schemas ----------------------------------------

def _load_schema(kind: str) -> dict:
    return json.loads((SCHEMAS / f"{kind}.schema.json").read_text(encoding="utf-8"))


def schema_property_names(schema: dict) -> set[str]:
    """Every property name of a schema, through $defs, anyOf/oneOf, items and maps."""
    names = set()

    def walk(node):
        if isinstance(node, dict):
            for name, sub in (node.get("properties") or {}).items():
                names.add(name)
                walk(sub)
            for key, value in node.items():
                if key != "properties":
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)
    walk(schema)
    return names


def doc_sections(text: str) -> dict[str, str]:
    """The sections of content-files.md, by the kind their heading names."""
    out = {}
    parts = re.split(r"^## ", text, flags=re.M)
    for part in parts[1:]:
        heading, _, body = part.partition("\n")
        m = re.search(r"`kind: ([\w-]+)`", heading)
        if m:
            out[m.group(1)] = body
    return out


def documented_keys(section: str) -> set[str]:
    """The key names a section documents: the last word of each key path in its tables."""
    keys = set()
    for m in re.finditer(r"^\| `([^`]+)` \|", section, re.M):
        parts = [p for p in re.split(r"[.\[\]]+", m.group(1)) if p]
        named = [p for p in parts if not re.fullmatch(r"[A-Z][A-Z_]*", p)]
        if named and named[-1] == parts[-1]:
            keys.add(parts[-1])
    return keys


def test_content_reference_has_a_section_per_kind():
    sections = doc_sections((DOCS / "content-files.md").read_text(encoding="utf-8"))
    assert sorted(sections) == sorted(KINDS)


@pytest.mark.parametrize("kind", KINDS)
def test_content_reference_documents_every_key_of_the_schema(kind):
    section = doc_sections((DOCS / "content-files.md").read_text(encoding="utf-8"))[kind]
    in_schema = schema_property_names(_load_schema(kind))
    in_doc = documented_keys(section)
    assert not in_schema - in_doc, f"keys of schemas/{kind}.schema.json not in docs/content-files.md: " \
                                   f"{sorted(in_schema - in_doc)}"
    assert not in_doc - in_schema, f"keys in docs/content-files.md that schemas/{kind}.schema.json lacks: " \
                                   f"{sorted(in_doc - in_schema)}"


def test_content_reference_is_generated_from_the_schemas():
    script = DOCS / "gen_content_reference.py"
    result = subprocess.run([sys.executable, str(script), "--stdout"], capture_output=True, text=True, check=True)
    committed = (DOCS / "content-files.md").read_text(encoding="utf-8")
    assert result.stdout == committed, \
        "docs/content-files.md is out of date: run 'python docs/gen_content_reference.py'"


# The schemas describe themselves ------------------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
def test_schema_is_described(kind):
    schema = _load_schema(kind)
    for key in ("$id", "title", "description"):
        assert schema.get(key), f"schemas/{kind}.schema.json has no {key}"
    undescribed = []

    def walk(node, path):
        if isinstance(node, dict):
            for group in ("properties", "patternProperties", "$defs"):
                for name, sub in (node.get(group) or {}).items():
                    if isinstance(sub, dict) and not sub.get("description"):
                        undescribed.append(f"{path}/{group}/{name}")
            extra = node.get("additionalProperties")
            if isinstance(extra, dict) and not node.get("properties") and not extra.get("description") \
                    and "$ref" not in extra:
                undescribed.append(f"{path}/additionalProperties")
            for key, value in node.items():
                walk(value, f"{path}/{key}")
        elif isinstance(node, list):
            for i, item in enumerate(node):
                walk(item, f"{path}/{i}")
    walk(schema, "#")
    assert not undescribed, f"schemas/{kind}.schema.json: no description at {undescribed}"


# Shipped content names its schema --------------------------------------------------------

_SCHEMA_LINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")


@pytest.mark.parametrize("path", sorted(p.relative_to(ROOT).as_posix() for p in CONTENT.rglob("*")
                                         if p.suffix in (".yaml", ".yml")) or
                         [pytest.param(None, marks=pytest.mark.skip(reason="no shipped content"))])
def test_content_file_names_its_schema(path):
    file = ROOT / path
    text = file.read_text(encoding="utf-8")
    first = text.split("\n", 1)[0]
    m = _SCHEMA_LINE.match(first)
    assert m, f"{path}: the first line must be '# yaml-language-server: $schema=RELATIVE/PATH.schema.json'"
    kind = (yaml.safe_load(text) or {}).get("kind")
    target = (file.parent / m.group(1)).resolve()
    assert target == (SCHEMAS / f"{kind}.schema.json").resolve(), \
        f"{path}: $schema={m.group(1)} is not the schema of kind '{kind}'"


# The site builds --------------------------------------------------------------------------

def test_mkdocs_builds_strict(tmp_path):
    if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("material") is None:
        pytest.skip("mkdocs or its theme is not installed (they come with the test extras: pip install '.[test]')")
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                             "--config-file", str(ROOT / "mkdocs.yml"), "--site-dir", str(tmp_path / "site")],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, f"mkdocs build --strict failed:\n{result.stdout}\n{result.stderr}"
    assert (tmp_path / "site" / "language" / "index.html").is_file()
    assert (tmp_path / "site" / "search" / "search_index.json").is_file()  # the search plugin ran
