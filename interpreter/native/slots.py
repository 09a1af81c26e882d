"""Where everything of a game lies in the native state: its zones and counters as slots, its
owners as indexes, and the static tables the C reads (attributes, classes, the board).

    slots = lay_slots(program, players)

A zone or counter is kept once for the game, per player, per team, per node or per
component: each owner of its scope gets a slot, in that order, and each slot keeps the key
the Python backend names it by (`keys`), for the trace. A team is its index, a node its place
among the board's nodes, a component its index. Names (class names, the texts of attributes)
are interned by their folded form, as the language compares them.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..engine import keys
from ..engine.values import Comp, NodeRef, Seat, Team
from ..names import fold
from ..scopes import OwnerKind, owner_kind

# the kind of the holder of a zone, as the C reads it (RG_ZONE_HOLDER_KIND)
HELD_BY = {OwnerKind.GAME: 0, OwnerKind.PLAYER: 1, OwnerKind.TEAM: 2, OwnerKind.NODE: 3, OwnerKind.COMPONENT: 4}


class NotNative(Exception):
    """The game uses a construct the native backend does not run (yet): where, and which."""

    def __init__(self, pos, what: str):
        super().__init__(what)
        self.pos, self.what = pos, what

    def __str__(self):
        where = f"{self.pos.path}:{self.pos.line}: " if self.pos is not None else ""
        return f"{where}not run by the native backend (yet): {self.what}"


@dataclass
class Slots:
    """Zones and counters of a game laid out as slots, for `players` seats at most."""

    players: int
    nodes: list  # node index -> node id
    zones: list = field(default_factory=list)  # slot -> key
    zone_base: dict = field(default_factory=dict)  # zone name -> its first slot
    zone_spec: list = field(default_factory=list)  # slot -> ZoneSpec
    zone_holder: list = field(default_factory=list)  # slot -> (HELD_BY kind, owner index)
    counters: list = field(default_factory=list)  # slot -> key
    counter_base: dict = field(default_factory=dict)  # counter name (or $name of a supply) -> first slot
    counter_spec: list = field(default_factory=list)  # slot -> CounterSpec, or None for a supply
    second: dict = field(default_factory=dict)  # counter kept per pair of owners -> how many second owners
    names: list = field(default_factory=list)  # interned name -> its spelling
    name_index: dict = field(default_factory=dict)  # folded name -> interned index

    def name(self, text: str) -> int:
        """The index of a name (a class, a text of an attribute), interned by its folded form."""
        k = fold(text)
        if k not in self.name_index:
            self.name_index[k] = len(self.names)
            self.names.append(text)
        return self.name_index[k]


def _owners(kind, program, players: int, nodes: list):
    """(index, the owner value keys are made of) of each owner of a scope of `kind`."""
    if kind is OwnerKind.GAME:
        return [(0, None)]
    if kind is OwnerKind.PLAYER:
        return [(i, Seat(i)) for i in range(players)]
    if kind is OwnerKind.TEAM:
        return [(i, Team(i)) for i in range(players)]
    if kind is OwnerKind.NODE:
        return [(i, NodeRef(n)) for i, n in enumerate(nodes)]
    return [(i, program.comps[i]) for i in range(len(program.comp_card))]


def lay_slots(program, players: int) -> Slots:
    """The slots of the zones and counters of `program` for up to `players` seats."""
    s = Slots(players, list(program.nodes))
    for name, z in program.zones.items():
        if len(z.scope.words) != 1 and not z.scope.is_game:
            raise NotNative(z.pos, f"a zone kept per pair of owners ({' and '.join(z.scope.words)})")
        s.zone_base[name] = len(s.zones)
        kind = z.scope.kind
        for i, owner in _owners(kind, program, players, s.nodes):
            s.zones.append(name if owner is None else keys.key(name, owner))
            s.zone_spec.append(z)
            s.zone_holder.append((HELD_BY[kind], i))
    supplies = []
    for name, c in program.counters.items():
        words = c.scope.words
        if len(words) > 2:
            raise NotNative(c.pos, f"a counter kept per {' and '.join(words)}")
        if c.keep_in and c.initial != 0:
            raise NotNative(c.pos, "a counter kept only in some zones that does not start at 0")
        if c.supply is not None and not isinstance(c.supply, str):
            supplies.append(name)
        s.counter_base[name] = len(s.counters)
        if len(words) == 2:  # per pair of owners: each first owner, then each second
            seconds = _owners(owner_kind(words[1]), program, players, s.nodes)
            s.second[name] = len(seconds)
            for _, first in _owners(owner_kind(words[0]), program, players, s.nodes):
                for _, second in seconds:
                    s.counters.append(keys.pair_key(name, first, second))
                    s.counter_spec.append(c)
            continue
        for _, owner in _owners(c.scope.kind, program, players, s.nodes):
            s.counters.append(name if owner is None else keys.key(name, owner))
            s.counter_spec.append(c)
    for name in supplies:
        s.counter_base["$" + name] = len(s.counters)
        s.counters.append(keys.supply_key(name))
        s.counter_spec.append(None)
    return s


def supply_slot(slots: Slots, cdef) -> int:
    """The slot of the supply counter `cdef` draws on, or -1."""
    if cdef is None or cdef.supply is None:
        return -1
    name = cdef.supply if isinstance(cdef.supply, str) else cdef.name
    return slots.counter_base.get("$" + name, -1)


def owner_value(kind: str, index: int, program, slots: Slots):
    """The Python value of an owner index of the C, by its type (emit's types)."""
    if index < 0:
        return None
    if kind == "player":
        return Seat(index)
    if kind == "team":
        return Team(index)
    if kind == "node":
        return NodeRef(slots.nodes[index])
    if kind == "component":
        return Comp(index)
    return index


def seat_mask(mask: int, n: int) -> list:
    return [Seat(s) for s in range(n) if mask >> s & 1]
