"""The keys of the state: no two things a game may name share one.

Zones and counters are kept under string keys (`hand#0`, `$coins`, `end|3|0`, see
engine.keys). The checker refuses a declared name that is not one word of the rules
language (names.word_fault), so that no name holds the characters the keys are joined
with; node ids are identifiers or whole numbers (the board schema). These tests build the
keys of names and owners taken anywhere in what is allowed, and find each thing its own key.
"""
from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.content import validate as V
from interpreter.engine import keys
from interpreter.engine.values import Comp, NodeRef, Seat, Team
from interpreter.names import WORD, word_fault
from interpreter.resources import grammar_path

NODE_ID = V.schema("board")["$defs"]["node"]["properties"]["id"]["pattern"]

names = st.from_regex(WORD, fullmatch=True)
node_ids = st.one_of(st.from_regex(NODE_ID, fullmatch=True), st.integers(-5, 10 ** 6).map(str))
OWNERS = {"player": st.integers(0, 15).map(Seat), "team": st.integers(0, 7).map(Team),
          "node": node_ids.map(NodeRef), "card": st.integers(0, 10 ** 5).map(Comp)}
# What a zone or counter may be kept per: once for the game, per one owner, per a pair of them.
SCOPES = [()] + [(w,) for w in OWNERS] + [(a, b) for a in OWNERS for b in OWNERS]


def test_the_names_refused_are_those_the_rules_language_cannot_write():
    grammar = grammar_path().read_text(encoding="utf-8")
    assert re.search(r"^NAME: /(.*)/$", grammar, re.M).group(1) == WORD.pattern
    for bad in ("hand#0", "gems#spent", "$coins", "end|1", "a\x00", "x\n", "two words", "9lives", ""):
        assert word_fault(bad) is not None, bad
    for good in ("hand", "hand_0", "Écluse", "t1", "l'arche", "_x"):
        assert word_fault(good) is None, good


def test_a_name_holding_a_separator_would_share_a_key_with_another_thing():
    """Why such names are refused: zone 'hand#0' of the game is player 1's hand, counter
    '$coins' is the supply of 'coins', event 'end|1' marks an action used since 'end'."""
    assert keys.key("hand#0") == keys.key("hand", Seat(0))
    assert keys.key("$coins") == keys.supply_key("coins")
    assert keys.used_key("end|1", 2, 0).startswith(keys.used_prefix("end"))  # forgotten when 'end' is signalled
    assert [word_fault(n) for n in ("hand#0", "$coins", "end|1")] == ["holds '#'", "holds '$'", "holds '|'"]


@settings(max_examples=100, deadline=None)
@given(st.data(), st.lists(names, min_size=2, max_size=8, unique=True))
def test_every_name_and_owners_allowed_have_their_own_key(data, declared):
    made = {}
    for name in declared:
        assert word_fault(name) is None
        scope = data.draw(st.sampled_from(SCOPES))  # one scope per name, as a game declares it
        whose_all = data.draw(st.lists(st.tuples(*[OWNERS[w] for w in scope]), max_size=6, unique=True)) \
            if scope else [()]
        for whose in whose_all:
            k = keys.key(name) if not whose else keys.key(name, whose[0]) if len(whose) == 1 else \
                keys.pair_key(name, *whose)
            parts = [keys.owner_key(o) for o in whose]
            assert (keys.name_of(k), keys.owners_of(k)) == (name, parts)  # read back whole
            assert not keys.is_supply(k)
            made.setdefault(k, set()).add((name, whose))
    assert all(len(v) == 1 for v in made.values()), made
    supplies = {keys.supply_key(name) for name in declared}
    assert len(supplies) == len(declared) and not supplies & set(made)
    assert {keys.supply_of(k) for k in supplies} == set(declared)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(names, st.integers(0, 10 ** 5), st.integers(0, 50)), min_size=2, max_size=12,
                unique=True))
def test_every_action_used_has_its_own_mark(uses):
    marks = {keys.used_key(event, comp, index) for event, comp, index in uses}
    assert len(marks) == len(uses)
    for event, comp, index in uses:
        assert keys.used_key(event, comp, index).startswith(keys.used_prefix(event))
        assert keys.used_key(event, comp, index).split(keys.USED) == [event, str(comp), str(index)]
