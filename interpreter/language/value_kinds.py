"""What a value may be, finer than its type: the kinds of value, the bounds of a number, the
members of a list.

The checker's type of an expression (language.types) says "a list", not "a list of players"; a
fixed action space (rl.actions) needs the second, to number before any game every value a choice
may offer. A `Kinds` says which types a value may have (ANY among them: anything), when it may be
a number the least and the most it may be (None: not known), and when it may be a list or zone
what its members may be and how many at most. `language.members` works them out over the checked trees; each built-in
says what its value is from its arguments' (`Function.kinds`).

Every rule here must be sound, never tight at a cost: a bound is given only when no game can
go past it (a number the rules can make larger is "not known"). The action space relies on it.
"""
from __future__ import annotations

from typing import NamedTuple

from .types import ANY, COMPONENT, LIST, NONE, NUMBER, SET, ZONE


class Kinds(NamedTuple):
    """What a value may be: `types` (frozenset of language.types.Type; ANY: anything), its bounds
    when a number (`least`, `most`; None: not known), its members when a list or zone and how
    many it may hold at most (`longest`), and when a component the kinds of component it may be
    (`cards`, the `component:` of the cards files), and when a zone which zones (`zones`, by
    name)."""
    types: frozenset
    least: int | None = None
    most: int | None = None
    members: Kinds | None = None
    longest: int | None = None
    cards: frozenset | None = None  # when a component: the kinds of component it may be (None: any)
    zones: frozenset | None = None  # when a zone: the names of the zones it may be (None: any)


UNKNOWN = Kinds(frozenset({ANY}))
_HOLDERS = frozenset({ANY, LIST, SET, ZONE})  # the types of value that may hold members


def of(*types) -> Kinds:
    """A value of one of `types`, nothing more known."""
    return Kinds(frozenset(types))


def number(least: int | None = None, most: int | None = None) -> Kinds:
    """A whole number from `least` to `most` (None: no bound known)."""
    return Kinds(frozenset({NUMBER}), least, most)


def components(cards: frozenset | None) -> Kinds:
    """A component of one of the kinds `cards` (None: of any kind)."""
    return Kinds(frozenset({COMPONENT}), cards=cards)


def component_kinds(k: Kinds) -> frozenset | None:
    """The kinds of component a value of `k` may be (None: any; empty: it is no component)."""
    if ANY in k.types:
        return None
    return k.cards if COMPONENT in k.types else frozenset()


def list_of(members: Kinds, longest: int | None = None) -> Kinds:
    """A list whose members are `members`, at most `longest` of them (None: not known)."""
    return Kinds(frozenset({LIST}), members=members, longest=longest)


def join(a: Kinds | None, b: Kinds | None) -> Kinds:
    """What a value that is either `a` or `b` may be (None: nothing, the other alone)."""
    if a is None:
        return b if b is not None else UNKNOWN
    if b is None or a == b:
        return a
    nums = [k for k in (a, b) if NUMBER in k.types]
    least = most = None
    if nums:
        least = None if any(k.least is None for k in nums) else min(k.least for k in nums)
        most = None if any(k.most is None for k in nums) else max(k.most for k in nums)
    ma, mb = _members(a), _members(b)
    members = None if ma is None and mb is None else join(ma, mb)
    # the longer of two lists; what holds no members (none, a number) adds no length
    lengths = [k.longest if _members(k) is not None else 0 for k in (a, b)]
    longest = None if None in lengths or members is None else max(lengths)
    # the kinds of component either may be; any, when either may be any component
    sides = [k.cards for k in (a, b) if COMPONENT in k.types or ANY in k.types]
    cards = None if not sides or None in sides else frozenset().union(*sides)
    sides = [k.zones for k in (a, b) if ZONE in k.types or ANY in k.types]
    zones = None if not sides or None in sides else frozenset().union(*sides)
    return Kinds(a.types | b.types, least, most, members, longest, cards, zones)


def _members(k: Kinds) -> Kinds | None:
    """The members of a value of `k`: None when it can hold none (a number, none)."""
    if k.members is not None:
        return k.members
    return UNKNOWN if k.types & _HOLDERS else None


def add(a: Kinds, b: Kinds) -> Kinds:
    """`a + b` of two numbers."""
    return number(_op(a.least, b.least, int.__add__), _op(a.most, b.most, int.__add__))


def subtract(a: Kinds, b: Kinds) -> Kinds:
    """`a - b` of two numbers."""
    return number(_op(a.least, b.most, int.__sub__), _op(a.most, b.least, int.__sub__))


def multiply(a: Kinds, b: Kinds) -> Kinds:
    """`a * b` of two numbers: bounded only when neither may be negative."""
    if a.least is None or b.least is None or a.least < 0 or b.least < 0:
        return number()
    return number(a.least * b.least, _op(a.most, b.most, int.__mul__))


def divide(a: Kinds, b: Kinds) -> Kinds:
    """`a / b` (whole division) of two numbers: bounded when `a` is never negative and `b` at
    least 1 (then it is from 0 to `a`'s most)."""
    if a.least is None or b.least is None or a.least < 0 or b.least < 1:
        return number()
    return number(0, a.most)


def modulo(a: Kinds, b: Kinds) -> Kinds:
    """`a % b`: from 0 to `b`'s most less one when `b` is at least 1."""
    if b.least is None or b.least < 1:
        return number()
    return number(0, None if b.most is None else b.most - 1)


def negate(a: Kinds) -> Kinds:
    return number(None if a.most is None else -a.most, None if a.least is None else -a.least)


def _op(x, y, f):
    return None if x is None or y is None else f(x, y)


def members_of(k: Kinds) -> Kinds:
    """What iterating a value of `k` may give: a list's or zone's members, or the value itself
    when it is one thing (a component, a player...); none gives nothing."""
    if ANY in k.types:
        return UNKNOWN
    holders = _members(k)
    singles = k.types - _HOLDERS - {NONE}
    one = Kinds(singles, k.least, k.most, cards=k.cards) if singles else None
    if holders is None:
        return one if one is not None else Kinds(frozenset())
    return join(holders, one) if one is not None else holders
