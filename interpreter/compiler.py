"""Stage 5, compile: checked trees become Python closures, once per pack.

Expressions become functions `f(state, frame) -> value`. Statements become a
flat list of operations per procedure or ability (`Code`), with jumps for
loops and branches, so that a running game is plain data: a stack of frames,
each a code object, a position in it and its locals. A choice suspends the
game between two operations; nothing is re-parsed or re-walked while playing.
"""
from __future__ import annotations

import re

from . import nodes as N
from . import vm
from .builtins import FUNCTIONS
from .diagnostics import Position
from .names import fold
from .parser import parse
from .state import GameFault, describe
from .values import Comp, CounterMap, NodeRef, Seat, Team, ZoneRef, owner_key


class Code:
    """The operations of one procedure or ability, with the position of each."""

    __slots__ = ("name", "ops", "pos", "kind", "proc", "source")

    def __init__(self, name, kind, proc=None, source=None):
        self.name = name
        self.ops = []
        self.pos = []
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


def iterate(st, v):
    """The members of a set-like value, as a list or tuple."""
    if v is None:
        return ()
    t = type(v)
    if t is ZoneRef:
        return st.zones.get(v, ())
    if t is list or t is tuple:
        return v
    if t is Comp or t is Seat or t is NodeRef or t is Team:
        return (v,)
    raise TypeError(f"{describe(v)} is not a set of things")


class Compiler:
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

    def closure(self, e, ctx: Ctx):
        """The same expression as a tree of closures (kept to cross-check the generated code)."""
        m = getattr(self, "x_" + type(e).__name__)
        return m(e, ctx)

    def x_Number(self, e, ctx):
        v = e.value
        return lambda st, fr: v

    def x_String(self, e, ctx):
        v = e.value
        return lambda st, fr: v

    def x_Bool(self, e, ctx):
        v = e.value
        return lambda st, fr: v

    def x_NoneLit(self, e, ctx):
        return lambda st, fr: None

    def x_Condition(self, e, ctx):
        return self.closure(e.expr, ctx)

    def x_Name(self, e, ctx):
        n = e.name
        pos = e.pos
        if n in ctx.consts:
            kind, value = ctx.consts[n][0], ctx.consts[n][1]
            if kind == "const":
                return lambda st, fr: value
            if kind == "expr":
                return value  # compiled in the card's context
        if n in ctx.locals:
            def local(st, fr):
                try:
                    return fr.env[n]
                except KeyError:
                    raise GameFault(f"'{n}' is used before it is given a value", pos) from None
            return local
        if n == "self":
            return lambda st, fr: fr.me
        if n == "you":
            return lambda st, fr: fr.you
        if n == "cause":
            return lambda st, fr: fr.env.get("cause")
        if n == "players":
            return lambda st, fr: st.g.seats[st.n]
        if n == "teams":
            return lambda st, fr: tuple(Team(i) for i in range(len(st.g.teams_for(st.n))))
        if n == "player_count":
            return lambda st, fr: st.n
        g = self.g
        if n in g.zones and g.zones[n].scope == ("game",):
            z = ZoneRef(n)
            return lambda st, fr: z
        if n in g.counters and g.counters[n].scope == ("game",):
            cdef = g.counters[n]
            init = cdef.initial
            return lambda st, fr: st.counters.get(n, init)
        key = fold(n)
        if key in g.classes:
            cls = fold(g.classes[key][1])
            return lambda st, fr: cls
        raise GameFault(f"unknown name '{n}'", pos)

    def x_Attr(self, e, ctx):
        g = self.g
        n, pos = e.name, e.pos
        if isinstance(e.obj, N.Name) and e.obj.name == "options" and "options" not in ctx.locals:
            return lambda st, fr: st.options.get(n)
        if isinstance(e.obj, N.Name) and e.obj.name == "data" and "data" not in ctx.locals:
            v = self.cg.data.get(n)
            return lambda st, fr: v
        obj = self.closure(e.obj, ctx)
        if n in g.zones:
            zname = n
            from .pygen import _zone
            team_scoped = g.zones[n].scope[0] == "team"
            return lambda st, fr: _zone(st, obj(st, fr), zname, team_scoped, pos)
        if n in g.counters:
            cdef = g.counters[n]
            if len(cdef.scope) == 2:
                return lambda st, fr: CounterMap(n, obj(st, fr))
            keyf = self._counter_key_from(obj, cdef, pos)
            init = cdef.initial
            return lambda st, fr: st.counters.get(keyf(st, fr), init)
        if n in g.attributes:
            from .pygen import _attr
            attr_values = self.cg.comp_attrs.get(n)
            return lambda st, fr: _attr(st, obj(st, fr), n, attr_values, pos)
        prop = _PROPERTIES.get(n)
        if prop is not None:
            return lambda st, fr: prop(st, obj(st, fr), pos)
        from .pygen import _node_attr
        return lambda st, fr: _node_attr(st, obj(st, fr), n, pos)

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

    def x_Index(self, e, ctx):
        obj = self.closure(e.obj, ctx)
        key = self.closure(e.key, ctx)
        pos = e.pos
        return lambda st, fr: _index(st, obj(st, fr), key(st, fr), pos)

    def x_Call(self, e, ctx):
        if e.func == "select":
            test, yes, no = (self.closure(a, ctx) for a in e.args)
            return lambda st, fr: yes(st, fr) if test(st, fr) else no(st, fr)
        if e.func not in _FUNCS:
            return self.user_call(e, ctx)
        impl = _FUNCS[e.func]
        args = [self.closure(a, ctx) for a in e.args]
        pos = e.pos
        if len(args) == 1:
            a0 = args[0]
            return lambda st, fr: impl(st, pos, a0(st, fr))
        if len(args) == 2:
            a0, a1 = args
            return lambda st, fr: impl(st, pos, a0(st, fr), a1(st, fr))
        return lambda st, fr: impl(st, pos, *[a(st, fr) for a in args])

    def user_call(self, e, ctx):
        """A call of a function the game defines: its body runs with the arguments bound."""
        f = self.g.functions[e.func]
        body = self.cg.function_body(f.name)
        args = [self.closure(a, ctx) for a in e.args]
        params = f.params
        pos = e.pos
        name = f.name
        pure, contextual = self.cg.function_traits(name)
        from .state import Frame

        def call(st, fr):
            values = tuple(a(st, fr) for a in args)
            key = None
            if pure:
                # a game function gives the same result until the state changes
                if st.memo_version != st.version:
                    st.memo.clear()
                    st.memo_version = st.version
                key = (name, values, fr.me, fr.you) if contextual else (name, values)
                try:
                    return st.memo[key]
                except KeyError:
                    pass
                except TypeError:  # an unhashable argument (a list): no memo
                    key = None
            try:
                result = body[0](st, Frame(None, 0, dict(zip(params, values)), fr.me, fr.you))
            except RecursionError:
                raise GameFault(f"function '{f.name}' calls itself without end", pos) from None
            if key is not None:
                st.memo[key] = tuple(result) if type(result) is list else result
            return result
        return call

    def x_ListLit(self, e, ctx):
        if len(e.items) == 1 and isinstance(e.items[0], (N.Each, N.Mapped)):
            return self.closure(e.items[0], ctx)  # [each x in S where C] is the list itself
        items = [self.closure(i, ctx) for i in e.items]
        return lambda st, fr: [i(st, fr) for i in items]

    def _binder(self, var, source, where, ctx):
        ctx.locals.add(var)
        src = self.closure(source, ctx)
        cond = self.closure(where, ctx) if where is not None else None
        return src, cond

    def x_Each(self, e, ctx):
        var = e.var
        src, cond = self._binder(var, e.source, e.where, ctx)
        pos = e.pos
        if cond is None:
            return lambda st, fr: list(_iter(st, src(st, fr), pos))

        def each(st, fr):
            env = fr.env
            old = env.get(var, _MISSING)
            out = []
            for x in _iter(st, src(st, fr), pos):
                env[var] = x
                if cond(st, fr):
                    out.append(x)
            if old is _MISSING:
                env.pop(var, None)
            else:
                env[var] = old
            return out
        return each

    def x_Mapped(self, e, ctx):
        var = e.var
        src, cond = self._binder(var, e.source, e.where, ctx)
        val = self.closure(e.expr, ctx)
        pos = e.pos

        def mapped(st, fr):
            env = fr.env
            old = env.get(var, _MISSING)
            out = []
            for x in _iter(st, src(st, fr), pos):
                env[var] = x
                if cond is None or cond(st, fr):
                    out.append(val(st, fr))
            if old is _MISSING:
                env.pop(var, None)
            else:
                env[var] = old
            return out
        return mapped

    def x_BinOp(self, e, ctx):
        a, b = self.closure(e.left, ctx), self.closure(e.right, ctx)
        op, pos = e.op, e.pos
        if op == "+":
            def plus(st, fr):
                x, y = a(st, fr), b(st, fr)
                if isinstance(x, (list, tuple, ZoneRef)) and isinstance(y, (list, tuple, ZoneRef)):
                    return list(iterate(st, x)) + list(iterate(st, y))
                return _num(x, pos) + _num(y, pos)
            return plus
        if op == "-":
            return lambda st, fr: _num(a(st, fr), pos) - _num(b(st, fr), pos)
        if op == "*":
            return lambda st, fr: _num(a(st, fr), pos) * _num(b(st, fr), pos)

        def divide(st, fr):
            x, y = _num(a(st, fr), pos), _num(b(st, fr), pos)
            if y == 0:
                raise GameFault("division by zero", pos)
            return x // y if op == "/" else x % y
        return divide

    def x_Neg(self, e, ctx):
        a = self.closure(e.operand, ctx)
        pos = e.pos
        return lambda st, fr: -_num(a(st, fr), pos)

    def x_Not(self, e, ctx):
        a = self.closure(e.operand, ctx)
        return lambda st, fr: not a(st, fr)

    def x_BoolOp(self, e, ctx):
        a, b = self.closure(e.left, ctx), self.closure(e.right, ctx)
        if e.op == "and":
            return lambda st, fr: bool(a(st, fr) and b(st, fr))
        return lambda st, fr: bool(a(st, fr) or b(st, fr))

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

    def x_Compare(self, e, ctx):
        op, pos = e.op, e.pos
        a = self.closure(e.left, ctx)
        if op in ("is", "isnot"):
            cls = self.class_key(e.right, ctx)
            if cls is not None:
                classes = self.cg.comp_classes
                negate = op == "isnot"

                def is_class(st, fr):
                    x = a(st, fr)
                    if type(x) is not Comp:
                        return negate
                    r = cls in classes[x] or (cls in st.tags.get(x, ()))
                    return r != negate
                return is_class
            b = self.closure(e.right, ctx)
            if op == "is":
                return lambda st, fr: _same(a(st, fr), b(st, fr))
            return lambda st, fr: not _same(a(st, fr), b(st, fr))
        b = self.closure(e.right, ctx)
        if op == "==":
            return lambda st, fr: _same(a(st, fr), b(st, fr))
        if op == "!=":
            return lambda st, fr: not _same(a(st, fr), b(st, fr))
        if op in ("in", "notin"):
            negate = op == "notin"

            def member(st, fr):
                x, s = a(st, fr), b(st, fr)
                r = x in iterate(st, s) if s is not None else False
                return r != negate
            return member
        cmp = {"<": lambda x, y: x < y, "<=": lambda x, y: x <= y, ">": lambda x, y: x > y,
               ">=": lambda x, y: x >= y}[op]
        return lambda st, fr: cmp(_num(a(st, fr), pos), _num(b(st, fr), pos))

    def x_Phrase(self, e, ctx):
        raise GameFault("a keyword is not a value", e.pos)

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
        ctx.emit(lambda st, fr: vm.menu(st, fr, spec), s.pos)
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


# helpers used by the closures ---------------------------------------------------

def _num(v, pos):
    if type(v) is int or type(v) is bool:
        return int(v)
    if isinstance(v, (int, float)) and type(v) not in (Comp, Seat, Team):
        return int(v)
    if v is None:
        return 0
    raise GameFault(f"expected a number, got {describe(v)}", pos)


_REFERENCES = (Comp, Seat, Team)


def _same(a, b) -> bool:
    """Equality in the rules language: names accent- and case-blind, a component never
    equal to a player or a number, lists equal member by member."""
    ta, tb = type(a), type(b)
    if ta is tb:
        if ta is str:
            return a == b or fold(a) == fold(b)
        if ta is list or ta is tuple:
            return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
        return a == b
    if isinstance(a, str) and isinstance(b, str):
        return a == b or fold(a) == fold(b)
    if ta in _REFERENCES or tb in _REFERENCES or ta is bool or tb is bool:
        return False
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return False


def _index(st, o, k, pos):
    if type(o) is CounterMap:
        cdef = st.g.defn.counters[o.name]
        return st.counters.get(f"{o.name}#{owner_key(o.first)}#{owner_key(k)}", cdef.initial)
    try:
        if isinstance(o, (list, tuple)):
            return o[k - 1] if isinstance(k, int) and k >= 1 else None
        if isinstance(o, dict):
            return o.get(k, o.get(str(k)))
    except (IndexError, TypeError):
        return None
    raise GameFault(f"cannot index {describe(o)}", pos)


def _iter(st, v, pos):
    try:
        return iterate(st, v)
    except TypeError as exc:
        raise GameFault(str(exc), pos) from None


# properties and builtin functions -------------------------------------------------

def _prop_id(st, o, pos):
    if type(o) is Comp:
        return st.g.comp_card[o].id
    return str(o) if o is not None else None


def _prop_title(st, o, pos):
    if type(o) is Comp:
        return st.g.comp_card[o].title
    return vm.label_of(st, o)


def _prop_kind(st, o, pos):
    if type(o) is Comp:
        return st.g.comp_card[o].component
    if type(o) is NodeRef:
        return st.g.nodes[o].get("kind")
    return None


def _prop_zone(st, o, pos):
    if type(o) is Comp:
        return st.where[o]
    raise GameFault(f"{describe(o)} lies in no zone", pos)


def _prop_size(st, o, pos):
    return len(iterate(st, o))


_PROPERTIES = {
    "id": _prop_id,
    "title": _prop_title,
    "kind": _prop_kind,
    "zone": _prop_zone,
    "owner": lambda st, o, pos: vm.owner(st, o),
    "controller": lambda st, o, pos: vm.controller(st, o),
    "tapped": lambda st, o, pos: o in st.tapped,
    "tags": lambda st, o, pos: list(st.tags.get(o, ())),
    "seat": lambda st, o, pos: int(o) + 1 if type(o) is Seat else None,
    "team": lambda st, o, pos: st.team_of(o) if type(o) is Seat else None,
    "neighbors": lambda st, o, pos: [NodeRef(x) for x in st.g.adj.get(o, ())],
    "size": _prop_size,
}


def _numbers(st, pos, v):
    return [_num(x, pos) for x in iterate(st, v)]


def _f_max(st, pos, a, b=_MISSING):
    if b is not _MISSING:
        return max(_num(a, pos), _num(b, pos))
    xs = _numbers(st, pos, a)
    return max(xs) if xs else 0


def _f_min(st, pos, a, b=_MISSING):
    if b is not _MISSING:
        return min(_num(a, pos), _num(b, pos))
    xs = _numbers(st, pos, a)
    return min(xs) if xs else 0


def _f_top(st, pos, z, n=_MISSING):
    items = _iter(st, z, pos)
    if n is _MISSING:
        return items[-1] if items else None
    k = _num(n, pos)
    return list(reversed(items[-k:])) if k > 0 else []


def _f_bottom(st, pos, z, n=_MISSING):
    items = _iter(st, z, pos)
    if n is _MISSING:
        return items[0] if items else None
    k = _num(n, pos)
    return list(items[:k]) if k > 0 else []


def _player(v, pos) -> Seat:
    if type(v) is not Seat:
        raise GameFault(f"expected a player, got {describe(v)}", pos)
    return v


def _f_next(st, pos, p, k=1):
    return Seat((int(_player(p, pos)) + _num(k, pos)) % st.n)


def _f_previous(st, pos, p, k=1):
    return Seat((int(_player(p, pos)) - _num(k, pos)) % st.n)


def _f_partners(st, pos, p):
    t = st.team_of(_player(p, pos))
    return [q for q in st.g.seats[st.n] if st.team_of(q) == t and q != p]


def _f_opponents(st, pos, p):
    t = st.team_of(_player(p, pos))
    return [q for q in st.g.seats[st.n] if st.team_of(q) != t]


def _f_members(st, pos, t):
    if type(t) is Seat:
        t = st.team_of(t)
    return [q for q in st.g.seats[st.n] if st.team_of(q) == t]


def _f_node(st, pos, key):
    k = str(key)
    if k not in st.g.nodes:
        raise GameFault(f"no board node '{k}'", pos)
    return NodeRef(k)


def _f_nodes(st, pos, kind=_MISSING):
    if kind is _MISSING:
        return [NodeRef(k) for k in st.g.nodes]
    return [NodeRef(k) for k, v in st.g.nodes.items() if _same(v.get("kind"), kind)]


def _f_random(st, pos, s):
    items = _iter(st, s, pos)
    if not items:
        return None
    return items[st.rng.below(len(items))]


def _sort_key(v):
    if isinstance(v, (list, tuple)):
        return tuple(_sort_key(x) for x in v)
    if v is None:
        return (0, 0)
    if isinstance(v, (int, float)):
        return (1, v)
    return (2, str(v))


def _f_sorted(st, pos, s, keys=_MISSING):
    items = list(_iter(st, s, pos))
    if keys is _MISSING:
        return sorted(items, key=_sort_key)
    ks = list(_iter(st, keys, pos))
    if len(ks) != len(items):
        raise GameFault("sorted(): the list of keys must be as long as the list", pos)
    order = sorted(range(len(items)), key=lambda i: (_sort_key(ks[i]), i))
    return [items[i] for i in order]


def _f_most(st, pos, s):
    counts: dict = {}
    for x in _iter(st, s, pos):
        counts[x] = counts.get(x, 0) + 1
    if not counts:
        return None
    best = max(counts.values())
    top = [k for k, v in counts.items() if v == best]
    return top[0] if len(top) == 1 else None


def _f_has(st, pos, c, name):
    if type(c) is not Comp:
        return False
    key = fold(str(name))
    canon = st.g.defn.classes.get(key)
    key = fold(canon[1]) if canon else key
    return key in st.g.comp_classes[c] or key in st.tags.get(c, ())


def _f_range(st, pos, a, b=_MISSING):
    if b is _MISSING:
        return list(range(1, _num(a, pos) + 1))
    return list(range(_num(a, pos), _num(b, pos) + 1))


def _f_cards(st, pos, key):
    found = st.g.cards_by_id.get(fold(str(key)))
    if not found:
        raise GameFault(f"no card with id '{key}'", pos)
    return found


def _f_distinct(st, pos, s):
    out = []
    for x in _iter(st, s, pos):
        if x not in out:
            out.append(x)
    return out


_FUNCS = {
    "count": lambda st, pos, s: len(_iter(st, s, pos)),
    "sum": lambda st, pos, s: sum(_numbers(st, pos, s)),
    "max": _f_max,
    "min": _f_min,
    "any": lambda st, pos, s: any(_iter(st, s, pos)),
    "all": lambda st, pos, s: all(_iter(st, s, pos)),
    "first": lambda st, pos, s: (lambda xs: xs[0] if xs else None)(_iter(st, s, pos)),
    "last": lambda st, pos, s: (lambda xs: xs[-1] if xs else None)(_iter(st, s, pos)),
    "top": _f_top,
    "bottom": _f_bottom,
    "abs": lambda st, pos, v: abs(_num(v, pos)),
    "next": _f_next,
    "previous": _f_previous,
    "partners": _f_partners,
    "opponents": _f_opponents,
    "team": lambda st, pos, p: st.team_of(_player(p, pos)),
    "members": _f_members,
    "seat": lambda st, pos, p: int(p) + 1 if type(p) is Team else int(_player(p, pos)) + 1,
    "node": _f_node,
    "nodes": _f_nodes,
    "neighbors": lambda st, pos, n: [NodeRef(x) for x in st.g.adj.get(str(n), ())],
    "linked": lambda st, pos, a, b: str(b) in st.g.adj.get(str(a), ()),
    "zone_of": lambda st, pos, c: st.where[c] if type(c) is Comp else None,
    "holder": lambda st, pos, c: vm.holder(st, c),
    "owner": lambda st, pos, c: vm.owner(st, c),
    "controller": lambda st, pos, c: vm.controller(st, c),
    "option": lambda st, pos, name: st.options.get(str(name)),
    "random": _f_random,
    "sorted": _f_sorted,
    "reversed": lambda st, pos, s: list(reversed(list(_iter(st, s, pos)))),
    "distinct": _f_distinct,
    "most": _f_most,
    "tapped": lambda st, pos, c: c in st.tapped,
    "has": _f_has,
    "label": lambda st, pos, v: vm.label_of(st, v),
    "range": _f_range,
    "in_play": lambda st, pos, p=None: vm.in_play(st, p),
    "supply": lambda st, pos, name: st.counters.get("$" + str(name), 0),
    "card": lambda st, pos, key: _f_cards(st, pos, key)[0],
    "cards": lambda st, pos, key: _f_cards(st, pos, key),
    "select": None,  # compiled specially: only the chosen branch is evaluated
}

assert set(_FUNCS) == set(FUNCTIONS), set(_FUNCS) ^ set(FUNCTIONS)
