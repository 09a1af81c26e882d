"""Runtime values of the rules language, and the game's random generator.

Components are plain ints (their ids). Players, teams, nodes and zones get
small subclasses of int and str, so that a value says what it is while
staying as cheap, hashable and serialisable as the plain type.
"""
from __future__ import annotations


class Seat(int):
    """A player, by seat index from 0 (shown from 1)."""

    __slots__ = ()

    __str__ = int.__repr__

    def __repr__(self):
        return f"Seat({int(self)})"


class Team(int):
    __slots__ = ()

    __str__ = int.__repr__

    def __repr__(self):
        return f"Team({int(self)})"


class NodeRef(str):
    """A board node, by id."""

    __slots__ = ()


class ZoneRef(str):
    """A zone, by key: 'market', 'hand#0', 'crews#17' (see keys)."""

    __slots__ = ()


class CounterMap:
    """`node.cubes` of a counter kept per pair: indexed by the second owner."""

    __slots__ = ("name", "first")

    def __init__(self, name: str, first):
        self.name = name
        self.first = first


MASK64 = (1 << 64) - 1


class Rng:
    """SplitMix64: one integer of state, so cloning and saving a game is trivial,
    and the same seed gives the same game on every Python and platform."""

    __slots__ = ("state",)

    def __init__(self, state: int):
        self.state = state & MASK64

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("empty range")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def seed_for(seed: int, index: int = 0) -> int:
    """The seed of game `index` of a run seeded with `seed` (independent of workers)."""
    r = Rng(seed * 0x100000001B3 + index)
    r.next64()
    return r.next64()


class Comp(int):
    """A component (card, piece, tile), by id. Made once per game definition and reused."""

    __slots__ = ()

    __str__ = int.__repr__

    def __repr__(self):
        return f"Comp({int(self)})"
