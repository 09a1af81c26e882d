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
  printed text, else each printed keyword's words and text, else prose.

Text from content is cleaned (`clean`): control and format characters become
U+FFFD, so no title can break the XML of an SVG or the text of a PDF.
"""
from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

from ..names import fold

FEW = 8  # a text attribute with at most this many values over the cards can be a band
MAX_TEXT = 4000  # characters of one text kept; a card could not show more

# print-friendly tones of the colour words a game may use (English and French)
_TONES = {
    "red": "#c62828", "green": "#2e7d32", "blue": "#1565c0", "yellow": "#f4c20d", "black": "#212121",
    "white": "#ffffff", "grey": "#9e9e9e", "gray": "#9e9e9e", "orange": "#ef6c00", "purple": "#6a1b9a",
    "violet": "#7e57c2", "pink": "#d81b60", "brown": "#6d4c41", "cyan": "#00acc1", "magenta": "#c2185b",
    "gold": "#c9a227", "silver": "#b0b0b0", "teal": "#00897b", "navy": "#1a237e", "turquoise": "#26a69a",
    "indigo": "#3949ab", "beige": "#d7ccc8", "lime": "#9ccc65", "olive": "#827717", "maroon": "#7b1f1f",
    "rouge": "#c62828", "vert": "#2e7d32", "verte": "#2e7d32", "bleu": "#1565c0", "bleue": "#1565c0",
    "jaune": "#f4c20d", "noir": "#212121", "noire": "#212121", "blanc": "#ffffff", "blanche": "#ffffff",
    "gris": "#9e9e9e", "grise": "#9e9e9e", "rose": "#d81b60", "marron": "#6d4c41", "brun": "#6d4c41",
    "or": "#c9a227", "argent": "#b0b0b0",
}
# bands whose values name no colour: distinct tones, taken in turn
PALETTE = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
           "#9c755f", "#bab0ac")
_HEX = re.compile(r"#(?:[0-9a-fA-F]{3}){1,2}")
_UNPRINTABLE = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


@dataclass(frozen=True)
class Face:
    """One card as printed: `copies` faces of it go on the sheets."""
    id: str
    title: str
    band: str
    colour: str  # '#rrggbb'
    kinds: tuple  # the words of its other attributes ('Building', 'blue')
    figures: tuple  # (label, value) of its numbers
    abilities: tuple  # (printed name or '', what it does)
    footer: str
    copies: int


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


def colour_of(word) -> str | None:
    """The tone of a colour word or '#rgb'/'#rrggbb', or None."""
    text = str(word).strip()
    if _HEX.fullmatch(text):
        return "#" + "".join(c * 2 for c in text[1:]).lower() if len(text) == 4 else text.lower()
    return _TONES.get(fold(text))


def hashed(value: str) -> str:
    """A tone of `PALETTE` for a value, the same on every machine and every run."""
    digest = hashlib.sha256(str(value).encode("utf-8", "replace")).digest()
    return PALETTE[digest[0] % len(PALETTE)]


def luminance(colour: str) -> float:
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b


class Look:
    """How the cards of one pack are read: which attribute makes the band, which names colours."""

    def __init__(self, defn):
        self.defn = defn
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
        order = list(self.defn.components.get(card.component, [])) + list(card.attrs)
        texts = [name for name in order if name in self.few and isinstance(card.attrs.get(name), str)]
        declared = [name for name in texts if getattr(self.defn.attributes.get(name), "values", None)]
        if declared:
            return declared[0], card.attrs[declared[0]]
        if texts and len(self.defn.components) <= 1:
            return texts[0], card.attrs[texts[0]]
        return None, card.component

    def colour(self, card, band: tuple) -> str:
        found = self.own_tone(card) or self.by_band.get(band)
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
    if isinstance(value, bool):
        return r.w("yes" if value else "no")
    if isinstance(value, list):
        return ", ".join(_shown(v, r) for v in value)
    return str(value)


def faces(defn, prose, cards, players: int = 1) -> list:
    """The faces of `cards` (of `defn`), their abilities written by `prose`; a card given to
    each player (`per_player`) is printed `players` times its copies."""
    look = Look(defn)
    r = prose.renderer
    out = []
    for card in cards:
        band = look.band_of(card)
        label = band[1] if band[0] is not None else r.vocab.noun(card.component, "component").one
        kinds, figures = [], []
        for name, value in card.attrs.items():
            if name == band[0]:
                continue
            noun = r.vocab.noun(name, "attribute").one
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                figures.append((clean(noun), clean(value)))
            elif isinstance(value, bool):
                if value:
                    kinds.append(clean(noun))
            else:
                kinds.append(clean(_shown(value, r)))
        abilities = []  # (the keyword's words, the rest of the line with the language's colon)
        for line in prose.face(card):
            if line.name:
                whole = r.w("printed", line.name, line.text)
                abilities.append((clean(line.name), clean(whole[len(line.name):])))
            else:
                abilities.append(("", clean(line.text)))
        footer = " \u00b7 ".join(x for x in (card.id, card.layer or card.set) if x)
        copies = max(0, card.copies) * (players if card.per_player else 1)
        out.append(Face(clean(card.id), clean(card.title), clean(label), look.colour(card, band), tuple(kinds),
                        tuple(figures), tuple(abilities), clean(footer), copies))
    return out
