"""An expression written back as text from its tree (language.written): the text parses
to the same tree, with parentheses only where the grammar needs them."""
from __future__ import annotations

import pytest

import interpreter
from interpreter.language.parser import parse
from interpreter.language.written import written


@pytest.mark.parametrize("text", [
    "count(you.hand) > 0",
    "(a + b) * c",
    "a - (b - c)",
    "a - b - c",
    "not (c is Moved) and count(each m in free_modules(you) where m != holder(c)) > 0",
    "(x or y) and z",
    "x or y and z",
    "-(a + 1) < b[2].value",
    "sum(m.stored for each m in p.ark) >= 2",
    "[each c in in_play() where c is Tool] + [top(p.deck)]",
    "c is not none and c not in p.hand",
    'card("a \\"quoted\\" id") in discard',
])
def test_written_back_as_it_was_written(text):
    assert written(parse(text, "condition")) == text


def test_every_function_of_the_shipped_games_reads_back_the_same():
    for gid in ("seeders-exodus", "karman-swap"):
        for f in interpreter.load(gid).program.defn.functions.values():
            once = written(f.tree)
            assert written(parse(once, "condition")) == once, (gid, f.name)
