"""What the analysis of what each choice may offer (language.offers) reads of a pack's
declarations, before any rule: the bounds of counters, supplies, board attributes and data
tables, where each kind of component starts, which classes are printed on which kinds.
"""
from __future__ import annotations

from ..names import fold
from ..scopes import OwnerKind
from . import nodes as N
from . import value_kinds as vk
from .types import BOOL, STRING

NOTHING = vk.Kinds(frozenset())  # no value (a data table's empty list holds nothing)


def counter(d, c) -> vk.Kinds:
    """What counter `c` may hold: from its floor to its ceiling, or to its start and all of its
    own supply."""
    most = c.maximum
    if most is None and isinstance(c.supply, int):
        most = max(c.initial, 0) + c.supply
    return vk.number(c.minimum, most)


def class_cards(d) -> dict:
    """Folded class -> the kinds of component printed with it, for the classes no rule tags or
    untags (a tag may give any component a class)."""
    tagged = {class_key(d, n.tag) for n in every_node(d) if isinstance(n, N.Tag)}
    class_attrs = [n for n, a in d.attributes.items() if a.type == "class"]
    out: dict = {}
    for card in d.cards:
        names = list(card.tags)
        for n in class_attrs:
            v = card.attrs.get(n, d.attributes[n].default)
            names += [x for x in (v if isinstance(v, list) else [v]) if isinstance(x, str)]
        for name in names:
            out.setdefault(class_key(d, name), set()).add(card.component)
    # a class no card prints is no component's: nothing passes `is` it, unless a rule tags it
    for _, printed in d.classes.values():
        out.setdefault(fold(printed), set())
    return {k: frozenset(v) for k, v in out.items() if k not in tagged}


def class_key(d, name: str) -> str:
    """Class `name` as the engine keys it: its printed name, folded."""
    canon = d.classes.get(fold(name))
    return fold(canon[1]) if canon else fold(name)


def every_node(d):
    """Every node of the pack's rules: procedures, functions, keywords and cards' abilities."""
    for proc in d.procedures.values():
        if proc.tree is not None:
            yield from N.walk(proc.tree)
    for f in d.functions.values():
        if f.tree is not None:
            yield from N.walk(f.tree)
    for kw in d.keywords:
        for t in kw.trees:
            yield from N.walk(t)
    for c in d.cards:
        for ab in c.abilities:
            yield from N.walk(ab.tree)


def starts(d) -> dict:
    """Zone -> the kinds of component that start there; any kind in the zone of powers and in
    the discard (the engine puts components there itself)."""
    out: dict = {}
    for c in d.cards:
        if c.start is not None:
            out[c.start] = out.get(c.start, frozenset()) | {c.component}
    if d.powers is not None:  # the engine gives each seat its power there
        had = out.get(d.powers.zone, frozenset())
        out[d.powers.zone] = None if d.powers.component is None or had is None else had | {d.powers.component}
    return out


def grown(kinds: dict, moved: dict) -> dict:
    """The kinds of component of each zone, with those moved there added."""
    out = dict(kinds)
    for z, cards in moved.items():
        had = out.get(z, frozenset())
        out[z] = None if had is None or cards is None else had | cards
    return out


def union(sets) -> frozenset | None:
    """The union of kinds of component (None, any, when one is)."""
    out = frozenset()
    for x in sets:
        if x is None:
            return None
        out |= x
    return out


def supply(d, name: str) -> vk.Kinds:
    """What `supply(NAME)` may be: what the supply holds at the start and what every owner's
    counter may give back to it (their starts)."""
    c = d.counters.get(name)
    if c is None or not isinstance(c.supply, int):
        return vk.number(0)
    owners = d.max_players if c.scope.per(OwnerKind.PLAYER) else 1 if c.scope.is_game else None
    return vk.number(0, None if owners is None else c.supply + max(c.initial, 0) * owners)


def datum(value, depth: int = 0) -> vk.Kinds:
    """What a value of a data table (as written in the pack) is."""
    if isinstance(value, bool):
        return vk.of(BOOL)
    if isinstance(value, int):
        return vk.number(value, value)
    if isinstance(value, str):
        return vk.of(STRING)
    if isinstance(value, list) and depth < 8:
        k = None
        for v in value:
            k = vk.join(k, datum(v, depth + 1))
        return vk.list_of(k if k is not None else NOTHING, len(value))
    return vk.UNKNOWN


def node_attribute(d, name: str) -> vk.Kinds:
    """What attribute `name` of a board node may be: a number within the board's values when
    every node has it as a whole number (a board never changes)."""
    values = [node[name] for b in d.boards for node in b.nodes.values() if name in node]
    if not values:
        return NOTHING
    if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return vk.number(min(values), max(values))
    return vk.UNKNOWN
