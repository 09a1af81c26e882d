"""What a colour word of content names: the tone sheets and the table draw for it.

A game says its colours in its own words ('Rouge', 'black', '#c62828'); `colour_of`
gives the print-friendly tone of such a word, in English or French, or of a hex
code, and `luminance` tells a light tone from a dark one (to write on it in black
or in white).
"""
from __future__ import annotations

import re

from ..names import fold

# print-friendly tones of the colour words a game may use (English and French)
TONES = {
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
_HEX = re.compile(r"#(?:[0-9a-fA-F]{3}){1,2}")


def colour_of(word) -> str | None:
    """The tone of a colour word or '#rgb'/'#rrggbb', or None."""
    text = str(word).strip()
    if _HEX.fullmatch(text):
        return "#" + "".join(c * 2 for c in text[1:]).lower() if len(text) == 4 else text.lower()
    return TONES.get(fold(text))


def luminance(colour: str) -> float:
    """How light a '#rrggbb' tone is, from 0 (black) to 1 (white)."""
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b
