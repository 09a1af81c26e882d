"""Expressions compiled to Python source, then to Python functions.

The checked tree of an expression is turned into the text of one Python
expression, compiled once per pack with `compile()`: no tree is walked while
playing, the locals of comprehensions and of game functions are real Python
locals, and game functions become Python functions. Only our own code is
written this way: every name of the content becomes a generated identifier
(`v3`), and every text of the content enters the source through `repr`, so no
content is ever executed as Python.
"""
from __future__ import annotations

from . import nodes as N
from . import vm
from .names import fold
from .state import GameFault, describe
from .values import Comp, CounterMap, NodeRef, Seat, Team, ZoneRef, owner_key


class Source:
    """The namespace the generated code runs in, and the constants it names."""

    def __init__(self, base: dict):
        self.ns = dict(base)
        self.count = 0

    def const(self, value, prefix="K") -> str:
        self.count += 1
        name = f"{prefix}{self.count}"
        self.ns[name] = value
        return name


class Scope:
    """Python locals visible at a point of an expression: content name -> identifier."""

    def __init__(self, names=None):
        self.names = dict(names or {})

    def bind(self, src: Source, name: str) -> tuple["Scope", str]:
        src.count += 1
        ident = f"v{src.count}"
        inner = Scope(self.names)
        inner.names[name] = ident
        return inner, ident


NUMERIC_CALLS = {"count", "sum", "max", "min", "abs", "seat"}


class ExprGen:
    """Writes the Python source of expressions of one compiled game."""

    def __init__(self, compiler, src: Source):
        self.c = compiler          # interpreter.compiler.Compiler
        self.cg = compiler.cg
        self.g = compiler.g
        self.src = src

    # entry points ---------------------------------------------------------------
    def function(self, e, ctx):
        """A Python function (st, fr) -> value computing expression `e`."""
        text = self.gen(e, ctx, Scope())
        code = compile(f"lambda st, fr: {text}", f"<expr {e.pos}>", "eval")
        return eval(code, self.src.ns)  # noqa: S307 - our generated source, content only via repr

    def game_function(self, name: str, f, pure: bool, contextual: bool, static: bool = False):
        """A game function as a Python function (st, fr, *args). A pure function keeps its
        results until the state changes; a static one (see CompiledGame.function_is_static)
        all game long."""
        scope = Scope()
        params = []
        for p in f.params:
            scope, ident = scope.bind(self.src, p)
            params.append(ident)
        from .compiler import Ctx, Code
        ctx = Ctx(self.cg, Code(f"function:{name}", "function"), locals_=())
        body = self.gen(f.tree, ctx, scope)
        sig = ", ".join(["st", "fr", *params])
        key = f"({name!r}, {', '.join(params)}{',' if len(params) == 1 else ''}" + (", fr.me, fr.you)" if contextual else ")")
        if static:
            lines = [f"def fn({sig}):",
                     f"    key = {key}",
                     "    try:",
                     "        return st.static[key]",
                     "    except KeyError:",
                     "        pass",
                     "    except TypeError:",
                     f"        return {body}",
                     f"    r = {body}",
                     "    st.static[key] = tuple(r) if type(r) is list else r",
                     "    return r"]
        elif pure:
            lines = [f"def fn({sig}):",
                     "    if st.memo_version != st.version:",
                     "        st.memo.clear()",
                     "        st.memo_version = st.version",
                     f"    key = {key}",
                     "    try:",
                     "        return st.memo[key]",
                     "    except KeyError:",
                     "        pass",
                     "    except TypeError:",
                     f"        return {body}",
                     f"    r = {body}",
                     "    st.memo[key] = tuple(r) if type(r) is list else r",
                     "    return r"]
        else:
            lines = [f"def fn({sig}):", f"    return {body}"]
        ns = self.src.ns
        exec(compile("\n".join(lines), f"<function {name}>", "exec"), ns)  # noqa: S102 - generated source
        return ns.pop("fn")

    # the generator --------------------------------------------------------------
    def gen(self, e, ctx, sc: Scope) -> str:
        return getattr(self, "g_" + type(e).__name__)(e, ctx, sc)

    def pos(self, e) -> str:
        return self.src.const(e.pos, "P")

    def g_Condition(self, e, ctx, sc):
        return self.gen(e.expr, ctx, sc)

    def g_Number(self, e, ctx, sc):
        return repr(int(e.value))

    def g_String(self, e, ctx, sc):
        return repr(str(e.value))

    def g_Bool(self, e, ctx, sc):
        return "True" if e.value else "False"

    def g_NoneLit(self, e, ctx, sc):
        return "None"

    def g_Name(self, e, ctx, sc):
        n = e.name
        if n in sc.names:
            return sc.names[n]
        if n in ctx.consts:
            kind, value = ctx.consts[n][0], ctx.consts[n][1]
            if kind == "const":
                return repr(value) if isinstance(value, (int, str)) and not isinstance(value, bool) else self.src.const(value)
            if kind == "class":
                return repr(value)
            if kind == "expr":
                return f"{self.src.const(value)}(st, fr)"
        if n in ctx.locals:
            return f"fr.env[{n!r}]"
        if n == "self":
            return "fr.me"
        if n == "you":
            return "fr.you"
        if n == "cause":
            return "fr.env.get('cause')"
        if n == "players":
            return "st.g.seats[st.n]"
        if n == "teams":
            return "R_teams(st)"
        if n == "player_count":
            return "st.n"
        g = self.g
        if n in g.zones and g.zones[n].scope == ("game",):
            return self.src.const(ZoneRef(n))
        if n in g.counters and g.counters[n].scope == ("game",):
            return f"st.counters.get({n!r}, {g.counters[n].initial!r})"
        key = fold(n)
        if key in g.classes:
            return repr(fold(g.classes[key][1]))
        raise GameFault(f"unknown name '{n}'", e.pos)

    def g_Attr(self, e, ctx, sc):
        g = self.g
        n = e.name
        if isinstance(e.obj, N.Name) and e.obj.name in ("options", "data") and e.obj.name not in ctx.locals \
                and e.obj.name not in sc.names:
            if e.obj.name == "options":
                return f"st.options.get({n!r})"
            return self.src.const(self.cg.data.get(n))
        obj = self.gen(e.obj, ctx, sc)
        p = self.pos(e)
        if n in g.zones:
            return f"R_zone(st, {obj}, {n!r}, {g.zones[n].scope[0] == 'team'}, {p})"
        if n in g.counters:
            cdef = g.counters[n]
            if len(cdef.scope) == 2:
                return f"R_cmap({n!r}, {obj})"
            return f"st.counters.get(R_ckey(st, {obj}, {n!r}, {cdef.scope[0] == 'team'}, {p}), {cdef.initial!r})"
        if n in g.attributes:
            values = self.src.const(self.cg.comp_attrs.get(n), "A")
            return f"R_attr(st, {obj}, {n!r}, {values}, {p})"
        from .library import _PROPERTIES
        if n in _PROPERTIES:
            return f"{self.src.const(_PROPERTIES[n], 'Q')}(st, {obj}, {p})"
        return f"R_node_attr(st, {obj}, {n!r}, {p})"

    def g_Index(self, e, ctx, sc):
        return f"R_index(st, {self.gen(e.obj, ctx, sc)}, {self.gen(e.key, ctx, sc)}, {self.pos(e)})"

    def g_Call(self, e, ctx, sc):
        args = [self.gen(a, ctx, sc) for a in e.args]
        if e.func == "select":
            return f"({args[1]} if {args[0]} else {args[2]})"
        if e.func == "count" and len(args) == 1:
            return f"len(R_it(st, {args[0]}, {self.pos(e)}))"
        if e.func in self.g.functions and e.func not in self.c.builtin_names:
            self.cg.python_function(e.func)
            return f"FN[{e.func!r}](st, fr{''.join(', ' + a for a in args)})"
        impl = self.c.builtin(e.func)
        return f"{self.src.const(impl, 'F')}(st, {self.pos(e)}{''.join(', ' + a for a in args)})"

    def g_ListLit(self, e, ctx, sc):
        if len(e.items) == 1 and isinstance(e.items[0], (N.Each, N.Mapped)):
            return self.gen(e.items[0], ctx, sc)
        return "[" + ", ".join(self.gen(i, ctx, sc) for i in e.items) + "]"

    def g_Each(self, e, ctx, sc):
        source = self.gen(e.source, ctx, sc)
        inner, v = sc.bind(self.src, e.var)
        cond = f" if {self.gen(e.where, ctx, inner)}" if e.where is not None else ""
        return f"[{v} for {v} in R_it(st, {source}, {self.pos(e)}){cond}]"

    def g_Mapped(self, e, ctx, sc):
        source = self.gen(e.source, ctx, sc)
        inner, v = sc.bind(self.src, e.var)
        cond = f" if {self.gen(e.where, ctx, inner)}" if e.where is not None else ""
        return f"[{self.gen(e.expr, ctx, inner)} for {v} in R_it(st, {source}, {self.pos(e)}){cond}]"

    def numeric(self, e, ctx=None) -> bool:
        """Whether `e` is surely a number, so that plain Python arithmetic applies."""
        if isinstance(e, N.Number):
            return True
        if isinstance(e, N.BinOp) and e.op != "+":
            return True
        if isinstance(e, N.BinOp):
            return self.numeric(e.left) and self.numeric(e.right)
        if isinstance(e, N.Neg):
            return True
        if isinstance(e, N.Call) and e.func in NUMERIC_CALLS and e.func not in self.g.functions:
            return True
        if isinstance(e, N.Attr) and e.name in self.g.counters and len(self.g.counters[e.name].scope) == 1:
            return True
        if isinstance(e, N.Index) and isinstance(e.obj, N.Attr) and e.obj.name in self.g.counters:
            return True
        if isinstance(e, N.Name) and e.name in self.g.counters and self.g.counters[e.name].scope == ("game",):
            return True
        if ctx is not None and isinstance(e, N.Name) and e.name in ctx.consts and ctx.consts[e.name][0] == "const" \
                and isinstance(ctx.consts[e.name][1], int):
            return True
        return False

    def num(self, e, ctx, sc) -> str:
        text = self.gen(e, ctx, sc)
        return text if self.numeric(e, ctx) else f"R_num({text}, {self.pos(e)})"

    def g_BinOp(self, e, ctx, sc):
        if e.op == "+" and not (self.numeric(e.left, ctx) and self.numeric(e.right, ctx)):
            return f"R_plus(st, {self.gen(e.left, ctx, sc)}, {self.gen(e.right, ctx, sc)}, {self.pos(e)})"
        a, b = self.num(e.left, ctx, sc), self.num(e.right, ctx, sc)
        if e.op in ("+", "-", "*"):
            return f"({a} {e.op} {b})"
        return f"R_div({a}, {b}, {e.op == '/'}, {self.pos(e)})"

    def g_Neg(self, e, ctx, sc):
        return f"(-{self.num(e.operand, ctx, sc)})"

    def g_Not(self, e, ctx, sc):
        return f"(not {self.gen(e.operand, ctx, sc)})"

    def g_BoolOp(self, e, ctx, sc):
        return f"bool({self.gen(e.left, ctx, sc)} {e.op} {self.gen(e.right, ctx, sc)})"

    def g_Compare(self, e, ctx, sc):
        op = e.op
        if op in ("is", "isnot"):
            cls = None
            if not (isinstance(e.right, N.Name) and e.right.name in sc.names):
                cls = self.c.class_key(e.right, ctx)
            left = self.gen(e.left, ctx, sc)
            if cls is not None:
                test = f"R_is(st, {left}, {cls!r})"
                return test if op == "is" else f"(not {test})"
            same = f"R_same({left}, {self.gen(e.right, ctx, sc)})"
            return same if op == "is" else f"(not {same})"
        if op in ("==", "!="):
            if self.numeric(e.left, ctx) and self.numeric(e.right, ctx):
                return f"({self.gen(e.left, ctx, sc)} {op} {self.gen(e.right, ctx, sc)})"
            same = f"R_same({self.gen(e.left, ctx, sc)}, {self.gen(e.right, ctx, sc)})"
            return same if op == "==" else f"(not {same})"
        if op in ("in", "notin"):
            test = f"R_member(st, {self.gen(e.left, ctx, sc)}, {self.gen(e.right, ctx, sc)}, {self.pos(e)})"
            return test if op == "in" else f"(not {test})"
        return f"({self.num(e.left, ctx, sc)} {op} {self.num(e.right, ctx, sc)})"

    def g_Phrase(self, e, ctx, sc):
        raise GameFault("a keyword is not a value", e.pos)


# run-time helpers named by the generated code ------------------------------------

def _zone(st, o, name, team_scoped, pos):
    if not team_scoped:
        z = st.g.zone_refs.get((name, type(o), o))
        if z is not None:
            return z
    if o is None:
        raise GameFault(f"'{name}' of none", pos)
    if team_scoped and type(o) is Seat:
        o = st.team_of(o)
    z = ZoneRef(f"{name}#{owner_key(o)}")
    if not team_scoped:
        st.g.zone_refs[(name, type(o), o)] = z  # keys of player, node and component zones, made once
    return z


def _ckey(st, o, name, team_scoped, pos):
    if o is None:
        raise GameFault(f"counter '{name}' of none", pos)
    if team_scoped and type(o) is Seat:
        o = st.team_of(o)
    return f"{name}#{owner_key(o)}"


_MISSING = object()


def _attr(st, o, name, values, pos):
    t = type(o)
    if t is Comp:
        if st.over:
            v = st.over.get((o, name), _MISSING)
            if v is not _MISSING:
                return v
        return values[o]
    if t is NodeRef:
        return st.g.nodes[o].get(name)
    if o is None:
        return None
    raise GameFault(f"{describe(o)} has no attribute '{name}'", pos)


def _node_attr(st, o, name, pos):
    if type(o) is NodeRef:
        return st.g.nodes[o].get(name)
    raise GameFault(f"{describe(o)} has no attribute '{name}'", pos)


def _is(st, x, cls):
    if type(x) is not Comp:
        return False
    return cls in st.g.comp_classes[x] or cls in st.tags.get(x, ())


def _member(st, x, s, pos):
    if s is None:
        return False
    from .library import iterate
    try:
        return x in iterate(st, s)
    except TypeError as exc:
        raise GameFault(str(exc), pos) from None


_SEQUENCES = (list, tuple, ZoneRef)


def _plus(st, a, b, pos):
    """Numbers add up; lists and zones join into one list."""
    if isinstance(a, _SEQUENCES) and isinstance(b, _SEQUENCES):
        from .library import iterate
        return list(iterate(st, a)) + list(iterate(st, b))
    from .library import _num
    return _num(a, pos) + _num(b, pos)


def _div(a, b, floor, pos):
    if b == 0:
        raise GameFault("division by zero", pos)
    return a // b if floor else a % b


def _teams(st):
    return tuple(Team(i) for i in range(len(st.g.teams_for(st.n))))


def base_namespace() -> dict:
    from .library import _iter, _num, _same
    return {
        "__builtins__": {"len": len, "bool": bool, "tuple": tuple, "list": list, "type": type,
                         "KeyError": KeyError, "TypeError": TypeError},
        "R_it": _iter, "R_num": _num, "R_same": _same, "R_zone": _zone, "R_ckey": _ckey, "R_attr": _attr,
        "R_node_attr": _node_attr, "R_is": _is, "R_member": _member, "R_plus": _plus, "R_div": _div,
        "R_teams": _teams, "R_cmap": CounterMap, "R_index": None, "vm": vm,
    }
