"""Stage 1, load: YAML read safely, with the position of every value kept.

`load_file` returns the document as plain Python data whose containers and
strings remember where they came from (`Node.pos`), so that every later stage
can point at a file, line and column. Only YAML's safe types are built: no
tag can construct a Python object, and nothing in a file is ever executed.
"""
from __future__ import annotations

import os
import re
from bisect import bisect_right
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

import yaml

from ..diagnostics import LINE_BREAK, ContentError, Position, lines_of, plural, position
from ..kinds import kind_of
from ..limits import MAX_NUMBER  # the largest number a content file may hold: the largest a game keeps
from ..shared_store import SharedStore
from .yaml_native import NATIVE_FROM, native_reader

try:  # libyaml is much faster where it is installed; both are safe loaders
    from yaml import CSafeLoader as _SafeLoader
except ImportError:  # pragma: no cover
    from yaml import SafeLoader as _SafeLoader

_RESOLVED_MOST = 20_000  # tags kept of short values (a check of a large pack reads millions of values,
# the same keys, words and numbers again and again; a few MB at most, the first met kept)
_RESOLVED_LONGEST = 24  # characters of the values whose tags are kept: keys, words, numbers


class _Loader(_SafeLoader):
    """The safe loader, whose choice of each value's tag (is `12` a number, `yes` a text?) is kept
    for short values: libyaml asks the Python resolver for every value of every file, and a pack
    repeats the same keys and words thousands of times. With the safe loader's fixed rules (no
    path resolvers), the tag of a plain value depends only on its text, and a quoted or block
    value is a text."""

    _resolved: dict = {}  # the text of a short plain value -> its tag

    def resolve(self, kind, value, implicit):
        if kind is _SCALAR and not self.yaml_path_resolvers:
            return plain_tag(value) if implicit[0] else _STR  # quoted, or a block: a text
        return super().resolve(kind, value, implicit)


RESOLVED_TAGS = _Loader._resolved
_RESOLVER = yaml.resolver.Resolver()  # the safe loaders' resolver


def plain_tag(value: str) -> str:
    """The tag of a plain value (no quotes, no tag written) of text `value`, as the safe loader
    gives it; kept for short values (also read by the native reader, content.yaml_native)."""
    tag = RESOLVED_TAGS.get(value)
    if tag is None:
        tag = _RESOLVER.resolve(yaml.ScalarNode, value, (True, False))
        if len(value) <= _RESOLVED_LONGEST and len(RESOLVED_TAGS) < _RESOLVED_MOST:
            RESOLVED_TAGS[value] = tag
    return tag


MAX_BYTES = 4 * 1024 * 1024
MAX_NODES = 200_000
# characters of text (keys and values) a document may hold, its aliases expanded: as much as the
# largest file could hold written out, so that an alias of a long text repeated a thousand times
# costs no more to check than the largest file
MAX_TEXT = MAX_BYTES
MAX_DEPTH = 64
_YAML = "tag:yaml.org,2002:"
_STR = _YAML + "str"
_SCALAR = yaml.ScalarNode
_MAPPING = yaml.MappingNode
_INT = _YAML + "int"
# the tags the native reader builds values of (content.yaml_native)
TAG_STR, TAG_INT, TAG_BOOL, TAG_NULL = _STR, _INT, _YAML + "bool", _YAML + "null"
PLAIN_DIGITS = len(str(MAX_NUMBER)) - 1  # a plain number of this many digits or fewer is within bounds
# The tags a content file may hold, written or implied: plain data only.
SAFE_TAGS = {_YAML + t for t in ("str", "int", "float", "bool", "null", "seq", "map", "timestamp")}
# An anchor or an alias starts a value: the start of a line, a space or an indicator ('[', '{',
# ',', ':', '-', '?') is before it, never a letter, a digit or '_' ('R&D', '2*3' are neither);
# a file where these find one is sized (_Builder.check_size), whether or not it is in a text
_ANCHOR = re.compile(r"(?<!\w)&")
_ALIAS = re.compile(r"(?<!\w)\*")
SCHEMA_COMMENT = re.compile(r"#\s*yaml-language-server:\s*\$schema=(\S+)")


class PStr(str):
    """A string from a file; `text_position` maps a place inside it back to the file. Its
    position and style are slots: a check keeps one string for every text of every file, and a
    dict of attributes cost 168 bytes each (measured), twice the string's own; the rarer fields
    are kept in a dict made only for the strings that set them."""

    __slots__ = ("pos", "style", "__dict__")
    pos: Position  # where it starts in its file
    style: str | None  # how YAML wrote it: '|' or '>' (a block), '"' or "'" (quoted), '' (plain)
    lines: int | None = None  # of a block: the column its lines start at (0-based)
    end_line: int | None = None  # the line of the file it ends on, when not the line it starts on

    def text_position(self, line: int, column: int, end_column: int | None = None) -> Position:
        """Position in the file of (line, column) counted inside this string, from 1; given the
        `end_column` of a span on that line, the position ends as far from its start."""
        base = self.pos
        if self.style in ("|", ">"):
            # block scalars start on the next line, indented by `lines[0]`
            indent = self.lines or 0
            at_line, at_column = base.line + line, indent + column
        elif line == 1:
            quote = 1 if self.style in ('"', "'") else 0
            at_line, at_column = base.line, base.column + quote + column - 1
        else:
            last = self.end_line or base.line
            if base.line + line - 1 > last:
                # the line breaks came from escapes ('\n') or folding, not from the file:
                # point at the string itself rather than past its end
                at_line, at_column = base.line, base.column
            else:
                at_line, at_column = base.line + line - 1, column
        return position(base.path, at_line, at_column,
                        None if end_column is None else at_column + (end_column - column))


class PDict(dict):
    """A mapping from a file, with where it starts and where each of its keys is."""

    __slots__ = ("pos", "key_pos", "__dict__")
    pos: Position
    key_pos: dict  # key -> Position


class PList(list):
    __slots__ = ("pos", "__dict__")
    pos: Position


class PInt(int):
    pos: Position


class PFloat(float):
    __slots__ = ("pos", "__dict__")
    pos: Position


def _pos(path: str, mark) -> Position:
    return Position(path, mark.line + 1, mark.column + 1)


class _Builder:
    """Turns a composed YAML node tree into positioned Python values."""

    def __init__(self, path: str, loader):
        self.path = path
        self.loader = loader
        self.count = 0
        self.errors: list[ContentError] = []
        self.lines: list[str] | None = None

    def check_size(self, root, text: str) -> None:
        """Refuse documents whose aliases expand to more values or text than a file may hold
        ("billion laughs"), or make a value that holds itself, before building anything. The
        composed document is sized first, each shared (aliased) value once; only when it is
        too large is the file read again to find the alias where it goes past (`_alias_at_fault`)."""
        scalar = yaml.ScalarNode
        if isinstance(root, scalar):
            return
        sizes: dict[int, tuple | None] = {}  # id of a collection -> (values, characters), aliases expanded
        opened = set()  # the collections being sized: the one being walked and those around it
        stack = [(root, False)]
        while stack:  # post-order, iteratively: each shared (aliased) node is sized once
            node, done = stack.pop()
            key = id(node)
            if done:
                values, chars = 1, 0
                for c in _children(node):  # a scalar is sized here: most values are, and need no entry
                    if isinstance(c, scalar):
                        values += 1
                        chars += len(c.value)
                    else:
                        size = sizes[id(c)]
                        values += size[0]
                        chars += size[1]
                sizes[key] = (min(MAX_NODES + 1, values), min(MAX_TEXT + 1, chars))
                opened.discard(key)
                continue
            if key in sizes:
                if key in opened:  # an alias inside the value it names
                    raise _alias_at_fault(self.path, text)
                continue
            sizes[key] = None
            opened.add(key)
            stack.append((node, True))
            stack.extend((c, False) for c in reversed(_children(node)) if not isinstance(c, scalar))
        values, chars = sizes[id(root)]
        if values > MAX_NODES or chars > MAX_TEXT:
            raise _alias_at_fault(self.path, text)

    def build(self, node, depth: int = 0):
        """The positioned value of `node` and of what it holds. The cases are tested in the order
        of their frequency (a check of a large pack builds millions of values): a text, a mapping,
        a plain whole number, a sequence, the rest; each value sets only the fields that differ
        from its class's defaults."""
        self.count += 1
        mark = node.start_mark
        if self.count > MAX_NODES:
            raise ContentError("Y009", f"the document has more than {MAX_NODES} values",
                               _pos(self.path, mark), "split the content into several files")
        line = mark.line + 1
        pos = position(self.path, line, mark.column + 1)
        if depth > MAX_DEPTH:
            raise ContentError("Y009", f"values nest more than {MAX_DEPTH} levels deep", pos,
                               "content files hold shallow data: flatten this value")
        tag = node.tag
        kind = node.__class__
        if kind is _SCALAR:
            if tag == _STR or tag == "!":
                s = PStr(node.value)
                s.pos = pos
                s.style = style = node.style
                last = node.end_mark.line + 1
                if last != line:
                    s.end_line = last
                if style == "|" or style == ">":
                    if self.lines is None:  # cut once for all the block scalars of the file
                        self.lines = lines_of(self.loader_text)
                    s.lines = _block_indent(self.lines, node)
                return s
            if tag == _INT:
                text = node.value
                if (text.isascii() and text.isdigit() and (text[0] != "0" or len(text) == 1)
                        and len(text) <= PLAIN_DIGITS):
                    v = PInt(text)  # a plain decimal number, most numbers of a file ('012' is octal)
                    v.pos = pos
                    return v
            elif tag not in SAFE_TAGS:
                raise ContentError("Y007", f"unsupported YAML tag '{_show_tag(tag)}'", pos,
                                   "remove the tag: content files hold plain data")
            value = self._scalar(node)
            if value is None or value is True or value is False:
                return value
            if isinstance(value, int):
                if not -MAX_NUMBER <= value <= MAX_NUMBER:
                    raise _too_large_number(pos)
                v = PInt(value)
            elif isinstance(value, float):
                if value != value:
                    raise ContentError("T003", f"'{_shorten(node.value)}' is not a number", pos,
                                       "write a number, or quote the text")
                if not -MAX_NUMBER <= value <= MAX_NUMBER:  # infinities too
                    raise _too_large_number(pos)
                v = PFloat(value)
            else:  # timestamps, binary...: keep the text
                v = PStr(node.value)
                v.style = node.style
            v.pos = pos
            return v
        if tag not in SAFE_TAGS and tag != "!":
            raise ContentError("Y007", f"unsupported YAML tag '{_show_tag(tag)}'", pos,
                               "remove the tag: content files hold plain data")
        if kind is _MAPPING:
            out = PDict()
            out.pos = pos
            out.key_pos = key_pos = {}
            build = self.build
            inner = depth + 1
            for key_node, value_node in node.value:
                key_tag = key_node.tag
                if key_tag == _STR and key_node.__class__ is _SCALAR:  # most keys: a plain text
                    key = build(key_node, inner)
                else:
                    if key_tag == "tag:yaml.org,2002:merge":
                        raise ContentError("Y008", "merge keys ('<<') are not supported",
                                           _pos(self.path, key_node.start_mark), "write the keys out in full")
                    key = build(key_node, inner)
                    if isinstance(key, (int, float)) and not isinstance(key, bool):
                        # numbers as keys (player counts, levels) are read as their text, as JSON would
                        text = PStr(key_node.value)
                        text.pos, text.style = key.pos, None
                        key = text
                    if not isinstance(key, str):
                        raise ContentError("Y008", f"a key must be a text, not {kind_of(key)}",
                                           _pos(self.path, key_node.start_mark), "quote the key")
                # the key's own position is where key_node starts: no need to make another
                if key in out:
                    first = key_pos[key]
                    self.errors.append(ContentError("Y004",
                        f"duplicate key '{key}' (first defined at line {first.line})",
                        key.pos, "remove one of the two"))
                    continue
                key_pos[key] = key.pos
                out[key] = build(value_node, inner)
            return out
        build = self.build
        inner = depth + 1
        out = PList([build(v, inner) for v in node.value])  # a sequence
        out.pos = pos
        return out

    def _scalar(self, node):
        constructor = yaml.SafeLoader.yaml_constructors.get(node.tag)
        if constructor is None:
            return node.value
        try:
            return constructor(self.loader, node)
        except Exception as exc:  # a malformed scalar of a known tag
            if node.tag == _YAML + "int" and len(node.value) > 100:  # more digits than Python reads
                raise _too_large_number(_pos(self.path, node.start_mark)) from None
            raise ContentError("Y003", f"cannot read value '{_shorten(node.value)}': {_shorten(str(exc))}",
                               _pos(self.path, node.start_mark)) from None


_OPEN = object()  # what an anchor names while its collection is being read


def _alias_at_fault(path: str, text: str) -> ContentError:
    """The error of a document that its aliases make too large, or make hold itself, at the
    alias where it happens: the file read again as YAML events, the values and characters of
    text of the document counted as they come, each alias as the size of the value it names."""
    loader = _Loader(text)
    named: dict = {}  # anchor -> (values, characters) of the value it names last, or _OPEN
    collections: list = []  # (anchor, values, characters before it) of each collection being read
    values = chars = 0
    try:
        while True:
            event = loader.get_event()
            kind = type(event)
            if kind is yaml.ScalarEvent:
                values += 1
                chars += len(event.value)
                if event.anchor is not None:
                    named[event.anchor] = (1, len(event.value))
            elif kind in (yaml.SequenceStartEvent, yaml.MappingStartEvent):
                values += 1
                collections.append((event.anchor, values - 1, chars))
                if event.anchor is not None:
                    named[event.anchor] = _OPEN
            elif kind in (yaml.SequenceEndEvent, yaml.MappingEndEvent):
                anchor, values_before, chars_before = collections.pop()
                if anchor is not None:
                    named[anchor] = (values - values_before, chars - chars_before)
            elif kind is yaml.AliasEvent:
                size = named.get(event.anchor)
                if size is None:  # an alias of no anchor: the file did not compose, and said so
                    continue
                start = _pos(path, event.start_mark)
                at = Position(path, start.line, start.column, event.end_mark.column + 1)
                if size is _OPEN:
                    return ContentError("Y003", f"YAML error: alias '*{event.anchor}' is inside the value it names", at,
                                        "a value cannot hold itself: write out what it holds")
                values += size[0]
                chars += size[1]
                if values > MAX_NODES or chars > MAX_TEXT:
                    return ContentError("Y009", f"the document expands to more than {_bound(values)} at alias "
                                        f"'*{event.anchor}' (aliases expanded)", at,
                                        f"'*{event.anchor}' stands for {_sized(size)} each time: use it less "
                                        "often, or split the file")
            elif kind is yaml.StreamEndEvent:
                break
            if values > MAX_NODES:  # past the bound at a value, not at an alias: a document of many values
                return ContentError("Y009", f"the document has more than {MAX_NODES} values", _pos(path, event.start_mark),
                                    "split the content into several files")
            if chars > MAX_TEXT:
                return ContentError("Y009", f"the document expands to more than {_bound(values)} (aliases expanded)",
                                    _pos(path, event.start_mark), "split the content into several files")
    finally:
        loader.dispose()
    return ContentError("Y009", f"the document expands to more than {MAX_NODES:,} values or {MAX_TEXT:,} characters "
                        "of text (aliases expanded)", Position(path, 1, 1), "split the file")  # pragma: no cover


def _sized(size: tuple) -> str:
    """What an anchor names, by its size: 'a text of 30,000 characters', '12 values and 80 characters'."""
    values, chars = size
    return f"a text of {chars:,} characters" if values == 1 else f"{values:,} values and {chars:,} characters of text"


def _bound(values: int) -> str:
    """The bound a document whose aliases expand to `values` values (or more text) goes past."""
    return f"{MAX_NODES:,} values" if values > MAX_NODES else f"{MAX_TEXT:,} characters of text"


def _too_large_number(pos: Position) -> ContentError:
    return ContentError("T007", f"number too large: more than {MAX_NUMBER:,}, the largest a game keeps", pos,
                        "write a smaller number")


def _shorten(text: str, most: int = 60) -> str:
    """A value of a file in a message: its start, when it is long."""
    return text if len(text) <= most else text[:most] + "..."


def _children(node) -> list:
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def _show_tag(tag: str) -> str:
    """A tag as it is written in the file: 'tag:yaml.org,2002:python/name:os' is '!!python/name:os'."""
    return "!!" + tag[len(_YAML):] if tag.startswith(_YAML) else tag


def _block_indent(lines: list[str], node) -> int:
    """Column (0-based) at which the lines of a block scalar start (`lines`: those of the file)."""
    return _block_indent_at(lines, node.start_mark.line, node.end_mark.line)


def _block_indent_at(lines: list[str], first: int, last: int) -> int:
    """The same, of a block scalar whose indicator is on line `first` and which ends on line
    `last` (both from 0)."""
    for i in range(first + 1, min(len(lines), last + 1)):
        line = lines[i]
        if line.strip():
            return len(line) - len(line.lstrip(" "))
    return 0


class SourceFile:
    """One content file: its path as shown to the user, its text, its data."""

    def __init__(self, path: str, text: str, data, schema_hint: str | None = None, for_test=None):
        self.path = path
        self.text = text
        self.data = data
        self.schema_hint = schema_hint
        self.for_test = for_test  # (file, line) of the rules test whose own cards these are, if any
        self.schema_errors: list | None = None  # found by the schema check, once (validate.validate)


def _too_large(path: str, size: int) -> ContentError:
    return ContentError("Y009", f"file is too large ({size / 1048576:.1f} MB; the limit is "
                        f"{MAX_BYTES // 1048576} MB)", Position(path, 1, 1),
                        "split the content into several files")


def decode(path: str, raw: bytes) -> str:
    if len(raw) > MAX_BYTES:
        raise _too_large(path, len(raw))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = lines_of(raw[: exc.start].decode("utf-8") + "\x00")  # valid up to the bad byte
        line = len(before)
        col = len(before[-1])
        raise ContentError("Y005", f"file is not valid UTF-8 (byte 0x{raw[exc.start]:02x})",
                           Position(path, line, col), "save the file as UTF-8") from None
    # a byte order mark starts the file, or two (files saved twice by tools that each add one):
    # YAML would take the second for the first, and count every position of the file one short
    return text.lstrip("\ufeff")


def data_of(path: Path):
    """The data of one YAML file, read as the loader reads it (bounded, UTF-8, positioned); None
    when it cannot be read. For a look at one key of a file (`game:`, `title:`) before or
    without a load, which reports what is wrong with it."""
    try:
        data, _ = parse_yaml(str(path), decode(str(path), path.read_bytes()))
    except (OSError, ContentError):
        return None
    return data


def parse_yaml(path: str, text: str):
    """Positioned data of one YAML document; raises ContentError on bad YAML."""
    if not text.strip() or _only_comments(text):
        raise ContentError("Y006", "file is empty", Position(path, 1, 1),
                           "a content file starts with 'kind:' (game, expansion, cards, keywords, board, scenario, rules-test or rules)")
    if "\t" in text:
        for n, line in enumerate(lines_of(text), 1):
            stripped = line.lstrip(" ")
            if stripped.startswith("\t"):
                raise ContentError("Y002", "tab character used for indentation", Position(path, n, len(line) - len(stripped) + 1),
                                   "YAML indents with spaces only")
    if len(text) >= NATIVE_FROM:
        got = _read_natively(path, text)
        if got is not None:
            return got, []
    loader = None
    try:
        loader = _Loader(text)  # the pure-Python reader refuses a control character here already
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        raise _yaml_error(path, text, exc) from None
    except yaml.reader.ReaderError:
        raise _unreadable_character(path, text) from None
    except yaml.YAMLError as exc:
        raise ContentError("Y003", f"YAML error: {exc}", Position(path, 1, 1)) from None
    finally:
        if loader is not None:
            loader.dispose()
    if node is None:
        raise ContentError("Y006", "file is empty", Position(path, 1, 1))
    builder = _Builder(path, yaml.SafeLoader(""))
    builder.loader_text = text
    # only aliases (of anchors) can make a document larger than its text
    if _ANCHOR.search(text) and _ALIAS.search(text):
        builder.check_size(node, text)
    try:
        data = builder.build(node)
    except RecursionError:  # pragma: no cover - MAX_DEPTH stops nesting long before
        raise ContentError("Y009", "the document nests too deeply to be read", Position(path, 1, 1)) from None
    return data, builder.errors


def _read_natively(path: str, text: str):
    """The positioned values of `text` read by the native reader (content.yaml_native), or None
    when it is not built here or gives the file up to the Python path."""
    reader = native_reader(NATIVE_SETUP)
    if reader is None:
        return None
    try:
        got = reader.read(text.encode("utf-8"), path)
    except UnicodeEncodeError:  # a lone surrogate: refused by the Python path, which says where
        return None
    if got is None:
        return None
    data, blocks = got
    if blocks:  # each block text holds the lines it starts and ends on, for its indent
        lines = lines_of(text)
        for s in blocks:
            s.lines = _block_indent_at(lines, *s.lines)
    return data


# What the native reader builds values of, and their bounds (content.yaml_native)
NATIVE_SETUP = (PStr, PDict, PList, PInt, Position, RESOLVED_TAGS, plain_tag, TAG_STR, TAG_INT, TAG_BOOL, TAG_NULL,
                MAX_NODES, MAX_DEPTH, MAX_TEXT, PLAIN_DIGITS)


# What YAML reads nowhere in a file, not even in a quoted string (PyYAML's Reader.NON_PRINTABLE):
# C0 controls but tab and line breaks, DEL, C1 controls but NEL, surrogates, U+FFFE and U+FFFF.
_NOT_YAML = re.compile("[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_SHOWN_AT_MOST = 5  # lines of the other characters of a file that YAML does not read, named in the hint


def line_starts(text: str) -> list[int]:
    """The index in `text` at which each of its lines starts, as YAML cuts lines."""
    return [0] + [m.end() for m in LINE_BREAK.finditer(text)]


def place(starts: list[int], index: int) -> tuple[int, int]:
    """(line, column), from 1, of the character at `index` of a text whose `line_starts` are `starts`."""
    line = bisect_right(starts, index)
    return line, index - starts[line - 1] + 1


def _unreadable_character(path: str, text: str) -> ContentError:
    """The error of a file holding a character YAML does not read, at the first of them; the
    hint says where the others are."""
    found = _NOT_YAML.search(text)
    if found is None:  # pragma: no cover - the reader refused a character that the pattern allows
        return ContentError("Y005", "file holds a character which YAML does not read", Position(path, 1, 1))
    c = ord(found.group())
    what = "a control character" if c < 0x20 or 0x7f <= c <= 0x9f else "a character"
    starts = line_starts(text)
    line, column = place(starts, found.start())
    escape = f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"
    hint = f"remove it; in a double-quoted string, write it as the escape {escape}"
    others = sorted({place(starts, m.start())[0] for m in _NOT_YAML.finditer(text, found.end())} - {line})
    if others:
        lines = ", ".join(str(n) for n in others[:_SHOWN_AT_MOST]) + (", ..." if len(others) > _SHOWN_AT_MOST else "")
        hint += f"; more such characters are on {plural(len(others), 'other line')} ({lines})"
    return ContentError("Y005", f"file holds {what} (U+{c:04X}), which YAML does not read",
                        Position(path, line, column, column + 1), hint)


def _only_comments(text: str) -> bool:
    """Whether every line of `text` (as `lines_of` cuts them) is blank or a comment, reading
    no further than the first line that is not (usually the first)."""
    start = 0
    for m in LINE_BREAK.finditer(text):
        line = text[start:m.start()]
        if line.strip() and not line.lstrip().startswith("#"):
            return False
        start = m.end()
    line = text[start:]
    return not (line.strip() and not line.lstrip().startswith("#"))


# What is left open when a file ends too early, by the context PyYAML names.
_UNCLOSED = {
    "while scanning a quoted scalar": ("quoted string never closed", "close it with the quote it opens with"),
    "while parsing a flow sequence": ("'[' never closed", "close the list with ']'"),
    "while parsing a flow mapping": ("'{' never closed", "close the mapping with '}'"),
}


def pos_of(path: str, mark) -> Position:
    return _pos(path, mark) if mark else Position(path, 1, 1)


def _yaml_error(path: str, text: str, exc) -> ContentError:
    problem = exc.problem or "invalid YAML"
    context = f" ({exc.context})" if exc.context else ""
    mark = exc.problem_mark or exc.context_mark
    bom = _bom_near(text, mark)
    if bom is not None:
        return ContentError("Y003", "YAML syntax error: a byte order mark (U+FEFF) in the middle of the file",
                            Position(path, *bom, bom[1] + 1),
                            "remove it: this invisible character may only start a file (an editor or a "
                            "copy of two files into one may have put it here)")
    at_end = mark is not None and not text[mark.index:].strip()
    if at_end and exc.context_mark is not None and exc.context in _UNCLOSED:
        # the file ended inside a string, a list or a mapping: point where it opens
        what, hint = _UNCLOSED[exc.context]
        last = len(lines_of(text.rstrip())) or 1
        return ContentError("Y003", f"YAML syntax error: {what}", _pos(path, exc.context_mark),
                            f"{hint}; the file ends at line {last} before it is closed")
    if problem == "but found another document":
        return ContentError("Y003", "YAML syntax error: a second document in one file", pos_of(path, mark),
                            "a content file holds one YAML document: split it at '---' into two files")
    if mark is not None and not at_end:
        wrong = _indentation(text, mark.line)
        if wrong is not None:
            line, column, message, hint = wrong
            return ContentError("Y001", f"YAML syntax error: wrong indentation: {message}",
                                Position(path, line + 1, column + 1), hint)
    if at_end:
        # past the last line: point just after the end of the last line that holds something
        lines = lines_of(text.rstrip()) or [""]
        pos = Position(path, len(lines), len(lines[-1]) + 1)
    else:
        pos = pos_of(path, mark)
    return ContentError("Y003", f"YAML syntax error: {problem}{context}", pos, _yaml_hint(problem))


def _bom_near(text: str, mark) -> tuple[int, int] | None:
    """(line, column) of a byte order mark where YAML stopped, or starting the text of the line
    where it stopped or of the line before (YAML may stop at the start of the next), if any."""
    if mark is None or "\ufeff" not in text:
        return None
    starts = line_starts(text)
    for line in (mark.line, mark.line + 1):  # from 0, then from 1
        if 1 <= line <= len(starts):
            start = starts[line - 1]
            text_start = len(text) - len(text[start:].lstrip(" "))
            if text.startswith("\ufeff", text_start) and text_start <= mark.index:
                return place(starts, text_start)
    return place(starts, mark.index) if text.startswith("\ufeff", mark.index) else None


_BLOCK_OPENER = re.compile(r"(:|:\s*[|>][-+0-9]*|^\s*-)\s*(#.*)?$")


def _meaningful(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#")


def _indentation(text: str, index: int):
    """When the line at `index` (from 0) of a file YAML cannot read is indented in a way no
    block around it allows, (that line, its indentation, what is wrong, a hint); else None.
    A line may line up with a line above that is visible from it (each one less indented than
    those between), or with the text after a list item's '-'; it may go deeper only below a
    line that opens a block (`key:`, `key: |`, a lone `-`)."""
    lines = text.splitlines()
    for at in (index, index - 1, index + 1):  # YAML may notice the mistake a line away from it
        if not 0 < at < len(lines) or not _meaningful(lines[at]):
            continue
        line = lines[at]
        indent = len(line) - len(line.lstrip(" "))
        levels, lowest, before = set(), None, None
        for i in range(at - 1, -1, -1):
            if not _meaningful(lines[i]):
                continue
            other = lines[i]
            level = len(other) - len(other.lstrip(" "))
            before = i if before is None else before
            if lowest is None or level < lowest:
                lowest = level
                levels.add(level)
                item = re.match(r"(\s*-\s+)+", other)
                if item and i == before or item and level < indent:
                    levels.add(item.end())
        if before is None:
            continue
        above = lines[before].rstrip()
        above_indent = len(above) - len(above.lstrip(" "))
        if indent in levels or (indent > above_indent and _BLOCK_OPENER.search(above)):
            continue
        near = sorted(sorted(levels, key=lambda x: abs(x - indent))[:2])  # the levels it was likely meant for
        where = " or ".join(f"column {a + 1}" for a in near)
        if indent > above_indent:
            item = re.match(r"(\s*-\s+)+", above)
            where = f"column {(item.end() if item else above_indent) + 1}"
            message = (f"this line is indented {indent} spaces, deeper than the line above "
                       f"(line {before + 1}), which opens no block")
            hint = (f"line it up with the keys above it ({where}), or, if it belongs to the line above, "
                    "end that line with ':' (or ': |' for a text)")
        else:
            message = f"this line is indented {indent} spaces, which lines up with no block above it"
            hint = f"the keys of one mapping, and the items of one list, line up: start it at {where}"
        return at, indent, message, hint
    return None


def _yaml_hint(problem: str) -> str | None:
    if "mapping values are not allowed" in problem:
        return "a value containing ': ' must be quoted, or written as a block with '|'"
    if "found character '\\t'" in problem:
        return "YAML indents with spaces only"
    if "could not find expected ':'" in problem:
        return "each line of a mapping needs 'key: value'"
    if "found undefined alias" in problem:
        return "define the anchor ('&name') before using it"
    if "expected '-' indicator" in problem or "did not find expected key" in problem:
        return "check the indentation: the keys of one mapping, and the items of one list, line up"
    if "cannot start any token" in problem:
        return "quote a value that starts with '@', '`', '%' or another special character"
    return None


# Texts read in place of files, by absolute path: what an editor holds but has not saved.
_EDITED: ContextVar[dict] = ContextVar("edited", default={})


@contextmanager
def edited_texts(texts: dict):
    """Within this block, the files named in `texts` (path -> text) are read as these texts,
    not as they are on disk: an editor checks the documents it holds unsaved. Only the
    reading changes; which files a pack has is still found on disk."""
    token = _EDITED.set({os.path.abspath(p): t for p, t in texts.items()})
    try:
        yield
    finally:
        _EDITED.reset(token)


def edited_texts_given() -> bool:
    """Whether texts stand for some files (see `edited_texts`): what is on disk is not all."""
    return bool(_EDITED.get())


def edited_text(path: str) -> str | None:
    """The text read in place of file `path` (see `edited_texts`), or None: read the disk."""
    edited = _EDITED.get()
    return edited.get(os.path.abspath(path)) if edited else None


# The files loaded by the checks of this process, kept from one check to the next when they
# hold at most KEPT_BYTES of YAML in all (a language server checks a pack again at each edit,
# and loads again only the files whose bytes changed); a check that read more keeps none.
KEPT_LOADS: dict = {}
KEPT_BYTES = 1024 * 1024  # (their values take about 50 times their bytes)

# The files loaded during one `shared_loads()` block, by path and bytes: a check lays a game's
# expansions over it in several packs, which read the same files. The data loaded is never
# changed by the stages after loading, so that each pack may read the same.
SHARED_LOADS = SharedStore("files loaded", lambda: KEPT_LOADS,
                           lambda kept: sum(len(raw) for _, raw in kept) > KEPT_BYTES)


def shared_loads(kept: bool = False):
    """Within the block, a file read again with the same bytes is not loaded again: the same
    SourceFile, and the same errors, are given back. `kept`: the files are kept in
    `KEPT_LOADS`, from one check to the next."""
    return SHARED_LOADS.block(kept)


# The first key of a rules-test file, as its files start: `kind: rules-test`, the value plain or
# quoted, a comment after it allowed
_RULES_TEST_HEAD = re.compile(r"""kind:[ \t]*(?:rules-test|"rules-test"|'rules-test')[ \t]*(?:#.*)?""")
_HEAD_BYTES = 4096  # read of a file to find its first key


def is_rules_test_file(path: str) -> bool:
    """Whether the file at `path` is surely a rules test, read from its first key alone: a load
    to play reads no rules test (see `interpreter.load`), and reading one whole (its YAML, its
    schema) was a third of a first start. The first key of a mapping is the one kept when a key
    is written twice, so a file whose first key is `kind: rules-test` is a rules test or no
    content at all; any other file (a comment or a directive first aside) is read as usual."""
    text = edited_text(path)
    if text is None:
        try:
            with open(path, "rb") as fh:
                raw = fh.read(_HEAD_BYTES)
        except OSError:
            return False  # read as usual, which says what is wrong with it
        text = raw.decode("utf-8", "replace")
    for line in text[:_HEAD_BYTES].lstrip("\ufeff").splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#") or stripped == "---" or line.startswith("%"):
            continue
        return _RULES_TEST_HEAD.fullmatch(line.rstrip()) is not None
    return False


def load_file(path: str, raw: bytes | None = None) -> tuple[SourceFile, list[ContentError]]:
    """Read and load one file. Raises ContentError if it cannot be loaded at all;
    returns the file and the non-fatal errors (duplicate keys) otherwise."""
    if raw is None and (text := edited_text(path)) is not None:
        raw = text.encode("utf-8", "surrogatepass")
    if raw is None:
        try:
            with open(path, "rb") as fh:
                raw = fh.read(MAX_BYTES + 1)
                if len(raw) > MAX_BYTES:  # say how large the whole file is, not what was read of it
                    size = os.fstat(fh.fileno()).st_size
                    raise _too_large(path, max(size, len(raw)))
        except OSError as exc:
            raise ContentError("Y005", f"cannot read file: {exc.strerror}", Position(path, 1, 1)) from None
    key = (path, raw)
    shared = SHARED_LOADS.get()
    if shared is not None and key in shared:
        found = shared[key]
        if isinstance(found, ContentError):
            raise found
        return found
    try:
        loaded = _load_text(path, decode(path, raw))
    except ContentError as exc:
        if shared is not None:
            shared[key] = exc
        raise
    if shared is not None:
        shared[key] = loaded
    return loaded


def _load_text(path: str, text: str) -> tuple[SourceFile, list[ContentError]]:
    try:
        data, errors = parse_yaml(path, text)
    except ContentError as exc:
        exc.position = within(exc.position, lines_of(text))
        raise
    if errors:
        lines = lines_of(text)
        for exc in errors:
            exc.position = within(exc.position, lines)
    hint = None
    first = text.split("\n", 1)[0]
    m = SCHEMA_COMMENT.search(first)
    if m:
        hint = m.group(1)
    return SourceFile(path, text, data, hint), errors


def within(pos: Position | None, lines: list[str]) -> Position | None:
    """`pos`, or, when it is past the last of the `lines` of its file (YAML may place a mistake
    at the end of the stream, after the last line break), the end of the last line that holds
    something, so that an error is shown with a line of the file."""
    if pos is None or pos.line <= max(1, len(lines)):
        return pos
    last = len(lines)
    while last > 1 and not lines[last - 1].strip():
        last -= 1
    return Position(pos.path, last, len(lines[last - 1]) + 1)


def plain_data(v):
    """A loaded value as plain Python data: the same value without its positions."""
    if isinstance(v, dict):
        return {str(k): plain_data(x) for k, x in v.items()}
    if isinstance(v, list):
        return [plain_data(x) for x in v]
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, int):
        return int(v)
    if isinstance(v, float):
        return float(v)
    if isinstance(v, str):
        return str(v)
    return v
