"""Agents see only what their seat may see; random and greedy bots are seeded
and reproducible; greedy looks one decision ahead and does not go round in
circles; the human agent reads a number at the terminal, re-asks on bad input
and quits cleanly."""
from __future__ import annotations

import io
import textwrap
from functools import lru_cache

import pytest

import interpreter
from interpreter.play.agents import (GreedyAgent, HumanAgent, Quit, RandomAgent, SeatView, evaluator, heuristic,
                                make_agent, parse_agents)
from interpreter.view.seen import signature
from interpreter.engine.values import Rng
from interpreter.play.revisits import Revisits

from gamekit import FIXTURES, make_game


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


# cycles of free actions --------------------------------------------------------------------

# Player 1 holds a safe: storing a coin in it and taking it back are free actions of their
# turn, and ending the turn ends the game, which player 2 wins (they have a point, player 1
# none). Looking one decision ahead, ending loses and the two free actions do not: a plain
# greedy bot stores and takes back forever.
SAFE_GAME = textwrap.dedent("""\
    game: |
      move card("safe") to players[1].table
      gain COINS coins to players[1]
      score 1 to players[2]
      call turn(players[1])
      if players[1].points > players[2].points:
        win players[1]
      else:
        win players[2]
    turn:
      params: [player]
      acting: player
      body: |
        repeat:
          choose by you "Your turn":
            option actions during main
            option "End your turn":
              break
    """)

SAFE_CARDS = textwrap.dedent("""\
    kind: cards
    game: tiny
    cards:
      - id: safe
        title: Safe
        abilities:
          - |
            action "Store a coin" during main cost pay 1 coins:
              add 1 to self.tokens
          - |
            action "Take back a coin" during main if self.tokens > 0:
              remove 1 from self.tokens
              gain 1 coins
    """)


def safe_game(tmp_path, coins: int):
    return make_game(tmp_path, SAFE_GAME.replace("COINS", str(coins)), SAFE_CARDS)


class PlainGreedy:
    """The best option one decision ahead, ties to the first: greedy without a memory."""

    def act(self, view):
        values = view.lookahead(evaluator(view.program), Rng(0))
        return values.index(max(values))


def play_capped(st, agents, cap):
    """Play until the end or `cap` decisions; returns the state and the labels chosen."""
    chosen = []
    while not st.is_terminal() and len(st.history) < cap:
        p = st.current_player
        a = agents[p].act(SeatView(st, p))
        chosen.append(st.action_label(a))
        st.apply(a)
    return st, chosen


@pytest.mark.parametrize("coins", [1, 3])
def test_greedy_ends_a_turn_rather_than_undo_and_redo_forever(tmp_path, coins):
    g = safe_game(tmp_path, coins)
    trapped, chosen = play_capped(g.new_state(players=2, seed=1), [PlainGreedy(), PlainGreedy()], 500)
    assert not trapped.is_terminal()  # the trap is real: without a memory, no end
    assert set(chosen[-4:]) == {"Store a coin", "Take back a coin"}
    st, chosen = play_capped(g.new_state(players=2, seed=1), [GreedyAgent(1), GreedyAgent(2)], 500)
    assert st.is_terminal() and st.winners == (1,)
    # it stored every coin (each storing led somewhere new), then ended its turn
    assert chosen == ["Store a coin"] * coins + ["End your turn"]
    assert st.counters["coins#0"] == 0


def test_greedy_goes_back_to_the_least_visited_state_when_every_option_goes_back(tmp_path):
    # no way out of the turn: the bot sweeps every state again and again rather than
    # bounce between two (with 0 or 6 coins a single option is left: the engine takes it)
    g = make_game(tmp_path, textwrap.dedent("""\
        game: |
          gain 3 coins to players[1]
          repeat:
            choose by players[1] "Move":
              option "Spend one" if players[1].coins > 0:
                pay 1 from players[1].coins
              option "Get one back" if players[1].coins < 6:
                gain 1 coins to players[1]
        """))
    for seed in range(5):
        st = g.new_state(players=2, seed=seed)
        agent = GreedyAgent(seed)
        seen = []
        for _ in range(80):
            st.apply(agent.act(SeatView(st, 0)))
            seen.append(st.counters["coins#0"])
        assert all(set(seen[i:i + 20]) == {1, 2, 3, 4, 5} for i in range(len(seen) - 20))


def test_greedy_with_a_memory_is_reproducible(tmp_path):
    g = safe_game(tmp_path, 3)
    runs = [play_capped(g.new_state(players=2, seed=5), [GreedyAgent(7), GreedyAgent(8)], 100)[1]
            for _ in range(2)]
    assert runs[0] == runs[1]


def test_greedy_plays_as_before_where_no_option_goes_back():
    # at envoys no option of a seat's run of decisions leads back: the memory changes nothing
    g = game("envoys")

    class Unchanged(GreedyAgent):
        def act(self, view):
            self.revisits = Revisits()  # forget: the plain greedy choice
            return super().act(view)

    for seed in (3, 8):
        a = play(g, 3, seed, [GreedyAgent(s) for s in range(3)])
        b = play(g, 3, seed, [Unchanged(s) for s in range(3)])
        assert a.history == b.history and a.is_terminal()


def test_signature_is_what_the_seat_sees():
    g = game("envoys")
    st = g.new_state(players=2, seed=2)
    view = SeatView(st, 0)
    copy = view.determinised(Rng(5))
    assert copy.zones["deck"] != st.zones["deck"]
    assert signature(copy, 0) == signature(st, 0)  # the hidden order is not part of it
    moved = st.clone()
    moved.zones["hand#0"].reverse()
    assert signature(moved, 0) != signature(st, 0)  # the order of its own hand is
    assert signature(moved, 1) == signature(st, 1)  # which the other seat does not see
    assert view.seen() == view.seen() and view.seen().full() == signature(st, 0)
    view.lookahead(evaluator(g.program), Rng(1))
    assert view.seen() == SeatView(st, 0).seen()  # from the lookahead's copy: the same
    after = st.clone()
    after.apply(0)
    assert view.seen(0).full() == signature(after, 0)
    assert view.seen(0) == SeatView(after, 0).seen() != view.seen()


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
    assert "pile: Stone" in text and "the game: turns 1" in text


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


def test_the_search_agent_ends_a_turn_rather_than_undo_and_redo_forever(tmp_path):
    """Storing a coin and taking it back leave the position as it was: short random rollouts
    value them as passing, and a search without a memory may take them in turn forever."""
    from interpreter.play.mcts import MctsAgent

    class Forgetful(MctsAgent):
        def act(self, view):
            self.revisits = Revisits()  # no memory of the states of its turn
            return super().act(view)

    g = safe_game(tmp_path, 1)
    trapped, chosen = play_capped(g.new_state(players=2, seed=1), [Forgetful(1, "40"), Forgetful(2, "40")], 300)
    assert not trapped.is_terminal() and {"Store a coin", "Take back a coin"} <= set(chosen[-6:])
    st, chosen = play_capped(g.new_state(players=2, seed=1), [MctsAgent(1, "40"), MctsAgent(2, "40")], 300)
    assert st.is_terminal(), chosen[-6:]
