"""Stage 5, compile: checked trees become Python code, once per pack.

Expressions become functions `f(state, frame) -> value`, written as Python
source by `pygen`. Statements become a flat list of operations per procedure
or ability (`Code`), with jumps for loops and branches, so that a running game
is plain data: a stack of frames, each a code object, a position in it and its
locals. A choice suspends the game between two operations; nothing is
re-parsed or re-walked while playing. The functions every game may call are
in `library`; `closures` compiles expressions another way, to check `pygen`.
"""
from __future__ import annotations

import re

from . import nodes as N
from . import vm
from .diagnostics import Position
from .names import fold
from .parser import parse
from .state import GameFault, describe
from .closures import ClosureExprs
from .library import _FUNCS, _index, _iter, _num, iterate  # noqa: F401 (iterate: re-exported)
from .values import Comp, ZoneRef, owner_key


class Code:
    """The operations of one procedure or ability, with the position of each."""

    __slots__ = ("name", "ops", "pos", "kind", "proc", "source", "menus")

    def __init__(self, name, kind, proc=None, source=None):
        self.name = name
        self.ops = []
        self.pos = []
        self.menus = {}  # index of a menu operation -> its MenuSpec (to restore a saved decision)
        self.kind = kind
        self.proc = proc
        self.source = source

    def __repr__(self):
        return f"<Code {self.name}>"


_MISSING = object()


class Ctx:
    """What the compiler knows while compiling one body."""

    def __init__(self, cg, code: Code, consts=None, locals_=()):
        self.cg = cg
        self.code = code
        self.consts = consts or {}
        self.locals = set(locals_)
        self.loops: list[tuple[list, list]] = []  # (continue target cell, break patch list)
        self.hidden = 0

    def emit(self, op, pos) -> int:
        self.code.ops.append(op)
        self.code.pos.append(pos)
        return len(self.code.ops) - 1

    def here(self) -> int:
        return len(self.code.ops)

    def fresh(self, what: str) -> str:
        self.hidden += 1
        return f"\x00{what}{self.hidden}"




class Compiler(ClosureExprs):
    """Compiles the trees of one checked GameDef; holds what the closures need."""

    def __init__(self, cg):
        self.cg = cg  # interpreter.game.CompiledGame
        self.g = cg.defn
        from .pygen import ExprGen, Source, base_namespace
        self.src = Source(base_namespace())
        self.src.ns["R_index"] = _index
        self.src.ns["FN"] = {}
        self.gen = ExprGen(self, self.src)
        self.builtin_names = set(_FUNCS)

    # expressions -------------------------------------------------------------
    def expr(self, e, ctx: Ctx):
        """A function (state, frame) -> value: the expression compiled to Python (see pygen)."""
        return self.gen.function(e, ctx)

    def builtin(self, name: str):
        return _FUNCS[name]









    def _counter_key_from(self, obj, cdef, pos):
        """The key function of counter `cdef` of the owner computed by `obj`."""
        from .pygen import _ckey
        name, team_scoped = cdef.name, cdef.scope[0] == "team"
        return lambda st, fr: _ckey(st, obj(st, fr), name, team_scoped, pos)

    def counter_target(self, e, ctx):
        """(key function, counter definition) of a counter reference."""
        g = self.g
        if isinstance(e, N.Name) and e.name in g.counters and e.name not in ctx.locals:
            k = e.name
            return (lambda st, fr: k), g.counters[k]
        if isinstance(e, N.Attr) and e.name in g.counters:
            cdef = g.counters[e.name]
            return self._counter_key_from(self.closure(e.obj, ctx), cdef, e.pos), cdef
        if isinstance(e, N.Index) and isinstance(e.obj, N.Attr) and e.obj.name in g.counters:
            cdef = g.counters[e.obj.name]
            first = self.closure(e.obj.obj, ctx)
            second = self.closure(e.key, ctx)
            name = cdef.name
            return (lambda st, fr: f"{name}#{owner_key(first(st, fr))}#{owner_key(second(st, fr))}"), cdef
        raise GameFault("not a counter", e.pos)












    def class_key(self, e, ctx):
        """The folded class a name stands for in `x is NAME`, or None when it is a value."""
        if isinstance(e, N.Name) and e.name not in ctx.locals:
            if e.name in ctx.consts:
                kind, value = ctx.consts[e.name][0], ctx.consts[e.name][1]
                if kind == "class":
                    return value
                return None
            key = fold(e.name)
            if key in self.g.classes and e.name not in ("self", "you", "cause"):
                return fold(self.g.classes[key][1])
        return None



    # labels -----------------------------------------------------------------
    def label(self, text: str, pos: Position, ctx: Ctx):
        """A text with {expressions} inside, rendered with the values' readable names."""
        parts = []
        last = 0
        for m in re.finditer(r"\{([^{}]*)\}", text):
            if m.start() > last:
                parts.append(text[last:m.start()])
            try:
                tree = parse(m.group(1), "condition", lambda l, c: pos)
                parts.append(self.expr(tree, ctx))
            except Exception:
                parts.append(m.group(0))
            last = m.end()
        if last < len(text):
            parts.append(text[last:])
        if all(isinstance(p, str) for p in parts):
            s = "".join(parts)
            return lambda st, fr: s

        def render(st, fr):
            return "".join(p if isinstance(p, str) else vm.label_of(st, p(st, fr)) for p in parts)
        return render

    # statements -------------------------------------------------------------
    def block(self, body, ctx: Ctx) -> None:
        for s in body:
            getattr(self, "s_" + type(s).__name__)(s, ctx)

    def s_Pass(self, s, ctx):
        pass

    def s_Move(self, s, ctx):
        what, to = self.expr(s.what, ctx), self.expr(s.to, ctx)
        bottom, pos = s.end == "bottom", s.pos

        def move(st, fr):
            w = what(st, fr)
            z = to(st, fr)
            if w is None:
                return
            if type(w) is Comp:
                st.move(w, z, bottom, pos)
            elif isinstance(w, (list, tuple)) or type(w) is ZoneRef:
                for c in list(iterate(st, w)):
                    st.move(c, z, bottom, pos)
            else:
                st.move(w, z, bottom, pos)
        ctx.emit(move, pos)

    def _amount_op(self, s, ctx, sign: int, kind: str):
        amount = self.expr(s.amount, ctx)
        keyf, cdef = self.counter_target(s.target, ctx)
        pos = s.pos
        if kind == "pay":
            def pay(st, fr):
                n = _num(amount(st, fr), pos)
                key = keyf(st, fr)
                have = st.counters.get(key, cdef.initial)
                if have < n:
                    vm.fail(st, fr, f"cannot pay {n} {cdef.name}: only {have}", pos)
                    return
                st.add(key, cdef, -n, pos, "pay")
            ctx.emit(pay, pos)
            return

        def change(st, fr):
            st.add(keyf(st, fr), cdef, sign * _num(amount(st, fr), pos), pos, kind)
        ctx.emit(change, pos)

    def s_Add(self, s, ctx):
        self._amount_op(s, ctx, 1, "add")

    def s_Remove(self, s, ctx):
        self._amount_op(s, ctx, -1, "remove")

    def s_Pay(self, s, ctx):
        self._amount_op(s, ctx, -1, "pay")

    def _owned_counter(self, name, owner, ctx, pos):
        cdef = self.g.counters[name]
        obj = self.expr(owner, ctx) if owner is not None else (lambda st, fr: fr.you)
        return self._counter_key_from(obj, cdef, pos), cdef

    def s_Gain(self, s, ctx):
        keyf, cdef = self._owned_counter(s.counter, s.owner, ctx, s.pos)
        amount, pos = self.expr(s.amount, ctx), s.pos
        ctx.emit(lambda st, fr: st.add(keyf(st, fr), cdef, _num(amount(st, fr), pos), pos, "gain"), pos)

    def s_Lose(self, s, ctx):
        keyf, cdef = self._owned_counter(s.counter, s.owner, ctx, s.pos)
        amount, pos = self.expr(s.amount, ctx), s.pos
        ctx.emit(lambda st, fr: st.add(keyf(st, fr), cdef, -_num(amount(st, fr), pos), pos, "lose"), pos)

    def s_Score(self, s, ctx):
        keyf, cdef = self._owned_counter(self.g.score, s.owner, ctx, s.pos)
        amount, pos = self.expr(s.amount, ctx), s.pos
        source = self.expr(s.source, ctx) if s.source is not None else (lambda st, fr: fr.me)

        def score(st, fr):
            key = keyf(st, fr)
            given = st.add(key, cdef, _num(amount(st, fr), pos), pos, "score")
            c = source(st, fr)
            if given and type(c) is Comp:
                # who brought the points to whom: designers read these per card, per caste...
                st.credit[(c, key)] = st.credit.get((c, key), 0) + given
        ctx.emit(score, pos)

    def s_SetStmt(self, s, ctx):
        value, pos, t = self.expr(s.value, ctx), s.pos, s.target
        g = self.g
        if isinstance(t, N.Name) and t.name not in ctx.locals and t.name in g.counters:
            keyf, cdef = self.counter_target(t, ctx)
            ctx.emit(lambda st, fr: st.set_counter(keyf(st, fr), cdef, _num(value(st, fr), pos), pos), pos)
            return
        if isinstance(t, N.Name):
            n = t.name

            def set_local(st, fr):
                fr.env[n] = value(st, fr)
            ctx.emit(set_local, pos)
            return
        g = self.g
        if (isinstance(t, N.Attr) and t.name in g.counters) or isinstance(t, N.Index) and \
                isinstance(t.obj, N.Attr) and t.obj.name in g.counters:
            keyf, cdef = self.counter_target(t, ctx)
            ctx.emit(lambda st, fr: st.set_counter(keyf(st, fr), cdef, _num(value(st, fr), pos), pos), pos)
            return
        if isinstance(t, N.Attr) and t.name in g.attributes:
            obj, n = self.expr(t.obj, ctx), t.name

            def set_attr(st, fr):
                o = obj(st, fr)
                if type(o) is not Comp:
                    raise GameFault(f"cannot set '{n}' of {describe(o)}", pos)
                v = value(st, fr)
                st.over[(o, n)] = v
                st.version += 1
                st.emit("set", pos, card=st.g.comp_card[o].id, id=o, attribute=n, value=vm.plain(v))
            ctx.emit(set_attr, pos)
            return
        raise GameFault("this cannot be set", pos)

    def s_Let(self, s, ctx):
        ctx.locals.add(s.name)
        value, n = self.expr(s.value, ctx), s.name

        def let(st, fr):
            fr.env[n] = value(st, fr)
        ctx.emit(let, s.pos)

    def s_Signal(self, s, ctx):
        args = [self.expr(a, ctx) for a in s.args]
        event, pos = s.event, s.pos
        ctx.emit(lambda st, fr: vm.signal(st, fr, event, [a(st, fr) for a in args], pos), pos)

    def s_CallProc(self, s, ctx):
        args = [self.expr(a, ctx) for a in s.args]
        name, pos = s.proc, s.pos
        procs = self.cg.procs
        params = self.g.procedures[name].params

        def call(st, fr):
            env = {p: a(st, fr) for p, a in zip(params, args)}
            # a procedure with a parameter named 'you' acts for that player
            vm.push(st, procs[name], env, fr.me, env.get("you", fr.you), pos)
        ctx.emit(call, pos)

    def s_Shuffle(self, s, ctx):
        zone, pos = self.expr(s.zone, ctx), s.pos
        ctx.emit(lambda st, fr: st.shuffle(zone(st, fr), pos), pos)

    def s_Tag(self, s, ctx):
        what, pos, on = self.expr(s.what, ctx), s.pos, s.on
        key = fold(self.g.classes[fold(s.tag)][1])

        def tag(st, fr):
            for c in list(iterate(st, what(st, fr))):
                st.tag(c, key, on, pos)
        ctx.emit(tag, pos)

    def s_TapStmt(self, s, ctx):
        what, pos, on = self.expr(s.what, ctx), s.pos, s.on

        def tap(st, fr):
            for c in list(iterate(st, what(st, fr))):
                st.tap(c, on, pos)
        ctx.emit(tap, pos)

    def s_Reveal(self, s, ctx):
        what, pos = self.expr(s.what, ctx), s.pos
        ctx.emit(lambda st, fr: st.emit("reveal", pos, what=vm.plain(what(st, fr)),
                                        label=vm.label_of(st, what(st, fr))), pos)

    def s_Log(self, s, ctx):
        text, pos = self.label(s.text, s.pos, ctx), s.pos
        ctx.emit(lambda st, fr: st.emit("log", pos, text=text(st, fr)), pos)

    def s_Win(self, s, ctx):
        who, pos = self.expr(s.who, ctx), s.pos
        ctx.emit(lambda st, fr: vm.win(st, who(st, fr), pos), pos)

    def s_Exit(self, s, ctx):
        name, pos = s.proc, s.pos
        ctx.emit(lambda st, fr: vm.exit_proc(st, name, pos), pos)

    def s_Return(self, s, ctx):
        ctx.emit(vm.op_return, s.pos)

    def s_Fail(self, s, ctx):
        text, pos = self.label(s.text, s.pos, ctx), s.pos
        ctx.emit(lambda st, fr: vm.fail(st, fr, text(st, fr), pos), pos)

    def s_Break(self, s, ctx):
        patch = ctx.loops[-1][1]
        cell = [None]
        patch.append(cell)

        def brk(st, fr):
            fr.pc = cell[0]
        ctx.emit(brk, s.pos)

    def s_Continue(self, s, ctx):
        cell = ctx.loops[-1][0]

        def cont(st, fr):
            fr.pc = cell[0]
        ctx.emit(cont, s.pos)

    def s_Roll(self, s, ctx):
        count = self.expr(s.count, ctx)
        sides = self.expr(s.sides, ctx) if s.sides is not None else (lambda st, fr: 6)
        name, pos = s.name, s.pos
        ctx.locals.add(name)

        def roll(st, fr):
            n, k = _num(count(st, fr), pos), _num(sides(st, fr), pos)
            if k < 1:
                raise GameFault("dice need at least one side", pos)
            result = tuple(1 + st.rng.below(k) for _ in range(max(0, n)))
            fr.env[name] = result
            st.emit("roll", pos, dice=list(result))
        ctx.emit(roll, pos)

    def s_Choose(self, s, ctx):
        ctx.locals.add(s.var)
        src, cond = self.expr(s.source, ctx), None
        if s.where is not None:
            cond = self.expr(s.where, ctx)
        chooser = self.expr(s.chooser, ctx) if s.chooser is not None else None
        prompt = self.label(s.prompt, s.pos, ctx) if s.prompt else None
        spec = vm.ChooseSpec(s.var, src, cond, chooser, s.optional, prompt, s.pos)
        ctx.emit(lambda st, fr: vm.choose(st, fr, spec), s.pos)

    def s_Menu(self, s, ctx):
        chooser = self.expr(s.chooser, ctx) if s.chooser is not None else None
        prompt = self.label(s.prompt, s.pos, ctx) if s.prompt else None
        options = []
        spec = vm.MenuSpec(chooser, prompt, options, [None], s.pos)
        ctx.code.menus[ctx.emit(lambda st, fr: vm.menu(st, fr, spec), s.pos)] = spec
        ends = []
        for o in s.options:
            if isinstance(o, N.ActionsOption):
                options.append(vm.MenuOption(None, None, None, None, None, o.window, o.pos))
                continue
            if o.var:
                ctx.locals.add(o.var)
            src = self.expr(o.source, ctx) if o.source is not None else None
            cond = self.expr(o.cond, ctx) if o.cond is not None else None
            label = self.label(o.label, o.pos, ctx)
            start = ctx.here()
            options.append(vm.MenuOption(label, o.var, src, cond, start, None, o.pos))
            self.block(o.body, ctx)
            cell = [None]
            ends.append(cell)

            def to_end(st, fr, cell=cell):
                fr.pc = cell[0]
            ctx.emit(to_end, o.pos)
        end = ctx.here()
        spec.end[0] = end
        for cell in ends:
            cell[0] = end

    def s_If(self, s, ctx):
        ends = []
        for cond, body in s.branches:
            test = self.expr(cond, ctx)
            skip = [None]

            def branch(st, fr, test=test, skip=skip):
                if not test(st, fr):
                    fr.pc = skip[0]
            ctx.emit(branch, cond.pos)
            self.block(body, ctx)
            end = [None]
            ends.append(end)

            def jump(st, fr, end=end):
                fr.pc = end[0]
            ctx.emit(jump, cond.pos)
            skip[0] = ctx.here()
        if s.orelse:
            self.block(s.orelse, ctx)
        for end in ends:
            end[0] = ctx.here()

    def _loop(self, ctx, head, exit_cell, body, pos) -> None:
        """The body of a loop, the jump back to its head, and its exit (where 'break' goes)."""
        breaks: list = []
        ctx.loops.append((head, breaks))
        self.block(body, ctx)
        ctx.loops.pop()

        def back(st, fr):
            fr.pc = head[0]
        ctx.emit(back, pos)
        exit_cell[0] = ctx.here()
        for b in breaks:
            b[0] = exit_cell[0]

    def s_For(self, s, ctx):
        ctx.locals.add(s.var)
        src = self.expr(s.source, ctx)
        cond = self.expr(s.where, ctx) if s.where is not None else None
        items, index, var, pos = ctx.fresh("items"), ctx.fresh("i"), s.var, s.pos

        def start(st, fr):
            fr.env[items] = tuple(_iter(st, src(st, fr), pos))
            fr.env[index] = 0
        ctx.emit(start, pos)
        head = [ctx.here()]
        exit_cell = [None]

        def step(st, fr):
            env = fr.env
            seq, i = env[items], env[index]
            while i < len(seq):
                env[var] = seq[i]
                i += 1
                if cond is None or cond(st, fr):
                    env[index] = i
                    return
            env[index] = i
            fr.pc = exit_cell[0]
        ctx.emit(step, pos)
        self._loop(ctx, head, exit_cell, s.body, pos)

    def s_Repeat(self, s, ctx):
        pos = s.pos
        exit_cell = [None]
        if s.count is not None:
            count = self.expr(s.count, ctx)
            left = ctx.fresh("left")

            def start(st, fr):
                fr.env[left] = _num(count(st, fr), pos)
            ctx.emit(start, pos)
            head = [ctx.here()]

            def step(st, fr):
                n = fr.env[left]
                if n <= 0:
                    fr.pc = exit_cell[0]
                else:
                    fr.env[left] = n - 1
            ctx.emit(step, pos)
        else:
            head = [ctx.here()]
        self._loop(ctx, head, exit_cell, s.body, pos)

    def s_While(self, s, ctx):
        test, pos = self.expr(s.cond, ctx), s.pos
        exit_cell = [None]
        head = [ctx.here()]

        def check(st, fr):
            if not test(st, fr):
                fr.pc = exit_cell[0]
        ctx.emit(check, pos)
        self._loop(ctx, head, exit_cell, s.body, pos)

    def s_Phrase(self, s, ctx):
        # only the effect parameter of a keyword reaches here: splice the card's body in
        name = s.words[0].value
        kind, body, card_ctx_consts = ctx.consts[name]
        saved = ctx.consts
        ctx.consts = card_ctx_consts
        self.block(body, ctx)
        ctx.consts = saved

