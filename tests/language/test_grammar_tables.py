"""The grammar's LALR tables shipped beside it (language.grammar_tables): current, the same as
the tables Lark builds, used by a first start, and never used when they do not match."""
from __future__ import annotations

import zlib

import lark
import pytest

from interpreter.language import grammar_tables, parser
from interpreter.resources import grammar_path

REGENERATE = "run: python -m interpreter.language.write_tables"


def _text():
    return grammar_path().read_text(encoding="utf-8")


def _shipped():
    return grammar_tables.tables_path(grammar_path())


def _header():
    import marshal
    return marshal.loads(zlib.decompress(_shipped().read_bytes()))[0]


def test_the_shipped_tables_are_those_of_the_grammar():
    assert _header()["grammar"] == grammar_tables.grammar_hash(_text()), f"the grammar changed: {REGENERATE}"


def same_lark():
    made_with = _header()["lark"]
    if made_with != lark.__version__:
        pytest.skip(f"the shipped tables were made with Lark {made_with}, this is Lark {lark.__version__}: "
                    f"a first start builds them ({REGENERATE})")


def test_a_first_start_builds_no_tables(monkeypatch):
    same_lark()

    def no_build(*args, **kwargs):
        raise AssertionError("the tables were built")
    monkeypatch.setattr(parser, "build_lark", no_build)
    made = parser.lark_parser.__wrapped__()
    tree = made.parse("if x > 1:\n    win p\n", start="procedure")
    assert tree.data == "procedure"


@pytest.mark.parametrize("damage", ["garbage", "truncated", "other grammar", "other lark", "not a header"])
def test_tables_that_do_not_match_are_not_used(tmp_path, damage):
    import marshal
    good = _shipped().read_bytes()
    header, data, memo = marshal.loads(zlib.decompress(good))
    if damage == "garbage":
        raw = b"\x00\x01not tables"
    elif damage == "truncated":
        raw = good[: len(good) // 2]
    elif damage == "not a header":
        raw = zlib.compress(marshal.dumps(([1, 2], data, memo)))
    else:
        key, value = ("grammar", "0" * 64) if damage == "other grammar" else ("lark", "0.0.1")
        raw = zlib.compress(marshal.dumps(({**header, key: value}, data, memo)))
    path = tmp_path / "regles.tables"
    path.write_bytes(raw)
    assert grammar_tables.read(_text(), path) is None
    assert grammar_tables.load(_text(), path, parser._Indent()) is None


def test_a_missing_file_is_not_used(tmp_path):
    assert grammar_tables.read(_text(), tmp_path / "none.tables") is None
