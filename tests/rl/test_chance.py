"""Explicit chance (`SpielGame(..., chance="explicit")`): every shuffle, draw and die of the rules
a chance node of its own, as OpenSpiel means chance nodes."""
from __future__ import annotations

import pickle
import random

import pytest

pytest.importorskip("numpy", reason="the OpenSpiel-shaped states need NumPy (regles[rl] or regles[spiel])")

from gamekit import player_counts  # noqa: E402
from interpreter.content.folders import shipped_games  # noqa: E402
from interpreter.engine.values import ChanceNeeded, GivenRng, Rng  # noqa: E402
from interpreter.rl.spiel import CHANCE, SpielGame  # noqa: E402
from interpreter.view import worlds  # noqa: E402


def _play(seeded, explicit, r: random.Random, mirror: Rng, decisions: int):
    """Both states played side by side: the same random option for both at each decision, and
    at each chance node of `explicit` the draw the seeded generator `mirror` makes."""
    nodes = 0
    for i in range(decisions + 1):
        while explicit.is_chance_node():
            n = explicit.step.outcomes
            assert explicit.current_player() == CHANCE and explicit.legal_actions() == list(range(n))
            explicit.apply_action(mirror.below(n))
            nodes += 1
        if seeded.is_terminal() or i == decisions:
            break
        assert explicit.current_player() == seeded.current_player()
        assert explicit.legal_actions() == seeded.legal_actions()
        action = r.choice(seeded.legal_actions())
        seeded.apply_action(action)
        explicit.apply_action(action)
    return nodes


@pytest.mark.parametrize("name", shipped_games())
def test_chance_given_the_seeded_generator_s_draws_is_the_seeded_game(name):
    """Given, at each chance node, what the seed's generator would draw there, the explicit game
    is the seeded game, decision for decision: so the chance nodes are every draw the rules make,
    in their order, each with the number of outcomes the rules draw among."""
    players = player_counts(name)[0]
    seeded_game, explicit_game = SpielGame(name, players), SpielGame(name, players, chance="explicit")
    seeded, explicit = seeded_game.new_initial_state(11), explicit_game.new_initial_state(11)
    nodes = _play(seeded, explicit, random.Random(11), Rng(11), 120)
    assert nodes > 20
    as_seeded = dict(seeded.state.to_json(), rng=None)
    assert dict(explicit.state.to_json(), rng=None) == as_seeded
    assert explicit.observation_tensor(0) == seeded.observation_tensor(0)


def test_a_whole_game_with_chance_outcomes_drawn_at_random():
    sg = SpielGame("karman-swap", 3, chance="explicit")
    st = sg.new_initial_state()
    r = random.Random(3)
    sizes = []
    while not st.is_terminal():
        if st.is_chance_node():
            outcomes = st.chance_outcomes()
            assert [o for o, _ in outcomes] == list(range(len(outcomes)))
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            sizes.append(len(outcomes))
            st.apply_action(r.randrange(len(outcomes)))
        else:
            st.apply_action(r.choice(st.legal_actions()))
    assert sorted(st.returns()) == [-1.0, -1.0, 1.0]
    assert max(sizes) <= sg.max_chance_outcomes and min(sizes) >= 2
    assert len(st.history()) == len(st._history) and sum(1 for p, _, _ in st._history if p == CHANCE) == len(sizes)


def test_other_outcomes_of_a_shuffle_deal_other_cards():
    sg = SpielGame("karman-swap", 2, chance="explicit")
    start = sg.new_initial_state()
    assert start.is_chance_node() and start.current_player() == CHANCE
    dealt = set()
    for first in range(start.step.outcomes):
        st = start.clone()
        st.apply_action(first)
        r = random.Random(0)
        while st.is_chance_node():
            st.apply_action(r.randrange(st.step.outcomes))
        dealt.add(st.observation_string(0))
    assert len(dealt) > 1
    with pytest.raises(ValueError, match="not one of"):
        start.clone().apply_action(start.step.outcomes)


def test_a_state_at_a_chance_node_pickles_and_goes_on_as_the_original():
    sg = SpielGame("seeders-exodus", 3, chance="explicit")
    st = sg.new_initial_state()
    r = random.Random(8)
    while not (st.is_chance_node() and st.history()):
        st.apply_action(r.randrange(st.step.outcomes) if st.is_chance_node() else r.choice(st.legal_actions()))
    copy = pickle.loads(pickle.dumps(st))
    assert copy.is_chance_node() and copy.chance_outcomes() == st.chance_outcomes()
    for _ in range(60):
        a = r.randrange(st.step.outcomes) if st.is_chance_node() else r.choice(st.legal_actions())
        st.apply_action(a)
        copy.apply_action(a)
    assert copy.history() == st.history() and copy.state.to_json() == st.state.to_json()


def test_worlds_follow_the_real_game_with_chance_given():
    """The worlds of a search (and `resample_from_infostate`) play the game again from its start to
    draw other seats' secret choices anew: with chance given from outside, they play it again with
    the real game's outcomes, and still see what the seat sees."""
    sg = SpielGame("etherium", 3, chance="explicit")
    st = sg.new_initial_state()
    r = random.Random(2)
    checked = 0
    for step in range(200):
        while st.is_chance_node():
            st.apply_action(r.randrange(st.step.outcomes))
        if st.is_terminal():
            break
        if step % 10 == 0:
            for seat in range(3):
                world = st.resample_from_infostate(seat, r.random)
                assert world.observation_string(seat) == st.observation_string(seat)
                assert type(world.state.rng) is GivenRng  # what chance brings next is still asked
                checked += 1
        st.apply_action(r.choice(st.legal_actions()))
    assert checked > 30
    trackers = worlds._TRACKERS[st.state.origin]
    assert trackers and not any(t.broken for t in trackers.values())  # each followed the real game


def test_a_given_generator_asks_for_what_it_was_not_given():
    rng = GivenRng((2,), 0)
    assert rng.below(6) == 2
    with pytest.raises(ChanceNeeded) as need:
        rng.below(6)
    assert need.value.sizes == (6,)
    with pytest.raises(ChanceNeeded) as need:
        GivenRng().shuffle(list(range(5)))
    assert need.value.sizes == (5, 4, 3, 2)  # every draw of the shuffle at once
    items = list(range(5))
    GivenRng((0, 0, 0, 0)).shuffle(items)
    assert items == [1, 2, 3, 4, 0]  # each draw swaps the last place left with the first
    fallback = GivenRng((9,), 0, Rng(1))  # 9 does not fit a draw of 6: the fallback draws
    assert fallback.below(6) == Rng(1).below(6)
