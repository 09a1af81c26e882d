"""Where the cursor is in a content file, read from the text alone.

An editor asks for completions while the file is being typed, when its YAML
often does not read; so the place is found from the lines, by indentation, as
a person reads them: the keys the cursor is under, whether it is inside a
rules text (a block scalar or a string under a key that holds rules texts),
the value of a key, or where a key is written; and the word typed so far.
Lines and columns count from 0, in characters.
"""
from __future__ import annotations

import enum
import re
from dataclasses import dataclass

# The keys whose values are rules texts, and those whose entries each are one.
RULES_KEYS = frozenset(("ability", "heuristic", "given", "when", "prefer", "body", "label"))
RULES_LISTS = frozenset(("abilities", "invariants", "then", "heuristics"))
RULES_ENTRIES = frozenset(("procedures", "functions", "hooks", "replace"))  # name -> a rules text

_BLOCK = re.compile(r"^\s*(?:-\s+)?(?:(?P<key>[^\s#'\"-][^#]*?)\s*:\s+)?[|>][-+0-9]*\s*(?:#.*)?$")
_KEY = re.compile(r"^\s*(?P<dash>-\s+)?(?P<key>[^\s#'\"\-{\[][^:#]*?)\s*:(?:\s|$)")
_ITEM = re.compile(r"^\s*-(?:\s|$)")
_WORD = re.compile(r"[\w-]*$")
_KIND = re.compile(r"^kind:\s*['\"]?([\w-]+)", re.M)


class PlaceKind(enum.StrEnum):
    """Where the cursor is: inside a rules text, in a value, where a key is written, or none of them."""
    RULES = "rules"
    VALUE = "value"
    KEY = "key"
    NONE = "none"


@dataclass
class Place:
    """The cursor's place: `kind` is "rules" (inside a rules text), "value" (the value of
    `key`, or an entry of the list under it), "key" (where a key of the mapping under `keys`
    is written) or "none"."""
    kind: PlaceKind
    keys: tuple  # the keys the cursor is under, outermost first
    key: str | None  # the key whose value (or list entry) the cursor is in
    before: str  # the text of the line before the cursor (of a rules text: from its start)
    word: str  # the word typed so far, just before the cursor
    start: int  # the column where that word starts
    file_kind: str | None  # the file's `kind:`
    text_start: bool = False  # a rules text whose first word is being typed


def indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def file_kind(text: str) -> str | None:
    m = _KIND.search(text)
    return m.group(1) if m else None


def is_rules_key(key: str | None, parent: str | None) -> bool:
    return key in RULES_KEYS or parent in RULES_ENTRIES


def place_at(text: str, lines: list[str], line: int, column: int) -> Place:
    """The place at (line, column) of a file whose text is `text`, cut into `lines`."""
    current = lines[line] if 0 <= line < len(lines) else ""
    before = current[:column]
    word = _WORD.search(before).group().lstrip("-")
    start = column - len(word)
    kind = file_kind(text)
    here = indent(current) if current[:column].strip() else column
    ancestors = _ancestors(lines, line, here)
    header = next((i for i, a in enumerate(ancestors) if _BLOCK.match(lines[a])), None)
    if header is not None:  # inside a block scalar: a rules text when its key holds them
        keys = _keys(lines, ancestors[header:])
        owner = keys[-1] if keys else None
        parent = keys[-2] if len(keys) > 1 else None
        if owner in RULES_LISTS or is_rules_key(owner, parent):
            first = ancestors[header] + 1
            opening = all(not lines[i].strip() for i in range(first, line))
            return Place(PlaceKind.RULES, tuple(keys), owner, before.lstrip(), word, start, kind,
                         opening and not before[:start].strip())
        return Place(PlaceKind.NONE, tuple(keys), owner, before, word, start, kind)
    keys = _keys(lines, ancestors)
    m = _KEY.match(current)
    if m and column >= m.end() - (0 if current[m.end() - 1:m.end()] == ":" else 1):
        key = m.group("key").strip()
        value = current[m.end():column]
        parent = keys[-1] if keys else None
        if value.strip()[:1] in ("|", ">"):
            return Place(PlaceKind.NONE, tuple(keys) + (key,), key, value, word, start, kind)
        if is_rules_key(key, parent):
            inline = value.lstrip().lstrip("'\"")
            return Place(PlaceKind.RULES, tuple(keys) + (key,), key, inline, word, start, kind,
                         not inline[:len(inline) - len(word)].strip())
        return Place(PlaceKind.VALUE, tuple(keys) + (key,), key, value, word, start, kind)
    if _ITEM.match(current) and column > indent(current):
        owner = keys[-1] if keys else None
        value = current[indent(current) + 1:column]
        if owner in RULES_LISTS:
            inline = value.lstrip().lstrip("'\"")
            return Place(PlaceKind.RULES, tuple(keys), owner, inline, word, start, kind,
                         not inline[:len(inline) - len(word)].strip())
        if not before[indent(current) + 1:].strip().startswith(("{", "[")):
            # a list entry being written: its first key, or a plain value of the list
            return Place(PlaceKind.KEY if owner in ("cards", "keywords", "tests", "nodes") else PlaceKind.VALUE,
                         tuple(keys), owner, value, word, start, kind)
        return Place(PlaceKind.VALUE, tuple(keys), owner, value, word, start, kind)
    if not before.strip() or before.strip() == word:
        return Place(PlaceKind.KEY, tuple(keys), keys[-1] if keys else None, before, word, start, kind)
    return Place(PlaceKind.NONE, tuple(keys), keys[-1] if keys else None, before, word, start, kind)


def _ancestors(lines: list[str], line: int, here: int) -> list[int]:
    """The lines above `line` that hold it, nearest first: each less indented than the one
    below it. A list entry ('- ') holds the lines indented under it, and its list's key the
    entries written at its own indentation."""
    out = []
    least = here
    for i in range(line - 1, -1, -1):
        s = lines[i]
        if not s.strip() or s.lstrip().startswith("#"):
            continue
        n = indent(s)
        if n < least or (n == least and out == [] and _ITEM.match(lines[line] if line < len(lines) else "")
                         and not _ITEM.match(s) and s.rstrip().endswith(":")):
            out.append(i)
            least = n
            if n == 0:
                break
    return out


def _keys(lines: list[str], ancestors: list[int]) -> list[str]:
    """The keys of the ancestor lines, outermost first."""
    keys = []
    for i in reversed(ancestors):
        m = _KEY.match(lines[i])
        key = m.group("key") if m else None
        if m and m.group("dash") and lines[i].split("#")[0].strip()[-1:] != ":":
            key = None  # '- id: x' opens an entry of the list above: its keys are the entry's own
        elif key is None:
            m = _BLOCK.match(lines[i])
            key = m.group("key") if m else None
        if key is not None:
            keys.append(key.strip())
    return keys
