"""Diagnostics: what went wrong in the content, where, and how to mend it.

Every stage of the pipeline reports problems as `Diagnostic` values collected
in a `Report`; the reporters at the bottom turn a report into text (for a
person at a terminal) or JSON (for editors and CI). Results and reporters are
kept apart, as check-jsonschema does, so that a stage never prints.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from dataclasses import dataclass, field


@dataclass(frozen=True, order=True)
class Position:
    """A place in a source file; line and column count from 1."""

    path: str
    line: int = 1
    column: int = 1
    end_column: int | None = None

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Diagnostic:
    position: Position
    message: str
    hint: str | None = None
    severity: str = "error"

    def sort_key(self):
        return (self.position.path, self.position.line, self.position.column, self.message)


class ContentError(Exception):
    """Raised inside a stage to abandon one item; the caller turns it into a diagnostic."""

    def __init__(self, message: str, position: Position | None = None, hint: str | None = None):
        super().__init__(message)
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

    def error(self, position: Position, message: str, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(position, cut(message), cut(hint)))

    def warning(self, position: Position, message: str, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(position, cut(message), cut(hint), "warning"))

    def add(self, exc: ContentError, fallback: Position) -> None:
        self.error(exc.position or fallback, exc.message, exc.hint)

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


def render_text(report: Report, color: bool = False) -> str:
    """The compiler-style listing: location, message, source line, caret, hint."""
    out = []
    for d in report.sorted():
        label = d.severity
        if color:
            label = ("\033[1;31m" if d.severity == "error" else "\033[1;33m") + label + "\033[0m"
        out.append(f"{printable(d.position)}: {label}: {printable(d.message)}")
        out += excerpt(report.sources.get(d.position.path), d.position)
        if d.hint:
            out.append(f"    hint: {printable(d.hint)}")
    n = len(report.errors)
    w = len(report.diagnostics) - n
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


# Stable codes -----------------------------------------------------------------------------
#
# Each kind of diagnostic has a code that does not change from one version to the next (as
# ruff's rules do), for editors, CI filters and the errors page. A message is given its code
# by the first pattern of this table that matches it; a new kind of message gets a new row,
# and a code, once published, keeps its meaning.

CODES: tuple = (
    # code, name, pattern of the message, what it says
    ("Y001", "yaml-indentation", r"^YAML syntax error: wrong indentation", "a line indented as no block around it allows"),
    ("Y002", "yaml-tab", r"^YAML syntax error: found character '\\t'|tab character", "a tab in the indentation of a YAML file"),
    ("Y003", "yaml-syntax", r"^YAML (syntax )?error|^cannot read value", "a file YAML cannot read"),
    ("Y004", "yaml-duplicate-key", r"^duplicate key", "a key given twice in one mapping"),
    ("Y005", "yaml-encoding", r"^file is not valid UTF-8|^file holds|^cannot read file", "a file that is not UTF-8 text"),
    ("Y006", "yaml-empty", r"^file is empty", "an empty content file"),
    ("Y007", "yaml-tag", r"^unsupported YAML tag", "a YAML tag (!!python/..., !foo): content is plain data"),
    ("Y008", "yaml-shape", r"^a content file must be a mapping|^a key must be a (string|text)|^merge keys",
     "a file or a key that is not what a content file holds"),
    ("Y009", "yaml-too-large", r"^file is too large|nest more than|expands to more than|too deep|has more than \d+ values", "a file, text or number beyond the engine's limits"),
    ("S001", "unknown-key", r"unknown key '", "a key the file's schema does not have"),
    ("S002", "missing-key", r"missing (required )?key '", "a key the schema requires"),
    ("S003", "wrong-type", r"^([\w\[\].-]+: )?expected (a|an) [^,]*, found ", "a value of the wrong type"),
    ("S004", "not-allowed", r"is not allowed here; expected", "a value outside the allowed ones"),
    ("S005", "bad-identifier", r"is not a valid identifier", "an id that is not lower-case letters, digits, '-', '_'"),
    ("S006", "bad-rule-id", r"is not a rule ID", "a rule ID that does not look like SX-NEG-3"),
    ("S007", "item-count", r"expected at (least|most) \d+ items?", "a list too short or too long"),
    ("S008", "out-of-range", r"expected a number at (least|most)|must be a whole number", "a number out of range"),
    ("S009", "unknown-kind", r"^unknown kind ", "a file whose kind: is not a kind of content"),
    ("S010", "empty-text", r"expected a non-empty (string|text)", "an empty text where one is needed"),
    ("P001", "rules-indentation", r"^syntax error: .*indent", "a rules text indented wrongly"),
    ("P002", "rules-syntax", r"^syntax error", "a rules text the grammar cannot read"),
    ("N001", "unknown-zone", r"unknown zone '", "a zone the game does not declare"),
    ("N002", "unknown-counter", r"unknown counter '|unknown counter", "a counter the game does not declare"),
    ("N003", "unknown-attribute", r"unknown attribute '|names unknown attribute", "an attribute the game does not declare"),
    ("N004", "unknown-class", r"unknown class '", "a class (attribute value or tag) the game does not declare"),
    ("N005", "unknown-event", r"unknown event '", "an event the game does not declare"),
    ("N006", "unknown-window", r"unknown window '", "a window the game does not declare"),
    ("N007", "unknown-procedure", r"unknown procedure '|has no procedure '|names no procedure",
     "a procedure the game does not have"),
    ("N008", "unknown-function", r"unknown function '", "a function neither built in nor the game's"),
    ("N009", "unknown-keyword", r"^unknown keyword '", "a printed phrase that is no keyword of the game"),
    ("N010", "unknown-name", r"^unknown name '", "a name that is not bound here"),
    ("N011", "unknown-option", r"unknown option '", "an option the game does not have"),
    ("N012", "unknown-game", r"unknown game '|belongs to no game|but it is checked with game|extends game",
     "a file naming no game, or another game"),
    ("N013", "duplicate", r"^duplicate |declared by two|a second |defined twice|declared already|is both|replaced by both|value '.*' already", "an id, node or file given twice"),
    ("N014", "unknown-node", r"unknown node '", "a board edge or link to a node no board has"),
    ("N015", "bad-name", r"holds a control character|holds '|reserved name|has the name of a built-in", "a name with characters names may not hold"),
    ("N016", "unknown-component", r"unknown component kind '", "a component kind the game does not declare"),
    ("N017", "unknown-hook", r"no extension point '|cannot replace", "a hook or replacement of nothing"),
    ("N018", "unknown-card", r"no card with id '|no keyword '", "a card id or keyword named in a rule that none has"),
    ("N019", "unknown-value", r"is not a value of '", "an attribute value its attribute does not allow"),
    ("N020", "unknown-board", r"unknown board '", "a board the game does not have"),
    ("N021", "unknown-expansion", r"unknown expansion '", "an expansion the game does not have"),
    ("T001", "arity", r"takes (no|\d+) (value|argument|effect)|takes .* here|takes no value|too many values|is missing '|needs an effect",
     "a call, event or keyword given the wrong number of values"),
    ("T002", "not-a-condition", r"must be a condition", "a value where a condition (true or false) is needed"),
    ("T003", "wrong-type", (r"must be (a|an) |works on|compares numbers|must be a number|must be a name|is not a number|must be true or false|cannot index|cannot set|say whose|only a name, an attribute|"
                            r"is kept per .*, not by|is of (a|an|none).*, not of"),
     "a value of the wrong type in a rules text"),
    ("T004", "unbound", r"is read before it is given a value|may have no value here", "a name read before it has a value"),
    ("T005", "loop-control", r"outside a loop", "break or continue outside a loop"),
    ("T006", "recursion", r"in terms of itself|call each other", "keywords or functions defined in terms of themselves"),
    ("T007", "number-too-large", r"^number too large", "a number beyond what a game keeps"),
    ("T008", "useless", r"it would do nothing|is never|unreachable statement|never runs", "something written that can have no effect"),
    ("T009", "text-not-filled", r"stays as written: braces are filled in only",
     "a text with {expressions} passed on as a value, never filled in where it is shown"),
    ("D001", "players", r"is for \d+ to \d+ players|players\.(min|max)|seat", "a player count or seat out of range"),
    ("D002", "counter-bounds", r"counter '.*' (starts|has a min)|supply", "counter bounds or supplies that do not fit"),
    ("D003", "option-value", r"^option '.*' (is|defaults) ", "an option given a value of the wrong kind"),
    ("D004", "declaration", r"unknown scope|unknown data table|not a zone of each player|needs the game to name|drawn as '\w+' needs",
     "a declaration the rules need that is missing or of the wrong kind"),
    ("D005", "never-in-a-zone", r"never enters? a zone", "cards that no start: zone, rule or power ever puts in a zone (a warning)"),
    ("D006", "no-way-to-win", r"has no way to win", "a game that keeps a score but whose rules never say 'win' (a warning)"),
    ("D007", "missing-sheet", r"has no sheet for ", "a scenario with sheets per character that lacks the sheet of one"),
    ("F001", "misplaced-file", r"inside an expansion|expansion file in a game's own folder|no game file|no such file|"
     r"^no such game", "a file or folder where no content of its kind can be"),
    ("K001", "keyword-pattern", r"keyword pattern|is an ability, not an effect|^expected a keyword",
     "a keyword pattern that is not a keyword as printed"),
    ("C001", "cannot-compile", r"^cannot compile", "content that checks but that the compiler refuses (an engine fault)"),
    ("W001", "printed-text", r"printed text \(", "a keyword's printed text that says other than its rules"),
    ("W002", "no-face", r"has no printed face", "a card ability with neither printed text nor prose that fits a card's face"),
    ("E000", "other", r"", "any other diagnostic (reported so that it can be given a code of its own)"),
)
_CODE_PATTERNS = tuple((code, re.compile(pattern)) for code, _name, pattern, _what in CODES)


@lru_cache(maxsize=4096)
def code_of(message: str) -> str:
    """The stable code of a diagnostic, from its message (see CODES)."""
    for code, pattern in _CODE_PATTERNS:
        if pattern.search(message):
            return code
    return "E000"


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
    items = [
        {
            "path": d.position.path,
            "line": d.position.line,
            "column": d.position.column,
            "end_line": end[0],
            "end_column": end[1],
            "severity": d.severity,
            "code": code_of(d.message),
            "message": d.message,
            "hint": d.hint,
        }
        for d in report.sorted()
        for end in [end_of(d.position, report.sources.get(d.position.path))]
    ]
    text = json.dumps({"files_checked": report.files_checked, "errors": len(report.errors),
                       "diagnostics": items}, ensure_ascii=False, indent=2)
    # such a character can only stand inside a string, where its \\u escape means the same
    return _JSON_UNSHOWABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class LoadError(Exception):
    """The content has errors: the report says which."""

    def __init__(self, report: Report):
        super().__init__(render_text(report))
        self.report = report
