"""A game run by the native backend: its states, as the Python backend's step API gives them.

    native = NativeGame(game)                  # NotNative or NoCompiler when it cannot
    st = native.new_state(players=4, seed=7, trace=True)
    while not st.is_terminal():
        st.apply(st.legal_actions()[0])
    st.trace, st.returns()

The state lives in C memory (`rg_state`, laid out by `slots.lay_slots`); the Python side
keeps only the game's start (the Python backend's blank state, which lays the components
and counters and records the trace's first event) and turns the events the C records into
the trace's dictionaries, which are those of the Python backend, event for event
(`tests/native/test_native.py` compares them byte for byte).
"""
from __future__ import annotations

import re
from importlib import resources

from ..engine import keys
from ..engine.invariants import MAX_DECISIONS, InvariantError
from ..engine.machine import MAX_DEPTH, label_of, plain
from ..engine.state import GameFault
from ..engine.values import Comp, NodeRef, Seat, Team
from ..limits import MAX_NUMBER, WORK_BUDGET, runaway_message
from ..names import fold
from .build import build
from .emit import Emitter
from ..scopes import OwnerKind
from .expressions import BOOL, COMP, HOLDER, NAME, NODE, NONE, SEAT, TEAM, ZONE
from .reading import Reader

(EV_SHUFFLE, EV_COUNTER, EV_CHOICE, EV_MOVE, EV_WIN, EV_SIGNAL, EV_LOG, EV_TAG, EV_ACTION, EV_UNUSED, EV_TAP,
 EV_REVEAL, EV_SET, EV_FAIL, EV_ROLL, EV_DECIDE) = range(1, 17)
AUTOMATON = 2  # a choice's `autom` when the seat's automaton took it (machine.c)
REASONS = ("set", "add", "remove", "gain", "lose", "score", "pay", "spend")
FAULT_TEXTS = {  # by the names of runtime.c's fault codes (their numbers are read from it)
    "F_RUNAWAY": runaway_message(WORK_BUDGET),
    "F_TOO_DEEP": f"procedures call each other too deeply (more than {MAX_DEPTH} levels)",
    "F_NO_OPTION": "no option of this choice is possible",
    "F_TOO_BIG": f"a number past {MAX_NUMBER:,}, the largest number a game may keep",
    "F_FULL": "a zone is full",
    "F_NO_MEMORY": "the native backend ran out of memory",
    "F_NOT_COMPONENT": "only components can be moved or used",
    "F_NOT_ZONE": "only a zone can be used here",
    "F_NOT_PLAYER": "a player is needed here, not none",
    "F_TOO_MANY_OPTIONS": "too many options in one choice for the native backend",
    "F_TOO_LONG": "a list longer than the native backend keeps",
    "F_NONE": "none where a value is needed",
    "F_TYPE": "a value of a kind the native backend did not expect here (the Python backend runs this game)",
    "F_DIVISION": "division by zero",
    "F_INDEX": "an index past the end of the list",
    "F_KEYS": "sorted(): the list of keys must be as long as the list",
    "F_NO_NODE": "no board node of that name",
    "F_FAILED": "failed",
    "F_NESTED": "the rules nest too deeply",
    "F_SIDES": "dice need at least one side",
    # a limit of the backend, not a fault of the rules: the game is played again in Python
    "F_NOT_NATIVE": "a seat driven by content ranks an option the native backend does not: a label made in "
                    "play, or a value its 'prefer' is not lowered for",
}


def _fault_codes() -> dict:
    """Each fault code of runtime.c by its number, from the C's own enum."""
    text = resources.files(__package__).joinpath("runtime.c").read_text(encoding="utf-8")
    names = re.search(r"enum \{ (F_RUNAWAY = 1,[^}]*)\}", text).group(1)
    return {i: n.split("=")[0].strip() for i, n in enumerate(names.split(","), 1)}


FAULTS = {code: FAULT_TEXTS[name] for code, name in _fault_codes().items()}
FAILED = next(code for code, name in _fault_codes().items() if name == "F_FAILED")
RUNAWAY = next(code for code, name in _fault_codes().items() if name == "F_RUNAWAY")
LIMIT = next(code for code, name in _fault_codes().items() if name == "F_NOT_NATIVE")


class NativeLimit(GameFault):
    """A game the native backend cannot play on from here, though the rules can: the Python
    backend plays it (`simulate` does so by itself)."""


class NativeGame:
    """`game` (an engine.game.Game) compiled to C for up to its most players (`say()` is
    called before the C compiler runs: not when the library is kept from an earlier build)."""

    def __init__(self, game, say=None):
        self.game = game
        self.program = game.program
        self.emitter = Emitter(self.program, self.program.max_players)
        self.source = self.emitter.game()
        self.lib, self.ffi = build(self.source, say)
        self.size = self.lib.rg_size()
        # the memory of a state is laid by rg_start itself: no clearing it twice
        self.alloc = self.ffi.new_allocator(should_clear_after_alloc=False)
        self._starts: dict = {}  # (players, options, powers) -> what every game of them starts from
        rows = self.emitter.picks()  # per row of the menus: whether its option picks a component
        self.picks = self.ffi.new("int8_t[]", rows or [0]) if rows is not None else None
        self.counter_index = {key: i for i, key in enumerate(self.emitter.slots.counters)}
        self.seat_slots: dict = {}  # (counter, players) -> (its initial value, each seat's slot or -1)
        self.score_owners = self.emitter.score_owners()
        self.reader = None  # reading.Reader, made when a state is first read as the Python backend's

    def seat_slots_of(self, name: str, players: int) -> tuple:
        """(the initial value of counter `name`, kept per player or per team; the slot of each
        seat's value, -1 where the state keeps none): found once per player count."""
        found = self.seat_slots.get((name, players))
        if found is None:
            cdef = self.program.counters[name]
            teams = self.program.team_of(players)
            found = self.seat_slots[(name, players)] = (cdef.initial, [self.counter_index.get(
                keys.team_key(name, teams[s]) if cdef.scope.kind is OwnerKind.TEAM else keys.seat_key(name, s), -1)
                for s in range(players)])
        return found

    def new_state(self, players: int, seed: int = 0, options: dict | None = None, trace: bool = False,
                  powers: dict | None = None) -> "NativeState":
        """A new game, run to its first decision, as `engine.game.Game.new_state` makes it."""
        st = self._new_state(players, seed, options, trace, powers)
        st.begun = (players, seed, options, powers)
        return st

    def _new_state(self, players: int, seed: int, options, trace: bool, powers) -> "NativeState":
        if trace:  # its first event names the seed: the Python backend lays this game's start
            return NativeState.start(self, self.game.blank_state(players, seed, options, trace, powers))
        key = (players, tuple(sorted((options or {}).items())), tuple(sorted((powers or {}).items())))
        laid = self._starts.get(key)
        if laid is None:
            py = self.game.blank_state(players, seed, options, False, powers)
            # the components, counters and options of a start do not depend on the seed, which
            # the random generator starts from and nothing draws before the game begins
            laid = self._starts[key] = (py, NativeState.start_arrays(self, py)) \
                if py.rng.state == seed & (2 ** 64 - 1) else None
            if laid is None:
                return NativeState.start(self, py)
        py, arrays = laid
        return NativeState.start(self, py, arrays, seed & (2 ** 64 - 1))


_SEATS: dict = {}  # bit mask -> its seats: a game has a few of them, met at every move


def _seats(mask: int) -> tuple:
    """The seats (from 0) of a bit mask."""
    seats = _SEATS.get(mask)
    if seats is None:
        seats = _SEATS[mask] = tuple(s for s in range(mask.bit_length()) if mask >> s & 1)
    return seats


class NativeState:
    """A state of a native game, run to its next decision."""

    __slots__ = ("native", "start_state", "mem", "log", "trace", "info", "history", "begun", "reference_")

    @staticmethod
    def start_arrays(native: NativeGame, py) -> tuple:
        """What rg_start lays a game from, read off the Python backend's blank state `py`: the
        options, the counters, the zones in the order they were made, and the teams."""
        ffi, em = native.ffi, native.emitter
        slots = em.slots
        options = [slots.name(v) if isinstance(v, str) else int(v)  # a text option: its interned name
                   for v in (py.options[name] for name in em.options)] or [0]
        counters = []
        for key, spec in zip(slots.counters, slots.counter_spec, strict=True):
            counters.append(py.counters.get(key, spec.initial if spec is not None else 0))
        zones = []
        index = {key: i for i, key in enumerate(slots.zones)}
        for key, members in py.zones.items():  # in the order they were made: what in_play() follows
            zones += [index[str(key)], len(members)] + [int(c) for c in members]
        zones.append(-1)
        teams = py.program.team_of(py.n)
        return (ffi.new("int64_t[]", options), ffi.new("int64_t[]", counters or [0]), ffi.new("int32_t[]", zones),
                ffi.new("int32_t[]", list(teams)))

    @staticmethod
    def start(native: NativeGame, py, arrays=None, rng=None) -> "NativeState":
        """A game begun from blank state `py` (its start laid in `arrays`, its generator `rng`,
        when they are known already), run to its first decision."""
        st = NativeState()
        st.native, st.start_state = native, py
        ffi = native.ffi
        st.mem = native.alloc("char[]", native.size)
        st.log = ffi.new("rg_log *")
        st.log.on = 1 if py.trace is not None else 0
        st.trace = list(py.trace) if py.trace is not None else None
        st.info = ffi.new("int64_t[10]")
        st.history = []
        st.begun = (py.n, py.seed, dict(py.options), None)  # what the game was made of (new_state gives its own)
        st.reference_ = None
        if arrays is None:
            arrays, rng = NativeState.start_arrays(native, py), py.rng.state
        st._after(native.lib.rg_start(st.mem, st.log, py.n, rng, *arrays))
        return st

    def _after(self, rc: int) -> None:
        self.native.lib.rg_info(self.mem, self.info)
        if self.trace is not None:
            self._drain()
        if rc:
            pos = self.info[7]
            message = FAULTS.get(rc, f"fault {rc}")
            if rc == RUNAWAY:  # the program's own budget (a test may lower it)
                message = runaway_message(self.native.program.step_budget)
            if rc == FAILED:  # a `fail` nothing caught: its text, as the Python backend says it
                vals = self.native.ffi.new("int64_t[8]")
                text = self.native.lib.rg_failed(self.mem, vals)
                message = "failed: " + self._render(text, list(vals))
            where = self.native.emitter.positions[pos] if pos >= 0 else None
            exc = (NativeLimit if rc == LIMIT else GameFault)(message, where)
            exc.state = self
            raise exc

    # the step API, as engine.game.GameState's -------------------------------------------
    @property
    def n(self) -> int:
        return self.start_state.n

    @property
    def program(self):
        return self.native.program

    @property
    def credit(self) -> dict:
        """(component, key of the score counter) -> the points it brought, as the Python
        backend's `State.credit` keeps them."""
        native = self.native
        slots = native.emitter.slots
        name = native.program.score
        if name is None:
            return {}
        owners = native.score_owners
        n = max(1, len(native.program.comp_card)) * owners  # as the C lays it out (RG_COMPS: at least 1)
        buffer = native.ffi.new("int64_t[]", n)
        native.lib.rg_credit(self.mem, buffer)
        base = slots.counter_base[name]
        return {(Comp(i // owners), slots.counters[base + i % owners]): v
                for i, v in enumerate(native.ffi.unpack(buffer, n)) if v}

    def is_terminal(self) -> bool:
        return not self.info[0]

    @property
    def current_player(self) -> int:
        return int(self.info[1]) if self.info[0] else -1

    def legal_actions(self) -> list:
        return list(range(self.info[2])) if self.info[0] else []

    def apply(self, action: int) -> None:
        if not self.info[0]:
            raise GameFault("the game is over: no action can be applied")
        if not isinstance(action, int) or not 0 <= action < self.info[2]:
            raise GameFault(f"illegal action {action!r}: options are 0..{self.info[2] - 1}")
        self.history.append(action)
        self._after(self.native.lib.rg_apply(self.mem, self.log, action))

    def random_play(self, seeds: list, most: int = MAX_DECISIONS) -> int:
        """Play on to the end here, all in C, each option picked by the random agent of the seat
        deciding, as `play.agents.RandomAgent` seeded `seeds[seat]` picks it: the same game as
        those agents play on the Python backend. The number of decisions made in all (a save's
        history's length); past `most`, InvariantError, as `simulate` says of a game that does
        not end. `history` keeps only the picks applied from Python."""
        ffi = self.native.ffi
        rngs = ffi.new("uint64_t[]", [s & (2 ** 64 - 1) for s in seeds])
        rc = self.native.lib.rg_random_play(self.mem, self.log, rngs, most)
        self._after(max(rc, 0))
        if rc < 0:
            raise InvariantError(f"did not end: more than {most} decisions")
        return self.decisions

    def watched_play(self, seeds: list, most: int = MAX_DECISIONS, counter: str | None = None) -> tuple:
        """`random_play`, with what each decision did: (steps, held). A step is (the seat, the
        component its option picks or None, counter `counter` before it or None, its moves into
        other zones as (component, zone it left or None, zone it entered, the seats of each
        as they are once the step is made), each seat's score after it). `held`: (component,
        seats) of each component lying in a zone not in play at the end. NativeLimit when the
        game's menus offer holders, which the C does not tell from components."""
        native = self.native
        ffi, lib = native.ffi, native.lib
        picks = native.picks
        if picks is None:
            raise NativeLimit("a menu offers holders, which the native backend does not tell from components")
        slots = native.emitter.slots
        slot = native.counter_index.get(counter, -1) if counter is not None else -1
        score = native.program.score
        first, where = native.seat_slots_of(score, self.n) if score is not None else (0, [-1] * self.n)
        score_slot = ffi.new("int32_t[]", where)
        initial = ffi.new("int64_t[]", [first] * self.n)
        watch = ffi.new("rg_watch *")
        rngs = ffi.new("uint64_t[]", [s & (2 ** 64 - 1) for s in seeds])
        try:
            rc = lib.rg_random_play_watched(self.mem, self.log, rngs, most, watch, picks, slot, score_slot, initial)
            if watch.overflow:
                raise NativeLimit("the native backend ran out of memory to watch the game")
            rec = ffi.unpack(watch.rec, watch.n) if watch.n else []
        finally:
            lib.rg_unwatch(watch)
        self._after(max(rc, 0))
        if rc < 0:
            raise InvariantError(f"did not end: more than {most} decisions")
        zones = slots.zones
        steps, i = [], 0
        while i < len(rec):
            seat, picked, value, moves = rec[i], rec[i + 1], rec[i + 2], rec[i + 3]
            i += 4
            moved = []
            for _ in range(moves):
                c, old, new, to_seats, from_seats = rec[i:i + 5]
                moved.append((Comp(c), zones[old] if old >= 0 else None, zones[new], _seats(to_seats),
                              _seats(from_seats)))
                i += 5
            steps.append((seat, Comp(picked) if picked >= 0 else None, value if slot >= 0 else None, moved,
                          rec[i:i + self.n]))
            i += self.n
        out = ffi.new("int64_t[]", max(1, len(native.program.comp_card)))
        lib.rg_held_by(self.mem, out)
        held = [(Comp(c), _seats(out[c])) for c in range(len(native.program.comp_card)) if out[c] >= 0]
        return steps, held

    @property
    def decisions(self) -> int:
        """The decisions made in this game so far (the options applied, not those taken alone)."""
        return int(self.info[9])

    def counted(self, name: str | None) -> list:
        """Counter `name`, kept per player or per team, for each seat (0s for no counter), as
        engine.game.GameState.counted gives it."""
        if name is None:
            return [0] * self.n
        initial, slots = self.native.seat_slots_of(name, self.n)
        read = self.native.lib.rg_counter
        return [read(self.mem, i) if i >= 0 else initial for i in slots]

    def scores(self) -> list:
        return self.counted(self.native.program.score)

    def seat_label(self, seat: int):
        """The value seat `seat` is reported by (the game's `report_seats_by`), as the Python
        backend's `program.seat_label` gives it."""
        out = self.native.ffi.new("int64_t *")
        rc = self.native.lib.rg_seat_label(self.mem, seat, out)
        if rc:
            raise GameFault(FAULTS.get(rc, f"fault {rc}"), None)
        return self._value(self.native.emitter.seat_label_type, out[0])

    def standings(self) -> list:
        return self.counted(self.native.program.standing or self.native.program.score)

    @property
    def winners(self):
        if not self.info[5]:
            return None
        mask = self.info[4]
        return tuple(s for s in range(self.n) if mask >> s & 1)

    def returns(self) -> list:
        """+1 for each winner and -1 for the others when some won; 0 for all otherwise."""
        won = self.winners
        if not won:
            return [0.0] * self.n
        return [1.0 if i in won else -1.0 for i in range(self.n)]

    def clone(self) -> "NativeState":
        st = NativeState()
        st.native, st.start_state = self.native, self.start_state
        ffi = self.native.ffi
        st.mem = self.native.alloc("char[]", self.native.size)
        ffi.memmove(st.mem, self.mem, self.native.size)
        st.log = ffi.new("rg_log *")
        st.trace = None
        st.info = ffi.new("int64_t[10]")
        ffi.memmove(st.info, self.info, ffi.sizeof("int64_t[10]"))
        st.history = self.history[:]
        st.begun, st.reference_ = self.begun, None
        return st

    def as_python_state(self):
        """This state's data read from its slots as the Python backend's `State`: its zones,
        counters, taps, tags, attributes and the decision pending (with no frames, so no prompt
        or labels): what an observation's vector and the numbers of its options read
        (`reading`)."""
        native = self.native
        if native.reader is None:
            native.reader = Reader(native)
        return native.reader.state(self)

    def reference(self):
        """The Python backend's state that this game's choices lead to (a GameState of its own):
        the game begun as this one was and its history played again, kept from one call to the
        next and brought up to date with the choices made since. What the frames hold and the
        slots do not, the prompt and labels of the decision, is read there."""
        ref = self.reference_
        if ref is None:
            players, seed, options, powers = self.begun
            ref = self.reference_ = self.native.game.new_state(players, seed, options, powers=powers)
        if self.decisions != len(self.history):
            raise GameFault(f"this game was played on in C by its random agents (random_play), whose picks are not "
                            f"kept: {len(self.history)} of its {self.decisions} decisions are known, too few to "
                            "reach its state on the Python backend")
        for action in self.history[len(ref.history):]:
            ref.apply(action)
        return ref.clone()

    def observation(self, seat: int) -> dict:
        """What seat `seat` sees, as the Python backend's `GameState.observation` gives it (with the
        prompt and labels of the decision: the reference's). Its vector reads the slots
        (`as_python_state`)."""
        return self.reference().observation(seat)

    def to_json(self) -> dict:
        """The state as the Python backend saves it (`GameState.to_json`): its history, played again
        from its start when the save is loaded, is this game's."""
        return self.reference().to_json()

    def save(self, path) -> None:
        """Write the state to file `path` as the Python backend would (`Game.load_state` reads it
        back, on either backend's game)."""
        self.reference().save(path)

    def counters(self) -> dict:
        """Every counter by its key, as the Python backend's `State.counters` keeps them."""
        slots = self.native.emitter.slots
        ffi = self.native.ffi
        values = ffi.new("int64_t[]", max(1, len(slots.counters)))
        self.native.lib.rg_counters(self.mem, values)
        return dict(zip(slots.counters, ffi.unpack(values, len(slots.counters)), strict=True))

    # the trace ----------------------------------------------------------------------------
    def _drain(self) -> None:
        """The events the C recorded since the last call, appended to the trace as dicts."""
        log = self.log
        em = self.native.emitter
        program = self.native.program
        py = self.start_state
        slots = em.slots
        for i in range(log.n):
            e = log.ev[i]
            kind = e.kind
            values = [log.vals[e.vals + k] for k in range(e.nvals)]
            at = None  # where the event is traced, when not where the C recorded it
            if kind == EV_SHUFFLE:
                fields = {"type": "shuffle", "zone": slots.zones[e.a]}
            elif kind == EV_COUNTER:
                fields = {"type": "counter", "counter": slots.counters[e.a], "change": e.b, "value": e.c,
                          "reason": REASONS[e.d]}
            elif kind == EV_MOVE:
                fields = {"type": "move", "card": program.comp_card[e.a].id, "id": e.a,
                          "from": slots.zones[e.b] if e.b >= 0 else None, "to": slots.zones[e.c]}
            elif kind == EV_CHOICE:
                _, prompt, default, options, secret = em.menus[e.e]
                said = self._render(prompt, values) if prompt is not None else default
                label = options[e.f][2]
                if label is None:  # an action of a card: its own label
                    c, a = divmod(values.pop(0), em.most_actions)
                    said_label = self._render(em.actions[c][a].label_text, values)
                else:
                    said_label = self._render(label, values)
                if e.d == AUTOMATON:  # taken by the seat's automaton: traced at its `prefer`
                    auto = program.automata[e.a]
                    p = em.positions[e.pos]
                    fields = {"type": "decide", "player": e.a + 1, "prompt": said, "option": e.b,
                              "label": said_label, "options": e.c, "rule": "prefer", "automaton": auto.id,
                              "asked_at": f"{p.path}:{p.line}"}
                    at = auto.pos
                else:
                    fields = {"type": "choice", "player": e.a + 1, "prompt": said, "option": e.b,
                              "label": said_label, "options": e.c, "auto": bool(e.d)}
                if secret:
                    fields["secret"] = True
            elif kind == EV_DECIDE:  # a `decide` of the rules
                prompt, var, t = em.decides[e.e]
                said = self._render(prompt, values) if prompt is not None else var
                v = self._value(t, values.pop(0)) if e.b else None
                fields = {"type": "decide", "player": e.a + 1, "prompt": said,
                          "label": label_of(py, v) if v is not None else None, "value": plain(v), "rule": e.b}
            elif kind == EV_WIN:
                fields = {"type": "win", "players": [s + 1 for s in range(py.n) if e.a >> s & 1]}
            elif kind == EV_SIGNAL:
                event, types = em.signals[e.a]
                fields = {"type": "signal", "event": event,
                          "args": [plain(self._value(t, v)) for t, v in zip(types, values, strict=True)]}
            elif kind == EV_SET:
                name = em.set_attributes[e.b]
                if program.defn.attributes[name].type == "number":
                    value = e.c
                else:  # a class keeps its declared spelling
                    value = em.slots.names[e.c] if e.c >= 0 else None
                    klass = program.defn.classes.get(fold(value)) if value is not None else None
                    if klass is not None:
                        value = klass[1]
                fields = {"type": "set", "card": program.comp_card[e.a].id, "id": e.a, "attribute": name,
                          "value": value}
            elif kind == EV_REVEAL:
                shown = em.texts[e.text][0][0]
                v = self._value(shown.t, values[0])
                fields = {"type": "reveal", "what": plain(v), "label": label_of(py, v)}
            elif kind == EV_ROLL:
                fields = {"type": "roll", "dice": values}
            elif kind == EV_FAIL:
                fields = {"type": "fail", "text": self._render(e.text, values)}
            elif kind == EV_LOG:
                fields = {"type": "log", "text": self._render(e.text, values)}
            elif kind == EV_ACTION:
                fields = {"type": "action", "card": program.comp_card[e.a].id, "id": e.a, "ability": e.b,
                          "player": e.c + 1, **({"free": True} if e.d else {})}
            elif kind == EV_UNUSED:
                fields = {"type": "unused", "card": program.comp_card[e.a].id, "id": e.a, "player": e.c + 1}
            elif kind == EV_TAP:
                fields = {"type": "tap" if e.c else "untap", "card": program.comp_card[e.a].id, "id": e.a}
            elif kind == EV_TAG:
                fields = {"type": "tag" if e.c else "untag", "card": program.comp_card[e.a].id, "id": e.a,
                          "tag": em.tags[e.b]}
            else:
                continue
            event = {"n": len(self.trace), **fields}
            if at is None and e.pos >= 0:
                at = em.positions[e.pos]
            if at is not None:
                event["at"] = f"{at.path}:{at.line}"
            self.trace.append(event)
        log.n = 0
        log.nvals = 0

    def _value(self, t, v):
        """The Python value of C value `v` of type `t`."""
        if t in (SEAT, TEAM, COMP, NODE, NAME, ZONE, HOLDER, NONE) and v < 0:
            return None
        if t == SEAT:
            return Seat(v)
        if t == TEAM:
            return Team(v)
        if t == COMP:
            return Comp(v)
        if t == NODE:
            return NodeRef(self.native.emitter.slots.nodes[v])
        if t == NAME:
            return self.native.emitter.slots.names[v]
        if t == ZONE:
            return self.native.emitter.slots.zones[v]
        if t == HOLDER:  # what the zone of that slot belongs to
            return self.native.program.zone_holder(self.native.emitter.slots.zones[v])
        if t == BOOL:
            return bool(v)
        if isinstance(t, tuple) and t[0] == "mask":  # a list of players or teams, as a bit mask
            make = Seat if t[1] == SEAT else Team
            return [make(s) for s in range(64) if v >> s & 1]
        return int(v)

    def _render(self, text: int, values: list) -> str:
        """Text `text` of the emitter with the values it shows taken from the front of `values`."""
        parts = self.native.emitter.texts[text][0]
        out = []
        for part in parts:
            if isinstance(part, str):
                out.append(part)
                continue
            if isinstance(part.t, tuple) and part.t[0] == "kept":  # a list: its length, then its members
                n = values.pop(0)
                members = [self._value(part.t[1], values.pop(0)) for _ in range(n)]
                out.append(label_of(self.start_state, members))
                continue
            out.append(label_of(self.start_state, self._value(part.t, values.pop(0))))
        return "".join(out)
