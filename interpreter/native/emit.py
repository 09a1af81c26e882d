"""The native backend's compiler: a checked game's procedures and abilities written as C over
a state of slots.

    c_source = Emitter(program, players).game()

Each expression is typed as it is lowered (`expressions`, `calls`), so the C tests no value's
type at run time where the rules make it known. A procedure, and each triggered ability of
the cards, becomes one resumable C function: a `switch` on the frame's `pc` takes it back to
the statement after the one that waited (a call, a signal, a menu, a choice, a question), its
locals are slots of its frame, and its branches and loops are C's own `goto`s; a loop that
waits walks a copy of its list kept in the state's arena.

What the backend cannot run yet is refused, with the position of the first construct it
does not take (`NotNative`): the game then runs on the Python backend, which is the
reference. Nothing here knows any game: the constructs taken are the language's.
"""
from __future__ import annotations

from dataclasses import replace
from importlib import resources

from .. import limits
from ..engine.machine import MAX_DEPTH
from ..language import nodes as N
from ..language.texts import label_parts
from ..names import fold
from .calls import Calls
from .expressions import (BOOL, COMP, HELD, HOLDER, NONE, NUM, REFS, SCALARS, SEAT, Expressions, listed, masked,
                          said)
from ..engine.specs import OPTIONAL_ASK, UNNAMED_ACTION
from .slots import NotNative, lay_slots, supply_slot

MAX_OPTIONS_FLOOR = 256
MAX_COMPONENTS = 1024  # components of a game the native backend lays out at most (lists of 4 times as many)
MAX_ZONE_CELLS = 2_000_000  # zones times components (the state's zones, 4 bytes each)
WAITS = (N.CallProc, N.Menu, N.Choose, N.Signal)  # statements after which the machine runs other frames first
POP = -2  # an option that ends its frame (the 'no' of an optional ability)
ACTS = -3  # the options of a menu that are actions of cards
LISTED = "\0list:"  # marks the C of a text's value that is a kept list (recorded as its length, then its members)


class Shown:
    """A part of a text that shows a value of type `t` (the other parts are texts)."""

    __slots__ = ("t",)

    def __init__(self, t):
        self.t = t


class Proc:
    """A procedure or a triggered ability being lowered: its locals' slots and types."""

    def __init__(self, name: str, index: int, params: list, body: list, pos, acting=None, ability=None,
                 consts=None):
        self.name, self.index, self.params, self.body, self.pos = name, index, list(params), body, pos
        self.acting = acting
        self.ability = ability  # the Trigger or Action, for an ability
        self.slots: dict = {}  # name -> (slot, type)
        self.consts: dict = consts or {}  # a keyword's parameter -> (type, C), or ("class", key), or ("expr", node)
        self.empty: set = set()  # locals let to an empty list, not yet typed
        self.dead = False  # never run by the game (an untyped parameter says so): not lowered
        # every name the code binds (its parameters, its lets, choices and loops): they hide a
        # class or counter of the same name, typed or not yet
        self.declared = set(self.params) | {n for s in _statements(body) for n in _bound_names(s)}

    def local(self, name: str, t, pos) -> str:
        if name in self.slots:
            slot, old = self.slots[name]
            if old != t:
                raise NotNative(pos, f"'{name}' holding a {said(old)} and a {said(t)}")
            return f"L[{slot}]"
        if not (t in SCALARS or masked(t) or (isinstance(t, tuple) and t[0] == "kept")):
            raise NotNative(pos, f"'{name}' holding a {said(t)}")
        self.slots[name] = (len(self.slots), t)
        return f"L[{len(self.slots) - 1}]"


class Emitter(Expressions, Calls):
    """Lowers the procedures and abilities of `program` to C, for games of up to `players` seats."""

    def __init__(self, program, players: int):
        self.program, self.defn, self.players = program, program.defn, players
        if self.defn.automata:
            raise NotNative(self.program.pos, "seats driven by content (automata)")
        self.slots = lay_slots(program, players)
        comps, zones = len(program.comp_card), len(self.slots.zones)
        if comps > MAX_COMPONENTS or comps * zones > MAX_ZONE_CELLS:
            # the state lays every zone out for every component, and lists on the C stack are
            # as long as four times the components: past these, a game stays in Python
            raise NotNative(program.pos, f"a game of {comps:,} components and {zones:,} zones, larger than "
                                         f"the native backend lays out ({MAX_COMPONENTS:,} components, "
                                         f"{MAX_ZONE_CELLS:,} places in zones)")
        # the board's nodes by the name of their id, interned first: node("c1") finds its node
        self.node_of_name = {self.slots.name(n): i for i, n in enumerate(self.slots.nodes)}
        self.positions: list = []  # position index -> Position
        self._pos_index: dict = {}
        self.texts: list = []  # text index -> (parts: texts and types, C of the values)
        # menu index -> (position, prompt text or None, the prompt without one, options: [(where
        # its body starts, or POP; the slot of its variable or -1; its label's text)], secret)
        self.menus: list = []
        self.signals: list = []  # signal index -> (event, argument types)
        self.menu_code: list = []
        self.menu_ends: dict = {}  # menu index -> where the frame goes on after an action picked there
        self.tables: list = []
        self.functions: dict = {}
        self.options = list(program.options)
        self.tags = [fold(k[1]) for k in self.defn.classes.values() if k[0] is None]
        self.tags = list(dict.fromkeys(self.tags))
        self.set_attributes = sorted({s.target.name for s in self._every_statement()
                                      if isinstance(s, N.SetStmt) and isinstance(s.target, N.Attr)
                                      and s.target.name in self.defn.attributes})
        self.procs: dict = {}
        for name, p in self.defn.procedures.items():
            self.procs[name] = Proc(name, len(self.procs), p.params, p.tree.body, p.pos, p.acting)
        self.triggers = self._abilities()
        self.most_actions = max([1] + [len(a) for a in self.actions])
        self.windows: list = []  # the windows of actions, by index (a bit each)
        self.limits: list = []  # the events that limit an action to once between them, by index
        for acts in self.actions:
            for a in acts:
                if a.ability.limit is not None:
                    self.limit(a.ability.limit)
        self._fresh = 0
        self._untyped: dict = {}  # procedure -> why a call of it could not be typed
        self.dynamic_has = False  # whether has() is asked of a class known only in play
        self.dynamic_supply = False  # whether supply() is asked of a counter known only in play
        self.cur = None

    def _every_statement(self):
        for p in self.defn.procedures.values():
            yield from _statements(p.tree.body)
        for card in self.defn.cards:
            for ab in card.abilities:
                for node, bindings in self._trees(ab):
                    yield from _statements(getattr(node, "body", None) or [])
                    for v in bindings.values():  # the statements a card prints for an effect
                        if isinstance(v, list):
                            yield from _statements(v)

    def _trees(self, ab) -> list:
        if isinstance(ab.tree, N.PhraseAbility):
            use = self.program.found.keyword_uses[ab]
            return [(t, use.bindings) for t in use.keyword.trees]
        return [(ab.tree, {})]

    def _abilities(self) -> dict:
        """Each ability as a Proc (shared by the cards that print it alike), the triggers of
        each component (event -> [component] -> the indexes of its abilities' codes, in the
        order they are printed), and its actions (self.actions: [component] -> [Proc])."""
        per_card = {}
        shared: dict = {}
        for card in self.defn.cards:
            mine: dict = {}
            acts: list = []
            for ab in card.abilities:
                for node, bindings in self._trees(ab):
                    if not isinstance(node, (N.Trigger, N.Action)):
                        raise NotNative(getattr(node, "pos", ab.pos), "this kind of ability")
                    key = (id(node), card.id if bindings else None, ab.text)  # an action's label says its text
                    proc = shared.get(key)
                    if proc is None:
                        consts, effects = self._bindings(ab, bindings)
                        body = _splice(node.body, effects) if effects else node.body
                        if isinstance(node, N.Trigger):
                            params = list(self.defn.events.get(node.event, [])) + ["cause"]
                        else:
                            params = ["cause", "\0free"]
                        proc = shared[key] = Proc(f"ability:{card.id}", len(self.procs), params, body, node.pos,
                                                  ability=node, consts=consts)
                        proc.text = ab.text
                        if isinstance(node, N.Action):
                            proc.local("cause", SEAT, node.pos)
                            proc.local("\0free", NUM, node.pos)
                        self.procs[f"\0{key}"] = proc
                    if isinstance(node, N.Trigger):
                        mine.setdefault((node.event, node.broadcast), []).append(proc.index)
                    else:
                        acts.append(proc)
            per_card[id(card)] = (mine, acts)
        triggers: dict = {}  # (event, whether 'whenever') -> component -> its abilities' codes
        self.actions = []
        for c, card in enumerate(self.program.comp_card):
            mine, acts = per_card[id(card)]
            for key, procs in mine.items():
                triggers.setdefault(key, {})[c] = procs
            self.actions.append(acts)
        return triggers

    def _bindings(self, ab, bindings: dict) -> tuple:
        """What each parameter of a keyword stands for on a card: its consts, and the
        statements an effect parameter splices in."""
        if not bindings:
            return {}, {}
        use = self.program.found.keyword_uses[ab]
        consts, effects = {}, {}
        for name, v in bindings.items():
            kind = use.keyword.params.get(name)
            if kind == "effect":
                effects[name] = v
            elif kind == "class":
                consts[name] = ("class", fold(v))
            elif isinstance(v, N.Node):
                consts[name] = ("expr", v)
            elif isinstance(v, int) and not isinstance(v, bool):
                if not -limits.MAX_NUMBER <= v <= limits.MAX_NUMBER:
                    raise NotNative(ab.pos, f"the number {v}, past the largest a game may keep")
                consts[name] = ("number", f"{v}LL")
            elif isinstance(v, str):
                consts[name] = ("name", v)
            else:
                raise NotNative(ab.pos, f"a keyword's parameter '{name}' of this kind")
        return consts, effects

    # tables -----------------------------------------------------------------------------
    def pos(self, p) -> int:
        if p is None:
            return -1
        key = id(p)
        if key not in self._pos_index:
            self._pos_index[key] = len(self.positions)
            self.positions.append(p)
        return self._pos_index[key]

    def fresh(self, prefix: str) -> str:
        self._fresh += 1
        return f"{prefix}{self._fresh}"

    def label(self) -> str:
        return self.fresh("l")

    def table(self, name: str, ctype: str, cells: list) -> str:
        self.tables.append(f"static const {ctype} {name}[] = {{{', '.join(cells) or '0'}}};")
        return name

    # the whole game ---------------------------------------------------------------------
    def game(self) -> str:
        if "game" not in self.procs:
            raise NotNative(self.program.pos, "a game without a 'game' procedure")
        self._types()
        bodies = [self.proc(p) for p in self.procs.values()]
        usable = [self.usable(p) for p in self.procs.values() if isinstance(p.ability, N.Action)]
        for p in self.procs.values():
            if isinstance(p.ability, N.Action):
                self.cur = p
                # the label an action is offered by: its name, or its card's title and its text
                label = p.ability.label or UNNAMED_ACTION.format("{self.title}", p.text)
                me = (COMP, "(x / RG_MAXA)")
                p.label_text = self.text(label, p.ability.pos, {"self": me, "me": me, "you": (SEAT, "(v_t)-1")})
                self.cur = None
        signals = [self.signal_function(i) for i in range(len(self.signals))]
        ahead = [f"static void P_{p.index}(rg_state *st, rg_cx *cx, rg_frame *fr);" for p in self.procs.values()]
        ahead += [f"static void M_{i}(rg_state *st, rg_cx *cx, rg_frame *fr);" for i in range(len(self.menus))]
        ahead += [f.proto for f in self.functions.values()]
        ahead += [f"static int U_{p.index}(rg_state *st, rg_cx *cx, v_t c, v_t player, int free);"
                  for p in self.procs.values() if isinstance(p.ability, N.Action)]
        ahead.append("static int rg_has(rg_state *st, v_t name, v_t c);")
        ahead.append("static v_t rg_supply_of(rg_state *st, v_t name);")
        label = self.seat_label()
        functions = [f.c for f in self.functions.values()]
        return "\n".join(self.head() + [_resource("runtime.c")] + self.tables + ahead + self.action_tables() +
                          [_resource("actions.c")] + functions + signals + bodies + usable + self.menu_code +
                          self.entry() + label)

    def seat_label(self) -> list:
        """The C of the value a seat is reported by (`report_seats_by`), if the game has one:
        `rg_seat_label(state, seat, &value)`, 0 or the code of a fault."""
        tree = self.defn.seat_report_tree
        self.seat_label_type = None
        if tree is None:
            return []
        self.cur = Proc("seat label", -1, [], [], tree.pos)
        t, src = self.expr(tree, {"p": (SEAT, "(v_t)seat")})
        self.cur = None
        if t not in SCALARS:
            raise NotNative(tree.pos, f"seats reported by a {said(t)}")
        self.seat_label_type = t
        return ["int rg_seat_label(rg_state *st, int32_t seat, int64_t *out) {",
                "    rg_log quiet;",
                "    rg_cx cxs;",
                "    rg_cx *cx = &cxs;",
                "    rg_frame scratch;",
                "    rg_frame *fr = &scratch;",
                "    memset(&quiet, 0, sizeof quiet);",
                "    char base;",
                "    cxs.log = &quiet;",
                "    cxs.depth = 0;",
                "    cxs.stack = &base;",
                "    fr->me = -1;",
                "    fr->you = seat;",
                "    (void)fr;",
                "    if (setjmp(cxs.jb)) return st->fault;",
                f"    *out = {src};",
                "    return 0;",
                "}"]

    def action_tables(self) -> list:
        """Each component's actions: their code, the windows they may be used in, the event
        that limits them, and their check."""
        most = self.most_actions
        procs, windows, limits_, checks = [], [], [], []
        for acts in self.actions:
            for a in range(most):
                if a < len(acts):
                    node = acts[a].ability
                    procs.append(acts[a].index)
                    windows.append(sum(1 << self.window(w, node.pos) for w in node.windows))
                    limits_.append(self.limit(node.limit) if node.limit is not None else -1)
                    checks.append(f"U_{acts[a].index}")
                else:
                    procs.append(-1)
                    windows.append(0)
                    limits_.append(-1)
                    checks.append("0")
        return [_table("int32_t", "RG_ACT_COUNT", [len(a) for a in self.actions] or [0]),
                _table("int32_t", "RG_ACT_PROC", procs or [-1]), _table("int64_t", "RG_ACT_WINDOWS", windows or [0]),
                _table("int32_t", "RG_ACT_LIMIT", limits_ or [-1]),
                "static int (*const RG_ACT_USABLE[])(rg_state *, rg_cx *, v_t, v_t, int) = {"
                + (", ".join(checks) or "0") + "};"]

    def window(self, name: str, pos) -> int:
        if name not in self.windows:
            if len(self.windows) >= 63:
                raise NotNative(pos, "more than 63 windows of actions")
            self.windows.append(name)
        return self.windows.index(name)

    def limit(self, event: str) -> int:
        if event not in self.limits:
            self.limits.append(event)
        return self.limits.index(event)

    def _types(self) -> None:
        """The type of each parameter and local, from what gives it a value (a call its
        parameters, a signal its abilities' parameters, a `let`, a choice, a loop), to a fixed
        point: one nothing gives a type is refused."""
        for _ in range(2 * len(self.procs) + 4):
            changed = False
            for p in self.procs.values():
                if isinstance(p.ability, N.Trigger) and "cause" not in p.slots and \
                        all(n in p.slots for n in p.params[:-1]):
                    p.local("cause", SEAT, p.pos)
                    changed = True
                for s in _statements(p.body):
                    changed |= self._infer(s, p)
            if not changed:
                break
        called = {s.proc for p in self.procs.values() for s in _statements(p.body) if isinstance(s, N.CallProc)}
        for key, p in self.procs.items():
            # an extension point, or a procedure no statement of the game calls (a rules test may): never run here
            point = key in self.defn.procedures and (self.defn.procedures[key].point or key not in called)
            for name in p.params:
                if name not in p.slots:
                    if p.ability is not None or point:  # never run: an event no statement signals, a point
                        p.local(name, NUM, p.pos)
                        p.dead = True  # its body is not lowered: nothing of the game runs it
                        continue
                    if key in self._untyped:
                        raise self._untyped[key]
                    raise NotNative(p.pos, f"parameter '{name}' of '{p.name}', of no type a call gives")

    def _infer(self, s, p: Proc) -> bool:
        known = sum(len(q.slots) for q in self.procs.values())
        self.cur = p
        try:
            if isinstance(s, N.Let) and s.name not in p.slots:
                t = _stored(self.expr(s.value)[0])
                if t == "empty":
                    p.empty.add(s.name)  # a list, of members a later `set` says
                elif t != NONE:
                    p.local(s.name, t, s.pos)
            elif isinstance(s, N.SetStmt) and isinstance(s.target, N.Name) and s.target.name not in p.slots \
                    and s.target.name not in self.defn.counters:
                t = _stored(self.expr(s.value)[0])
                if t not in (NONE, "empty"):
                    p.local(s.target.name, t, s.pos)
            elif isinstance(s, N.Roll) and s.name not in p.slots:
                p.local(s.name, ("kept", NUM), s.pos)
            elif isinstance(s, N.Choose) and s.var not in p.slots:
                p.local(s.var, self.members(s.source).elem, s.pos)
            elif isinstance(s, N.For) and s.var not in p.slots:
                p.local(s.var, self.members(s.source).elem, s.pos)
            elif isinstance(s, N.Menu):
                for o in s.options:
                    if getattr(o, "source", None) is not None and o.var not in p.slots:
                        p.local(o.var, self.members(o.source).elem, o.pos)
            elif isinstance(s, N.CallProc):
                callee = self.procs.get(s.proc)
                point = self.defn.procedures[s.proc] if callee is not None else None
                if callee is not None and not (point.point and not point.hooks):
                    try:
                        types = [self.expr(a)[0] for a in s.args]
                    except NotNative as exc:  # what keeps the callee's parameters untyped, if nothing else types them
                        self._untyped[s.proc] = exc
                        raise
                    self._give(callee, types, s.args)
            elif isinstance(s, N.Signal):
                types = [self.expr(a)[0] for a in s.args]
                for q in self.procs.values():
                    if isinstance(q.ability, N.Trigger) and q.ability.event == s.event:
                        self._give(q, types, s.args)
        except NotNative as exc:
            if "given a" in exc.what:
                raise
        finally:
            self.cur = None
        return sum(len(q.slots) for q in self.procs.values()) != known

    def _give(self, callee: Proc, types: list, args: list) -> None:
        for name, t, a in zip(callee.params, [_stored(t) for t in types], args, strict=False):
            if t == NONE:
                continue
            old = callee.slots.get(name, (None, None))[1]
            if t == HOLDER and old is not None:
                continue  # a holder given where the parameter is of a kind: read as that kind
            if old == HOLDER and t in HELD:
                callee.slots[name] = (callee.slots[name][0], t)  # the kind the other calls give
                continue
            if name not in callee.slots:
                callee.local(name, t, a.pos)
            elif callee.slots[name][1] != t:
                raise NotNative(a.pos, f"parameter '{name}' of '{callee.name}' given a {said(t)} here and a "
                                       f"{said(callee.slots[name][1])} elsewhere")

    def head(self) -> list:
        s = self.slots
        program = self.program
        n_comps = max(1, len(program.comp_card))
        locals_ = max([1] + [len(p.slots) + 8 for p in self.procs.values()])
        out = ["#include <stdint.h>",
               f"#define RG_PLAYERS {self.players}",
               f"#define RG_COMPS {n_comps}",
               f"#define RG_ZONES {max(1, len(s.zones))}",
               f"#define RG_COUNTERS {max(1, len(s.counters))}",
               f"#define RG_OPTIONS {max(1, len(self.options))}",
               f"#define RG_LOCALS {locals_}",
               f"#define RG_TAGS {max(1, len(self.tags))}",
               f"#define RG_MAXA {self.most_actions}",
               f"#define RG_OVER {max(1, len(self.set_attributes))}",
               f"#define RG_SCORE_BASE {s.counter_base.get(self.defn.score, 0) if self.defn.score else 0}",
               f"#define RG_SCORE_OWNERS {self.score_owners()}",
               f"#define RG_MAX_DEPTH {MAX_DEPTH}",
               f"#define RG_MAX_OPTIONS {max(MAX_OPTIONS_FLOOR, 4 * n_comps)}",
               f"#define RG_LIST {4 * n_comps + 64}",
               f"#define RG_ARENA {16 * n_comps + 1024}",
               f"#define RG_BUDGET {int(program.step_budget)}LL",
               f"#define RG_MAX_NUMBER {limits.MAX_NUMBER}LL",
               "#define RG_NO_BOUND INT64_MIN",
               "#define RG_MISSING INT64_MIN  /* no value: an attribute not set, a node's attribute it lacks */",
               "typedef int64_t v_t;"]
        capacity = [-1 if z.capacity is None else z.capacity for z in s.zone_spec]
        out.append(_table("int32_t", "RG_ZONE_CAPACITY", capacity))
        out.append(_table("int8_t", "RG_ZONE_IN_PLAY", [int(bool(z.in_play)) for z in s.zone_spec]))
        names = max(self.node_of_name, default=-1) + 1
        out.append(f"#define RG_NODE_NAMES {names}")
        out.append(_table("int32_t", "RG_NODE_OF_NAME", [self.node_of_name.get(i, -1) for i in range(names)] or [-1]))
        owners = [-1 if o is None else o for o in program.comp_owner]
        out.append(_table("int32_t", "RG_OWNER", owners or [-1]))
        out.append(_table("int8_t", "RG_ZONE_HOLDER_KIND", [k for k, _ in s.zone_holder]))
        out.append(_table("int32_t", "RG_ZONE_HOLDER", [i for _, i in s.zone_holder]))
        keeps = program.tag_zones
        out.append(_table("int8_t", "RG_ZONE_KEEPS_TAGS", [int(keeps is None or z.name in keeps) for z in s.zone_spec]))
        first, lost = [], []
        for z in s.zone_spec:
            first.append(len(lost))
            lost += [s.counter_base[name] for name, keep in program.kept_counters if z.name not in keep]
        first.append(len(lost))
        out += [_table("int32_t", "RG_LOST_FIRST", first), _table("int32_t", "RG_LOST", lost or [0])]
        mins = [_bound(c.minimum if c is not None else None) for c in s.counter_spec]
        maxs = [_bound(c.maximum if c is not None else None) for c in s.counter_spec]
        supply = [supply_slot(s, c) for c in s.counter_spec]
        out += [_table("int64_t", "RG_COUNTER_MIN", mins or [0]), _table("int64_t", "RG_COUNTER_MAX", maxs or [0]),
                _table("int32_t", "RG_COUNTER_SUPPLY", supply or [-1])]
        abilities = [int(p.ability is not None) for p in self.procs.values()]
        return out + self.ref_tables() + [_table("int8_t", "RG_IS_ABILITY", abilities or [0])]

    def score_owners(self) -> int:
        """How many owners the score counter has a slot for (what points are credited per)."""
        name = self.defn.score
        if name is None:
            return 1
        base = self.slots.counter_base[name]
        return max(1, sum(1 for i, spec in enumerate(self.slots.counter_spec) if i >= base and spec is not None
                          and spec.name == name))

    # procedures -------------------------------------------------------------------------
    def proc(self, p: Proc) -> str:
        self.cur = p
        self.resume = 0
        self.loops: list = []  # (continue label, break label)
        lines: list = []
        if not p.dead:
            if p.ability is not None:
                self.prologue(p, lines)
            self.block(p.body, lines)
        self.cur = None
        return "\n".join([f"static void P_{p.index}(rg_state *st, rg_cx *cx, rg_frame *fr) {{",
                          "    v_t *L = fr->loc;",
                          "    (void)L;",
                          "    switch (fr->pc) {",
                          "    case 0:;"] + ["    " + x for x in lines] +
                         ["    }", "    rg_pop(st);  /* the end of the code */", "}", ""])

    def prologue(self, p: Proc, lines: list) -> None:
        """An ability's condition (not met: it does nothing) and, when optional, the question;
        an action's costs, paid (its condition and costs are checked before, by `usable`)."""
        node = p.ability
        if isinstance(node, N.Action):
            for cost in node.costs:
                pos = self.pos(cost.pos)
                if cost.kind == N.CostKind.TAP:
                    lines.append(f"rg_tap(st, cx, fr->me, 1, {pos});")
                elif cost.kind == N.CostKind.PAY:
                    slot = self.counter_slot(cost.name, SEAT, "(v_t)fr->you", cost.pos)
                    lines.append(f"if (!L[{p.slots[chr(0) + 'free'][0]}]) "
                                 f"rg_add(st, cx, {slot}, -({self.num(cost.amount)}), {pos}, R_PAY);")
                elif cost.kind == N.CostKind.SPEND:
                    slot = self.counter_slot(cost.name, COMP, "(v_t)fr->me", cost.pos)
                    lines.append(f"rg_add(st, cx, {slot}, -({self.num(cost.amount)}), {pos}, R_SPEND);")
                else:
                    raise NotNative(cost.pos, f"a '{cost.kind}' cost")
            return
        if node.cond is not None:
            lines += [f"if (!({self.test(node.cond)})) {{", "    rg_pop(st);", "    return;", "}"]
        if node.optional:
            pos = self.pos(node.pos)
            index = len(self.menus)
            before, after = OPTIONAL_ASK.split("{0}")
            ask = self._text([before, Shown(COMP), after.replace("{1}", node.event)], ["(v_t)fr->me"])
            self.resume += 1
            yes = self.resume
            answers = [(yes, -1, self._text(["yes"], [])), (POP, -1, self._text(["no"], []))]
            self.menus.append((pos, ask, "use?", answers, False))
            lines += ["st->nopt = 0;", f"rg_option(st, cx, 0, 1, {pos});", f"rg_option(st, cx, 1, 0, {pos});",
                      f"st->chooser = rg_seat(st, cx, fr->you, {pos});", f"st->menu = {index};", "st->pending = 1;",
                      f"fr->pc = {yes};", "return;", f"case {yes}:;"]

    def usable(self, p: Proc) -> str:
        """The C that says whether the action of Proc `p` may be used now by `player` on `c`:
        its condition, and each of its costs can be paid (`free`: its `pay` costs waived)."""
        node = p.ability
        self.cur = p
        checks = []
        if node.cond is not None:
            checks.append(f"if (!({self.test(node.cond)})) return 0;")
        for cost in node.costs:
            if cost.kind == N.CostKind.TAP:
                checks.append("if (rg_is_tapped(st, c)) return 0;")
            elif cost.kind == N.CostKind.PAY:
                slot = self.counter_slot(cost.name, SEAT, "(v_t)fr->you", cost.pos)
                checks.append(f"if (!free && st->counters[{slot}] < ({self.num(cost.amount)})) return 0;")
            elif cost.kind == N.CostKind.SPEND:
                slot = self.counter_slot(cost.name, COMP, "(v_t)fr->me", cost.pos)
                checks.append(f"if (st->counters[{slot}] < ({self.num(cost.amount)})) return 0;")
            else:
                raise NotNative(cost.pos, f"a '{cost.kind}' cost")
        self.cur = None
        cause, free = p.slots["cause"][0], p.slots["\0free"][0]
        return "\n".join([f"static int U_{p.index}(rg_state *st, rg_cx *cx, v_t c, v_t player, int free) {{",
                          "    rg_frame scratch;",
                          "    rg_frame *fr = &scratch;",
                          "    v_t *L = fr->loc;",
                          "    (void)cx; (void)L;",
                          "    fr->me = (int32_t)c;",
                          "    fr->you = (int32_t)player;",
                          f"    L[{cause}] = player;",
                          f"    L[{free}] = free;"] + ["    " + x for x in checks] + ["    return 1;", "}", ""])

    def keep(self, members, pos) -> str:
        """A C expression: the members gathered and kept in the arena, their handle."""
        x, buf, n = self.fresh("x"), self.fresh("buf"), self.fresh("n")
        p = self.pos(pos)
        loop = members.loop(x, [f"if ({n} >= RG_LIST) rg_fault(st, cx, F_TOO_LONG, {p});", f"{buf}[{n}++] = {x};"])
        return "({ " + f"v_t {buf}[RG_LIST]; int32_t {n} = 0; " + " ".join(loop) + \
            f" rg_keep(st, cx, {buf}, {n}, {p}); }})"

    def kept_value(self, e, want, src, t) -> str:
        """The C of value `src` (of type `t`) stored where a value of type `want` goes: a list
        stored as a kept list is gathered into the arena."""
        if isinstance(want, tuple) and want[0] == "kept":
            if t == want:
                return src
            if t == "empty":
                return "0"
            if (listed(t) or masked(t)) and t[1] == want[1]:
                return self.keep(self.members(e), e.pos)
        if t != want:
            raise NotNative(e.pos, f"a {said(t)} where a {said(want)} is kept")
        return src

    def resume_point(self, lines: list) -> None:
        """Return to the machine; the frame goes on here."""
        self.resume += 1
        lines += [f"fr->pc = {self.resume};", "return;", f"case {self.resume}:;"]

    def block(self, body, lines: list) -> None:
        for s in body:
            visit = getattr(self, "s_" + type(s).__name__, None)
            if visit is None:
                raise NotNative(s.pos, f"a '{type(s).__name__.lower()}' statement")
            visit(s, lines)

    def s_Pass(self, s, lines):
        pass

    def s_Let(self, s, lines):
        t, src = self.expr(s.value)
        if t in (NONE, "empty") or listed(t):
            if s.name not in self.cur.slots:
                raise NotNative(s.pos, f"'{s.name}', set to {said(t)} and to nothing else")
            want = self.cur.slots[s.name][1]
            if t == NONE and want not in REFS:
                raise NotNative(s.pos, f"'{s.name}', a {said(want)}, set to none")
            if t != NONE:
                src, t = self.kept_value(s.value, want, src, t), want
            else:
                t = want
        lines.append(f"{self.cur.local(s.name, t, s.pos)} = {self.kept(s.value, t, src)};")

    def kept(self, e, t, src) -> str:
        if t == NUM and any(isinstance(n, N.BinOp) and n.op in "+-*" for n in N.walk(e)):
            return f"rg_big(st, cx, {src}, {self.pos(e.pos)})"
        return src

    def s_SetStmt(self, s, lines):
        t = s.target
        if isinstance(t, N.Name) and t.name in self.cur.slots:
            vt, src = self.expr(s.value)
            want = self.cur.slots[t.name][1]
            if vt == NONE:
                vt = want
            elif vt == "empty" or listed(vt) or (masked(vt) and isinstance(want, tuple) and want[0] == "kept"):
                src, vt = self.kept_value(s.value, want, src, vt), want
            lines.append(f"{self.cur.local(t.name, vt, s.pos)} = {self.kept(s.value, vt, src)};")
            return
        if isinstance(t, N.Attr) and t.name in self.set_attributes:
            ot, obj = self.expr(t.obj)
            if ot != COMP:
                raise NotNative(s.pos, f"an attribute of a {said(ot)} set")
            p = self.pos(s.pos)
            kind = self.defn.attributes[t.name].type
            if kind == "number":
                value = f"rg_big(st, cx, {self.num(s.value)}, {p})"
            else:
                value = self.typed(s.value, "name")
            lines.append(f"rg_set_attr(st, cx, {self.set_attributes.index(t.name)}, {obj}, {value}, {p});")
            return
        k = self.counter(t)
        lines.append(f"rg_set(st, cx, {k}, {self.num(s.value)}, {self.pos(s.pos)}, R_SET);")

    def counter(self, e) -> str:
        """The C of the slot of a counter reference."""
        if isinstance(e, N.Name) and e.name in self.defn.counters and e.name not in self.cur.slots:
            return self.counter_slot(e.name, SEAT, "(v_t)fr->you", e.pos)
        if isinstance(e, N.Attr) and e.name in self.defn.counters:
            t, src = self.expr(e.obj)
            return self.counter_slot(e.name, t, src, e.pos)
        if isinstance(e, N.Index) and isinstance(e.obj, N.Attr) and e.obj.name in self.slots.second:
            return self.pair_slot(e)
        raise NotNative(e.pos, "this counter reference")

    def owned(self, name, owner, pos) -> str:
        if owner is None:
            return self.counter_slot(name, SEAT, "(v_t)fr->you", pos)
        t, src = self.expr(owner)
        return self.counter_slot(name, t, src, pos)

    def _amount(self, s, lines, sign, reason, key):
        minus = "-" if sign < 0 else ""
        lines.append(f"rg_add(st, cx, {key}, {minus}({self.num(s.amount)}), {self.pos(s.pos)}, {reason});")

    def s_Add(self, s, lines):
        self._amount(s, lines, 1, "R_ADD", self.counter(s.target))

    def s_Remove(self, s, lines):
        self._amount(s, lines, -1, "R_REMOVE", self.counter(s.target))

    def s_Gain(self, s, lines):
        self._amount(s, lines, 1, "R_GAIN", self.owned(s.counter, s.owner, s.pos))

    def s_Lose(self, s, lines):
        self._amount(s, lines, -1, "R_LOSE", self.owned(s.counter, s.owner, s.pos))

    def s_Score(self, s, lines):
        if self.defn.score is None:
            raise NotNative(s.pos, "'score' in a game without a score")
        key = self.owned(self.defn.score, s.owner, s.pos)
        # the points are credited to the component the rules say, else to the card whose ability runs
        source = self.typed(s.source, COMP) if s.source is not None else "(v_t)fr->me"
        lines.append(f"rg_score(st, cx, {key}, {self.num(s.amount)}, {self.pos(s.pos)}, {source});")

    def s_Move(self, s, lines):
        wt, what = self.expr(s.what)
        if wt == HOLDER:
            wt, what = COMP, self.typed(s.what, COMP)
        z = self.zone(s.to)
        p = self.pos(s.pos)
        bottom = int(s.end == "bottom")
        if wt == NONE:
            return
        if wt == COMP:
            lines.append(f"rg_move(st, cx, {what}, rg_some(st, cx, {z}, {p}), {bottom}, {p});")
            return
        members = self.members(s.what)
        if members.elem != COMP:
            raise NotNative(s.pos, f"a move of {said(members.elem)}s")
        x, to = self.fresh("c"), self.fresh("to")
        lines += ["{", f"    v_t {to} = rg_some(st, cx, {z}, {p});"] + \
            ["    " + b for b in members.loop(x, [f"rg_move(st, cx, {x}, {to}, {bottom}, {p});"])] + ["}"]

    def s_Shuffle(self, s, lines):
        p = self.pos(s.pos)
        lines.append(f"rg_shuffle(st, cx, rg_some(st, cx, {self.zone(s.zone)}, {p}), {p});")

    def s_Tag(self, s, lines):
        key = fold(self.defn.classes[fold(s.tag)][1])
        if key not in self.tags:
            raise NotNative(s.pos, f"a tag of class '{s.tag}'")
        t, src = self.expr(s.what)
        p = self.pos(s.pos)
        call = f"rg_tag(st, cx, X, {self.tags.index(key)}, {int(s.on)}, {p});"
        if t == HOLDER:
            t, src = COMP, self.typed(s.what, COMP)
        if t == COMP:
            lines.append(call.replace("X", src))
            return
        members = self.members(s.what)
        x = self.fresh("c")
        lines += members.loop(x, [call.replace("X", x)])

    def s_Use(self, s, lines):
        c = self.typed(s.card, COMP)
        who = self.typed(s.chooser, SEAT) if s.chooser is not None else "(v_t)fr->you"
        self.resume += 1
        lines += [f"if (rg_use(st, cx, {c}, {who}, {int(s.free)}, {self.pos(s.pos)})) {{",
                  f"    fr->pc = {self.resume};", "    return;", "}", f"case {self.resume}:;"]

    def s_TapStmt(self, s, lines):
        t, src = self.expr(s.what)
        call = f"rg_tap(st, cx, X, {int(s.on)}, {self.pos(s.pos)});"
        if t == HOLDER:
            t, src = COMP, self.typed(s.what, COMP)
        if t == COMP:
            lines.append(call.replace("X", src))
            return
        x = self.fresh("c")
        lines += self.members(s.what).loop(x, [call.replace("X", x)])

    def s_Fail(self, s, lines):
        text = self.text(s.text, s.pos)
        values = self.texts[text][1]
        if any(v.startswith(LISTED) for v in values):
            raise NotNative(s.pos, "a 'fail' showing a list")
        if len(values) > 8:
            raise NotNative(s.pos, "a 'fail' showing more than 8 values")
        lines += ["{", f"    v_t fv_[8] = {{{', '.join(values) or '0'}}};",
                  f"    rg_fail(st, cx, {text}, fv_, {len(values)}, {self.pos(s.pos)});", "    return;", "}"]

    def s_Pay(self, s, lines):
        k = self.counter(s.target)
        cdef = self.program.counters[_counter_name(s.target)]
        text = self._text(["cannot pay ", Shown(NUM), f" {cdef.name}: only ", Shown(NUM)], [])
        p = self.pos(s.pos)
        lines += ["{", f"    v_t n_ = {self.num(s.amount)};", f"    int32_t k_ = {k};",
                  "    if (st->counters[k_] < n_) {", "        v_t fv_[2] = {n_, st->counters[k_]};",
                  f"        rg_fail(st, cx, {text}, fv_, 2, {p});", "        return;", "    }",
                  f"    rg_add(st, cx, k_, -n_, {p}, R_PAY);", "}"]

    def s_Roll(self, s, lines):
        """`roll NAME = N dice [of S sides]`: N draws of 1 to S, a roll event, the list kept."""
        var = self.cur.local(s.name, ("kept", NUM), s.pos)
        p = self.pos(s.pos)
        sides = self.num(s.sides) if s.sides is not None else "6LL"
        lines += ["{", f"    v_t n_ = {self.num(s.count)}, k_ = {sides};",
                  f"    if (k_ < 1) rg_fault(st, cx, F_SIDES, {p});",
                  f"    if (n_ > RG_LIST) rg_fault(st, cx, F_TOO_LONG, {p});",
                  "    if (n_ < 0) n_ = 0;",
                  f"    rg_work(st, cx, n_, {p});",
                  "    v_t dice_[RG_LIST];",
                  "    for (v_t i_ = 0; i_ < n_; i_++) dice_[i_] = 1 + rg_below(st, k_);",
                  "    if (cx->log->on) {", f"        rg_event *e = rg_emit(st, cx, EV_ROLL, {p});",
                  "        for (v_t i_ = 0; i_ < n_; i_++) rg_value(st, cx, e, dice_[i_]);", "    }",
                  f"    {var} = rg_keep(st, cx, dice_, (int32_t)n_, {p});", "}"]

    def s_Reveal(self, s, lines):
        t, src = self.expr(s.what)
        if not (t in SCALARS or t == NONE or masked(t)):
            raise NotNative(s.pos, f"a reveal of a {said(t)}")
        text = self._text([Shown(t)], [src])
        lines += ["if (cx->log->on) {", f"    rg_event *e = rg_emit(st, cx, EV_REVEAL, {self.pos(s.pos)});",
                  f"    e->text = {text};", f"    rg_value(st, cx, e, {src});", "}"]

    def s_Log(self, s, lines):
        text = self.text(s.text, s.pos)
        lines += ["if (cx->log->on) {", f"    rg_event *e = rg_emit(st, cx, EV_LOG, {self.pos(s.pos)});",
                  f"    e->text = {text};"] + [f"    {_record(v)}" for v in self.texts[text][1]] + ["}"]

    def s_Win(self, s, lines):
        t, src = self.expr(s.who)
        p = self.pos(s.pos)
        if t == SEAT:
            mask = f"1LL << rg_seat(st, cx, {src}, {p})"
        elif t == "team":
            mask = f"rg_members(st, rg_some(st, cx, {src}, {p}))"
        elif masked(t) and t[1] == SEAT:
            mask = src
        elif listed(t) and t[1] in (SEAT, "team"):
            x = self.fresh("w")
            one = f"1LL << {x}" if t[1] == SEAT else f"rg_members(st, {x})"
            mask = self.gathered(src, lambda v, out: [f"if ({v} >= 0) m_{out} |= " + one.replace(x, v) + ";"],
                                 "m_OUT", "int64_t m_OUT = 0;")
        else:
            raise NotNative(s.pos, f"a win of a {said(t)}")
        lines += [f"rg_win(st, cx, {mask}, {p});", "return;"]

    def s_Exit(self, s, lines):
        lines += [f"rg_exit(st, {self.procs[s.proc].index});", "return;"]

    def s_Return(self, s, lines):
        lines += ["rg_pop(st);", "return;"]

    def s_CallProc(self, s, lines):
        callee = self.procs.get(s.proc)
        pdef = self.defn.procedures.get(s.proc)
        if callee is None or pdef is None:
            raise NotNative(s.pos, f"a call of '{s.proc}'")
        if pdef.point and not pdef.hooks and all(isinstance(a, N.Name) for a in s.args):
            return  # an extension point nothing hooks on does nothing (its body calls its hooks)
        p = self.pos(s.pos)
        args = []
        for name, a in zip(callee.params, s.args, strict=True):
            want = callee.slots[name][1]
            if want in REFS:
                src = self.typed(a, want)
            else:
                t, src = self.expr(a)
                src = self.kept_value(a, want, src, t)
            args.append((callee.slots[name][0], src))
        you = "fr->you"
        if callee.acting is not None:
            you = f"(int32_t)a{callee.params.index(str(callee.acting))}"
        lines.append("{")
        lines += [f"    v_t a{i} = {src};" for i, (_, src) in enumerate(args)]
        lines.append(f"    rg_frame *nf = rg_push(st, cx, {callee.index}, fr->me, {you}, {p});")
        lines += [f"    nf->loc[{slot}] = a{i};" for i, (slot, _) in enumerate(args)]
        lines.append("}")
        self.resume_point(lines)

    def _same(self, e, want) -> str:
        t, src = self.expr(e)
        if t != want:
            raise NotNative(e.pos, f"a {said(t)} given where a {said(want)} is taken")
        return src

    def s_Signal(self, s, lines):
        args = [self.expr(a) for a in s.args]
        index = len(self.signals)
        self.signals.append((s.event, [t for t, _ in args]))
        p = self.pos(s.pos)
        lines.append("{")
        lines += [f"    v_t a{i} = {src};" for i, (_, src) in enumerate(args)]
        lines += ["    if (cx->log->on) {", f"        rg_event *e = rg_emit(st, cx, EV_SIGNAL, {p});",
                  f"        e->a = {index};"] + [f"        rg_value(st, cx, e, a{i});" for i in range(len(args))]
        lines.append("    }")
        lines.append(f"    S_{index}(st, cx, fr{''.join(f', a{i}' for i in range(len(args)))}, {p});")
        lines.append("}")
        self.resume_point(lines)

    def signal_function(self, index: int) -> str:
        """The C that starts the abilities an event of signal `index` triggers: those of the
        component it is about (`when`), then those of every component in play (`whenever`),
        the last first, so that the first runs first."""
        event, types = self.signals[index]
        params = "".join(f", v_t a{i}" for i in range(len(types)))
        out = [f"static void S_{index}(rg_state *st, rg_cx *cx, rg_frame *fr{params}, int pos) {{"]
        if event in self.limits:  # the actions limited to once per this event may be used again
            out.append(f"    rg_clear_used(st, {self.limits.index(event)});")
        own = self.triggers.get((event, False), {})
        broadcast = self.triggers.get((event, True), {})
        out += ["    int32_t lc[RG_LIST], lp[RG_LIST], n = 0;"]
        if own and types and types[0] == COMP:
            starts, codes = self._trigger_table(own, f"TO_{index}")
            out += ["    if (a0 >= 0)",
                    f"        for (int32_t i = {starts}[a0]; i < {starts}[a0 + 1]; i++) {{",
                    f"            lc[n] = (int32_t)a0; lp[n++] = {codes}[i];", "        }"]
        if broadcast:
            starts, codes = self._trigger_table(broadcast, f"TB_{index}")
            out += ["    {", "        v_t inp[RG_LIST];", "        int32_t m = rg_in_play(st, cx, inp, -1);",
                    "        for (int32_t j = 0; j < m; j++)",
                    f"            for (int32_t i = {starts}[inp[j]]; i < {starts}[inp[j] + 1]; i++) {{",
                    "                if (n >= RG_LIST) rg_fault(st, cx, F_TOO_LONG, pos);",
                    f"                lc[n] = (int32_t)inp[j]; lp[n++] = {codes}[i];", "            }", "    }"]
        out += ["    for (int32_t i = n - 1; i >= 0; i--) {",
                "        v_t you = rg_controller(st, lc[i]);",
                "        if (you < 0) you = fr->you;",
                "        rg_frame *nf = rg_push(st, cx, lp[i], lc[i], (int32_t)you, pos);"]
        out += [f"        nf->loc[{i}] = a{i};" for i in range(len(types))]
        out += [f"        nf->loc[{len(types)}] = fr->you;", "    }",
                "    (void)st; (void)cx; (void)fr; (void)pos; (void)lc; (void)lp;", "}", ""]
        return "\n".join(out)

    def _trigger_table(self, listeners: dict, name: str) -> tuple:
        first, procs = [], []
        for c in range(len(self.program.comp_card)):
            first.append(len(procs))
            procs += listeners.get(c, [])
        first.append(len(procs))
        return (self.table(f"{name}F", "int32_t", [str(x) for x in first]),
                self.table(f"{name}C", "int32_t", [str(x) for x in procs] or ["0"]))

    def s_If(self, s, lines):
        end = self.label()
        for cond, body in s.branches:
            skip = self.label()
            lines.append(f"if (!({self.test(cond)})) goto {skip};")
            self.block(body, lines)
            lines += [f"goto {end};", f"{skip}:;"]
        if s.orelse:
            self.block(s.orelse, lines)
        lines.append(f"{end}:;")

    def s_While(self, s, lines):
        head, out = self.label(), self.label()
        lines += [f"{head}:;", f"rg_work(st, cx, 1, {self.pos(s.pos)});",
                  f"if (!({self.test(s.cond)})) goto {out};"]
        self.loops.append((head, out))
        self.block(s.body, lines)
        self.loops.pop()
        lines += [f"goto {head};", f"{out}:;"]

    def s_Repeat(self, s, lines):
        head, out = self.label(), self.label()
        p = self.pos(s.pos)
        if s.count is not None:
            left = self.cur.local(f"\0left{id(s)}", NUM, s.pos)
            lines += [f"{left} = {self.num(s.count)};", f"{head}:;", f"rg_work(st, cx, 1, {p});",
                      f"if ({left} <= 0) goto {out};", f"{left}--;"]
        else:
            lines += [f"{head}:;", f"rg_work(st, cx, 1, {p});"]
        self.loops.append((head, out))
        self.block(s.body, lines)
        self.loops.pop()
        lines += [f"goto {head};", f"{out}:;"]

    def s_For(self, s, lines):
        members = self.members(s.source)
        var = self.cur.local(s.var, members.elem, s.pos)
        p = self.pos(s.pos)
        nxt, out = self.label(), self.label()
        if not any(isinstance(x, WAITS) for x in _statements(s.body)):
            # the list gathered first (as the Python backend walks a copy), then one loop: the
            # body, with its labels, is written once whatever the list is made of
            x, buf, n, i = self.fresh("x"), self.fresh("buf"), self.fresh("n"), self.fresh("i")
            inner: list = []
            self.loops.append((nxt, out))
            self.block(s.body, inner)
            self.loops.pop()
            test = [f"if (!({self.test(s.where)})) goto {nxt};"] if s.where is not None else []
            gather = members.loop(x, [f"if ({n} >= RG_LIST) rg_fault(st, cx, F_TOO_LONG, {p});",
                                      f"{buf}[{n}++] = {x};"])
            lines += ["{", f"v_t {buf}[RG_LIST];", f"int32_t {n} = 0;"] + gather + \
                [f"for (int32_t {i} = 0; {i} < {n}; {i}++) {{", f"{var} = {buf}[{i}];"] + test + inner + \
                [f"{nxt}:;", "}", "}", f"{out}:;"]
            return
        # a loop that waits: its list is kept in the arena, where the frame finds it again
        snap = self.cur.local(f"\0list{id(s)}", ("kept", members.elem), s.pos)
        i = self.cur.local(f"\0i{id(s)}", NUM, s.pos)
        lines += [f"{snap} = {self.keep(members, s.pos)};", f"{i} = 0;", f"{nxt}:;", f"rg_work(st, cx, 1, {p});",
                  f"if ({i} >= RG_LEN({snap})) {{ {snap} = 0; goto {out}; }}",
                  f"{var} = st->arena[RG_OFF({snap}) + {i}];", f"{i}++;"]
        if s.where is not None:
            lines.append(f"if (!({self.test(s.where)})) goto {nxt};")
        self.loops.append((nxt, out))
        self.block(s.body, lines)
        self.loops.pop()
        lines += [f"goto {nxt};", f"{out}:;"]

    def s_Break(self, s, lines):
        lines.append(f"goto {self.loops[-1][1]};")

    def s_Continue(self, s, lines):
        lines.append(f"goto {self.loops[-1][0]};")

    def s_Choose(self, s, lines):
        members = self.members(s.source)
        var = self.cur.local(s.var, members.elem, s.pos)
        p = self.pos(s.pos)
        index = len(self.menus)
        prompt = self.text(s.prompt, s.pos) if s.prompt else None
        self.resume += 1
        after = self.resume
        label = self._text([Shown(members.elem)], ["x"])
        self.menus.append((p, prompt, f"choose {s.var}", [(after, self.cur.slots[s.var][0], label)], bool(s.secret)))
        x = self.fresh("x")
        inner = {s.var: (members.elem, x)}
        keep = [f"if ({self.test(s.where, inner)})"] if s.where is not None else []
        chooser = self.typed(s.chooser, SEAT) if s.chooser is not None else "(v_t)fr->you"
        lines += ["{", "    st->nopt = 0;"] + \
            ["    " + b for b in self._candidates(members, x, s.where, inner, p)] + \
            ["    if (st->nopt == 0) {", f"        {var} = -1;",
             f"    }} else if (st->nopt == 1 && !{int(s.optional)}) {{", f"        {var} = st->opt_val[0];",
             "    } else {"] + \
            ([f"        rg_option(st, cx, 0, -1, {p});"] if s.optional else []) + \
            [f"        st->chooser = rg_seat(st, cx, {chooser}, {p});", f"        st->menu = {index};",
             "        st->pending = 1;", f"        fr->pc = {after};", "        return;", "    }", "}",
             f"case {after}:;"]
        del keep

    def _candidates(self, members, x, where, inner, p) -> list:
        body = [f"rg_option(st, cx, 0, {x}, {p});"]
        if where is not None:
            body = [f"if ({self.test(where, inner)}) {{"] + ["    " + b for b in body] + ["}"]
        return members.loop(x, body)

    def s_Menu(self, s, lines):
        index = len(self.menus)
        chooser = self.typed(s.chooser, SEAT) if s.chooser is not None else "(v_t)fr->you"
        prompt = self.text(s.prompt, s.pos) if s.prompt else None
        p = self.pos(s.pos)
        options, build, after = [], [], self.label()
        # the menu poses the decision (or takes its only option) and returns to the machine;
        # the option picked sets the frame's pc to the start of its body
        lines += [f"M_{index}(st, cx, fr);", "return;"]
        self.menus.append(None)  # its place: its index is asked by the options' bodies
        for k, o in enumerate(s.options):
            if isinstance(o, N.ActionsOption):
                window = self.window(o.window, o.pos) if o.window is not None else -1
                build.append(f"rg_actions_into(st, cx, {k}, {window}, who, {p});")
                options.append((ACTS, -1, None))
                continue
            self.resume += 1
            start = self.resume
            slot, scope = -1, None
            if o.source is not None:
                members = self.members(o.source)
                self.cur.local(o.var, members.elem, o.pos)
                slot = self.cur.slots[o.var][0]
                scope = {o.var: (members.elem, "x")}
                cond = self.test(o.cond, scope) if o.cond is not None else "1"
                build += members.loop("x", [f"if ({cond}) rg_option(st, cx, {k}, x, {p});"])
            else:
                cond = self.test(o.cond) if o.cond is not None else "1"
                build.append(f"if ({cond}) rg_option(st, cx, {k}, 0, {p});")
            options.append((start, slot, self.text(o.label, o.pos, scope)))
            lines.append(f"case {start}:;")  # an option's body starts here
            self.block(o.body, lines)
            lines.append(f"goto {after};")
        self.resume += 1
        end = self.resume
        lines += [f"{after}:;", f"case {end}:;"]  # where an action picked in the menu goes on, once it is done
        self.menu_ends[index] = end
        self.menus[index] = (p, prompt, "choose", options, bool(s.secret))
        self.menu_code.append(self.menu_builder(index, chooser, build, p))

    def menu_builder(self, index, chooser, build, p) -> str:
        """The C that lists the options of menu `index` and poses it, or takes its only option."""
        return "\n".join([f"static void M_{index}(rg_state *st, rg_cx *cx, rg_frame *fr) {{",
                          "    v_t *L = fr->loc;",
                          "    (void)L;",
                          f"    int32_t who = rg_seat(st, cx, {chooser}, {p});",
                          "    st->nopt = 0;"] + ["    " + x for x in build] +
                         [f"    if (st->nopt == 0) rg_fault(st, cx, F_NO_OPTION, {p});",
                          "    st->chooser = who;",
                          f"    st->menu = {index};",
                          "    if (st->nopt == 1) {",
                          "        rg_resolve(st, cx, 0, 1);",
                          "        return;",
                          "    }",
                          "    st->pending = 1;",
                          "}", ""])

    # texts ------------------------------------------------------------------------------
    def text(self, text: str, pos, scope=None) -> int:
        """A text with {expressions} inside: its parts, and the C of the values shown."""
        parts, values = [], []
        for part in self.program.found.labels.get((text, pos)) or label_parts(text, pos):
            if isinstance(part, str):
                parts.append(part)
                continue
            if part.error is not None:
                parts.append("{" + part.source + "}")
                continue
            t, src = self.expr(part.tree, scope)
            if isinstance(t, tuple) and t[0] == "kept" and t[1] in SCALARS:
                src = LISTED + src  # recorded as its length, then its members
            elif isinstance(t, tuple) and t[0] == "list" and t[1] in SCALARS:
                src, t = LISTED + self.keep(src, pos), ("kept", t[1])
            elif not (t in SCALARS or masked(t) or t == NONE):
                raise NotNative(pos, f"a text showing a {said(t)}")
            parts.append(Shown(t))
            values.append(src)
        return self._text(parts, values)

    def _text(self, parts: list, values: list) -> int:
        self.texts.append((parts, values))
        return len(self.texts) - 1

    def has_table(self) -> list:
        """has(c, NAME) of a name known only in play: for every name the rules may hold (those
        interned), whether each component carries that class, or the tag it is."""
        names = self.slots.names if self.dynamic_has else []
        cells, tags = [], []
        for name in names:
            key = fold(name)
            canon = self.defn.classes.get(key)
            key = fold(canon[1]) if canon else key
            cells += ["1" if key in k else "0" for k in self.program.comp_classes]
            tags.append(self.tags.index(key) if key in self.tags else -1)
        supplies = [self.slots.counter_base.get("$" + n, -1) for n in (self.slots.names if self.dynamic_supply else [])]
        return [f"#define RG_NAMES {len(names)}", _table("int8_t", "RG_HAS", cells or ["0"]),
                f"#define RG_SUPPLY_NAMES {len(supplies)}", _table("int32_t", "RG_SUPPLY_OF", supplies or [-1]),
                "static v_t rg_supply_of(rg_state *st, v_t name) {",
                "    if (name < 0 || name >= RG_SUPPLY_NAMES || RG_SUPPLY_OF[name] < 0) return 0;",
                "    return st->counters[RG_SUPPLY_OF[name]];",
                "}",
                _table("int32_t", "RG_HAS_TAG", tags or [-1]),
                "static int rg_has(rg_state *st, v_t name, v_t c) {",
                "    if (c < 0 || name < 0 || name >= RG_NAMES) return 0;",
                "    if (RG_HAS[name * RG_COMPS + c]) return 1;",
                "    return RG_HAS_TAG[name] >= 0 && rg_tagged(st, c, RG_HAS_TAG[name]);",
                "}"]

    def ref_tables(self) -> list:
        """The slots of each code that hold kept lists, for the arena's compaction."""
        first, refs = [], []
        for p in self.procs.values():
            first.append(len(refs))
            refs += [slot for slot, t in p.slots.values() if isinstance(t, tuple) and t[0] == "kept"]
        first.append(len(refs))
        return [_table("int32_t", "RG_REF_FIRST", first), _table("int32_t", "RG_REFS", refs or [0])]

    def action_texts(self) -> str:
        """The C that records the values the label of the action of row `x` shows."""
        out = ["static void rg_action_texts(rg_state *st, rg_cx *cx, rg_event *e, v_t x) {",
               "    (void)st; (void)cx; (void)e;",
               "    switch (RG_ACT_PROC[x]) {"]
        for p in self.procs.values():
            if isinstance(p.ability, N.Action):
                out.append(f"    case {p.index}:")
                out += [f"        {_record(v)}" for v in self.texts[p.label_text][1]]
                out.append("        break;")
        out += ["    }", "}", ""]
        return "\n".join(out)

    def text_values(self) -> str:
        """The C that records, with a choice, the values its prompt and label show."""
        out = ["static void rg_texts(rg_state *st, rg_cx *cx, rg_frame *fr, rg_event *e, int menu, int k, v_t x) {",
               "    v_t *L = fr->loc;",
               "    (void)L; (void)x; (void)st;",
               "    switch (menu) {"]
        for i, (_, prompt, _, options, _) in enumerate(self.menus):
            out.append(f"    case {i}:")
            for v in (self.texts[prompt][1] if prompt is not None else []):
                out.append(f"        {_record(v)}")
            out.append("        switch (k) {")
            for k, (_, _, label) in enumerate(options):
                if label is None:  # an action: the row, then what its own label shows
                    out += [f"        case {k}:", "            rg_value(st, cx, e, x);",
                            "            rg_action_texts(st, cx, e, x);", "            break;"]
                    continue
                out.append(f"        case {k}:")
                out += [f"            {_record(v)}" for v in self.texts[label][1]]
                out.append("            break;")
            out += ["        }", "        break;"]
        out += ["    }", "}", ""]
        return "\n".join(out)

    def entry(self) -> list:
        """The resolution of a choice, the machine, and the functions the Python side calls."""
        first, starts, vars_, poss = [], [], [], []
        for p, _, _, options, _ in self.menus:
            first.append(len(starts))
            poss.append(p)
            for start, slot, _ in options:
                starts.append(start)
                vars_.append(slot)
        procs = ", ".join(f"P_{p.index}" for p in self.procs.values())
        ends = [self.menu_ends.get(i, -1) for i in range(len(self.menus))]
        return self.has_table() + [
            _table("int32_t", "RG_MENU_FIRST", first or [0]), _table("int32_t", "RG_MENU_POS", poss or [0]),
            _table("int32_t", "RG_MENU_END", ends or [-1]),
            _table("int32_t", "RG_OPT_START", starts or [0]), _table("int32_t", "RG_OPT_VAR", vars_ or [-1]),
            f"#define RG_POP {POP}",
            f"#define RG_ACTS {ACTS}",
            self.action_texts(),
            self.text_values(),
            f"static void (*const RG_PROCS[])(rg_state *, rg_cx *, rg_frame *) = {{{procs}}};",
            f"#define RG_GAME_PROC {self.procs['game'].index}",
            _resource("machine.c")]


def _resource(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def _statements(body):
    """The statements of `body` and of the bodies inside them, in the order they are written."""
    for s in body or []:
        yield s
        if isinstance(s, N.If):
            for _, b in s.branches:
                yield from _statements(b)
            yield from _statements(s.orelse or [])
        elif isinstance(s, (N.While, N.Repeat, N.For)):
            yield from _statements(s.body)
        elif isinstance(s, N.Menu):
            for o in s.options:
                yield from _statements(getattr(o, "body", None) or [])


def _bound_names(s) -> list:
    """The names statement `s` binds."""
    if isinstance(s, N.Let):
        return [s.name]
    if isinstance(s, (N.Choose, N.For)):
        return [s.var]
    if isinstance(s, N.Roll):
        return [s.name]
    if isinstance(s, N.Menu):
        return [o.var for o in s.options if getattr(o, "var", None)]
    return []


def _record(value: str) -> str:
    """The C that records one value a text shows, with the event being made (`e`)."""
    if value.startswith(LISTED):
        return f"rg_value_list(st, cx, e, {value[len(LISTED):]});"
    return f"rg_value(st, cx, e, {value});"


def _counter_name(e) -> str:
    """The name of the counter a counter reference names."""
    if isinstance(e, N.Name):
        return e.name
    if isinstance(e, N.Attr):
        return e.name
    return e.obj.name  # a counter kept per pair of owners, `owner.counter[second]`


def _stored(t):
    """The type a variable keeps a value of type `t` as: a list walked where it is made is kept
    in the arena."""
    return ("kept", t[1]) if listed(t) else t


def _splice(body: list, effects: dict) -> list:
    """`body` with each effect parameter of a keyword (a phrase of one word naming it) replaced
    by the statements a card prints for it, as the Python backend splices them in; the trees
    shared by every card are not changed: what holds a spliced body is copied."""
    out = []
    for s in body or []:
        if isinstance(s, N.Phrase) and s.words and s.words[0].value in effects:
            out += effects[s.words[0].value]
        elif isinstance(s, N.If):
            out.append(replace(s, branches=[(c, _splice(b, effects)) for c, b in s.branches],
                               orelse=_splice(s.orelse, effects) if s.orelse else s.orelse))
        elif isinstance(s, (N.While, N.Repeat, N.For)):
            out.append(replace(s, body=_splice(s.body, effects)))
        elif isinstance(s, N.Menu):
            out.append(replace(s, options=[replace(o, body=_splice(o.body, effects)) if hasattr(o, "body") else o
                                           for o in s.options]))
        else:
            out.append(s)
    return out


def _bound(v) -> str:
    return "RG_NO_BOUND" if v is None else f"{v}LL"


def _table(ctype: str, name: str, values: list) -> str:
    vals = ", ".join(str(v) for v in values) or "0"
    return f"static const {ctype} {name}[] = {{{vals}}};"


__all__ = ["Emitter", "NotNative", "BOOL", "listed"]
