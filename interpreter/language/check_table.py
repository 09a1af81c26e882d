"""Checking a game's layout hints for the table in the browser (`table:` of a game file).

The hints only say where a zone is shown and how a board is drawn; the schema has
checked their shape already. What is checked here is what they name: each zone
must be one the game declares, each board one of its boards, and each attribute
a layout reads one that the board's nodes have. A hint naming nothing is an
error like any other (`file:line:col`, with a did-you-mean), since a table that
silently ignores a modder's hint is worse than one that says why.
"""
from __future__ import annotations

import re

from ..diagnostics import ContentError, Position
from ..names import did_you_mean
from .texts import parse_at

COLOUR = re.compile(r"^#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?$")  # (the same as the table's: web/layout.py)

# the attributes each board layout reads, and whether it needs them
LAYOUT_ATTRIBUTES = {"graph": (), "ring": (), "rows": (("row", True),),
                     "grid": (("x", True), ("y", True))}


def key_pos(mapping, key, fallback: Position) -> Position:
    return getattr(mapping, "key_pos", {}).get(key, getattr(mapping, "pos", fallback))


def check_table_hints(defn, error) -> None:
    """Report through `error(code, pos, message, hint)` what the hints of `defn.table` name that the game lacks."""
    hints = defn.table
    if not isinstance(hints, dict):
        return
    here = getattr(hints, "pos", defn.pos)
    zones = hints.get("zones")
    if isinstance(zones, dict):
        for name in zones:
            if name not in defn.zones:
                error("N001", key_pos(zones, name, here), f"table hints name unknown zone '{name}'",
                      did_you_mean(name, defn.zones))
    boards = hints.get("boards")
    if not isinstance(boards, dict):
        return
    by_id = {b.id: b for b in defn.boards}
    for board_id, hint in boards.items():
        board = by_id.get(board_id)
        if board is None:
            error("N020", key_pos(boards, board_id, here), f"table hints name unknown board '{board_id}'",
                  did_you_mean(board_id, by_id) or ("boards: " + ", ".join(sorted(by_id)) if by_id else
                                                    "the game has no board"))
            continue
        if not isinstance(hint, dict):
            continue
        _check_board_hint(board, hint, key_pos(boards, board_id, here), error)


def _check_board_hint(board, hint: dict, where: Position, error) -> None:
    """The attributes a board's layout reads are attributes of its nodes, and those it needs are given."""
    attributes = {k for attrs in board.nodes.values() for k in attrs if not k.startswith("_")}
    layout = hint.get("layout", "graph")
    for key, needed in LAYOUT_ATTRIBUTES.get(layout, ()):
        if needed and key not in hint:
            error("D004", where, f"table hints: board '{board.id}' drawn as '{layout}' needs '{key}', "
                         f"the node attribute giving each node's {'row' if key != 'x' else 'column'}",
                  "attributes of its nodes: " + ", ".join(sorted(attributes)))
    named = [(key, hint.get(key), hint) for key in ("row", "x", "y", "label", "colour")]
    named += [("details", d, hint) for d in hint.get("details", []) if isinstance(hint.get("details"), list)]
    kinds = {str(attrs.get("kind")) for attrs in board.nodes.values() if attrs.get("kind") is not None}
    if isinstance(hint.get("ring_kind"), str) and hint["ring_kind"] not in kinds:
        error("H001", key_pos(hint, "ring_kind", where), f"table hints: board '{board.id}' has no node of kind "
                                                  f"'{hint['ring_kind']}'", did_you_mean(hint["ring_kind"], kinds))
    by_kind = hint.get("kinds")
    if isinstance(by_kind, dict):
        for kind, drawn in by_kind.items():
            if kind not in kinds:
                error("H001", key_pos(by_kind, kind, where), f"table hints: board '{board.id}' has no node of kind '{kind}'",
                      did_you_mean(kind, kinds))
            elif isinstance(drawn, dict):
                named.append(("label", drawn.get("label"), drawn))
    places = hint.get("places")
    if isinstance(places, dict):
        for node in places:
            if node not in board.nodes:
                error("H001", key_pos(places, node, where), f"table hints: board '{board.id}' has no node '{node}'",
                      did_you_mean(node, board.nodes))
    colours = hint.get("colours")
    if isinstance(colours, dict):
        for value, colour in colours.items():
            if not isinstance(colour, str) or not COLOUR.match(colour):
                error("H001", key_pos(colours, value, where), f"table hints: board '{board.id}': colour {colour!r} of "
                                                       f"'{value}' is not a colour", "write it as '#rgb' or '#rrggbb'")
    for key, name, holder in named:
        if isinstance(name, str) and name not in attributes and name != "id":
            error("N003", key_pos(holder, key, where), f"table hints: board '{board.id}' names unknown attribute '{name}' "
                                                "of its nodes", did_you_mean(name, attributes))
    shown = hint.get("shown")
    if isinstance(shown, str):
        try:
            parse_at(shown, "condition", key_pos(hint, "shown", where))
        except ContentError as exc:
            error("H001", key_pos(hint, "shown", where), f"table hints: board '{board.id}': 'shown' is not a condition: "
                                                  f"{exc.message}", "a condition on the node n, such as n.side == 2")
