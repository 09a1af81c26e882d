"""Columns as the editor counts them, each line measured once however many positions it holds.

regles counts a column in characters; an editor counts it in the units the two agreed on
(UTF-16 unless told otherwise: a character past U+FFFF counts two). pygls' codec converts
one position at a time and reads its line from the start each time, so that thousands of
problems on one long line would read it thousands of times. `Columns` reads a line once,
the first time a position falls on it, and counts with the codec's own measure of a string.
"""
from __future__ import annotations

from collections.abc import Callable
from itertools import accumulate


class Columns:
    """The positions of one text (its `lines`) in the editor's units (`units`: how many of them
    a string takes, as pygls' `PositionCodec.client_num_units` says)."""

    def __init__(self, lines: list[str], units: Callable[[str], int]):
        self.lines = lines
        self.units = units
        self.ends: dict[int, list[int] | None] = {}  # line -> units before each of its characters; None: one each

    def at(self, line: int, column: int) -> tuple[int, int]:
        """(line, column) from 0 as the editor counts them; a column past its line's end is
        its end, and a line past the text is left as it is."""
        if not 0 <= line < len(self.lines):
            return line, column
        if line not in self.ends:
            text = self.lines[line]
            self.ends[line] = None if text.isascii() else list(accumulate(map(self.units, text), initial=0))
        ends = self.ends[line]
        if ends is None:
            return line, min(column, len(self.lines[line]))
        return line, ends[min(max(column, 0), len(ends) - 1)]
