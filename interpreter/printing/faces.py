"""What a printed card shows, as data: its title, its band, its figures and its abilities.

`faces(defn, prose, cards, players)` turns the cards of a pack into `Face`s that
`cardlayout` lays out and `sheets` prints; nothing here draws. Every game is
read the same way:

- the band is the card's first attribute with few values: an attribute that
  declares its values, else (in a game of one component kind) a text attribute
  that takes at most `FEW` values over the pack's cards; a card with none has
  its component kind;
- the band's colour is the card's own colour when the game has an attribute
  whose values look like colours (a colour name in English or French, in the
  value or one of its aliases, or `#rrggbb`); else the colour most cards of
  the same band have; else one of `PALETTE`, by the value's place among the
  attribute's declared values, or a stable hash of it;
- numbers are figures (cost, value...), other attributes are written in a line
  of kinds, and the abilities are the card's face (`Prose.face`): its own
  printed text, else each printed keyword's words and text, else prose; a card
  whose face is empty in the language asked but which has a text in another
  prints that text, and `notes` says so.

The game's `print:` hints, by component kind, change this (`Hints`): the band's
attribute (`band`), the colours of values (`colours`), a symbol drawn for the
value of an attribute (`symbol`, `symbols`), which numbers are printed
(`figures`) and which attributes are not (`hide`); `back` gives the kind's back
its colour and words; `size` its cards' width and height in millimetres; `art` names an attribute whose value is a picture file
beside the cards file, shown on the face (`content.pictures`); `tile` prints the
pieces of a kind as tiles (hexes, squares or discs, one cell per value of a
list attribute), not as cards (`Tile`).

Text from content is cleaned (`clean`): control and format characters become
U+FFFD, so no title can break the XML of an SVG or the text of a PDF.
"""
from __future__ import annotations

import hashlib
import unicodedata
from collections import Counter
from dataclasses import dataclass

from ..content.colours import colour_of
from ..names import fold
from ..content.pictures import picture_of
from .cardlayout import CARD_H, CARD_W, SIZES_MM, SYMBOLS

FEW = 8  # a text attribute with at most this many values over the cards can be a band
MAX_TEXT = 4000  # characters of one text kept; a card could not show more

# bands whose values name no colour: distinct tones, taken in turn
PALETTE = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
           "#9c755f", "#bab0ac")
# the backs of the component kinds: deep tones, taken in turn
BACKS = ("#24486e", "#7a2531", "#2d6a3e", "#6b4f1d", "#4b2e6e", "#1f6366", "#6e3a1f", "#3a3a3a")
_UNPRINTABLE = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


@dataclass(frozen=True)
class Face:
    """One card as printed: `copies` faces of it go on the sheets."""
    id: str
    title: str
    band: str
    colour: str  # '#rrggbb'
    kinds: tuple  # the words of its other attributes ('Building', 'blue')
    figures: tuple  # (label, value) of its numbers, or (label, value, colour) for a figure of its own colour
    abilities: tuple  # (printed name or '', what it does)
    footer: str
    copies: int
    symbols: tuple = ()  # (shape, colour) drawn in the band's corner
    kind: str = ""  # the component kind's name, as the card's back prints it
    back: str = ""  # the colour of the card's back: its component kind's
    back_title: str | None = None  # what the back prints large (None: the game's title)
    back_text: str | None = None  # what the back prints under it (None: the component kind)
    art: str = ""  # the picture the face shows: a file of the content (content.pictures), or none
    width: float = CARD_W  # its size in points: its kind's `size:` hint, else 63 x 88 mm
    height: float = CARD_H

    @property
    def back_key(self) -> tuple:
        """What makes two backs the same."""
        return (self.kind, self.back, self.back_title, self.back_text, self.width, self.height)


@dataclass(frozen=True)
class Tile:
    """A piece printed as a tile: `cells` of (word, colour, number) in a row, each a `shape`
    ('hex', 'square' or 'circle') `size` points across."""
    id: str
    title: str
    shape: str
    size: float
    cells: tuple
    copies: int
    kind: str = ""


SHAPES = ("hex", "square", "circle")
MM = 72 / 25.4


class Hints:
    """The `print:` hints of one component kind, read leniently: what is not understood is
    left to the defaults (`regles check` validates them against the schema)."""

    def __init__(self, raw):
        raw = raw if isinstance(raw, dict) else {}
        self.band = raw.get("band") if isinstance(raw.get("band"), str) else None
        self.colours = {str(k): t for k, v in (raw.get("colours") or {}).items()
                        if (t := colour_of(v))} if isinstance(raw.get("colours"), dict) else {}
        self.symbol = raw.get("symbol") if isinstance(raw.get("symbol"), str) else None
        self.symbols = {str(k): str(v) for k, v in raw["symbols"].items()} \
            if isinstance(raw.get("symbols"), dict) else {}
        self.figures = [str(f) for f in raw["figures"]] if isinstance(raw.get("figures"), list) else None
        self.hide = {str(f) for f in raw["hide"]} if isinstance(raw.get("hide"), list) else set()
        tile = raw.get("tile")
        self.tile = tile if isinstance(tile, dict) else None
        back = raw.get("back") if isinstance(raw.get("back"), dict) else {}
        self.back_colour = colour_of(back.get("colour")) if isinstance(back.get("colour"), str) else None
        self.back_title = clean(back["title"]) if isinstance(back.get("title"), str) else None
        self.back_text = clean(back["text"]) if isinstance(back.get("text"), str) else None
        self.art = raw.get("art") if isinstance(raw.get("art"), str) else None
        size = raw.get("size")
        low, high = SIZES_MM
        self.size = (float(size[0]) * MM, float(size[1]) * MM) if (
            isinstance(size, list) and len(size) == 2 and all(isinstance(x, (int, float)) and not isinstance(x, bool)
                                                              and low <= x <= high for x in size)) else (CARD_W, CARD_H)


def clean(text) -> str:
    """`text` safe to print: spaces for line breaks and tabs, U+FFFD for control, format and
    unassigned characters (and lone surrogates), at most `MAX_TEXT` characters."""
    out = []
    for ch in str(text)[:MAX_TEXT]:
        if ch in "\n\r\t":
            out.append(" ")
        elif unicodedata.category(ch) in _UNPRINTABLE:
            out.append("\ufffd")
        else:
            out.append(ch)
    return " ".join("".join(out).split(" ")).strip()


def hashed(value: str) -> str:
    """A tone of `PALETTE` for a value, the same on every machine and every run."""
    digest = hashlib.sha256(str(value).encode("utf-8", "replace")).digest()
    return PALETTE[digest[0] % len(PALETTE)]


class Look:
    """How the cards of one pack are read: which attribute makes the band, which names colours."""

    def __init__(self, defn):
        self.defn = defn
        hints = getattr(defn, "print_hints", None) or {}
        self.hints = {kind: Hints(hints.get(kind)) for kind in set(defn.components) | {c.component for c in defn.cards}}
        self.aliases: dict = {}  # (attribute, value) -> the words naming it
        for folded, (attr, value) in defn.classes.items():
            if attr is not None:
                self.aliases.setdefault((attr, value), []).append(folded)
        seen: dict = {}
        for card in defn.cards:
            for name, value in card.attrs.items():
                if isinstance(value, str):
                    seen.setdefault(name, set()).add(value)
        self.few = set()
        for name, values in seen.items():
            declared = defn.attributes.get(name)
            if (declared is not None and declared.values and len(declared.values) <= 2 * FEW) or len(values) <= FEW:
                self.few.add(name)
        # the colour attribute: of those whose values mostly name colours, the one most cards give
        carried = Counter(name for card in defn.cards for name, value in card.attrs.items()
                          if self.tone(name, value))
        named = [name for name, values in seen.items() if sum(1 for v in values if self.tone(name, v)) * 2 >= len(values)]
        self.colour_attr = max(sorted(named), key=lambda n: carried[n]) if named else None
        self.by_band: dict = {}  # (attribute, value) -> the colour most cards of that band have
        counts: dict = {}
        for card in defn.cards:
            band, tone = self.band_of(card), self.own_tone(card)
            if band[0] is not None and tone is not None:
                counts.setdefault(band, Counter())[tone] += 1
        for band, counter in counts.items():
            self.by_band[band] = max(sorted(counter), key=lambda t: counter[t])

    def tone(self, name: str, value) -> str | None:
        """The tone a value of attribute `name` names, in itself or through an alias."""
        if not isinstance(value, str):
            return None
        for word in [value, *self.aliases.get((name, value), ())]:
            found = colour_of(word)
            if found:
                return found
        return None

    def own_tone(self, card) -> str | None:
        return self.tone(self.colour_attr, card.attrs.get(self.colour_attr)) if self.colour_attr else None

    def band_of(self, card) -> tuple:
        """(attribute, value) of the card's band, or (None, its component kind): an attribute
        declaring its values first; a text attribute only in a game of one component kind,
        where the kind would say nothing."""
        hinted = self.hints[card.component].band
        if hinted and isinstance(card.attrs.get(hinted), str):
            return hinted, card.attrs[hinted]
        order = list(self.defn.components.get(card.component, [])) + list(card.attrs)
        texts = [name for name in order if name in self.few and isinstance(card.attrs.get(name), str)
                 and name != self.hints[card.component].art]  # a picture's file name says nothing
        declared = [name for name in texts if getattr(self.defn.attributes.get(name), "values", None)]
        if declared:
            return declared[0], card.attrs[declared[0]]
        if texts and len(self.defn.components) <= 1:
            return texts[0], card.attrs[texts[0]]
        return None, card.component

    def kind_colour(self, component: str) -> str:
        """The colour of a component kind (its cards' backs): from the palette's end."""
        kinds = list(self.defn.components)
        return BACKS[kinds.index(component) % len(BACKS)] if component in kinds else BACKS[0]

    def colour(self, card, band: tuple) -> str:
        found = self.hints[card.component].colours.get(str(band[1])) if band[0] is not None else None
        found = found or self.own_tone(card) or self.by_band.get(band)
        if found:
            return found
        attr, value = band
        if attr is None and value in self.defn.components:  # kinds from the palette's end: apart from values
            return PALETTE[-1 - list(self.defn.components).index(value) % len(PALETTE)]
        declared = list(self.defn.attributes[attr].values) if attr in self.defn.attributes else []
        if value in declared:
            return PALETTE[declared.index(value) % len(PALETTE)]
        return hashed(f"{attr}:{value}")


def _shown(value, r) -> str:
    """A printed value in the sheet's language: a text by its `value:` words when the vocabulary
    gives them, as the card's prose and the table's card panel say it (`Vocabulary.value_words`)."""
    if isinstance(value, bool):
        return r.w("yes" if value else "no")
    if isinstance(value, list):
        return ", ".join(_shown(v, r) for v in value)
    word = r.vocab.value_words(value) if isinstance(value, str) else None
    return word if isinstance(word, str) else str(value)


def _family(defn, name: str, value) -> str:
    """The set a word attribute's value is taken from: the attribute whose values make a class
    of it ('red' from the colour), else its own attribute's declared values."""
    found = defn.classes.get(fold(str(value)))
    return found[0] if found else name


def _speaks(defn, name: str, value) -> bool:
    """Whether a word attribute's value says what it is by itself: a value among those its
    attribute declares, or a class's name; else (a list, a free word) it is printed after its
    attribute's name ('order of peoples: ...')."""
    if isinstance(value, list):
        return False
    declared = getattr(defn.attributes.get(name), "values", None)
    return bool(declared) or fold(str(value)) in defn.classes


def faces(defn, prose, cards, players: int = 1, notes: list | None = None) -> list:
    """The faces of `cards` (of `defn`), their abilities written by `prose`: a `Face` per card,
    a `Tile` per piece of a kind the `print:` hints print as tiles; a card given to each player
    (`per_player`) is printed `players` times its copies. What a designer should know (a text
    printed in another language) is added to `notes`."""
    look = Look(defn)
    r = prose.renderer
    out = []
    missing: dict = {}  # what has no word in the sheet's language -> the names printed as they are
    lacks = (lambda what, name, kind: missing.setdefault(what, set()).add(name)
             if prose.lang != "en" and r.vocab.raw(name, kind) is None else None)
    for card in cards:
        hints = look.hints[card.component]
        kind = clean(r.vocab.noun(card.component, "component").one)
        kind = kind[:1].upper() + kind[1:]
        copies = max(0, card.copies) * (players if card.per_player else 1)
        if hints.tile is not None:
            tile = _tile(card, hints, look, r, kind, copies)
            values = card.attrs.get(hints.tile.get("cells"))
            for value in values if isinstance(values, list) else [values] if isinstance(values, str) else []:
                if prose.lang != "en" and fold(str(value)) not in defn.classes and r.vocab.raw(value, "value") is None:
                    missing.setdefault("values", set()).add(str(value))
            out.append(tile)
            continue
        lacks("component kinds", card.component, "component")  # on its band or its back
        band = look.band_of(card)
        label = _shown(band[1], r) if band[0] is not None else kind
        kinds, figures = [], {}
        # words that each say what they are by themselves ('red'), unless a card has several of one
        # kind: three colours in a row say nothing ('green · blue · red'), each follows its name
        families = Counter(_family(defn, name, value) for name, value in card.attrs.items()
                           if isinstance(value, str) and _speaks(defn, name, value)
                           and name not in (band[0], hints.art, hints.symbol) and name not in hints.hide)
        for name, value in card.attrs.items():
            if name == band[0] or name in hints.hide or name == hints.art:  # the picture is shown, not named
                continue
            noun = r.vocab.noun(name, "attribute").one
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                figures[name] = (clean(noun), clean(value)) + ((hints.colours[name],) if name in hints.colours else ())
            elif isinstance(value, bool):
                if value:
                    kinds.append(clean(noun))
                    lacks("attributes", name, "attribute")
            elif name != hints.symbol:
                speaks = _speaks(defn, name, value) and families[_family(defn, name, value)] < 2
                kinds.append(clean(_shown(value, r) if speaks else r.w("attribute", noun, _shown(value, r))))
                if not speaks:
                    lacks("attributes", name, "attribute")
        if hints.figures is not None:
            figures = {name: figures[name] for name in hints.figures if name in figures}
        for name in figures:
            lacks("attributes", name, "attribute")
        abilities = []  # (the keyword's words, the rest of the line with the language's colon)
        face = prose.face(card)
        for line in face:
            if line.name:
                rest = r.w("printed", line.name, line.text)[len(line.name):]
                # a language that spaces its colon ('Harbour : ...') keeps that space, unbroken
                abilities.append((clean(line.name), ("\u00a0" if rest.startswith(" ") else "") + clean(rest)))
            else:
                abilities.append(("", clean(line.text)))
        other = next((line.lang for line in face if line.lang), None)
        if other is not None and notes is not None:
            notes.append(f"{card.id}: no printed text in '{prose.lang}'; its '{other}' text is printed")
        symbols = ()
        if hints.symbol and card.attrs.get(hints.symbol) not in (None, ""):
            value = str(card.attrs[hints.symbol])
            symbols = ((_symbol_of(hints, look, card.component, value), hints.colours.get(value, INK_SYMBOL)),)
        footer = " \u00b7 ".join(x for x in (card.id, card.layer or card.set) if x)
        art = ""
        if hints.art and isinstance(card.attrs.get(hints.art), str):
            found = picture_of(card.file, card.attrs[hints.art])
            if isinstance(found, str) and notes is not None:
                notes.append(f"{card.id}: its {hints.art} is not printed: {found}")
            art = "" if isinstance(found, str) else str(found)
        out.append(Face(clean(card.id), clean(card.title), clean(label), look.colour(card, band), tuple(kinds),
                        tuple(figures.values()), tuple(abilities), clean(footer), copies, symbols, kind,
                        hints.back_colour or look.kind_colour(card.component), hints.back_title, hints.back_text, art,
                        *hints.size))
    if missing and notes is not None:
        notes.append(f"no word in '{prose.lang}' (vocabulary:) for the "
                     + "; ".join(f"{what} {', '.join(sorted(names))}" for what, names in sorted(missing.items()))
                     + ": printed as they are named")
    return out


INK_SYMBOL = "#1a1a1a"


def _symbol_of(hints, look, component, value: str) -> str:
    """The shape drawn for `value`: the hint's, else one of the shapes by the value's place
    among the values the kind's cards give."""
    if hints.symbols.get(value) in SYMBOLS:
        return hints.symbols[value]
    values = sorted({str(c.attrs.get(hints.symbol)) for c in look.defn.cards if c.component == component})
    return SYMBOLS[values.index(value) % len(SYMBOLS)] if value in values else SYMBOLS[0]


def _tile(card, hints, look, r, kind, copies) -> Tile:
    """A piece printed as a tile: a cell per value of the hint's `cells` attribute (one cell
    when it names none), each coloured by `colours` (else in the piece's colour, as a card's
    band would be), with its word and the hint's `number`."""
    tile = hints.tile
    shape = tile.get("shape") if tile.get("shape") in SHAPES else "square"
    try:
        size = min(max(float(tile.get("size", 25)), 12.0), 120.0) * MM
    except (TypeError, ValueError):
        size = 25 * MM
    values = card.attrs.get(tile.get("cells")) if isinstance(tile.get("cells"), str) else None
    values = values if isinstance(values, list) else [values] if values not in (None, "") else [None]
    number = card.attrs.get(tile.get("number"), "") if isinstance(tile.get("number"), str) else ""
    number = "" if number is None or isinstance(number, (list, dict)) else number
    base = look.colour(card, look.band_of(card))
    cells = []
    for value in values:
        if value is None:
            cells.append(("", hints.colours.get(str(card.component), base), clean(number)))
        else:
            word = clean(r.vocab.class_noun(str(value)).one if fold(str(value)) in look.defn.classes else
                         r.vocab.noun(str(value), "value").one if r.vocab.raw(str(value), "value") is not None else value)
            cells.append((word[:1].upper() + word[1:], hints.colours.get(str(value), base), clean(number)))
    return Tile(clean(card.id), clean(card.title), shape, size, tuple(cells), copies, kind)
