"""Names as modders write them: accents and case do not matter.

`Écluse`, `Ecluse` and `ecluse` are one name. `fold` gives the key under
which every table of the checker files a name; `suggest` gives the "did you
mean" of a hint.
"""
from __future__ import annotations

import bisect
import difflib
import unicodedata
from functools import lru_cache


@lru_cache(maxsize=65536)
def fold(name: str) -> str:
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
