"""The observation vector built from nothing: every zone, component and counter looked at anew,
as the layout of `encoding` describes it. It is the plain path that `Encoding.encode` (which
keeps, per seat, where each zone and counter goes) is compared with, by a test over random
games of every shipped game; nothing else uses it.
"""
from __future__ import annotations

import numpy as np

from ..engine import keys
from ..engine.observe import counter_holder, may_see
from ..engine.values import Seat, Team
from ..scopes import OwnerKind
from .encoding import PLAIN_SCOPES, seat_of


def rebuilt(enc, st, seat: int) -> np.ndarray:
    """Seat `seat`'s observation of `st` under layout `enc`, built from nothing."""
    out = np.zeros(enc.size, np.float32)
    program, n = enc.program, enc.n
    rel = [(s - seat) % n for s in range(n)]
    team_of = program.team_of(n)
    my_team = team_of[seat]
    team_rel = [(t - my_team) % len(enc.teams) for t in range(len(enc.teams))]
    enc.decision_into(out, st, seat)  # the decision block: nothing kept there to compare
    # where each component is, and what the seat sees of it
    zbase, hbase, cbase = enc.offset("zones"), enc.offset("held zones"), enc.offset("components")
    per = n + 2
    seen, zone_of, holder_of = [], [], []
    for key, comps in st.zones.items():
        zdef = program.zone_def(key)
        holder = program.zone_holder(key)
        visible = may_see(st, zdef.visibility, holder, seat)
        kind = zdef.scope.kind
        if kind in PLAIN_SCOPES:
            slot = zbase + enc.zone_slot[zdef.name]
            if kind is OwnerKind.PLAYER:
                slot += rel[int(holder)]
            elif kind is OwnerKind.TEAM:
                slot += team_rel[int(holder)]
            out[slot] += len(comps)
            held = False
        else:
            where = enc.node_index.get(holder, 0) if kind is OwnerKind.NODE else int(holder)
            slot = hbase + enc.held_base[zdef.name] + where * per
            held = True
        owner_sees = zdef.visibility == "owner" and type(holder) not in (Seat, Team)
        if not (visible or owner_sees or held):
            continue
        holder_seat = seat_of(st, holder)
        zi = enc.zone_names.index(zdef.name)
        hr = n if holder_seat is None else rel[holder_seat]
        owners = program.comp_owner
        for c in comps:
            c = int(c)
            sees = visible or (owner_sees and owners[c] == seat)
            if held:
                o = owners[c]
                out[slot + (0 if not sees else (1 if o is None else 2 + rel[o]))] += 1
            if sees:
                seen.append(c)
                zone_of.append(zi)
                holder_of.append(hr)
    if seen:
        _components(enc, out[cbase:cbase + enc.comps * enc.comp_width].reshape(enc.comps, enc.comp_width),
                         st, np.array(seen), np.array(zone_of), np.array(holder_of))
    # counters
    kbase = enc.offset("counters")
    counters = enc.defn.counters
    for key, value in st.counters.items():
        if keys.is_supply(key):
            continue
        cdef = counters.get(keys.name_of(key))
        if cdef is None or not may_see(st, cdef.visibility, counter_holder(cdef, key), seat):
            continue
        slot = enc._counter_slot(cdef, key, rel, team_rel)
        if slot is not None:
            out[kbase + enc.counter_slot[cdef.name] + slot] = value
    for i, cdef in enumerate(enc.supplies):
        out[kbase + enc.supply_base + i] = st.counters.get(cdef.supply_key, 0)
    return out


def _components(enc, rows, st, seen, zone_of, holder_of) -> None:
    z = len(enc.zone_names)
    rows[seen, 0] = 1
    rows[seen, 1 + zone_of] = 1
    rows[seen, 1 + z + holder_of] = 1
    tapped = 1 + z + enc.n + 1
    tags_at = tapped + 1
    rows[seen, tags_at:] = enc.static[seen]
    visible = set(seen.tolist())
    for c in st.tapped:
        if int(c) in visible:
            rows[int(c), tapped] = 1
    for c, tags in st.tags.items():
        if int(c) in visible:
            for t in tags:
                if t in enc.tagged:
                    rows[int(c), tags_at + enc.tagged.index(t)] = 1
    for c, _name in st.over:
        if int(c) in visible:
            rows[int(c), tags_at:] = enc._own_values(st, int(c))
            for t in st.tags.get(c, ()):
                if t in enc.tagged:
                    rows[int(c), tags_at + enc.tagged.index(t)] = 1
