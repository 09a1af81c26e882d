"""Expressions compiled to Python source, then to Python functions.

The checked tree of an expression is turned into the text of one Python
expression, compiled once per pack with `compile()`: no tree is walked while
playing, the locals of comprehensions and of game functions are real Python
locals, and game functions become Python functions. Only our own code is
written this way: every name of the content becomes a generated identifier
(`v3`), and every text of the content enters the source through `repr`, so no
content is ever executed as Python.

The common reads are written inline (a zone, counter, attribute or class of a
local; a comparison of components or of class names; a cheap game function's
body), with the helpers of `runtime` for the general case. A game function
keeps its results while the parts of the state it reads stand still
(`CompiledGame.function_reads`).
"""
from __future__ import annotations

import ast
import re

from ..language import nodes as N
from ..names import fold
from ..scopes import OwnerKind
from ..engine.state import GameFault
from ..engine.code import Code, CodeKind
from ..engine import keys
from ..engine.values import Comp, NodeRef, Seat, ZoneRef
from ..language.builtins import CONTEXT_NAMES, FUNCTIONS, PROPERTIES, SPECIAL_NAMES
from ..language.types import COUNTER, LIST, NUMBER
from ..language.visitor import NodeVisitor
from ..language.written import written
from . import kept_lists
from .warm import compiled
from .context import ClassName, Computed, Const, Ctx


class Source:
    """The namespace the generated code runs in, and the constants it names."""

    def __init__(self, base: dict):
        self.ns = dict(base)
        self.count = 0
        self.comp_idents: set = set()  # identifiers that surely hold a component (members of a zone)
        self.tables: dict = {}  # (what, name) -> identifier of a key table made once

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


# cheap game functions written inline one inside another at most (each adds parentheses to
# the source, of which Python reads 200 levels at most; the others are called)
MAX_INLINED = 8

_NUMBERS = frozenset({NUMBER, COUNTER})  # the checker's types of whole numbers
MAX_SAID = 60  # characters of an expression a message of the game quotes

# generated text that may be evaluated twice at little cost and with no effect:
# a local (of a comprehension or of the running procedure), or the component or
# player a frame acts for
_SIMPLE = re.compile(r"(v\d+|fr\.me|fr\.you|fr\.env\['[A-Za-z_][\w]*'\])\Z")
# the owner types of a pair's halves, as the generated source names them (teams: no table)
_OWNER_TYPES = {OwnerKind.PLAYER: "Seat", OwnerKind.NODE: "NodeRef", OwnerKind.COMPONENT: "Comp"}
NUMBER_COMPARES = True  # False: a number compared with a value of unknown type always the general way
MAX_PAIR_TABLE = 100_000  # keys of one counter kept per pair made ahead; a larger one builds them as it goes
_CONSTANT = re.compile(r"(-?\d+|[KT]\d+|None|True|False|'[\w ]*')\Z")


def _literal(text: str) -> bool:
    """Whether Python may read generated expression `text` as a constant (a number, a text, a sum
    of numbers), which it warns of comparing with `is`: there is no name, call or attribute in it."""
    return not any(isinstance(n, (ast.Name, ast.Call, ast.Attribute)) for n in ast.walk(ast.parse(text, mode="eval")))


class ExprGen(NodeVisitor):
    """Writes the Python source of expressions of one compiled game: `visit(e, ctx, scope)`
    is the source of `e`, written by the `visit_` method of its class (language.visitor)."""

    # every expression has its method: none is compiled by walking its children
    GENERIC = frozenset()

    def __init__(self, program, analysis, src: Source):
        self.program = program  # the tables of the compiled game (engine.program, filled by compile.program)
        self.defn = program.defn
        self.analysis = analysis
        self.types = program.found.types  # the checker's type of each expression (language.checker)
        self.src = src
        self.inlining: set = set()  # game functions being written inline
        self.building: set = set()  # game functions compiled to Python functions, or to be
        self.waiting: list = []  # game functions to compile, the first being compiled

    # entry points ---------------------------------------------------------------
    def function(self, e, ctx):
        """A Python function (st, fr) -> value computing expression `e`."""
        text = self.gen(e, ctx, Scope())
        code = compiled(f"lambda st, fr: {text}", f"<expr {e.pos}>", "eval")
        return eval(code, self.src.ns)  # noqa: S307 - our generated source, content only via repr

    def members_where(self, var: str, source, where, ctx, pos):
        """A Python function (st, fr) -> the members of `source` for which `where` holds,
        `var` naming each in turn (the candidates of a choice or of a menu's option)."""
        src = self.gen(source, ctx, Scope())
        inner, v = Scope().bind(self.src, var)
        if self.components(source, ctx, Scope()):
            self.src.comp_idents.add(v)
        # its size taken from the budget of work
        members = f"{self.iterator(source, ctx, Scope())}(st, {src}, {self.src.const(pos, 'P')})"
        if where is None:
            text = f"list({members})"
        else:
            text = f"[{v} for {v} in {members} if {self.test(where, ctx, inner)}]"
        code = compiled(f"lambda st, fr: {text}", f"<expr {source.pos}>", "eval")
        return eval(code, self.src.ns)  # noqa: S307 - our generated source, content only via repr

    def game_function(self, name: str) -> None:
        """Compile game function `name` to a Python function, `FN[name]`, once. The functions
        it calls are compiled after it, not inside it (the code calls them by name): a chain of
        calls, however long, is never compiled by recursion."""
        fns = self.src.ns["FN"]
        if name in fns or name in self.building:
            return
        self.building.add(name)
        self.waiting.append(name)
        if len(self.waiting) > 1:
            return  # another is being compiled: this one follows
        while self.waiting:
            name = self.waiting[0]
            pure, contextual = self.analysis.function_traits(name)
            static = pure and not contextual and self.analysis.function_is_static(name)
            fns[name] = self.python_function(name, self.defn.functions[name], pure, contextual, static)
            self.waiting.pop(0)

    def python_function(self, name: str, f, pure: bool, contextual: bool, static: bool = False):
        """A game function as a Python function (st, fr, *args). A pure function keeps its
        results until the state changes; a static one (see Analysis.function_is_static)
        all game long."""
        scope = Scope()
        params = []
        for p in f.params:
            scope, ident = scope.bind(self.src, p)
            params.append(ident)
        ctx = Ctx(Code(f"function:{name}", CodeKind.FUNCTION), locals_=())
        body = self.gen(f.tree, ctx, scope)
        sig = ", ".join(["st", "fr", *params])
        # each argument with its type: a player, a component, a truth value and a number of the
        # same value are equal keys to Python, and not the same value to the rules
        typed = [f"{x}, type({x})" for x in params]
        parts = [repr(name), *typed, *(["fr.me", "fr.you"] if contextual else [])]
        key = f"({', '.join(parts)},)"
        ew = self.analysis.element_wise(name) if pure and not static and kept_lists.ENABLED else None
        if ew is not None:
            inner, v = scope.bind(self.src, ew.var)
            if self.components(ew.source, ctx, scope):
                self.src.comp_idents.add(v)
            lines = kept_lists.kept_lines(name, ew, sig, params, body, self.gen(ew.source, ctx, scope),
                                          self.test(ew.where, ctx, inner), self.src.const(ew.source.pos, "P"), v)
            kept_lists.watch(self.program, name, ew)
        elif static:
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
            # results are kept while the parts of the state the function reads stand still
            # (each version only grows, so their sum changes when one of them does)
            stamp = " + ".join(sorted(self.analysis.function_reads(name))) or "0"
            lines = [f"def fn({sig}):",
                     f"    m = st.memo.get({name!r})",
                     f"    s = {stamp}",
                     "    if m is None or m[0] != s:",
                     f"        m = st.memo[{name!r}] = (s, {{}})",
                     "    d = m[1]",
                     f"    key = {key}",
                     "    try:",
                     "        return d[key]",
                     "    except KeyError:",
                     "        pass",
                     "    except TypeError:",
                     f"        return {body}",
                     f"    r = {body}",
                     "    d[key] = tuple(r) if type(r) is list else r",
                     "    return r"]
        elif self.recursive(name):
            # each call of a function that may call itself is a unit of work: calls that
            # branch out (f(n - 1) + f(n - 1)) cannot run away
            lines = [f"def fn({sig}):",
                     "    st.fuel -= 1",
                     f"    if st.fuel < 0: R_runaway(st, {self.src.const(f.tree.pos, 'P')})",
                     f"    return {body}"]
        else:
            lines = [f"def fn({sig}):", f"    return {body}"]
        ns = self.src.ns
        exec(compiled("\n".join(lines), f"<function {name}>", "exec"), ns)  # noqa: S102 - generated source
        return ns.pop("fn")

    def recursive(self, name: str) -> bool:
        """Whether game function `name` may call itself, directly or through others."""
        functions = self.defn.functions
        todo, seen = [name], set()
        while todo:
            for n in N.walk(functions[todo.pop()].tree):
                if isinstance(n, N.Call) and n.func in functions:
                    if n.func == name:
                        return True
                    if n.func not in seen:
                        seen.add(n.func)
                        todo.append(n.func)
        return False

    # specialisations ----------------------------------------------------------
    # The common reads (a zone, a counter, an attribute or a class of a component)
    # are written inline when the owner is a plain local: a type test and a table
    # indexed by the component or seat, with the general helper as the fallback.
    def table(self, what: str, name: str, build) -> str:
        key = (what, name)
        ident = self.src.tables.get(key)
        if ident is None:
            ident = self.src.tables[key] = self.src.const(build(), "T")
        return ident

    def owner_table(self, prefix: str, kind: OwnerKind):
        """(type name, table) of the keys `prefix#owner` for one kind of owner, or None."""
        program = self.program
        if kind is OwnerKind.PLAYER:
            return "Seat", self.table("keys", f"{prefix}|player",
                                      lambda: tuple(keys.seat_key(prefix, i) for i in range(self.defn.max_players)))
        if kind is OwnerKind.NODE:
            return "NodeRef", self.table("keys", f"{prefix}|node", lambda: {k: keys.key(prefix, NodeRef(k)) for k in program.nodes})
        if kind in (OwnerKind.GAME, OwnerKind.TEAM):
            return None
        return "Comp", self.table("keys", f"{prefix}|comp",
                                  lambda: tuple(keys.key(prefix, Comp(i)) for i in range(len(program.comp_card))))

    def node_read(self, table: str, obj: str) -> str:
        """Source reading the entry of a node in `table` (keyed by node id), or None when
        `obj` is none of them: a value that is no key (a list) is not looked up."""
        return f"({table}.get({obj}) if type({obj}) is NodeRef or type({obj}) is str else None)"

    def counter_key(self, obj: str, cdef, p: str, said: str = "None") -> str:
        """Source of the key of counter `cdef` of the owner `obj` gives (`said`: the source of
        the owner's text, for the message when it has none)."""
        general = f"R_ckey(st, {obj}, {cdef.name!r}, {cdef.scope.kind is OwnerKind.TEAM}, {p}, {said})"
        tab = self.owner_table(cdef.name, cdef.scope.kind) if _SIMPLE.match(obj) else None
        if tab is not None and tab[0] == "NodeRef":
            return f"({self.node_read(tab[1], obj)} or {general})"
        if tab is not None and tab[0] == "Comp" and obj in self.src.comp_idents:
            return f"{tab[1]}[{obj}]"
        if tab is not None:
            return f"({tab[1]}[{obj}] if type({obj}) is {tab[0]} else {general})"
        return general

    def pair_key(self, cdef, first: str, second: str) -> str:
        """Source of the key of counter `cdef`, kept per pair of owners, of `first` and `second`:
        read from a table made once when both are plain locals of the owners' types, the key
        built at run time otherwise (keys.pair_key, the one way keys are made)."""
        general = f"R_pkey({cdef.name!r}, {first}, {second})"
        if not (_SIMPLE.match(first) and _SIMPLE.match(second)):
            return general
        types = [_OWNER_TYPES.get(half.kind) for half in cdef.scope.halves]
        owners = [self.owners(half.kind) for half in cdef.scope.halves]
        if None in types or None in owners or len(owners[0]) * len(owners[1]) > MAX_PAIR_TABLE:
            return general
        table = self.table("pairs", cdef.name, lambda: {(a, b): keys.pair_key(cdef.name, a, b)
                                                        for a in owners[0] for b in owners[1]})
        # exact types: a seat and a component of the same number are equal ints, and hash alike
        return (f"(({table}.get(({first}, {second})) or {general}) "
                f"if type({first}) is {types[0]} and type({second}) is {types[1]} else {general})")

    def owners(self, kind: OwnerKind):
        """Every owner of a kind, as values, for a table of keys; None for teams (a team's owner
        part is its number, which the tables of seats would confuse) and the game."""
        if kind is OwnerKind.PLAYER:
            return [Seat(i) for i in range(self.defn.max_players)]
        if kind is OwnerKind.NODE:
            return [NodeRef(k) for k in self.program.nodes]
        if kind is OwnerKind.COMPONENT:
            return [Comp(i) for i in range(len(self.program.comp_card))]
        return None

    def zone_source(self, e, ctx, sc) -> bool:
        """Whether expression `e` surely gives a zone (so iterating it reads the zone's list)."""
        if isinstance(e, N.Attr) and e.name in self.defn.zones and not (
                isinstance(e.obj, N.Name) and e.obj.name in ("options", "data")):
            return True
        return isinstance(e, N.Name) and e.name not in sc.names and e.name not in ctx.locals \
            and e.name not in ctx.consts and e.name in self.defn.zones and self.defn.zones[e.name].scope.is_game

    def components(self, e, ctx, sc, seen=()) -> bool:
        """Whether iterating `e` surely gives components only: a zone, what is in play,
        or a comprehension or game function made of them."""
        if self.zone_source(e, ctx, sc):
            return True
        if isinstance(e, N.Call) and e.func in FUNCTIONS and FUNCTIONS[e.func].components:
            return True
        if isinstance(e, N.Each):
            return self.components(e.source, ctx, sc, seen)
        if isinstance(e, N.BinOp) and e.op == "+":
            return self.components(e.left, ctx, sc, seen) and self.components(e.right, ctx, sc, seen)
        if isinstance(e, N.ListLit) and len(e.items) == 1 and isinstance(e.items[0], N.Each):
            return self.components(e.items[0], ctx, sc, seen)
        if isinstance(e, N.Call) and e.func in self.defn.functions and e.func not in seen:
            f = self.defn.functions[e.func]
            body = f.tree.expr if isinstance(f.tree, N.Condition) else f.tree
            # the function's own names mean nothing here: only its shape counts
            return self.components(body, Ctx(Code("shape", CodeKind.FUNCTION), locals_=f.params),
                                  Scope({p: "?" for p in f.params}), (*seen, e.func))
        return False

    def members(self, e, ctx, sc) -> str:
        """Python source iterating the members of set-like expression `e`, their number taken
        from the budget of work (interpreter.limits): nested comprehensions cannot run away."""
        return f"{self.iterator(e, ctx, sc)}(st, {self.gen(e, ctx, sc)}, {self.pos(e)})"

    def iterator(self, e, ctx, sc) -> str:
        """The run-time helper that iterates `e`: a zone's key needs no test of what it is."""
        return "R_itz" if self.zone_source(e, ctx, sc) else "R_it"

    def sequence(self, e) -> bool:
        """Whether `e` surely gives a list or a tuple (so iterating it needs no test): the
        checker's type of it says so."""
        return self.types.get(e) == LIST

    def is_class(self, left: str, cls: str) -> str:
        if not _SIMPLE.match(left):
            return f"R_is(st, {left}, {cls!r})"
        flags = self.table("class", cls, lambda: tuple(cls in k for k in self.program.comp_classes))
        if left in self.src.comp_idents:
            if cls in self.analysis.tagged_classes():
                return f"({flags}[{left}] or {cls!r} in st.tags.get({left}, ()))"
            return f"{flags}[{left}]"
        if cls in self.analysis.tagged_classes():
            return f"(type({left}) is Comp and ({flags}[{left}] or {cls!r} in st.tags.get({left}, ())))"
        return f"(type({left}) is Comp and {flags}[{left}])"

    def canon_names(self) -> str:
        return self.table("canon", "", lambda: frozenset(c[1] for c in self.defn.classes.values()))

    def canonical(self, e) -> bool:
        """Whether `e` surely gives a class name in its declared spelling, or none."""
        defn = self.defn
        if isinstance(e, N.Attr) and e.name in defn.attributes and defn.attributes[e.name].type == "class":
            # components give declared spellings (set canonicalises them); a board node might not
            return not any(e.name in attrs for attrs in self.program.nodes.values())
        if isinstance(e, N.String):
            c = defn.classes.get(fold(e.value))
            return c is not None and c[1] == e.value
        return False

    def class_key(self, e, ctx):
        """The folded class a name stands for in `x is NAME`, or None when it is a value."""
        if isinstance(e, N.Name) and e.name not in ctx.locals:
            if e.name in ctx.consts:
                bound = ctx.consts[e.name]
                return bound.key if isinstance(bound, ClassName) else None
            key = fold(e.name)
            if key in self.defn.classes and e.name not in CONTEXT_NAMES:
                return fold(self.defn.classes[key][1])
        return None

    # the generator --------------------------------------------------------------
    def gen(self, e, ctx, sc: Scope) -> str:
        return self._methods[type(e)](self, e, ctx, sc)  # self.visit(e, ctx, sc), without its *args

    def generic_visit(self, e, ctx, sc):
        raise GameFault(f"{type(e).__name__} is not a value", e.pos)

    def pos(self, e) -> str:
        return self.src.const(e.pos, "P")

    def said(self, e) -> str:
        """Python source of the text of `e` as content wrote it, for a message of the game that
        names it (`c` is none here...); content enters the source through repr only."""
        text = written(e)
        return repr(text if len(text) <= MAX_SAID else text[:MAX_SAID - 3] + "...")

    def visit_Condition(self, e, ctx, sc):
        return self.gen(e.expr, ctx, sc)

    def visit_Number(self, e, ctx, sc):
        return repr(int(e.value))

    def visit_String(self, e, ctx, sc):
        return repr(str(e.value))

    def visit_Bool(self, e, ctx, sc):
        return "True" if e.value else "False"

    def visit_NoneLit(self, e, ctx, sc):
        return "None"

    def visit_Name(self, e, ctx, sc):
        n = e.name
        if n in sc.names:
            return sc.names[n]
        if n in ctx.consts:
            bound = ctx.consts[n]
            if isinstance(bound, Const):
                value = bound.value
                return repr(value) if isinstance(value, (int, str)) and not isinstance(value, bool) else self.src.const(value)
            if isinstance(bound, ClassName):
                return repr(bound.key)
            if isinstance(bound, Computed):
                return f"{self.src.const(bound.fn)}(st, fr)"
        if n in ctx.locals:
            return f"fr.env[{n!r}]"
        special = SPECIAL_NAMES.get(n)
        if special is not None and special.python is not None:
            return special.python
        defn = self.defn
        if n in defn.zones and defn.zones[n].scope.is_game:
            return self.src.const(ZoneRef(n))
        if n in defn.counters and defn.counters[n].scope.is_game:
            return f"st.counters.get({n!r}, {defn.counters[n].initial!r})"
        key = fold(n)
        if key in defn.classes:
            return repr(fold(defn.classes[key][1]))
        raise GameFault(f"unknown name '{n}'", e.pos)

    def visit_Attr(self, e, ctx, sc):
        defn = self.defn
        n = e.name
        if isinstance(e.obj, N.Name) and e.obj.name in ("options", "data") and e.obj.name not in ctx.locals \
                and e.obj.name not in sc.names:
            if e.obj.name == "options":
                return f"st.options.get({n!r})"
            return self.src.const(self.program.data.get(n))
        obj = self.gen(e.obj, ctx, sc)
        p = self.pos(e)
        simple = _SIMPLE.match(obj) is not None
        if n in defn.zones:
            kind = defn.zones[n].scope.kind
            general = f"R_zone(st, {obj}, {n!r}, {kind is OwnerKind.TEAM}, {p}, {self.said(e.obj)})"
            tab = self.owner_table(n, kind) if simple else None
            if tab is not None and tab[0] == "NodeRef":
                table = self.table("zones", f"{n}|node", lambda: {k: ZoneRef(v) for k, v in self.src.ns[tab[1]].items()})
                return f"({self.node_read(table, obj)} or {general})"
            if tab is not None:
                table = self.table("zones", f"{n}|{tab[0]}", lambda: tuple(ZoneRef(k) for k in self.src.ns[tab[1]]))
                if tab[0] == "Comp" and obj in self.src.comp_idents:
                    return f"{table}[{obj}]"
                return f"({table}[{obj}] if type({obj}) is {tab[0]} else {general})"
            return general
        if n in defn.counters:
            cdef = defn.counters[n]
            if cdef.scope.is_pair:
                return f"R_cmap({n!r}, {obj})"
            return f"st.counters.get({self.counter_key(obj, cdef, p, self.said(e.obj))}, {cdef.initial!r})"
        if n in defn.attributes:
            values = self.src.const(self.program.comp_attrs.get(n), "A")
            kept = n not in self.analysis.attribute_names_set()  # no rule sets it: no value of it overridden
            if obj in self.src.comp_idents and kept:
                return f"{values}[{obj}]"  # a component, whose value of it no rule changes
            # where the checker promised a number or a list, the general read gives one or stops
            promised = self.types.get(e) in (NUMBER, LIST)
            general = f"R_attr(st, {obj}, {n!r}, {values}, {p}, {self.said(e.obj)}, {promised})"
            if simple:
                if kept:
                    return f"({values}[{obj}] if type({obj}) is Comp else {general})"
                return f"({values}[{obj}] if type({obj}) is Comp and not st.over else {general})"
            return general
        if n in PROPERTIES:
            return f"{self.src.const(PROPERTIES[n].run, 'Q')}(st, {obj}, {p})"
        general = f"R_node_attr(st, {obj}, {n!r}, {p})"
        if simple:  # a board's nodes never change: their attributes are read from a table
            values = self.table("node_attrs", n, lambda: {k: a.get(n) for k, a in self.program.nodes.items()})
            return f"({values}.get({obj}) if type({obj}) is NodeRef else {general})"
        return general

    def visit_Index(self, e, ctx, sc):
        defn = self.defn
        if isinstance(e.obj, N.Attr) and e.obj.name in defn.counters and defn.counters[e.obj.name].scope.is_pair:
            cdef = defn.counters[e.obj.name]
            first, second = self.gen(e.obj.obj, ctx, sc), self.gen(e.key, ctx, sc)
            return f"st.counters.get({self.pair_key(cdef, first, second)}, {cdef.initial!r})"
        return f"R_index(st, {self.gen(e.obj, ctx, sc)}, {self.gen(e.key, ctx, sc)}, {self.pos(e)})"

    def visit_Call(self, e, ctx, sc):
        b = FUNCTIONS.get(e.func)
        if b is None:  # a function of the game
            args = [self.gen(a, ctx, sc) for a in e.args]
            inline = self.inline(e.func, args)
            if inline is not None:
                return inline
            self.game_function(e.func)
            return f"FN[{e.func!r}](st, fr{''.join(', ' + a for a in args)})"
        special = b.python(self, e, ctx, sc)
        if special is not None:
            return special
        return self.call_run(b, e, [self.gen(a, ctx, sc) for a in e.args])

    def call_run(self, b, e, args: list) -> str:
        """Source calling the run-time implementation of built-in `b` (see language.builtins)."""
        return f"{self.src.const(b.run, 'F')}(st, {self.pos(e)}{''.join(', ' + a for a in args)})"

    def simple(self, text: str) -> bool:
        """Whether generated `text` may be evaluated twice at little cost and with no effect."""
        return _SIMPLE.match(text) is not None

    def generator(self, e, ctx, sc, truth: bool = False) -> str:
        """A Python generator over the values of comprehension `e` (only their truth
        matters when `truth`)."""
        source, inner, v = self.bind_member(e, ctx, sc)
        cond = f" if {self.test(e.where, ctx, inner)}" if e.where is not None else ""
        if isinstance(e, N.Mapped):
            value = self.test(e.expr, ctx, inner) if truth else self.gen(e.expr, ctx, inner)
        elif truth:  # a member's own truth: a player, component, team or node is true whatever its index
            value = "True" if self.components(e.source, ctx, sc) else f"R_truth({v})"
        else:
            value = v
        return f"({value} for {v} in {source}{cond})"

    def cheap(self, name: str) -> bool:
        """Whether game function `name` is small and pure enough to be written inline at
        its calls: no comprehension and no random value of its own (the functions it
        calls keep their own results, or are written inline in turn)."""
        known = self.src.tables.get(("cheap", name))
        if known is None:
            f = self.defn.functions[name]
            known = self.analysis.function_traits(name)[0] and sum(1 for _ in N.walk(f.tree)) <= 40 and \
                not any(isinstance(n, (N.Each, N.Mapped)) for n in N.walk(f.tree))
            self.src.tables[("cheap", name)] = known
        return known

    def inline(self, name: str, args: list):
        """The body of cheap game function `name` written for these arguments, or None
        when an argument is not a plain local or constant (it would be computed twice)."""
        f = self.defn.functions[name]
        if len(args) != len(f.params) or not all(_SIMPLE.match(a) or _CONSTANT.match(a) for a in args):
            return None
        if not self.cheap(name) or name in self.inlining or len(self.inlining) >= MAX_INLINED:
            return None
        ctx = Ctx(Code(f"function:{name}", CodeKind.FUNCTION), locals_=())
        self.inlining.add(name)  # a function calling itself is called, not written out again
        try:
            return f"({self.gen(f.tree, ctx, Scope(dict(zip(f.params, args))))})"
        finally:
            self.inlining.discard(name)

    def test(self, e, ctx, sc) -> str:
        """Source of `e` where only its truth matters (no need to make it a bool)."""
        if isinstance(e, N.BoolOp):
            return f"({self.test(e.left, ctx, sc)} {e.op} {self.test(e.right, ctx, sc)})"
        if isinstance(e, N.Condition):
            return self.test(e.expr, ctx, sc)
        return self.gen(e, ctx, sc)

    def visit_ListLit(self, e, ctx, sc):
        if len(e.items) == 1 and isinstance(e.items[0], (N.Each, N.Mapped)):
            return self.gen(e.items[0], ctx, sc)
        return "[" + ", ".join(self.gen(i, ctx, sc) for i in e.items) + "]"

    def bind_member(self, e, ctx, sc):
        """(source text, inner scope, identifier) of the variable of a comprehension."""
        source = self.members(e.source, ctx, sc)
        inner, v = sc.bind(self.src, e.var)
        if self.components(e.source, ctx, sc):
            self.src.comp_idents.add(v)
        return source, inner, v

    def visit_Each(self, e, ctx, sc):
        source, inner, v = self.bind_member(e, ctx, sc)
        cond = f" if {self.test(e.where, ctx, inner)}" if e.where is not None else ""
        return f"[{v} for {v} in {source}{cond}]"

    def visit_Mapped(self, e, ctx, sc):
        source, inner, v = self.bind_member(e, ctx, sc)
        cond = f" if {self.test(e.where, ctx, inner)}" if e.where is not None else ""
        return f"[{self.gen(e.expr, ctx, inner)} for {v} in {source}{cond}]"

    def numeric(self, e, ctx=None) -> bool:
        """Whether `e` is surely a whole number, so that plain Python arithmetic applies: the
        checker's type of it says so (a promise: see language.types), or it is a `select` of two
        such numbers, or a call of a game function whose body is one."""
        return self._numeric(e, ())

    def _numeric(self, e, seen: tuple) -> bool:
        if isinstance(e, N.Condition):
            return self._numeric(e.expr, seen)
        if isinstance(e, N.Call) and e.func in self.defn.functions:
            return e.func not in seen and self._numeric(self.defn.functions[e.func].tree, (*seen, e.func))
        if isinstance(e, N.Call) and e.func == "select" and len(e.args) == 3:
            return self._numeric(e.args[1], seen) and self._numeric(e.args[2], seen)
        return self.types.get(e) in _NUMBERS

    def num(self, e, ctx, sc) -> str:
        text = self.gen(e, ctx, sc)
        return text if self.numeric(e, ctx) else f"R_num({text}, {self.pos(e)}, {self.said(e)})"

    def visit_BinOp(self, e, ctx, sc):
        if e.op == "+" and isinstance(e.left, (N.Each, N.Mapped, N.ListLit)) and \
                isinstance(e.right, (N.Each, N.Mapped, N.ListLit)):
            return f"({self.gen(e.left, ctx, sc)} + {self.gen(e.right, ctx, sc)})"  # two lists join
        if e.op == "+" and not (self.numeric(e.left, ctx) and self.numeric(e.right, ctx)):
            return f"R_plus(st, {self.gen(e.left, ctx, sc)}, {self.gen(e.right, ctx, sc)}, {self.pos(e)}, " \
                   f"{self.said(e.left)}, {self.said(e.right)})"
        a, b = self.num(e.left, ctx, sc), self.num(e.right, ctx, sc)
        if e.op in ("+", "-", "*"):
            return f"({a} {e.op} {b})"
        return f"R_div({a}, {b}, {e.op == '/'}, {self.pos(e)})"

    def visit_Neg(self, e, ctx, sc):
        return f"(-{self.num(e.operand, ctx, sc)})"

    def visit_Not(self, e, ctx, sc):
        return f"(not {self.test(e.operand, ctx, sc)})"

    def visit_BoolOp(self, e, ctx, sc):
        return f"(True if {self.test(e, ctx, sc)} else False)"

    def visit_Compare(self, e, ctx, sc):
        op = e.op
        if op in ("is", "isnot"):
            cls = None
            if not (isinstance(e.right, N.Name) and e.right.name in sc.names):
                cls = self.class_key(e.right, ctx)
            left = self.gen(e.left, ctx, sc)
            if cls is not None:
                test = self.is_class(left, cls)
                return test if op == "is" else f"(not {test})"
            same = f"R_same({left}, {self.gen(e.right, ctx, sc)})"
            return same if op == "is" else f"(not {same})"
        if op in ("==", "!=") and (isinstance(e.left, N.NoneLit) or isinstance(e.right, N.NoneLit)):
            other = e.right if isinstance(e.left, N.NoneLit) else e.left  # only none equals none
            text = self.gen(other, ctx, sc)
            if _literal(text):  # `3 is None` is true Python, but Python warns of it (SyntaxWarning)
                return f"({text} {'in' if op == '==' else 'not in'} (None,))"
            return f"({text} {'is' if op == '==' else 'is not'} None)"
        if op in ("==", "!="):
            if self.numeric(e.left, ctx) and self.numeric(e.right, ctx) or \
                    self.canonical(e.left) and self.canonical(e.right):
                return f"({self.gen(e.left, ctx, sc)} {op} {self.gen(e.right, ctx, sc)})"
            a, b = self.gen(e.left, ctx, sc), self.gen(e.right, ctx, sc)
            canon = self.canonical(e.left)
            if self.canonical(e.right) and not canon:
                a, b, canon = b, a, True  # the class name first, whichever side content wrote it
            if canon and _SIMPLE.match(b):
                # a class name in its declared spelling equals another such name only when
                # equal; anything else is compared the general way
                same = f"({a} == {b} if type({b}) is str and {b} in {self.canon_names()} else R_same({a}, {b}))"
                return same if op == "==" else f"(not {same})"
            numeric = NUMBER_COMPARES and self.numeric(e.left, ctx)
            if NUMBER_COMPARES and self.numeric(e.right, ctx) and not numeric:
                a, b, numeric = b, a, True  # the number first, whichever side content wrote it
            if numeric and _SIMPLE.match(b):
                # a whole number (the checker's promise) equals another only as Python says, and
                # never a component, a player, a truth value or a text: those go the general way
                same = f"({a} == {b} if type({b}) is int else R_same({a}, {b}))"
                return same if op == "==" else f"(not {same})"
            if b in self.src.comp_idents:
                a, b = b, a
            if a in self.src.comp_idents and _SIMPLE.match(b):
                # a component equals only itself (components are ints: a player of the same number is not it)
                same = f"({a} == {b} and type({b}) is Comp)"
                return same if op == "==" else f"(not {same})"
            same = f"R_same({a}, {b})"
            return same if op == "==" else f"(not {same})"
        if op in ("in", "notin"):
            test = f"R_member(st, {self.gen(e.left, ctx, sc)}, {self.gen(e.right, ctx, sc)}, {self.pos(e)})"
            return test if op == "in" else f"(not {test})"
        return f"({self.num(e.left, ctx, sc)} {op} {self.num(e.right, ctx, sc)})"

    def visit_Phrase(self, e, ctx, sc):
        raise GameFault("a keyword is not a value", e.pos)
