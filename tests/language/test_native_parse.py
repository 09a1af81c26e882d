"""The fast parser's loop in C (`native_parse`, `lalr_loop.c`) against its loop in Python,
the reference: for every rules text of the shipped content and of the test files, for
thousands of damaged variants of them and for edge cases of the lexer, the same tree with
the same positions, or both give the text up to Lark."""
from __future__ import annotations

import pytest

from interpreter.diagnostics import Position
from interpreter.language import native_parse
from interpreter.language import parser as P
from interpreter.language.fastparse import FastParser

from parsed_texts import EDGE_TEXTS, damaged_cases, dump, rules_texts


@pytest.fixture(scope="module")
def loops():
    fast = FastParser(P.lark_parser())
    loop = native_parse.native_loop(fast)
    if loop is None:
        pytest.skip("no C compiler or cache folder here: the Python loop parses every text")
    return fast, loop


def _where(line, column):
    return Position("<t>", line, column)


def _mismatches(fast, loop, cases) -> tuple[list, int]:
    """The cases where the loops differ, and how many texts gave a tree."""
    out, trees = [], 0
    for text, start, where in cases:
        source = text if text.endswith("\n") else text + "\n"
        want = fast.parse(source, start, where or _where)
        got = loop.parse(source, start, where or _where)
        trees += want is not None
        if (want is None) != (got is None) or (want is not None and dump(want) != dump(got)):
            out.append((text, start, want is not None, got is not None))
    return out, trees


def test_every_shipped_and_test_text_gives_the_python_loop_s_tree(loops):
    mismatches, trees = _mismatches(*loops, rules_texts())
    assert mismatches == []
    assert trees > 500


def test_damaged_texts_give_the_python_loop_s_tree_or_are_given_up(loops):
    cases = damaged_cases(20261201)
    mismatches, trees = _mismatches(*loops, cases)
    assert mismatches == []
    assert 300 < trees < len(cases)  # both trees and texts given up were met


LEXER_TEXTS = [
    ("gain \u0663 coins", "procedure"),  # a digit of another script: \d, a number
    ("gain 1 pi\u00e8ces_d'or", "procedure"),  # letters of names: \w and '
    ("gain 1 \u00b2x", "procedure"),  # a digit that is not decimal starts a name
    ("gain 1 x\u00b2", "procedure"),
    ("if x:\r\n    pass\r\n", "procedure"),  # Windows line ends
    ("if x:\r    pass\n", "procedure"),  # a lone carriage return
    ("if x:\n\tpass\n", "procedure"),  # a tab is 8 columns of indent
    ("if x:\n  \tpass\n  pass\n", "procedure"),
    ("if x:\n\tif y:\n\t\tpass\n        pass\n", "procedure"),  # 8 spaces close the inner block
    ('log "a \\" b"', "procedure"),  # an escaped quote
    ('log "a\\\nb"', "procedure"),  # an escaped line end: no string
    ('log "a', "procedure"),  # an open string
    ("gain 1 x # a comment\n# another\n\n   # indented\n", "procedure"),
    ("if x: # why\n    pass # done", "procedure"),
    ("x \u2264 3", "condition"),  # a character no terminal matches
    ("x <= 3 and y != 2 and z == 1 or w >= 0", "condition"),
    ("x - 1 \u2013 2 \u2014 3 + 4 * 5 / 6 % 7", "condition"),
    ("choose c from hand whereabouts", "procedure"),  # a keyword that begins a name
    ("_x", "condition"),
    ("gain (1 +\n\n   # inside\n  2) coins", "procedure"),  # newlines in brackets
    ("gain (1 +\n  2 coins", "procedure"),  # an unclosed bracket
    ("gain 1) coins", "procedure"),  # a bracket closed that was not open
    ("if x:\n    if y:\n        pass\n  pass\n", "procedure"),  # a dedent to no level
    ("if x:\n    if y:\n        pass", "procedure"),  # blocks closed at the end
    ("#", "procedure"),
    ("\n", "condition"),
]


@pytest.mark.parametrize("text,start", EDGE_TEXTS + LEXER_TEXTS,
                         ids=[f"edge{i}" for i in range(len(EDGE_TEXTS) + len(LEXER_TEXTS))])
def test_edge_texts_give_the_python_loop_s_tree_or_are_given_up(text, start, loops):
    assert _mismatches(*loops, [(text, start, None)])[0] == []


def test_a_text_with_a_lexer_edge_gives_its_tree():
    """Not all the lexer's edges are given up: these texts give trees in both loops."""
    fast = P._fast_parser()
    for text in ("gain \u0663 coins\n", "gain 1 pi\u00e8ces_d'or\n", "if x:\r\n    pass\r\n", 'log "a \\" b"\n'):
        assert fast.parse(text, "procedure", _where) is not None, text


def test_an_exception_in_a_tree_builder_gives_the_text_up_and_an_interrupt_goes_on(loops):
    _, loop = loops

    def broken(line, column):
        raise ValueError("a place of no text")
    assert loop.parse("gain 1 x\n", "procedure", broken) is None

    def interrupted(line, column):
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        loop.parse("gain 1 x\n", "procedure", interrupted)
    fast = P._fast_parser()
    assert dump(loop.parse("gain 1 x\n", "procedure", _where)) == dump(fast.parse("gain 1 x\n", "procedure", _where))


def test_tables_that_do_not_hold_together_are_refused(loops):
    fast, loop = loops
    setup, _ = native_parse.tables(fast)
    actions = list(setup[3])
    actions[0] = 10 ** 6  # a shift to no state
    with pytest.raises(ValueError):
        loop.module.setup(*setup[:3], actions, *setup[4:])
    with pytest.raises(ValueError):
        loop.module.setup(setup[0], setup[1], setup[2][:-1], *setup[3:])  # a state with no lexer


def test_a_pattern_the_c_lexer_does_not_know_leaves_every_text_to_the_python_loop(monkeypatch):
    fast = FastParser(P.lark_parser())
    assert native_parse.tables(fast) is not None
    monkeypatch.setattr(native_parse, "PATTERNS", {})
    assert native_parse.tables(fast) is None
    assert native_parse.native_loop(fast) is None


def test_with_no_cache_folder_there_is_no_loop_in_c(monkeypatch):
    monkeypatch.setenv("REGLES_NO_CACHE", "1")
    assert native_parse.native_loop(FastParser(P.lark_parser())) is None


def test_literal_texts_are_read_in_the_order_re_tries_them():
    assert native_parse.literal_texts("(?:==|!=|<=|>=|<|>)") == ["==", "!=", "<=", ">=", "<", ">"]
    assert sorted(native_parse.literal_texts("(?:(?:\\-|\u2013|\u2014)|\\+)")) == ["+", "-", "\u2013", "\u2014"]
    assert native_parse.literal_texts("(?:a|b)(?:c|dd)") == ["ac", "add", "bc", "bdd"]
    for pattern in ("[a-z]+", "a|", "(a)", "a*", "[^a]", "(?i:a)"):
        assert native_parse.literal_texts(pattern) is None, pattern


def test_a_process_parses_with_the_loop_in_c_after_native_after_texts(loops, monkeypatch):
    _, loop = loops
    used = []

    class Spy:
        def parse(self, source, start, where):
            used.append(source)
            return loop.parse(source, start, where)
    asked = []

    def native(fast, build):
        asked.append(build)
        return Spy()
    monkeypatch.setattr(P, "native_loop", native)
    monkeypatch.setattr(P, "_LOOPED", 0)
    monkeypatch.setattr(P, "NATIVE_AFTER", 2)
    monkeypatch.setattr(P, "BUILD_AFTER", 3)
    trees = [dump(P.parse(f"gain {n} x", "procedure")) for n in range(4)]
    assert used == ["gain 2 x\n", "gain 3 x\n"]
    assert asked == [False, False]  # the loop in C taken when built, not built yet
    assert P._LOOPED == 2
    monkeypatch.setattr(P, "native_loop", lambda fast, build: asked.append(build))
    assert [dump(P.parse(f"gain {n} x", "procedure")) for n in range(4)] == trees
    assert asked == [False, False, False, True, True, True]  # none: the Python loop, then built


def test_the_loop_in_c_is_built_only_when_asked_and_found_built_after(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("REGLES_NO_CACHE", raising=False)
    from interpreter.cbuild import compiler
    if compiler(packaged=True) is None:
        pytest.skip("no C compiler here")
    first = FastParser(P.lark_parser())
    assert native_parse.native_loop(first, build=False) is None
    assert not (tmp_path / "regles" / "parser").exists() or not any((tmp_path / "regles" / "parser").iterdir())
    assert native_parse.native_loop(first, build=True) is not None
    assert len(list((tmp_path / "regles" / "parser").glob("_regles_lalr-*"))) == 1
    second = FastParser(P.lark_parser())  # another process's, as it were: the build is found
    loop = native_parse.native_loop(second, build=False)
    assert loop is not None
    assert dump(loop.parse("gain 1 x\n", "procedure", _where)) == dump(second.parse("gain 1 x\n", "procedure", _where))
