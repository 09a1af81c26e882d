"""Print-and-play sheets: card faces nine to an A4 page in a PDF, and one SVG per card.

`regles sheets` (`write_pdf`, `write_svgs`) draws the shapes `cardlayout` lays
out for each `faces.Face`: the PDF with reportlab, the SVG as XML written
here, every text escaped. reportlab is the `sheets` extra of regles: it is
imported only when sheets are made (`library`), and `MissingLibrary` says how
to install it. The font is Bitstream Vera Sans, which reportlab ships, so that
a sheet is laid out the same on every machine; the PDF is written without its
date and with a fixed identifier, so the same cards give the same file.
"""
from __future__ import annotations

import math
import os
import re
from pathlib import Path
from xml.sax.saxutils import escape

from ..names import did_you_mean, fold
from .cardlayout import CARD_H, CARD_W, MM, Box, Disc, Text, lay_out
from .faces import clean

INSTALL = "pip install 'regles[sheets]'"
FONTS = {False: ("RegVera", "Vera.ttf"), True: ("RegVeraBold", "VeraBd.ttf")}
SVG_FONT = "'Bitstream Vera Sans', 'DejaVu Sans', Verdana, sans-serif"
PER_PAGE = 9
MARK = (2 * MM, 8 * MM)  # where a cut mark starts and ends, away from the cards


class MissingLibrary(Exception):
    """reportlab is not installed."""


class Library:
    """reportlab's parts that sheets use, its fonts registered."""

    def __init__(self):
        try:  # here, not at the top: only this command needs reportlab
            from reportlab.lib.pagesizes import A4
            from reportlab.pdfbase import pdfmetrics
            from reportlab.pdfbase.ttfonts import TTFont
            from reportlab.pdfgen import canvas
        except ImportError:
            raise MissingLibrary(f"regles sheets needs reportlab: {INSTALL}") from None
        self.page = A4
        self.canvas = canvas
        self.metrics = pdfmetrics
        registered = set(pdfmetrics.getRegisteredFontNames())
        for name, file in FONTS.values():
            if name not in registered:
                pdfmetrics.registerFont(TTFont(name, file))

    def measure(self, text: str, bold: bool) -> float:
        return self.metrics.stringWidth(text, FONTS[bold][0], 1)


_LIBRARY: list = []


def library() -> Library:
    """reportlab, loaded once; MissingLibrary when it is not installed."""
    if not _LIBRARY:
        _LIBRARY.append(Library())
    return _LIBRARY[0]


def select(defn, cards: list, set_name: str | None) -> list:
    """The cards of `defn` to print: all of them, or those `cards` names (card ids or titles,
    the id of an expansion or mod laid over the game for its cards, `mod` for the cards of
    every mod), of set `set_name` when given. ValueError says what names nothing."""
    chosen = list(defn.cards)
    if set_name is not None:
        sets = sorted({c.set for c in defn.cards if c.set})
        chosen = [c for c in chosen if c.set == set_name]
        if not chosen:
            hint = did_you_mean(set_name, sets)
            raise ValueError(f"--set: no card of set '{set_name}'" + (f"; {hint}" if hint else "")
                             + (f" (sets: {', '.join(sets)})" if sets else " (no cards file names a set)"))
    if not cards:
        return chosen
    layers = {layer.id: layer.kind for layer in defn.layers}
    by_name = {}
    for c in chosen:
        by_name.setdefault(fold(c.id), set()).add(id(c))
        by_name.setdefault(fold(c.title), set()).add(id(c))
    wanted = set()
    for name in cards:
        key = fold(name)
        if key in by_name:
            wanted |= by_name[key]
        elif name in layers or (name == "mod" and "mod" in layers.values()):
            wanted |= {id(c) for c in chosen if c.layer == name or (name == "mod" and layers.get(c.layer) == "mod")}
        else:
            hint = did_you_mean(name, [c.id for c in chosen] + list(layers))
            raise ValueError(f"--cards: no card '{name}'" + (f" in set '{set_name}'" if set_name else "")
                             + (f"; {hint}" if hint else ""))
    return [c for c in chosen if id(c) in wanted]


def pages_for(faces) -> int:
    return math.ceil(sum(f.copies for f in faces) / PER_PAGE)


def _rgb(colour: str) -> tuple:
    return tuple(int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))


class _Pdf:
    """Shapes drawn on a reportlab canvas, a card's top left corner at (ox, top)."""

    def __init__(self, lib: Library, canvas):
        self.lib, self.c = lib, canvas

    def draw(self, shapes, ox: float, top: float) -> None:
        c = self.c
        for s in shapes:
            if isinstance(s, Box):
                self._paint(s.fill, s.stroke, s.width)
                y = top - s.y - s.h
                if s.radius:
                    c.roundRect(ox + s.x, y, s.w, s.h, s.radius, stroke=bool(s.stroke), fill=bool(s.fill))
                else:
                    c.rect(ox + s.x, y, s.w, s.h, stroke=bool(s.stroke), fill=bool(s.fill))
            elif isinstance(s, Disc):
                self._paint(s.fill, s.stroke, s.width)
                c.circle(ox + s.cx, top - s.cy, s.r, stroke=bool(s.stroke), fill=bool(s.fill))
            elif isinstance(s, Text):
                c.setFillColorRGB(*_rgb(s.fill))
                x = ox + s.x
                if s.anchor == "middle":
                    x -= sum(self.lib.measure(t, b) * s.size for t, b in s.runs) / 2
                for text, bold in s.runs:
                    c.setFont(FONTS[bold][0], s.size)
                    c.drawString(x, top - s.y, text)
                    x += self.lib.measure(text, bold) * s.size

    def _paint(self, fill, stroke, width) -> None:
        if fill:
            self.c.setFillColorRGB(*_rgb(fill))
        if stroke:
            self.c.setStrokeColorRGB(*_rgb(stroke))
            self.c.setLineWidth(width)


def write_pdf(path: str, faces, title: str) -> int:
    """The faces, each `copies` times, nine to an A4 page with cut marks; the number of pages."""
    lib = library()
    width, height = lib.page
    c = lib.canvas.Canvas(path, pagesize=lib.page, invariant=1, pageCompression=1)
    c.setTitle(clean(title))
    c.setCreator("regles sheets")
    pdf = _Pdf(lib, c)
    printed = [f for f in faces for _ in range(f.copies)]
    pages = pages_for(faces)
    x0, y0 = (width - 3 * CARD_W) / 2, (height - 3 * CARD_H) / 2
    laid = {}
    for page in range(pages):
        for i, face in enumerate(printed[page * PER_PAGE:(page + 1) * PER_PAGE]):
            row, col = divmod(i, 3)
            if id(face) not in laid:
                laid[id(face)] = lay_out(face, lib.measure)
            pdf.draw(laid[id(face)], x0 + col * CARD_W, height - y0 - row * CARD_H)
        _cut_marks(c, x0, y0, width, height)
        c.setFillColorRGB(0.4, 0.4, 0.4)
        c.setFont(FONTS[False][0], 7)
        c.drawCentredString(width / 2, y0 / 3, f"{clean(title)} \u2014 {page + 1}/{pages}")
        c.showPage()
    c.save()
    return pages


def _cut_marks(c, x0, y0, width, height) -> None:
    """Short lines in the margins on the lines between cards: they guide the cuts and no
    mark is drawn on a card."""
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(0.3)
    left, bottom, right, top = x0, y0, x0 + 3 * CARD_W, y0 + 3 * CARD_H
    for k in range(4):
        x, y = x0 + k * CARD_W, y0 + k * CARD_H
        c.line(x, top + MARK[0], x, top + MARK[1])
        c.line(x, bottom - MARK[0], x, bottom - MARK[1])
        c.line(left - MARK[0], y, left - MARK[1], y)
        c.line(right + MARK[0], y, right + MARK[1], y)


def _n(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def svg(face, measure) -> str:
    """One card face as an SVG document: every text from content is escaped."""
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" '
           f'viewBox="0 0 {_n(CARD_W)} {_n(CARD_H)}">',
           f"<title>{escape(face.title)}</title>"]
    for s in lay_out(face, measure):
        if isinstance(s, Box):
            out.append(f'<rect x="{_n(s.x)}" y="{_n(s.y)}" width="{_n(s.w)}" height="{_n(s.h)}"'
                       + (f' rx="{_n(s.radius)}"' if s.radius else "") + _paint(s.fill, s.stroke, s.width) + "/>")
        elif isinstance(s, Disc):
            out.append(f'<circle cx="{_n(s.cx)}" cy="{_n(s.cy)}" r="{_n(s.r)}"' + _paint(s.fill, s.stroke, s.width)
                       + "/>")
        elif isinstance(s, Text):
            spans = "".join(f'<tspan font-weight="bold">{escape(t)}</tspan>' if b else f"<tspan>{escape(t)}</tspan>"
                            for t, b in s.runs)
            out.append(f'<text x="{_n(s.x)}" y="{_n(s.y)}" font-size="{_n(s.size)}" fill="{s.fill}"'
                       f' text-anchor="{s.anchor}" font-family="{SVG_FONT}" xml:space="preserve">{spans}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _paint(fill, stroke, width) -> str:
    return f' fill="{fill or "none"}"' + (f' stroke="{stroke}" stroke-width="{_n(width)}"' if stroke else "")


def file_name(name: str, suffix: str, taken: set | None = None) -> str:
    """A file name made of the safe letters of `name` (a card's or game's id), unique among
    `taken` when given: content names no path."""
    base = re.sub(r"[^A-Za-z0-9_-]+", "_", name).strip("_")[:80] or "cards"
    found, k = f"{base}{suffix}", 1
    while taken is not None and found.casefold() in taken:
        k += 1
        found = f"{base}-{k}{suffix}"
    if taken is not None:
        taken.add(found.casefold())
    return found


def write_svgs(folder: str, faces) -> int:
    """One SVG per card (not per copy) in `folder`, made if need be; how many were written."""
    lib = library()
    Path(folder).mkdir(parents=True, exist_ok=True)
    taken: set = set()
    for face in faces:
        with open(os.path.join(folder, file_name(face.id, ".svg", taken)), "w", encoding="utf-8") as f:
            f.write(svg(face, lib.measure))
    return len(faces)
