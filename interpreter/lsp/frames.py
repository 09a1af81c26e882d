"""The messages an editor sends, read so that a malformed one cannot stop the server.

A message of the protocol is a few header lines, an empty line, then as many bytes of JSON as
its `Content-Length` header says. pygls reads them itself, trusting that header: without one
(or with one it does not read) it waits for good on a length that never comes, and it reads a
length of a terabyte by asking for all of it at once. `Frames` stands between the raw input and
pygls' `start_io`: it reads the headers, and hands on only well-formed messages of at most
MAX_MESSAGE bytes, each as a `Content-Length` header and its body. A message whose length is
missing, not a number, zero or too large is dropped, `dropped` is told why, and the input is
read on, in lines of bounded size, to the next `Content-Length:`, where the next message starts.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import BinaryIO

MAX_MESSAGE = 16 * 1024 * 1024  # bytes of one message: four times the largest content file, as JSON
MAX_LINE = 4096  # bytes of one header line; more is not a header
MARK = b"Content-Length:"
_HEADER = re.compile(rb"([A-Za-z0-9-]+):[ \t]*(.*?)[ \t]*\r?\n")
_LENGTH = re.compile(rb"[0-9]+")


class Frames:
    """A binary input, as pygls' `start_io` reads one (`readline`, `read`), that gives the
    well-formed messages of `raw`, and none of the others."""

    def __init__(self, raw: BinaryIO, dropped: Callable[[str], None]):
        self.raw = raw
        self.dropped = dropped  # told, in a few words, why a message was dropped
        self.ahead = b""  # read while looking for the next message: where its header starts
        self.header: list[bytes] = []  # the lines of the header pygls is yet to read

    def readline(self) -> bytes:
        if not self.header:
            length = self._next_length()
            if length is None:
                return b""  # the input has ended: so does the server
            self.header = [b"Content-Length: %d\r\n" % length, b"\r\n"]
        return self.header.pop(0)

    def read(self, size: int) -> bytes:
        # pygls asks for the length the header it was given says, never more than MAX_MESSAGE
        size = min(size, MAX_MESSAGE)
        body, self.ahead = self.ahead[:size], self.ahead[size:]
        if len(body) < size:
            body += self.raw.read(size - len(body))
        cut = _cut_short(body)
        if cut is not None:  # the body ended early: what follows is the next message, kept for it
            self.dropped("a message's body is shorter than its Content-Length")
            self.ahead = body[cut:] + self.ahead
            body = body[:cut]
        return body

    def _line(self) -> bytes:
        """The next line of the input, of MAX_LINE bytes at most (cut there when longer)."""
        end = self.ahead.find(b"\n", 0, MAX_LINE)
        if end >= 0:  # a whole line read ahead
            line, self.ahead = self.ahead[:end + 1], self.ahead[end + 1:]
            return line
        line, self.ahead = self.ahead[:MAX_LINE], self.ahead[MAX_LINE:]
        if len(line) < MAX_LINE:
            line += self.raw.readline(MAX_LINE - len(line))
        return line

    def _next_length(self) -> int | None:
        """The length of the next well-formed message, its header read; None at the end."""
        lengths: set[bytes] = set()
        started = False
        while True:
            line = self._line()
            if not line:
                return None
            if line in (b"\r\n", b"\n"):
                if not started:
                    continue  # an empty line between two messages
                length, why = _length(lengths)
                if why is None:
                    return length
                self.dropped(why)
                self._skip(b"")  # its body, which no length measures
            elif (header := _HEADER.fullmatch(line)) is not None:
                started = True
                if header.group(1).lower() == b"content-length" and len(lengths) < 2:  # two are too many
                    lengths.add(header.group(2))
                continue
            else:  # what is left of a message, or noise
                self.dropped("a message's header does not read")
                self._skip(line)
            lengths, started = set(), False

    def _skip(self, data: bytes) -> None:
        """Read on to the next `Content-Length:` after the start of `data` (read already)."""
        at = data.find(MARK, 1)  # not at 0: the line that does not read may start with it
        while at < 0:
            chunk = self.raw.readline(MAX_LINE)
            if not chunk:
                return  # the end: the next line read is empty
            data = data[-(len(MARK) - 1):] + chunk  # a mark cut in two by the end of a read
            at = data.find(MARK)
        self.ahead = data[at:]


_NEXT = re.compile(rb"\r?\n?Content-Length:[ \t]*[0-9]+[ \t]*\r?\n")


def _cut_short(body: bytes) -> int | None:
    """Where the next message starts inside `body`, when the length told was not the body's;
    None when `body` is one whole message (JSON, whatever text it holds) or no message at all.

    Told too much, the body read is a whole JSON value followed by the start of the next
    message's header (as little as its first byte); told too little, or cut short, it is no
    JSON and holds the next message's `Content-Length` line."""
    try:
        json.loads(body)
        return None
    except (ValueError, RecursionError):
        pass
    try:
        text = body.decode("utf-8")
        _, end = json.JSONDecoder().raw_decode(text)
        end = len(text[:end].encode("utf-8"))
    except (ValueError, RecursionError):
        end = None
    if end is not None:
        rest = body[end:].lstrip(b" \t\r\n")
        if rest and (rest.startswith(MARK) or MARK.startswith(rest[:len(MARK)])):
            return len(body) - len(rest)
    found = _NEXT.search(body, 1)
    return body.index(MARK, found.start()) if found is not None else None


def _length(lengths: set[bytes]) -> tuple[int, str | None]:
    """The length of a message's body its `Content-Length` headers give, or why there is none."""
    if not lengths:
        return 0, "a message has no Content-Length"
    if len(lengths) > 1:
        return 0, "a message has two different Content-Length headers"
    (value,) = lengths
    if not _LENGTH.fullmatch(value):
        return 0, f"a message's Content-Length is not a length: {value[:20].decode('ascii', 'replace')!r}"
    digits = value.lstrip(b"0")
    if len(digits) > len(str(MAX_MESSAGE)) or int(digits or b"0") > MAX_MESSAGE:
        shown = value[:20].decode() + ("..." if len(value) > 20 else "")
        return 0, f"a message is larger than {MAX_MESSAGE // (1024 * 1024)} MiB (Content-Length: {shown})"
    if not digits:
        return 0, "a message's Content-Length is 0"
    return int(digits), None
