"""Property tests: no input, however broken, makes `regles check` crash.

Hypothesis feeds the checking pipeline (a) random text and random bytes and
(b) random mutations of the shipped, valid content files: lines deleted,
swapped or duplicated, values swapped between keys, garbage put into rules
texts and ability strings, indentation changed. For each input the pipeline
is run in-process (`check_paths`, then both reporters) and through the command
(`cli.main`); it must never raise, never print a traceback or an internal
error, exit with 0 or 1, and point every diagnostic of the file at one of its
lines.
"""
from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import interpreter.rulings.check
from interpreter import cli
from interpreter.rulings.check import check_paths
from gamekit import FIXTURES
from interpreter.diagnostics import lines_of, render_json, render_text
from interpreter.resources import content_dir

GAME = content_dir() / "seeders-exodus"
# every game folder to mutate: the shipped games and the documentation's test game
FOLDERS = sorted(p.parent for p in content_dir().glob("*/game.yaml")) + [FIXTURES / "docs-game"]
SHIPPED = {(folder, str(p.relative_to(folder))): p.read_text(encoding="utf-8")
           for folder in FOLDERS for p in sorted(folder.rglob("*.yaml"))}
# files that can be checked alone, naming a shipped game
LONE = tuple(k for k in SHIPPED if k[0].parent == content_dir() and k[1] != "game.yaml")
HEADER = "kind: cards\ngame: seeders-exodus\n"

# REGLES_PROPERTY_SCALE=20 runs twenty times as many examples (a bug hunt, not the default run)
SCALE = float(os.environ.get("REGLES_PROPERTY_SCALE", "1"))
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
                database=None)


def run_pipeline(path: Path, capsys, mutated_file: Path | None = None) -> None:
    """Everything a user can run on `path`; asserts it never breaks.

    The command runs the pipeline once; `check_paths` is spied on so that its report is
    also checked directly (and so that the costly pipeline runs once per example)."""
    reports = []

    def spy(paths):
        reports.append(real_check_paths(paths))
        return reports[-1]

    capsys.readouterr()
    real_check_paths = interpreter.rulings.check.check_paths
    interpreter.rulings.check.check_paths = spy
    try:
        status = cli.main(["check", str(path)])
    finally:
        interpreter.rulings.check.check_paths = real_check_paths
    out, err = capsys.readouterr()
    assert "Traceback" not in out and "Traceback" not in err, out + err
    assert "internal error" not in err, err
    assert status in (0, 1), (status, out, err)
    assert re.search(r"\d+ files? checked: \d+ errors?", out), out
    (report,) = reports
    assert status == (0 if report.ok else 1)
    render_json(report)
    assert render_text(report) in out
    broken = mutated_file or path
    lines = _line_count(broken)
    for d in report.diagnostics:
        assert d.position.line >= 1 and d.position.column >= 1, d
        if Path(d.position.path).resolve() == broken.resolve():
            # a diagnostic of this file points into it (or just past its last line)
            assert d.position.line <= lines + 1, (d, lines)


def _line_count(path: Path) -> int:
    if path.is_dir():
        return 10 ** 9
    # lines as YAML counts them, which is how every position counts them
    return len(lines_of(path.read_bytes().decode("utf-8", "replace")))


class Workspace:
    """A fresh temporary folder per example (hypothesis runs many examples per test)."""

    def __enter__(self) -> Path:
        self.dir = Path(tempfile.mkdtemp(prefix="regles-prop-"))
        return self.dir

    def __exit__(self, *exc):
        shutil.rmtree(self.dir, ignore_errors=True)


# -- (a) random text and bytes ----------------------------------------------------------------------

YAMLISH = st.sampled_from(list(":-[]{}#&*!|>'\"%@`,?\n\t ") + ["kind: cards\n", "cards:\n", "  - id: x\n",
                          "abilities:\n", "when scoring:\n", "  score 1\n", "- |\n", "&a ", "*a", "!!str ", "~"])


@settings(max_examples=int(50 * SCALE), **SETTINGS)
@given(text=st.text(max_size=300) | st.lists(YAMLISH, max_size=40).map("".join))
def test_random_text_never_crashes(text, capsys):
    with Workspace() as tmp:
        path = tmp / "random.yaml"
        path.write_text(text, encoding="utf-8")
        run_pipeline(path, capsys)


@settings(max_examples=int(30 * SCALE), **SETTINGS)
@given(raw=st.binary(max_size=300))
def test_random_bytes_never_crash(raw, capsys):
    with Workspace() as tmp:
        path = tmp / "random.yaml"
        path.write_bytes(raw)
        run_pipeline(path, capsys)


@settings(max_examples=int(30 * SCALE), **SETTINGS)
@given(text=st.text(max_size=200) | st.lists(YAMLISH, max_size=30).map("".join))
def test_random_text_after_a_card_header_never_crashes(text, capsys):
    with Workspace() as tmp:
        path = tmp / "cards.yaml"
        path.write_text(HEADER + text, encoding="utf-8")
        run_pipeline(path, capsys)


# -- (b) mutations of the shipped content -----------------------------------------------------------

# words of the language and of the games, so that mutated rules texts often still parse and reach the checker
WORDS = st.sampled_from("you self each in where is not and or count sum max top first in_play players opponents "
                        "score move to from add gain pay resource pp hand ark deck discard Module Équipage Mutant "
                        "c p x 0 1 2 ( ) [ ] . , == < + - * if for repeat break return none true signal call "
                        "integrated scoring setup option choose by tap EFFECT X Y Coffre Affinité".split())
GARBAGE = st.text(alphabet=st.sampled_from(list("()[]:,.\"'=<>!-+*/%#$@\\ \tabcXY0129é\n\r\x0c\x85\u2028\ufeff")),
                  min_size=1, max_size=8)
KEY_VALUE = re.compile(r"^(\s*-?\s*[\w$-]+:)\s*(\S.*)$")


def _rules_lines(lines: list[str]) -> list[int]:
    """Lines holding rules text: inside '|' blocks, or quoted ability strings."""
    out, block = [], None
    for i, line in enumerate(lines):
        indent = len(line) - len(line.lstrip(" "))
        if block is not None:
            if line.strip() and indent <= block:
                block = None
            elif line.strip():
                out.append(i)
                continue
        if re.search(r":\s*\|\s*$|^\s*-\s*\|\s*$", line):
            block = indent
        elif re.match(r'^\s*-\s*"', line) or re.match(r'^\s*(ability|pattern|body|given|when|setup):\s*"', line) \
                or re.match(r'^\s*abilities:\s*\[', line):
            out.append(i)
    return out


# The strategies draw from what is found here; found empty, they would draw nothing or fall
# back to random lines, and the property tests would pass without testing what they say.
if not LONE or len(FOLDERS) < 2:
    raise RuntimeError(f"property tests: too little shipped content found ({len(FOLDERS)} folders)")
_NO_RULES_LINES = [name for name, text in SHIPPED.items()
                   if ("abilities:" in text or "procedures:" in text or "ability:" in text)
                   and not _rules_lines(text.split("\n"))]
if _NO_RULES_LINES:
    raise RuntimeError(f"property tests: no rules text found in {_NO_RULES_LINES}")


@st.composite
def mutated(draw, names=tuple(SHIPPED)):
    name = draw(st.sampled_from(names))
    lines = SHIPPED[name].split("\n")
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["delete", "swap", "duplicate", "swap_values", "garbage", "garbage",
                                     "indent", "truncate", "word", "word"]))
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        if kind == "delete":
            del lines[i]
        elif kind == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "duplicate":
            lines.insert(i, lines[i])
        elif kind == "swap_values":
            pairs = [n for n, line in enumerate(lines) if KEY_VALUE.match(line)]
            if len(pairs) >= 2:
                a, b = draw(st.sampled_from(pairs)), draw(st.sampled_from(pairs))
                ma, mb = KEY_VALUE.match(lines[a]), KEY_VALUE.match(lines[b])
                lines[a], lines[b] = f"{ma.group(1)} {mb.group(2)}", f"{mb.group(1)} {ma.group(2)}"
        elif kind == "garbage":
            targets = _rules_lines(lines) or [i]
            t = draw(st.sampled_from(targets))
            at = draw(st.integers(0, len(lines[t])))
            lines[t] = lines[t][:at] + draw(GARBAGE) + lines[t][at:]
        elif kind == "word":
            targets = _rules_lines(lines) or [i]
            t = draw(st.sampled_from(targets))
            words = lines[t].split(" ")
            k = draw(st.integers(0, len(words) - 1))
            if words[k].strip():
                words[k] = draw(WORDS)
            else:
                words.insert(k, draw(WORDS))
            lines[t] = " ".join(words)
        elif kind == "indent":
            delta = draw(st.sampled_from([-4, -2, -1, 1, 2, 4]))
            lines[i] = " " * delta + lines[i] if delta > 0 else lines[i][min(-delta, len(lines[i]) - len(lines[i].lstrip(" "))):]
        elif kind == "truncate":
            lines = lines[: i + 1]
    return name, "\n".join(lines)


@settings(max_examples=int(40 * SCALE), **SETTINGS)
@given(case=mutated(names=LONE))
def test_mutated_files_checked_alone_never_crash(case, capsys):
    """A mutated card, keyword, board or rules-test file, checked alone against its shipped game."""
    (_, rel), text = case
    with Workspace() as tmp:
        path = tmp / Path(rel).name
        path.write_text(text, encoding="utf-8")
        run_pipeline(path, capsys)


@settings(max_examples=int(10 * SCALE), **SETTINGS)
@given(case=mutated())
def test_mutated_game_folder_never_crashes(case, capsys):
    """A copy of a whole game folder with one file mutated, the game file included."""
    (source, rel), text = case
    with Workspace() as tmp:
        folder = tmp / source.name
        shutil.copytree(source, folder)
        target = folder / rel
        target.write_text(text, encoding="utf-8")
        run_pipeline(folder, capsys, mutated_file=target)


def test_seeders_folder_is_clean():
    """The unmutated game is the baseline: clean, so that errors come from the mutations."""
    report = check_paths([str(GAME)])
    assert report.ok, render_text(report)


# -- (c) the parser alone, on many mutated rules texts (fast: no pack to load) -------------------------

def _rules_texts() -> list[tuple[str, str]]:
    """(text, start symbol) of every rules text in the shipped content."""
    from interpreter.content.source import load_file

    starts = {"abilities": "ability", "ability": "ability", "pattern": "ability", "body": "procedure",
              "given": "procedure", "when": "procedure", "setup": "procedure", "then": "condition",
              "heuristic": "condition"}
    out = []

    def walk(value, key=None):
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, "body" if key == "procedures" and isinstance(v, str) else k)
        elif isinstance(value, list):
            for v in value:
                walk(v, key)
        elif isinstance(value, str) and key in starts:
            out.append((str(value), starts[key]))

    for folder in FOLDERS:
        for path in sorted(folder.rglob("*.yaml")):
            src, _ = load_file(str(path))
            walk(src.data)
    return out


RULES_TEXTS = _rules_texts()
if len(RULES_TEXTS) < 50 or {start for _, start in RULES_TEXTS} != {"ability", "procedure", "condition"}:
    raise RuntimeError(f"property tests: {len(RULES_TEXTS)} rules texts found, too few or not of every kind")


@st.composite
def mutated_rules_text(draw):
    text, start = draw(st.sampled_from(RULES_TEXTS))
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["insert", "word", "delete", "newline"]))
        if kind == "insert":
            text = text[:at] + draw(GARBAGE) + text[at:]
        elif kind == "word":
            text = text[:at] + " " + draw(WORDS) + " " + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 6)):]
        else:
            text = text[:at] + "\n" + " " * draw(st.integers(0, 6)) + text[at:]
    return text, draw(st.sampled_from([start, start, "procedure", "ability", "condition"]))


@settings(max_examples=int(400 * SCALE), **SETTINGS)
@given(case=mutated_rules_text())
def test_parser_raises_only_positioned_content_errors(case):
    from interpreter.diagnostics import ContentError
    from interpreter.language.parser import parse

    text, start = case
    try:
        parse(text, start)
    except ContentError as exc:
        lines = text.split("\n")
        assert exc.position is not None and exc.message.startswith("syntax error")
        assert 1 <= exc.position.line <= len(lines) + 1, (exc.position, exc.message)
        assert exc.position.column >= 1
