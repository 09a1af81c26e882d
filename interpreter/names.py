"""Names as modders write them: accents and case do not matter.

`Écluse`, `Ecluse` and `ecluse` are one name. `fold` gives the key under
which every table of the checker files a name; `suggest` gives the "did you
mean" of a hint.
"""
from __future__ import annotations

import difflib
import unicodedata
from functools import lru_cache


@lru_cache(maxsize=65536)
def fold(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return bare.casefold().replace("\u2019", "'").replace("-", "_").replace(" ", "_")


def suggest(name: str, candidates, limit: int = 1) -> list[str]:
    """The closest candidates to a misspelt name, compared accent-blind."""
    by_key: dict[str, str] = {}
    for c in candidates:
        by_key.setdefault(fold(str(c)), str(c))
    hits = difflib.get_close_matches(fold(name), list(by_key), n=limit, cutoff=0.6)
    return [by_key[h] for h in hits]


def did_you_mean(name: str, candidates) -> str | None:
    hits = suggest(name, candidates)
    return f"did you mean '{hits[0]}'?" if hits else None
