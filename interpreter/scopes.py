"""Whose a zone or a counter is: its scope.

A game declares each zone and counter once for the game (`scope: game`), once per player,
per team, per node of the board, per component of a kind it declares (`scope: card`), or per
pair of owners (`scope: [node, player]`). Content reads the words into a `Scope`
(content/declarations.py); the engine's records of zones and counters carry it, and the
checker, the compiler and the tools ask it what it is (`is_game`, `kind`, `per("player")`)
rather than looking at its words. Its words are kept as content wrote them, for messages and
keys: a scope printed in a message prints as the words it was given.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

__all__ = ["OwnerKind", "Scope", "GAME"]


class OwnerKind(enum.StrEnum):
    """The kind of an owner: the game, a player, a team, a node, or a component (of a kind
    the game declares, whose word the scope keeps)."""
    GAME = "game"
    PLAYER = "player"
    TEAM = "team"
    NODE = "node"
    COMPONENT = "component"


_KINDS = {"game": OwnerKind.GAME, "player": OwnerKind.PLAYER, "team": OwnerKind.TEAM, "node": OwnerKind.NODE}


def owner_kind(word: str) -> OwnerKind:
    """The kind of owner a word of a scope names (any word but game, player, team and node
    names a kind of component)."""
    return _KINDS.get(word, OwnerKind.COMPONENT)


@dataclass(frozen=True, slots=True, eq=False)
class Scope:
    """The owners a zone or counter is kept per: one word, or two for a pair of owners."""
    words: tuple  # as content wrote them: ("game",), ("player",), ("card",), ("node", "player")...

    @staticmethod
    def of(*words) -> "Scope":
        return Scope(tuple(words))

    @property
    def kind(self) -> OwnerKind:
        """The kind of the first owner (GAME for a scope of no words)."""
        return owner_kind(self.words[0]) if self.words else OwnerKind.GAME

    @property
    def first(self) -> str:
        """The word of the first owner ("card" for a zone kept per card)."""
        return self.words[0] if self.words else "game"

    @property
    def is_game(self) -> bool:
        """Kept once, for the game."""
        return self.words == ("game",)

    @property
    def is_pair(self) -> bool:
        """Kept per pair of owners (`[node, player]`)."""
        return len(self.words) == 2

    @property
    def is_single(self) -> bool:
        """Kept per one owner, or once for the game: no pair."""
        return len(self.words) == 1

    def only(self, *kinds) -> bool:
        """Kept per one owner (or the game) of one of `kinds`, not per pair: `only(PLAYER, TEAM)`."""
        return len(self.words) == 1 and self.kind in kinds

    def per(self, kind) -> bool:
        """Whether one of its owners is of `kind` (an OwnerKind, or the word of a kind of component)."""
        if isinstance(kind, OwnerKind) and kind is not OwnerKind.COMPONENT:
            return kind.value in self.words
        if isinstance(kind, OwnerKind):
            return any(owner_kind(w) is OwnerKind.COMPONENT for w in self.words)
        return kind in self.words

    @property
    def head(self) -> "Scope":
        """The scope of its first owner alone (a pair's, before `[...]` names the second)."""
        return Scope(self.words[:1])

    @property
    def halves(self) -> tuple:
        """The scope of each owner of a pair, one Scope each (a single scope: itself)."""
        return tuple(Scope((w,)) for w in self.words)

    def __iter__(self):
        return iter(self.words)

    def __len__(self) -> int:
        return len(self.words)

    def __eq__(self, other) -> bool:
        if isinstance(other, Scope):
            return self.words == other.words
        if isinstance(other, (tuple, str)):
            raise TypeError("a Scope is asked what it is (is_game, kind, per), not compared with words")
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.words)

    def __str__(self) -> str:
        return " and ".join(self.words)


GAME = Scope(("game",))
