"""Why not? The condition that excludes a move, named where content wrote it (engine.why).

Each test sets up a situation, asks about a move, and checks the answer: legal or
not, the condition as written, its file and line (the line must hold that text),
and the values it read. The workshop fixture has one of each kind of exclusion;
Seeders and Karman Swap show them on real content.
"""
from __future__ import annotations

from functools import lru_cache

import pytest

import interpreter
from interpreter.engine import machine as vm
from interpreter.engine.values import Seat, ZoneRef
from interpreter.names import fold
from gamekit import fixture_game, source_line


@lru_cache(maxsize=None)
def workshop():
    return fixture_game("workshop")


@lru_cache(maxsize=None)
def seeders():
    return interpreter.load("seeders-exodus")


@lru_cache(maxsize=None)
def karman():
    return interpreter.load("karman-swap")


def comp(game, card_id):
    return game.program.cards_by_id[fold(card_id)][0]


def run_procedure(game, st, name, **params):
    """Run one procedure on a state built by hand, acting for its acting parameter."""
    acting = game.program.defn.procedures[name].acting
    vm.push(st, game.program.procs[name], dict(params), None, params.get(acting), None)
    vm.run(st)
    return st


def excluded(answer, condition: str, path_end: str):
    """The answer names `condition`, at a line of a file ending in `path_end` that holds it."""
    assert not answer.legal, str(answer)
    assert answer.condition == condition, str(answer)
    assert answer.where is not None and answer.where.path.endswith(path_end), answer.where
    assert condition in source_line(answer.where), (answer.where, source_line(answer.where))
    assert source_line(answer.where)[answer.where.column - 1:].startswith(condition)


def turn(coins=2, bench=("lamp",), hand=("hammer", "anvil")):
    """Player 1's turn in the workshop, with these coins, cards on the bench and in hand."""
    g = workshop()
    st = g.blank_state(2, 0)
    for card in bench:
        st.move(comp(g, card), st.zone_key("bench", Seat(0)), False, None)
    for card in hand:
        st.move(comp(g, card), st.zone_key("hand", Seat(0)), False, None)
    st.counters["coins#0"] = coins
    return run_procedure(g, st, "turn", player=Seat(0))


# the decision asked now ----------------------------------------------------------------

def test_an_offered_option_is_legal_by_its_label_or_the_start_of_it():
    st = turn()
    assert "Build Hammer (2)" in st.labels()
    for move in ("Build Hammer (2)", "build hammer", "Rest"):
        answer = st.why_not(move)
        assert answer.legal, (move, str(answer))
        assert "is offered now" in answer.reason


def test_a_menu_option_whose_guard_is_false_names_the_guard_and_its_values():
    st = turn(coins=5)
    assert "Rest" not in st.labels()
    answer = st.why_not("Rest")
    excluded(answer, "you.coins < 5", "workshop/game.yaml")
    assert answer.values == ("you.coins is 5",)


def test_a_guard_calling_a_game_function_names_the_false_part_of_its_body():
    """'Build Anvil' is not offered: the part of `affordable` that is false, at the function's line."""
    st = turn(coins=2)
    answer = st.why_not("Build Anvil")
    excluded(answer, "c.value <= p.coins", "workshop/game.yaml")
    assert answer.values == ("c.value is 5", "p.coins is 2")
    assert answer.via == ("in affordable(you, c), where p is player 1, c is Anvil",)
    assert str(answer).startswith("'Build Anvil (5)' is not offered: c.value <= p.coins is false: c.value is 5")


def test_asking_changes_nothing_of_the_state_not_even_its_budget_of_work():
    """An Etherium game asked 'why' at each decision is the game played without the questions,
    and each question leaves the budget of work that labels and bots share between two runs as
    it found it, however often it is asked (a server's table is asked by every seat): the
    conditions read to answer run game functions and walk zones."""
    import random
    game = interpreter.load("etherium")
    asked, quiet = game.new_state(2, 1), game.new_state(2, 1)
    rng = random.Random(1)
    for _ in range(120):
        if asked.is_terminal():
            break
        for move in ("space 4", "space 11", "Pass"):
            before = asked.fuel
            asked.why_not(move, int(asked.pending.player))
            asked.why_not(move)
            assert asked.fuel == before, move
        option = rng.randrange(len(asked.legal_actions()))
        asked.apply(option)
        quiet.apply(option)
    assert asked.to_json() == quiet.to_json()


def test_through_and_the_first_false_part_is_named():
    st = turn(coins=9, bench=("lamp", "saw", "worker"))
    answer = st.why_not("Build Anvil")
    excluded(answer, "count(p.bench) < 3", "workshop/game.yaml")
    assert answer.values == ("count(p.bench) is 3",)


def test_a_candidate_not_in_the_source_says_where_it_is_unless_the_seat_may_not_see_it():
    st = turn()
    answer = st.why_not("Build Saw")
    excluded(answer, "you.hand", "workshop/game.yaml")
    assert answer.reason == "'Build Saw (3)' is not offered: Saw is not in you.hand (it is in deck)"
    # the deck is hidden: asked by the seat, the answer does not tell where the saw is
    assert st.why_not("Build Saw", seat=0).reason == "'Build Saw (3)' is not offered: Saw is not in you.hand"


def test_a_candidate_of_a_choice_whose_where_is_false_names_the_false_part():
    st = turn()
    st.apply("Pick a part")
    assert st.prompt == "Part to take" and st.labels() == ["Saw", "Chisel"]
    assert st.why_not("Chisel").legal and st.why_not("saw").legal
    worker = st.why_not("Worker")
    excluded(worker, "c is Tool", "workshop/game.yaml")
    assert worker.values == ("c is Worker (of Worker)",)
    st.move(comp(workshop(), "lamp"), ZoneRef("deck"), False, None)  # a tool, but worth 1
    lamp = st.why_not("Lamp")
    excluded(lamp, "c.value > 1", "workshop/game.yaml")
    assert lamp.values == ("c.value is 1",)


def test_a_candidate_of_a_choice_not_in_its_source():
    st = turn()
    st.apply("Pick a part")
    answer = st.why_not("Hammer")
    excluded(answer, "deck", "workshop/game.yaml")
    assert answer.reason == "'Hammer' is not offered: it is not in deck (it is in hand of player 1)"


def test_a_move_of_another_seat_s_decision():
    st = turn()
    answer = st.why_not("Rest", seat=1)
    assert not answer.legal
    assert answer.reason == "it is player 1's decision now ('Your turn'), not player 2's"


def test_an_unknown_move_lists_close_names():
    st = turn()
    answer = st.why_not("Bild Hammer")
    assert not answer.legal and answer.reason == "no option, card or action 'Bild Hammer' is known here"
    assert answer.near and answer.near[0] == "Build Hammer (2)"
    assert "did you mean 'Build Hammer (2)'" in str(answer)


def test_asking_changes_nothing():
    st = turn()
    before = st.to_json()
    for move in ("Build Anvil", "Rest", "Strike", "use Saw", "Light", "nothing at all"):
        st.why_not(move)
    assert st.to_json() == before


def test_the_game_over_has_no_move():
    st = workshop().new_state(2, 0)
    st.apply("Stop")
    assert st.is_terminal()
    assert st.why_not("Rest").reason == "the game is over: no move is possible"


# actions of cards ------------------------------------------------------------------------

def test_an_action_of_a_card_not_in_play_under_the_seat_s_control():
    st = turn()
    for move in ("Strike", "use Hammer", "Hammer: Strike"):
        answer = st.why_not(move)
        assert not answer.legal
        assert answer.reason == ("'Strike' is not possible: Hammer is not in play under player 1's control "
                                 "(it is in hand of player 1)"), move
        assert answer.where.path.endswith("workshop/cards.yaml") and "Strike" in source_line(answer.where)


def test_an_action_out_of_its_window():
    st = turn()
    answer = st.why_not("Light")
    assert not answer.legal
    assert answer.condition == "during night" and "during night" in source_line(answer.where)
    assert "this decision offers actions during day" in answer.reason


def test_an_action_used_already_once_per_event():
    st = turn(bench=("lamp", "hammer"), hand=())
    assert st.why_not("Strike").legal
    st.apply("Strike")
    answer = st.why_not("Strike")
    assert not answer.legal and answer.condition == "once per round_end"
    assert "once per round_end" in source_line(answer.where)


def test_an_action_whose_condition_is_false():
    st = turn(coins=5, bench=("saw",), hand=())
    answer = st.why_not("Cut")
    excluded(answer, "count(you.bench) >= 2", "workshop/cards.yaml")
    assert answer.values == ("count(you.bench) is 1",)
    assert answer.reason == "'Cut' is not possible: its condition count(you.bench) >= 2 is false"


def test_an_action_whose_cost_cannot_be_paid():
    st = turn(coins=1, bench=("saw", "lamp"), hand=())
    answer = st.why_not("use Saw")
    excluded(answer, "pay 2 coins", "workshop/cards.yaml")
    assert answer.values == ("player 1 has 1 coins, the cost is 2",)
    assert answer.reason == "'Cut' is not possible: its cost 'pay 2 coins' cannot be paid"


def test_a_sacrifice_with_nothing_to_sacrifice_and_a_tapped_card():
    st = turn(bench=("worker",), hand=())
    answer = st.why_not("Give up a tool")
    excluded(answer, "sacrifice Tool", "workshop/cards.yaml")
    assert answer.values == ("player 1 controls no other Tool in play",)
    st = turn(bench=("lamp",), hand=())
    st.tap(comp(workshop(), "lamp"), True, None)
    st.apply("Night")
    assert st.prompt == "Night"
    answer = st.why_not("Light")
    excluded(answer, "tap", "workshop/cards.yaml")
    assert answer.values == ("Lamp is tapped already",)


def test_no_action_is_offered_by_a_choice():
    st = turn(bench=("lamp", "hammer"), hand=())
    st.apply("Pick a part")
    answer = st.why_not("Strike")
    assert not answer.legal
    assert answer.reason == "'Strike' is not possible: no action of a card is offered now, while 'Part to take' is asked"


# real content ----------------------------------------------------------------------------

def seeders_integration(resource, hand=("diplomate",), in_play=()):
    """Seat 0 in its integration turn, with a Technopôle in its ark."""
    g = seeders()
    st = g.blank_state(2, 0)
    st.move(comp(g, "technopole"), st.zone_key("ark", Seat(0)), False, None)
    for card in hand:
        st.move(comp(g, card), st.zone_key("hand", Seat(0)), False, None)
    st.counters["resource#0"] = resource
    return run_procedure(g, st, "integration_turn", player=Seat(0))


@pytest.mark.rule("SX-INT-3")
def test_seeders_integrating_a_card_the_player_cannot_afford_names_the_cost_condition():
    st = seeders_integration(2)
    assert "Integrate Diplomate (3)" not in st.labels()
    answer = st.why_not("Integrate Diplomate")
    excluded(answer, "c.cost <= wealth(p)", "seeders-exodus/game.yaml")
    assert answer.values == ("c.cost is 3", "wealth(p) is 2")
    assert answer.via == ("in can_integrate(you, c), where p is player 1, c is Diplomate",)


@pytest.mark.rule("SX-ABL-1")
def test_seeders_a_jailer_with_an_empty_prison_cannot_free_a_crew():
    st = seeders_integration(4, hand=("diplomate", "apprenti"))
    st.apply("Integrate Diplomate (3)")
    assert "Imprison a crew" in st.labels()
    assert st.why_not("Imprison a crew").legal
    answer = st.why_not("Free a crew from your prison")
    excluded(answer, "count(you.prison) > 0", "seeders-exodus/keywords.yaml")
    assert answer.values == ("count(you.prison) is 0",)
    assert str(answer) == ("'Free a crew from your prison' is not possible: its condition count(you.prison) > 0 "
                           "is false: count(you.prison) is 0")


@pytest.mark.rule("SX-ABL-1", "SX-INT-3")
def test_seeders_a_jailer_without_resource_cannot_pay_to_imprison():
    st = seeders_integration(3, hand=("diplomate", "apprenti"))
    st.apply("Integrate Diplomate (3)")
    assert "Imprison a crew" not in st.labels()
    answer = st.why_not("Diplomate: Imprison a crew")
    excluded(answer, "pay 1 resource", "seeders-exodus/keywords.yaml")
    assert answer.values == ("player 1 has 0 resource, the cost is 1",)


@pytest.mark.rule("KS-TRN-5")
def test_karman_swap_exchanging_two_cards_with_one_in_hand_names_the_guard():
    g = karman()
    st = g.new_state(2, 1)
    while st.prompt != "Your turn":  # the first decisions: the first option each
        st.apply(0)
    hand = f"hand#{st.current_player}"
    for c in list(st.zones[hand])[1:]:  # one card left in hand
        st.move(c, ZoneRef("market"), False, None)
    st.apply("Pass")
    assert not any(label.startswith("Exchange") for label in st.labels())
    card = g.program.comp_card[st.zones["market"][0]].title
    answer = st.why_not(f"Exchange two cards for {card}")
    excluded(answer, "count(you.hand) >= 2", "karman-swap/game.yaml")
    assert answer.values == ("count(you.hand) is 1",)
    assert st.why_not("Pass without exchange").legal


def test_using_a_card_that_has_no_action():
    st = turn()
    answer = st.why_not("use Anvil")
    assert not answer.legal and answer.reason == "Anvil has no action to use"
    assert "anvil" in source_line(answer.where)
