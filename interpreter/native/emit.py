"""The native backend's compiler: a checked game's procedures and abilities written as C over
a state of slots.

    c_source = Emitter(program, players).game()

The front door of the stage: `game` reads as its steps, the types of every parameter and
local (`_types`), the codes lowered (`statements`, with their expressions typed by
`expressions` and `calls`), and the tables and entry points the C runtime reads.

What the backend cannot run yet is refused, with the position of the first construct it
does not take (`NotNative`): the game then runs on the Python backend, which is the
reference. Nothing here knows any game: the constructs taken are the language's.
"""
from __future__ import annotations

from .. import limits
from ..engine.machine import MAX_DEPTH
from ..engine.specs import UNNAMED_ACTION
from ..language import nodes as N
from ..language.texts import label_parts
from ..names import fold
from .automata import Automata
from .calls import Calls
from .data import Data
from .expressions import COMP, HELD, HOLDER, NONE, NUM, SCALARS, SEAT, Expressions, masked, said
from .slots import NotNative, lay_slots, supply_slot
from .statements import Statements
from .trees import ACTS, LISTED, POP, Proc, Shown, bound, record, resource, splice, statements, stored, table

MAX_OPTIONS_FLOOR = 256
MAX_COMPONENTS = 1024  # components of a game the native backend lays out at most (lists of 4 times as many)
MAX_ZONE_CELLS = 2_000_000  # zones times components (the state's zones, 4 bytes each)


class Emitter(Statements, Expressions, Calls, Data, Automata):
    """Lowers the procedures and abilities of `program` to C, for games of up to `players` seats."""

    def __init__(self, program, players: int):
        self.program, self.defn, self.players = program, program.defn, players
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
        self.statics: list = []  # tables of the data known when lowered (data.Data)
        self.keyed: list = []  # tables of the data picked in play: (rows, the C of the key)
        self.missing: dict = {}  # the C of a number read from the data -> the same read, RG_MISSING where none
        self.row_types: dict = {}  # (menu, option) -> the type of the values it is offered for
        self.chosen: set = set()  # the menus that are `choose`s: an automaton ranks their values, not labels
        self.decides: list = []  # `decide` index -> (prompt text or None, its variable, the type it decides)
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
            yield from statements(p.tree.body)
        for card in self.defn.cards:
            for ab in card.abilities:
                for node, bindings in self._trees(ab):
                    yield from statements(getattr(node, "body", None) or [])
                    for v in bindings.values():  # the statements a card prints for an effect
                        if isinstance(v, list):
                            yield from statements(v)

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
                        body = splice(node.body, effects) if effects else node.body
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
                            if any(c.kind == N.CostKind.SACRIFICE for c in node.costs):
                                proc.local("\0sacrifice", COMP, node.pos)
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
        self.automaton_c = self.automata_code()  # once every menu is known, before the functions are listed
        ahead = [f"static void P_{p.index}(rg_state *st, rg_cx *cx, rg_frame *fr);" for p in self.procs.values()]
        ahead += [f"static void M_{i}(rg_state *st, rg_cx *cx, rg_frame *fr);" for i in range(len(self.menus))]
        ahead += [f.proto for f in self.functions.values()]
        ahead += [f"static int U_{p.index}(rg_state *st, rg_cx *cx, v_t c, v_t player, int free);"
                  for p in self.procs.values() if isinstance(p.ability, N.Action)]
        ahead.append("static int rg_has(rg_state *st, v_t name, v_t c);")
        ahead.append("static v_t rg_supply_of(rg_state *st, v_t name);")
        label = self.seat_label()
        functions = [f.c for f in self.functions.values()]
        return "\n".join(self.head() + [resource("runtime.c")] + self.tables + ahead + self.action_tables() +
                          [resource("actions.c")] + functions + signals + bodies + usable + self.menu_code +
                          self.entry() + label)

    def picks(self) -> list | None:
        """Per row of the menus (each option of each menu, in order): 1 when its values are
        components, which the option picks; None when one is a holder, known only in play."""
        out = []
        for i, (_, _, _, options, _) in enumerate(self.menus):
            for k in range(len(options)):
                t = self.row_types.get((i, k))
                if t == HOLDER:
                    return None
                out.append(int(t == COMP))
        return out

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
                "    cxs.watch = NULL;",
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
        return [table("int32_t", "RG_ACT_COUNT", [len(a) for a in self.actions] or [0]),
                table("int32_t", "RG_ACT_PROC", procs or [-1]), table("int64_t", "RG_ACT_WINDOWS", windows or [0]),
                table("int32_t", "RG_ACT_LIMIT", limits_ or [-1]),
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
                for s in statements(p.body):
                    changed |= self._infer(s, p)
            if not changed:
                break
        called = {s.proc for p in self.procs.values() for s in statements(p.body) if isinstance(s, N.CallProc)}
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
                t = stored(self.expr(s.value)[0])
                if t == "empty":
                    p.empty.add(s.name)  # a list, of members a later `set` says
                elif t != NONE:
                    p.local(s.name, t, s.pos)
            elif isinstance(s, N.SetStmt) and isinstance(s.target, N.Name) and s.target.name not in p.slots \
                    and s.target.name not in self.defn.counters:
                t = stored(self.expr(s.value)[0])
                if t not in (NONE, "empty"):
                    p.local(s.target.name, t, s.pos)
            elif isinstance(s, N.Roll) and s.name not in p.slots:
                p.local(s.name, ("kept", NUM), s.pos)
            elif isinstance(s, N.Choose) and s.var not in p.slots:
                p.local(s.var, self.members(s.source).elem, s.pos)
            elif isinstance(s, N.Decide) and s.var not in p.slots:
                kinds = {stored(self.expr(r.value)[0]) for r in s.rules} - {NONE}
                if len(kinds) == 1:
                    p.local(s.var, kinds.pop(), s.pos)
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
        for name, t, a in zip(callee.params, [stored(t) for t in types], args, strict=False):
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
        out.append(table("int32_t", "RG_ZONE_CAPACITY", capacity))
        out.append(table("int8_t", "RG_ZONE_IN_PLAY", [int(bool(z.in_play)) for z in s.zone_spec]))
        names = max(self.node_of_name, default=-1) + 1
        out.append(f"#define RG_NODE_NAMES {names}")
        out.append(table("int32_t", "RG_NODE_OF_NAME", [self.node_of_name.get(i, -1) for i in range(names)] or [-1]))
        owners = [-1 if o is None else o for o in program.comp_owner]
        out.append(table("int32_t", "RG_OWNER", owners or [-1]))
        out.append(table("int8_t", "RG_ZONE_HOLDER_KIND", [k for k, _ in s.zone_holder]))
        out.append(table("int32_t", "RG_ZONE_HOLDER", [i for _, i in s.zone_holder]))
        keeps = program.tag_zones
        out.append(table("int8_t", "RG_ZONE_KEEPS_TAGS", [int(keeps is None or z.name in keeps) for z in s.zone_spec]))
        first, lost = [], []
        for z in s.zone_spec:
            first.append(len(lost))
            lost += [s.counter_base[name] for name, keep in program.kept_counters if z.name not in keep]
        first.append(len(lost))
        out += [table("int32_t", "RG_LOST_FIRST", first), table("int32_t", "RG_LOST", lost or [0])]
        mins = [bound(c.minimum if c is not None else None) for c in s.counter_spec]
        maxs = [bound(c.maximum if c is not None else None) for c in s.counter_spec]
        supply = [supply_slot(s, c) for c in s.counter_spec]
        out += [table("int64_t", "RG_COUNTER_MIN", mins or [0]), table("int64_t", "RG_COUNTER_MAX", maxs or [0]),
                table("int32_t", "RG_COUNTER_SUPPLY", supply or [-1])]
        abilities = [int(p.ability is not None) for p in self.procs.values()]
        return out + self.ref_tables() + [table("int8_t", "RG_IS_ABILITY", abilities or [0])]

    def score_owners(self) -> int:
        """How many owners the score counter has a slot for (what points are credited per)."""
        name = self.defn.score
        if name is None:
            return 1
        base = self.slots.counter_base[name]
        return max(1, sum(1 for i, spec in enumerate(self.slots.counter_spec) if i >= base and spec is not None
                          and spec.name == name))

    # procedures -------------------------------------------------------------------------

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
        return [f"#define RG_NAMES {len(names)}", table("int8_t", "RG_HAS", cells or ["0"]),
                f"#define RG_SUPPLY_NAMES {len(supplies)}", table("int32_t", "RG_SUPPLY_OF", supplies or [-1]),
                "static v_t rg_supply_of(rg_state *st, v_t name) {",
                "    if (name < 0 || name >= RG_SUPPLY_NAMES || RG_SUPPLY_OF[name] < 0) return 0;",
                "    return st->counters[RG_SUPPLY_OF[name]];",
                "}",
                table("int32_t", "RG_HAS_TAG", tags or [-1]),
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
        return [table("int32_t", "RG_REF_FIRST", first), table("int32_t", "RG_REFS", refs or [0])]

    def action_texts(self) -> str:
        """The C that records the values the label of the action of row `x` shows."""
        out = ["static void rg_action_texts(rg_state *st, rg_cx *cx, rg_event *e, v_t x) {",
               "    (void)st; (void)cx; (void)e;",
               "    switch (RG_ACT_PROC[x]) {"]
        for p in self.procs.values():
            if isinstance(p.ability, N.Action):
                out.append(f"    case {p.index}:")
                out += [f"        {record(v)}" for v in self.texts[p.label_text][1]]
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
                out.append(f"        {record(v)}")
            out.append("        switch (k) {")
            for k, (_, _, label) in enumerate(options):
                if label is None:  # an action: the row, then what its own label shows
                    out += [f"        case {k}:", "            rg_value(st, cx, e, x);",
                            "            rg_action_texts(st, cx, e, x);", "            break;"]
                    continue
                out.append(f"        case {k}:")
                out += [f"            {record(v)}" for v in self.texts[label][1]]
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
            table("int32_t", "RG_MENU_FIRST", first or [0]), table("int32_t", "RG_MENU_POS", poss or [0]),
            table("int32_t", "RG_MENU_END", ends or [-1]),
            table("int32_t", "RG_OPT_START", starts or [0]), table("int32_t", "RG_OPT_VAR", vars_ or [-1]),
            f"#define RG_POP {POP}",
            f"#define RG_ACTS {ACTS}",
            self.action_texts(),
            self.text_values(),
            *self.automaton_c,
            f"static void (*const RG_PROCS[])(rg_state *, rg_cx *, rg_frame *) = {{{procs}}};",
            f"#define RG_GAME_PROC {self.procs['game'].index}",
            resource("machine.c")]
