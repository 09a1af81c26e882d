"""Checking a game's layout hints for the table in the browser (`table:` of a game file).

The hints only say where a zone is shown and how a board is drawn; the schema has
checked their shape already. What is checked here is what they name: each zone
must be one the game declares, each board one of its boards, and each attribute
a layout reads one that the board's nodes have. A hint naming nothing is an
error like any other (`file:line:col`, with a did-you-mean), since a table that
silently ignores a modder's hint is worse than one that says why.
"""
from __future__ import annotations

from ..diagnostics import Position
from ..names import did_you_mean

# the attributes each board layout reads, and whether it needs them
LAYOUT_ATTRIBUTES = {"graph": (), "ring": (), "rows": (("row", True),),
                     "grid": (("x", True), ("y", True))}


def _key_pos(mapping, key, fallback: Position) -> Position:
    return getattr(mapping, "key_pos", {}).get(key, getattr(mapping, "pos", fallback))


def check_table_hints(defn, error) -> None:
    """Report through `error(pos, message, hint)` what the hints of `defn.table` name that the game lacks."""
    hints = defn.table
    if not isinstance(hints, dict):
        return
    here = getattr(hints, "pos", defn.pos)
    zones = hints.get("zones")
    if isinstance(zones, dict):
        for name in zones:
            if name not in defn.zones:
                error(_key_pos(zones, name, here), f"table hints name unknown zone '{name}'",
                      did_you_mean(name, defn.zones))
    boards = hints.get("boards")
    if not isinstance(boards, dict):
        return
    by_id = {b.id: b for b in defn.boards}
    for board_id, hint in boards.items():
        board = by_id.get(board_id)
        if board is None:
            error(_key_pos(boards, board_id, here), f"table hints name unknown board '{board_id}'",
                  did_you_mean(board_id, by_id) or ("boards: " + ", ".join(sorted(by_id)) if by_id else
                                                    "the game has no board"))
            continue
        if not isinstance(hint, dict):
            continue
        _check_board_hint(board, hint, _key_pos(boards, board_id, here), error)


def _check_board_hint(board, hint: dict, where: Position, error) -> None:
    """The attributes a board's layout reads are attributes of its nodes, and those it needs are given."""
    attributes = {k for attrs in board.nodes.values() for k in attrs if not k.startswith("_")}
    layout = hint.get("layout", "graph")
    for key, needed in LAYOUT_ATTRIBUTES.get(layout, ()):
        if needed and key not in hint:
            error(where, f"table hints: board '{board.id}' drawn as '{layout}' needs '{key}', "
                         f"the node attribute giving each node's {'row' if key != 'x' else 'column'}",
                  "attributes of its nodes: " + ", ".join(sorted(attributes)))
    for key in ("row", "x", "y", "label"):
        name = hint.get(key)
        if isinstance(name, str) and name not in attributes and name != "id":
            error(_key_pos(hint, key, where), f"table hints: board '{board.id}' names unknown attribute '{name}' "
                                              "of its nodes", did_you_mean(name, attributes))
