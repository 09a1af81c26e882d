"""The native backend's statements: each procedure and ability of a game written as one
resumable C function (`Statements.proc`), statement by statement.

A `switch` on the frame's `pc` takes a function back to the statement after the one that
waited (a call, a signal, a menu, a choice, a question); its locals are slots of its frame,
and its branches and loops are C's own `goto`s. A loop that waits walks a copy of its list
kept in the state's arena. Mixed into the Emitter (`emit`), which gives the tables and the
typed expressions.
"""
from __future__ import annotations

from ..engine.specs import OPTIONAL_ASK
from ..language import nodes as N
from ..names import fold
from .expressions import COMP, HOLDER, NONE, NUM, REFS, SCALARS, SEAT, listed, masked, said, spanned
from .slots import NotNative
from .trees import ACTS, LISTED, POP, WAITS, Proc, Shown, counter_name, record, statements


SACRIFICED = "\0sacrifice"  # the local holding the component chosen to pay a sacrifice


def _sacrificed(cost) -> N.Node:
    """`[each x in in_play(you) where x != self and x is CLASS]`: what may pay a sacrifice."""
    p = cost.pos
    x = N.Name(p, "\0x")
    where = N.BoolOp(p, "and", N.Compare(p, "!=", x, N.Name(p, "self")), N.Compare(p, "is", x, N.Name(p, cost.name)))
    return N.Each(p, "\0x", N.Call(p, "in_play", [N.Name(p, "you")]), where)


class Statements:
    """The lowering of statements; mixed into the Emitter."""

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
                else:  # sacrifice: another component of the class, chosen, goes to the discard
                    if self.defn.discard is None:
                        raise NotNative(cost.pos, "a sacrifice in a game that names no discard zone")
                    self.s_Choose(N.Choose(cost.pos, SACRIFICED, _sacrificed(cost), None, None, False,
                                           "card to sacrifice"), lines)
                    self.s_Move(N.Move(cost.pos, N.Name(cost.pos, SACRIFICED), N.Name(cost.pos, self.defn.discard)),
                                lines)
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
            else:  # sacrifice: another component of the class is in play for the player
                checks.append(f"if (!({self.test(N.Call(cost.pos, 'any', [_sacrificed(cost)]))})) return 0;")
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
            if (listed(t) or masked(t) or spanned(t)) and t[1] == want[1]:
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
        lines += self.each_component(s.what, f"rg_tag(st, cx, X, {self.tags.index(key)}, {int(s.on)}, "
                                             f"{self.pos(s.pos)});")

    def each_component(self, what, call: str) -> list:
        """C that makes `call` (X for the component) of the component `what` is, or of each
        component of the list or zone it is."""
        t, src = self.expr(what)
        if t in (COMP, HOLDER):
            return [call.replace("X", self.typed(what, COMP))]
        x = self.fresh("c")
        return self.members(what).loop(x, [call.replace("X", x)])

    def s_Use(self, s, lines):
        c = self.typed(s.card, COMP)
        who = self.typed(s.chooser, SEAT) if s.chooser is not None else "(v_t)fr->you"
        self.resume += 1
        lines += [f"if (rg_use(st, cx, {c}, {who}, {int(s.free)}, {self.pos(s.pos)})) {{",
                  f"    fr->pc = {self.resume};", "    return;", "}", f"case {self.resume}:;"]

    def s_TapStmt(self, s, lines):
        lines += self.each_component(s.what, f"rg_tap(st, cx, X, {int(s.on)}, {self.pos(s.pos)});")

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
        cdef = self.program.counters[counter_name(s.target)]
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
                  f"    e->text = {text};"] + [f"    {record(v)}" for v in self.texts[text][1]] + ["}"]

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
        if not any(isinstance(x, WAITS) for x in statements(s.body)):
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
        self.chosen.add(index)
        self.row_types[(index, 0)] = members.elem
        self.menus.append((p, prompt, f"choose {s.var}", [(after, self.cur.slots[s.var][0], label)], bool(s.secret)))
        x = self.fresh("x")
        inner = {s.var: (members.elem, x)}
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

    def s_Decide(self, s, lines):
        """A decision made by the rules: the first rule whose condition holds and whose value is
        not none, recorded with its number at that rule's line (0 and the statement's: none)."""
        if s.var not in self.cur.slots:
            raise NotNative(s.pos, f"the decision '{s.var}', whose rules give values of no one kind")
        t = self.cur.slots[s.var][1]
        if t not in SCALARS:
            raise NotNative(s.pos, f"a decision of a {said(t)}")
        var = self.cur.local(s.var, t, s.pos)
        chooser = self.typed(s.chooser, SEAT) if s.chooser is not None else "(v_t)fr->you"
        p = self.pos(s.pos)
        index = len(self.decides)
        prompt = self.text(s.prompt, s.pos) if s.prompt else None
        self.decides.append((prompt, s.var, t))
        done, who, rule, v = self.label(), self.fresh("who"), self.fresh("rule"), self.fresh("v")
        where = self.table(f"DECIDE_{index}", "int32_t", [str(p)] + [str(self.pos(r.pos)) for r in s.rules])
        lines += ["{", f"int32_t {who} = rg_seat(st, cx, {chooser}, {p});", f"int32_t {rule} = 0;", f"v_t {v};"]
        for n, r in enumerate(s.rules, 1):
            vt, value = self.expr(r.value)
            cond = self.test(r.cond) if r.cond is not None else "1"
            if vt == NONE:  # never decides, but its condition is still asked
                lines.append(f"(void)({cond});")
                continue
            if vt != t:
                raise NotNative(r.pos, f"a rule deciding a {said(vt)} where the others decide a {said(t)}")
            decided = f"{v} != -1" if t in REFS else "1"  # a number is never none
            lines += [f"if ({cond}) {{", f"    {v} = {value};",
                      f"    if ({decided}) {{ {var} = {v}; {rule} = {n}; goto {done}; }}", "}"]
        lines += [f"{var} = -1;", f"{done}:;",
                  "if (cx->log->on) {", f"    rg_event *e = rg_emit(st, cx, EV_DECIDE, {where}[{rule}]);",
                  f"    e->a = {who}; e->b = {rule}; e->e = {index};"] + \
            [f"    {record(x)}" for x in (self.texts[prompt][1] if prompt is not None else [])] + \
            [f"    if ({rule}) rg_value(st, cx, e, {var});", "}", "}"]

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
                self.row_types[(index, k)] = members.elem
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
