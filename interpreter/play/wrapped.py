"""Lines broken between words at the terminal's width.

A terminal cuts a long line wherever its width falls ('Harbour of the N' and 'orth' on
two rows). What is written to a terminal through `wrapped(out)` is broken between
words instead, each row after the first indented four spaces under its line's own
indent, so a list of zone contents stays readable as a block. Output that is not a
terminal (a pipe, a file, a test's buffer) is returned as it is: a saved transcript
keeps one line per line.
"""
from __future__ import annotations

import shutil

from ..view.lines import wrap

NARROWEST = 40  # below this a terminal is too narrow to break lines usefully


class Wrapped:
    """A text stream writing whole lines to `out`, each broken at `width` columns. A line not
    yet ended (a prompt waiting for its answer) is written as it is when flushed."""

    def __init__(self, out, width: int):
        self.out, self.width = out, width
        self.pending = ""

    def write(self, text: str) -> int:
        lines = (self.pending + text).split("\n")
        self.pending = lines.pop()
        for line in lines:
            self.out.write(broken(line, self.width) + "\n")
        return len(text)

    def flush(self) -> None:
        if self.pending:
            self.out.write(self.pending)
            self.pending = ""
        self.out.flush()

    def isatty(self) -> bool:
        return True


def broken(line: str, width: int) -> str:
    """`line` broken between words into rows of at most `width` columns (a word longer than a
    row is left whole), the rows after the first indented under the line's text."""
    if len(line) <= width:
        return line
    indent = " " * (len(line) - len(line.lstrip(" ")) + 4)
    return "\n".join(wrap(line, width, "", indent)) or line


def wrapped(out, width: int | None = None):
    """`out` itself when it is not a terminal (and no `width` is given); else `out` writing
    lines broken at `width`, by default the terminal's width less one column."""
    if isinstance(out, Wrapped):
        return out
    if width is None:
        try:
            if not out.isatty():
                return out
        except (AttributeError, ValueError):
            return out
        width = shutil.get_terminal_size((100, 24)).columns - 1
    return Wrapped(out, width) if width >= NARROWEST else out
