"""Go to definition: from a keyword used on a card, a procedure called, a function, a card
id, a zone or a counter, to the file and line that define it.
"""
from __future__ import annotations

import os

from ..content.model import GameDef
from ..diagnostics import Position
from .lookup import find


def definition(defn: GameDef, findings, path: str, lines: list[str], line: int, column: int
               ) -> tuple[str, int, int] | None:
    """Where the name at (line, column) of file `path` is defined: an absolute path, a line
    and a column (from 0); None when it names nothing the game defines."""
    found = find(defn, findings, path, lines, line, column) if defn is not None else None
    if found is None:
        return None
    return location(found.pos)


def location(pos: Position) -> tuple[str, int, int]:
    return os.path.abspath(pos.path), max(0, pos.line - 1), max(0, pos.column - 1)
