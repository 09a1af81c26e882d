"""Expressions compiled to a tree of Python closures: the reference compiler, for tests.

The engine runs expressions compiled to Python source (`compile.expressions`),
with many special cases. This second, plain and independent compiler of the
same checked trees is the reference: a test compares the two on every game
function along random games, so that a mistake in the generated code shows.
It calls the run-time implementation of every built-in (`run` of its record)
and never keeps a result.
"""
from __future__ import annotations

from interpreter.compile.context import ClassName, Computed, Const
from interpreter.engine.library import attribute, counter_key, index, iterate, iterate_at, node_attribute, number, same
from interpreter.engine.state import Frame, GameFault
from interpreter.engine.values import Comp, CounterMap, Team, ZoneRef
from interpreter.language import nodes as N
from interpreter.language.builtins import FUNCTIONS, PROPERTIES
from interpreter.language.visitor import NodeVisitor
from interpreter.names import fold
from interpreter.scopes import OwnerKind

_MISSING = object()
_iter, _num, _same, _index = iterate_at, number, same, index


class ClosureCompiler(NodeVisitor):
    """Compiles expressions of one program (engine.program.Program) to closures."""

    def __init__(self, program):
        self.program = self.cg = program
        self.g = program.defn
        self.bodies: dict = {}  # game function -> [its body as a closure]

    def closure(self, e, ctx):
        """The same expression as a tree of closures (kept to cross-check the generated code)."""
        return self.visit(e, ctx)

    def generic_visit(self, e, ctx):
        raise AttributeError(f"no closure for {type(e).__name__}")

    def visit_Number(self, e, ctx):
        v = e.value
        return lambda st, fr: v

    def visit_String(self, e, ctx):
        v = e.value
        return lambda st, fr: v

    def visit_Bool(self, e, ctx):
        v = e.value
        return lambda st, fr: v

    def visit_NoneLit(self, e, ctx):
        return lambda st, fr: None

    def visit_Condition(self, e, ctx):
        return self.closure(e.expr, ctx)

    def visit_Name(self, e, ctx):
        n = e.name
        pos = e.pos
        if n in ctx.consts:
            bound = ctx.consts[n]
            if isinstance(bound, Const):
                return lambda st, fr: bound.value
            if isinstance(bound, ClassName):
                return lambda st, fr: bound.key
            if isinstance(bound, Computed):
                return bound.fn  # compiled in the card's context
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
            return lambda st, fr: st.program.seats[st.n]
        if n == "teams":
            return lambda st, fr: tuple(Team(i) for i in range(len(st.program.teams_for(st.n))))
        if n == "player_count":
            return lambda st, fr: st.n
        g = self.g
        if n in g.zones and g.zones[n].scope.is_game:
            z = ZoneRef(n)
            return lambda st, fr: z
        if n in g.counters and g.counters[n].scope.is_game:
            cdef = g.counters[n]
            init = cdef.initial
            return lambda st, fr: st.counters.get(n, init)
        key = fold(n)
        if key in g.classes:
            cls = fold(g.classes[key][1])
            return lambda st, fr: cls
        raise GameFault(f"unknown name '{n}'", pos)

    def visit_Attr(self, e, ctx):
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
            from interpreter.engine.library import zone_key
            team_scoped = g.zones[n].scope.kind is OwnerKind.TEAM
            return lambda st, fr: zone_key(st, obj(st, fr), zname, team_scoped, pos)
        if n in g.counters:
            cdef = g.counters[n]
            if cdef.scope.is_pair:
                return lambda st, fr: CounterMap(n, obj(st, fr))
            team_scoped = cdef.scope.kind is OwnerKind.TEAM

            def keyf(st, fr):
                return counter_key(st, obj(st, fr), n, team_scoped, pos)
            init = cdef.initial
            return lambda st, fr: st.counters.get(keyf(st, fr), init)
        if n in g.attributes:
            attr_values = self.cg.comp_attrs.get(n)
            return lambda st, fr: attribute(st, obj(st, fr), n, attr_values, pos)
        prop = PROPERTIES.get(n)
        if prop is not None:
            run = prop.run
            return lambda st, fr: run(st, obj(st, fr), pos)
        return lambda st, fr: node_attribute(st, obj(st, fr), n, pos)

    def visit_Index(self, e, ctx):
        obj = self.closure(e.obj, ctx)
        key = self.closure(e.key, ctx)
        pos = e.pos
        return lambda st, fr: _index(st, obj(st, fr), key(st, fr), pos)

    def visit_Call(self, e, ctx):
        if e.func == "select":
            test, yes, no = (self.closure(a, ctx) for a in e.args)
            return lambda st, fr: yes(st, fr) if test(st, fr) else no(st, fr)
        if e.func not in FUNCTIONS:
            return self.user_call(e, ctx)
        impl = FUNCTIONS[e.func].run
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
        """A call of a function the game defines: its body, compiled to closures too, runs in a
        frame of its own with the arguments bound. No result is kept: a reference recomputes."""
        from interpreter.compile.context import Ctx
        from interpreter.engine.code import Code
        f = self.g.functions[e.func]
        cell = self.bodies.get(f.name)
        if cell is None:  # a one-cell list, filled once: functions may call each other in any order
            cell = self.bodies[f.name] = [None]
            cell[0] = self.closure(f.tree, Ctx(Code(f"function:{f.name}", "function"), locals_=f.params))
        args = [self.closure(a, ctx) for a in e.args]
        params, pos = f.params, e.pos

        def call(st, fr):
            values = tuple(a(st, fr) for a in args)
            try:
                return cell[0](st, Frame(None, 0, dict(zip(params, values)), fr.me, fr.you))
            except RecursionError:
                raise GameFault(f"function '{f.name}' calls itself without end", pos) from None
        return call

    def visit_ListLit(self, e, ctx):
        if len(e.items) == 1 and isinstance(e.items[0], (N.Each, N.Mapped)):
            return self.closure(e.items[0], ctx)  # [each x in S where C] is the list itself
        items = [self.closure(i, ctx) for i in e.items]
        return lambda st, fr: [i(st, fr) for i in items]

    def _binder(self, var, source, where, ctx):
        ctx.locals.add(var)
        src = self.closure(source, ctx)
        cond = self.closure(where, ctx) if where is not None else None
        return src, cond

    def visit_Each(self, e, ctx):
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

    def visit_Mapped(self, e, ctx):
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

    def visit_BinOp(self, e, ctx):
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

    def visit_Neg(self, e, ctx):
        a = self.closure(e.operand, ctx)
        pos = e.pos
        return lambda st, fr: -_num(a(st, fr), pos)

    def visit_Not(self, e, ctx):
        a = self.closure(e.operand, ctx)
        return lambda st, fr: not a(st, fr)

    def visit_BoolOp(self, e, ctx):
        a, b = self.closure(e.left, ctx), self.closure(e.right, ctx)
        if e.op == "and":
            return lambda st, fr: bool(a(st, fr) and b(st, fr))
        return lambda st, fr: bool(a(st, fr) or b(st, fr))

    def visit_Compare(self, e, ctx):
        op, pos = e.op, e.pos
        a = self.closure(e.left, ctx)
        if op in ("is", "isnot"):
            cls = self.program.compiler.gen.class_key(e.right, ctx)
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

    def visit_Phrase(self, e, ctx):
        raise GameFault("a keyword is not a value", e.pos)
