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

from rich.table import Table
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


class WordTable(Table):
    """A rich table that never breaks a word across lines ('Les Chaman/es d'Erti/s' at 80
    columns): when it is drawn, each column is at least as wide as the longest word of its
    header and cells, so that rich wraps its cells between words only. When that is wider than
    the terminal, the table gives up its outer edges, then the padding inside its cells; only
    a table that still does not fit folds its words (rather than lose columns)."""

    def __rich_console__(self, console, options):
        cells = [[_plain(c) for c in (column.header, *column._cells)] for column in self.columns]
        least = [max((len(w) for c in col for w in c.split()), default=1) for col in cells]
        most = [max((len(line) for c in col for line in c.splitlines() or [""]), default=1) for col in cells]
        most = [max(a, b) for a, b in zip(least, most)]
        # how narrow a column goes before its values wrap: a long header ('stars from capabilities'
        # over '1.00') wraps first, a name in the cells ('The Merchants of the Port') last
        values = [max([least[i]] + [len(line) for c in col[1:] for line in c.splitlines()])
                  for i, col in enumerate(cells)]
        n = len(self.columns)
        for narrower in ({}, {"show_edge": False}, {"show_edge": False, "padding": (0, 0)}):
            for key, value in narrower.items():
                setattr(self, key, value)
            pad = 0 if tuple(self.padding) == (0, 0, 0, 0) or self.padding == (0, 0) else 2
            room = options.max_width - (n + 1 if self.show_edge else n - 1) - pad * n
            if sum(least) <= room:
                widths = list(most)
                while sum(widths) > room:  # narrow the column with the most room to give, by one
                    headed = [i for i in range(n) if widths[i] > values[i]]
                    floor = values if headed else least
                    k = max(headed or range(n), key=lambda i: widths[i] - floor[i])
                    widths[k] -= 1
                for column, width in zip(self.columns, widths):
                    column.width = width
                break
        yield from super().__rich_console__(console, options)


def _plain(cell) -> str:
    return cell.plain if isinstance(cell, Text) else str(cell)
