"""A card face laid out as shapes: boxes, discs and lines of text, in points from its top left.

`lay_out(face, measure)` places what a `faces.Face` shows on a card of the
standard size (63 x 88 mm): the band, the title, the line of kinds, the
figures in discs, the abilities, and a footer with the card's id. Every text
is fitted to its place: wrapped at spaces (a word longer than the line at its
letters), its size lowered step by step down to a floor, and at the floor cut
with an ellipsis, so that no text, however long, leaves its place.
`measure(text, bold)` is the width of `text` at size 1 in the font the shapes
will be drawn with; the PDF and the SVG draw the same shapes.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .faces import luminance

MM = 72 / 25.4
CARD_W, CARD_H = 63 * MM, 88 * MM
PAD = 3 * MM  # the margin inside the cut line
BAND_H = 5.5 * MM
ELLIPSIS = "\u2026"
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
    anchor: str = "start"  # or "middle"


class Fitter:
    """Wraps and fits texts, given the width of a text at size 1."""

    def __init__(self, measure):
        self.measure = measure
        self.widths: dict = {}

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
            for i, part in enumerate(text.split(" ")):
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
        size from `big` down to `small` by quarter points where all fits; else at `small`, the
        lines that fit, the last one ending with an ellipsis. A line is (runs, its top offset)."""
        size = big
        while True:
            placed, bottom = self.placed(paragraphs, width, size, leading, gap)
            if (bottom <= height and (max_lines is None or len(placed) <= max_lines)) or size <= small:
                break
            size = max(small, size - 0.25)
        allowed = [p for p in placed if p[1] + size * leading <= height + 0.01]
        if max_lines is not None:
            allowed = allowed[:max_lines]
        if len(allowed) < len(placed):
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
        runs.extend(word)
    return _merged(runs)


def frame_colour(colour: str) -> str:
    """The band's colour, or grey when it is too light to see on white."""
    return colour if luminance(colour) < 0.85 else "#9e9e9e"


def lay_out(face, measure) -> list:
    """The shapes of one card face, in points from the card's top left corner."""
    fit = Fitter(measure)
    frame = frame_colour(face.colour)
    inner = CARD_W - 2 * PAD
    shapes = [Box(0, 0, CARD_W, CARD_H, "#ffffff", RULE, 0.3),
              Box(PAD / 2, PAD / 2, CARD_W - PAD, CARD_H - PAD, None, frame, 1.2, 2 * MM),
              Box(PAD, PAD, inner, BAND_H, face.colour, frame, 0.5, 1 * MM)]
    on_band = INK if luminance(face.colour) > 0.55 else "#ffffff"
    size, lines = fit.fit([[(face.band, True)]], inner - 4 * MM, BAND_H, 8, 4, max_lines=1)
    if lines:
        shapes.append(Text(PAD + 2 * MM, PAD + BAND_H / 2 + size * 0.36, lines[0][0], size, on_band))
    y = PAD + BAND_H + 1.5 * MM
    size, lines = fit.fit([[(face.title, True)]], inner, 2 * 11 * 1.15, 11, 6, leading=1.15, max_lines=2)
    for runs, top in lines:
        shapes.append(Text(CARD_W / 2, y + top + size, runs, size, INK, "middle"))
    y += max(1, len(lines)) * size * 1.15 + 1 * MM
    if face.kinds:
        size, lines = fit.fit([[(" \u00b7 ".join(face.kinds), False)]], inner, 8, 6.5, 4, max_lines=1)
        for runs, top in lines:
            shapes.append(Text(CARD_W / 2, y + size, runs, size, GREY, "middle"))
        y += size * 1.2 + 1 * MM
    if face.figures:
        y = _figures(shapes, fit, face.figures, y, frame)
    shapes.append(Box(PAD + 2 * MM, y, inner - 4 * MM, 0.4, frame))
    y += 2 * MM
    footer_y = CARD_H - PAD / 2 - 2.5
    if face.abilities:
        paragraphs = [[(name, True), (text, False)] if name else [(text, False)] for name, text in face.abilities]
        size, lines = fit.fit(paragraphs, inner - 2, footer_y - 6 - y, 8, 4.5, leading=1.22, gap=0.5)
        for runs, top in lines:
            shapes.append(Text(PAD + 1, y + top + size, runs, size))
    size, lines = fit.fit([[(face.footer, False)]], inner, 6, 4.5, 3, max_lines=1)
    for runs, _ in lines:
        shapes.append(Text(CARD_W / 2, footer_y, runs, size, GREY, "middle"))
    return shapes


def _figures(shapes, fit, figures, y, frame) -> float:
    """Each number in a disc with its name under it, in rows; returns the y below them."""
    n, inner = len(figures), CARD_W - 2 * PAD
    rows = math.ceil(n / 6)
    while True:  # the fewest rows that fit; then rows as even as they can be (7 figures: 4 and 3)
        cols = math.ceil(n / rows)
        slot = inner / cols
        d = min(slot * 0.62, 17.0)
        row_h = d + 2 * 4.2 + 1.5
        if rows * row_h <= CARD_H * 0.3 or rows == 1:
            break
        rows -= 1
    for i, (label, value) in enumerate(figures):
        row, col = divmod(i, cols)
        in_row = min(cols, n - row * cols)
        cx = PAD + (inner - in_row * slot) / 2 + (col + 0.5) * slot
        top = y + row * row_h
        shapes.append(Disc(cx, top + d / 2, d / 2, "#ffffff", frame, 1.0))
        size, lines = fit.fit([[(value, True)]], d * 0.8, d * 0.7, d * 0.55, 3, max_lines=1)
        if lines:
            shapes.append(Text(cx, top + d / 2 + size * 0.36, lines[0][0], size, INK, "middle"))
        size, lines = fit.fit([[(label, False)]], slot - 2, 2 * 4.2, 4.2, 3, leading=1.1, max_lines=2)
        for runs, line_top in lines:
            shapes.append(Text(cx, top + d + 1 + line_top + size, runs, size, GREY, "middle"))
    return y + rows * row_h
