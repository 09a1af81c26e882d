"""The YAML reader's native path (content/yaml_reader.c) against the Python path it stands in
for: the same values, types, positions and styles wherever it reads a file, and the file given
up to the Python path wherever that path would say something is wrong, or builds a value the
native path does not."""
from __future__ import annotations

import os
import random
import shutil
import sysconfig
from pathlib import Path

import pytest

from interpreter.content import source, yaml_native
from interpreter.diagnostics import ContentError

ROOT = Path(__file__).resolve().parents[2]


def _can_build() -> bool:
    """Whether this machine has what the reader is built with: a C compiler, Python's headers
    and libyaml's (where it has them, the reader must build)."""
    include = sysconfig.get_paths().get("include") or ""
    return (shutil.which(os.environ.get("CC") or "cc") is not None and os.path.exists(os.path.join(include, "Python.h"))
            and any(os.path.exists(os.path.join(d, "yaml.h")) for d in ("/usr/include", "/usr/local/include")))


@pytest.fixture(scope="module")
def reader(tmp_path_factory):
    if not _can_build():
        pytest.skip("no C compiler, Python headers or libyaml headers: the Python path reads every file")
    built = yaml_native.build(str(tmp_path_factory.mktemp("yaml")), source.NATIVE_SETUP)
    assert built is not None, "the native YAML reader did not build"
    return built


def _python(path: str, text: str, monkeypatch):
    monkeypatch.setattr(source, "NATIVE_FROM", 1 << 40)
    return source.parse_yaml(path, text)


def _native(reader, path: str, text: str):
    """The native reader's values of `text`, its blocks' indents found as the loader finds
    them, or None when it gives the file up."""
    got = reader.read(text.encode("utf-8"), path)
    if got is None:
        return None
    data, blocks = got
    lines = source.lines_of(text)
    for s in blocks:
        s.lines = source._block_indent_at(lines, *s.lines)
    return data


def _both(reader, path: str, text: str, monkeypatch) -> tuple:
    """(what the loader gives on the Python path, what it gives with every file read natively
    where it can, whether the native path built it): each a value or the ContentError raised."""
    outcomes = []
    for native_from in (1 << 40, 0):
        monkeypatch.setattr(source, "NATIVE_FROM", native_from)
        monkeypatch.setattr(source, "native_reader", lambda setup: reader)
        try:
            outcomes.append(source.parse_yaml(path, text))
        except ContentError as exc:
            outcomes.append(exc)
    return outcomes[0], outcomes[1], _native(reader, path, text) is not None


def _same_outcome(want, got):
    if isinstance(want, ContentError):
        assert isinstance(got, ContentError)
        assert (got.code, got.message, got.position, got.hint) == (want.code, want.message, want.position, want.hint)
        return
    assert not isinstance(got, ContentError), got
    _same(got[0], want[0])
    assert [(e.code, e.message, e.position) for e in got[1]] == [(e.code, e.message, e.position) for e in want[1]]


def _same(a, b, where="$"):
    assert type(a) is type(b), (where, a, b)
    if isinstance(a, dict):
        assert list(a) == list(b) and a.pos == b.pos and a.key_pos == b.key_pos, where
        for k in a:
            _same(k, next(x for x in b if x == k), f"{where}.{k}(key)")
            _same(a[k], b[k], f"{where}.{k}")
    elif isinstance(a, list):
        assert len(a) == len(b) and a.pos == b.pos, where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _same(x, y, f"{where}[{i}]")
    elif isinstance(a, str):
        assert (a, a.pos, a.style, a.end_line, a.lines) == (b, b.pos, b.style, b.end_line, b.lines), where
    elif a is None or isinstance(a, bool):
        assert a is b, where
    else:
        assert a == b and a.pos == b.pos, where


def _content_files() -> list[Path]:
    return sorted((ROOT / "content").rglob("*.yaml")) + sorted((ROOT / "tests" / "fixtures").rglob("*.yaml"))


def test_every_shipped_file_reads_the_same_natively(reader, monkeypatch):
    natively = given_up = 0
    for f in _content_files():
        text = source.decode(str(f), f.read_bytes())
        want, got, built = _both(reader, str(f), text, monkeypatch)
        _same_outcome(want, got)
        natively += built
        given_up += not built
    assert natively > 10 * given_up  # most files hold only what the native path builds


CASES = {
    "texts": ("a: plain\nb: 'single'\nc: \"double\\n\"\nd: |\n  one\n  two\ne: >-\n    folded\n    lines\n"
              "f: \"two\n  lines\"\n"),
    "numbers": "a: 0\nb: 7\nc: -12\nd: +4\ne: 123456789012345\nf: [yes, No, on, OFF, true, ~, null, '']\n",
    "nested": "cards:\n  - {id: a, tags: [x, y], n: 3}\n  - id: b\n    abilities:\n      - text\n",
    "aliases": ("base: &b\n  id: a\n  tags: [x, &t y]\n  n: 3\n  text: |\n    block\n"
                "more: [*b, *b, *t]\nlist: &l [1, *t]\nagain: *l\n"),
    "scalar anchor": "a: &x hello\nb: *x\nc: [*x, *x]\n",
    "unicode": "é: 'ça'\nclé: \"\\u00e9t\\u00e9\"\nk: 💡 idée\n",
}


@pytest.mark.parametrize("name", CASES)
def test_what_the_native_path_reads_is_what_the_python_path_builds(reader, monkeypatch, name):
    text = CASES[name]
    want, _ = _python("c.yaml", text, monkeypatch)
    got = _native(reader, "c.yaml", text)
    assert got is not None
    _same(got, want)


def test_an_alias_is_built_again_not_shared(reader):
    data = _native(reader, "c.yaml", CASES["aliases"])
    first, second = data["more"][0], data["more"][1]
    assert first == second == data["base"] and first is not second and first is not data["base"]
    assert first["tags"] is not data["base"]["tags"]


@pytest.mark.parametrize("text", [
    "a: !!str 12\n",                 # a tag written out
    "a: 1.5\n", "a: 0x1F\n", "a: 012\n", "a: 1_000\n", "a: 2001-12-14\n", "a: 9007199254740991\n",
    "a: 1\na: 2\n",                  # a duplicate key
    "1: a\n", "? [a]\n: b\n", "<<: {a: 1}\n",  # keys that are no text
    "a: &x 1\nb: &x 2\n",             # a duplicate anchor
    "a: &x [1, *x]\n",                # an alias inside the value it names
    "a: *nowhere\n",                  # an alias of no anchor
    "a: 1\n---\nb: 2\n",              # two documents
    "a: [1, 2\n",                     # a YAML error
    "# only a comment\n",
    "[" * 70 + "]" * 70 + "\n",       # nested deeper than a file may be
])
def test_the_native_path_gives_up_what_it_does_not_build_the_same_way(reader, text):
    assert reader.read(text.encode("utf-8"), "c.yaml") is None


def test_aliases_that_expand_past_the_bounds_are_given_up(reader):
    lol = "a: &a [" + ", ".join(["x"] * 10) + "]\n"
    for i in range(1, 8):  # 10 ** 7 values once expanded
        lol += f"{chr(97 + i)}: &{chr(97 + i)} [" + ", ".join([f"*{chr(96 + i)}"] * 10) + "]\n"
    assert reader.read(lol.encode(), "lol.yaml") is None
    with pytest.raises(ContentError) as err:
        source.parse_yaml("lol.yaml", lol)
    assert err.value.code == "Y009"


def test_mutated_files_read_the_same_or_are_given_up(reader, monkeypatch):
    """Random damage to shipped files: the loader gives the same values, or raises the same
    error, whether it may read them natively or not."""
    rng = random.Random(31)
    files = [f for f in _content_files() if f.stat().st_size > 500]
    pieces = ["\n", " ", "  ", ":", "- ", "&a ", "*a", "[", "]", "{", "}", "'", '"', "|", ">", "#", ",", "?", "!",
              "0", "-1", "yes", "é", "\t", "\x00", "\\", "%YAML 1.1\n", "---\n", "..."]
    natively = 0
    for _ in range(400):
        f = rng.choice(files)
        text = source.decode(str(f), f.read_bytes())
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(text))
            cut = rng.choice([0, 0, 1, 3])
            text = text[:at] + rng.choice(pieces + [""]) + text[at + cut:]
        want, got, built = _both(reader, str(f), text, monkeypatch)
        _same_outcome(want, got)
        natively += built
    assert natively  # some mutations leave a file the native path reads


def test_a_large_file_is_read_natively_by_the_loader(reader, monkeypatch):
    """load_file takes the native path for a file of NATIVE_FROM bytes or more, and only then;
    what it gives is what the Python path gives."""
    cards = "".join(f"  - {{id: card-{i}, cost: {i % 7}, text: 'Gain {i} coins.', tags: [a, b]}}\n" for i in range(200))
    raw = ("kind: cards\ncards:\n" + cards).encode("utf-8")
    calls = []

    class Counted:
        @staticmethod
        def read(*args):
            calls.append(args[1])
            return reader.read(*args)

    monkeypatch.setattr(source, "native_reader", lambda setup: Counted)
    monkeypatch.setattr(source, "NATIVE_FROM", len(raw) + 1)
    small, _ = source.load_file("big.yaml", raw)
    assert not calls
    monkeypatch.setattr(source, "NATIVE_FROM", len(raw))
    big, _ = source.load_file("big.yaml", raw)
    assert calls == ["big.yaml"]
    _same(big.data, small.data)
