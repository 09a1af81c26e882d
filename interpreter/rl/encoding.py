"""One seat's observation of a state as a fixed-size vector, laid out from the content's declarations.

Nothing here is written per game: the layout is derived from the zones,
counters, attributes, classes, board nodes and choice points a game declares,
for a given number of players. It has named blocks, each a flat run of
float32 values; `Encoding.blocks` lists them with their offsets and
`describe()` says what each holds (`regles explain GAME --observation`).

Seats are always seen from the observing seat: "seat +0" is the seat itself,
"+1" the next in seat order, and so on; a team block starts with the seat's
own team. What the seat may not see reads 0, exactly as `state.observation(seat)`
masks it: a hidden zone gives its count and nothing of its components; a
counter the seat may not see reads 0.

Blocks, in order:

- `decision`: who decides (one per relative seat, then one for "the game is
  over"); when the seat itself decides, the kind of decision (a choice, a
  menu, a yes/no question), which of the game's choice points asks it, and
  how many options it has.
- `zones`: the number of components in each zone of the game, of each player
  (relative), of each team (relative).
- `held zones`: for zones held by board nodes or by components, per holder
  and zone: the components there the seat cannot see, those of no player,
  then those of each relative seat (by the component's owner).
- `components`: per component (in the game's fixed order): whether the seat
  sees it; if it does, the zone it is in (one per zone declared), the relative
  seat whose zone it is (a team's: its first member; a node's: none; a
  component's: the seat controlling that component), tapped, each class rules may
  tag it with, each value of each class attribute, and each number and
  yes/no attribute as it is now. A component the seat cannot see is all 0.
- `counters`: every counter, per owner: the game's, each relative player's,
  each relative team's, each node's, each node and relative player's, each
  component's; then the supply left of each counter with a supply.
"""
from __future__ import annotations

try:
    import numpy as np
except ImportError:  # regles[rl] is not installed: making an Encoding says so
    np = None

from ..engine import keys
from ..engine.observe import counter_holder, may_see
from ..engine import machine as vm
from ..limits import MAX_NUMBER
from ..engine.values import Comp, NodeRef, Seat, Team
from ..names import fold
from ..scopes import OwnerKind, Scope
from .actions import POSITIONS

KINDS = ("choose", "menu", "ask")
_KIND_INDEX = {k: i for i, k in enumerate(KINDS)}
PLAIN_SCOPES = (OwnerKind.GAME, OwnerKind.PLAYER, OwnerKind.TEAM)  # zones counted per owner, not per holder


class Encoding:
    """The observation layout of one compiled game for `players` players."""

    def __init__(self, program, players: int):
        if np is None:
            raise ImportError("the observation vector needs NumPy: pip install 'regles[rl]'")
        self.program, self.n = program, players
        d = program.defn
        self.defn = d
        self.nodes = list(program.nodes)
        self.node_index = {NodeRef(k): i for i, k in enumerate(self.nodes)}
        self.comps = len(program.comp_card)
        self.teams = program.teams_for(players)
        self.blocks: list = []  # (name, offset, size, what)
        self.size = 0
        # decision
        self.points = _choice_points(program)
        self._block("decision", players + 1 + len(KINDS) + len(self.points) + 1 + 1,
                    "who decides (relative seats, then 'over'); when this seat decides: the kind, "
                    "the choice point (then 'other'), the number of options")
        # zones of the game, players and teams
        self.plain_zones = [z for z in d.zones.values() if z.scope.kind in PLAIN_SCOPES]
        self.zone_slot = {}
        size = 0
        for z in self.plain_zones:
            self.zone_slot[z.name] = size
            size += self._owners(z.scope)
        self._block("zones", size, "components in each zone of the game, of each relative player, of each relative team")
        # zones held by nodes or components
        self.held = [z for z in d.zones.values() if z.scope.kind not in PLAIN_SCOPES]
        per = players + 2
        self.held_base = {}
        size = 0
        for z in self.held:
            self.held_base[z.name] = size
            size += self._owners(z.scope) * per
        self._block("held zones", size, "per holder (node or component) and zone: unseen, of no player, "
                                        "of each relative seat")
        # components
        self.zone_names = list(d.zones)
        self.tagged = sorted(program.compiler.gen.analysis.tagged_classes()) if program.compiler is not None else []
        self.class_attrs = [(a.name, [v for v in a.values]) for a in d.attributes.values()
                            if a.type == "class" and a.values]
        self.value_attrs = [a.name for a in d.attributes.values() if a.type in ("number", "boolean")]
        # a row: seen; its zone (one per zone); the relative seat holding it (and none); tapped; own values
        self._holder_column = 1 + len(self.zone_names)
        self._tapped_column = self._holder_column + players + 1
        self.comp_width = (self._tapped_column + 1 + len(self.tagged)
                           + sum(len(v) for _, v in self.class_attrs) + len(self.value_attrs))
        self.static = np.zeros((self.comps, self.comp_width - (self._tapped_column + 1)), np.float32)
        for c in range(self.comps):  # what a component shows of itself while no rule changes it
            self.static[c] = self._own_values(None, c)
        self._block("components", self.comps * self.comp_width,
                    f"per component, {self.comp_width} values: seen; its zone (one per zone); the relative "
                    "seat holding it; tapped; tags; class attribute values; number and yes/no attributes")
        # counters
        self.counter_slot, size = {}, 0
        for c in d.counters.values():
            self.counter_slot[c.name] = size
            size += self._owners(c.scope)
        self.supplies = [c for c in program.counters.values() if c.supply is not None]  # the engine's specs
        self.supply_base = size
        size += len(self.supplies)
        self._block("counters", size, "each counter per owner (game, relative players and teams, nodes, "
                                      "node and relative player, components), then the supply left of each")
        self._decision, self._zones_at, self._held_at = self.offset("decision"), self.offset("zones"), self.offset("held zones")
        self._components_at, self._counters_at = self.offset("components"), self.offset("counters")
        self._row_at = [self._components_at + c * self.comp_width for c in range(self.comps)]  # where each row starts
        self._supply_slots = [(self._counters_at + self.supply_base + i, c.supply_key)
                              for i, c in enumerate(self.supplies)]
        self.tag_index = {t: i for i, t in enumerate(self.tagged)}
        self.attribute_columns: dict = {}  # attribute -> (its first column among a component's own values, folded values or None)
        at = len(self.tagged)
        for name, values in self.class_attrs:
            self.attribute_columns[name] = (at, [fold(v) for v in values])
            at += len(values)
        for name in self.value_attrs:
            self.attribute_columns[name] = (at, None)
            at += 1
        self._plans: dict = {}  # seat -> (zone key -> _zone_plan, counter key -> _counter_plan)
        # the row of each component seen: 'seen', then 0 up to its own values as printed, which
        # `row_into` copies and completes with its zone, holder, tap, tags and attributes changed
        self._seen_rows = np.zeros((self.comps, self.comp_width), np.float32)
        self._seen_rows[:, 0] = 1
        self._seen_rows[:, self._tapped_column + 1:] = self.static
        seen_flat, w = memoryview(self._seen_rows.reshape(-1)), self.comp_width
        self._seen_of = [seen_flat[c * w:(c + 1) * w] for c in range(self.comps)]  # each row, a memoryview
        self._zero_row = memoryview(np.zeros(self.comp_width, np.float32))
        self._zero_decision = memoryview(np.zeros(self.blocks[0][2], np.float32))
        self._over_index = (None, 0, {})  # (state, its count of attribute changes, _over_of's index)
        self._scaling = None  # see `scaling`
        self._points_by_id: dict = {}  # id of a position -> (the position, its choice point's number)
        # where the decision block writes the kind of decision, its choice point and its number of options
        self._kind_at = {k: self._decision + self.n + 1 + i for k, i in _KIND_INDEX.items()}
        self._points_at = self._decision + self.n + 1 + len(KINDS)
        self._options_at = self._points_at + len(self.points) + 1

    def _block(self, name: str, size: int, what: str) -> None:
        self.blocks.append((name, self.size, size, what))
        self.size += size

    def _owners(self, scope: Scope) -> int:
        if scope.is_pair:
            first, second = scope.halves
            return self._owners(first) * self._owners(second)
        kind = scope.kind
        if kind is OwnerKind.GAME:
            return 1
        if kind is OwnerKind.PLAYER:
            return self.n
        if kind is OwnerKind.TEAM:
            return len(self.teams)
        if kind is OwnerKind.NODE:
            return len(self.nodes)
        return self.comps

    def offset(self, name: str) -> int:
        return next(off for n, off, _, _ in self.blocks if n == name)

    # encoding a state --------------------------------------------------------------
    # What a zone or counter key gives a seat is worked out once, the first time the key is met
    # (`_zone_plan`, `_counter_plan`), and kept per seat: where its values go and whether the
    # seat sees them. Only what depends on the state is read anew at each encoding: who controls
    # a component that holds a zone or counter (it decides who sees them), the components in
    # each zone, the counters' values, taps, tags and attributes changed by the rules.
    def encode(self, st, seat: int) -> np.ndarray:
        out = np.zeros(self.size, np.float32)
        zone_plans, counter_plans = self.plans(seat)
        self.decision_into(out, st, seat)
        # where each component is, and what the seat sees of it
        seen, zone_of, holder_of = [], [], []
        for key, comps in st.zones.items():
            if not comps:
                continue
            plan = zone_plans.get(key)
            if plan is None:
                plan = zone_plans[key] = self._zone_plan(key, seat)
            visible, hr = self.zone_view(st, plan, seat)
            self.count_into(out, plan, visible, comps, seat)
            members = self.seen_members(plan, visible, comps, seat)
            if members:
                seen.extend(members)
                zone_of.extend([plan[5]] * len(members))
                holder_of.extend([hr] * len(members))
        if seen:
            self._components(self.rows(out), st, np.array(seen, np.intp), np.array(zone_of, np.intp),
                             np.array(holder_of, np.intp))
        # counters
        for key, value in st.counters.items():
            at = self.counter_at(st, key, seat, counter_plans)
            if at is not None:
                out[at] = value
        for at, skey in self._supply_slots:
            out[at] = st.counters.get(skey, 0)
        return out

    def plans(self, seat: int) -> tuple:
        """(zone key -> _zone_plan, counter key -> _counter_plan) of `seat`, filled as keys are met."""
        plans = self._plans.get(seat)
        if plans is None:
            plans = self._plans[seat] = ({}, {})
        return plans

    def rows(self, out):
        """The `components` block of vector `out`, a row per component."""
        cbase = self._components_at
        return out[cbase:cbase + self.comps * self.comp_width].reshape(self.comps, self.comp_width)

    def decision_into(self, out, st, seat: int) -> None:
        """Write the `decision` block of `st` for `seat` into `out` (whose block reads 0)."""
        n, base, d = self.n, self._decision, st.pending
        if d is None:
            out[base + n] = 1
            return
        player = int(d.player)
        out[base + (player - seat) % n] = 1
        if player == seat:
            kind = self._kind_at.get(d.kind)
            if kind is not None:
                out[kind] = 1
            known = self._points_by_id.get(id(d.pos))  # as `_point_of`, without the call: the common case
            out[self._points_at + (known[1] if known is not None and known[0] is d.pos else self._point_of(d.pos))] = 1
            out[self._options_at] = len(d.entries)

    def _point_of(self, pos) -> int:
        """The number of the choice point written at `pos` (len(points): another), kept by the
        position's identity: a decision's position is its choice point's, made once at compile time."""
        known = self._points_by_id.get(id(pos))
        if known is not None and known[0] is pos:
            return known[1]
        point = self.points.get(str(pos), len(self.points))
        self._points_by_id[id(pos)] = (pos, point)
        return point

    def zone_view(self, st, plan, seat: int) -> tuple:
        """(whether `seat` sees into the zone of `plan` in `st`, the relative seat holding it): of
        a zone held by a component, as the component's controller lets the seat see."""
        visible, hr = plan[4], plan[6]
        if visible is None:
            visible = may_see(st, plan[3], plan[2], seat)
        if hr is None:
            holder_seat = seat_of(st, plan[2])
            hr = self.n if holder_seat is None else (holder_seat - seat) % self.n
        return visible, hr

    def seen_members(self, plan, visible: bool, comps, seat: int):
        """The members of `comps` that `seat` sees in the zone of `plan`: all when it sees into the
        zone (`visible`), else its own when the zone shows each owner its own."""
        if visible:
            return comps
        if plan[7]:
            owners = self.program.comp_owner
            return [c for c in comps if owners[c] == seat]
        return ()

    def count_into(self, out, plan, visible: bool, comps, seat: int, sign: int = 1) -> None:
        """Add `sign` times the counts of members `comps` of the zone of `plan` to vector `out` (an
        array or a memoryview), in the `zones` and `held zones` blocks: its number, or when a node
        or component holds the zone and the seat sees some of it, one per member at the place of
        the member's owner where the seat sees the member, at the zone's unseen place otherwise."""
        slot = plan[0]
        if not (plan[1] and (visible or plan[7])):
            out[slot] += sign * len(comps)
            return
        owners, n = self.program.comp_owner, self.n
        for c in comps:
            owner = owners[c]
            if visible or owner == seat:
                out[slot + (1 if owner is None else 2 + (owner - seat) % n)] += sign
            else:
                out[slot] += sign

    def counter_at(self, st, key: str, seat: int, counter_plans: dict):
        """Where counter `key` goes in `seat`'s vector, or None when it is not there or the seat
        does not see it."""
        plan = counter_plans.get(key)
        if plan is None:
            plan = counter_plans[key] = self._counter_plan(key, seat)
        if plan is False:
            return None
        at, visibility, holder = plan
        if holder is not None and not may_see(st, visibility, holder, seat):
            return None  # a component's counter, seen as the component is
        return at

    def row_into(self, flat, st, c: int, zi: int, hr: int) -> None:
        """Write the row of component `c`, seen in zone `zi` held by relative seat `hr`, into the
        whole vector `flat` (a one-dimensional memoryview of it: each write costs a third of a
        numpy array's)."""
        at = self._row_at[c]
        flat[at:at + self.comp_width] = self._seen_of[c]  # seen, and its own values as printed
        flat[at + 1 + zi] = 1.0
        flat[at + self._holder_column + hr] = 1.0
        at += self._tapped_column
        if c in st.tapped:
            flat[at] = 1.0
        if st.tags:
            for t in st.tags.get(c, ()):
                i = self.tag_index.get(t)
                if i is not None:
                    flat[at + 1 + i] = 1.0
        if st.over:
            for name, v in self._over_of(st).get(c, ()):
                self._attribute(flat, at + 1, name, v)

    def clear_decision(self, flat) -> None:
        """Write 0 over the `decision` block of the whole vector `flat` (a memoryview)."""
        flat[self._decision:self._decision + len(self._zero_decision)] = self._zero_decision

    def clear_row(self, flat, c: int) -> None:
        """Write 0 over the row of component `c` in the whole vector `flat` (a memoryview)."""
        at = self._row_at[c]
        flat[at:at + self.comp_width] = self._zero_row

    def _over_of(self, st) -> dict:
        """component -> [(attribute, value)] of the attributes the rules changed in `st`, made again
        only when it changed one (`State.vo` counts them; a state's `over` changes no other way)."""
        known = self._over_index
        if known[0] is st and known[1] == st.vo:
            return known[2]
        index: dict = {}
        for (o, name), v in st.over.items():
            index.setdefault(o, []).append((name, v))
        self._over_index = (st, st.vo, index)
        return index

    def _zone_plan(self, key, seat: int) -> tuple:
        """What zone `key` gives `seat`: (its slot, whether it is held by a node or component, its
        holder, its visibility, whether the seat sees it (None: it depends on who controls the
        holder), the zone's index, the relative seat holding it (None: it depends on the state),
        whether it shows each owner its own components)."""
        program, n = self.program, self.n
        zdef = program.zone_def(key)
        holder = program.zone_holder(key)
        kind = zdef.scope.kind
        if kind in PLAIN_SCOPES:
            slot = self._zones_at + self.zone_slot[zdef.name]
            if kind is OwnerKind.PLAYER:
                slot += (int(holder) - seat) % n
            elif kind is OwnerKind.TEAM:
                slot += (int(holder) - program.team_of(n)[seat]) % len(self.teams)
            held = False
        else:
            where = self.node_index.get(holder, 0) if kind is OwnerKind.NODE else int(holder)
            slot = self._held_at + self.held_base[zdef.name] + where * (n + 2)
            held = True
        dynamic = type(holder) is Comp
        visible = None if dynamic else may_see(_NoState(program, n), zdef.visibility, holder, seat)
        owner_sees = zdef.visibility == "owner" and type(holder) not in (Seat, Team)
        hr = None
        if not dynamic:
            holder_seat = seat_of(_NoState(program, n), holder)
            hr = n if holder_seat is None else (holder_seat - seat) % n
        return (slot, held, holder, zdef.visibility, visible, self.zone_names.index(zdef.name), hr, owner_sees)

    def _counter_plan(self, key: str, seat: int):
        """Where counter `key` goes for `seat`, with its visibility and the component whose counter
        it is when who sees it follows who controls that component (None for the others, seen or
        not once and for all: a public or hidden counter of a component too); False: not in the
        vector (a supply, a counter of an unknown owner, or one the seat never sees)."""
        if keys.is_supply(key):
            return False
        cdef = self.defn.counters.get(keys.name_of(key))
        if cdef is None:
            return False
        n = self.n
        rel = [(s - seat) % n for s in range(n)]
        my_team = self.program.team_of(n)[seat]
        team_rel = [(t - my_team) % len(self.teams) for t in range(len(self.teams))]
        slot = self._counter_slot(cdef, key, rel, team_rel)
        if slot is None:
            return False
        holder = counter_holder(cdef, key)
        if type(holder) is not Comp or cdef.visibility in ("public", "hidden"):
            if not may_see(_NoState(self.program, n), cdef.visibility, holder, seat):
                return False
            holder = None
        return (self._counters_at + self.counter_slot[cdef.name] + slot, cdef.visibility, holder)

    def _components(self, rows, st, seen, zone_of, holder_of) -> None:
        """Fill the rows of the components `seen` (numpy arrays: which, in which zone, held by which
        relative seat); the others stay 0."""
        rows[seen, 0] = 1
        rows[seen, 1 + zone_of] = 1
        rows[seen, self._holder_column + holder_of] = 1
        tapped = self._tapped_column
        tags_at = tapped + 1
        rows[seen, tags_at:] = self.static[seen]
        if not (st.tapped or st.tags or st.over):
            return
        visible = set(seen.tolist())
        for c in st.tapped:
            if c in visible:
                rows[c, tapped] = 1
        tag_index = self.tag_index
        for c, tags in st.tags.items():
            if c in visible:
                for t in tags:
                    i = tag_index.get(t)
                    if i is not None:
                        rows[c, tags_at + i] = 1
        for (c, name), v in st.over.items():  # an attribute the rules changed: its columns anew
            if c in visible:
                self._attribute(rows[c], tags_at, name, v)

    def _attribute(self, row, at: int, name: str, v) -> None:
        """The columns of attribute `name` of a component's row (from `at`, its own values) for value `v`."""
        cols = self.attribute_columns.get(name)
        if cols is None:
            return
        start, values = cols
        if values is None:  # a number or yes/no
            row[at + start] = float(v) if isinstance(v, (int, float)) else 0.0
            return
        have = {fold(x) for x in (v if isinstance(v, list) else [v]) if isinstance(x, str)}
        for i, value in enumerate(values):
            row[at + start + i] = 1.0 if value in have else 0.0

    def _own_values(self, st, c: int) -> list:
        """A component's classes rules may tag it with (as printed), its class attributes' values,
        and its number and yes/no attributes (as `st` has them, or as printed when `st` is None)."""
        program = self.program
        comp = Comp(c)
        classes = program.comp_classes[c]
        out = [1.0 if t in classes else 0.0 for t in self.tagged]
        for name, values in self.class_attrs:
            v = st.attr(comp, name) if st is not None else program.comp_attrs[name][c]
            have = {fold(x) for x in (v if isinstance(v, list) else [v]) if isinstance(x, str)}
            out.extend(1.0 if fold(value) in have else 0.0 for value in values)
        for name in self.value_attrs:
            v = st.attr(comp, name) if st is not None else program.comp_attrs[name][c]
            out.append(float(v) if isinstance(v, (int, float)) else 0.0)
        return out

    def _counter_slot(self, cdef, key: str, rel, team_rel):
        owners = keys.owners_of(key)
        scope = cdef.scope
        if scope.kind is OwnerKind.GAME:
            return 0
        index = []
        for half, raw in zip(scope.halves, owners):
            kind = half.kind
            if kind is OwnerKind.PLAYER:
                index.append((rel[int(raw)], self.n))
            elif kind is OwnerKind.TEAM:
                index.append((team_rel[keys.team_of_owner(raw)] if keys.is_team_owner(raw) else 0, len(self.teams)))
            elif kind is OwnerKind.NODE:
                i = self.node_index.get(NodeRef(raw))
                if i is None:
                    return None
                index.append((i, len(self.nodes)))
            else:
                if not raw.isdigit():
                    return None
                index.append((int(raw), self.comps))
        slot = 0
        for i, size in index:
            slot = slot * size + i
        return slot

    def describe(self) -> list:
        """(name, offset, size, what) of each block."""
        return list(self.blocks)

    # scaled values ----------------------------------------------------------------------------
    # A vector holds raw numbers: counts, counters, attributes as the state has them. `scaled`
    # maps each into [-1, 1] by what the content declares of it: a count over the components
    # that may be there (a zone's capacity, else all the game's components); a counter with a
    # floor and a ceiling over the larger of the two in size, a supply over its size; the number
    # of options over the most a decision may have (actions.POSITIONS); a number attribute no
    # rule sets over the largest printed; the rest (a counter with no ceiling, a number attribute
    # some rule sets, which may then be anything) by a signed logarithm,
    # sign(x) log(1 + |x|) / log(1 + MAX_NUMBER), which keeps the order of values and the sign;
    # 0 and 1 of the one-hot and yes/no values stay 0 and 1.
    def scaling(self):
        """(divisor of each value, mask of the values scaled by the signed logarithm), made once."""
        if self._scaling is None:
            d, n = self.defn, self.n
            div = np.ones(self.size, np.float32)
            log = np.zeros(self.size, bool)
            div[self._decision + self.blocks[0][2] - 1] = POSITIONS  # the number of options
            for z in self.plain_zones:
                at = self._zones_at + self.zone_slot[z.name]
                div[at:at + self._owners(z.scope)] = self._room(z)
            for z in self.held:
                at = self._held_at + self.held_base[z.name]
                div[at:at + self._owners(z.scope) * (n + 2)] = self._room(z)
            rows, divisors = self.rows(log), self.rows(div)
            analysis = self.program.compiler.gen.analysis if self.program.compiler is not None else None
            set_by_rules = analysis.attribute_names_set() if analysis is not None else frozenset(self.value_attrs)
            for name in self.value_attrs:
                if d.attributes[name].type != "number":
                    continue
                column = self._tapped_column + 1 + self.attribute_columns[name][0]
                if name in set_by_rules:
                    rows[:, column] = True
                else:  # as printed all game long: over the largest printed
                    printed = [abs(v) for v in self.program.comp_attrs[name] if isinstance(v, (int, float))]
                    divisors[:, column] = max(printed + [1])
            for c in d.counters.values():
                at = self._counters_at + self.counter_slot[c.name]
                size = self._owners(c.scope)
                if c.minimum is not None and c.maximum is not None:
                    div[at:at + size] = max(abs(c.minimum), abs(c.maximum), 1)
                else:
                    log[at:at + size] = True
            for i, c in enumerate(self.supplies):
                at = self._counters_at + self.supply_base + i
                if isinstance(c.supply, int) and not isinstance(c.supply, bool):
                    div[at] = max(c.supply, 1)
                else:
                    log[at] = True
            self._scaling = (np.float32(1) / div, np.flatnonzero(log))
        return self._scaling

    def _room(self, zdef) -> int:
        """The most components a zone of `zdef` may hold: its capacity, else every component."""
        return max(1, min(zdef.capacity, self.comps) if zdef.capacity is not None else self.comps)

    def scaled(self, vector) -> np.ndarray:
        """A new vector: `vector`'s values mapped into [-1, 1] (see `scaling`)."""
        inverse, logs = self.scaling()
        out = vector * inverse
        if logs.size:
            x = vector[logs]
            out[logs] = np.sign(x) * np.log1p(np.abs(x)) * np.float32(1 / np.log1p(MAX_NUMBER))
        return out


class _NoState:
    """What `may_see` and `seat_of` read of a state for a holder that is no component (a
    seat, a team, a node, none), or for a public or hidden thing of a component (`may_see`
    reads nothing then): the program and the number of players, nothing that moves."""

    def __init__(self, program, n: int):
        self.program, self.n = program, n

    def team_of(self, seat):
        return Team(self.program.team_of(self.n)[int(seat)])


def seat_of(st, holder):
    """The seat whose zone it is, or who controls the component holding it; None otherwise."""
    if type(holder) is Seat:
        return int(holder)
    if type(holder) is Team:
        members = [s for s in range(st.n) if st.program.team_of(st.n)[s] == int(holder)]
        return members[0] if members else None
    if type(holder) is Comp:
        ctrl = vm.controller(st, holder)
        return int(ctrl) if ctrl is not None else None
    return None


def _choice_points(program) -> dict:
    """Each choice point of the game (where a choice, menu or question is written) -> its number."""
    points = {}
    for name in sorted(program.codes):
        code = program.codes[name]
        for i in sorted(code.menus):
            points.setdefault(str(code.menus[i].pos), len(points))
        for i in sorted(code.choices):
            points.setdefault(str(code.choices[i].pos), len(points))
    return points
