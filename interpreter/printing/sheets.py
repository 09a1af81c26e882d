"""Print-and-play sheets: card faces nine to an A4 page in a PDF, and one SVG per card.

`regles sheets` (`write_pdf`, `write_svgs`) draws the shapes `cardlayout` lays
out for each `faces.Face` and `faces.Tile`: the PDF with reportlab, the SVG as
XML written here, every text escaped. In the PDF the cards come first, as many
to a page as fit with their bleed (nine without), crop marks in the margins on
every cut line; with `backs`, each page of cards is followed by a page of their
backs, mirrored left to right so that they fall behind their fronts when the
sheet is printed on both sides (turned on its long edge); the tiles come last,
each outlined by its cut line. No text is smaller than `cardlayout.MIN_PT`:
what does not fit at that size is cut with an ellipsis and told in `notes`. reportlab is the `sheets` extra of regles: it is
imported only when sheets are made (`library`), and `MissingLibrary` says how
to install it. The font is Bitstream Vera Sans, which reportlab ships, so that
a sheet is laid out the same on every machine; the PDF is written without its
date and with a fixed identifier, so the same cards give the same file.
"""
from __future__ import annotations

import base64
import io
import os
import re
from pathlib import Path
from xml.sax.saxutils import escape

from ..names import did_you_mean, fold
from .art import load as load_picture
from .cardlayout import (CARD_H, CARD_W, MIN_PT, MM, Box, Disc, Fitter, Picture, Poly, Text, lay_out, lay_out_tile,
                         size_of, tile_size)
from ..content.colours import luminance
from .faces import Tile, clean

INSTALL = "pip install 'regles[sheets]'"
FONTS = {False: ("RegVera", "Vera.ttf"), True: ("RegVeraBold", "VeraBd.ttf")}
SVG_FONT = "'Bitstream Vera Sans', 'DejaVu Sans', Verdana, sans-serif"
PER_PAGE = 9
MARK = (2 * MM, 8 * MM)  # where a cut mark starts and ends, away from the cards
MARGIN = 6 * MM  # the least margin round the cards, for the crop marks
MAX_BLEED = 5.0  # mm
TILE_GAP = 3 * MM


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
        # the characters both fonts draw: another is printed blank, so a designer is told
        faces = [pdfmetrics.getFont(name).face for name, _ in FONTS.values()]
        self.glyphs = set.intersection(*(set(getattr(f, "charToGlyph", {}) or {}) for f in faces))

    def unprintable(self, texts) -> list:
        """The characters of `texts` the fonts have no glyph for (none when the fonts cannot say)."""
        if not self.glyphs:
            return []
        return sorted({ch for text in texts for ch in str(text) if not ch.isspace() and ord(ch) not in self.glyphs})

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


class Grid:
    """Where the cards go on a page: `cols` x `rows` cells of a card and its bleed round it,
    centred on the page."""

    def __init__(self, width: float, height: float, bleed: float = 0.0, card: tuple = (CARD_W, CARD_H)):
        self.bleed = bleed
        self.card_w, self.card_h = card
        self.pitch_w, self.pitch_h = self.card_w + 2 * bleed, self.card_h + 2 * bleed
        # as many as fit inside the margins: three by three of the standard size, more of smaller cards
        self.cols = max(1, int((width - 2 * MARGIN) // self.pitch_w))
        self.rows = max(1, int((height - 2 * MARGIN) // self.pitch_h))
        self.x0 = (width - self.cols * self.pitch_w) / 2
        self.y0 = (height - self.rows * self.pitch_h) / 2
        self.width, self.height = width, height

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    def corner(self, i: int, mirrored: bool = False) -> tuple:
        """The top left corner of the card (its cut line) at place `i`, from the page's top left."""
        row, col = divmod(i, self.cols)
        if mirrored:
            col = self.cols - 1 - col
        return self.x0 + col * self.pitch_w + self.bleed, self.y0 + row * self.pitch_h + self.bleed

    def cuts(self) -> tuple:
        """The x of every vertical cut line and the y of every horizontal one, from the top left."""
        xs = sorted({round(self.x0 + c * self.pitch_w + self.bleed + d, 3)
                     for c in range(self.cols) for d in (0, self.card_w)})
        ys = sorted({round(self.y0 + r * self.pitch_h + self.bleed + d, 3)
                     for r in range(self.rows) for d in (0, self.card_h)})
        return xs, ys


def by_size(faces) -> dict:
    """The cards of `faces` to print, each copy, by card size ((width, height) in points), in
    the order their sizes first come: a page holds cards of one size."""
    out: dict = {}
    for f in faces:
        if not isinstance(f, Tile):
            out.setdefault(size_of(f), []).extend([f] * f.copies)
    return out


def _rgb(colour: str) -> tuple:
    return tuple(int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))


class PdfShapes:
    """Shapes drawn on a reportlab canvas, a card's top left corner at (ox, top)."""

    def __init__(self, lib: Library, canvas):
        self.lib, self.c = lib, canvas
        self.smallest = None  # the smallest text size drawn
        self.pictures: dict = {}  # path -> reportlab's reader of it, or why it is not drawn

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
            elif isinstance(s, Poly):
                self._paint(s.fill, s.stroke, s.width)
                path = c.beginPath()
                for k, (x, y) in enumerate(s.points):
                    (path.lineTo if k else path.moveTo)(ox + x, top - y)
                path.close()
                c.drawPath(path, stroke=bool(s.stroke), fill=bool(s.fill))
            elif isinstance(s, Picture):
                picture = self.picture(s.path)
                if not isinstance(picture, str):
                    c.drawImage(picture, ox + s.x, top - s.y - s.h, s.w, s.h, preserveAspectRatio=True, anchor="c",
                                mask="auto")
            elif isinstance(s, Text):
                c.setFillColorRGB(*_rgb(s.fill))
                x = ox + s.x
                width = sum(self.lib.measure(t, b) * s.size for t, b in s.runs)
                if s.anchor == "middle":
                    x -= width / 2
                elif s.anchor == "end":
                    x -= width
                for text, bold in s.runs:
                    c.setFont(FONTS[bold][0], s.size)
                    c.drawString(x, top - s.y, text)
                    x += self.lib.measure(text, bold) * s.size

    def picture(self, path: str):
        """reportlab's reader of the picture in `path`, decoded once per sheet; or why not (a text)."""
        if path not in self.pictures:
            from reportlab.lib.utils import ImageReader  # reportlab is imported where sheets are made
            image = load_picture(path)
            self.pictures[path] = image if isinstance(image, str) else ImageReader(image)
        return self.pictures[path]

    def unread(self) -> list:
        """What to tell of the pictures that could not be drawn (their place is left blank)."""
        return [f"the picture {Path(path).name} is not drawn: {why}" for path, why in self.pictures.items()
                if isinstance(why, str)]

    def _paint(self, fill, stroke, width) -> None:
        if fill:
            self.c.setFillColorRGB(*_rgb(fill))
        if stroke:
            self.c.setStrokeColorRGB(*_rgb(stroke))
            self.c.setLineWidth(width)


def lay_out_back(face, title: str, measure, bleed: float = 0.0) -> list:
    """The back of a card: its component kind's colour to the bleed's edge, a white frame,
    the game's title and the kind's name. Every card of a kind has the same back."""
    fit = Fitter(measure)
    W, H = size_of(face)
    colour = face.back or "#4e79a7"
    title = face.back_title if face.back_title is not None else title
    kind = face.back_text if face.back_text is not None else face.kind
    ink = "#1a1a1a" if luminance(colour) > 0.55 else "#ffffff"
    shapes = [Box(-bleed, -bleed, W + 2 * bleed, H + 2 * bleed, colour),
              Box(4 * MM, 4 * MM, W - 8 * MM, H - 8 * MM, None, ink, 1.2, 3 * MM)]
    size, lines = fit.fit([[(clean(title), True)]], W - 14 * MM, 3 * 20 * 1.1, 20, MIN_PT, leading=1.1,
                          max_lines=3)
    block = len(lines) * size * 1.1
    top = H / 2 - block / 2 - 4 * MM
    for runs, y in lines:
        shapes.append(Text(W / 2, top + y + size, runs, size, ink, "middle"))
    if kind:
        ksize, klines = fit.fit([[(kind, False)]], W - 14 * MM, 3 * 11 * 1.1, 11, MIN_PT, leading=1.1,
                                max_lines=3)
        for runs, y in klines:
            shapes.append(Text(W / 2, top + block + 6 * MM + y + ksize, runs, ksize, ink, "middle"))
    return shapes


def write_pdf(path: str, faces, title: str, backs: bool = False, bleed_mm: float = 0.0,
              notes: list | None = None) -> int:
    """The faces, each `copies` times, as many to an A4 page as fit with `bleed_mm` round each
    (nine without), crop marks on the cut lines; with `backs` a page of their backs after each
    page; then the tiles. What had to be cut to fit is added to `notes`. The number of pages."""
    lib = library()
    width, height = lib.page
    c = lib.canvas.Canvas(path, pagesize=lib.page, invariant=1, pageCompression=1)
    c.setTitle(clean(title))
    c.setCreator("regles sheets")
    pdf = PdfShapes(lib, c)
    bleed = max(0.0, min(float(bleed_mm), MAX_BLEED)) * MM
    sized = [(Grid(width, height, bleed, size), printed) for size, printed in by_size(faces).items()]
    chunks = [(grid, printed[k:k + grid.per_page]) for grid, printed in sized
              for k in range(0, len(printed), grid.per_page)]
    tiles = [f for f in faces if isinstance(f, Tile)]
    tile_pages = _tile_pages(tiles, width, height)
    pages = len(chunks) * (2 if backs else 1) + len(tile_pages)
    laid, backs_laid, number = {}, {}, 0
    for grid, chunk in chunks:
        for i, face in enumerate(chunk):
            if id(face) not in laid:
                cut: list = []
                laid[id(face)] = lay_out(face, lib.measure, cut)
                if cut and notes is not None:
                    notes.append(f"{face.id}: {', '.join(dict.fromkeys(cut))} does not fit at {MIN_PT:g} pt and "
                                 "is cut (marked \u2026)")
                blank = lib.unprintable([face.title, *face.kinds, *(t for ab in face.abilities for t in ab)])
                if blank and notes is not None:
                    notes.append(f"{face.id}: the font has no glyph for {' '.join(map(repr, blank))}, printed blank")
            x, y = grid.corner(i)
            pdf.draw(laid[id(face)], x, height - y)
        number += 1
        _page_end(c, grid, title, number, pages)
        if backs:
            for i, face in enumerate(chunk):
                key = face.back_key
                if key not in backs_laid:
                    backs_laid[key] = lay_out_back(face, title, lib.measure, bleed)
                x, y = grid.corner(i, mirrored=True)
                pdf.draw(backs_laid[key], x, height - y)
            number += 1
            _page_end(c, grid, title, number, pages)
    for placed in tile_pages:
        for tile, x, y in placed:
            if id(tile) not in laid:
                cut = []
                laid[id(tile)] = lay_out_tile(tile, lib.measure, cut)
                if cut and notes is not None:
                    notes.append(f"{tile.id}: {', '.join(dict.fromkeys(cut))} does not fit at {MIN_PT:g} pt and "
                                 "is cut (marked \u2026)")
            pdf.draw(laid[id(tile)], x, height - y)
        number += 1
        _page_end(c, None, title, number, pages)
    c.save()
    if notes is not None:
        notes.extend(pdf.unread())
    return pages


def _page_end(c, grid, title, number, pages) -> None:
    if grid is not None:
        _cut_marks(c, grid)
    c.setFillColorRGB(0.4, 0.4, 0.4)
    c.setFont(FONTS[False][0], MIN_PT)
    # under the middle column (the page's middle with three), between the crop marks
    x = grid.x0 + (grid.cols // 2) * grid.pitch_w + grid.pitch_w / 2 if grid is not None else c._pagesize[0] / 2
    c.drawCentredString(x, 4 * MM, f"{clean(title)} \u2014 {number}/{pages}")
    c.showPage()


def _tile_pages(tiles, width: float, height: float) -> list:
    """The tiles, each as many times as its copies, in rows on A4 pages: for each page a list
    of (tile, x, y), its bounding box's top left from the page's top left."""
    pages, placed = [], []
    x = y = 10 * MM
    row_h = 0.0
    for tile in tiles:
        w, h = tile_size(tile)
        for _ in range(tile.copies):
            if x + w > width - 10 * MM and placed and x > 10 * MM:
                x, y, row_h = 10 * MM, y + row_h + TILE_GAP, 0.0
            if y + h > height - 10 * MM and placed:
                pages.append(placed)
                placed, x, y, row_h = [], 10 * MM, 10 * MM, 0.0
            placed.append((tile, x, y))
            x += w + TILE_GAP
            row_h = max(row_h, h)
    if placed:
        pages.append(placed)
    return pages


def _cut_marks(c, grid) -> None:
    """Short lines in the margins on every cut line: they guide the cuts and no mark is drawn
    on a card or its bleed."""
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(0.3)
    height = grid.height
    xs, ys = grid.cuts()
    left, right = grid.x0, grid.x0 + grid.cols * grid.pitch_w
    top, bottom = grid.y0, grid.y0 + grid.rows * grid.pitch_h
    reach_x, reach_y = min(MARK[1], grid.x0 - 1 * MM), min(MARK[1], grid.y0 - 1 * MM)
    for x in xs:
        c.line(x, height - (top - MARK[0] / 2), x, height - (top - reach_y))
        c.line(x, height - (bottom + MARK[0] / 2), x, height - (bottom + reach_y))
    for y in ys:
        c.line(left - MARK[0] / 2, height - y, left - reach_x, height - y)
        c.line(right + MARK[0] / 2, height - y, right + reach_x, height - y)


def _n(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def svg(face, measure) -> str:
    """One card face (or tile) as an SVG document: every text from content is escaped."""
    if isinstance(face, Tile):
        w, h = tile_size(face)
        shapes = lay_out_tile(face, measure)
    else:
        w, h = size_of(face)
        shapes = lay_out(face, measure)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(w / MM)}mm" height="{_n(h / MM)}mm" '
           f'viewBox="0 0 {_n(w)} {_n(h)}">',
           f"<title>{escape(face.title)}</title>"]
    anchors = {"start": "start", "middle": "middle", "end": "end"}
    for s in shapes:
        if isinstance(s, Box):
            out.append(f'<rect x="{_n(s.x)}" y="{_n(s.y)}" width="{_n(s.w)}" height="{_n(s.h)}"'
                       + (f' rx="{_n(s.radius)}"' if s.radius else "") + _paint(s.fill, s.stroke, s.width) + "/>")
        elif isinstance(s, Disc):
            out.append(f'<circle cx="{_n(s.cx)}" cy="{_n(s.cy)}" r="{_n(s.r)}"' + _paint(s.fill, s.stroke, s.width)
                       + "/>")
        elif isinstance(s, Poly):
            points = " ".join(f"{_n(x)},{_n(y)}" for x, y in s.points)
            out.append(f'<polygon points="{points}"' + _paint(s.fill, s.stroke, s.width) + "/>")
        elif isinstance(s, Picture):
            data = _embedded(s.path)
            if data:
                out.append(f'<image x="{_n(s.x)}" y="{_n(s.y)}" width="{_n(s.w)}" height="{_n(s.h)}" '
                           f'preserveAspectRatio="xMidYMid meet" href="{data}"/>')
        elif isinstance(s, Text):
            spans = "".join(f'<tspan font-weight="bold">{escape(t)}</tspan>' if b else f"<tspan>{escape(t)}</tspan>"
                            for t, b in s.runs)
            out.append(f'<text x="{_n(s.x)}" y="{_n(s.y)}" font-size="{_n(s.size)}" fill="{s.fill}"'
                       f' text-anchor="{anchors.get(s.anchor, "start")}" font-family="{SVG_FONT}"'
                       f' xml:space="preserve">{spans}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _embedded(path: str) -> str:
    """The picture in `path` as a data URL of PNG (the SVG stands alone); '' when it does not read."""
    image = load_picture(path)
    if isinstance(image, str):
        return ""
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


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
