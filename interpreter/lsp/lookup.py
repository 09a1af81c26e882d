"""What the cursor points at: a word, the card ability it stands in, the definition a name
names. Shared by hover and go-to-definition; lines and columns count from 0.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass

from ..content.model import AbilityDef, CardDef, GameDef, KeywordDef
from ..diagnostics import Position
from ..names import fold

_WORD = re.compile(r"[\w][\w-]*")
_TITLE = re.compile(r"^\s*(?:-\s+)?title\s*:\s*['\"]?(?P<title>[^'\"#]+?)['\"]?\s*(?:#.*)?$")


@dataclass(frozen=True)
class Found:
    """What a name at the cursor names: a card, a keyword (with its parameters bound, in a
    card's ability), a procedure, a function, a zone or a counter; and where it is defined."""
    what: str  # "card", "keyword", "procedure", "function", "zone", "counter"
    thing: object  # its definition
    pos: Position
    bindings: dict | None = None


def word_at(line: str, column: int) -> tuple[str, int, int] | None:
    """The word (letters, digits, '_' and '-') at `column` of `line`, with its start and end."""
    for m in _WORD.finditer(line):
        if m.start() <= column <= m.end():
            return m.group().rstrip("-"), m.start(), m.start() + len(m.group().rstrip("-"))
    return None


def same_file(a: str, b: str) -> bool:
    return os.path.abspath(a) == os.path.abspath(b)


def ability_at(defn: GameDef, path: str, line: int, column: int) -> tuple[CardDef, AbilityDef] | None:
    """The card ability of file `path` whose text holds (line, column)."""
    best = None
    for card in defn.cards:
        if not same_file(card.file, path):
            continue
        for ab in card.abilities:
            start = ab.pos.line - 1
            end = (getattr(ab.text, "end_line", None) or ab.pos.line) - 1
            if getattr(ab.text, "style", None) in ("|", ">") and end > start:
                end -= 1  # a block ends at the start of the line after its last
            if start <= line <= end and \
                    (line > start or column >= ab.pos.column - 1):
                if best is None or (start, ab.pos.column) > (best[1].pos.line - 1, best[1].pos.column):
                    best = (card, ab)
    return best


def card_at(defn: GameDef, path: str, line: int) -> CardDef | None:
    """The card whose entry in file `path` holds `line` (its entry runs to the next card's)."""
    best = None
    for card in defn.cards:
        if same_file(card.file, path) and card.pos.line - 1 <= line:
            if best is None or card.pos.line > best.pos.line:
                best = card
    return best


def find(defn: GameDef, findings, path: str, lines: list[str], line: int, column: int) -> Found | None:
    """What the name at (line, column) of file `path` names."""
    text = lines[line] if 0 <= line < len(lines) else ""
    at = ability_at(defn, path, line, column)
    if at is not None and findings is not None:
        use = findings.keyword_uses.get(at[1])
        hit = word_at(text, column)
        if use is not None:
            # a value given to a parameter ('Worker' in 'Bonus 1 - Worker') names its own
            # definition when it has one; every other word stands for the keyword
            own = named(defn, hit[0]) if hit is not None and _is_bound_value(hit[0], use.bindings) else None
            return own or Found("keyword", use.keyword, use.keyword.pos, dict(use.bindings))
    m = _TITLE.match(text)
    if m and m.start("title") <= column <= m.end("title") + 1:
        card = card_at(defn, path, line)
        if card is not None and card.title == m.group("title").strip():
            return Found("card", card, card.pos)
    pattern = _keyword_pattern_at(defn, path, line)
    if pattern is not None:
        return Found("keyword", pattern, pattern.pos)
    hit = word_at(text, column)
    return named(defn, hit[0]) if hit else None


def _is_bound_value(word: str, bindings: dict) -> bool:
    """Whether `word` is what a parameter is bound to ('Worker' in 'Bonus 1 - Worker')."""
    return any(isinstance(v, (str, int)) and not isinstance(v, bool) and fold(str(v)) == fold(word)
               for v in bindings.values())


def _keyword_pattern_at(defn: GameDef, path: str, line: int) -> KeywordDef | None:
    return next((kw for kw in defn.keywords if same_file(kw.file, path) and kw.pos.line - 1 == line), None)


def named(defn: GameDef, word: str) -> Found | None:
    """The definition `word` names: a procedure, a function, a card (by id), a zone, a counter."""
    if word in defn.procedures:
        return Found("procedure", defn.procedures[word], defn.procedures[word].pos)
    if word in defn.functions:
        return Found("function", defn.functions[word], defn.functions[word].pos)
    card = next((c for c in defn.cards if c.id == word), None)
    if card is not None:
        return Found("card", card, card.pos)
    if word in defn.zones:
        return Found("zone", defn.zones[word], defn.zones[word].pos)
    if word in defn.counters:
        return Found("counter", defn.counters[word], defn.counters[word].pos)
    return None
