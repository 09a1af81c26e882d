"""Etherium's experienced board (option layout=experienced): boards built by
players choosing at random, checked whole once the placement phase is over.
A rules test follows one placement; these check what every placement must
give: all the pieces laid, one board in one piece, the stacking of the
rulebook, each player's figures in front of their city.

Each test names the rule IDs of ../shared/rules/etherium.md it checks.
"""
from __future__ import annotations

import random

import pytest

import interpreter
from interpreter.compile.context import Ctx
from interpreter.engine.code import Code
from interpreter.engine.state import Frame
from interpreter.language.parser import parse

rule = pytest.mark.rule


@pytest.fixture(scope="module")
def game():
    return interpreter.load("etherium")


@pytest.fixture(scope="module")
def game6():
    return interpreter.load("etherium", expansions=("mauhea-meinas",))


def holds(game, st, text: str):
    """The value of a rules-language expression in state `st`."""
    fn = game.program.compiler.expr(parse(text, "condition"), Ctx(Code("check", "then"), locals_=set()))
    return fn(st, Frame(None, 0, {}, None, None))


def built(game, players: int, seed: int):
    """A state just after setup, every choice of the placement made at random."""
    st = game.new_state(players, seed=seed, options={"layout": "experienced"})
    rng = random.Random(seed)
    while st.prompt.startswith(("People to play", "Terrain to lay", "Where to lay")):
        st.apply(rng.choice(st.legal_actions()))
    return st


def connected(game, st) -> bool:
    """Whether every node of the built board is reached from the centre through the links units use."""
    todo, seen = ["centre"], {"centre"}
    while todo:
        here = todo.pop()
        for m in holds(game, st, f'[m.id for each m in adjacent(node("{here}"))]'):
            if m not in seen:
                seen.add(m)
                todo.append(m)
    return seen == set(holds(game, st, "[n.id for each n in board()]"))


CHECKS = [
    # every piece laid once, in turn, the Ether terrain first, by the rules
    "count(terrain_box) == 0 and [c.laid_no for each c in laid_pieces()] == range(count(laid_pieces()))",
    "first(laid_pieces()) == card(\"ether-terrain\") and first(laid_pieces()).laid_by == 0",
    "all(c.laid_by > 0 for each c in laid_pieces() where c != card(\"ether-terrain\"))",
    # the Ether terrain rests on medium terrains only, above them
    "all(count(each m in adjacent(node(\"centre\")) where piece_at(m).piece_shape == \"medium\") == count(adjacent(node(\"centre\"))) and height_of(m) < height_of(node(\"centre\")) for each m in adjacent(node(\"centre\")))",
    # a small terrain lies on a medium one: above a space of it, linked to it
    "all(any(piece_at(m).piece_shape == \"medium\" and height_of(m) < height_of(n) for each m in adjacent(n)) for each n in board() where piece_at(n).piece_shape == \"small\")",
    # a city has a large terrain in front of it, above it; it is entered from there only
    "all(piece_at(node(c.front)).piece_shape == \"large\" and height_of(node(c.front)) > height_of(c) and adjacent(c) == [node(c.front)] for each c in board() where kind_of(c) == \"city\")",
    # a large terrain rests on a medium terrain too
    "all(any(piece_at(m).piece_shape == \"medium\" for each m in adjacent(n)) for each n in board() where piece_at(n).piece_shape == \"large\" and n.part == 2)",
    # each player's figures start in front of the city of their people
    "all(home_moon(city_of(p)) == people(p).moon and holder(army_of(p)) == node(city_of(p).front) and holder(collector_of(p)) == node(city_of(p).front) for each p in players)",
    # the sockets of the first-game board take no part
    "not any(on_board(n) for each n in nodes() where n.kind != \"socket\")",
]


def assert_whole(game, st, nodes: int, cities: int) -> None:
    """A built board has every piece's spaces and cities, stacked and set up as CHECKS say, in one piece."""
    assert holds(game, st, "count(board())") == nodes
    assert holds(game, st, "count(each n in board() where kind_of(n) == \"city\")") == cities
    for text in CHECKS:
        assert holds(game, st, text) is True, text
    assert connected(game, st)

@rule("ET-SET-1", "ET-SET-3")
@pytest.mark.parametrize("players,seed", [(2, 1), (2, 2), (3, 3), (3, 4), (4, 5), (4, 6), (4, 7)])
def test_every_built_board_is_whole_and_stacked_as_the_rulebook_says(game, players, seed):
    assert_whole(game, built(game, players, seed), nodes=25, cities=4)


@rule("ET-SET-1")
@pytest.mark.parametrize("players,seed", [(5, 1), (6, 2)])
def test_every_built_board_with_six_cities_is_whole(game6, players, seed):
    assert_whole(game6, built(game6, players, seed), nodes=37, cities=6)


@rule("ET-SET-1")
def test_built_boards_differ_from_game_to_game(game):
    layouts = {tuple(holds(game, built(game, 4, seed), "[n.id for each n in board() where kind_of(n) == \"city\"]"))
               for seed in range(6)}
    assert len(layouts) > 1
