"""What a seat sees of a state, as a value: two states it cannot tell apart give equal ones.

`signature(state, seat)` is the state as the seat sees it, hashable; `Seen` remembers it
cheaply (a sketch first, the whole signature only when two sketches agree). The greedy
agent's revisits, the search's tree and the sampling of worlds (`worlds`) compare states
through them, so that none of them tells apart what the seat cannot.
"""
from __future__ import annotations

import weakref

from ..engine import keys
from ..engine.observe import counter_holder, may_see


def signature(st, seat: int):
    """The state as seat `seat` sees it, hashable: the contents of the zones it may see (of
    the others, how many components they hold), the counters it may see that differ from
    their starting value, attributes set, tags, taps, used actions, and the decision
    pending: who makes it, where in the rules, and for the seat itself its options."""
    program = st.program
    zones = []
    for key, comps in st.zones.items():
        if comps:
            if may_see(st, program.zone_def(key).visibility, program.zone_holder(key), seat):
                zones.append((key, tuple(comps)))
            else:
                zones.append((key, len(comps)))
    shown = _shown_counters(program, st.n, seat)
    counters = []
    for key, value in st.counters.items():
        keep = shown.get(key)
        if keep is None:
            keep = shown[key] = _counter_shown(st, key, seat)
        if keep is not False and value != keep:
            counters.append((key, value))
    d = st.pending
    if d is None:
        pending = (None, st.winners)
    elif int(d.player) == seat:
        # rendered here and not kept: a copy may share its decision with the real state
        pending = (seat, d.pos, tuple(d.labels if d.labels is not None else d.render(st, d)))
    else:
        pending = (int(d.player), d.pos)
    return (frozenset(zones), frozenset(counters), frozenset((c, n, repr(v)) for (c, n), v in st.over.items()),
            frozenset((c, frozenset(t)) for c, t in st.tags.items()), frozenset(st.tapped), frozenset(st.used),
            pending)


class Seen:
    """What a seat saw of one state, to remember it. Two are equal when their states have
    the same `signature`; that is worked out only when a quick sketch of the two (who
    decides where, among how many options, and the total of the counters) is the same."""

    __slots__ = ("sketch", "_state", "_seat", "_full", "_hash")

    def __init__(self, st, seat: int):
        d = st.pending
        self.sketch = ((int(d.player), d.pos, len(d.entries)) if d is not None else (None, st.winners),
                       sum(st.counters.values()))
        self._state = st  # a copy of its own, dropped once the signature is made
        self._seat = seat
        self._full = None
        self._hash = hash(self.sketch)

    def full(self):
        if self._full is None:
            self._full = signature(self._state, self._seat)
            self._state = None
        return self._full

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other) -> bool:
        return (type(other) is Seen and self._hash == other._hash and self.sketch == other.sketch
                and self.full() == other.full())


_SHOWN: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_ALWAYS = object()  # differs from every value


def _shown_counters(program, players: int, seat: int) -> dict:
    """Per counter key, for one seat at a number of players (which makes the teams): False
    when hidden from it, else the value it starts at (a supply: _ALWAYS)."""
    per_seat = _SHOWN.get(program)
    if per_seat is None:
        per_seat = _SHOWN[program] = {}
    return per_seat.setdefault((players, seat), {})


def _counter_shown(st, key: str, seat: int):
    if keys.is_supply(key):
        return _ALWAYS  # a supply is kept from the start: its value is always compared
    cdef = st.program.defn.counters.get(keys.name_of(key))
    if cdef is None:
        return False
    return cdef.initial if may_see(st, cdef.visibility, counter_holder(cdef, key), seat) else False
