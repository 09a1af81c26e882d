"""Diagnostics: what went wrong in the content, where, and how to mend it.

Every stage of the pipeline reports problems as `Diagnostic` values collected
in a `Report`; the reporters at the bottom turn a report into text (for a
person at a terminal) or JSON (for editors and CI). Each diagnostic carries the
stable code of its kind (interpreter.codes), given where it is raised. Results and reporters are
kept apart, as check-jsonschema does, so that a stage never prints.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from dataclasses import dataclass, field

from .codes import known_code


@dataclass(frozen=True, order=True, slots=True)
class Position:
    """A place in a source file; line and column count from 1. Slots, not a dict of fields: a
    check makes one for every value of every file and every node of every rules text (half the
    memory, measured: 104 bytes rather than 208)."""

    path: str
    line: int = 1
    column: int = 1
    end_column: int | None = None

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"

    def __reduce__(self):
        # pickled as its four fields, made again through its slots: the dataclass's own
        # __getstate__ and __setstate__ walk its fields in Python, and a warm start's store
        # pickles tens of thousands of positions (a third of the time a first start took to
        # write it)
        return position, (self.path, self.line, self.column, self.end_column)


def position(path: str, line: int, column: int, end_column: int | None = None) -> Position:
    """`Position(path, line, column, end_column)`, made faster: a position is a frozen dataclass,
    whose __init__ sets each field through object.__setattr__, and a check makes one for every
    value of every file and every node of every rules text (and a warm start unpickles them).
    Same class, same fields, each set through its slot."""
    made = _new_object(Position)
    _set_path(made, path)
    _set_line(made, line)
    _set_column(made, column)
    _set_end(made, end_column)
    return made


_new_object = object.__new__
_set_path, _set_line, _set_column, _set_end = (Position.path.__set__, Position.line.__set__, Position.column.__set__,
                                               Position.end_column.__set__)


@dataclass(frozen=True)
class Diagnostic:
    position: Position
    message: str
    hint: str | None = None
    severity: str = "error"
    code: str = "E000"  # the stable code of its kind (interpreter.codes), set where it is raised

    def sort_key(self):
        return (self.position.path, self.position.line, self.position.column, self.message)


class ContentError(Exception):
    """Raised inside a stage to abandon one item; the caller turns it into a diagnostic."""

    def __init__(self, code: str, message: str, position: Position | None = None, hint: str | None = None):
        """`code`: the code of the diagnostic it becomes (interpreter.codes)."""
        super().__init__(message)
        self.code = known_code(code)
        self.message = message
        self.position = position
        self.hint = hint


MAX_MESSAGE = 1000  # characters of a message or a hint: content may name things of any length


def cut(text: str | None, most: int = MAX_MESSAGE) -> str | None:
    """`text`, cut to `most` characters (an ellipsis ending what is cut): a message quoting a
    name a megabyte long stays a message."""
    if text is None or len(text) <= most:
        return text
    return text[:most - 1] + "…"


@dataclass
class Report:
    """All diagnostics of one run, and the text of every file they point into."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)
    checked: set = field(default_factory=set)  # the paths of the files read

    @property
    def files_checked(self) -> int:
        """How many files were read (a file read twice, with a game alone and with its
        expansions, counts once)."""
        return len(self.checked)

    def error(self, code: str, position: Position, message: str, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(position, cut(message), cut(hint), "error", known_code(code)))

    def warning(self, code: str, position: Position, message: str, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(position, cut(message), cut(hint), "warning", known_code(code)))

    def add(self, exc: ContentError, fallback: Position) -> None:
        self.error(exc.code, exc.position or fallback, exc.message, exc.hint)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def ok(self) -> bool:
        return not self.errors

    def sorted(self) -> list[Diagnostic]:
        seen, out = set(), []
        for d in sorted(self.diagnostics, key=Diagnostic.sort_key):
            key = (d.position, d.message)
            if key not in seen:
                seen.add(key)
                out.append(d)
        return out


LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")


def lines_of(text: str) -> list[str]:
    """The lines of a content file as YAML counts them (and so every position): broken at
    '\r\n', '\r', '\n', NEL, U+2028 and U+2029, unlike str.splitlines, which breaks at more."""
    lines = LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


# What content may hold but a terminal must never receive raw: C0 and C1 controls (ESC starts
# the sequences that move the cursor, recolour or clear the screen; \r and \b overwrite what
# was printed), DEL, the line and paragraph separators, and the bidirectional controls that
# reorder what is shown (U+202E writes the rest of a line backwards).
_UNSHOWABLE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_UNSHOWABLE_BUT_LINES = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def control_character(text: str) -> str | None:
    """The first character of `text` that a terminal must not receive raw (see above), or None."""
    m = _UNSHOWABLE.search(text)
    return m.group() if m else None


def _escaped(m) -> str:
    c = ord(m.group())
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


def printable(text, lines: bool = False) -> str:
    """`text` safe to print on a terminal: each control character shown as its escape
    ('\\x1b', '\\u202e'), so that content never moves the cursor, recolours or rewrites the
    screen. With `lines`, line feeds are kept (for text of several lines)."""
    text = str(text)
    return (_UNSHOWABLE_BUT_LINES if lines else _UNSHOWABLE).sub(_escaped, text)


def plural(k: int, word: str) -> str:
    """'1 argument', '2 arguments': a count in a message."""
    return f"{k} {word}{'s' if k != 1 else ''}"


@lru_cache(maxsize=16)
def _lines(text: str) -> tuple:
    return tuple(lines_of(text))  # once per file, not once per diagnostic


def source_line(text: str | None, line: int) -> str | None:
    if text is None:
        return None
    lines = _lines(text)
    if 1 <= line <= len(lines):
        return lines[line - 1]
    return None


def _errors(shown: list) -> int:
    """The errors among the diagnostics listed (`Report.sorted`): what is listed is counted, and a
    message said at one place in two packs, with each pack's own hint, is listed once."""
    return sum(1 for d in shown if d.severity == "error")


def render_text(report: Report, color: bool = False) -> str:
    """The compiler-style listing: location, message, source line, caret, hint."""
    out = []
    shown = report.sorted()
    for d in shown:
        label = f"{d.severity}[{d.code}]"
        if color:
            label = ("\033[1;31m" if d.severity == "error" else "\033[1;33m") + label + "\033[0m"
        out.append(f"{printable(d.position)}: {label}: {printable(d.message)}")
        out += excerpt(report.sources.get(d.position.path), d.position)
        if d.hint:
            out.append(f"    hint: {printable(d.hint)}")
    n = _errors(shown)
    w = len(shown) - n
    summary = f"{report.files_checked} file{'s' if report.files_checked != 1 else ''} checked: "
    summary += f"{n} error{'s' if n != 1 else ''}"
    if w:
        summary += f", {w} warning{'s' if w != 1 else ''}"
    out.append(summary)
    return "\n".join(out)


MAX_SHOWN = 160  # characters of a source line shown around the column of a diagnostic


def excerpt(text: str | None, position: Position, indent: str = "    ") -> list[str]:
    """The line of file text `text` that `position` points into, and a caret under its span
    (two lines, escaped and cut to be printed); none when the line cannot be read."""
    src = source_line(text, position.line)
    if src is None:
        return []
    shown = src.expandtabs(1)
    col = max(1, position.column)
    width = 1
    if position.end_column and position.end_column > col:
        width = position.end_column - col
    width = max(1, min(width, max(1, len(shown) - col + 1)))
    shown, col, width = _window(shown, col, width)
    shown, col, width = _escaped_line(shown, col, width)
    return [indent + shown, indent + " " * (col - 1) + "^" + "~" * (width - 1)]


def _window(line: str, col: int, width: int) -> tuple[str, int, int]:
    """A long source line cut to MAX_SHOWN characters around `col`, with the caret moved to match."""
    if len(line) <= MAX_SHOWN:
        return line, col, width
    start = max(0, min(col - 1 - MAX_SHOWN // 3, len(line) - MAX_SHOWN))
    end = start + MAX_SHOWN
    before = "..." if start > 0 else ""
    after = "..." if end < len(line) else ""
    col = col - start + len(before)
    shown = before + line[start:end]
    width = max(1, min(width, len(shown) - col + 1))
    return shown + after, col, width


def _escaped_line(line: str, col: int, width: int) -> tuple[str, int, int]:
    """A source line with its control characters escaped, the caret moved to stay under the
    same characters."""
    before, span, after = line[:col - 1], line[col - 1:col - 1 + width], line[col - 1 + width:]
    before, span = printable(before), printable(span)
    return before + span + printable(after), len(before) + 1, max(1, len(span))


def end_of(position: Position, source: str | None) -> tuple[int, int]:
    """Where a diagnostic's range ends (line, column just after it): its own end when it has
    one, else the end of the word at its column (one character at least)."""
    if position.end_column is not None and position.end_column > position.column:
        return position.line, position.end_column
    lines = lines_of(source) if source else []
    if 0 < position.line <= len(lines):
        word = re.match(r"[\w'-]+", lines[position.line - 1][position.column - 1:])
        if word:
            return position.line, position.column + len(word.group())
    return position.line, position.column + 1


# JSON escapes C0 controls itself; these it would leave raw, as ensure_ascii=False keeps accents
_JSON_UNSHOWABLE = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def render_json(report: Report) -> str:
    shown = report.sorted()
    items = [
        {
            "path": d.position.path,
            "line": d.position.line,
            "column": d.position.column,
            "end_line": end[0],
            "end_column": end[1],
            "severity": d.severity,
            "code": d.code,
            "message": d.message,
            "hint": d.hint,
        }
        for d in shown
        for end in [end_of(d.position, report.sources.get(d.position.path))]
    ]
    text = json.dumps({"files_checked": report.files_checked, "errors": _errors(shown),
                       "diagnostics": items}, ensure_ascii=False, indent=2)
    # such a character can only stand inside a string, where its \\u escape means the same
    return _JSON_UNSHOWABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class LoadError(Exception):
    """The content has errors: the report says which."""

    def __init__(self, report: Report):
        super().__init__(render_text(report))
        self.report = report
