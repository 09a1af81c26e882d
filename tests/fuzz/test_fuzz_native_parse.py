"""The parser's loop in C against its loop in Python on texts derived from the grammar
(`fuzz_grammar.derive`, every rule reachable), some damaged and some with characters the
lexer must judge as Python's `re` does (digits and letters of other scripts, a lone
surrogate, NUL, a line separator, a carriage return): the same tree, or both give the text
up. (`python bench/fuzz.py` runs no case of it: by hand, 120,000 texts gave no difference.)"""
from __future__ import annotations

import random

import pytest

from interpreter.diagnostics import Position
from interpreter.language import native_parse
from interpreter.language import parser as P

from fuzz_grammar import derive
from parsed_texts import damaged, dump

ODD_CHARACTERS = ["\u0663", "\u00b2", "\ud800", "\x00", "\U0001F600", "\u2028", "\r", "\\", "\u00e9", "\u01c5", "\t"]


def _where(line, column):
    return Position("<t>", line, column)


def test_texts_derived_from_the_grammar_give_the_python_loop_s_tree():
    fast = P._fast_parser()
    loop = native_parse.native_loop(fast)
    if loop is None:
        pytest.skip("no C compiler or cache folder here: the Python loop parses every text")
    rng = random.Random(20261201)
    mismatches, trees = [], 0
    for _ in range(2000):
        start = rng.choice(["procedure", "ability", "condition"])
        text = derive(rng, start, rng.randint(2, 9))
        if rng.random() < 0.3:
            text = damaged(text, rng)
        if rng.random() < 0.15:
            k = rng.randrange(len(text) + 1)
            text = text[:k] + rng.choice(ODD_CHARACTERS) + text[k:]
        source = text if text.endswith("\n") else text + "\n"
        want, got = fast.parse(source, start, _where), loop.parse(source, start, _where)
        trees += want is not None
        if (want is None) != (got is None) or (want is not None and dump(want) != dump(got)):
            mismatches.append((source, start))
    assert mismatches == []
    assert 1000 < trees < 2000
