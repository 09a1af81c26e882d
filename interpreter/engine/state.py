"""The game state: plain data, cheap to clone, serialisable to JSON.

Zones are lists of component ids keyed by zone key; counters are ints keyed
by counter key; the seeded generator is one integer. The suspended procedure
calls (frames) are part of the state too, so a game can be cloned, saved and
restored in the middle of a turn. Every change goes through the methods here,
which keep the invariants (each component in exactly one zone, counters
within their floor, ceiling and supply) and write the trace.
"""
from __future__ import annotations

import enum
from typing import NamedTuple

from . import keys, spoken
from .events import COUNTER, CUT, MOVE, SHUFFLE, TAG, TAP, UNTAG, UNTAP
from ..limits import MAX_NUMBER, MAX_TRACE_EVENTS, runaway_message

from .values import Comp, NodeRef, Rng, Seat, Team, ZoneRef


class GameFault(Exception):
    """The game cannot go on: a content rule did something impossible."""

    def __init__(self, message: str, pos=None):
        super().__init__(message)
        self.message = message
        self.pos = pos

    def __str__(self):
        return f"{self.pos}: {self.message}" if self.pos else self.message


class Frame:
    """One running procedure or ability: its code, where it is, its locals."""

    __slots__ = ("code", "pc", "env", "me", "you")

    def __init__(self, code, pc, env, me, you):
        self.code = code
        self.pc = pc
        self.env = env
        self.me = me
        self.you = you

    def copy(self) -> "Frame":
        return Frame(self.code, self.pc, dict(self.env), self.me, self.you)


class DecisionKind(enum.StrEnum):
    """What a decision asks: a value for a `choose`, an option of a menu, or whether to use an
    optional ability (yes or no)."""
    CHOOSE = "choose"
    MENU = "menu"
    ASK = "ask"


class OptionKind(enum.StrEnum):
    """The options of a decision, as a saved state tags them."""
    PICK = "v"
    MENU_PICK = "opt"
    ACTION = "act"
    YES = "yes"
    NO = "no"


# The options of a decision: what answering it with each does.
class Pick(NamedTuple):
    """An option of a choice (`choose x from ...`): the value given to its variable."""
    var: str
    value: object
    kind = OptionKind.PICK  # as a saved state writes it


class MenuPick(NamedTuple):
    """An option of a menu: option `option` of its spec, for `value` when the option has a variable."""
    option: int
    value: object
    kind = OptionKind.MENU_PICK


class ActionPick(NamedTuple):
    """An action of a component offered in a menu: action `index` of component `comp`."""
    comp: object
    index: int
    kind = OptionKind.ACTION


class Yes(NamedTuple):
    """Yes, to the question whether to use an optional ability."""
    kind = OptionKind.YES


class No(NamedTuple):
    """No, to the question whether to use an optional ability."""
    kind = OptionKind.NO


OPTION_KINDS = {cls.kind: cls for cls in (Pick, MenuPick, ActionPick, Yes, No)}


class Decision:
    """A choice the game waits for: who decides, and the options with their labels.

    Labels are only needed by people, traces and scripts: a menu's are rendered
    on first request (`labels_for`), not each time a bot decides."""

    __slots__ = ("player", "_prompt", "labels", "entries", "kind", "pos", "spec", "render", "_asked", "secret")

    def __init__(self, player, prompt, labels, entries, kind: DecisionKind, pos, render=None):
        self.player = player
        self._prompt = prompt
        self.labels = labels
        self.entries = entries
        self.kind = kind
        self.pos = pos
        self.spec = None
        self.render = render
        self._asked = None
        self.secret = False  # what is chosen is told to no other seat (`choose ... secretly`)

    def defer_prompt(self, text, st, fr) -> None:
        """Render the prompt (`text(st, fr)`) only when someone reads it."""
        self._asked = (text, st, fr)

    @property
    def prompt(self) -> str:
        if self._asked is not None:
            text, st, fr = self._asked
            self._asked = None
            self._prompt = text(st, fr)
        return self._prompt

    @prompt.setter
    def prompt(self, value: str) -> None:
        self._prompt, self._asked = value, None

    def labels_for(self, st) -> list:
        """The labels, rendered against `st` (the state whose decision this is)."""
        if self.labels is None:
            self.labels = self.render(st, self)
        return self.labels


class State:
    __slots__ = ("program", "n", "options", "zones", "where", "counters", "over", "tags", "tapped", "used", "rng",
                 "frames", "pending", "winners", "trace", "history", "ops", "seed", "memo", "credit", "static",
                 "in_play_cache", "vp", "vz", "vc", "vt", "vo", "zv", "cv", "play_keys", "fuel", "trace_mark",
                 "moves", "powers", "origin", "kept", "zone_log", "counter_log", "mark_log", "__weakref__")

    def __init__(self, program, n: int, seed: int, options: dict):
        self.program = program
        self.n = n
        self.seed = seed
        self.options = options
        # seat from 1 -> the card id of the power it was given at the start: with the seed, the
        # options and the history, what plays the game again to this state (a save is checked so)
        self.powers: dict[int, str] = {}
        self.zones: dict[str, list] = {}
        self.where: list = [None] * len(program.comp_card)
        self.counters: dict[str, int] = {}
        self.over: dict = {}
        self.tags: dict[int, tuple] = {}
        self.tapped: set = set()
        self.used: set = set()
        self.rng = Rng(seed)
        self.frames: list[Frame] = []
        self.pending: Decision | None = None
        self.winners = None
        self.trace = None
        self.history: list[int] = []
        self.ops = 0
        self.fuel = program.step_budget  # work left before the next decision (interpreter.limits)
        self.trace_mark = 0  # the length of the trace at the last decision (interpreter.limits.MAX_TRACE_EVENTS)
        # changes by kind, for results that read only some of the state: zones, counters,
        # tags (and taps), attributes set by the rules; each only grows
        self.vz = self.vc = self.vt = self.vo = 0
        # changes of what is in play: moves into or out of an in-play zone, and orders of one
        # (most moves, of decks, hands and markets, leave it alone; engine.machine.in_play)
        self.vp = 0
        self.zv = [0] * len(program.zones)  # changes per zone (all zones of one name together)
        self.cv = [0] * len(program.counters)  # changes per counter (of every owner together)
        self.memo: dict = {}
        # game function -> {arguments: [stamp, members, whether each passes, the list or None,
        # owners changed since, owner -> indexes of its members]}: lists kept member by member
        # (compile.kept_lists); what a change marks is the owner part of the key that changed
        self.kept: dict = {}
        self.credit: dict = {}  # (component, score counter key) -> points scored on its account
        self.static: dict = {}  # results of game functions that never change in a game
        self.in_play_cache = [-1, {}]  # [vp when made, {player or None: components in play}]
        self.play_keys = (0, ())  # (number of zones, keys of the in-play ones, in order)
        # None, or a list that every change of zone is appended to as (component, from, to): an
        # observer's record (the facts of a game that `simulate --results` keeps), not the state
        self.moves = None
        # None, or lists that the key of every zone whose contents change, of every counter whose
        # value changes, and the component of every tap, tag or attribute the rules change, is
        # appended to: for an observer that follows the state change by change
        # (rl.kept_observation), not part of the state
        self.zone_log = self.counter_log = self.mark_log = None
        # the game at its first decision, which every later state of it shares (never changed):
        # with the history, what a search plays again to make worlds a seat cannot tell apart
        self.origin = None

    # cloning ---------------------------------------------------------------
    def clone(self) -> "State":
        s = State.__new__(State)
        s.program, s.n, s.seed, s.options = self.program, self.n, self.seed, self.options
        s.powers = self.powers  # shared: set once, at the start
        s.zones = {k: v[:] for k, v in self.zones.items()}
        s.where = self.where[:]
        s.counters = self.counters.copy()
        s.over = self.over.copy()
        s.tags = self.tags.copy()
        s.tapped = self.tapped.copy()
        s.used = self.used.copy()
        s.rng = self.rng.copy()
        s.frames = [f.copy() for f in self.frames]
        if self.pending is not None:
            self.pending.prompt  # noqa: B018 - rendered now, while the frames it reads are this state's
        s.pending = self.pending
        s.winners = self.winners
        s.trace = None
        s.history = self.history[:]
        s.ops = self.ops
        s.fuel = self.program.step_budget
        s.trace_mark = 0
        s.vz, s.vc, s.vt, s.vo = self.vz, self.vc, self.vt, self.vo
        s.vp = self.vp
        s.zv = self.zv[:]
        s.cv = self.cv[:]
        s.memo = {}
        s.kept = {name: {k: [e[0], e[1], e[2][:], e[3], set(e[4]), e[5]] for k, e in d.items()}
                  for name, d in self.kept.items()} if self.kept else {}
        s.credit = self.credit.copy()
        s.static = self.static  # shared: the same in every state of one game
        s.in_play_cache = [-1, {}]
        s.play_keys = self.play_keys
        s.moves = None  # a copy (a bot looking ahead) is not observed
        s.zone_log = s.counter_log = s.mark_log = None
        s.origin = self.origin
        return s

    # trace -----------------------------------------------------------------
    def recording(self) -> bool:
        """Whether the trace still records events before the next decision (MAX_TRACE_EVENTS):
        past that, texts are not even rendered."""
        return len(self.trace) - self.trace_mark < MAX_TRACE_EVENTS

    def emit(self, kind: str, pos, **fields) -> None:
        trace = self.trace
        if trace is not None:
            if len(trace) - self.trace_mark >= MAX_TRACE_EVENTS:
                # runaway content filling the trace: one event says how many were left out
                if trace[-1]["type"] != CUT:
                    trace.append({"n": len(trace), "type": CUT, "left_out": 0})
                trace[-1]["left_out"] += 1
                return
            event = {"n": len(trace), "type": kind, **fields}
            if pos is not None:
                event["at"] = f"{pos.path}:{pos.line}"
            self.trace.append(event)

    # keys ------------------------------------------------------------------
    def zone_key(self, name: str, owner) -> ZoneRef:
        return ZoneRef(keys.key(name, owner))

    def team_of(self, player) -> Team:
        return Team(self.program.team_of(self.n)[int(player)])

    # components ------------------------------------------------------------
    def move(self, c, zone: str, bottom: bool, pos) -> None:
        if type(c) is not Comp:
            raise GameFault(f"only components can be moved, not {describe(c, self.program)}", pos)
        if type(zone) is not ZoneRef and not isinstance(zone, ZoneRef):
            raise GameFault(f"the destination of a move must be a zone, not {describe(zone, self.program)}", pos)
        old = self.where[c]
        if old == zone:
            # already there: it goes on top (or to the bottom), as a move into the zone would
            lst = self.zones[zone]
            if (lst[0] is not c) if bottom else (lst[-1] is not c):
                lst.remove(c)
                if bottom:
                    lst.insert(0, c)
                else:
                    lst.append(c)
                self.zone_changed(zone)
                if self.trace is not None:
                    self.emit(MOVE, pos, card=self.program.comp_card[c].id, id=int(c), **{"from": old, "to": str(zone)})
            return
        program = self.program
        zdef = program.zone_defs.get(zone) or program.zone_def(zone)
        target = self.zones.get(zone)
        if target is None:
            target = self.zones[zone] = []
        if zdef.capacity is not None and len(target) >= zdef.capacity:
            raise GameFault(f"{spoken.zone(program, zone)} is full (it holds at most {zdef.capacity})", pos)
        if len(target) >= program.zone_limit:
            raise GameFault(f"{spoken.zone(program, zone)} grows without bound ({len(target)} components)", pos)
        self._place(c, old, zone, zdef, target, bottom, pos)

    def zone_changed(self, zone) -> None:
        """Count a change of the contents of `zone` made in place (an order, a deal): what was
        computed from it is computed again."""
        self.vz += 1
        zdef = self.program.zone_def(zone)
        if zdef.in_play:
            self.vp += 1
        i = zdef.index
        self.zv[i] += 1
        if self.program.watch_zones[i]:
            self._mark(self.program.watch_zones[i], zone)
        if self.zone_log is not None:
            self.zone_log.append(zone)

    def _mark(self, names: tuple, key: str) -> None:
        """Mark the owner of the zone or counter `key`, which changed, in the lists the game
        functions `names` keep member by member (compile.kept_lists)."""
        kept = self.kept
        owner = None
        for name in names:
            lists = kept.get(name)
            if lists:
                if owner is None:
                    owner = keys.first_owner(key)
                for e in lists.values():
                    e[4].add(owner)

    def _place(self, c, old, zone, zdef, target, bottom: bool, pos) -> None:
        """Take `c` from zone `old` into `target` (the list of `zone`, a zone of `zdef`), count
        the change, and drop what it does not keep there: its tap out of play, its tags
        outside the zones that keep them, the counters not kept there."""
        program = self.program
        if old is not None:
            lst = self.zones[old]
            if lst[-1] is c:  # most moves take the top: no scan of a long list
                lst.pop()
            else:
                lst.remove(c)
        if bottom:
            target.insert(0, c)
        else:
            target.append(c)
        self.where[c] = zone
        self.vz += 1
        zv = self.zv
        zv[zdef.index] += 1
        if zdef.in_play:
            self.vp += 1
        if program.watch_zones[zdef.index]:
            self._mark(program.watch_zones[zdef.index], zone)
        if old is not None:
            odef = program.zone_defs.get(old) or program.zone_def(old)
            if odef.in_play:
                self.vp += 1
            i = odef.index
            zv[i] += 1
            if program.watch_zones[i]:
                self._mark(program.watch_zones[i], old)
        if self.zone_log is not None:
            self.zone_log.append(zone)
            if old is not None:
                self.zone_log.append(old)
        if self.tapped and c in self.tapped and not zdef.in_play:
            self.tapped.discard(c)
            if self.mark_log is not None:
                self.mark_log.append(c)
        if self.tags and c in self.tags and program.tag_zones is not None and zdef.name not in program.tag_zones:
            for t in self.tags[c]:
                self.emit(UNTAG, pos, card=program.comp_card[c].id, id=int(c), tag=t)
            del self.tags[c]
            if self.mark_log is not None:
                self.mark_log.append(c)
        lost = program.counters_lost_in[zdef.index][c]
        if lost is None:
            lost = program.lost_counters(zdef, c)
        if lost:
            counters = self.counters
            for key, cdef in lost:
                if key in counters:
                    self.set_counter(key, cdef, 0, pos)
        if self.moves is not None:
            self.moves.append((c, old, zone))
        if self.trace is not None:
            self.emit(MOVE, pos, card=program.comp_card[c].id, id=int(c), **{"from": old, "to": str(zone)})

    def move_many(self, comps, zone, bottom: bool, pos) -> None:
        """Move components one after the other, exactly as `move` would, with the zone's
        definition, list and checks looked up once: a round's set-up moves whole decks."""
        if type(zone) is not ZoneRef or not comps:
            for c in comps:  # the general case, with its errors (and no zone made for nothing)
                self.move(c, zone, bottom, pos)
            return
        program = self.program
        zdef = program.zone_defs.get(zone) or program.zone_def(zone)
        target = self.zones.get(zone)
        if target is None:
            target = self.zones[zone] = []
        room = program.zone_limit if zdef.capacity is None else min(zdef.capacity, program.zone_limit)
        where = self.where
        for c in comps:
            old = where[c] if type(c) is Comp else None
            if old is None or old == zone or len(target) >= room:
                self.move(c, zone, bottom, pos)
            else:
                self._place(c, old, zone, zdef, target, bottom, pos)

    def shuffle(self, zone, pos) -> None:
        if zone is not None and not isinstance(zone, ZoneRef):
            raise GameFault(f"only a zone can be shuffled, not {describe(zone, self.program)}", pos)
        lst = self.zones.get(zone)
        if lst:
            self.fuel -= len(lst)  # a shuffle walks the whole zone: each member a unit of work
            if self.fuel < 0:
                raise GameFault(runaway_message(self.program.step_budget), pos)
            self.rng.shuffle(lst)
            self.zone_changed(zone)
        if self.trace is not None:
            self.emit(SHUFFLE, pos, zone=str(zone))

    def tap(self, c, on: bool, pos) -> None:
        if type(c) is not Comp:
            raise GameFault(f"only components can be tapped, not {describe(c, self.program)}", pos)
        if on and c not in self.tapped:
            self.tapped.add(c)
            self.emit(TAP, pos, card=self.program.comp_card[c].id, id=int(c))
        elif not on and c in self.tapped:
            self.tapped.discard(c)
            self.emit(UNTAP, pos, card=self.program.comp_card[c].id, id=int(c))
        else:
            return
        self.vt += 1
        if self.mark_log is not None:
            self.mark_log.append(c)

    def tag(self, c, key: str, on: bool, pos) -> None:
        if type(c) is not Comp:
            raise GameFault(f"only components can be tagged, not {describe(c, self.program)}", pos)
        cur = self.tags.get(c, ())
        if on and key not in cur:
            self.tags[c] = cur + (key,)
        elif not on and key in cur:
            rest = tuple(t for t in cur if t != key)
            if rest:
                self.tags[c] = rest
            else:
                del self.tags[c]
        else:
            return  # nothing changes: what was computed from the state still holds
        self.vt += 1
        if self.mark_log is not None:
            self.mark_log.append(c)
        if self.trace is not None:
            self.emit(TAG if on else UNTAG, pos, card=self.program.comp_card[c].id, id=int(c), tag=key)

    def attr(self, c, name: str):
        if self.over:
            v = self.over.get((c, name), _MISSING)
            if v is not _MISSING:
                return v
        return self.program.comp_attrs[name][c]

    # counters --------------------------------------------------------------
    def set_counter(self, key: str, cdef, value: int, pos, reason: str = "set") -> int:
        """Set a counter within its floor, ceiling and supply; returns the change made."""
        old = self.counters.get(key, cdef.initial)
        new = value
        if not -MAX_NUMBER <= new <= MAX_NUMBER:
            raise GameFault(f"counter '{cdef.name}' would go past {MAX_NUMBER:,}, the largest number "
                            f"a game may keep (a number squared over and over?)", pos)
        if cdef.maximum is not None and new > cdef.maximum:
            new = cdef.maximum
        if cdef.minimum is not None and new < cdef.minimum:
            new = cdef.minimum
        skey = cdef.supply_key
        if skey is not None and new > old:
            left = self.counters.get(skey, 0)
            if new - old > left:
                new = old + left
        delta = new - old
        if delta == 0:
            return 0
        self.vc += 1
        self.cv[cdef.index] += 1
        if self.program.watch_counters[cdef.index]:
            self._mark(self.program.watch_counters[cdef.index], key)
        if skey is not None:
            self.counters[skey] = self.counters.get(skey, 0) - delta
        self.counters[key] = new
        if self.counter_log is not None:
            self.counter_log.append(key)
            if skey is not None:
                self.counter_log.append(skey)
        if self.trace is not None:
            self.emit(COUNTER, pos, counter=key, change=delta, value=new, reason=reason)
        return delta

    def add(self, key: str, cdef, amount: int, pos, reason: str = "add") -> int:
        return self.set_counter(key, cdef, self.counters.get(key, cdef.initial) + amount, pos, reason)


_MISSING = object()


def describe(value, program=None) -> str:
    """A value as a fault's message says it; with the game's `program`, zones, components and
    nodes by the names people give them ("player 1's hand", 'Farm (component 17)')."""
    if value is None:
        return "none"
    if isinstance(value, Seat):
        return f"player {int(value) + 1}"
    if isinstance(value, Team):
        return f"team {int(value) + 1}"
    if isinstance(value, ZoneRef):
        return f"zone {value}" if program is None else "the zone " + spoken.zone(program, value)
    if isinstance(value, NodeRef):
        return f"node {value}" if program is None else "node " + spoken.node(program, value)
    if isinstance(value, bool):
        return "a truth value"
    if type(value) is Comp:
        return f"component {int(value)}" if program is None else spoken.component(program, value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, (list, tuple)):
        return "a list"
    return type(value).__name__
