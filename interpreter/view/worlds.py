"""Worlds a seat cannot tell from the real one: what a search plays in (`SeatView.sampled`).

A search must use nothing its seat cannot see. Two kinds of things are hidden from it:

- **Components in zones it may not see** (another seat's hand, a deck): they are dealt
  again among the places they occupy, each only among components of its own kind (those
  that start the game in the same zone), so that every zone keeps its count. Marks on a
  component (tags, counters) stay with its number.
- **What other seats chose secretly** (`choose ... secretly`) and the rules have not shown
  yet: kept in counters or zones only its chooser sees (a programme behind a screen, a
  sealed bid). Those choices are made again: the game is played again from its first
  decision (`State.origin`) with the choices of its history, except that each secret
  choice of another seat still hidden is drawn at random among the options it had then.
  A world is kept only when the seat sees it exactly as it sees the real state
  (`seen.signature`).

Which secret choices are still hidden is learnt as the game goes (`_Tracker`, one per
game and seat): the earliest secret choice of another seat is drawn again, with every
later one, up to TRIES times; when no draw gives a world the seat sees as the real one,
the rules have shown that choice (the programme was revealed, the bid paid), and from
then on it is played as it was made. Secret choices are judged in the order they were
made, each once, so a search pays for playing again only the choices since the earliest
one still hidden.

Then the state's random generator is reseeded, so that future draws and dice are unknown
too. What is left known to the search: the order of draws made before the secret choice
still hidden (the real generator plays them again) and counters hidden from the seat that
no secret choice set. A state that its history does not lead to from its origin (one set
up by a rules test, or restored as it is) keeps the secret choices as they were made.
A game whose chance is given from outside (`values.GivenRng`, explicit chance nodes) is
played again with the real game's outcomes, and past a secret choice drawn again, with
them while they fit and with the search's generator after.
"""
from __future__ import annotations

import weakref

from ..engine.observe import may_see
from ..engine.state import GameFault
from ..engine.values import ChanceNeeded, Rng, Seat, Team
from .seen import signature

TRIES = 4  # worlds drawn from one secret choice on before it is judged shown

_TRACKERS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # origin -> {seat: _Tracker}


def sample(st, seat: int, rng: Rng):
    """A copy of state `st` with everything seat `seat` cannot see drawn anew with `rng`:
    other seats' secret choices still hidden made again, hidden components dealt again, and
    the random generator reseeded. The seat sees it exactly as it sees `st`."""
    world = None
    if st.origin is not None:
        per_seat = _TRACKERS.get(st.origin)
        if per_seat is None:
            per_seat = _TRACKERS[st.origin] = {}
        tracker = per_seat.get(seat)
        if tracker is None:
            tracker = per_seat[seat] = _Tracker(st.origin, seat)
        world = tracker.world(st, rng)
    if world is None:
        world = st.clone()
    deal_hidden(world, seat, rng)
    world.rng = Rng(rng.next64())
    return world


def deal_hidden(st, seat: int, rng: Rng) -> None:
    """Deal again, in place, the components of `st` in zones hidden from `seat` among the
    places they occupy, each only among components of its own kind."""
    program = st.program
    kinds = _kinds(program)
    comp_owner = program.comp_owner
    slots: dict = {}  # the start zone of a kind of component -> [(zone key, index)]
    for key, comps in st.zones.items():
        if not comps:
            continue
        zdef = program.zone_def(key)
        holder = program.zone_holder(key)
        if may_see(st, zdef.visibility, holder, seat):
            continue
        own = zdef.visibility == "owner" and type(holder) not in (Seat, Team)
        for i, c in enumerate(comps):
            if own and comp_owner[c] == seat:
                continue  # its own piece in a place of the board: it sees it
            slots.setdefault(kinds[c], []).append((key, i))
    zones, where = st.zones, st.where
    dealt: dict = {}  # the zones dealt again, in the order first met
    for places in slots.values():
        if len(places) < 2:
            continue
        # in the order of their numbers, not of the places: the deal depends only on which
        # components are hidden where the seat cannot tell them apart, not on the real order
        comps = sorted(zones[k][i] for k, i in places)
        rng.shuffle(comps)
        for (k, i), c in zip(places, comps, strict=True):
            zones[k][i] = c
            where[c] = k
            dealt[k] = None
    for k in dealt:  # each zone's change counted once, however many of its places were dealt
        st.zone_changed(k)


_KINDS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # program -> each component's kind


def _kinds(program) -> list:
    """Each component's kind for a deal: the zone it starts the game in, written out (None for
    none), worked out once per program rather than at every deal of a search."""
    kinds = _KINDS.get(program)
    if kinds is None:
        kinds = _KINDS[program] = [repr(start) for start in program.comp_start]
    return kinds


class _Tracker:
    """The real game of one seat played again alongside it, decision by decision, with a copy
    kept before each secret choice of another seat not yet judged shown."""

    __slots__ = ("origin", "seat", "walker", "played", "before", "broken", "seen")

    def __init__(self, origin, seat: int):
        self.origin = origin
        self.seat = seat
        self._reset()

    def _reset(self) -> None:
        self.walker = self.origin.clone()  # the game played again up to `played`
        self.played: list[int] = []  # the choices played again so far
        self.before: dict[int, object] = {}  # index in the history -> the game just before that choice
        self.broken = False  # the history does not lead from the origin to the real state
        self.seen = (-1, None)  # (length of the history, the real state's signature then)

    def world(self, st, rng: Rng):
        """A copy of `st` with the secret choices still hidden made again, or None when there
        are none (or `st` is not where its history leads)."""
        history = st.history
        if self.played != history[:len(self.played)]:
            self._reset()  # another line of the same game: start again
        self._follow(st)
        if self.broken:
            return None
        if self.seen[0] != len(history):
            self.seen = (len(history), signature(st, self.seat))
            if signature(self.walker, self.seat) != self.seen[1]:
                self.broken = True  # set up by hand, or restored as it is
                return None
        seen = self.seen[1]
        while self.before:
            start = min(self.before)
            for _ in range(TRIES):
                world = self._drawn(start, st, rng)
                if world is not None and signature(world, self.seat) == seen:
                    return world
            del self.before[start]  # shown since: played as it was made from now on
        return None

    def _follow(self, st) -> None:
        """Play the real choices again up to the end of `st`'s history."""
        history = st.history
        w = self.walker
        w.rng = w.rng.following(st.rng)  # a game whose chance is given from outside: its outcomes
        while not self.broken and len(self.played) < len(history):
            i = len(self.played)
            d = w.pending
            if d is None or history[i] >= len(d.entries):
                self.broken = True
                return
            if d.secret and int(d.player) != self.seat:
                self.before[i] = w.clone()
            try:
                w.apply(history[i])
            except (GameFault, ChanceNeeded):  # ChanceNeeded: the real game drew otherwise
                self.broken = True
                return
            self.played.append(history[i])

    def _drawn(self, start: int, st, rng: Rng):
        """The game played again from choice `start` to now, each secret choice of another seat
        drawn at random; None when the choices made since no longer fit."""
        history = st.history
        w = self.before[start].clone()
        # outcomes given from outside: the real game's while they fit, then drawn with `rng`
        w.rng = w.rng.following(st.rng).with_fallback(rng)
        for i in range(start, len(history)):
            d = w.pending
            if d is None:
                return None
            n = len(d.entries)
            choice = rng.below(n) if d.secret and int(d.player) != self.seat else history[i]
            if choice >= n:
                return None
            try:
                w.apply(choice)
            except GameFault:
                return None
        return w
