"""Text broken into lines for a terminal, never between words that are read together.

Python's `textwrap` breaks at any space. A sheet or a card's text then reads « vous
marquez 1 » with « PP. » alone on the next line, or « Condition personnelle » with its « : »
below it. `wrap` breaks as `textwrap.wrap` does (words never cut, hyphens never a break),
except at these spaces:

- after a number, before the word it counts ('1 PP', '3 Credits');
- before the French closing punctuation that takes a space (: ; ! ? ») and after «.

The spaces written are plain ones: only where a line may break changes. The card faces'
layout (printing.cardlayout) keeps the same words together.
"""
from __future__ import annotations

import re
import textwrap

GLUE = "\u00a0"  # a space no line breaks at (textwrap's and the card faces'), written back as a plain one
_KEPT = re.compile(r"(?<=\d) (?=\w)| (?=[:;!?»](?:\s|$))|(?<=«) ")


def glued(text: str) -> str:
    """`text` with each space no line should break at written as GLUE (see the module)."""
    return _KEPT.sub(GLUE, text)


def wrap(text: str, width: int, initial_indent: str = "", subsequent_indent: str = "") -> list:
    """`text` broken between words into lines of at most `width` columns (a word longer than a
    line is left whole), never between a number and what it counts nor before or after
    punctuation that the language writes with a space."""
    if GLUE in text:  # a text that has its own: kept as written
        return textwrap.wrap(text, width=width, initial_indent=initial_indent, subsequent_indent=subsequent_indent,
                             break_long_words=False, break_on_hyphens=False)
    return [line.replace(GLUE, " ") for line in
            textwrap.wrap(glued(text), width=width, initial_indent=initial_indent, subsequent_indent=subsequent_indent,
                          break_long_words=False, break_on_hyphens=False)]
