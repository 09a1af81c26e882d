"""Observation vectors kept from step to step: each seat's vector changed only where the state
changed since that seat's last one.

An environment asks for the vector of the same state object after every step, a different
seat each time. `KeptObservations.encode(st, seat)` keeps, per seat, the vector it gave last
and what it was made of: the members of each zone, who controlled each component that holds
a zone or counters only some seats see, and how much of the state's logs of changes it has
written. The next call for that seat and the same state writes again only what differs:

- the zones whose contents changed, as the state's log of them says (`State.zone_log`: the
  key of each zone a move, shuffle or deal changed), member by member while the seat sees
  them as before; and the zones of components whose holder changed hands (it moved, or a
  component holding it did): who sees them and whose they are;
- the counters whose value changed, as the state's log of them says (`State.counter_log`),
  and those of components that changed hands;
- the rows of the components whose taps, tags or attributes changed, as the state's log of
  them says (`State.mark_log`).

A new state object is encoded from nothing (`Encoding.encode`). A fast path of
`Encoding.encode`, fenced: tests compare its vectors with the ones built from nothing
(`encoding_plain.rebuilt`) for every seat after every step of random games of every shipped
game, and of a game whose cards, holding a zone and a counter only their controller sees,
change hands.
"""
from __future__ import annotations

from itertools import islice

import numpy as np

from ..engine import keys
from ..engine import machine as vm
from ..engine.observe import may_see
from ..engine.values import Comp

# the most keys a state's logs hold before an observer starts them again (and encodes its seats
# from nothing once): a game of a million decisions does not keep ten million keys
MAX_LOG = 1_000_000


class KeptObservations:
    """The vectors of one layout (`encoding.Encoding`), kept per seat."""

    def __init__(self, encoding, scaled: bool = False):
        self.enc = encoding
        self.scaled = scaled  # the values handed out mapped into [-1, 1] (Encoding.scaled)
        self.kept: dict = {}  # seat -> _Kept
        # seat -> (counter of no component the seat sees -> its place, counter not in the vector ->
        # whether it is a supply): the same in every game, so kept from one game to the next
        self.places: dict = {}

    def encode(self, st, seat: int) -> np.ndarray:
        if st.zone_log is None or len(st.zone_log) + len(st.counter_log) + len(st.mark_log) > MAX_LOG:
            st.zone_log, st.counter_log, st.mark_log = [], [], []  # an observer that followed the old ones encodes anew
        k = self.kept.get(seat)
        if k is None or k.state is not st or k.zlog is not st.zone_log:
            places = self.places.get(seat)
            if places is None:
                places = self.places[seat] = ({}, {})
            k = self.kept[seat] = _Kept(self.enc, st, seat, places)
        else:
            k.update(st)
        # a new array: the caller may keep it, and the kept one goes on changing
        return self.enc.scaled(k.out) if self.scaled else k.out.copy()


class _Kept:
    __slots__ = ("enc", "state", "seat", "out", "flat", "zones", "held_by", "chained", "plain_at", "held_at",
                 "absent", "owners", "fixed", "counted", "grouped", "zone_plans", "counter_plans", "zlog", "zseen",
                 "cseen", "mseen")

    def __init__(self, enc, st, seat: int, places: tuple):
        self.enc, self.state, self.seat = enc, st, seat
        self.out = np.zeros(enc.size, np.float32)
        # every write goes through a memoryview of the vector: a third of the cost of numpy's
        # indexing for one value or a row
        self.flat = memoryview(self.out)
        # zones whose view is fixed for the seat (`_is_fixed`: it always sees into them or never
        # does, whoever holds them). Those it sees into: key -> its members when last written,
        # whose changes are written member by member; those it never sees into: key -> their
        # number, all the vector shows of them
        self.fixed: dict = {}
        self.counted: dict = {}
        # the other zones: key -> (members, controller of its holder, whether the seat sees into
        # it, the relative seat holding it)
        self.zones: dict = {}
        # the counters of components: who sees them follows who controls the component. Component
        # -> [(visibility, [its controller, whether the seat sees its counters, {place: key}])]
        self.held_by: dict = {}
        # counter of no component the seat sees -> its place; counter not in the vector -> whether
        # it is a supply (whose slots are written apart): met in this game or an earlier one
        self.plain_at, self.absent = places
        self.held_at: dict = {}  # counter of a component -> (its place, its holder's record in `held_by`)
        self.chained: set = set()  # the components of `held_by` lying in the zone of a component
        # component -> (its zone, its controller, the component holding that zone or None) when
        # last asked: while it lies in the same zone of a seat, team, node or the game, its
        # controller is the same (it follows the zone's holder alone)
        self.owners: dict = {}
        # the state's logs of changed zones, counters, and taps, tags and attributes, and how much
        # of each was written (the rows written below hold the taps, tags and attributes of now)
        self.zlog, self.zseen, self.cseen, self.mseen = st.zone_log, len(st.zone_log), len(st.counter_log), len(
            st.mark_log)
        self.grouped = (len(st.zones), _held_by_components(enc.program, st.zones, []))  # (zones, keys of those)
        enc.decision_into(self.flat, st, seat)
        # the seat's plans of zones and counters (`Encoding.plans`), filled as keys are met
        self.zone_plans, self.counter_plans = enc.plans(seat)
        for key, comps in st.zones.items():
            if comps:
                self._add_zone(st, key, comps, True)
        self._counters(st, None, every=True)

    def controller(self, st, c):
        """Who controls component `c` (engine.machine.controller), asked again only when it moved
        or lies in the zone of another component."""
        where = st.where[c]
        known = self.owners.get(c)
        if known is not None and known[0] == where and known[2] is None:
            return known[1]
        known = self._know(st, c)
        # the components holding it, up the chain, known too: so that `may_change_hands` can tell
        # that they stayed where they were (an update forgets those that moved)
        parent = known[2]
        for _ in range(64):
            if parent is None or parent in self.owners:
                break
            parent = self._know(st, parent)[2]
        return known[1]

    def _know(self, st, c) -> tuple:
        """Ask where component `c` lies, who controls it and which component holds its zone, and
        keep the answer (`owners`)."""
        where = st.where[c]
        holder = self.enc.program.zone_holder(where) if where is not None else None
        known = self.owners[c] = (where, vm.controller(st, c), holder if type(holder) is Comp else None)
        return known

    def may_change_hands(self, c, moved: set) -> bool:
        """Whether component `c` may be controlled by another than when last asked: it moved, or
        it lies in the zone of another component (which may have moved), or was never asked."""
        for _ in range(64):  # as engine.machine.controller, up the components holding components
            if c in moved:
                return True
            known = self.owners.get(c)
            if known is None:
                return True
            if known[2] is None:
                return False
            c = known[2]
        return True

    # the parts of the vector ----------------------------------------------------------------------
    def _add_zone(self, st, key, comps, rows: bool = False) -> None:
        """Add zone `key`'s counts to the vector and keep its members; with `rows`, write the
        rows of the members the seat sees too."""
        plan = self._zone_plan(key)
        if _is_fixed(plan):
            self.enc.count_into(self.flat, plan, plan[4], comps, self.seat, 1)
            if not plan[4]:
                self.counted[key] = len(comps)
                return
            self.fixed[key] = comps[:]
            if rows:
                for c in comps:
                    self.enc.row_into(self.flat, st, c, plan[5], plan[6])
            return
        holder = plan[2]
        ctrl = self.controller(st, holder) if type(holder) is Comp else None
        visible, hr = self.enc.zone_view(st, plan, self.seat)
        self.enc.count_into(self.flat, plan, visible, comps, self.seat, 1)
        if rows:
            for c in self.enc.seen_members(plan, visible, comps, self.seat):
                self.enc.row_into(self.flat, st, c, plan[5], hr)
        # the zone's own list goes on changing with the moves: a copy
        self.zones[key] = (comps[:], ctrl, visible, hr)

    def _zone_plan(self, key) -> tuple:
        """What zone `key` gives the seat (`Encoding._zone_plan`), worked out when first met."""
        plan = self.zone_plans.get(key)
        if plan is None:
            plan = self.zone_plans[key] = self.enc._zone_plan(key, self.seat)
        return plan

    def _remove_zone(self, key):
        """Take zone `key`'s counts out of the vector: (the zone's index, the relative holder and
        the members the seat saw there), for their rows, or None when it saw none."""
        old = self.zones.pop(key, None)
        if old is None:
            return None
        members, _, visible, hr = old
        plan = self.zone_plans[key]
        self.enc.count_into(self.flat, plan, visible, members, self.seat, -1)
        seen = self.enc.seen_members(plan, visible, members, self.seat)
        return (plan[5], hr, seen) if seen else None

    def _marks(self, st, rewritten) -> None:
        """Rewrite the rows of the seen components whose taps, tags or attributes changed since
        last written, as the state's log of them says (not those in `rewritten`, written anew
        already)."""
        log = st.mark_log
        if len(log) == self.mseen:
            return
        for c in dict.fromkeys(log[self.mseen:]):
            if c not in rewritten:
                at = self._seen_at(st, c)
                if at is not None:
                    self.enc.row_into(self.flat, st, c, *at)
        self.mseen = len(log)

    def _seen_at(self, st, c):
        """(zone index, relative holder) where the seat sees component `c` now, or None when it
        does not see it."""
        key = st.where[c]
        if key in self.fixed:  # a zone of fixed view the seat sees into
            plan = self.zone_plans[key]
            return plan[5], plan[6]
        kept = self.zones.get(key)
        if kept is None:
            return None
        plan = self.zone_plans[key]
        visible = kept[2]
        if visible or (plan[7] and self.enc.program.comp_owner[c] == self.seat):
            return plan[5], kept[3]
        return None

    def _counters(self, st, moved, every: bool = False) -> None:
        """Write the counters the state's log says changed since (a state never drops a counter:
        one set to 0 keeps its key; writing one whose value came back costs what comparing it
        would), or with `every` all of them; with `moved`, the components that moved, the
        counters of each component whose controller changed (who sees them)."""
        enc, seat, out = self.enc, self.seat, self.flat
        counters = st.counters
        if moved and self.held_by:
            # the holders that may have changed hands: those that moved, and those lying in the
            # zone of a component (which may have moved); the others keep their controller
            held_by, chained = self.held_by, self.chained
            # (a holder that moved may have changed hands: `may_change_hands` is asked of the others)
            for holder in [c for c in moved if c in held_by] + [c for c in chained
                                                                 if c not in moved and self.may_change_hands(c, moved)]:
                ctrl = self.controller(st, holder)
                self._chain(holder)
                for visibility, rec in held_by[holder]:
                    if ctrl != rec[0]:
                        rec[0], rec[1] = ctrl, may_see(st, visibility, holder, seat)
                        for at, key in rec[2].items():
                            out[at] = counters.get(key, 0) if rec[1] else 0
        if every:
            names = counters
        elif len(st.counter_log) == self.cseen:
            return  # no counter changed
        else:
            names = dict.fromkeys(st.counter_log[self.cseen:])
        plain, held_at, absent = self.plain_at, self.held_at, self.absent
        supplies = False  # whether a supply changed: its slot is written below
        for key in names:
            at = plain.get(key)
            if at is not None:  # a counter of no component, which the seat sees: the common case
                out[at] = counters[key]
                continue
            known = held_at.get(key)
            if known is not None:  # a component's counter met before: seen as the component is
                at, rec = known
                out[at] = counters[key] if rec[1] else 0
                continue
            supply = absent.get(key)
            if supply is not None:  # not in the vector
                supplies = supplies or supply
                continue
            supplies = self._counter(st, key, counters[key]) or supplies
        if supplies:
            for at, skey in enc._supply_slots:
                out[at] = counters.get(skey, 0)
        self.cseen = len(st.counter_log)

    def _counter(self, st, key, value) -> bool:
        """Write counter `key` of value `value` if the vector has it, keeping where a counter of
        no component goes (`plain_at`) and who sees a component's (`held_by`); whether it is a
        supply (whose slot is written apart)."""
        plan = self.counter_plans.get(key)
        if plan is None:
            plan = self.counter_plans[key] = self.enc._counter_plan(key, self.seat)
        if plan is False:
            supply = self.absent[key] = keys.is_supply(key)
            return supply
        at, visibility, holder = plan
        if holder is None:
            self.plain_at[key] = at
            self.flat[at] = value
            return False
        recs = self.held_by.setdefault(holder, [])
        rec = next((r for v, r in recs if v == visibility), None)
        if rec is None:
            rec = [self.controller(st, holder), may_see(st, visibility, holder, self.seat), {}]
            recs.append((visibility, rec))
            self._chain(holder)
        rec[2][at] = key
        self.held_at[key] = (at, rec)
        self.flat[at] = value if rec[1] else 0
        return False

    def _chain(self, holder) -> None:
        """Keep in `chained` whether component `holder` lies in the zone of a component."""
        if self.owners[holder][2] is None:
            self.chained.discard(holder)
        else:
            self.chained.add(holder)

    # a later state of the same game ------------------------------------------------------------
    def update(self, st) -> None:
        enc, seat, out = self.enc, self.seat, self.flat
        enc.clear_decision(out)
        enc.decision_into(out, st, seat)
        zone_plans = self.zone_plans
        changed = []  # the zones not of fixed view to write anew
        shifted = []  # (key, record, left, came) of the other zones whose members changed
        moved = ()  # the components whose controller is known that lie elsewhere than when asked
        left_rows, came_rows = [], []  # members no longer seen where they were; (members, zi, hr) seen anew
        log = st.zone_log
        if len(log) != self.zseen:  # some zone's members changed (the state logs every change)
            zones, kept, fixed, counted = st.zones, self.zones, self.fixed, self.counted
            if len(zones) != self.grouped[0]:  # zones are only ever added, at the end of the dict
                self.grouped = (len(zones), _held_by_components(self.enc.program, islice(zones, self.grouped[0], None),
                                                                self.grouped[1]))
            for key in dict.fromkeys(log[self.zseen:]):
                comps = zones[key]
                was = counted.get(key)
                if was is not None:  # a zone the seat never sees into: its number alone
                    if len(comps) != was:
                        out[zone_plans[key][0]] += len(comps) - was
                        counted[key] = len(comps)
                    continue
                old = fixed.get(key)
                if old is None and key not in kept:  # a zone met for the first time
                    plan = self._zone_plan(key)
                    if _is_fixed(plan):
                        if not plan[4]:
                            counted[key] = len(comps)
                            out[plan[0]] += len(comps)
                            continue
                        old = fixed[key] = []
                if old is not None:  # a zone of fixed view the seat sees into: member by member
                    if old != comps:
                        plan = zone_plans[key]
                        fixed[key] = comps[:]
                        left, came = _difference(old, comps)
                        if plan[1]:  # counted per member's owner
                            self.enc.count_into(self.flat, plan, True, left, self.seat, -1)
                            self.enc.count_into(self.flat, plan, True, came, self.seat, 1)
                        else:  # its number alone, as `Encoding.count_into` would, without the calls: the common case
                            out[plan[0]] += len(comps) - len(old)
                        left_rows.extend(left)
                        if came:
                            came_rows.append((came, plan[5], plan[6]))
                    continue
                old = kept.get(key)
                if old is None:
                    if comps:
                        changed.append(key)
                elif old[0] != comps:
                    left, came = _difference(old[0], comps)
                    shifted.append((key, old, left, came))
            owners = self.owners
            if owners:
                where = st.where
                moved = {c for c, known in owners.items() if where[c] != known[0]}
                for c in moved:  # asked again when needed (not found moved again at the next update)
                    del owners[c]
            for key, old, left, came in shifted:
                # a zone whose holder's controller is the same as when last written shows the
                # seat what it did: written member by member, as a zone of fixed view is
                plan = zone_plans[key]
                holder = plan[2]
                if (self.controller(st, holder) if type(holder) is Comp else None) != old[1]:
                    changed.append(key)  # seen otherwise: taken out and added back whole
                    continue
                visible, hr = old[2], old[3]
                self.enc.count_into(self.flat, plan, visible, left, self.seat, -1)
                self.enc.count_into(self.flat, plan, visible, came, self.seat, 1)
                kept[key] = (zones[key][:], old[1], visible, hr)
                left_rows.extend(self.enc.seen_members(plan, visible, left, self.seat))
                came = self.enc.seen_members(plan, visible, came, self.seat)
                if came:
                    came_rows.append((came, plan[5], hr))
            touched = set(changed)
            touched.update(key for key, _, _, _ in shifted)
            for key in self.grouped[1]:  # zones of components: their holder may have changed hands
                old = kept.get(key)
                if old is None or key in touched:
                    continue
                holder = zone_plans[key][2]
                known = owners.get(holder)
                if known is not None and known[2] is None and holder not in moved:
                    continue  # as may_change_hands says, without the call: the common case
                if self.may_change_hands(holder, moved) and self.controller(st, holder) != old[1]:
                    changed.append(key)  # who sees it, and whose it is
            self.zseen = len(log)
        if changed:
            # what each changed zone showed the seat: (zone index, relative holder, members) or None
            gone = {key: self._remove_zone(key) for key in changed}
            for key in changed:
                comps = st.zones[key]
                if comps:
                    self._add_zone(st, key, comps)
            kept = self.zones
            for key, was in gone.items():
                now = kept.get(key)
                sees = None
                if now is not None:
                    plan = zone_plans[key]
                    seen = self.enc.seen_members(plan, now[2], now[0], self.seat)
                    sees = (plan[5], now[3], seen) if seen else None
                if was is not None and sees is not None and sees[:2] == was[:2]:
                    left, came = _difference(was[2], sees[2])
                else:
                    left = was[2] if was is not None else ()
                    came = sees[2] if sees is not None else ()
                left_rows.extend(left)
                if came:
                    came_rows.append((came, sees[0], sees[1]))
        # the rows of members seen anew, or seen otherwise than before, written whole; those of
        # members no longer seen where they were and not seen elsewhere: 0
        rewritten = set()
        if came_rows:
            for came, zi, hr in came_rows:
                for c in came:
                    enc.row_into(out, st, c, zi, hr)
                rewritten.update(came)
        for c in left_rows:
            if c not in rewritten:
                enc.clear_row(out, c)
        if len(st.mark_log) != self.mseen:  # not the rows written anew above, with their taps, tags and attributes
            self._marks(st, rewritten)
        self._counters(st, moved)


def _is_fixed(plan) -> bool:
    """Whether a zone's view (`Encoding._zone_plan`) is the same in every state: the seat sees
    into it or not whoever controls its holder, from the same relative seat, and sees every
    member or none."""
    return plan[4] is not None and plan[6] is not None and (plan[4] or not plan[7])


def _difference(old: list, new: list) -> tuple:
    """(the members of `old` not in `new`, those of `new` not in `old`), for two lists of distinct
    components: most changes take from or add to one end of a zone, or take one member from
    anywhere (a card played from a hand), which comparisons of lists tell without looking at
    each member in Python."""
    n, m = len(old), len(new)
    if m >= n:
        if new[:n] == old:
            return (), new[n:]
        if new[m - n:] == old:
            return (), new[:m - n]
        if m == n + 1:  # one came, not at an end: the difference of the sums of ids names it
            i = _index(new, sum(new) - sum(old))
            if i >= 0 and new[:i] == old[:i] and new[i + 1:] == old[i:]:
                return (), new[i:i + 1]
    else:
        if old[:m] == new:
            return old[m:], ()
        if old[n - m:] == new:
            return old[:n - m], ()
        if m == n - 1:  # one left, not from an end
            i = _index(old, sum(old) - sum(new))
            if i >= 0 and old[:i] == new[:i] and old[i + 1:] == new[i:]:
                return old[i:i + 1], ()
    was, now = set(old), set(new)
    return [c for c in old if c not in now], [c for c in new if c not in was]


def _index(members: list, c: int) -> int:
    """Where `c` lies in `members`, or -1."""
    try:
        return members.index(c)
    except ValueError:
        return -1


def _held_by_components(program, zones, out: list) -> list:
    """`out`, with the keys of `zones` held by components added (their holder may change hands).
    A state never drops a zone and a dict keeps the order keys came in, so the keys new since the
    last look are those past its length."""
    for key in zones:
        if type(program.zone_holder(key)) is Comp:
            out.append(key)
    return out
