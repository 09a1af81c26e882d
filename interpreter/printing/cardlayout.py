"""A card face laid out as shapes: boxes, discs and lines of text, in points from its top left.

`lay_out(face, measure)` places what a `faces.Face` shows on a card of the
standard size (63 x 88 mm): the band, the title, the line of kinds, its
picture (when its kind's `art:` hint gives it one), the figures in discs (or, when there are many, in a table), the abilities, and a
footer with the card's id; its symbols in the band's corner. Every text is
fitted to its place: wrapped at spaces (a word longer than the line at its
letters), its size lowered step by step down to `MIN_PT` (7 pt: nothing printed
is smaller), and at that size cut with an ellipsis, so that no text, however
long, leaves its place; what was cut is told (`clipped`).
`lay_out_tile` draws a piece that is not a card (a terrain tile, a token): one
or more cells, hexes, squares or a disc, from the component kind's `print:` hint.
`measure(text, bold)` is the width of `text` at size 1 in the font the shapes
will be drawn with; the PDF and the SVG draw the same shapes.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..content.colours import luminance
from ..view.lines import GLUE, glued

MM = 72 / 25.4
CARD_W, CARD_H = 63 * MM, 88 * MM
PAD = 3 * MM  # the margin inside the cut line
BAND_H = 5.5 * MM
ELLIPSIS = "\u2026"
MIN_PT = 7.0  # no text is printed smaller
SYMBOLS = ("circle", "square", "diamond", "triangle", "star", "hexagon", "bolt", "sun", "moon", "drop", "cross")
INK, GREY, RULE = "#1a1a1a", "#555555", "#c8c8c8"


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float
    fill: str | None
    stroke: str | None = None
    width: float = 0.5
    radius: float = 0.0


@dataclass(frozen=True)
class Disc:
    cx: float
    cy: float
    r: float
    fill: str | None
    stroke: str | None = None
    width: float = 0.8


@dataclass(frozen=True)
class Text:
    """A line of text: `runs` of (text, bold) from `x` (or centred on it), `y` its baseline."""
    x: float
    y: float
    runs: tuple
    size: float
    fill: str = INK
    anchor: str = "start"  # or "middle", "end"


@dataclass(frozen=True)
class Poly:
    """A closed polygon through `points` ((x, y), ...)."""
    points: tuple
    fill: str | None
    stroke: str | None = None
    width: float = 0.6


@dataclass(frozen=True)
class Picture:
    """A picture file fitted in the box (x, y, w, h), its proportions kept, centred."""
    x: float
    y: float
    w: float
    h: float
    path: str


ART_H = 26 * MM  # the height of a card's picture on a card of the standard size (in proportion on others)
SIZES_MM = (25.0, 150.0)  # the least and the most width or height of a card, in millimetres


def size_of(face) -> tuple:
    """(width, height) in points of a face: its kind's `size:` hint, else the standard 63 x 88 mm."""
    return getattr(face, "width", None) or CARD_W, getattr(face, "height", None) or CARD_H


class Fitter:
    """Wraps and fits texts, given the width of a text at size 1."""

    def __init__(self, measure):
        self.measure = measure
        self.widths: dict = {}
        self.was_cut = False  # whether the last `fit` cut its text

    def width(self, text: str, bold: bool, size: float) -> float:
        key = (text, bold)
        if key not in self.widths:
            self.widths[key] = self.measure(text, bold)
        return self.widths[key] * size

    def runs_width(self, runs, size: float) -> float:
        return sum(self.width(t, b, size) for t, b in runs)

    @staticmethod
    def tokens(runs) -> list:
        """The words of `runs`, each a tuple of (text, bold): a word may change font inside."""
        out, word = [], []
        for text, bold in runs:
            # never a break between a number and what it counts, nor before French punctuation
            for i, part in enumerate(glued(text).split(" ")):
                if i and word:
                    out.append(tuple(word))
                    word = []
                if part:
                    word.append((part, bold))
        if word:
            out.append(tuple(word))
        return out

    def pieces(self, word, width: float, size: float) -> list:
        """A word as pieces that each fit `width`, cut between letters when it is too long."""
        if self.runs_width(word, size) <= width:
            return [word]
        out, piece, used = [], [], 0.0
        for text, bold in word:
            for ch in text:
                w = self.width(ch, bold, size)
                if piece and used + w > width:
                    out.append(_merged(piece))
                    piece, used = [], 0.0
                piece.append((ch, bold))
                used += w
        if piece:
            out.append(_merged(piece))
        return out

    def wrap(self, runs, width: float, size: float) -> list:
        """The lines of `runs` at `size` within `width`, each a tuple of runs."""
        space = self.width(" ", False, size)
        lines, line, used = [], [], 0.0
        for word in self.tokens(runs):
            for piece in self.pieces(word, width, size):
                w = self.runs_width(piece, size)
                if line and used + space + w > width:
                    lines.append(line)
                    line, used = [], 0.0
                used += (space if line else 0.0) + w
                line.append(piece)
        if line:
            lines.append(line)
        return [_joined(words) for words in lines]

    def cut(self, line, width: float, size: float) -> tuple:
        """`line` ending with an ellipsis, shortened to fit `width`."""
        runs = list(line)
        while True:
            ended = tuple(runs) + ((ELLIPSIS, runs[-1][1] if runs else False),)
            if not runs or self.runs_width(ended, size) <= width:
                return _merged(ended)
            text, bold = runs[-1]
            runs[-1] = (text[:-1].rstrip(), bold)
            if not runs[-1][0]:
                runs.pop()

    def fit(self, paragraphs, width: float, height: float, big: float, small: float,
            leading: float = 1.2, gap: float = 0.0, max_lines: int | None = None) -> tuple:
        """(size, lines) of `paragraphs` (lists of runs) fitted to width x height: the largest
        size from `big` down to `small` by quarter points where all fits and no word is cut
        between its letters; else at `small`, the
        lines that fit, the last one ending with an ellipsis. A line is (runs, its top offset)."""
        size = big
        words = [w for runs in paragraphs for w in self.tokens(runs)]
        while True:
            placed, bottom = self.placed(paragraphs, width, size, leading, gap)
            whole = all(self.runs_width(w, size) <= width for w in words)  # no word cut between letters
            if (bottom <= height and (max_lines is None or len(placed) <= max_lines) and whole) or size <= small:
                break
            size = max(small, size - 0.25)
        allowed = [p for p in placed if p[1] + size * leading <= height + 0.01]
        if max_lines is not None:
            allowed = allowed[:max_lines]
        self.was_cut = len(allowed) < len(placed)
        if self.was_cut:
            if not allowed:
                return size, []
            last, top = allowed[-1]
            allowed[-1] = (self.cut(last, width, size), top)
        return size, allowed

    def placed(self, paragraphs, width, size, leading, gap) -> tuple:
        out, y = [], 0.0
        for i, runs in enumerate(paragraphs):
            if i:
                y += gap * size
            for line in self.wrap(runs, width, size):
                out.append((line, y))
                y += size * leading
        return out, y


def _merged(runs) -> tuple:
    """Runs with the neighbours in the same font joined."""
    out = []
    for text, bold in runs:
        if out and out[-1][1] == bold:
            out[-1] = (out[-1][0] + text, bold)
        elif text:
            out.append((text, bold))
    return tuple(out)


def _joined(words) -> tuple:
    runs = []
    for i, word in enumerate(words):
        if i:
            runs.append((" ", word[0][1]))
        runs.extend((text.replace(GLUE, " "), bold) for text, bold in word)  # the spaces kept whole: plain ones
    return _merged(runs)


def frame_colour(colour: str) -> str:
    """The band's colour, or grey when it is too light to see on white."""
    return colour if luminance(colour) < 0.85 else "#9e9e9e"


def lay_out(face, measure, clipped: list | None = None) -> list:
    """The shapes of one card face, in points from the card's top left corner; what had to be
    cut to fit at `MIN_PT` is added to `clipped` ('its text', 'its title'...)."""
    fit = Fitter(measure)
    cut = clipped if clipped is not None else []
    frame = frame_colour(face.colour)
    W, H = size_of(face)
    inner = W - 2 * PAD
    shapes = [Box(0, 0, W, H, "#ffffff", RULE, 0.3),
              Box(PAD / 2, PAD / 2, W - PAD, H - PAD, None, frame, 1.2, 2 * MM),
              Box(PAD, PAD, inner, BAND_H, face.colour, frame, 0.5, 1 * MM)]
    on_band = INK if luminance(face.colour) > 0.55 else "#ffffff"
    marks = getattr(face, "symbols", ())
    room = BAND_H * 1.15 * len(marks)
    for k, (kind, colour) in enumerate(marks):  # the symbols at the band's right end
        r = BAND_H * 0.42
        cx = PAD + inner - 1.2 * MM - r - k * BAND_H * 1.15
        shapes.append(Disc(cx, PAD + BAND_H / 2, r + 0.9, "#ffffff", None))
        shapes.extend(symbol(kind, cx, PAD + BAND_H / 2, r * 0.82, colour))
    size, lines = fit.fit([[(face.band, True)]], inner - 4 * MM - room, BAND_H, 8.5, MIN_PT, max_lines=1)
    if lines:
        shapes.append(Text(PAD + 2 * MM, PAD + BAND_H / 2 + size * 0.36, lines[0][0], size, on_band))
    y = PAD + BAND_H + 1.5 * MM
    size, lines = fit.fit([[(face.title, True)]], inner, 2 * 11 * 1.15, 11, MIN_PT, leading=1.15, max_lines=2)
    _told(cut, "its title", fit)
    for runs, top in lines:
        shapes.append(Text(W / 2, y + top + size, runs, size, INK, "middle"))
    y += max(1, len(lines)) * size * 1.15 + 1 * MM
    if face.kinds:  # the words on a line, each attribute written after its name on its own
        words = [k for k in face.kinds if not _named(k)]
        paragraphs = ([[(" \u00b7 ".join(words), False)]] if words else []) + \
            [[(k, False)] for k in face.kinds if _named(k)]
        size, lines = fit.fit(paragraphs, inner, 4 * 7.5 * 1.15, 7.5, MIN_PT, leading=1.15, max_lines=4)
        _told(cut, "its line of kinds", fit)
        for runs, top in lines:
            shapes.append(Text(W / 2, y + top + size, runs, size, GREY, "middle"))
        y += len(lines) * size * 1.15 + 1 * MM
    if getattr(face, "art", ""):
        art_h = ART_H * H / CARD_H
        shapes.append(Box(PAD + 1 * MM, y, inner - 2 * MM, art_h, "#f4f4f4", RULE, 0.3, 1 * MM))
        shapes.append(Picture(PAD + 1.5 * MM, y + 0.5 * MM, inner - 3 * MM, art_h - 1 * MM, face.art))
        y += art_h + 1.5 * MM
    if face.figures:
        y = _figures(shapes, fit, face.figures, y, frame, cut, W, H)
    shapes.append(Box(PAD + 2 * MM, y, inner - 4 * MM, 0.4, frame))
    y += 2 * MM
    footer_y = H - PAD / 2 - 2.5
    if face.abilities:
        paragraphs = [[(name, True), (text, False)] if name else [(text, False)] for name, text in face.abilities]
        size, lines = fit.fit(paragraphs, inner - 2, footer_y - MIN_PT - 5 - y, 10, MIN_PT, leading=1.22, gap=0.5)
        _told(cut, "its text", fit)
        for runs, top in lines:
            shapes.append(Text(PAD + 1, y + top + size, runs, size))
    size, lines = fit.fit([[(face.footer, False)]], inner, MIN_PT * 1.3, MIN_PT, MIN_PT, max_lines=1)
    for runs, _ in lines:
        shapes.append(Text(W / 2, footer_y, runs, size, GREY, "middle"))
    return shapes


def _named(kind: str) -> bool:
    """Whether a kind is written after its attribute's name ('order: a, b')."""
    return ": " in kind


def _told(cut: list, what: str, fit) -> None:
    """Add `what` to `cut` when the last text fitted had to be cut."""
    if fit.was_cut:
        cut.append(what)


def _figures(shapes, fit, figures, y, frame, cut, W: float = CARD_W, H: float = CARD_H) -> float:
    """Each number in a disc with its name under it, in a row or two; when there are more
    than six, or a name does not fit under its disc at `MIN_PT`, a table of names and numbers
    in two columns. Returns the y below them."""
    n, inner = len(figures), W - 2 * PAD
    rows = 1 if n <= 4 else 2
    cols = math.ceil(n / rows)
    slot = inner / cols
    label_fits = all(len(fit.wrap([(f[0], False)], slot - 2, MIN_PT)) <= 2
                     and all(fit.width(w, False, MIN_PT) <= slot - 2 for w in f[0].split())
                     for f in figures)
    if n > 6 or not label_fits:
        return _figure_table(shapes, fit, figures, y, cut, W, H)
    d = min(slot * 0.55, 16.0)
    row_h = d + 2 * MIN_PT * 1.1 + 2
    for i, (label, value, *own) in enumerate(figures):
        row, col = divmod(i, cols)
        in_row = min(cols, n - row * cols)
        cx = PAD + (inner - in_row * slot) / 2 + (col + 0.5) * slot
        top = y + row * row_h
        shapes.append(Disc(cx, top + d / 2, d / 2, "#ffffff", frame_colour(own[0]) if own else frame,
                           1.6 if own else 1.0))
        size, lines = fit.fit([[(value, True)]], d * 0.8, d * 0.7, max(d * 0.55, MIN_PT), MIN_PT, max_lines=1)
        if lines:
            shapes.append(Text(cx, top + d / 2 + size * 0.36, lines[0][0], size, INK, "middle"))
        size, lines = fit.fit([[(label, False)]], slot - 2, 2 * MIN_PT * 1.1, MIN_PT, MIN_PT, leading=1.1,
                              max_lines=2)
        for runs, line_top in lines:
            shapes.append(Text(cx, top + d + 1 + line_top + size, runs, size, GREY, "middle"))
    return y + rows * row_h


def _figure_table(shapes, fit, figures, y, cut, W: float = CARD_W, H: float = CARD_H) -> float:
    """The figures as a table: each name, then its number at the column's right, two columns."""
    inner = W - 2 * PAD
    line = MIN_PT * 1.25
    room = max(1, int((H * 0.7 - y) // line))  # rows that leave room for the face
    if len(figures) > 2 * room:
        figures = figures[:2 * room]
        cut.append("its figures")
    half = math.ceil(len(figures) / 2)
    col_w = (inner - 1.5 * MM) / 2
    for i, (label, value, *_) in enumerate(figures):
        col, row = divmod(i, half)
        x = PAD + col * (col_w + 1.5 * MM)
        base = y + row * line + MIN_PT
        if row % 2 == 0:
            shapes.append(Box(x, base - MIN_PT, col_w, line, "#f1f1f1"))
        _, shown = fit.fit([[(value, True)]], col_w * 0.45, line, MIN_PT, MIN_PT, max_lines=1)
        value_w = fit.runs_width(shown[0][0], MIN_PT) if shown else 0.0
        if shown:
            shapes.append(Text(x + col_w - 0.5, base, shown[0][0], MIN_PT, INK, "end"))
        _told(cut, f"the figure of '{label}'", fit)
        room = col_w - value_w - 2
        _, lines = fit.fit([[(label, False)]], room, line, MIN_PT, MIN_PT, max_lines=1)
        if lines:
            shapes.append(Text(x + 0.5, base, lines[0][0], MIN_PT, GREY))
            if fit.runs_width(((label, False),), MIN_PT) > room:
                cut.append(f"the name of its figure '{label}'")
    return y + half * line + 1 * MM



def _spikes(cx: float, cy: float, points: int, outer: float, inner: float) -> tuple:
    """The corners of a star of `points` points round (cx, cy), the first pointing up."""
    step = 180 / points
    return tuple((cx + (outer if i % 2 == 0 else inner) * math.cos(math.radians(-90 + step * i)),
                  cy + (outer if i % 2 == 0 else inner) * math.sin(math.radians(-90 + step * i)))
                 for i in range(2 * points))

def symbol(kind: str, cx: float, cy: float, r: float, colour: str, stroke: str | None = None) -> list:
    """A simple vector symbol of `SYMBOLS` centred on (cx, cy), within radius `r`."""
    dark = stroke or (INK if luminance(colour) > 0.8 else None)

    def ring(k, radius, turn=-90.0):
        return tuple((cx + radius * math.cos(math.radians(turn + 360 * i / k)),
                      cy + radius * math.sin(math.radians(turn + 360 * i / k))) for i in range(k))

    if kind == "square":
        return [Box(cx - r * 0.8, cy - r * 0.8, r * 1.6, r * 1.6, colour, dark, 0.5)]
    if kind == "diamond":
        return [Poly(ring(4, r), colour, dark)]
    if kind == "triangle":
        return [Poly(ring(3, r * 1.1, -90), colour, dark)]
    if kind == "hexagon":
        return [Poly(ring(6, r, -90), colour, dark)]
    if kind == "star":
        return [Poly(_spikes(cx, cy, 5, r * 1.05, r * 0.45), colour, dark)]
    if kind == "bolt":
        pts = ((0.15, -1), (-0.55, 0.12), (-0.05, 0.12), (-0.2, 1), (0.55, -0.18), (0.05, -0.18), (0.3, -1))
        return [Poly(tuple((cx + x * r, cy + y * r) for x, y in pts), colour, dark)]
    if kind == "sun":
        return [Poly(_spikes(cx, cy, 8, r * 1.05, r * 0.7), colour, dark), Disc(cx, cy, r * 0.5, colour, "#ffffff", 0.6)]
    if kind == "moon":
        outer = [(cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a))) for a in range(60, 301, 15)]
        inner_c = [(cx + r * 0.45 + r * 0.8 * math.cos(math.radians(a)), cy + r * 0.8 * math.sin(math.radians(a)))
                   for a in range(234, 125, -12)]
        return [Poly(tuple(outer + inner_c), colour, dark)]
    if kind == "drop":
        pts = [(cx, cy - r)] + [(cx + r * 0.62 * math.cos(math.radians(a)), cy + r * 0.35 + r * 0.62 * math.sin(math.radians(a)))
                                for a in range(-30, 211, 15)]
        return [Poly(tuple(pts), colour, dark)]
    if kind == "cross":
        t = r * 0.35
        pts = ((-t, -r), (t, -r), (t, -t), (r, -t), (r, t), (t, t), (t, r), (-t, r), (-t, t), (-r, t), (-r, -t), (-t, -t))
        return [Poly(tuple((cx + x, cy + y) for x, y in pts), colour, dark)]
    return [Disc(cx, cy, r * 0.85, colour, dark, 0.5)]


def tile_size(tile) -> tuple:
    """(width, height) of a tile, in points: its cells in a row."""
    n = max(1, len(tile.cells)) if tile.shape != "circle" else 1
    if tile.shape == "hex":
        return n * tile.size, 2 * tile.size / math.sqrt(3)
    return n * tile.size, tile.size


def hexagon(cx: float, cy: float, r: float) -> tuple:
    """The corners of a hexagon with a point up, of circumradius `r`."""
    return tuple((cx + r * math.cos(math.radians(-90 + 60 * k)), cy + r * math.sin(math.radians(-90 + 60 * k)))
                 for k in range(6))


def lay_out_tile(tile, measure, clipped: list | None = None) -> list:
    """The shapes of a tile (`faces.Tile`), in points from the top left of its bounding box:
    each cell a hex, a square or a disc filled with its colour, its outline the cut line,
    its word and its number in it, the tile's title in the first cell."""
    fit = Fitter(measure)
    cut = clipped if clipped is not None else []
    w, h = tile_size(tile)
    cells = list(tile.cells)[:1] if tile.shape == "circle" else list(tile.cells) or [("", "#ffffff", "")]
    shapes = []
    s = tile.size
    for i, (word, colour, number) in enumerate(cells):  # the cells, a thin light line between them
        cx, cy = s / 2 + i * s, h / 2
        if tile.shape == "hex":
            shapes.append(Poly(hexagon(cx, cy, s / math.sqrt(3)), colour, "#ffffff" if len(cells) > 1 else INK, 0.6))
        elif tile.shape == "circle":
            shapes.append(Disc(cx, cy, s / 2, colour, INK, 0.6))
        else:
            shapes.append(Box(cx - s / 2, cy - s / 2, s, s, colour, "#ffffff" if len(cells) > 1 else INK, 0.6,
                              0 if len(cells) > 1 else 1 * MM))
    if len(cells) > 1:  # the cut line round the whole piece
        if tile.shape == "hex":
            r = s / math.sqrt(3)
            top = [p for i in range(len(cells)) for p in ((i * s, h / 2 - r / 2), (i * s + s / 2, h / 2 - r))]
            bottom = [p for i in reversed(range(len(cells))) for p in (((i + 1) * s, h / 2 + r / 2),
                                                                       (i * s + s / 2, h / 2 + r))]
            shapes.append(Poly(tuple(top + [(len(cells) * s, h / 2 - r / 2)] + bottom + [(0, h / 2 + r / 2)]),
                               None, INK, 0.6))
        else:
            shapes.append(Box(0, 0, w, h, None, INK, 0.6))
    for i, (word, colour, number) in enumerate(cells):
        cx, cy = s / 2 + i * s, h / 2
        ink = INK if luminance(colour) > 0.55 else "#ffffff"
        room = s * (0.78 if tile.shape == "hex" else 0.84)
        if word:
            size, lines = fit.fit([[(word, True)]], room, 9 * 1.1, 9, MIN_PT, max_lines=1)
            _told(cut, "the word of a cell", fit)
            for runs, _ in lines:
                shapes.append(Text(cx, cy - s * 0.2, runs, size, ink, "middle"))
        if number != "":
            size, lines = fit.fit([[(str(number), True)]], room, s * 0.3, max(MIN_PT, min(s * 0.26, 22)), MIN_PT,
                                  max_lines=1)
            for runs, _ in lines:
                shapes.append(Text(cx, cy + size * 0.36, runs, size, ink, "middle"))
        if i == 0 and tile.title:
            alone = not word and number == ""  # the title alone: larger, in the middle
            width = room * (0.95 if alone else 0.85 if tile.shape == "circle" else 0.9)
            big = 9 if alone else 8
            size, lines = fit.fit([[(tile.title, False)]], width, 3 * big * 1.1, big, MIN_PT,
                                  leading=1.1, max_lines=3 if alone else 2)
            _told(cut, "its title", fit)
            start = cy - len(lines) * size * 1.1 / 2 if alone else cy + s * 0.2
            for runs, top in lines:
                shapes.append(Text(cx, start + top + size * (0.8 if alone else 1), runs, size, ink, "middle"))
    return shapes
