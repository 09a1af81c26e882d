"""The search agent (`--agents mcts:N`): samples of what its seat cannot see, decisions that depend
only on what the seat knows, reproducible games, its budget, and that it searches to some purpose."""
from __future__ import annotations

import pytest

import interpreter
from interpreter.engine.observe import may_see
from interpreter.engine.values import Rng
from interpreter.play.agents import RandomAgent, SeatView, make_agent, parse_agents
from interpreter.cli import main
from interpreter.play import mcts
from interpreter.play.mcts import MctsAgent, parse_budget
from interpreter.runs.simulate import play_game


def _mid_game(game_id, players, seed, steps):
    game = interpreter.load(game_id)
    st = game.new_state(players, seed)
    rng = Rng(seed)
    for _ in range(steps):
        if st.is_terminal():
            break
        st.apply(rng.below(len(st.legal_actions())))
    return st


def _hidden_zones(st, seat):
    program = st.program
    return [k for k, comps in st.zones.items() if comps and not may_see(
        st, program.zone_def(k).visibility, program.zone_holder(k), seat)]


@pytest.mark.parametrize("game_id,players", [("karman-swap", 3), ("seeders-exodus", 4)])
def test_a_sample_keeps_what_the_seat_sees_and_redraws_the_rest(game_id, players):
    st = _mid_game(game_id, players, 3, 40)
    seat = st.current_player
    view = SeatView(st, seat)
    rng = Rng(7)
    redrawn = False
    for _ in range(10):
        sample = view.sampled(rng)
        assert sample.observation(seat) == st.observation(seat)
        for key, comps in st.zones.items():
            assert len(sample.zones[key]) == len(comps)
            assert all(sample.where[c] == key for c in sample.zones[key])
            # a component is only dealt where components of its kind were
            starts = {st.program.comp_start[c] for c in comps}
            assert {sample.program.comp_start[c] for c in sample.zones[key]} <= starts | {
                st.program.comp_start[c] for k in _hidden_zones(st, seat) for c in st.zones[k]}
        redrawn = redrawn or any(sample.zones[k] != st.zones[k] for k in _hidden_zones(st, seat))
    assert redrawn


def test_its_decision_depends_only_on_what_its_seat_knows():
    """Two states that differ only in where two hidden cards lie give the same decision."""
    decided = 0
    for steps in (10, 25, 40, 60):
        st = _mid_game("karman-swap", 2, 11, steps)
        if st.is_terminal() or len(st.legal_actions()) < 2:
            continue
        seat = st.current_player
        hidden = _hidden_zones(st, seat)
        pairs = [(a, b) for a in hidden for b in hidden if a < b and
                 st.program.comp_start[st.zones[a][-1]] == st.program.comp_start[st.zones[b][-1]]]
        if not pairs:
            continue
        a, b = pairs[0]
        twin = st.clone()
        x, y = twin.zones[a][-1], twin.zones[b][-1]
        twin.zones[a][-1], twin.zones[b][-1] = y, x
        twin.where[x], twin.where[y] = b, a
        assert twin.observation(seat) == st.observation(seat) and twin.zones != st.zones
        assert MctsAgent(5, "40").act(SeatView(st, seat)) == MctsAgent(5, "40").act(SeatView(twin, seat))
        decided += 1
    assert decided >= 2


def test_games_with_it_are_reproduced_from_their_seed():
    game = interpreter.load("karman-swap")
    runs = [play_game(game, 2, 4, game.options({}), ["mcts:20", "greedy"])[0] for _ in range(2)]
    assert runs[0].history == runs[1].history and runs[0].returns() == runs[1].returns()


def test_it_searches_to_some_purpose():
    """Against the random agent on a fixed set of seeds, it wins most games, and it ran its
    budget at each decision it searched."""
    game = interpreter.load("karman-swap")
    wins = 0
    for seed in range(6):
        agent = make_agent("mcts:30", seed)
        players = [agent, RandomAgent(seed + 100)] if seed % 2 == 0 else [RandomAgent(seed + 100), agent]
        me = 0 if seed % 2 == 0 else 1
        st = game.new_state(2, seed)
        while not st.is_terminal():
            st.apply(players[st.current_player].act(SeatView(st, st.current_player)))
        wins += me in (st.winners or ())
        assert agent.searched % 30 == 0 and agent.searched > 0
    assert wins >= 5


@pytest.mark.parametrize("game_id,players,steps", [("seeders-exodus", 4, 30), ("etherium", 4, 40), ("karman-swap", 3, 20)])
def test_a_rollout_is_valued_where_the_turn_comes_back_to_the_searching_seat(game_id, players, steps):
    """Every seat's rollouts stop at the same point of the turn order: past the horizon, when
    the turn comes back to it from another seat (or at the game's end), so that no seat values
    its options with more of the other seats' answers played out than another seat does."""
    start = _mid_game(game_id, players, 5, steps)
    ended_on_turn = 0
    for me in range(players):
        for k in range(6):
            st = start.clone()
            made = mcts.rollout(st, Rng(100 * me + k), me)
            # the same decisions again, one at a time, to see who made them
            again, rng, seats, open_ = start.clone(), Rng(100 * me + k), [], 0
            for _ in range(made):
                seats.append(again.current_player)
                open_ += not again.pending.secret
                again.apply(rng.below(len(again.pending.entries)))
            assert again.history == st.history
            if st.is_terminal():
                continue
            assert open_ >= mcts.ROLLOUT and made < mcts.CAP
            assert st.current_player == me and seats[-1] != me
            ended_on_turn += 1
    assert ended_on_turn >= 3 * players


def test_budgets():
    assert parse_budget("400") == (400, None) and parse_budget("0.5s") == (None, 0.5)
    for bad in ("0", "x", "-1s", "99999999999"):
        with pytest.raises(ValueError, match="mcts takes"):
            parse_budget(bad)
    assert parse_agents("mcts:400,random", 2) == ["mcts:400", "random"]
    with pytest.raises(ValueError, match="takes no parameter"):
        parse_agents("greedy:3", 2)


def test_simulate_refuses_a_bad_budget(capsys):
    assert main(["simulate", "karman-swap", "--agents", "mcts:lots", "--games", "1"]) == 2
    assert "mcts takes a number of iterations" in capsys.readouterr().err
