"""How prose names the values an ability binds (`choose`, `for each`, `each`, `let`): by nouns.

A card never prints a variable: what a rule calls `q` or `dest` is introduced
with its noun ("a player", "a district") and referred to afterwards as "that
player", "ce joueur". The noun comes from where the value is taken: the class
its condition requires (`where c is Building`), the players, a kind of board
node (the vocabulary's `node:KIND`), the members of a zone (what it `holds:`,
else cards), a game function's
body, else the type the checker found. When two values of the same noun are
alive at once, they are told apart by their order: the second is introduced
as "another district" when its condition says it differs from the first (that
condition is then not written again), else as "a second district", and from
then on both are "the first district" and "the second district". A value no
statement ahead reads is retired: the next value of its noun is "a district"
and "that district" again (a value said by its rank keeps its rank).
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass

from .. import nodes as N
from ..types import COMPONENT, NODE, NUMBER, PLAYER
from .vocabulary import Noun


@dataclass
class Local:
    """A value an ability binds, as prose names it: its noun and its rank among the alive ones
    of the same noun (1 for the first)."""
    var: str
    noun: Noun
    nth: int
    number: bool = False  # a number: 'that many tokens'
    introducing: bool = False  # its condition being written: 'a district such that you have tokens on it'
    retired: bool = False  # read nowhere ahead: a later value of its noun is 'that district' again, not 'the second'
    ranked: bool = False  # said by its rank once ('the second district'): said so to the end


class Naming:
    """The part of a renderer that names bound values; mixed into `English`."""

    alive: list  # the values bound where the renderer is, innermost last
    ahead: list  # per block the renderer is in, its statements from the one being written on
    tree: object  # the tree being written
    types: dict  # expression node -> its type, as the checker found it

    # nouns -------------------------------------------------------------------
    def word_noun(self, key: str) -> Noun:
        one, many, *gender = self.WORDS[key]
        return Noun(one, many, gender[0] if gender else "m")

    def element_noun(self, source, depth: int = 0) -> tuple:
        """(noun of the members of `source`, whether the noun says all of `source`): 'player' for
        the players, the vocabulary's noun of a kind of board node, 'card' for a zone. None when
        nothing tells."""
        if depth > 8 or source is None:  # (a function calling itself: no end)
            return None, False
        loc = self.local(source.name) if isinstance(source, N.Name) else None
        if loc is not None and loc.noun == self.word_noun("selection"):  # what a list a rule gathers holds
            return self.word_noun("card"), False
        if isinstance(source, N.Name) and source.name not in self.locals and source.name not in self.params:
            if source.name == "players":
                return self.word_noun("player"), True
            if source.name in self.defn.zones:
                return self.member_noun(source.name), False
            return None, False
        if isinstance(source, N.Attr) and source.name in self.defn.zones:
            return self.member_noun(source.name), False
        if isinstance(source, N.Each):
            noun, _ = self.split_class(source.var, source.where)
            return (noun, False) if noun is not None else (self.element_noun(source.source, depth + 1)[0], False)
        if isinstance(source, N.ListLit) and len(source.items) == 1 and isinstance(source.items[0], N.Each):
            return self.element_noun(source.items[0], depth + 1)
        if isinstance(source, N.BinOp) and source.op == "+":  # two lists of the same things
            return self.element_noun(source.left, depth + 1)[0], False
        if not isinstance(source, N.Call):
            return None, False
        func, args = source.func, source.args
        if func == "opponents" and len(args) == 1 and self.is_you(args[0]):
            return self.word_noun("opponent"), True
        if func in ("opponents", "partners"):
            return self.word_noun("player"), False
        if func == "neighbors":
            return self.word_noun("node"), False
        if func == "nodes":
            if args and isinstance(args[0], N.String):
                return self.vocab.noun(args[0].value, "node"), True
            return self.word_noun("node"), not args
        if func in ("sorted", "reversed", "unique", "shuffled") and args:
            return self.element_noun(args[0], depth + 1)
        if func == "select" and len(args) == 3:  # either list: the first tells
            return self.element_noun(args[1], depth + 1)
        if func == "in_play":
            return self.word_noun("card"), False
        found = self.defn.functions.get(func)
        if found is not None and found.tree is not None:
            noun, whole = self.element_noun(getattr(found.tree, "expr", None), depth + 1)
            return noun, whole and not args
        return None, False

    def member_noun(self, zone: str) -> Noun:
        """The noun of a member of `zone`: what its declaration says it holds (`holds: tile`,
        a component kind or a class, in the vocabulary's words), else 'card'."""
        holds = self.defn.zones[zone].holds
        if holds is None:
            return self.word_noun("card")
        if holds in self.defn.components:
            return self.vocab.noun(holds, "component")
        return self.vocab.class_noun(holds)

    def type_noun(self, var: str, trees) -> Noun | None:
        """The noun of the type the checker found for `var` where the trees read it (else anywhere
        in the tree being written)."""
        for tree in [*trees, self.tree]:
            for n in N.walk(tree):
                if isinstance(n, N.Name) and n.name == var and n in self.types:
                    key = {PLAYER: "player", COMPONENT: "card", NODE: "node", NUMBER: "number"}.get(self.types[n])
                    if key:
                        return self.word_noun(key)
        return None

    # binding -----------------------------------------------------------------
    def local(self, var: str) -> Local | None:
        for loc in reversed(self.alive):
            if loc.var == var:
                return loc
        return None

    def bind(self, var: str, noun: Noun, number: bool = False) -> Local:
        others = {loc.nth for loc in self.alive if loc.noun.one == noun.one and loc.var != var and not loc.retired}
        nth = next(i for i in range(1, len(others) + 2) if i not in others)
        loc = Local(var, noun, nth, number)
        self.alive.append(loc)
        return loc

    @contextmanager
    def scope(self):
        """The values bound inside are forgotten at its end."""
        kept = len(self.alive)
        try:
            yield
        finally:
            del self.alive[kept:]

    def shares_noun(self, loc: Local) -> bool:
        """Whether another alive value has the noun of `loc` (then both are said by their rank)."""
        return any(o is not loc and o.noun.one == loc.noun.one and self.local(o.var) is o and not o.retired
                   for o in self.alive)

    def retire(self) -> None:
        """Retire the values no statement ahead reads (`ahead`: the statements still to be written
        of each block the renderer is in, the one being written first, so a loop's whole body is
        ahead while any of it is written): 'Move that card to your hand. ... for each card in your
        hand, “Play that card”', not 'the second card' of a first one no longer spoken of."""
        for loc in self.alive:
            if not loc.retired and not any(uses_of(loc.var, rest) for rest in self.ahead) \
                    and not uses_of(loc.var, list(self.inline.values())):
                loc.retired = True

    # saying them -------------------------------------------------------------
    def gendered(self, key: str, noun: Noun, *args) -> str:
        """A phrase about a noun: the feminine form (`KEY_f`) when the language has one."""
        if noun.gender == "f" and key + "_f" in self.WORDS:
            key += "_f"
        return self.WORDS[key].format(*args)

    def ordinal(self, noun: Noun, nth: int) -> str:
        words = self.WORDS["ordinals_f" if noun.gender == "f" and "ordinals_f" in self.WORDS else "ordinals"]
        return words[nth - 1] if nth <= len(words) else f"{nth}."

    def ref(self, loc: Local) -> str:
        """A bound value named again: 'that district', or 'the second district' when two are alive;
        in the condition that introduces it (the innermost one), 'it'."""
        if loc.introducing and loc is next((o for o in reversed(self.alive) if o.introducing), None):
            person = loc.noun in (self.word_noun("player"), self.word_noun("opponent"))
            return self.gendered("it_person" if person else "it", loc.noun, loc.noun.one)
        if loc.ranked or self.shares_noun(loc):
            loc.ranked = True
            return self.gendered("the_nth", loc.noun, self.ordinal(loc.noun, loc.nth), loc.noun.one)
        return self.gendered("that", loc.noun, loc.noun.one)

    def intro(self, loc: Local, other: bool = False) -> str:
        """A bound value introduced: 'a district', 'another district' (`other`: said to differ from
        the one before), 'a second district'."""
        if loc.nth == 1 or not self.shares_noun(loc):
            return self.a(loc.noun)
        loc.ranked = True
        if other:
            return self.gendered("another", loc.noun, loc.noun.one)
        return self.gendered("a_nth", loc.noun, self.ordinal(loc.noun, loc.nth), loc.noun.one)

    def differs(self, loc: Local, conds: list) -> tuple:
        """Whether `conds` say that `loc` differs from another alive value of its noun (the
        condition 'another' says, taken out of `conds`)."""
        for i, c in enumerate(conds):
            if isinstance(c, N.Compare) and c.op == "!=" and isinstance(c.left, N.Name) \
                    and isinstance(c.right, N.Name):
                names = {c.left.name, c.right.name}
                if loc.var in names:
                    other = self.local(next(iter(names - {loc.var}), loc.var))
                    if other is not None and other is not loc and other.noun.one == loc.noun.one:
                        return True, conds[:i] + conds[i + 1:]
        return False, conds

    def fallback_noun(self) -> Noun:
        return self.word_noun("thing")


def uses_of(var: str, trees) -> int:
    """How many times the trees read `var` (not counting where an inner binding hides it)."""
    return sum(1 for t in trees for n in N.walk(t) if isinstance(n, N.Name) and n.name == var)


def in_loop(var: str, trees) -> bool:
    """Whether `var` is read inside a loop of the trees (so said once, it would be read many times)."""
    for t in trees:
        for n in N.walk(t):
            if isinstance(n, (N.For, N.Repeat, N.While)) and uses_of(var, [n]):
                return True
    return False
