"""The native backend's compiler: a checked game's procedures written as C over a state of slots.

    c_source, tables = Emitter(program, players).game()

Each expression is typed as it is lowered (a number, a truth value, a player, a component or
a zone), so the C reads no value's type at run time: a player is a seat index, a component
its index, none -1, and every zone and counter whose owner is known is a slot of the state
(`Slots`). A procedure becomes one resumable C function: a `switch` on the frame's `pc`
takes it back to the statement after the one that waited (a call, a menu), its locals are
slots of its frame, and its branches and loops are C's own `goto`s.

What the backend cannot run yet is refused, with the position of the first construct it
does not take (`NotNative`): the game then runs on the Python backend, which is the
reference. Nothing here knows any game: the constructs taken are the language's.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources

from .. import limits
from ..engine import keys
from ..engine.machine import MAX_DEPTH
from ..language import nodes as N
from ..language.texts import label_parts
from ..scopes import OwnerKind
from ..names import fold

NUM, BOOL, SEAT, COMP, ZONE = "number", "truth value", "player", "component", "zone"
SETS = ("players", "zone", "range")  # what a loop or an option may run over
MAX_OPTIONS_FLOOR = 256


class NotNative(Exception):
    """The game uses a construct the native backend does not run (yet): where, and which."""

    def __init__(self, pos, what: str):
        super().__init__(what)
        self.pos, self.what = pos, what

    def __str__(self):
        where = f"{self.pos.path}:{self.pos.line}: " if self.pos is not None else ""
        return f"{where}{self.what}"


@dataclass
class Slots:
    """Where each zone and counter of a game lies in the native state, for `players` seats at most."""

    zones: list = field(default_factory=list)  # slot -> key
    zone_slot: dict = field(default_factory=dict)  # (zone name) -> first slot
    zone_capacity: list = field(default_factory=list)
    counters: list = field(default_factory=list)  # slot -> key
    counter_slot: dict = field(default_factory=dict)  # counter name -> first slot
    counter_spec: list = field(default_factory=list)  # slot -> CounterSpec, or None for a supply


def lay_slots(program, players: int) -> Slots:
    """The slots of the zones and counters of `program` for up to `players` seats."""
    s = Slots()
    for name, z in program.zones.items():
        kind = z.scope.kind
        if kind is OwnerKind.GAME:
            owners = [None]
        elif kind is OwnerKind.PLAYER and len(z.scope.words) == 1:
            owners = list(range(players))
        else:
            raise NotNative(z.pos, f"a zone kept per {' and '.join(z.scope.words)}")
        s.zone_slot[name] = len(s.zones)
        for o in owners:
            s.zones.append(name if o is None else keys.seat_key(name, o))
            s.zone_capacity.append(-1 if z.capacity is None else z.capacity)
    supplies = []
    for name, c in program.counters.items():
        kind = c.scope.kind
        if kind is OwnerKind.GAME:
            owners = [None]
        elif kind is OwnerKind.PLAYER and len(c.scope.words) == 1:
            owners = list(range(players))
        else:
            raise NotNative(c.pos, f"a counter kept per {' and '.join(c.scope.words)}")
        if c.keep_in:
            raise NotNative(c.pos, "a counter kept only in some zones")
        if c.supply is not None:
            if isinstance(c.supply, str):
                raise NotNative(c.pos, "a counter drawing on another counter's supply")
            supplies.append(c)
        s.counter_slot[name] = len(s.counters)
        for o in owners:
            s.counters.append(name if o is None else keys.seat_key(name, o))
            s.counter_spec.append(c)
    for c in supplies:
        s.counter_slot["$" + c.name] = len(s.counters)
        s.counters.append(c.supply_key)
        s.counter_spec.append(None)
    return s


@dataclass
class Text:
    """A prompt or label: its parts, each a text or the type of the value shown there."""
    parts: list


class Proc:
    """What the lowering knows of one procedure: its locals' slots and types."""

    def __init__(self, name: str, index: int, defn):
        self.name, self.index, self.defn = name, index, defn
        self.slots: dict = {}  # name -> (slot, type)
        self.params = list(defn.params)

    def local(self, name: str, t: str, pos) -> str:
        if name in self.slots:
            slot, old = self.slots[name]
            if old != t:
                raise NotNative(pos, f"'{name}' holds a {old} and a {t}")
            return f"L[{slot}]"
        self.slots[name] = (len(self.slots), t)
        return f"L[{len(self.slots) - 1}]"


class Emitter:
    """Lowers the procedures of `program` to C, for games of up to `players` seats."""

    def __init__(self, program, players: int):
        self.program, self.defn, self.players = program, program.defn, players
        self.slots = lay_slots(program, players)
        self.positions: list = []  # position index -> Position
        self._pos_index: dict = {}
        self.texts: list = []  # text index -> Text
        self.menus: list = []  # menu index -> (spec lines, options: [(start label, var slot, var type, text)])
        self.menu_code: list = []
        self.text_code: list = []
        self.options = [name for name in program.options]
        self.procs = {name: Proc(name, i, p) for i, (name, p) in enumerate(self.defn.procedures.items())}
        self._label = 0

    # tables ---------------------------------------------------------------------------
    def pos(self, p) -> int:
        key = id(p)
        if key not in self._pos_index:
            self._pos_index[key] = len(self.positions)
            self.positions.append(p)
        return self._pos_index[key]

    def label(self) -> str:
        self._label += 1
        return f"l{self._label}"

    # the whole game -------------------------------------------------------------------
    def game(self) -> str:
        if "game" not in self.procs:
            raise NotNative(self.program.pos, "a game without a 'game' procedure")
        self._param_types()
        bodies = [self.proc(p) for p in self.procs.values()]
        ahead = [f"static void P_{p.index}(rg_state *st, rg_cx *cx, rg_frame *fr);" for p in self.procs.values()]
        ahead += [f"static void M_{i}(rg_state *st, rg_cx *cx, rg_frame *fr);" for i in range(len(self.menus))]
        return "\n".join(self.head() + [_resource("runtime.c")] + ahead + bodies + self.menu_code + self.entry())

    def _param_types(self) -> None:
        """The type of each parameter and local, from the calls that give the parameters (all
        must agree) and the values the locals are given, to a fixed point: one no statement
        gives a type is refused."""
        for _ in range(2 * len(self.procs) + 2):
            changed = False
            for p in self.procs.values():
                for st in _statements(p.defn.tree.body):
                    changed |= self._infer(st, p)
            if not changed:
                break
        for p in self.procs.values():
            for name in p.params:
                if name not in p.slots:
                    raise NotNative(p.defn.pos, f"parameter '{name}' of procedure '{p.name}' of unknown type")

    def _infer(self, s, p: Proc) -> bool:
        """Type what statement `s` of `p` names (a local it sets, the parameters it gives a
        procedure); whether a type was learnt."""
        known = len(p.slots)
        try:
            if isinstance(s, N.Let) and s.name not in p.slots:
                p.local(s.name, self.expr_type(s.value, p), s.pos)
            elif isinstance(s, N.CallProc):
                callee = self.procs.get(s.proc)
                if callee is None or callee.defn.point:
                    return False
                learnt = False
                for name, arg in zip(callee.params, s.args, strict=True):
                    t = self.expr_type(arg, p)
                    if name not in callee.slots:
                        callee.local(name, t, arg.pos)
                        learnt = True
                    elif callee.slots[name][1] != t:
                        raise NotNative(arg.pos, f"parameter '{name}' of '{callee.name}' given a "
                                                 f"{t} here and a {callee.slots[name][1]} elsewhere")
                return learnt
        except NotNative as exc:
            if "given a" in exc.what:
                raise
        return len(p.slots) != known

    def head(self) -> list:
        s = self.slots
        n_comps = max(1, len(self.program.comp_card))
        locals_ = max([1] + [len(p.slots) + 8 for p in self.procs.values()])
        out = ["#include <stdint.h>",
               f"#define RG_PLAYERS {self.players}",
               f"#define RG_COMPS {n_comps}",
               f"#define RG_ZONES {max(1, len(s.zones))}",
               f"#define RG_COUNTERS {max(1, len(s.counters))}",
               f"#define RG_OPTIONS {max(1, len(self.options))}",
               f"#define RG_LOCALS {locals_}",
               f"#define RG_MAX_DEPTH {MAX_DEPTH}",
               f"#define RG_MAX_OPTIONS {max(MAX_OPTIONS_FLOOR, 4 * n_comps)}",
               f"#define RG_BUDGET {limits.WORK_BUDGET}LL",
               f"#define RG_MAX_NUMBER {limits.MAX_NUMBER}LL",
               "#define RG_NO_BOUND INT64_MIN"]
        out.append(_table("int32_t", "RG_ZONE_CAPACITY", s.zone_capacity))
        mins = [_bound(c.minimum if c is not None else None) for c in s.counter_spec]
        maxs = [_bound(c.maximum if c is not None else None) for c in s.counter_spec]
        supply = [s.counter_slot["$" + c.name] if c is not None and c.supply is not None else -1
                  for c in s.counter_spec]
        out += [_table("int64_t", "RG_COUNTER_MIN", mins or [0]), _table("int64_t", "RG_COUNTER_MAX", maxs or [0]),
                _table("int32_t", "RG_COUNTER_SUPPLY", supply or [-1])]
        return out

    # procedures -----------------------------------------------------------------------
    def proc(self, p: Proc) -> str:
        self.cur = p
        self.resume = 0
        self.loops: list = []  # (continue label, break label)
        lines: list = []
        self.block(p.defn.tree.body, lines)
        return "\n".join([f"static void P_{p.index}(rg_state *st, rg_cx *cx, rg_frame *fr) {{",
                          "    v_t *L = fr->loc;",
                          "    (void)L;",
                          "    switch (fr->pc) {",
                          "    case 0:;"] + ["    " + x for x in lines] +
                         ["    }", "    st->depth--;  /* the end of the procedure */", "}", ""])

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
        t, src = self.expr(s.value, self.cur)
        lines.append(f"{self.cur.local(s.name, t, s.pos)} = {self.kept(s.value, t, src)};")

    def kept(self, e, t, src) -> str:
        if t == NUM and any(isinstance(n, N.BinOp) for n in N.walk(e)):
            return f"rg_big(st, cx, {src}, {self.pos(e.pos)})"
        return src

    def s_SetStmt(self, s, lines):
        t = s.target
        if isinstance(t, N.Name) and t.name in self.cur.slots:
            vt, src = self.expr(s.value, self.cur)
            lines.append(f"{self.cur.local(t.name, vt, s.pos)} = {self.kept(s.value, vt, src)};")
            return
        k = self.counter(t)
        lines.append(f"rg_set(st, cx, {k}, {self.num(s.value)}, {self.pos(s.pos)}, R_SET);")

    def counter(self, e) -> str:
        """The C of the slot of a counter reference."""
        defn = self.defn
        if isinstance(e, N.Name) and e.name in defn.counters and e.name not in self.cur.slots:
            return self._counter_of(e.name, None, e.pos)
        if isinstance(e, N.Attr) and e.name in defn.counters:
            return self._counter_of(e.name, e.obj, e.pos)
        raise NotNative(e.pos, "this counter reference")

    def _counter_of(self, name, owner, pos) -> str:
        cdef = self.program.counters[name]
        base = self.slots.counter_slot[name]
        if cdef.scope.kind is OwnerKind.GAME:
            if owner is not None:
                raise NotNative(pos, f"counter '{name}' of an owner it is not kept for")
            return str(base)
        if owner is None:
            return f"({base} + fr->you)"
        t, src = self.expr(owner, self.cur)
        if t != SEAT:
            raise NotNative(pos, f"counter '{name}' of a {t}")
        return f"({base} + rg_seat(st, cx, {src}, {self.pos(pos)}))"

    def _amount(self, s, lines, sign, reason, key):
        minus = "-" if sign < 0 else ""
        lines.append(f"rg_add(st, cx, {key}, {minus}({self.num(s.amount)}), {self.pos(s.pos)}, {reason});")

    def s_Add(self, s, lines):
        self._amount(s, lines, 1, "R_ADD", self.counter(s.target))

    def s_Remove(self, s, lines):
        self._amount(s, lines, -1, "R_REMOVE", self.counter(s.target))

    def s_Gain(self, s, lines):
        self._amount(s, lines, 1, "R_GAIN", self._counter_of(s.counter, s.owner, s.pos))

    def s_Lose(self, s, lines):
        self._amount(s, lines, -1, "R_LOSE", self._counter_of(s.counter, s.owner, s.pos))

    def s_Score(self, s, lines):
        if s.source is not None:
            raise NotNative(s.pos, "points scored on a component's account")
        if self.defn.score is None:
            raise NotNative(s.pos, "'score' in a game without a score")
        self._amount(s, lines, 1, "R_SCORE", self._counter_of(self.defn.score, s.owner, s.pos))

    def s_Move(self, s, lines):
        wt, what = self.expr(s.what, self.cur)
        z = self.zone(s.to)
        if wt != COMP:
            raise NotNative(s.pos, f"a move of a {wt}")
        lines.append(f"rg_move(st, cx, {what}, {z}, {int(s.end == 'bottom')}, {self.pos(s.pos)});")

    def s_Shuffle(self, s, lines):
        lines.append(f"rg_shuffle(st, cx, {self.zone(s.zone)}, {self.pos(s.pos)});")

    def s_Win(self, s, lines):
        t, src = self.expr(s.who, self.cur)
        if t != SEAT:
            raise NotNative(s.pos, f"a win of a {t}")
        p = self.pos(s.pos)
        lines += [f"rg_win(st, cx, 1 << rg_seat(st, cx, {src}, {p}), {p});", "return;"]

    def s_Return(self, s, lines):
        lines += ["st->depth--;", "return;"]

    def s_CallProc(self, s, lines):
        callee = self.procs.get(s.proc)
        if callee is None:
            raise NotNative(s.pos, f"a call of '{s.proc}'")
        if callee.defn.point:
            if not callee.defn.hooks and all(isinstance(a, N.Name) for a in s.args):
                return  # an extension point nothing hooks on does nothing
            raise NotNative(s.pos, "an extension point with hooks")
        p = self.pos(s.pos)
        args = []
        for name, a in zip(callee.params, s.args, strict=True):
            t, src = self.expr(a, self.cur)
            if t != callee.slots[name][1]:
                raise NotNative(a.pos, f"a {t} given for parameter '{name}'")
            args.append((callee.slots[name][0], src))
        you = "fr->you"
        if callee.defn.acting is not None:
            you = f"(int32_t)a{callee.params.index(str(callee.defn.acting))}"
        lines.append("{")
        lines += [f"    v_t a{i} = {src};" for i, (_, src) in enumerate(args)]
        lines.append(f"    rg_frame *nf = rg_push(st, cx, {callee.index}, fr->me, {you}, {p});")
        lines += [f"    nf->loc[{slot}] = a{i};" for i, (slot, _) in enumerate(args)]
        lines.append("}")
        self.resume_point(lines)

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
            left = self.cur.local(f"%left{id(s)}", NUM, s.pos)
            lines += [f"{left} = {self.num(s.count)};", f"{head}:;", f"rg_work(st, cx, 1, {p});",
                      f"if ({left} <= 0) goto {out};", f"{left}--;"]
        else:
            lines += [f"{head}:;", f"rg_work(st, cx, 1, {p});"]
        self.loops.append((head, out))
        self.block(s.body, lines)
        self.loops.pop()
        lines += [f"goto {head};", f"{out}:;"]

    def s_Break(self, s, lines):
        lines.append(f"goto {self.loops[-1][1]};")

    def s_Continue(self, s, lines):
        lines.append(f"goto {self.loops[-1][0]};")

    def s_Menu(self, s, lines):
        index = len(self.menus)
        chooser = "fr->you"
        if s.chooser is not None:
            t, chooser = self.expr(s.chooser, self.cur)
            if t != SEAT:
                raise NotNative(s.pos, f"a choice made by a {t}")
        prompt = self.text(s.prompt, s.pos) if s.prompt else None
        p = self.pos(s.pos)
        options, build, after = [], [], self.label()
        # the menu poses the decision (or takes its only option) and returns to the machine;
        # the option picked sets the frame's pc to the start of its body
        lines += [f"M_{index}(st, cx, fr);", "return;"]
        for k, o in enumerate(s.options):
            if isinstance(o, N.ActionsOption):
                raise NotNative(o.pos, "the actions of cards offered in a menu")
            self.resume += 1
            start = self.resume
            slot, vt, scope = -1, None, None
            if o.source is not None:
                vt = self.member_type(o.source)
                self.cur.local(o.var, vt, o.pos)
                slot = self.cur.slots[o.var][0]
                scope = {o.var: (vt, "x")}
                cond = self.test(o.cond, scope) if o.cond is not None else "1"
                build += self.members(o.source, "x", [f"if ({cond}) rg_option(st, cx, {k}, x, {p});"])
            else:
                cond = self.test(o.cond) if o.cond is not None else "1"
                build.append(f"if ({cond}) rg_option(st, cx, {k}, 0, {p});")
            options.append((start, slot, self.text(o.label, o.pos, scope)))
            lines.append(f"case {start}:;")  # an option's body starts here
            self.block(o.body, lines)
            lines.append(f"goto {after};")
        lines.append(f"{after}:;")
        self.menus.append((p, prompt, options, bool(s.secret)))
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

    # expressions ----------------------------------------------------------------------
    def expr_type(self, e, p: Proc) -> str:
        saved = getattr(self, "cur", None)
        self.cur = p
        try:
            return self.expr(e, p)[0]
        finally:
            self.cur = saved

    def expr(self, e, p: Proc, scope: dict | None = None) -> tuple:
        """(type, C source) of expression `e` in procedure `p`; `scope`: names bound by a loop."""
        visit = getattr(self, "e_" + type(e).__name__, None)
        if visit is None:
            raise NotNative(e.pos, f"the expression '{type(e).__name__}'")
        return visit(e, scope or {})

    def num(self, e, scope=None) -> str:
        t, src = self.expr(e, self.cur, scope)
        if t != NUM:
            raise NotNative(e.pos, f"a {t} where a number is needed")
        return src

    def test(self, e, scope=None) -> str:
        t, src = self.expr(e, self.cur, scope)
        if t != BOOL:
            raise NotNative(e.pos, f"a {t} tested as true or false")
        return src

    def zone(self, e, scope=None) -> str:
        t, src = self.expr(e, self.cur, scope)
        if t != ZONE:
            raise NotNative(e.pos, f"a {t} where a zone is needed")
        return src

    def e_Condition(self, e, sc):  # a text's part, as parsed
        return self.expr(e.expr, self.cur, sc)

    def e_Number(self, e, sc):
        return NUM, f"{e.value}LL"

    def e_Bool(self, e, sc):
        return BOOL, "1" if e.value else "0"

    def e_Name(self, e, sc):
        if e.name in sc:
            return sc[e.name]
        if e.name in self.cur.slots:
            slot, t = self.cur.slots[e.name]
            return t, f"L[{slot}]"
        if e.name == "you":
            return SEAT, "(v_t)fr->you"
        if e.name == "player_count":
            return NUM, "(v_t)st->n"
        if e.name in self.defn.counters:
            return NUM, f"st->counters[{self._counter_of(e.name, None, e.pos)}]"
        if e.name in self.program.zones and self.program.zones[e.name].scope.kind is OwnerKind.GAME:
            return ZONE, str(self.slots.zone_slot[e.name])
        raise NotNative(e.pos, f"the name '{e.name}'")

    def e_Attr(self, e, sc):
        if isinstance(e.obj, N.Name) and e.obj.name == "options" and "options" not in self.cur.slots:
            if e.name not in self.options:
                raise NotNative(e.pos, f"option '{e.name}'")
            opt = self.program.options[e.name]
            t = BOOL if getattr(opt, "type", None) == "boolean" else NUM
            if t == NUM and not all(isinstance(v, int) and not isinstance(v, bool) for v in (opt.values or [])):
                raise NotNative(e.pos, f"option '{e.name}', which is not a number")
            return t, f"st->options[{self.options.index(e.name)}]"
        t, src = self.expr(e.obj, self.cur, sc)
        if t == SEAT:
            if e.name in self.program.zones and self.program.zones[e.name].scope.kind is OwnerKind.PLAYER:
                return ZONE, f"({self.slots.zone_slot[e.name]} + rg_seat(st, cx, {src}, {self.pos(e.pos)}))"
            if e.name in self.defn.counters:
                cdef = self.program.counters[e.name]
                if cdef.scope.kind is OwnerKind.PLAYER:
                    seat = f"rg_seat(st, cx, {src}, {self.pos(e.pos)})"
                    return NUM, f"st->counters[{self.slots.counter_slot[e.name]} + {seat}]"
        raise NotNative(e.pos, f"'{e.name}' of a {t}")

    def e_Compare(self, e, sc):
        lt, left = self.expr(e.left, self.cur, sc)
        if isinstance(e.right, N.NoneLit) and lt in (SEAT, COMP) and e.op in ("==", "!=", "is", "isnot"):
            return BOOL, f"({left} {'==' if e.op in ('==', 'is') else '!='} -1)"
        rt, right = self.expr(e.right, self.cur, sc)
        if e.op in ("<", "<=", ">", ">=") and lt == rt == NUM:
            return BOOL, f"({left} {e.op} {right})"
        if e.op in ("==", "!=") and lt == rt and lt in (NUM, SEAT, COMP, BOOL):
            return BOOL, f"({left} {e.op} {right})"
        raise NotNative(e.pos, f"'{e.op}' between a {lt} and a {rt}")

    def e_BinOp(self, e, sc):
        if e.op not in ("+", "-", "*"):
            raise NotNative(e.pos, f"the operator '{e.op}'")
        return NUM, f"({self.num(e.left, sc)} {e.op} {self.num(e.right, sc)})"

    def e_BoolOp(self, e, sc):
        op = "&&" if e.op == "and" else "||"
        return BOOL, f"({self.test(e.left, sc)} {op} {self.test(e.right, sc)})"

    def e_Not(self, e, sc):
        return BOOL, f"(!{self.test(e.operand, sc)})"

    def e_Neg(self, e, sc):
        return NUM, f"(-{self.num(e.operand, sc)})"

    def e_Call(self, e, sc):
        f = fold(e.func)
        args = e.args
        p = self.pos(e.pos)
        if f == "count" and len(args) == 1:
            return NUM, f"(v_t)st->zlen[{self.zone(args[0], sc)}]"
        if f == "top" and len(args) == 1:
            return COMP, f"rg_top(st, {self.zone(args[0], sc)})"
        if f == "first" and len(args) == 1 and _is_players(args[0]):
            return SEAT, "0"
        if f in ("next", "previous") and len(args) in (1, 2):
            t, src = self.expr(args[0], self.cur, sc)
            if t != SEAT:
                raise NotNative(e.pos, f"{f}() of a {t}")
            k = self.num(args[1], sc) if len(args) == 2 else "1"
            sign = "+" if f == "next" else "-"
            return SEAT, f"rg_mod(rg_seat(st, cx, {src}, {p}) {sign} ({k}), st->n)"
        raise NotNative(e.pos, f"the function '{e.func}'")

    # sets: what loops and options run over ------------------------------------------
    def member_type(self, e) -> str:
        if _is_players(e):
            return SEAT
        if isinstance(e, N.Call) and fold(e.func) == "range":
            return NUM
        t, _ = self.expr(e, self.cur)
        if t == ZONE:
            return COMP
        raise NotNative(e.pos, f"a {t} run over as a set")

    def members(self, e, var: str, body: list) -> list:
        """C that runs `body` with `var` bound to each member of set `e`, in order."""
        p = self.pos(e.pos)
        if _is_players(e):
            return [f"for (v_t {var} = 0; {var} < st->n; {var}++) {{", f"    rg_work(st, cx, 1, {p});"] + \
                ["    " + x for x in body] + ["}"]
        if isinstance(e, N.Call) and fold(e.func) == "range":
            args = e.args
            lo, hi = ("1LL", self.num(args[0])) if len(args) == 1 else (self.num(args[0]), self.num(args[1]))
            head = f"for (v_t {var} = {lo}, hi_ = {hi}; {var} <= hi_; {var}++) {{"
            return [head, f"    rg_work(st, cx, 1, {p});"] + ["    " + x for x in body] + ["}"]
        z = self.zone(e)
        # over the members as they were when the loop began, as the Python backend does
        return ["{", f"    int32_t z_ = {z}, n_ = st->zlen[z_];", "    int32_t snap_[RG_COMPS];",
                "    memcpy(snap_, rg_items(st, z_), sizeof(int32_t) * (size_t)n_);",
                "    for (int32_t i_ = 0; i_ < n_; i_++) {", f"        v_t {var} = snap_[i_];",
                f"        rg_work(st, cx, 1, {p});"] + ["        " + x for x in body] + ["    }", "}"]

    # texts -------------------------------------------------------------------------------
    def text(self, text: str, pos, scope=None) -> int:

        parts, values = [], []
        for part in self.program.found.labels.get((text, pos)) or label_parts(text, pos):
            if isinstance(part, str):
                parts.append(part)
                continue
            if part.error is not None:
                parts.append("{" + part.source + "}")
                continue
            t, src = self.expr(part.tree, self.cur, scope)
            parts.append(t)
            values.append(src)
        self.texts.append((Text(parts), values))
        return len(self.texts) - 1

    def text_values(self) -> str:
        """The C that records, with a choice, the values its prompt and label show."""
        out = ["static void rg_texts(rg_state *st, rg_cx *cx, rg_frame *fr, rg_event *e, int menu, int k, v_t x) {",
               "    v_t *L = fr->loc;",
               "    (void)L; (void)x; (void)st;",
               "    switch (menu) {"]
        for i, (_, prompt, options, _) in enumerate(self.menus):
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
        for p, _, options, _ in self.menus:
            first.append(len(starts))
            poss.append(p)
            for start, slot, _ in options:
                starts.append(start)
                vars_.append(slot)
        procs = ", ".join(f"P_{p.index}" for p in self.procs.values())
        return [_table("int32_t", "RG_MENU_FIRST", first or [0]), _table("int32_t", "RG_MENU_POS", poss or [0]),
                _table("int32_t", "RG_OPT_START", starts or [0]), _table("int32_t", "RG_OPT_VAR", vars_ or [-1]),
                self.text_values(),
                f"static void (*const RG_PROCS[])(rg_state *, rg_cx *, rg_frame *) = {{{procs}}};",
                f"#define RG_GAME_PROC {self.procs['game'].index}",
                _resource("machine.c")]


def _resource(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def _is_players(e) -> bool:
    return isinstance(e, N.Name) and e.name == "players"


def _statements(body):
    """The statements of `body` and of the bodies inside them, in the order they are written."""
    for s in body:
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
