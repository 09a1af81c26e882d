"""Agents see only what their seat may see; random and greedy bots are seeded
and reproducible; greedy looks one decision ahead; the human agent reads a
number at the terminal, re-asks on bad input and quits cleanly."""
from __future__ import annotations

import io
from functools import lru_cache

import pytest

import interpreter
from interpreter.tools.agents import (GreedyAgent, HumanAgent, Quit, RandomAgent, SeatView, evaluator, heuristic,
                                make_agent, parse_agents)
from interpreter.engine.values import Rng

from gamekit import FIXTURES


@lru_cache(maxsize=None)
def game(name: str):
    return interpreter.load(str(FIXTURES / name))


def play(g, players, seed, agents, options=None):
    st = g.new_state(players=players, seed=seed, options=options)
    while not st.is_terminal():
        p = st.current_player
        st.apply(agents[p].act(SeatView(st, p)))
    return st


def test_random_agent_is_reproducible():
    g = game("envoys")
    runs = [play(g, 3, 11, [RandomAgent(s) for s in (1, 2, 3)]).history for _ in range(2)]
    assert runs[0] == runs[1]
    other = play(g, 3, 11, [RandomAgent(s) for s in (4, 5, 6)]).history
    assert other != runs[0]


def test_greedy_agent_is_reproducible():
    g = game("envoys")
    a = play(g, 4, 5, [GreedyAgent(s) for s in range(4)])
    b = play(g, 4, 5, [GreedyAgent(s) for s in range(4)])
    assert a.history == b.history and a.to_json() == b.to_json()


def test_the_view_hides_the_state():
    g = game("envoys")
    st = g.new_state(players=4, seed=2)
    view = SeatView(st, st.current_player)
    assert not hasattr(view, "state") and not hasattr(view, "__dict__")
    obs = view.observation()
    seat = view.seat
    assert isinstance(obs["zones"][f"hand#{seat}"], list)  # its own hand, card by card
    for other in range(4):
        if other != seat:
            assert obs["zones"][f"hand#{other}"] == {"count": len(st.zones[f"hand#{other}"])}
    assert obs["zones"]["deck"] == {"count": len(st.zones["deck"])}
    assert obs["options"] == view.labels() and len(view.labels()) == len(view.legal_actions())


def test_determinised_copy_redraws_only_what_the_seat_cannot_see():
    g = game("envoys")
    st = g.new_state(players=2, seed=2)
    view = SeatView(st, 0)
    copy = view.determinised(Rng(99))
    assert copy.zones["hand#0"] == st.zones["hand#0"]  # what it sees stays as it is
    assert sorted(copy.zones["deck"]) == sorted(st.zones["deck"])  # the same cards...
    assert copy.zones["deck"] != st.zones["deck"]  # ...in another order
    assert copy.rng.state != st.rng.state  # and other chances
    assert sorted(copy.zones["hand#1"]) == sorted(st.zones["hand#1"])
    assert st.zones == g.new_state(players=2, seed=2).zones  # the real state is untouched


def test_greedy_prefers_winning_to_scoring():
    # misère Nim with 2 stones left: taking both scores more but loses
    g = game("nim")
    st = g.new_state(players=2, seed=1, options={"misere": True})
    while len(st.zones["pile"]) > 5:
        st.apply(0)
    st.apply(2)  # 5 - 3 = 2 stones left, the other player to take
    assert len(st.zones["pile"]) == 2 and st.labels() == ["Take 1", "Take 2"]
    assert GreedyAgent(1).act(SeatView(st, st.current_player)) == 0


def test_greedy_takes_the_winning_move():
    g = game("nim")
    st = g.new_state(players=2, seed=1)
    while len(st.zones["pile"]) > 5:
        st.apply(0)
    st.apply(1)  # 3 stones left
    assert GreedyAgent(7).act(SeatView(st, st.current_player)) == 2  # take all three and win


def test_heuristic_of_the_game_is_used():
    g = game("nim")  # heuristic: p.points * 2 + p.chips
    st = g.new_state(players=2, seed=1)
    st.apply(2)
    st.apply(0)
    f = heuristic(g.program)
    assert [f(st, s) for s in (0, 1)] == [3 * 2 + 1, 1 * 2 + 1]
    assert evaluator(g.program)(st, 0) == (0, 7)


def test_greedy_without_heuristic_uses_the_score():
    g = game("broken")  # no heuristic: the score counter
    st = g.new_state(players=1, seed=3, options={"mode": "fine"})
    assert st.labels() == ["Draw", "Wait"]
    assert GreedyAgent(1).act(SeatView(st, 0)) == 0  # Draw scores a point


def test_greedy_beats_random_at_envoys():
    g = game("envoys")
    wins = 0
    for seed in range(60):
        st = play(g, 2, seed, [GreedyAgent(seed), RandomAgent(seed)])
        wins += 1 if st.winners == (0,) else 0
    assert wins > 35


def test_parse_agents():
    assert parse_agents("greedy", 3) == ["greedy"] * 3
    assert parse_agents("random, GREEDY", 2) == ["random", "greedy"]
    with pytest.raises(ValueError, match="unknown agent 'gredy'; did you mean 'greedy'"):
        parse_agents("gredy", 2)
    with pytest.raises(ValueError, match="3 agents for 2 players"):
        parse_agents("random,random,random", 2)
    with pytest.raises(ValueError):
        make_agent("human", 1)


def human(text):
    out = io.StringIO()
    return HumanAgent(io.StringIO(text), out), out


def test_human_picks_by_number_and_reasks_on_bad_input():
    g = game("nim")
    st = g.new_state(players=2, seed=1)
    agent, out = human("x\n0\n9\n\n2\n")
    assert agent.act(SeatView(st, 0)) == 1
    text = out.getvalue()
    assert "Take stones:" in text and " 1. Take 1" in text and " 3. Take 3" in text
    assert text.count("please type a number from 1 to 3") == 4
    assert "pile: Stone" in text and "counters:" in text


@pytest.mark.parametrize("text", ["q\n", "quit\n", "", "x\n"])
def test_human_quits_on_q_or_end_of_input(text):
    g = game("nim")
    st = g.new_state(players=2, seed=1)
    agent, _ = human(text)
    with pytest.raises(Quit):
        agent.act(SeatView(st, 0))


def test_human_sees_only_its_seat():
    g = game("envoys")
    st = g.new_state(players=4, seed=3)
    seat = st.current_player
    agent, out = human("1\n")
    agent.act(SeatView(st, seat))
    text = out.getvalue()
    for other in range(4):
        if other != seat:
            n = len(st.zones[f"hand#{other}"])
            assert f"player {other + 1}'s hand: {n} hidden card" in text
    mine = ", ".join(g.program.comp_card[c].title for c in st.zones[f"hand#{seat}"])
    assert f"your hand: {mine}" in text
