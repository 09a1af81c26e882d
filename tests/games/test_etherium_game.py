"""Etherium rules that are awkward as rules-test YAML: the secrecy of the
programming panel in what each seat observes, the connection limit on a real
programming menu, the reveal, who orders several conflicts, and random games
with every invariant checked.

Each test names the rule IDs of ../shared/rules/etherium.md it checks.
"""
from __future__ import annotations

import textwrap
from types import SimpleNamespace

import pytest

import interpreter
from interpreter.diagnostics import Position
from interpreter.engine import machine as vm
from interpreter.engine.values import Comp
from interpreter.language.parser import parse
from interpreter.runs import simulate as S
from interpreter.rulings.ruletest import compile_part

rule = pytest.mark.rule


@pytest.fixture(scope="module")
def game():
    return interpreter.load("etherium")


def situation(game, players: int, given: str, seed: int = 0):
    """A state set up by rules-language statements (as a rules test's `given`
    and `when`), stopped at the first decision they ask."""
    st = game.blank_state(players, seed)
    where = SimpleNamespace(file="tests/games/test_etherium_game.py",
                            pos=Position("tests/games/test_etherium_game.py"))
    code, _ = compile_part(game, where, "when", parse(textwrap.dedent(given), "procedure"), set())
    vm.push(st, code, {}, None, None, None)
    vm.run(st)
    return st


NIGHT = """
call take_people(players[1], card("psolos"))
call take_people(players[2], card("hivalia"))
call take_people(players[3], card("reces"))
move card("nuit") to current_season
for each p in players:
  set p.initiative = rank(p)
"""


def to_programming(st) -> None:
    """Answer every decision (the first option each time) up to the first programming menu."""
    while not st.prompt.startswith("Action of token"):
        st.apply(len(st.labels()) - 1 if "Done" in st.labels() or "Decline" in st.labels() else 0)


@rule("ET-RND-4")
def test_the_panel_is_seen_by_its_owner_only(game):
    st = game.new_state(players=2, seed=5)
    to_programming(st)
    first = st.current_player
    other = 1 - first
    for label in ("Connect", "Collect on a space of forest", "Increase the army", "Transform: booster"):
        assert st.current_player == first
        st.apply(label)
    assert st.current_player == other and st.prompt.startswith("Action of token")
    mine, theirs = st.observation(first), st.observation(other)
    panel = f"panel#{first}"
    assert [x["card"] for x in mine["zones"][panel]] == ["token-1", "token-2", "token-3", "token-4"]
    assert theirs["zones"][panel] == {"count": 4}
    # the parameters on the tokens are in no other seat's observation
    assert not any(k.startswith(("plan_act#", "plan_arg#")) for k in theirs["counters"])
    # nothing was revealed: the public counters of the tokens are still blank
    assert all(v == 0 for k, v in theirs["counters"].items() if k.startswith(("act#", "arg#")))


def test_the_units_on_the_board_show_their_owner_to_every_seat(game):
    st = game.new_state(players=2, seed=9)
    while not any(k.startswith("units#") and v for k, v in st.zones.items()):
        st.apply(st.legal_actions()[0])
    for seat in (0, 1):
        seen = [x for k, v in st.observation(seat)["zones"].items() if k.startswith("units#") for x in v]
        assert seen and all(x["owner"] == vm.owner(st, Comp(x["id"])) for x in seen)
        assert {x["owner"] for x in seen} <= {0, 1}


@rule("ET-RND-5")
def test_the_reveal_makes_the_programme_public(game):
    st = game.new_state(players=2, seed=5)
    to_programming(st)
    first = st.current_player
    # one token per place (ET-RND-4): the four increase places, one token each, for both players
    increases = ("Increase the collector", "Increase the army", "Increase the defence", "Increase the guide")
    for label in increases * 2:
        assert st.prompt.startswith("Action of token")
        st.apply(label)
    # the first decision of the execution (a Flash card, a resource...) comes after the reveal
    other = 1 - first
    obs = st.observation(other)
    shown = {k: v for k, v in obs["counters"].items() if k.startswith("act#")}
    assert sorted(shown.values()) == [3] * 8
    shown_args = {k: v for k, v in obs["counters"].items() if k.startswith("arg#")}
    assert sorted(shown_args.values()) == [1, 1, 2, 2, 3, 3, 4, 4]


@rule("ET-ACT-5", "ET-RND-4")
def test_at_most_two_connections_per_season(game):
    st = game.new_state(players=2, seed=9)
    to_programming(st)
    assert "Connect" in st.labels()
    st.apply("Connect")
    assert "Connect" in st.labels()
    st.apply("Connect")
    assert "Connect" not in st.labels()
    assert "Increase the guide" in st.labels() and "Move a unit to blue" in st.labels()


@rule("ET-RND-4")
def test_a_place_of_the_panel_takes_one_token(game):
    """« On ne peut placer qu'un jeton par emplacement »: a place taken by one token is offered
    to no later token of the season, whatever the place (a colour to move to, a kind of space
    to collect on, a unit, a transformation)."""
    st = game.new_state(players=2, seed=9)
    to_programming(st)
    first = st.current_player
    for label in ("Move a unit to blue", "Collect on a space of ether", "Increase the army"):
        assert label in st.labels()
        st.apply(label)
        assert st.current_player == first and label not in st.labels()
    assert not any(label.startswith("Move a unit to ") and not label.endswith(("green", "yellow", "red", "blue"))
                   for label in st.labels())


@rule("ET-RND-5", "ET-END-1")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_without_errors(game, players, tmp_path):
    spec = S.RunSpec("etherium", players, 7, 5, ["random"] * players, game.options(), check=True,
                     trace_dir=str(tmp_path))
    results, _ = S.run(game, spec)
    assert [r.error for r in results if r.error] == []
    assert len(results) == 5 and all(r.decisions > 0 for r in results)


def two_conflicts(game, army_by_reces: int):
    """In the Night, at 3 players (Psolos, Hivalia, Reces): Reces's army on Hivalia's collector
    (small-n), and the army of seat `army_by_reces` on Reces's collector (medium-e-1)."""
    return situation(game, 3, NIGHT + f"""
move collector_of(players[2]) to node("small-n").units
move army_of(players[3]) to node("small-n").units
move collector_of(players[3]) to node("medium-e-1").units
move army_of(players[{army_by_reces}]) to node("medium-e-1").units
call resolve_conflicts
""")


@rule("ET-CNF-6")
def test_the_first_involved_player_in_initiative_orders_several_conflicts(game):
    # the Night: Psolos (seat 1) first, Hivalia (seat 2) second, Reces (seat 3) fourth;
    # Reces's army on the Hivalia collector, Psolos's army on the Reces collector
    st = two_conflicts(game, army_by_reces=1)
    assert st.prompt == "Conflict to resolve first"
    assert sorted(st.labels()) == ["space 12", "space 5"]  # medium-e-1 and small-n
    assert st.current_player == 0
    # the same two conflicts, Psolos in neither: Hivalia, next in initiative, orders them
    st = two_conflicts(game, army_by_reces=2)
    assert st.prompt == "Conflict to resolve first"
    assert st.current_player == 1
    st.apply("space 12")  # medium-e-1
    # Hivalia's pillage comes first: its choice of a cube to steal from Reces
    assert st.prompt.startswith("Resource to steal from") and st.current_player == 1


@rule("ET-CNF-6", "ET-CNF-1", "ET-PPL-1")
def test_all_conflicts_are_resolved_before_the_action_ends(game):
    st = two_conflicts(game, army_by_reces=1)
    while st.pending is not None:
        st.apply(0)
    units = {key: [game.program.comp_card[c].id for c in st.zones.get(key, [])]
             for key in ("units#small-n", "units#medium-e-1")}
    # both collectors fled, the armies stayed
    assert units == {"units#small-n": ["army"], "units#medium-e-1": ["army"]}

    def base(seat):
        return sum(st.counters.get(f"{r}#{seat}", 0) for r in ("wood", "rock", "metal"))
    # Psolos stole 2 from Reces, Reces 3 (its pillage bonus) from Hivalia
    assert (base(0), base(1), base(2)) == (7 + 2, 6 - 3, 7 - 2 + 3)
