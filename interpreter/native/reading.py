"""A native state read as the Python backend's: its slots laid out again as `engine.state.State`'s
zones, counters, taps, tags, attributes and pending decision.

    reader = Reader(native)               # once per NativeGame
    st = reader.state(native_state)       # a State holding the data of the slots, no frames

What the observation of a seat, its vector (`rl.encoding`) and the numbers of its options
(`rl.actions`) read of a state is its data, not the frames that run it: so they read the
native state through this `State`, and give what they give of the Python backend's state the
same choices lead to (`tests/native/test_reading.py` compares them at every decision of random
games of every shipped game). The decision is posed as the Python backend poses it (the same
kind, position and options, each of its kind and value); what it does not hold is what the
frames render, its prompt and the labels of its options.

The C tells where its parts lie (`rg_layout`), and each is read whole with `ffi.unpack`. A read
costs more than a decision of the Python backend (53 to 157 µs at 4 players in the shipped
games, docs/native.md): it is for a tool that asks now and then, not for every step of a game.
"""
from __future__ import annotations

from ..engine.state import ActionPick, Decision, DecisionKind, GameFault, MenuPick, No, Pick, State, Yes
from ..engine.values import Seat, ZoneRef
from ..names import fold
from .expressions import REFS, ZONE
from .trees import ACTS

ASKED = "use?"  # what a menu the C poses for an optional ability says by default (emit's menus)
_RENDERED = ("the prompt and labels of a decision of the native backend are rendered by the Python backend's "
             "frames: NativeState.reference() plays the same choices there")


def _no_labels(st, d):
    raise GameFault(_RENDERED)


class Reader:
    """What reading the states of one native game needs, made once: where each part lies,
    and the Python value of each slot, name and option."""

    def __init__(self, native):
        self.native = native
        em, ffi = native.emitter, native.ffi
        out = ffi.new("int64_t[18]")
        native.lib.rg_layout(out)
        (self.at_nmade, self.at_made, self.at_zlen, self.at_zitems, self.at_where, self.at_counters,
         self.at_tapped, self.at_ntags, self.at_tags, self.at_over, self.at_opt_option, self.at_opt_val,
         self.comps, self.zone_slots, self.tag_slots, self.over_slots, self.counter_slots, self.at_changed) = list(out)
        self.zone_refs = [ZoneRef(k) for k in em.slots.zones]
        self.counter_keys = list(em.slots.counters)
        program = native.program
        self.comp_of = list(program.comps)
        self.tag_names = em.tags  # folded, as the Python backend keeps them
        self.attributes = []  # per attribute the rules set: (its name, whether it is a number)
        for name in em.set_attributes:
            self.attributes.append((name, program.defn.attributes[name].type == "number"))
        self.menus = em.menus
        self.positions = em.positions
        self.row_types = em.row_types
        self.chosen = em.chosen
        self.most_actions = em.most_actions

    def _ints(self, ns, at: int, kind: str, n: int) -> list:
        ffi = self.native.ffi
        return ffi.unpack(ffi.cast(kind, ns.mem + at), n)

    def state(self, ns) -> State:
        """The data of native state `ns` as a `State` of the Python backend (no frames)."""
        native = ns.native
        program = native.program
        py = ns.start_state
        st = State(program, py.n, py.seed, dict(py.options))
        st.powers = dict(py.powers)
        refs, comp_of = self.zone_refs, self.comp_of
        # the zones made so far, in the order they were made, as the Python backend's dict holds them
        made = self._ints(ns, self.at_made, "int32_t *", self._ints(ns, self.at_nmade, "int32_t *", 1)[0])
        lengths = self._ints(ns, self.at_zlen, "int32_t *", self.zone_slots)
        zones = {}
        for z in made:
            n = lengths[z]
            members = self._ints(ns, self.at_zitems + 4 * z * self.comps, "int32_t *", n) if n else ()
            zones[refs[z]] = [comp_of[c] for c in members]
        st.zones = zones
        st.where = [refs[z] if z >= 0 else None for z in self._ints(ns, self.at_where, "int32_t *", len(comp_of))]
        st.counters = self._counters(ns)
        st.tapped = {comp_of[c] for c, t in enumerate(self._ints(ns, self.at_tapped, "int8_t *", len(comp_of))) if t}
        counts = self._ints(ns, self.at_ntags, "int8_t *", len(comp_of))
        tags = {}
        for c, k in enumerate(counts):
            if k:
                given = self._ints(ns, self.at_tags + c * self.tag_slots, "int8_t *", k)
                tags[comp_of[c]] = tuple(self.tag_names[t] for t in given)
        st.tags = tags
        st.over = self._over(ns)
        st.rng.state = 0  # the generator goes on in the C: a reader of this state draws nothing
        st.winners = ns.winners
        st.credit = ns.credit
        st.pending = self._decision(ns) if ns.info[0] else None
        return st

    def _counters(self, ns) -> dict:
        """The counters the Python backend's dict holds, in its order: those it started with
        (each player's and team's, and the supplies), then each as it first changed (the C does
        not keep that order: those come in the order of their slots)."""
        every = ns.counters()
        counters = {key: every[key] for key in ns.start_state.counters}
        changed = self._ints(ns, self.at_changed, "int8_t *", self.counter_slots)
        for key, c in zip(self.counter_keys, changed, strict=True):
            if c and key not in counters:
                counters[key] = every[key]
        return counters

    def _over(self, ns) -> dict:
        """The attributes the rules set: (component, name) -> value."""
        over = {}
        if not self.attributes:
            return over
        values = self._ints(ns, self.at_over, "int64_t *", self.over_slots * self.comps)
        missing = -(2 ** 63)
        slots, classes = self.native.emitter.slots, self.native.program.defn.classes
        for a, (name, number) in enumerate(self.attributes):
            row = values[a * self.comps:a * self.comps + len(self.comp_of)]  # RG_COMPS: at least 1
            for c, v in enumerate(row):
                if v == missing:
                    continue
                if number:
                    over[(self.comp_of[c], name)] = v
                elif v >= 0:  # a class keeps its declared spelling
                    value = slots.names[v]
                    klass = classes.get(fold(value))
                    over[(self.comp_of[c], name)] = klass[1] if klass is not None else value
                else:
                    over[(self.comp_of[c], name)] = None
        return over

    def _decision(self, ns) -> Decision:
        """The decision pending in `ns`, with the entries the Python backend gives it."""
        info = ns.info
        player, count, index = int(info[1]), int(info[2]), int(info[8])
        p, _prompt, said, rows, secret = self.menus[index]
        rows_of = self._ints(ns, self.at_opt_option, "int32_t *", count)
        values = self._ints(ns, self.at_opt_val, "int64_t *", count)
        if said == ASKED:
            kind, entries = DecisionKind.ASK, [Yes() if v else No() for v in values]
        elif index in self.chosen:
            kind = DecisionKind.CHOOSE
            var = said[len("choose "):]
            t = self.row_types[(index, 0)]
            entries = [Pick(var, None if v < 0 and t in REFS else self._value(ns, t, v)) for v in values]
        else:
            kind, entries = DecisionKind.MENU, []
            for k, v in zip(rows_of, values, strict=True):
                if rows[k][0] == ACTS:
                    c, a = divmod(v, self.most_actions)
                    entries.append(ActionPick(self.comp_of[c], a))
                else:
                    t = self.row_types.get((index, k))
                    entries.append(MenuPick(k, None if t is None else self._value(ns, t, v)))
        d = Decision(Seat(player), None, None, entries, kind, self.positions[p], _no_labels)
        d.secret = secret
        if kind is DecisionKind.MENU:
            d.spec = _MenuAt(self.positions[p])
        return d

    def _value(self, ns, t, v):
        value = ns._value(t, v)
        if type(value) is str and t == ZONE:
            return ZoneRef(value)
        return value


class _MenuAt:
    """What a menu decision of the Python backend keeps of the menu it answers (`Decision.spec`)
    that its readers ask of it here: its position."""

    __slots__ = ("pos",)

    def __init__(self, pos):
        self.pos = pos

