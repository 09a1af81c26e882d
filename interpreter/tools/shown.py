"""Content on the terminal: shown as text, never obeyed.

Titles, labels, attribute values and messages come from content, which is
untrusted. Everything the commands print goes through `diagnostics.printable`
(control characters, such as the ESC that starts a terminal's escape
sequences, shown as escapes like '\\x1b'): printed lines directly, rich's
tables as `text(...)`, which rich never reads markup ('[/]', '[bold]') or
emoji codes in, and the prints of code that writes to a stream through a
`PrintableStream`.
"""
from __future__ import annotations

from rich.text import Text

from ..diagnostics import printable


def text(value, style: str = "") -> Text:
    """A string holding content, for rich: escaped, and plain text rather than markup."""
    return Text(printable(value), style=style)


class PrintableStream:
    """A text stream that escapes the control characters written to it, line feeds but."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, s: str) -> int:
        return self.stream.write(printable(s, lines=True))

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return self.stream.isatty()


def printable_stream(stream):
    """`stream`, escaping what is written to it (once: a stream that already does is kept)."""
    return stream if isinstance(stream, PrintableStream) else PrintableStream(stream)
