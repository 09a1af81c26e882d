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

from importlib import resources

from .. import limits
from ..engine.machine import MAX_DEPTH
from ..language import nodes as N
from ..language.texts import label_parts
from ..names import fold
from .calls import Calls
from .expressions import BOOL, COMP, NONE, NUM, REFS, SCALARS, SEAT, Expressions, listed, masked, said
from .slots import NotNative, lay_slots, supply_slot

MAX_OPTIONS_FLOOR = 256
WAITS = (N.CallProc, N.Menu, N.Choose, N.Signal)  # statements after which the machine runs other frames first
POP = -2  # an option that ends its frame (the 'no' of an optional ability)


class Shown:
    """A part of a text that shows a value of type `t` (the other parts are texts)."""

    __slots__ = ("t",)

    def __init__(self, t):
        self.t = t


class Proc:
    """A procedure or a triggered ability being lowered: its locals' slots and types."""

    def __init__(self, name: str, index: int, params: list, body: list, pos, acting=None, ability=None):
        self.name, self.index, self.params, self.body, self.pos = name, index, list(params), body, pos
        self.acting = acting
        self.ability = ability  # the Trigger, for an ability
        self.slots: dict = {}  # name -> (slot, type)
        self.consts: dict = {}

    def local(self, name: str, t, pos) -> str:
        if name in self.slots:
            slot, old = self.slots[name]
            if old != t:
                raise NotNative(pos, f"'{name}' holding a {said(old)} and a {said(t)}")
            return f"L[{slot}]"
        if not (t in SCALARS or masked(t)):
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
        self.positions: list = []  # position index -> Position
        self._pos_index: dict = {}
        self.texts: list = []  # text index -> (parts: texts and types, C of the values)
        # menu index -> (position, prompt text or None, the prompt without one, options: [(where
        # its body starts, or POP; the slot of its variable or -1; its label's text)], secret)
        self.menus: list = []
        self.signals: list = []  # signal index -> (event, argument types)
        self.menu_code: list = []
        self.tables: list = []
        self.functions: dict = {}
        self.options = list(program.options)
        self.tags = [fold(k[1]) for k in self.defn.classes.values() if k[0] is None]
        self.tags = list(dict.fromkeys(self.tags))
        self.set_attributes = {s.target.name for s in self._every_statement()
                               if isinstance(s, N.SetStmt) and isinstance(s.target, N.Attr)
                               and s.target.name in self.defn.attributes}
        self.procs: dict = {}
        for name, p in self.defn.procedures.items():
            self.procs[name] = Proc(name, len(self.procs), p.params, p.tree.body, p.pos, p.acting)
        self.triggers = self._abilities()
        self._fresh = 0
        self.cur = None

    def _every_statement(self):
        for p in self.defn.procedures.values():
            yield from _statements(p.tree.body)
        for card in self.defn.cards:
            for ab in card.abilities:
                for node, _ in self._trees(ab):
                    yield from _statements(getattr(node, "body", None) or [])

    def _trees(self, ab) -> list:
        if isinstance(ab.tree, N.PhraseAbility):
            use = self.program.found.keyword_uses[ab]
            return [(t, use.bindings) for t in use.keyword.trees]
        return [(ab.tree, {})]

    def _abilities(self) -> dict:
        """Each triggered ability as a Proc, and the triggers of each component: event ->
        [component] -> the indexes of its abilities' codes, in the order they are printed."""
        per_card = {}
        shared: dict = {}
        for card in self.defn.cards:
            mine: dict = {}
            for ab in card.abilities:
                for node, bindings in self._trees(ab):
                    if isinstance(node, N.Action):
                        raise NotNative(node.pos, "actions of cards")
                    if not isinstance(node, N.Trigger):
                        raise NotNative(getattr(node, "pos", ab.pos), "this kind of ability")
                    if bindings:
                        raise NotNative(ab.pos, "a keyword with parameters")
                    if node.broadcast:
                        raise NotNative(node.pos, "'whenever' abilities")
                    proc = shared.get(id(node))
                    if proc is None:
                        params = list(self.defn.events.get(node.event, [])) + ["cause"]
                        proc = shared[id(node)] = Proc(f"ability:{card.id}", len(self.procs), params, node.body,
                                                       node.pos, ability=node)
                        self.procs[f"\0{id(node)}"] = proc
                    mine.setdefault(node.event, []).append(proc.index)
            per_card[id(card)] = mine
        triggers: dict = {}
        for c, card in enumerate(self.program.comp_card):
            for event, procs in per_card[id(card)].items():
                triggers.setdefault(event, {})[c] = procs
        return triggers

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
        signals = [self.signal_function(i) for i in range(len(self.signals))]
        ahead = [f"static void P_{p.index}(rg_state *st, rg_cx *cx, rg_frame *fr);" for p in self.procs.values()]
        ahead += [f"static void M_{i}(rg_state *st, rg_cx *cx, rg_frame *fr);" for i in range(len(self.menus))]
        ahead += [f.proto for f in self.functions.values()]
        functions = [f.c for f in self.functions.values()]
        return "\n".join(self.head() + [_resource("runtime.c")] + self.tables + ahead + functions + signals + bodies +
                         self.menu_code + self.entry())

    def _types(self) -> None:
        """The type of each parameter and local, from what gives it a value (a call its
        parameters, a signal its abilities' parameters, a `let`, a choice, a loop), to a fixed
        point: one nothing gives a type is refused."""
        for _ in range(2 * len(self.procs) + 4):
            changed = False
            for p in self.procs.values():
                if p.ability is not None and "cause" not in p.slots and all(n in p.slots for n in p.params[:-1]):
                    p.local("cause", SEAT, p.pos)
                    changed = True
                for s in _statements(p.body):
                    changed |= self._infer(s, p)
            if not changed:
                break
        for p in self.procs.values():
            for name in p.params:
                if name not in p.slots:
                    if p.ability is not None:  # an ability of an event no statement signals: never run
                        p.local(name, NUM, p.pos)
                        continue
                    raise NotNative(p.pos, f"parameter '{name}' of '{p.name}', of no type a call gives")

    def _infer(self, s, p: Proc) -> bool:
        known = sum(len(q.slots) for q in self.procs.values())
        self.cur = p
        try:
            if isinstance(s, N.Let) and s.name not in p.slots:
                t = self.expr(s.value)[0]
                if t != NONE:
                    p.local(s.name, t, s.pos)
            elif isinstance(s, N.SetStmt) and isinstance(s.target, N.Name) and s.target.name not in p.slots \
                    and s.target.name not in self.defn.counters:
                t = self.expr(s.value)[0]
                if t != NONE:
                    p.local(s.target.name, t, s.pos)
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
                if callee is not None and not self.defn.procedures[s.proc].point:
                    self._give(callee, [self.expr(a)[0] for a in s.args], s.args)
            elif isinstance(s, N.Signal):
                types = [self.expr(a)[0] for a in s.args]
                for q in self.procs.values():
                    if q.ability is not None and q.ability.event == s.event:
                        self._give(q, types, s.args)
        except NotNative as exc:
            if "given a" in exc.what:
                raise
        finally:
            self.cur = None
        return sum(len(q.slots) for q in self.procs.values()) != known

    def _give(self, callee: Proc, types: list, args: list) -> None:
        for name, t, a in zip(callee.params, types, args, strict=False):
            if t == NONE:
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
               f"#define RG_MAX_DEPTH {MAX_DEPTH}",
               f"#define RG_MAX_OPTIONS {max(MAX_OPTIONS_FLOOR, 4 * n_comps)}",
               f"#define RG_LIST {4 * n_comps + 64}",
               f"#define RG_ARENA {16 * n_comps + 1024}",
               f"#define RG_BUDGET {limits.WORK_BUDGET}LL",
               f"#define RG_MAX_NUMBER {limits.MAX_NUMBER}LL",
               "#define RG_NO_BOUND INT64_MIN",
               "typedef int64_t v_t;"]
        capacity = [-1 if z.capacity is None else z.capacity for z in s.zone_spec]
        out.append(_table("int32_t", "RG_ZONE_CAPACITY", capacity))
        out.append(_table("int8_t", "RG_ZONE_IN_PLAY", [int(bool(z.in_play)) for z in s.zone_spec]))
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
        return out

    # procedures -------------------------------------------------------------------------
    def proc(self, p: Proc) -> str:
        self.cur = p
        self.resume = 0
        self.loops: list = []  # (continue label, break label)
        lines: list = []
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
        """An ability's condition (not met: it does nothing) and, when optional, the question."""
        node = p.ability
        if node.cond is not None:
            lines += [f"if (!({self.test(node.cond)})) {{", "    rg_pop(st);", "    return;", "}"]
        if node.optional:
            pos = self.pos(node.pos)
            index = len(self.menus)
            ask = self._text(["use ", Shown(COMP), f" ({node.event})?"], ["(v_t)fr->me"])
            self.resume += 1
            yes = self.resume
            answers = [(yes, -1, self._text(["yes"], [])), (POP, -1, self._text(["no"], []))]
            self.menus.append((pos, ask, "use?", answers, False))
            lines += ["st->nopt = 0;", f"rg_option(st, cx, 0, 1, {pos});", f"rg_option(st, cx, 1, 0, {pos});",
                      f"st->chooser = rg_seat(st, cx, fr->you, {pos});", f"st->menu = {index};", "st->pending = 1;",
                      f"fr->pc = {yes};", "return;", f"case {yes}:;"]

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
        if t == NONE:
            if s.name not in self.cur.slots or self.cur.slots[s.name][1] not in REFS:
                raise NotNative(s.pos, f"'{s.name}', set to none and to nothing else")
            t = self.cur.slots[s.name][1]
        lines.append(f"{self.cur.local(s.name, t, s.pos)} = {self.kept(s.value, t, src)};")

    def kept(self, e, t, src) -> str:
        if t == NUM and any(isinstance(n, N.BinOp) and n.op in "+-*" for n in N.walk(e)):
            return f"rg_big(st, cx, {src}, {self.pos(e.pos)})"
        return src

    def s_SetStmt(self, s, lines):
        t = s.target
        if isinstance(t, N.Name) and t.name in self.cur.slots:
            vt, src = self.expr(s.value)
            if vt == NONE:
                vt = self.cur.slots[t.name][1]
            lines.append(f"{self.cur.local(t.name, vt, s.pos)} = {self.kept(s.value, vt, src)};")
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
        if s.source is not None or self.cur.ability is not None:
            raise NotNative(s.pos, "points scored on a component's account")
        if self.defn.score is None:
            raise NotNative(s.pos, "'score' in a game without a score")
        self._amount(s, lines, 1, "R_SCORE", self.owned(self.defn.score, s.owner, s.pos))

    def s_Move(self, s, lines):
        wt, what = self.expr(s.what)
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
        if t == COMP:
            lines.append(call.replace("X", src))
            return
        members = self.members(s.what)
        x = self.fresh("c")
        lines += members.loop(x, [call.replace("X", x)])

    def s_Log(self, s, lines):
        text = self.text(s.text, s.pos)
        lines += ["if (cx->log->on) {", f"    rg_event *e = rg_emit(st, cx, EV_LOG, {self.pos(s.pos)});",
                  f"    e->text = {text};"] + [f"    rg_value(st, cx, e, {v});" for v in self.texts[text][1]] + ["}"]

    def s_Win(self, s, lines):
        t, src = self.expr(s.who)
        p = self.pos(s.pos)
        if t == SEAT:
            mask = f"1LL << rg_seat(st, cx, {src}, {p})"
        elif t == "team":
            mask = f"rg_members(st, rg_some(st, cx, {src}, {p}))"
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
        if pdef.point:
            if not pdef.hooks and all(isinstance(a, N.Name) for a in s.args):
                return  # an extension point nothing hooks on does nothing
            raise NotNative(s.pos, "an extension point with hooks")
        p = self.pos(s.pos)
        args = []
        for name, a in zip(callee.params, s.args, strict=True):
            want = callee.slots[name][1]
            args.append((callee.slots[name][0], self.typed(a, want) if want in REFS else self._same(a, want)))
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
        """The C that starts the abilities an event of signal `index` triggers, last first
        (so that the first printed runs first)."""
        event, types = self.signals[index]
        params = "".join(f", v_t a{i}" for i in range(len(types)))
        out = [f"static void S_{index}(rg_state *st, rg_cx *cx, rg_frame *fr{params}, int pos) {{"]
        listeners = self.triggers.get(event, {})
        if listeners and types and types[0] == COMP:
            first, procs = [], []
            for c in range(len(self.program.comp_card)):
                first.append(len(procs))
                procs += listeners.get(c, [])
            first.append(len(procs))
            starts = self.table(f"TF_{index}", "int32_t", [str(x) for x in first])
            codes = self.table(f"TC_{index}", "int32_t", [str(x) for x in procs] or ["0"])
            cause = len(types)
            out += ["    v_t c = a0;",
                    "    if (c < 0) return;",
                    "    v_t you = rg_controller(st, c);",
                    "    if (you < 0) you = fr->you;",
                    f"    for (int32_t i = {starts}[c + 1] - 1; i >= {starts}[c]; i--) {{",
                    f"        rg_frame *nf = rg_push(st, cx, {codes}[i], (int32_t)c, (int32_t)you, pos);"]
            for i in range(len(types)):
                out.append(f"        nf->loc[{i}] = a{i};")
            out += [f"        nf->loc[{cause}] = fr->you;", "    }"]
        elif listeners:
            raise NotNative(None, f"abilities of event '{event}' signalled without a component first")
        out += ["    (void)st; (void)cx; (void)fr; (void)pos;", "}", ""]
        return "\n".join(out)

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
            x = self.fresh("x")
            inner: list = []
            self.loops.append((nxt, out))
            self.block(s.body, inner)
            self.loops.pop()
            test = [f"if (!({self.test(s.where)})) goto {nxt};"] if s.where is not None else []
            lines += members.loop(x, [f"{var} = {x};"] + test + inner + [f"{nxt}:;"]) + [f"{out}:;"]
            return
        # a loop that waits: its list is kept in the arena, where the frame finds it again
        at, n, i = (self.cur.local(f"\0{k}{id(s)}", NUM, s.pos) for k in ("at", "n", "i"))
        x = self.fresh("x")
        lines += [f"{at} = st->arena_top;"] + members.loop(x, [f"rg_arena_push(st, cx, &{x}, 1, {p});"]) + \
            [f"{n} = st->arena_top - {at};", f"{i} = 0;", f"{nxt}:;", f"rg_work(st, cx, 1, {p});",
             f"if ({i} >= {n}) {{ st->arena_top = (int32_t){at}; goto {out}; }}",
             f"{var} = st->arena[{at} + {i}];", f"{i}++;"]
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
                raise NotNative(o.pos, "the actions of cards offered in a menu")
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
        lines.append(f"{after}:;")
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
            if not (t in SCALARS or masked(t) or t == NONE):
                raise NotNative(pos, f"a text showing a {said(t)}")
            parts.append(Shown(t))
            values.append(src)
        return self._text(parts, values)

    def _text(self, parts: list, values: list) -> int:
        self.texts.append((parts, values))
        return len(self.texts) - 1

    def text_values(self) -> str:
        """The C that records, with a choice, the values its prompt and label show."""
        out = ["static void rg_texts(rg_state *st, rg_cx *cx, rg_frame *fr, rg_event *e, int menu, int k, v_t x) {",
               "    v_t *L = fr->loc;",
               "    (void)L; (void)x; (void)st;",
               "    switch (menu) {"]
        for i, (_, prompt, _, options, _) in enumerate(self.menus):
            out.append(f"    case {i}:")
            for v in (self.texts[prompt][1] if prompt is not None else []):
                out.append(f"        rg_value(st, cx, e, {v});")
            out.append("        switch (k) {")
            for k, (_, _, label) in enumerate(options):
                out.append(f"        case {k}:")
                out += [f"            rg_value(st, cx, e, {v});" for v in self.texts[label][1]]
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
        return [_table("int32_t", "RG_MENU_FIRST", first or [0]), _table("int32_t", "RG_MENU_POS", poss or [0]),
                _table("int32_t", "RG_OPT_START", starts or [0]), _table("int32_t", "RG_OPT_VAR", vars_ or [-1]),
                f"#define RG_POP {POP}",
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


def _bound(v) -> str:
    return "RG_NO_BOUND" if v is None else f"{v}LL"


def _table(ctype: str, name: str, values: list) -> str:
    vals = ", ".join(str(v) for v in values) or "0"
    return f"static const {ctype} {name}[] = {{{vals}}};"


__all__ = ["Emitter", "NotNative", "BOOL", "listed"]
