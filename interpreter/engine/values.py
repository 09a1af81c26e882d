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
_TWO64 = 1 << 64


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
        """Fisher-Yates, each place drawn by `below`. A search deals a hidden deck again at
        every sample: here the draws are made in the loop, as `next64` and `below` make them
        (`tests/engine/test_rng.py` compares it with the plain loop)."""
        if type(self) is not Rng:  # a generator of another kind draws its own way
            self.shuffle_plain(items)
            return
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _TWO64 - _TWO64 % n
            while True:
                state = (state + 0x9E3779B97F4A7C15) & MASK64
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
                z ^= z >> 31
                if z < limit:
                    break
            j = z % n
            items[i], items[j] = items[j], items[i]
        self.state = state

    def shuffle_plain(self, items: list) -> None:
        """`shuffle`, each draw asked of `below`."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def copy(self) -> "Rng":
        """A generator that goes on as this one would (a state's clone takes one)."""
        return Rng(self.state)

    def following(self, other: "Rng") -> "Rng":
        """This generator, told of `other`, the generator of the game it replays: a seeded one
        already draws what `other` drew; one of outcomes given reads `other`'s (GivenRng)."""
        return self

    def with_fallback(self, rng: "Rng") -> "Rng":
        """This generator, drawing from `rng` whatever it cannot draw itself (GivenRng)."""
        return self


class ChanceNeeded(BaseException):
    """Raised by a GivenRng asked for a draw it was not given: `sizes` are the numbers of
    outcomes of the draws asked for next, in order (a shuffle asks for all of its draws at
    once). A BaseException, so that no handler of the rules' run-time errors takes it: the
    state it leaves is half-way through a step, and the caller plays the step again from a
    copy taken before it, with the outcomes given."""

    def __init__(self, sizes: tuple):
        super().__init__(sizes)
        self.sizes = sizes


class GivenRng(Rng):
    """A generator whose outcomes are given from outside, one for each draw, in order: what
    makes a game's chance explicit (a caller that asks for each shuffle, draw and die as it
    comes, as OpenSpiel's chance nodes do). Draw `i` among `n` outcomes is `log[i]`, uniform by
    the caller's word; past the end of `log` a draw comes from `fallback`, or raises
    ChanceNeeded when there is none. `log` is a tuple, shared by the copies of a state."""

    __slots__ = ("log", "pos", "fallback")

    def __init__(self, log: tuple = (), pos: int = 0, fallback: Rng | None = None):
        self.state = 0
        self.log = log
        self.pos = pos
        self.fallback = fallback

    def next64(self) -> int:
        if self.fallback is None:
            raise ChanceNeeded((1 << 64,))
        return self.fallback.next64()

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError("empty range")
        pos = self.pos
        if pos < len(self.log):
            v = self.log[pos]
            if v < n:
                self.pos = pos + 1
                return v
            self.pos = len(self.log)  # drawn for another question: the game went another way
        if self.fallback is None:
            raise ChanceNeeded((n,))
        return self.fallback.below(n)

    def shuffle(self, items: list) -> None:
        n = len(items)
        have = len(self.log) - self.pos
        if self.fallback is None and 0 <= have < n - 1:
            raise ChanceNeeded(tuple(range(n - have, 1, -1)))  # every draw of the shuffle at once
        super().shuffle(items)

    def copy(self) -> "GivenRng":
        return GivenRng(self.log, self.pos, self.fallback.copy() if self.fallback is not None else None)

    def following(self, other: Rng) -> Rng:
        if type(other) is GivenRng:
            return GivenRng(other.log, self.pos, self.fallback)
        return self

    def with_fallback(self, rng: Rng) -> "GivenRng":
        return GivenRng(self.log, self.pos, rng)


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
