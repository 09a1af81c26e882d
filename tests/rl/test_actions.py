"""The fixed action space of every shipped game, with every expansion: each legal option of random
games has a number inside the space, the number leads back to that option, and no shipped game
needs numbers by position (its blocks are as large as what its choices may offer)."""
from __future__ import annotations

import random

import pytest

import interpreter
from interpreter.rl.actions import ActionMap

CONFIGS = [("karman-swap", ()), ("seeders-exodus", ()), ("seeders-exodus", ("tais", "etho", "hanks")),
           ("seeders-exodus", ("cinq",)), ("seeders-exodus", ("solo",)), ("etherium", ())]


@pytest.mark.parametrize("game_id, expansions", CONFIGS)
def test_every_legal_option_of_random_games_maps_to_a_number_and_back(game_id, expansions):
    game = interpreter.load(game_id, expansions=expansions)
    decisions = 0
    for players in sorted({game.min_players, game.max_players}):
        am = ActionMap(game.program, players)
        assert am.position is None, am.needs_position
        for seed in range(2):
            st = game.new_state(players, seed)
            rng = random.Random(seed)
            while not st.is_terminal():
                numbers = am.numbers(st)
                assert len(numbers) == len(st.legal_actions())
                assert all(0 <= k < am.size for k in numbers)
                # back: each number is its own option's (no two options of a shipped decision alike)
                assert [numbers.index(k) for k in numbers] == list(range(len(numbers)))
                assert all(not am.describe(k).startswith("no action") for k in numbers)
                st.apply(rng.randrange(len(numbers)))
                decisions += 1
    assert decisions > 100


def test_the_space_is_smaller_than_the_values_every_block_could_hold():
    """Karman Swap's choices offer components, none and numbers up to its discovery gems: its
    blocks are that large, not a block of every kind of value each (and no position block)."""
    game = interpreter.load("karman-swap")
    am = ActionMap(game.program, 4)
    every_kind = am.comps + 4 + len(am.nodes) + 1
    assert am.picks.width < every_kind + 16
    assert am.picks.seat is None and am.picks.comp == 0 and am.picks.none is not None
    assert am.describe(am.pick + am.picks.num) == "pick the number 0"
