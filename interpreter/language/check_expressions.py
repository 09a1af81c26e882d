"""Stage 4, expressions: the type of every expression, every name in it resolved.

Mixed into the Checker. A name is a local, a special name, a zone, counter or
class of the game; `x.NAME` a zone, counter, attribute, property or node
attribute; a call a built-in (its arity and argument types from its record)
or a game function. The type each expression gets is kept in the findings:
where it is a promise (language.types), the code generator relies on it.
"""
from __future__ import annotations

from ..diagnostics import Position, cut, plural
from ..limits import MAX_NUMBER
from ..names import Names, did_you_mean, fold
from ..scopes import OwnerKind
from ..scopes import Scope as Owners
from . import nodes as N
from .builtins import ALSO_CALLED, FUNCTIONS, PROPERTIES, SPECIAL_NAMES
from .texts import LabelPart, label_parts
from .written import written
from .types import (ANY, BOOL, CLASS, COMPONENT, COUNTER, COUNTER_MAP, DATA, LIST, NODE, NONE, NUMBER, NUMERIC,
                    OPTIONS, PLAYER, PROMISES, SET, STRING, TEAM, ZONE, accepts, word)


class Scope:
    """The local names of one procedure or ability, with their types."""

    def __init__(self, names: dict, loops: int = 0, in_ability: bool = False, proc: str | None = None,
                 sound: frozenset = frozenset()):
        self.names = dict(names)
        self.loops = loops
        self.in_ability = in_ability
        self.proc = proc
        self.sound = sound  # the names whose type is a promise (a keyword's parameters), not a guess


_UNKNOWN = object()

# what may own a zone or counter of each scope (any other scope is a kind of component); a team's
# is reached through any of its players too
_OWNERS = {"player": (PLAYER,), "team": (TEAM, PLAYER), "node": (NODE,)}
_INDEXED = frozenset({ANY, LIST, COUNTER_MAP})  # what brackets read: a list, a data table, a pair counter
_ATTRIBUTE_OWNERS = frozenset({ANY, COMPONENT, NODE})
_EXPRESSIONS = (N.Expr, N.Condition)  # what has a type: the checker's statements are visited by the same table


def callees_first(functions: dict) -> list:
    """The names of game functions `functions`, each after the functions it calls (but for those
    calling it in turn), found without recursion."""
    calls = {name: [n.func for n in N.walk(f.tree) if isinstance(n, N.Call) and n.func in functions
                    and n.func not in FUNCTIONS] if f.tree is not None else []
             for name, f in functions.items()}
    order, done = [], set()
    for first in functions:
        if first in done:
            continue
        done.add(first)
        stack = [(first, iter(calls[first]))]
        while stack:
            name, todo = stack[-1]
            callee = next(todo, None)
            if callee is None:
                stack.pop()
                order.append(name)
            elif callee not in done:
                done.add(callee)
                stack.append((callee, iter(calls[callee])))
    return order


def _whose_example(name: str, scope) -> str:
    """How a zone or counter kept per owner is named: 'you.hand', 'you.team.points', 'self.tokens'."""
    if scope.per(OwnerKind.PLAYER):
        return f"e.g. 'you.{name}'"
    if scope.per(OwnerKind.TEAM):
        return f"e.g. 'you.team.{name}', your team's"
    if scope.per(OwnerKind.COMPONENT):
        return f"e.g. 'self.{name}', the card's own"
    return f"e.g. 'x.{name}', where x is its owner"


class ExpressionChecks:
    """The checks of expressions, a `visit_` method per expression class giving its type (the
    Checker they are mixed into is the NodeVisitor, and holds the pack and the report)."""

    # expressions -------------------------------------------------------------
    def expect(self, e, scope, want: str, what: str) -> str:
        if isinstance(e, N.Name):  # an unknown name here is told apart from names of other kinds
            self.wanted = want
        try:
            got = self.expr(e, scope)
        finally:
            self.wanted = None
        ok = got == ANY or got == want or (want == NUMBER and got in NUMERIC) or (want == COUNTER and got == COUNTER)
        if want == PLAYER and got in (PLAYER, ANY):
            ok = True
        if not ok:
            hint = None
            if want == ZONE and got == COMPONENT:
                hint = "a zone is named, e.g. 'market' or 'you.hand'"
            if want == COUNTER and got == NUMBER:
                hint = "add to a counter, e.g. 'add 2 to you.resource'"
            if want == NUMBER and got in (ZONE, LIST):
                # the number of components in a zone, or of members in a list
                hint = f"how many it holds is a number: 'count({cut(written(e), 40)})'"
            self.error("T003", e.pos, f"{what} must be {word(want)}, not {word(got)}", hint)
        return got

    def global_name(self, name: str):
        d = self.defn
        if name in d.zones and d.zones[name].scope.is_game:
            return ZONE
        if name in d.counters and d.counters[name].scope.is_game:
            return COUNTER
        if fold(name) in d.classes:
            return CLASS
        return None

    def type_functions(self) -> None:
        """Check every game function and give it the type of its value, the functions it calls
        first: a chain of calls, however long, is never walked by recursion. A call of a function
        not typed yet (one calling it in turn) tells nothing."""
        functions, types = self.defn.functions, self.found.function_types
        for name in callees_first(functions):
            if name in types:
                continue
            types[name] = ANY  # while it is checked
            f = functions[name]
            if f.tree is not None:
                self.expr(f.tree.expr, Scope({p: ANY for p in f.params}))
                types[name] = self.found.types[f.tree.expr]

    def function_type(self, name: str) -> str:
        """The type of the value of game function `name` (see type_functions)."""
        return self.found.function_types.get(name, ANY)

    def expr(self, e, scope: Scope) -> str:
        """The type of expression `e`, every name in it checked; what the compiler may rely on
        of it is kept in the findings."""
        t = self.expression(e, scope)
        self.found.types[e] = t if t not in PROMISES else self.promise(e, t, scope)
        return t

    def promise(self, e, t: str, scope: Scope) -> str:
        """`t`, the type the checker gives `e`, as far as every value of `e` keeps it at run time.
        A local may be set to anything (its type is a guess); an attribute without a default of
        its type, or that a board node also has, may hold none or another value."""
        if type(e) is N.Name and e.name in scope.names and e.name not in scope.sound:
            return ANY
        if type(e) is N.Attr and e.name in self.defn.attributes and not self.sound_attribute(e.name):
            return ANY
        return t

    def sound_attribute(self, name: str) -> bool:
        a = self.defn.attributes[name]
        kind = NUMBER if a.type == "number" else LIST if a.type == "list" else None
        default_fits = isinstance(a.default, int) and not isinstance(a.default, bool) if kind == NUMBER \
            else isinstance(a.default, list)
        return kind is not None and default_fits and self.node_attribute(name) is None

    def parameters(self, keyword, body) -> frozenset:
        """The parameters of `keyword` (None: none) that `body` never binds again: their values are
        those of a card, of the parameter's type (a number given as an expression is made one)."""
        if keyword is None:
            return frozenset()
        again = self.bound_names(body, {})
        return frozenset(p for p in keyword.params if p not in again)

    def node_attribute(self, name: str):
        """The type of attribute `name` of the board's nodes: NUMBER when every node has it as a
        whole number (a board never changes), ANY when some have it, None when none has it.
        Worked out once per name: a pack reads the same attributes again and again."""
        known = self._node_attributes.get(name, _UNKNOWN)
        if known is _UNKNOWN:
            values = [node.get(name, _UNKNOWN) for b in self.pack.boards for node in b.nodes.values()]
            if all(v is _UNKNOWN for v in values):
                known = None
            elif all(isinstance(v, int) and not isinstance(v, bool) for v in values):
                known = NUMBER
            else:
                known = ANY
            self._node_attributes[name] = known
        return self.note_call("node_attribute", (name,), known)

    def note_call(self, method: str, args: tuple, value):
        """`value`, what method `method` of the checker worked out from the pack for `args`, noted
        as read while the check of an ability is noted (check_reuse)."""
        reads = self.reads
        if reads is not None and reads.log is not None:
            reads.log.setdefault(("call", method, args), value)
        return value

    def expression(self, e, scope: Scope) -> str:
        """The type of `e`, by the `visit_` method of its class (language.visitor); ANY for a node
        no method checks."""
        if not isinstance(e, _EXPRESSIONS):
            return ANY  # a statement's method is not for it (a keyword's phrase where a value is)
        method = self.get_visitor(e)
        return ANY if method is None else method(e, scope)

    def visit_Number(self, e, scope: Scope) -> str:
        self.number_literal(e.value, e.pos)
        return NUMBER

    def visit_String(self, e, scope: Scope) -> str:
        if "{" in e.value:
            self.text_not_shown(e)
        return STRING

    def visit_Bool(self, e, scope: Scope) -> str:
        return BOOL

    def visit_NoneLit(self, e, scope: Scope) -> str:
        return NONE

    def visit_Name(self, e, scope: Scope) -> str:
        return self.name(e, scope)

    def visit_Attr(self, e, scope: Scope) -> str:
        return self.attr(e, scope)

    def visit_Index(self, e, scope: Scope) -> str:
        obj = self.expr(e.obj, scope)
        self.expr(e.key, scope)
        if obj == COUNTER_MAP:
            return COUNTER
        if obj not in _INDEXED:
            self.error("T003", e.pos, f"cannot index {word(obj)}", "brackets read a list, from 1, or a data table")
        return ANY

    def visit_Call(self, e, scope: Scope) -> str:
        return self.call(e, scope)

    def visit_ListLit(self, e, scope: Scope) -> str:
        for i in e.items:
            self.expr(i, scope)
        return LIST

    def visit_Each(self, e, scope: Scope) -> str:
        self.expr(e.source, scope)
        inner = Scope({**scope.names, e.var: ANY}, scope.loops, scope.in_ability, scope.proc)
        if e.where is not None:
            self.expr(e.where, inner)
        if type(e) is N.Mapped:
            self.expr(e.expr, inner)
        return LIST

    visit_Mapped = visit_Each

    def visit_BinOp(self, e, scope: Scope) -> str:
        sides = []
        for side in (e.left, e.right):
            got = self.expr(side, scope)
            sides.append(got)
            if got not in NUMERIC and not (e.op == "+" and got in (LIST, ZONE)):
                self.error("T003", side.pos, f"'{e.op}' works on numbers, not {word(got)}")
        if e.op == "+" and (LIST in sides or ZONE in sides):
            return LIST  # lists and zones join into one list
        if e.op == "+" and sides == [ANY, ANY]:
            return ANY  # two numbers, or two lists
        return NUMBER

    def visit_Compare(self, e, scope: Scope) -> str:
        left = self.expr(e.left, scope)
        if e.op in ("is", "isnot") and isinstance(e.right, N.Name) and e.right.name not in scope.names \
                and e.right.name not in SPECIAL_NAMES:
            if fold(e.right.name) in self.defn.classes:
                return BOOL
            if self.global_name(e.right.name) is None:
                self.error("N004", e.right.pos, f"unknown class '{e.right.name}'", self.classes_hint(e.right.name))
                return BOOL
        right = self.expr(e.right, scope)
        if e.op in ("in", "notin") and not accepts(SET, right):
            self.error("T003", e.right.pos, f"what 'in' looks in must be a set, zone or list, not {word(right)}")
        if e.op in ("<", "<=", ">", ">="):
            for side, got in ((e.left, left), (e.right, right)):
                if got not in NUMERIC:
                    self.error("T003", side.pos, f"'{e.op}' compares numbers, not {word(got)}")
        return BOOL

    def visit_BoolOp(self, e, scope: Scope) -> str:
        self.expr(e.left, scope)
        self.expr(e.right, scope)
        return BOOL

    def visit_Not(self, e, scope: Scope) -> str:
        self.expr(e.operand, scope)
        return BOOL

    def visit_Neg(self, e, scope: Scope) -> str:
        self.expect(e.operand, scope, NUMBER, "the operand of '-'")
        return NUMBER

    def visit_Condition(self, e, scope: Scope) -> str:
        return self.expr(e.expr, scope)

    def text_not_shown(self, e: N.String) -> None:
        """A text written as a value (an argument, a local) with {expressions} in it: only a text
        shown where it is written (a log, a failure, a prompt, an option's label) is filled in,
        so its braces would reach the players as written."""
        parts = [p for p in label_parts(e.value, e.pos) if isinstance(p, LabelPart)]
        if not parts:
            return
        shown = cut(e.value, 80)
        self.error("T009", e.pos, f"the text \"{shown}\" is a value, so {{{parts[0].source}}} in it stays as written: "
                          "braces are filled in only in a text shown where it is written (log, fail, a prompt, "
                          "an option's label)",
                   "write the value where the text is shown: pass it as an argument of its own, "
                   f"or log the whole text here (log \"... {{{parts[0].source}}}\")")

    def number_literal(self, value: int, pos: Position) -> None:
        """A number written in the rules is one a game may keep."""
        if value > MAX_NUMBER:
            self.error("T007", pos, f"number too large: more than {MAX_NUMBER:,}, the largest a game keeps",
                       "write a smaller number")

    def name(self, e: N.Name, scope: Scope) -> str:
        n = e.name
        if n in scope.names:
            return scope.names[n]
        if n in SPECIAL_NAMES:
            return SPECIAL_NAMES[n].returns
        found = self.global_name(n)
        if found:
            return found
        d = self.defn
        if n in d.zones:
            self.error("T003", e.pos, f"zone '{n}' is kept per {'/'.join(d.zones[n].scope)}: say whose",
                       _whose_example(n, d.zones[n].scope))
            return ZONE
        if n in d.counters:
            self.error("T003", e.pos, f"counter '{n}' is kept per {'/'.join(d.counters[n].scope)}: say whose",
                       _whose_example(n, d.counters[n].scope))
            return COUNTER
        if n in d.misdeclared:  # its declaration is in error, and said so: not each use again
            return ANY
        visible = {**{name: t for name, t in scope.names.items()},
                   **{name: f.returns for name, f in SPECIAL_NAMES.items()},
                   **{z: ZONE for z, zd in d.zones.items() if zd.scope.is_game},
                   **{c: COUNTER for c, cd in d.counters.items() if cd.scope.is_game},
                   **{v: CLASS for _, v in d.classes.values()}}
        want = self.wanted
        if want not in (None, ANY):  # only names that could stand here: a zone for a zone...
            visible = {k: t for k, t in visible.items()
                       if t in (want, ANY) or (want == NUMBER and t in NUMERIC)}
        said = ALSO_CALLED.get(n.lower())  # a word other rules languages use for one of ours ('this')
        if said is not None and said in visible:
            hint = f"write '{said}': {SPECIAL_NAMES[said].doc}"
        else:
            hint = did_you_mean(n, list(visible))
        if hint is None and want == ZONE:  # none is close: the zones there are
            whole = [z for z, zd in d.zones.items() if zd.scope.is_game]
            mine = [f"you.{z}" for z, zd in d.zones.items() if zd.scope.per(OwnerKind.PLAYER)]
            hint = "zones: " + ", ".join(whole + mine) if whole or mine else None
        self.error("N010", e.pos, f"unknown name '{n}'", hint)
        return ANY

    def attr(self, e: N.Attr, scope: Scope) -> str:
        if isinstance(e.obj, N.Name) and e.obj.name == "options" and "options" not in scope.names:
            if e.name not in self.defn.options:
                self.error("N011", e.pos, f"unknown option '{e.name}'", did_you_mean(e.name, self.defn.options)
                           or ("options: " + ", ".join(self.defn.options) if self.defn.options else "the game declares no options"))
            return ANY
        if isinstance(e.obj, N.Name) and e.obj.name == "data" and "data" not in scope.names:
            if e.name not in self.defn.data:
                self.error("D004", e.pos, f"unknown data table '{e.name}'", did_you_mean(e.name, self.defn.data))
            return ANY
        obj = self.expr(e.obj, scope)
        d = self.defn
        n = e.name
        if n in d.zones:
            self.owned(e, obj, "zone", d.zones[n].scope)
            return ZONE
        if n in d.counters:
            self.owned(e, obj, "counter", d.counters[n].scope.head)  # a pair's first owner, before [...]
            return COUNTER_MAP if d.counters[n].scope.is_pair else COUNTER
        if n in d.attributes:
            if obj not in _ATTRIBUTE_OWNERS:
                self.error("T003", e.pos, f"attribute '{n}' is of a component or a node, not of {word(obj)}")
            return self.attr_types.get(n, ANY)
        if n in PROPERTIES:
            prop = PROPERTIES[n]
            if not accepts(prop.owner, obj):
                self.error("T003", e.pos, f"property '{n}' is of {word(prop.owner)}, not of {word(obj)}")
            return prop.returns
        if obj in (OPTIONS, DATA):
            return ANY
        if obj in (ANY, NODE) and self.node_attribute(n) is not None:
            return self.node_attribute(n)
        if n in d.misdeclared:  # its declaration is in error, and said so: not each use again
            return ANY
        candidates = list(d.zones) + list(d.counters) + list(d.attributes) + list(PROPERTIES)
        pos = e.pos
        if pos.end_column is not None and pos.end_column - len(n) >= pos.column:
            pos = Position(pos.path, pos.line, pos.end_column - len(n), pos.end_column)  # the name, not the owner
        self.error("N003", pos, f"unknown attribute '{n}'", did_you_mean(n, candidates))
        return ANY

    def owned(self, e: N.Attr, obj: str, what: str, scope: Owners) -> None:
        """`obj.NAME`, zone or counter NAME kept per `scope`: refused when the checker knows that
        `obj` is no owner of that scope (a list, a number, none...), as the game would refuse it."""
        fits = {t for s in scope.words if s != "game" for t in _OWNERS.get(s, (COMPONENT,))}
        if obj == ANY or obj in fits:
            return
        if scope.is_game:
            hint = f"it is the game's: write '{e.name}' alone"
        else:
            hint = f"e.g. 'you.{e.name}'" if scope.per(OwnerKind.PLAYER) or scope.per(OwnerKind.TEAM) else \
                f"e.g. 'self.{e.name}'" if COMPONENT in fits else None
        self.error("T003", e.pos, f"{what} '{e.name}' is kept per {' or '.join(scope)}, not by {word(obj)}", hint)

    def call(self, e: N.Call, scope: Scope) -> str:
        b = FUNCTIONS.get(e.func)
        if b is None:
            for a in e.args:
                self.expr(a, scope)
            if e.func in self.defn.functions:
                f = self.defn.functions[e.func]
                if len(e.args) != len(f.params):
                    self.error("T001", e.pos, f"{e.func}() takes {plural(len(f.params), 'argument')}, got {len(e.args)}",
                               f"{e.func}({', '.join(f.params)})")
                return self.function_type(e.func)
            else:
                self.error("N008", e.pos, f"unknown function '{e.func}'",
                           did_you_mean(e.func, list(FUNCTIONS) + list(self.defn.functions)))
            return ANY
        n = len(e.args)
        if not b.min_args <= n <= b.max_args:
            want = str(b.min_args) if b.min_args == b.max_args else f"{b.min_args} to {b.max_args}"
            self.error("T001", e.pos, f"{e.func}() takes {want} argument{'s' if b.max_args != 1 else ''}, got {n}",
                       " or ".join(b.forms))
            for a in e.args:
                self.expr(a, scope)
        else:
            for a, want in zip(e.args, b.arg_types(n)):
                got = self.expr(a, scope)
                if not accepts(want, got):
                    self.error("T001", a.pos, f"{e.func}() takes {word(want)} here, not {word(got)}", " or ".join(b.forms))
        b.check(self, e)
        return b.returns

    def has_card(self, card_id: str) -> bool:
        """Whether the pack has a card of id `card_id` (folded ids, made once: `card("...")` may be
        called often)."""
        if self._card_ids is None:
            self._card_ids = {fold(c.id) for c in self.pack.cards}
        return self.note_call("has_card", (card_id,), fold(card_id) in self._card_ids)

    def keyword_titles(self) -> list:
        """The names of the pack's keywords (their first words, folded), for `prints`."""
        return self.note_call("keyword_titles", (), sorted({kw.title for kw in self.pack.keywords if kw.title}))

    def card_names(self) -> Names:
        """The pack's card ids, for the hints of misspelt ones (made once)."""
        if self._card_names is None:
            self._card_names = Names(c.id for c in self.pack.cards)
        return self._card_names
