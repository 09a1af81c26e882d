"""Names as modders write them: accents and case do not matter.

`Écluse`, `Ecluse` and `ecluse` are one name. `fold` gives the key under
which every table of the checker files a name; `suggest` gives the "did you
mean" of a hint. `word_fault` and `printed_fault` say what is wrong with a
name a game declares, if anything.
"""
from __future__ import annotations

import bisect
import difflib
import re
import unicodedata
from functools import lru_cache

from .diagnostics import control_character

# A name the rules language can write: the grammar's NAME (grammar/regles.lark), one word of
# letters, digits, '_' and "'", not starting with a digit. Zones, counters, events and the
# other things a game declares are named so: their names are also the keys of the state,
# joined there to their owners with characters no such name holds ('#', '$', '|').
WORD = re.compile(r"[^\W\d][\w']*")


@lru_cache(maxsize=65536)
def fold(name: str) -> str:
    if name.isascii():  # most names: nothing to decompose, and casefold is lower (the ids of a large pack)
        return name.lower().replace("-", "_").replace(" ", "_")
    return _fold_any(name)


def _fold_any(name: str) -> str:
    """`fold` of any name: accents taken off its letters, its case folded."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return bare.casefold().replace("\u2019", "'").replace("-", "_").replace(" ", "_")


class Names:
    """A set of names made once to answer many "did you mean" (the ids of a pack of
    75,000 cards): only the names of about the same length, and the nearest in alphabetical
    order, are compared with a misspelt one, so that a hint costs the same whatever the size."""

    POOL = 400  # names compared with a misspelt one at most (a few milliseconds)

    def __init__(self, candidates):
        self.by_key: dict[str, str] = {}
        for c in candidates:
            self.by_key.setdefault(fold(str(c)), str(c))
        self.keys = sorted(self.by_key)
        self.by_length: dict[int, list] = {}
        for k in self.keys:
            self.by_length.setdefault(len(k), []).append(k)

    def pool(self, key: str) -> list:
        if len(self.keys) <= self.POOL:
            return self.keys
        near = []
        for n in range(len(key) - 2, len(key) + 3):
            same = self.by_length.get(n, ())
            i = bisect.bisect_left(same, key)
            near.extend(same[max(0, i - self.POOL // 10):i + self.POOL // 10])  # 5 lengths, both sides
        return near

    def suggest(self, name: str, limit: int = 1) -> list[str]:
        key = fold(name)
        hits = difflib.get_close_matches(key, self.pool(key), n=limit, cutoff=0.6)
        return [self.by_key[h] for h in hits]


def suggest(name: str, candidates, limit: int = 1) -> list[str]:
    """The closest candidates to a misspelt name, compared accent-blind."""
    names = candidates if isinstance(candidates, Names) else Names(candidates)
    return names.suggest(name, limit)


def did_you_mean(name: str, candidates) -> str | None:
    hits = suggest(name, candidates)
    return f"did you mean '{hits[0]}'?" if hits else None


def _control(name: str) -> str | None:
    ch = control_character(name)
    return None if ch is None else f"holds a control character (U+{ord(ch):04X})"


def word_fault(name: str) -> str | None:
    """What makes `name` no name of a zone, counter, event, procedure...: None when it is
    one word of the rules language (WORD, matched whole)."""
    fault = _control(name)
    if fault is not None or WORD.fullmatch(name):
        return fault
    if not name:
        return "is empty"
    if name[0].isdigit():
        return "starts with a digit"
    bad = next(ch for ch in name if not (ch.isalnum() or ch in "_'"))
    return "holds a space" if bad == " " else f"holds '{bad}'"


def as_word(name: str) -> str:
    """`name` made one word of the rules language, for a hint: 'cards drawn#2' -> 'cards_drawn_2'."""
    word = re.sub(r"[^\w']+", "_", name).strip("_") or "name"
    return word if WORD.fullmatch(word) else "_" + word


def printed_fault(name: str) -> str | None:
    """What makes `name` no name as printed (a class, a tag): a control character; any other
    text is one (accents, spaces, apostrophes, as a card prints it)."""
    return _control(name) if name else "is empty"
