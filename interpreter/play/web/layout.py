"""Where things go on the table in the browser, from the game's declarations and its hints.

Every zone gets an area from its scope: a zone of the game goes in the centre,
one of a player or team in each seat's area, one of a node on that node of its
board, one of a component inside that component. A game's `table:` hints may
move a zone to another area (`aside` among them) and order the zones of an area.

Boards are drawn from their nodes and links. Positions are computed here, in
the unit square, and are the same at every run: 'graph' places nodes by their
links (a fixed number of steps of a spring layout started from a circle, so
nothing random), 'ring' round a circle (with `ring_kind`, the nodes of one kind
round the circle in the order their links make, each other node between the two
it links), 'rows' one row per value of a node attribute, 'grid' at the column and
row two attributes give, 'places' where the hint puts each node.

A board's hints may also say which nodes are on the table (`shown`: a condition
of the rules language on the node `n`, read on the state, such as the side of a
board a player count plays), what each kind of node is labelled with and how it
is shaped (`kinds`), its colour by an attribute (`colour`, `colours`) and the
attributes written under its label (`details`). Nothing here knows a game: each
game says through its hints how its board looks.
"""
from __future__ import annotations

import math
import re
import threading

from ...compile.context import Ctx
from ...engine.code import Code, CodeKind
from ...engine.state import Frame
from ...engine.values import NodeRef
from ...language.parser import parse
from ...scopes import OwnerKind
from ...view.narrate import natural

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
        self.hints = {b.id: board_hints.get(b.id) if isinstance(board_hints.get(b.id), dict) else {}
                      for b in defn.boards}
        self._defs = {b.id: b for b in defn.boards}
        self._shown = {b.id: _shown_test(program, self.hints[b.id].get("shown")) for b in defn.boards}
        # whether a node may hold components (a zone of a node): each node's box then has room
        # for a row of them, as the table draws a card placed on it
        self._holds = any(z.scope.kind is OwnerKind.NODE for z in defn.zones.values())
        self._drawn: dict = {}
        self.boards = [self._draw(b.id, None) for b in defn.boards]

    def zone_sort_key(self, key_name: str):
        return self.order.get(key_name, (0, 1 << 30))

    def boards_of(self, st, told=None) -> list:
        """The boards as state `st` shows them: each with only the nodes its hint `shown` keeps
        (a board whose hint keeps no node is left out; a board without the hint, whole), their
        labels in the language of `told` (the game's `view.texts` in a language; None: as
        written), each node placed so that its box, as long as its label is, falls on no other."""
        out = []
        for b in self._defs.values():
            test = self._shown[b.id]
            if test is None:
                out.append(self._draw(b.id, None, told))
                continue
            kept = tuple(n for n in b.nodes if test(st, n))
            if kept:
                out.append(self._draw(b.id, kept, told))
        return out

    def _draw(self, board_id: str, kept, told=None):
        key = (board_id, kept, told.lang if told is not None else None)
        got = self._drawn.get(key)
        if got is None:
            if len(self._drawn) > 64:  # a bound: the sets of nodes a game shows are few
                self._drawn.clear()
            got = self._drawn[key] = draw_board(self._defs[board_id], self.hints[board_id], kept, told, self._holds)
        return got


_COMPILING = threading.Lock()  # the game's compiler is not to be entered by two tables at once
_HEX = re.compile(r"^#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?$")


def _shown_test(program, text):
    """A function (state, node id) -> whether the node is on the table, from hint `shown` (a
    condition on `n`); None without the hint, or when it does not compile (the board is then
    drawn whole: `regles check` reports the hint)."""
    if not isinstance(text, str) or not text.strip():
        return None
    code = Code("table:shown", CodeKind.TABLE)
    try:
        with _COMPILING:
            fn = program.compiler.expr(parse(text, "condition"), Ctx(code, locals_=["n"]))
    except Exception:  # noqa: BLE001 - a hint that does not compile draws the whole board
        return None

    def test(st, node: str) -> bool:
        fuel = st.fuel
        try:
            return bool(fn(st, Frame(code, 0, {"n": NodeRef(node)}, None, None)))
        except Exception:  # noqa: BLE001 - a node the condition cannot read is shown
            return True
        finally:
            st.fuel = fuel
    return test


def _area(zdef, hinted) -> str:
    kind = zdef.scope.kind
    default = _DEFAULT_AREA.get(kind, "holder")
    if hinted not in AREAS:
        return default
    if hinted == "board" and kind is not OwnerKind.NODE or hinted == "holder" and default != "holder":
        return default  # a zone is on a node, or inside a component, only when it belongs to one
    return hinted


def _label_attribute(board, hint: dict) -> str | None:
    label = hint.get("label")
    if isinstance(label, str):
        return label
    return "name" if any("name" in attrs for attrs in board.nodes.values()) else None


def draw_board(board, hint: dict, kept=None, told=None, holds: bool = False) -> dict:
    """{id, title, nodes: [{id, label, x, y, attributes, ...}], edges: [[a, b]]}: a board ready
    to draw, with the nodes `kept` only (None: every node), and the links between them; each
    label and the details under it in the language of `told` (the game's `view.texts` in the
    table's language; None: as written), and each node's box sized by its label (with a row
    for components when nodes may hold some: `holds`)."""
    places = told.places if told is not None else None
    ids = list(board.nodes) if kept is None else [n for n in board.nodes if n in set(kept)]
    label = _label_attribute(board, hint)
    kinds = hint.get("kinds") if isinstance(hint.get("kinds"), dict) else {}
    texts, sizes, hinted = {}, {}, {}  # each node's label, size and kind's hint
    for n in ids:
        attrs = board.nodes[n]
        kind = hinted[n] = kinds.get(attrs.get("kind")) if isinstance(kinds.get(attrs.get("kind")), dict) else {}
        named = kind.get("label") if isinstance(kind.get("label"), str) else label
        text = n if named in (None, "id") else str(attrs.get(named, n))
        texts[n] = places.get(text, text) if places else text
        sizes[n] = kind.get("size") if kind.get("size") in ("small", "large") else None
    boxes = {n: node_box(texts[n], sizes[n], len(ids), holds) for n in ids}
    edges = [(a, b) for a, b in board.edges if a in board.nodes and b in board.nodes]
    if kept is not None:
        keep = set(ids)
        edges = [(a, b) for a, b in edges if a in keep and b in keep]
    layout = hint.get("layout", "graph")
    fixed: set = set()  # the nodes the table keeps where they are when it pushes boxes apart
    if not ids:
        at = {}
    elif layout == "places" and isinstance(hint.get("places"), dict):
        at = _places(ids, hint["places"], edges)
    elif layout == "ring" and isinstance(hint.get("ring_kind"), str):
        at, ring = _ring_of(board, ids, edges, hint["ring_kind"], boxes)
        fixed = set(ring)
    elif layout == "ring" or (layout == "graph" and not edges):
        at = _ring(ids)
    elif layout == "rows" and isinstance(hint.get("row"), str):
        at = _rows(board, ids, hint["row"], bool(hint.get("bottom_up")))
    elif layout == "grid" and isinstance(hint.get("x"), str) and isinstance(hint.get("y"), str):
        at = _grid(board, ids, hint["x"], hint["y"], bool(hint.get("bottom_up")))
    elif len(ids) > MAX_GRAPH_NODES:
        side = math.ceil(math.sqrt(len(ids)))
        at = {n: ((i % side + 0.5) / side, (i // side + 0.5) / side) for i, n in enumerate(ids)}
    else:
        at = _springs(ids, edges)
    colour_by = hint.get("colour") if isinstance(hint.get("colour"), str) else None
    colours = hint.get("colours") if isinstance(hint.get("colours"), dict) else {}
    details = [d for d in hint.get("details", []) if isinstance(d, str)] if isinstance(hint.get("details"), list) else []
    nodes = []
    for n in ids:
        attrs = {k: v for k, v in board.nodes[n].items() if not k.startswith("_") and k != "board"}
        kind = hinted[n]
        x, y = at[n]
        entry = {"id": n, "label": texts[n], "x": round(x, 4), "y": round(y, 4), "attributes": attrs}
        if kind.get("shape") in ("round", "box"):
            entry["shape"] = kind["shape"]
        if sizes[n] is not None:
            entry["size"] = sizes[n]
        if n in fixed:
            entry["fixed"] = True
        colour = colours.get(str(attrs.get(colour_by))) if colour_by is not None else None
        if isinstance(colour, str) and _HEX.match(colour):
            entry["colour"] = colour
        shown = [told.fact(d, attrs[d]) if told is not None else _detail(d, attrs[d])
                 for d in details if attrs.get(d) not in (None, "")]
        if shown:
            entry["details"] = shown
        nodes.append(entry)
    title = board.title_in(told.lang if told is not None else "en")
    return {"id": board.id, "title": title, "nodes": nodes, "edges": [[a, b] for a, b in edges]}


def _detail(name: str, value) -> str:
    """An attribute written under a node's label: a number with its name ('level 2'), a
    word as it is."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{name.replace('_', ' ')} {value}"
    return str(value)


def _places(ids: list, places: dict, edges: list) -> dict:
    """The nodes where the hint puts them ([x, y], any unit, y down), scaled into the unit
    square; a node the hint does not place goes beside its linked nodes, or on a ring."""
    given = {}
    for n in ids:
        p = places.get(n)
        if isinstance(p, list) and len(p) == 2 and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                                       for v in p):
            given[n] = (float(p[0]), float(p[1]))
    if not given:
        return _ring(ids)
    xs = [p[0] for p in given.values()]
    ys = [p[1] for p in given.values()]
    span = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
    w, h = (max(xs) - min(xs)) / span, (max(ys) - min(ys)) / span
    at = {n: (0.5 + 0.9 * ((x - min(xs)) / span - w / 2), 0.5 + 0.9 * ((y - min(ys)) / span - h / 2))
          for n, (x, y) in given.items()}
    rest = [n for n in ids if n not in at]
    for i, n in enumerate(rest):
        near = [at[b if a == n else a] for a, b in edges if n in (a, b) and (b if a == n else a) in at]
        if near:
            at[n] = (sum(p[0] for p in near) / len(near), sum(p[1] for p in near) / len(near))
        else:
            at[n] = ((i + 0.5) / len(rest), 0.98)
    return at


def _ring_of(board, ids: list, edges: list, kind: str, boxes: dict) -> tuple:
    """(places, the ring's nodes): the nodes of kind `kind` round a circle, in the order of a
    cycle their links through the other nodes make (found by a bounded search; the board's
    order when there is none), each other node halfway between the ring nodes it links (on the
    circle when they are neighbours there): a board of rooms and the doors between them, drawn
    without crossings. Fewer than three of that kind make no ring: every node round the circle."""
    ring = [n for n in ids if board.nodes[n].get("kind") == kind]
    if len(ring) < 3:
        return _ring(ids), []
    near: dict = {n: [] for n in ids}
    for a, b in edges:
        near[a].append(b)
        near[b].append(a)
    on_ring = set(ring)
    through: dict = {n: [] for n in ring}  # ring node -> the ring nodes one other node away
    for m in ids:
        if m in on_ring:
            continue
        ends = [e for e in near[m] if e in on_ring]
        for a in ends:
            through[a].extend(b for b in ends if b != a and b not in through[a])
    for a in ring:
        through[a].extend(b for b in near[a] if b in on_ring and b not in through[a])
    order = _cycle(ring, through) or ring
    angle = {n: 2 * math.pi * i / len(order) - math.pi / 2 for i, n in enumerate(order)}
    at = {n: (0.5 + 0.45 * math.cos(angle[n]), 0.5 + 0.45 * math.sin(angle[n])) for n in order}
    index = {n: i for i, n in enumerate(order)}
    rest = [n for n in ids if n not in on_ring]
    for n in rest:
        ends = [e for e in near[n] if e in on_ring]
        if len(ends) == 2 and abs(index[ends[0]] - index[ends[1]]) in (1, len(order) - 1):
            a, b = ends  # neighbours on the ring: between them, a little inside the circle
            da = (angle[b] - angle[a] + math.pi) % (2 * math.pi) - math.pi
            mid = angle[a] + da / 2
            at[n] = (0.5 + 0.33 * math.cos(mid), 0.5 + 0.33 * math.sin(mid))
        elif ends:
            at[n] = (sum(at[e][0] for e in ends) / len(ends), sum(at[e][1] for e in ends) / len(ends))
    placed = [n for n in rest if n not in at]
    for i, n in enumerate(placed):
        at[n] = (0.5 + 0.2 * math.cos(2 * math.pi * i / len(placed)), 0.5 + 0.2 * math.sin(2 * math.pi * i / len(placed)))
    _separate(at, [n for n in rest if n in at], order, boxes)
    return at, order


# A node's box as the table draws it (style.css, `.node`; common.js sets a board's height), in
# pixels: the font of its label by the node's size, in rem, and its padding across and down; the
# label wraps at 9rem. A character is taken as 0.6 of its font wide, a line 1.25 of it high.
REM = 16
_FONT = {"small": 0.65, None: 0.7, "large": 1.05}
_PADDING = {"small": (0.25, 0.05), None: (0.3, 0.15), "large": (0.45, 0.2)}
_MIN_WIDTH = {"small": 2.5, None: 3.5, "large": 3.0}
MAX_LABEL = 9 * REM
ROW = 1.6 * REM  # a component on a node (`.comp`, one line)
BOARD_WIDTH = 760  # a board on a laptop's screen beside the card panel: narrower ones crowd more
GAP = 4  # pixels kept between two boxes
SEPARATE_ROUNDS = 400


def board_height(nodes: int) -> float:
    """The height in pixels the table gives a board of `nodes` nodes (common.js, `board`)."""
    return max(300.0, min(1000.0, 150 * math.sqrt(nodes)))


def node_box(label: str, size, nodes: int, holds: bool) -> tuple:
    """(width, height) of a node's box labelled `label` in the unit square of a board of
    `nodes` nodes: its label wrapped word by word at the largest width, plus a row for a
    component when the node may hold some."""
    font = _FONT[size] * REM
    per_line = max(1, int(MAX_LABEL // (0.6 * font)))
    lines, line = 1, 0
    for word in label.split():
        if line and line + 1 + len(word) > per_line:
            lines, line = lines + 1, len(word)
        else:
            line += len(word) + (1 if line else 0)
    wide = min(MAX_LABEL, 0.6 * font * len(label)) if lines == 1 else MAX_LABEL  # a wrapped label fills the width
    across, down = _PADDING[size]
    width = max(_MIN_WIDTH[size] * REM, wide) + 2 * across * REM + 2 + GAP
    height = lines * 1.25 * font + 2 * down * REM + 2 + GAP + (ROW if holds else 0)
    return width / BOARD_WIDTH, height / board_height(nodes)


def _separate(at: dict, movable: list, fixed: list, boxes: dict) -> None:
    """Push apart the nodes of `movable` whose boxes (`boxes`: node -> width and height)
    overlap one another or a node of `fixed`, each time along the axis where they overlap
    least, until none overlaps or the rounds run out: midpoints of chords that cross near the
    centre of a ring fall on one another. A node moves only as far as it must, so it stays near
    the nodes it links. The same small steps in the same order: the same drawing at every run."""
    moving = set(movable)
    for _ in range(SEPARATE_ROUNDS):
        moved = False
        for i, n in enumerate(movable):
            nw, nh = boxes[n]
            for m in movable[i + 1:] + fixed:
                (x, y), (mx, my) = at[n], at[m]
                w, h = (nw + boxes[m][0]) / 2, (nh + boxes[m][1]) / 2
                dx, dy = x - mx, y - my
                ox, oy = w - abs(dx), h - abs(dy)
                if ox <= 1e-9 or oy <= 1e-9:
                    continue
                share = 0.5 if m in moving else 1.0  # a fixed node does not give way
                if ox / w < oy / h:
                    step = ox * (1 if dx > 0 or dx == 0 and n < m else -1)
                    at[n] = (x + step * share, y)
                    if m in moving:
                        at[m] = (mx - step * share, my)
                else:
                    step = oy * (1 if dy > 0 or dy == 0 and n < m else -1)
                    at[n] = (x, y + step * share)
                    if m in moving:
                        at[m] = (mx, my - step * share)
                moved = True
        if not moved:
            break
    for n in movable:
        at[n] = (min(0.97, max(0.03, at[n][0])), min(0.97, max(0.03, at[n][1])))


def _cycle(ring: list, through: dict, budget: int = 20000):
    """An order of `ring` in which each node is linked (in `through`) to the next and the last
    to the first, by a depth-first search of at most `budget` steps; None when none is found."""
    start = ring[0]
    path, seen = [start], {start}
    choices = [iter(through[start])]
    steps = 0
    while choices and steps < budget:
        steps += 1
        nxt = next(choices[-1], None)
        if nxt is None:
            choices.pop()
            seen.discard(path.pop())
            continue
        if nxt in seen:
            continue
        path.append(nxt)
        seen.add(nxt)
        if len(path) == len(ring):
            if start in through[nxt]:
                return path
            seen.discard(path.pop())
            continue
        choices.append(iter(through[nxt]))
    return None


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
