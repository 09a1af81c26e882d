"""The fast parser (Lark's tables run by our own loop, nodes built while reducing) against
Lark itself: for every rules text of the shipped content and of the test files, and for
thousands of damaged variants of them, the same tree with the same positions, or the
same error with the same message, position and hint."""
from __future__ import annotations

import random

import pytest

from interpreter.language import nodes as N
from interpreter.language import parser as P
from interpreter.diagnostics import ContentError

from gamekit import ROOT
from parsed_texts import EDGE_TEXTS, damaged, damaged_cases, outcome, rules_texts


def test_many_texts_are_collected():
    texts = rules_texts()
    assert len(texts) > 500
    assert {s for _, s, _ in texts} == {"ability", "procedure", "condition"}


def _compare(cases, monkeypatch):
    fast = [outcome(*c) for c in cases]
    assert P._fast_parser() is not None
    monkeypatch.setattr(P, "_fast_parser", lambda: None)
    slow = [outcome(*c) for c in cases]
    mismatches = [(c[0], c[1], f, s) for c, f, s in zip(cases, fast, slow) if f != s]
    assert mismatches == []
    return fast


def test_every_shipped_and_test_text_gives_lark_s_tree_and_positions(monkeypatch):
    texts = rules_texts()
    results = _compare(texts, monkeypatch)
    assert sum(r[0] == "tree" for r in results) > 500


def test_the_fast_parser_reads_every_text_lark_reads():
    """It leaves to Lark only what Lark refuses (else it would be slow, silently)."""
    fast = P._fast_parser()
    for text, start, where in rules_texts():
        source = text if text.endswith("\n") else text + "\n"
        try:
            P.parse(text, start, where)
        except ContentError:
            continue
        if start == "ability" and P._printed_phrase(source, where or (lambda l, c: P.Position("<t>", l, c))):
            continue
        assert fast.parse(source, start, where or (lambda l, c: P.Position("<t>", l, c))) is not None, text


def test_damaged_texts_give_lark_s_tree_or_error(monkeypatch):
    results = _compare(damaged_cases(20240607), monkeypatch)
    kinds = {r[0] for r in results}
    assert kinds == {"tree", "error"}  # both sides were exercised


@pytest.mark.parametrize("text,start", EDGE_TEXTS, ids=[f"edge{i}" for i in range(len(EDGE_TEXTS))])
def test_edge_texts_give_lark_s_tree_or_error(text, start, monkeypatch):
    _compare([(text, start, None)], monkeypatch)


@pytest.mark.parametrize("text", ["Affinité 2 - Module", "Geôlier", "Recrutement Converti", "Affinité 1 – Ouvrier",
                                  "Majorité 3 - Bio-Consortium", "Semis", "Activation 2"])
def test_printed_phrases_read_fast_give_the_grammars_tree(text, monkeypatch):
    def dump(n):
        if isinstance(n, N.Node):
            return (type(n).__name__, n.pos, {k: dump(v) for k, v in vars(n).items() if k != "pos"})
        if isinstance(n, list):
            return [dump(x) for x in n]
        return n
    fast = P.parse(text, "ability")
    monkeypatch.setattr(P, "_printed_phrase", lambda source, where: None)
    P._TREES.clear()
    assert dump(fast) == dump(P.parse(text, "ability"))


def test_tables_read_from_the_cache_parse_as_tables_built_anew(tmp_path, monkeypatch):
    # the cached tables are a fast path: the parser they make gives the trees of a parser built anew
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("REGLES_NO_CACHE", raising=False)
    cache = P.table_cache()
    assert cache and cache.startswith(str(tmp_path))
    P.build_lark(cache)  # builds the tables, and writes them
    stored = tmp_path / "regles" / "lark-tables.pickle"
    before = stored.stat()
    assert before.st_size > 1000
    cached, fresh = P.build_lark(cache), P.build_lark(False)
    assert stored.stat().st_mtime_ns == before.st_mtime_ns  # read, not written again
    for text, start, _ in rules_texts()[:300]:
        source = text if text.endswith("\n") else text + "\n"
        try:
            want = fresh.parse(source, start=start)
        except Exception as exc:  # a text Lark refuses is refused the same way
            with pytest.raises(type(exc)):
                cached.parse(source, start=start)
            continue
        assert cached.parse(source, start=start) == want, text
    monkeypatch.setenv("REGLES_NO_CACHE", "1")
    assert P.table_cache() is False


def test_the_shipped_tables_parse_as_tables_built_anew():
    """The tables shipped beside the grammar (language.grammar_tables) are a fast path of a first
    start: the parser they make gives the trees and the errors of a parser built anew, on every
    shipped text and on damaged ones."""
    from interpreter.language import grammar_tables
    from interpreter.resources import grammar_path
    from test_grammar_tables import same_lark
    same_lark()
    grammar = grammar_path()
    shipped = grammar_tables.load(grammar.read_text(encoding="utf-8"), grammar_tables.tables_path(grammar), P._Indent())
    fresh = P.build_lark(False)
    assert shipped is not None
    rng = random.Random(5)
    texts = [(t, s) for t, s, _ in rules_texts()]
    cases = texts + [(damaged(t, rng), s) for t, s in rng.sample(texts, 300)]
    refused = 0
    for text, start in cases:
        source = text if text.endswith("\n") else text + "\n"
        try:
            want = fresh.parse(source, start=start)
        except Exception as exc:  # refused the same way, at the same place, expecting the same
            refused += 1
            with pytest.raises(type(exc)) as got:
                shipped.parse(source, start=start)
            for attr in ("line", "column", "expected", "token"):
                assert getattr(got.value, attr, None) == getattr(exc, attr, None), (text, attr)
            continue
        assert shipped.parse(source, start=start) == want, text
    assert refused > 50


def test_a_cache_folder_others_may_write_is_not_used(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("REGLES_NO_CACHE", raising=False)
    (tmp_path / "regles").mkdir(mode=0o777)
    (tmp_path / "regles").chmod(0o777)
    assert P.table_cache() is False


def test_a_check_that_reads_each_text_once_reports_what_reading_each_anew_reports(monkeypatch):
    # shared parses are a fast path of `regles check` (a game and its expansions read the same
    # files): its report is the one of a check that parses every text in every pack
    import contextlib
    import interpreter.language.texts as texts
    from interpreter.rulings import check
    calls = []
    real = texts.parse
    monkeypatch.setattr(texts, "parse", lambda *a, **k: calls.append(1) or real(*a, **k))
    monkeypatch.setattr(texts, "KEPT_TREES", {})  # none kept from an earlier check
    paths = [str(ROOT / "content"), str(ROOT / "tests" / "corpus")]
    fast = check.check_paths(paths)
    fast_calls = len(calls)
    monkeypatch.setattr(check, "shared_parses", lambda **kept: contextlib.nullcontext())
    plain = check.check_paths(paths)
    assert len(fast.diagnostics) > 100
    assert fast_calls < len(calls) - fast_calls  # the texts a second pack reads are not parsed again
    assert [(d.position, d.message, d.hint, d.severity) for d in fast.sorted()] == \
        [(d.position, d.message, d.hint, d.severity) for d in plain.sorted()]


def _pstr(text: str, line: int, column: int, style: str, lines=None, end_line=None):
    from interpreter.content.source import PStr, position
    s = PStr(text)
    s.pos, s.style = position("f.yaml", line, column), style
    if lines is not None:
        s.lines = lines
    if end_line is not None:
        s.end_line = end_line
    return s


def _asked_plainly(where):
    """`where`, as a function that is not a text's own method: the parse places each node through it."""
    def plain(line, column):
        return where(line, column)
    return plain


def test_places_made_in_one_call_are_those_the_text_maps_each_place_to():
    """The fenced fast path of the parse's places (`tonodes.places_in`): every node and name of
    every shipped and test text, and of texts of each YAML style (a block, a quoted text whose
    line breaks are escapes, a plain text over two lines), has the place `PStr.text_position`
    gives it, as the plain path asks it (a `where` that is not the text's own method)."""
    from interpreter.content.source import PStr
    cases = [(t, s, w) for t, s, w in rules_texts() if getattr(w, "__func__", None) is PStr.text_position]
    styles = {w.__self__.style for _, _, w in cases}
    assert len(cases) > 1000 and {"|", "", '"'} <= styles
    made = [_pstr("gain 1 coins\nif x:\n  gain 2 coins\n", 4, 9, '"', end_line=4),  # escaped line breaks
            _pstr("gain 1 coins\nif x:\n  gain 2 coins\n", 4, 9, '"', end_line=6),
            _pstr("gain 1 coins\nif x:\n  gain 2 coins\n", 4, 9, "|", lines=6),
            _pstr("gain (1 +\n2) coins", 7, 3, "", end_line=8),
            _pstr("when played: gain 1 coins", 2, 5, "'")]
    cases += [(s, "ability" if s.startswith("when") else "procedure", s.text_position) for s in made]
    trees = 0
    for text, start, where in cases:
        fast, slow = outcome(text, start, where), outcome(text, start, _asked_plainly(where))
        assert fast == slow, text
        trees += fast[0] == "tree"
    assert trees > 1000 and all(outcome(text, start, where)[0] == "tree" for text, start, where in cases[-5:])
