"""Karman Swap rules that are awkward as rules-test YAML: set-up per player
count, the structure of a round and of a match, the round's end.

Each test names the rule IDs of ../shared/rules/karman-swap.md it checks.
Most situations are real games (`new_state`) driven through their decisions;
a few are set up with rules-language statements (`situation`), as a rules
test's `given` and `when` are, so that a menu's whole list of options can be
checked.
"""
from __future__ import annotations

import random
import textwrap
from types import SimpleNamespace

import pytest

import interpreter
from interpreter.engine import machine as vm
from interpreter.compile.context import Ctx
from interpreter.engine.code import Code
from interpreter.diagnostics import Position
from interpreter.language.parser import parse
from interpreter.names import fold
from interpreter.rulings.ruletest import compile_part
from interpreter.engine.state import Frame
from interpreter.engine.values import ZoneRef

rule = pytest.mark.rule


@pytest.fixture(scope="module")
def game():
    return interpreter.load("karman-swap")


# helpers ----------------------------------------------------------------------

def ids(game, st, key: str) -> list:
    """Card ids in a zone, bottom first."""
    return [game.program.comp_card[c].id for c in st.zones.get(key, [])]


def comp(game, card_id: str):
    return game.program.cards_by_id[fold(card_id)][0]


def put(game, st, card_id: str, key: str) -> None:
    st.move(comp(game, card_id), ZoneRef(key), False, None)


def hand_sizes(st) -> list:
    return [len(st.zones.get(f"hand#{i}", [])) for i in range(st.n)]


def to_turn(st, pose: str = "no") -> None:
    """Answer every decision up to the next "Your turn" menu: no card exchange,
    the first planet and creature offered, poses declined."""
    while st.prompt is not None and st.prompt != "Your turn":
        labels = st.labels()
        if st.prompt.startswith("How many cards"):
            st.apply("0")
        elif labels == ["yes", "no"]:
            st.apply(pose)
        else:
            st.apply(0)


def pass_turn(st) -> None:
    assert st.prompt == "Your turn"
    st.apply("Pass")
    st.apply("Pass without exchange")


def end_round_now(game, st) -> int:
    """At a "Your turn" menu, leave the player one card and have them discard it:
    an empty hand ends the round (KS-END-1). Returns the seat (from 0) who did."""
    assert st.prompt == "Your turn"
    seat = st.current_player
    key = f"hand#{seat}"
    for c in list(st.zones[key])[1:]:
        st.move(c, ZoneRef("market"), False, None)
    last = game.program.comp_card[st.zones[key][0]].title
    st.apply("Pass")
    st.apply(f"Discard {last} into the Market")
    return seat


def situation(game, players: int, given: str, when: str, seed: int = 0):
    """A state set up by `given` and acted on by `when` (rules-language statements,
    as in a rules test), stopped at the first decision `when` asks."""
    st = game.blank_state(players, seed)
    where = SimpleNamespace(file="tests/games/test_karman_rules.py", pos=Position("tests/games/test_karman_rules.py"))
    env: dict = {}
    names: set = set()
    for part, text in (("given", given), ("when", when)):
        code, names = compile_part(game, where, part, parse(textwrap.dedent(text), "procedure"), names)
        fr = vm.push(st, code, env, None, None, None)
        vm.run(st)
        env = fr.env
    return st, (env, names)


def holds(game, st, scope, text: str):
    env, names = scope
    cg = game.program
    fn = cg.compiler.expr(parse(text, "condition"), Ctx(Code("check", "then"), locals_=names))
    return fn(st, Frame(None, 0, env, None, None))



def discovery_after_a_gift_to_seat_1(game, players: int) -> list:
    """The discovery gems each seat's team holds once 2 are given to seat 1 (players[2])."""
    st, scope = situation(game, players, "let gift = 2", "gain gift discovery to players[2]")
    return [holds(game, st, scope, f"players[{i + 1}].team.discovery") for i in range(players)]

# components and set-up ----------------------------------------------------------

ITH_RED_FULL = """
let ith = card("ith")
move ith to space
move card("shergal-noir") to ith.surface
move card("pyrax") to players[1].hand
move card("fongite") to players[1].hand
"""


@rule("KS-SET-1")
def test_a_creature_needs_a_free_slot_of_its_colour_on_the_planet(game):
    # Ith's one red slot holds the Shergal noir: the red Pyrax cannot go there, the green Fongite can
    st, scope = situation(game, 4, ITH_RED_FULL, "call turn(players[1])")
    assert st.prompt == "Your turn"
    assert st.labels() == ["Play Fongite", "Pass"]
    # with Juhel in space too, the Pyrax may be played, on Juhel only
    st, scope = situation(game, 4, ITH_RED_FULL + 'move card("juhel") to space\n', "call turn(players[1])")
    assert st.labels() == ["Play Pyrax", "Play Fongite", "Pass"]
    twin = st.clone()
    st.apply("Play Pyrax")  # one planet it fits: chosen without asking
    assert holds(game, st, scope, 'card("pyrax") in card("juhel").surface')
    assert holds(game, st, scope, 'count(card("ith").surface) == 1')
    twin.apply("Play Fongite")
    assert twin.prompt == "Planet for Fongite"
    assert sorted(twin.labels()) == ["Ith", "Juhel"]


@rule("KS-SET-1", "KS-SET-4")
def test_four_player_setup(game):
    st = game.new_state(players=4, seed=11)
    # partners sit diagonally: seat 3 shares what seat 1 is given, seats 0 and 2 do not
    assert discovery_after_a_gift_to_seat_1(game, 4) == [0, 2, 0, 2]
    # two piles of four planets, the top one of each visible
    assert len(st.zones["pile_a"]) == 3 and len(st.zones["visible_a"]) == 1
    assert len(st.zones["pile_b"]) == 3 and len(st.zones["visible_b"]) == 1
    assert not st.zones.get("planet_box") and not st.zones.get("space")
    # 8 cards each, the 4 others in the Market
    assert hand_sizes(st) == [8, 8, 8, 8]
    assert len(st.zones["market"]) == 4 and not st.zones.get("deck")
    dealt = sum((st.zones[f"hand#{i}"] for i in range(4)), []) + st.zones["market"]
    assert len(set(dealt)) == 36
    # counters: domes at the start of the colonisation counter, extinction dome in the centre
    assert st.counters["colonisations#t0"] == st.counters["colonisations#t1"] == 0
    assert st.counters["extinction"] == 0
    assert st.counters["markers"] == 2
    # the first decision is the first player's card gift (KS-TRN-1)
    assert st.current_player == 0 and st.prompt == "How many cards to give player 3"


@rule("KS-3P-1", "KS-SET-1")
def test_three_player_setup(game):
    st = game.new_state(players=3, seed=4)
    assert hand_sizes(st) == [10, 10, 10]
    assert len(st.zones["market"]) == 6
    # everyone plays alone (what seat 1 is given is no one else's), no card exchange: the round opens at once
    assert discovery_after_a_gift_to_seat_1(game, 3) == [0, 2, 0]
    assert st.current_player == 0 and st.prompt == "Planet to start the round"
    # one extinction dome each, on the leftmost space
    assert [st.counters[f"extinction_dome#{i}"] for i in range(3)] == [0, 0, 0]


@rule("KS-2P-1")
def test_two_player_setup_builds_the_pyramid(game):
    st = game.new_state(players=2, seed=8)
    assert hand_sizes(st) == [11, 11]
    assert not st.zones.get("market") and not st.zones.get("deck")
    nodes = game.program.nodes
    rows = {}
    for n, attrs in nodes.items():
        down = len(st.zones.get(f"pyramid_down#{n}", []))
        up = len(st.zones.get(f"pyramid_up#{n}", []))
        assert down + up == 1
        rows.setdefault(attrs["row"], []).append("down" if down else "up")
    # 5 face down at the base, then 4 face up, 3 face down, 2 face up
    assert rows == {1: ["down"] * 5, 2: ["up"] * 4, 3: ["down"] * 3, 4: ["up"] * 2}
    assert st.current_player == 0 and st.prompt == "Planet to start the round"
    # only the two uncovered cards of the top row may be taken
    scope = ({}, set())
    uncovered = holds(game, st, scope, "[each c in market_cards()]")
    assert list(uncovered) == st.zones["pyramid_up#s1"] + st.zones["pyramid_up#s2"]


# turns ----------------------------------------------------------------------------

@rule("KS-TRN-1")
def test_first_round_card_gifts_between_partners(game):
    st = game.new_state(players=4, seed=5)
    before = [list(st.zones[f"hand#{i}"]) for i in range(4)]
    assert st.current_player == 0 and st.labels() == ["0", "1", "2"]
    st.apply("2")
    given = []
    for _ in range(2):
        assert st.current_player == 0 and st.prompt == "Card to give player 3"
        given.append(st.zones["hand#0"][0])
        st.apply(0)
    returned = []
    for _ in range(2):
        assert st.current_player == 2 and st.prompt == "Card to give back to player 1"
        returned.append(st.zones["hand#2"][0])
        st.apply(0)
    assert set(given) <= set(st.zones["hand#2"])
    assert set(returned) <= set(st.zones["hand#0"])
    assert sorted(st.zones["hand#0"] + st.zones["hand#2"]) == sorted(before[0] + before[2])
    # then the next player does the same for the other team
    assert st.current_player == 1 and st.prompt == "How many cards to give player 4"
    st.apply("1")
    st.apply(0)
    assert st.current_player == 3 and st.prompt == "Card to give back to player 2"
    st.apply(0)
    assert hand_sizes(st) == [8, 8, 8, 8]
    assert sorted(st.zones["hand#1"] + st.zones["hand#3"]) == sorted(before[1] + before[3])
    # and the round opens
    assert st.current_player == 0 and st.prompt == "Planet to start the round"


@rule("KS-TRN-2")
def test_the_first_player_opens_with_a_visible_planet_and_a_creature(game):
    st = game.new_state(players=4, seed=2)
    st.apply("0")
    st.apply("0")
    assert st.current_player == 0 and st.prompt == "Planet to start the round"
    visible = st.zones["visible_a"] + st.zones["visible_b"]
    assert st.labels() == [game.program.comp_card[p].title for p in visible]
    st.apply(0)
    planet = visible[0]
    assert st.zones["space"] == [planet]
    # the visible planet is replaced from its pile
    assert len(st.zones["visible_a"]) == 1 and len(st.zones["pile_a"]) == 2
    hand = list(st.zones["hand#0"])
    creatures = [c for c in hand if st.attr(c, "category") == "Créature"]
    assert creatures
    if st.prompt.startswith("Creature to play on"):
        # every creature that fits is offered, nothing else
        assert len(st.labels()) == len(creatures)
        st.apply(0)
    to_turn(st)
    surface = st.zones[f"surface#{int(planet)}"]
    assert len(surface) == 1 and surface[0] in creatures
    assert len(st.zones["hand#0"]) == 7
    # play goes to the left
    assert st.current_player == 1 and st.prompt == "Your turn"


@rule("KS-TRN-3")
def test_the_four_kinds_of_turn(game):
    st, scope = situation(game, 4, """
        let juhel = card("juhel")
        move juhel to space
        move card("fongite") to juhel.surface
        move card("ith") to space
        set card("ith").dome = 1
        move card("arche-fille-8-1") to card("ith").orbit
        set card("arche-fille-8-1").arrows_used = 1
        move card("sereis") to visible_a
        move card("vermille") to players[1].hand
        move card("avant-poste-5-1") to players[1].hand
        """, "call turn(players[1])")
    assert st.current_player == 0 and st.prompt == "Your turn"
    assert st.labels() == ["Play Vermille", "Play Avant-poste 5 around a planet",
                           "Place a planet facing Arche Fille 8", "Pass"]


@rule("KS-SHP-5", "KS-SHP-4")
def test_a_player_whose_partner_leads_may_play_on_or_around_a_planet_or_pass(game):
    given = """
        let juhel = card("juhel")
        move juhel to space
        move card("fongite") to juhel.surface
        move card("barge-de-fret") to juhel.orbit
        set card("barge-de-fret").played_by = 1
        set juhel.colonising = 1
        set juhel.turns_left = 3
        set markers = 1
        move card("ith") to space
        move card("vermille") to card("ith").surface
        move card("thesan") to space
        set card("thesan").dome = 1
        move card("arche-fille-8-1") to card("thesan").orbit
        move card("sereis") to visible_a
        move card("nacrelle") to players[3].hand
        move card("avant-poste-5-1") to players[3].hand
        move card("avant-poste-6-1") to players[2].hand
        """
    st, _ = situation(game, 4, given, "call turn(players[3])")
    # the partner of the leader: no concession; a card on or around an active planet,
    # or a pass; no planet placed
    assert st.current_player == 2
    assert st.labels() == ["Play Nacrelle", "Play Avant-poste 5 around a planet", "Pass"]
    st.apply("Play Avant-poste 5 around a planet")
    assert st.labels() == ["Juhel", "Ith"]
    # an opponent of the leader must play a ship or concede
    st, _ = situation(game, 4, given, "call turn(players[2])")
    assert st.current_player == 1
    assert st.labels() == ["Play Avant-poste 6 around Juhel", "Concede the colonisation of Juhel"]


# the end of a round ----------------------------------------------------------------

@rule("KS-END-1")
def test_a_player_without_cards_ends_the_round_at_once(game):
    st = game.new_state(players=4, seed=3)
    to_turn(st)
    assert st.current_player == 1 and st.counters["round"] == 1
    seat = end_round_now(game, st)
    assert seat == 1
    # nobody else plays in round 1: round 2 is set up and opens
    assert st.counters["round"] == 2
    assert st.prompt == "Planet to start the round"
    assert hand_sizes(st) == [8, 8, 8, 8]


@rule("KS-END-1", "KS-END-2")
def test_a_hand_emptied_in_a_chain_of_poses_ends_the_round_before_the_chain_goes_on(game):
    st = game.new_state(players=4, seed=3)
    to_turn(st)
    assert st.current_player == 1 and st.counters["round"] == 1
    # player 2 keeps Brasier-roi (Semis) and K'ib (Cueillette, which would refill the hand)
    for c in list(st.zones["hand#1"]):
        st.move(c, ZoneRef("market"), False, None)
    put(game, st, "brasier-roi", "hand#1")
    put(game, st, "k-ib", "hand#1")
    st.apply("Play Brasier-roi")
    assert st.labels() == ["yes", "no"]     # Brasier-roi's pose: K'ib, the last card, goes on the planet
    st.apply("yes")
    # the hand is empty: the round is over at once, K'ib's pose is never offered
    assert st.counters["round"] == 2
    assert st.prompt == "Planet to start the round"
    assert hand_sizes(st) == [8, 8, 8, 8]
    # the cards of the cut chain start the new round without the mark of a used pose
    assert not st.tags


@rule("KS-END-1")
def test_when_the_planets_run_out_each_other_player_plays_one_more_turn(game):
    st = game.new_state(players=4, seed=7)
    st.apply("0")
    st.apply("0")
    assert st.prompt == "Planet to start the round"
    # only the planet of visible_a is left to place
    for key in ("pile_a", "pile_b", "visible_b"):
        for p in list(st.zones[key]):
            st.move(p, ZoneRef("planet_box"), False, None)
    st.apply(0)
    assert not st.zones["visible_a"] and st.counters["round"] == 1
    to_turn(st)
    turns = []
    while st.counters["round"] == 1:
        turns.append(st.current_player)
        pass_turn(st)
        to_turn(st)
    # the first player placed the last planet: players 2, 3 and 4 play once more
    assert turns == [1, 2, 3]


@rule("KS-END-2", "KS-WIN-4")
def test_a_new_round_resets_everything_and_the_losers_first_player_opens(game):
    st = game.new_state(players=4, seed=3)
    to_turn(st)
    st.counters["pp#t0"] = 10
    st.counters["discovery#t1"] = 3    # 9 PP: team 2 still loses
    st.counters["discovery"] = 0
    end_round_now(game, st)
    assert st.counters["round"] == 2
    assert st.counters["rounds_won#t0"] == 1 and st.counters["rounds_won#t1"] == 0
    # the first player of the losing team (player 2) opens round 2
    assert st.counters["first_seat"] == 1
    assert st.current_player == 1 and st.prompt == "Planet to start the round"
    # no card gifts after the first round
    for key in ("pp#t0", "pp#t1", "research#t0", "research#t1", "discovery#t0", "discovery#t1",
                "colonisations#t0", "colonisations#t1", "extinction"):
        assert st.counters[key] == 0, key
    assert st.counters["markers"] == 2
    assert hand_sizes(st) == [8, 8, 8, 8] and len(st.zones["market"]) == 4
    assert len(st.zones["pile_a"]) == 3 and len(st.zones["pile_b"]) == 3
    assert not st.zones.get("space")
    assert not st.tags


@rule("KS-WIN-1")
def test_a_match_is_won_with_two_rounds(game):
    st = game.new_state(players=4, seed=3)
    to_turn(st)
    st.counters["pp#t1"] = 5
    end_round_now(game, st)
    # one round won: the match goes on
    assert st.counters["rounds_won#t1"] == 1 and not st.is_terminal()
    to_turn(st)
    st.counters["pp#t1"] = 5
    end_round_now(game, st)
    assert st.counters["rounds_won#t1"] == 2
    assert st.is_terminal()
    assert st.winners == (1, 3)
    assert st.returns() == [-1.0, 1.0, -1.0, 1.0]


@rule("KS-WIN-1")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_matches_end_with_a_two_round_winner(game, players):
    for seed in range(6):
        st = game.new_state(players=players, seed=seed)
        r = random.Random(seed)
        while not st.is_terminal():
            st.apply(r.choice(st.legal_actions()))
        won = [t for t in range(len(game.program.teams_for(players)))
               if st.counters[f"rounds_won#t{t}"] >= 2]
        if st.winners:
            assert len(won) == 1
            assert set(st.winners) == set(game.program.teams_for(players)[won[0]])
            assert st.counters[f"rounds_won#t{won[0]}"] == 2
        else:
            assert not won and st.counters["round"] == 7
