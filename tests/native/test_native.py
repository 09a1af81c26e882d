"""The native backend against the Python backend, which is the reference: the same seeds and
the same choices give the same trace, byte for byte, and the same results; what the native
backend does not take yet is refused at its place, never run wrong."""
from __future__ import annotations

import json
import random

import pytest

import interpreter
from gamekit import fixture_game, source_line
from interpreter.engine.invariants import InvariantError
from interpreter.play.agents import RandomAgent, SeatView, agent_seed

native = pytest.importorskip("interpreter.native")
pytest.importorskip("cffi")
if native.compiler() is None:
    pytest.skip("no C compiler on this machine: the Python backend runs every game", allow_module_level=True)


def _dumped(trace) -> str:
    return json.dumps(trace, ensure_ascii=False, sort_keys=False)


def play_both(game, compiled, players: int, seed: int, options=None):
    """One game played on both backends with the same random choices; the two traces."""
    a = game.new_state(players=players, seed=seed, options=options, trace=True)
    b = compiled.new_state(players=players, seed=seed, options=options, trace=True)
    rng = random.Random(seed)
    while not a.is_terminal():
        acts = a.legal_actions()
        assert b.legal_actions() == acts
        assert b.current_player == a.current_player
        pick = acts[rng.randrange(len(acts))]
        a.apply(pick)
        b.apply(pick)
    assert b.is_terminal()
    assert b.returns() == a.returns()
    assert b.winners == a.winners
    return a.trace, b.trace


@pytest.fixture(scope="module")
def nim():
    game = fixture_game("nim")
    return game, native.NativeGame(game)


@pytest.mark.parametrize("options", [None, {"misere": True}, {"most": 2}])
def test_nim_plays_the_same_games_on_both_backends(nim, options):
    game, compiled = nim
    for seed in range(40):
        py, c = play_both(game, compiled, 2, seed, options)
        assert _dumped(c) == _dumped(py)
        assert {e["type"] for e in py} >= {"start", "shuffle", "choice", "move", "counter", "win"}


@pytest.fixture(scope="module")
def karman():
    game = interpreter.load("karman-swap")
    return game, native.NativeGame(game)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_karman_swap_plays_the_same_games_on_both_backends(karman, players):
    """A whole game of cards, teams, planets, poses triggered by events, tags and counters kept
    only on planets: every event of 30 random games the same, in the same order."""
    game, compiled = karman
    kinds = set()
    for seed in range(30):
        py, c = play_both(game, compiled, players, seed)
        assert _dumped(c) == _dumped(py)
        kinds |= {e["type"] for e in py}
    assert kinds >= {"choice", "move", "counter", "signal", "tag", "untag", "log", "win"}


def test_a_copy_in_the_middle_of_a_pose_goes_on_as_the_original(karman):
    game, compiled = karman
    st = compiled.new_state(players=4, seed=3)
    rng = random.Random(3)
    for _ in range(40):  # into the game: frames, a loop's list in the arena, tags
        st.apply(rng.randrange(len(st.legal_actions())))
    twin = st.clone()
    picks = random.Random(9)
    while not st.is_terminal():
        k = picks.randrange(len(st.legal_actions()))
        assert twin.legal_actions() == st.legal_actions()
        st.apply(k)
        twin.apply(k)
    assert twin.is_terminal() and twin.returns() == st.returns() and twin.counters() == st.counters()


def test_a_copy_goes_on_as_the_game_it_was_copied_from(nim):
    game, compiled = nim
    st = compiled.new_state(players=2, seed=5)
    st.apply(0)
    twin = st.clone()
    for s in (st, twin):
        while not s.is_terminal():
            s.apply(len(s.legal_actions()) - 1)
    assert twin.returns() == st.returns() and twin.counters() == st.counters()
    assert twin.history == st.history


def test_a_game_played_in_c_is_the_game_random_agents_play_in_python(karman):
    """Played all in C, each seat's random agent (its generator in C too) makes the same game
    as `play.agents.RandomAgent` makes on the Python backend: the same end, scores, length."""
    game, compiled = karman
    for seed in range(12):
        seeds = [agent_seed(seed, s) for s in range(4)]
        agents = [RandomAgent(x) for x in seeds]
        py = game.new_state(players=4, seed=seed)
        while not py.is_terminal():
            py.apply(agents[py.current_player].act(SeatView(py, py.current_player)))
        c = compiled.new_state(players=4, seed=seed)
        made = c.random_play(seeds)
        assert c.is_terminal() and made == len(py.history) > 20
        assert c.returns() == py.returns() and c.scores() == py.scores() and c.standings() == py.standings()


def test_a_game_that_does_not_end_in_c_is_stopped_as_simulate_stops_it(karman):
    game, compiled = karman
    st = compiled.new_state(players=2, seed=1)
    with pytest.raises(InvariantError, match="more than 5 decisions"):
        st.random_play([1, 2], most=5)
    assert st.decisions == 6


SMALL = """\
kind: game
id: small
title: Small
players: {min: 2, max: 3}
zones:
  pile: {scope: game}
counters:
  ticks: {scope: game}
procedures:
  game: |
GAME"""


def small_game(tmp_path, body: str):
    """A game of no components whose `game` procedure is `body` (indented as its block)."""
    folder = tmp_path / "small"
    folder.mkdir()
    (folder / "game.yaml").write_text(SMALL.replace("GAME", body), encoding="utf-8")
    return interpreter.load(str(folder))


def test_what_the_backend_does_not_take_is_refused_where_it_is_written(tmp_path):
    game = small_game(tmp_path, "    let p = first(players)\n    tap top(pile)\n    win p\n")
    with pytest.raises(native.NotNative) as caught:
        native.NativeGame(game)
    assert source_line(caught.value.pos).strip() == "tap top(pile)"
    assert "tap" in caught.value.what.lower()
    assert str(caught.value).startswith(str(caught.value.pos.path))


def test_runaway_rules_stop_with_the_python_backends_fault(tmp_path):
    game = small_game(tmp_path, "    let p = first(players)\n    while true:\n      add 1 to ticks\n    win p\n")
    game_c = native.NativeGame(game)
    with pytest.raises(Exception) as py_fault:
        game.new_state(players=2, seed=1)
    with pytest.raises(Exception) as c_fault:
        game_c.new_state(players=2, seed=1)
    assert type(c_fault.value) is type(py_fault.value)
    assert "runaway rules" in str(py_fault.value)
    assert str(c_fault.value) == str(py_fault.value)  # the same message, at the same line
