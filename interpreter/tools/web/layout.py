"""Where things go on the table in the browser, from the game's declarations and its hints.

Every zone gets an area from its scope: a zone of the game goes in the centre,
one of a player or team in each seat's area, one of a node on that node of its
board, one of a component inside that component. A game's `table:` hints may
move a zone to another area (`aside` among them) and order the zones of an area.

Boards are drawn from their nodes and links. Positions are computed here, once
per game, in the unit square, and are the same at every run: 'graph' places
nodes by their links (a fixed number of steps of a spring layout started from a
circle, so nothing random), 'ring' round a circle, 'rows' one row per value of a
node attribute, 'grid' at the column and row two attributes give.
"""
from __future__ import annotations

import math

from ..narrate import natural

AREAS = ("centre", "seat", "board", "holder", "aside")
_DEFAULT_AREA = {"game": "centre", "player": "seat", "team": "seat", "node": "board"}
MAX_GRAPH_NODES = 400  # a larger board is laid as a grid: the spring layout costs n² a step


class TableLayout:
    """The areas of a game's zones and the drawing of its boards, for one program."""

    def __init__(self, program):
        defn = program.defn
        hints = defn.table if isinstance(defn.table, dict) else {}
        zone_hints = hints.get("zones") if isinstance(hints.get("zones"), dict) else {}
        board_hints = hints.get("boards") if isinstance(hints.get("boards"), dict) else {}
        self.area: dict = {}
        self.order: dict = {}
        for i, (name, zdef) in enumerate(defn.zones.items()):
            hint = zone_hints.get(name) if isinstance(zone_hints.get(name), dict) else {}
            self.area[name] = _area(zdef, hint.get("area"))
            order = hint.get("order")
            self.order[name] = (order if isinstance(order, int) and not isinstance(order, bool) else 0, i)
        self.boards = [draw_board(b, board_hints.get(b.id) if isinstance(board_hints.get(b.id), dict) else {})
                       for b in defn.boards]

    def zone_sort_key(self, key_name: str):
        return self.order.get(key_name, (0, 1 << 30))


def _area(zdef, hinted) -> str:
    scope = zdef.scope[0] if zdef.scope else "game"
    default = _DEFAULT_AREA.get(scope, "holder")
    if hinted not in AREAS:
        return default
    if hinted == "board" and scope != "node" or hinted == "holder" and default != "holder":
        return default  # a zone is on a node, or inside a component, only when it belongs to one
    return hinted


def _label_attribute(board, hint: dict) -> str | None:
    label = hint.get("label")
    if isinstance(label, str):
        return label
    return "name" if any("name" in attrs for attrs in board.nodes.values()) else None


def draw_board(board, hint: dict) -> dict:
    """{id, title, nodes: [{id, label, x, y, attributes}], edges: [[a, b]]}: a board ready to draw."""
    ids = list(board.nodes)
    layout = hint.get("layout", "graph")
    if layout == "ring" or (layout == "graph" and not board.edges):
        at = _ring(ids)
    elif layout == "rows" and isinstance(hint.get("row"), str):
        at = _rows(board, ids, hint["row"], bool(hint.get("bottom_up")))
    elif layout == "grid" and isinstance(hint.get("x"), str) and isinstance(hint.get("y"), str):
        at = _grid(board, ids, hint["x"], hint["y"], bool(hint.get("bottom_up")))
    elif len(ids) > MAX_GRAPH_NODES:
        side = math.ceil(math.sqrt(len(ids)))
        at = {n: ((i % side + 0.5) / side, (i // side + 0.5) / side) for i, n in enumerate(ids)}
    else:
        at = _springs(ids, [(a, b) for a, b in board.edges if a in board.nodes and b in board.nodes])
    label = _label_attribute(board, hint)
    nodes = []
    for n in ids:
        attrs = {k: v for k, v in board.nodes[n].items() if not k.startswith("_") and k != "board"}
        text = n if label in (None, "id") else str(attrs.get(label, n))
        x, y = at[n]
        nodes.append({"id": n, "label": text, "x": round(x, 4), "y": round(y, 4), "attributes": attrs})
    title = getattr(board, "title", None) or board.id
    return {"id": board.id, "title": str(title), "nodes": nodes,
            "edges": [[a, b] for a, b in board.edges if a in board.nodes and b in board.nodes]}


def _ring(ids: list) -> dict:
    if len(ids) == 1:
        return {ids[0]: (0.5, 0.5)}
    return {n: (0.5 + 0.45 * math.cos(2 * math.pi * i / len(ids) - math.pi / 2),
                0.5 + 0.45 * math.sin(2 * math.pi * i / len(ids) - math.pi / 2)) for i, n in enumerate(ids)}


def _value_key(v):
    return (0, float(v), "") if isinstance(v, (int, float)) and not isinstance(v, bool) else (1, 0.0, natural(str(v)))


def _rows(board, ids: list, attribute: str, bottom_up: bool) -> dict:
    rows: dict = {}
    for n in ids:
        rows.setdefault(board.nodes[n].get(attribute), []).append(n)
    ordered = sorted(rows, key=_value_key)
    if bottom_up:
        ordered.reverse()
    widest = max(len(r) for r in rows.values())
    at = {}
    for j, value in enumerate(ordered):
        row = rows[value]
        start = (widest - len(row)) / 2  # rows centred: each sits between the nodes of the row below it
        for i, n in enumerate(row):
            at[n] = ((start + i + 0.5) / widest, (j + 0.5) / len(ordered))
    return at


def _grid(board, ids: list, xa: str, ya: str, bottom_up: bool) -> dict:
    xs = sorted({board.nodes[n].get(xa) for n in ids}, key=_value_key)
    ys = sorted({board.nodes[n].get(ya) for n in ids}, key=_value_key)
    if bottom_up:
        ys.reverse()
    col = {v: i for i, v in enumerate(xs)}
    row = {v: i for i, v in enumerate(ys)}
    return {n: ((col[board.nodes[n].get(xa)] + 0.5) / len(xs), (row[board.nodes[n].get(ya)] + 0.5) / len(ys))
            for n in ids}


def _springs(ids: list, edges: list) -> dict:
    """A spring layout (Fruchterman and Reingold), started from a circle and run a fixed
    number of steps with a cooling temperature: the same positions at every run."""
    n = len(ids)
    if n <= 2:
        return _ring(ids)
    index = {v: i for i, v in enumerate(ids)}
    pos = [list(p) for p in (_ring(ids)[v] for v in ids)]
    links = [(index[a], index[b]) for a, b in edges if a != b]
    k = math.sqrt(1.0 / n)
    steps = max(50, min(300, 60000 // (n * n) + 50))
    temperature = 0.1
    for _ in range(steps):
        move = [[0.0, 0.0] for _ in range(n)]
        for i in range(n):
            xi, yi = pos[i]
            for j in range(i + 1, n):
                dx, dy = xi - pos[j][0], yi - pos[j][1]
                d2 = dx * dx + dy * dy or 1e-9
                f = k * k / d2  # repulsion k²/d, along the unit vector (dx, dy)/d
                move[i][0] += dx * f
                move[i][1] += dy * f
                move[j][0] -= dx * f
                move[j][1] -= dy * f
        for i, j in links:
            dx, dy = pos[i][0] - pos[j][0], pos[i][1] - pos[j][1]
            d = math.sqrt(dx * dx + dy * dy) or 1e-9
            f = d / k  # attraction d²/k, along the unit vector
            move[i][0] -= dx * f
            move[i][1] -= dy * f
            move[j][0] += dx * f
            move[j][1] += dy * f
        for i in range(n):
            mx, my = move[i]
            d = math.sqrt(mx * mx + my * my) or 1e-9
            step = min(d, temperature)
            pos[i][0] += mx / d * step
            pos[i][1] += my / d * step
        temperature = max(0.002, temperature * 0.97)
    xs = [p[0] for p in pos]
    ys = [p[1] for p in pos]
    w = (max(xs) - min(xs)) or 1.0
    h = (max(ys) - min(ys)) or 1.0
    return {v: (0.05 + 0.9 * (pos[index[v]][0] - min(xs)) / w, 0.05 + 0.9 * (pos[index[v]][1] - min(ys)) / h)
            for v in ids}
