"""Where the table puts things: zone areas from scopes and hints, boards drawn from their links."""
from __future__ import annotations

import math

import interpreter
from interpreter.content.model import BoardDef
from interpreter.diagnostics import Position
from interpreter.tools.web.layout import TableLayout, draw_board


def test_zones_go_where_their_scope_says_unless_a_hint_moves_them():
    layout = TableLayout(interpreter.load("karman-swap").program)
    assert layout.area["market"] == "centre" and layout.area["hand"] == "seat"
    assert layout.area["pyramid_up"] == "board" and layout.area["surface"] == "holder"
    assert layout.area["planet_box"] == "aside"  # moved by the game's hint
    assert layout.zone_sort_key("space") < layout.zone_sort_key("market") < layout.zone_sort_key("deck")


def test_a_board_drawn_in_rows_stands_on_its_first_row():
    layout = TableLayout(interpreter.load("karman-swap").program)
    nodes = {n["id"]: n for n in layout.boards[0]["nodes"]}
    assert len({nodes[f"p{i}"]["y"] for i in range(1, 6)}) == 1  # the base, one row
    assert nodes["s1"]["y"] < nodes["r1"]["y"] < nodes["q1"]["y"] < nodes["p1"]["y"]  # bottom_up
    for i in range(1, 5):  # each card of a row sits between the two it covers
        assert nodes[f"p{i}"]["x"] < nodes[f"q{i}"]["x"] < nodes[f"p{i + 1}"]["x"]


def _board(n: int, edges) -> BoardDef:
    return BoardDef("b", {f"n{i}": {"kind": "spot", "name": f"spot {i}"} for i in range(n)}, edges, Position("b"), "b")


def test_a_graph_is_drawn_the_same_way_every_time_with_linked_nodes_close():
    edges = [(f"n{i}", f"n{i + 1}") for i in range(11)] + [("n0", "n6")]
    one, two = draw_board(_board(12, edges), {}), draw_board(_board(12, edges), {})
    assert one == two
    at = {n["id"]: (n["x"], n["y"]) for n in one["nodes"]}
    assert all(0 <= x <= 1 and 0 <= y <= 1 for x, y in at.values())
    linked = [math.dist(at[a], at[b]) for a, b in edges]
    pairs = [math.dist(at[f"n{i}"], at[f"n{j}"]) for i in range(12) for j in range(i + 1, 12)]
    assert sum(linked) / len(linked) < sum(pairs) / len(pairs)
    assert one["nodes"][3]["label"] == "spot 3"  # nodes are named by their 'name' when they have one


def test_a_grid_puts_each_node_at_its_column_and_row():
    board = BoardDef("g", {"a": {"c": 1, "r": 1}, "b": {"c": 2, "r": 1}, "d": {"c": 1, "r": 2}}, [],
                     Position("g"), "g")
    at = {n["id"]: (n["x"], n["y"]) for n in draw_board(board, {"layout": "grid", "x": "c", "y": "r"})["nodes"]}
    assert at["a"][1] == at["b"][1] < at["d"][1] and at["a"][0] == at["d"][0] < at["b"][0]
