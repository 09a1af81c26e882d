"""The search agent's options (`mcts:N:reuse:batch=B:rollout=heuristic:depth=D`): the tree kept
from one decision to the next follows the choices the game really took, a batch plays several
iterations in one sampled world, a guided rollout keeps the better of two options, and every
option is parsed, refused when wrong, and reproducible."""
from __future__ import annotations

import random

import pytest

import interpreter
from gamekit import fixture_game
from interpreter.cli import main
from interpreter.engine.observe import may_see
from interpreter.engine.values import Rng
from interpreter.play import mcts
from interpreter.play.agents import SeatView, make_agent, parse_agents
from interpreter.play.mcts import Search, action_map, parse_search
from interpreter.rl.spiel import SpielGame
from interpreter.runs.simulate import play_game


def _recorded_game(game_id: str, players: int, seed: int, watched: int):
    """A random game in which seat `watched` marks each of its decisions; yields, at each later
    decision of that seat, what `moves_since` says against the numbers read off the real game
    at each decision since (None for another seat's secret choice, and nothing after it)."""
    game = interpreter.load(game_id)
    st = game.new_state(players, seed)
    am = action_map(st.program, players)
    rng = Rng(seed)
    mark, real = None, []
    while not st.is_terminal():
        seat = st.current_player
        if seat == watched:
            view = SeatView(st, seat)
            if mark is not None:
                yield view.moves_since(mark, am), real
            mark, real = view.mark(), []
        a = rng.below(len(st.legal_actions()))
        secret = st.pending.secret and seat != watched
        if not (real and real[-1][1] is None):  # nothing is told past another seat's secret choice
            real.append((seat, None if secret else am.numbers(st)[a]))
        st.apply(a)


@pytest.mark.parametrize("game_id,players", [("karman-swap", 3), ("seeders-exodus", 4), ("etherium", 4)])
def test_the_moves_since_a_mark_are_the_numbers_of_the_choices_the_game_took(game_id, players):
    compared = hidden = 0
    for told, real in _recorded_game(game_id, players, 5, watched=1):
        assert told == real
        compared += 1
        hidden += any(number is None for _, number in told)
    assert compared > 20
    if game_id == "etherium":  # the programmes are chosen in secret: no tree is followed past one
        assert hidden > 0


def test_a_mark_is_followed_with_chance_given_from_outside():
    """A game whose shuffles and dice are given as chance outcomes (OpenSpiel's explicit chance):
    the copy kept at the mark draws the real game's outcomes, given after it was made."""
    sg = SpielGame("karman-swap", 2, chance="explicit")
    st = sg.new_initial_state()
    r = random.Random(3)
    am = action_map(st.state.program, 2)
    followed = through_chance = 0
    mark, drawn = None, False
    while not st.is_terminal():
        if st.is_chance_node():
            st.apply_action(r.randrange(st.step.outcomes))
            drawn = mark is not None
            continue
        if st.current_player() == 0:
            view = SeatView(st.state, 0)
            if mark is not None:
                moves = view.moves_since(mark, am)
                assert moves is not None and len(moves) >= 1
                followed += 1
                through_chance += drawn
            mark, drawn = view.mark(), False
        st.apply_action(r.choice(st.legal_actions()))
    assert followed > 20 and through_chance >= 2  # (the deck is shuffled again at each round)


def test_a_mark_of_another_game_leads_nowhere():
    game = interpreter.load("karman-swap")
    one, two = game.new_state(2, 1), game.new_state(2, 2)
    am = action_map(one.program, 2)
    mark = SeatView(one, 0).mark()
    assert SeatView(two, 0).moves_since(mark, am) is None
    mark = SeatView(one, 0).mark()
    one.apply(0)
    assert SeatView(one, 0).moves_since(mark, am) is not None
    assert SeatView(one, 0).moves_since(mark, am) is None  # a mark is followed once


def test_a_kept_tree_adds_the_budget_to_the_visits_it_kept():
    """With `reuse`, a decision's options are weighed with the visits kept from the decision
    before (the subtree the game's choices led to) and the budget's own; without it, with the
    budget's alone."""
    game = interpreter.load("karman-swap")
    for spec, kept in (("mcts:30:reuse", True), ("mcts:30", False)):
        agent = make_agent(spec, 4)
        st = game.new_state(2, 4)
        rng = Rng(4)
        totals = []
        while not st.is_terminal():
            if st.current_player == 0:
                a = agent.act(SeatView(st, 0))
                if agent.weighed:
                    totals.append(sum(v for _, (v, _) in agent.weighed))
                    assert any("(reuse)" in note for note in agent.notes()) == kept  # what why-bot says
            else:
                a = rng.below(len(st.legal_actions()))
            st.apply(a)
        assert totals and min(totals) >= 29  # every iteration but a faulted one reaches an option
        assert (max(totals) > 30) == kept
        if kept:
            assert sum(t > 30 for t in totals) > len(totals) // 3


class _Counting(SeatView):
    __slots__ = ("drawn",)

    def __init__(self, state, seat):
        super().__init__(state, seat)
        self.drawn = 0

    def sampled(self, rng):
        self.drawn += 1
        return super().sampled(rng)


@pytest.mark.parametrize("batch,worlds", [(1, 24), (4, 6), (5, 5)])
def test_a_batch_plays_several_iterations_in_each_sampled_world(batch, worlds):
    game = interpreter.load("seeders-exodus")
    st = game.new_state(2, 6)
    rng = Rng(6)
    while len(st.legal_actions()) < 2:
        st.apply(rng.below(len(st.legal_actions())))
    agent = make_agent(f"mcts:24:batch={batch}", 1)
    view = _Counting(st, st.current_player)
    assert agent.act(view) in st.legal_actions()
    assert view.drawn == worlds and agent.searched == 24


def test_the_options_off_are_todays_agent():
    """`batch=1`, `rollout=random` and `depth=20` spelt out play the same game as the bare budget."""
    game = interpreter.load("seeders-exodus")
    a = play_game(game, 2, 3, game.options({}), ["mcts:15", "random"])[0]
    b = play_game(game, 2, 3, game.options({}), ["mcts:15:batch=1:rollout=random:depth=20", "random"])[0]
    assert a.history == b.history and len(a.history) > 50


@pytest.mark.parametrize("game_id,spec", [("karman-swap", "mcts:15:reuse:batch=3"),
                                          ("etherium", "mcts:6:rollout=heuristic:depth=6:reuse")])
def test_games_with_the_options_are_reproduced_from_their_seed(game_id, spec):
    game = interpreter.load(game_id)
    runs = [play_game(game, 2, 8, game.options({}), [spec, "greedy"]) for _ in range(2)]
    assert runs[0][1] is None and runs[0][0].is_terminal()
    assert runs[0][0].history == runs[1][0].history


def _take_last_stones():
    """A Nim state where the seat to move holds two options: take 2 (the last stones: it wins)
    or take 1 (the other seat then takes the last one and wins)."""
    game = fixture_game("nim")
    st = game.new_state(2, 1, game.options({"most": 2}))
    while True:
        pile = [k for k in st.zones if str(k) == "pile"][0]
        if len(st.zones[pile]) == 2:
            return st
        st.apply(0)


def test_a_guided_rollout_keeps_the_better_of_two_options():
    start = _take_last_stones()
    me = start.current_player
    assert len(start.legal_actions()) == 2
    guided = random_ = 0
    for k in range(20):
        st, made = mcts.guided_rollout(start.clone(), Rng(k), me, start.program.heuristic)
        guided += me in st.winners and made == 1
        st = start.clone()
        mcts.rollout(st, Rng(k), me)
        random_ += me in st.winners
    assert guided == 20  # both options are drawn, and the win is kept
    assert 3 <= random_ <= 17  # a random rollout takes the losing one about half the time


@pytest.mark.parametrize("game_id,players", [("seeders-exodus", 4), ("etherium", 4)])
def test_a_guided_rollout_stops_where_a_random_one_does(game_id, players):
    """Past the horizon, when the turn comes back to the searching seat from another seat."""
    game = interpreter.load(game_id)
    start = game.new_state(players, 5)
    rng = Rng(5)
    for _ in range(30):
        start.apply(rng.below(len(start.legal_actions())))
    ended = 0
    for me in range(players):
        st, made = mcts.guided_rollout(start.clone(), Rng(me), me, start.program.heuristic, 8)
        assert st.history[:len(start.history)] == start.history and len(st.history) == len(start.history) + made
        again, seats, open_ = start.clone(), [], 0
        for a in st.history[len(start.history):]:
            seats.append(again.current_player)
            open_ += not again.pending.secret
            again.apply(a)
        if not st.is_terminal():
            assert open_ >= 8 and made < 32
            assert st.current_player == me and seats[-1] != me
            ended += 1
    assert ended >= players - 1


def test_options_are_parsed_and_refused_when_wrong(capsys):
    assert parse_search("100") == Search(100, None)
    assert parse_search("0.5s:reuse:batch=4:rollout=heuristic:depth=8") == Search(
        None, 0.5, reuse=True, batch=4, rollout="heuristic", depth=8)
    assert parse_agents("mcts:50:reuse,random", 2) == ["mcts:50:reuse", "random"]
    for bad in ("50:reuse=1", "50:batch=0", "50:batch=65", "50:rollout=greedy", "50:depth=x", "50:fast", "50:"):
        with pytest.raises(ValueError, match="mcts's options are reuse, batch"):
            parse_search(bad)
    with pytest.raises(ValueError, match="mcts takes a number"):
        parse_search("lots:reuse")
    assert main(["simulate", "karman-swap", "--agents", "mcts:50:batch=0", "--games", "1"]) == 2
    assert "mcts's options are" in capsys.readouterr().err


def _swapped_twin(st, seat: int):
    """A copy of `st` with the top cards of two zones hidden from `seat` swapped (cards of one
    kind), or None when no two such zones hold one."""
    program = st.program
    hidden = [k for k in st.zones if st.zones[k] and not may_see(
        st, program.zone_def(k).visibility, program.zone_holder(k), seat)]
    pairs = [(a, b) for a in hidden for b in hidden if a < b and
             program.comp_start[st.zones[a][-1]] == program.comp_start[st.zones[b][-1]]]
    if not pairs:
        return None
    twin = st.clone()
    a, b = pairs[0]
    x, y = twin.zones[a][-1], twin.zones[b][-1]
    twin.zones[a][-1], twin.zones[b][-1] = y, x
    twin.where[x], twin.where[y] = b, a
    return twin


def test_a_kept_tree_depends_only_on_what_the_seat_knows():
    """With its tree kept from the decision before, a decision is the same in two states that
    differ only in where two hidden cards lie: the choices followed since are the ones told."""
    game = interpreter.load("karman-swap")
    rng = Rng(11)
    st = game.new_state(2, 11)
    one, two = make_agent("mcts:20:reuse", 3), make_agent("mcts:20:reuse", 3)
    decided = kept = 0
    while not st.is_terminal() and decided < 4:
        if st.current_player == 0 and len(st.legal_actions()) > 1:
            twin = _swapped_twin(st, 0)
            if twin is not None:
                assert twin.observation(0) == st.observation(0) and twin.zones != st.zones
                picked = one.act(SeatView(st, 0))
                assert two.act(SeatView(twin, 0)) == picked and one.weighed == two.weighed
                decided += 1
                kept += sum(v for _, (v, _) in one.weighed) > 20  # visits kept from before
                st.apply(picked)
                continue
        st.apply(rng.below(len(st.legal_actions())))
    assert decided >= 3 and kept >= 2
