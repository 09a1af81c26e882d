"""What each choice of the rules may offer: the values a `choose` or a menu option `for each`
may give, worked out from the checked trees before any game is played.

The checker types each expression (check_expressions); "a list" says nothing of its members.
This pass follows values further (language.value_kinds): the members of lists, the bounds of
numbers, through locals, game functions and procedures. It is what a fixed action space needs
(rl.actions numbers each value a choice may offer), and a first part of the typed form of the
rules (docs/architecture.md).

How it reads the rules:
- flow-insensitive: a local may be any value any of its bindings gives (`let`, `set`, `choose`, `for`,
  a menu option's `for each`, `roll`);
- a parameter of a procedure or game function may be any value a call gives it (anything, for
  a procedure no rule calls), an event's parameter any value a `signal` gives it (anything, for
  an event no rule signals), a keyword's parameter any value of its declared type;
- a zone holds the kinds of component that start there or that a `move` puts there (a move to
  `zone_of(C)`: to any zone C's kinds may lie in; to what cannot be named: to every zone), and
  the engine's own moves (a power given, a sacrifice to the discard); `x is CLASS` keeps the
  kinds printed with a class no rule tags;
- every rule is sound rather than tight (value_kinds): a number's bound is given only when no
  game can go past it. Where values still grow after a few rounds (a local counting up in a
  loop), their bounds are dropped; after ROUNDS rounds without a fixed point every offer is
  "anything".

`offers(defn)` maps the position of each `choose` and of each menu option offered for each
member of a list to what it may offer (a `Kinds`: its types, its members' bounds). Nothing here
changes what the checker says of a pack.
"""
from __future__ import annotations

from ..names import fold
from . import nodes as N
from . import offers_tables as tables
from . import value_kinds as vk
from .builtins import FUNCTIONS, PROPERTIES, SPECIAL_NAMES
from .visitor import NodeVisitor
from .types import ANY, BOOL, CLASS, COMPONENT, COUNTER_MAP, LIST, NODE, NONE, PLAYER, STRING, ZONE

ROUNDS = 12  # rounds over the whole pack before giving up on a fixed point (every offer "anything")
LOOSEN_AFTER = 3  # rounds after which values still changing lose their bounds
_PARAM_KINDS = {"number": vk.number(), "class": vk.of(CLASS), "name": vk.of(STRING), "condition": vk.of(BOOL)}
_ATTRIBUTE_KINDS = {"number": vk.number(), "string": vk.of(STRING, NONE), "boolean": vk.of(BOOL, NONE),
                    "class": vk.of(CLASS, NONE), "list": vk.of(LIST)}
_NOTHING = vk.Kinds(frozenset())  # no value yet (a function not worked out, a local not bound)
_STATEMENT_PARTS = (N.Expr, N.Condition)


def offers(defn) -> dict:
    """(path, line, column) of each `choose` and each menu option offered for each member of a
    list in pack `defn` (checked, without errors) -> the Kinds of the values it may offer."""
    return Offers(defn).run()


def where(pos) -> tuple:
    """The key of a choice at position `pos` in `offers`' table."""
    return (pos.path, pos.line, pos.column)


def loose(k: vk.Kinds) -> vk.Kinds:
    """`k` without bounds on its numbers (what a value still growing round after round keeps)."""
    return vk.Kinds(k.types, None, None, None if k.members is None else loose(k.members), cards=k.cards,
                    zones=k.zones)


class Offers(NodeVisitor):
    """The pass (language.visitor): `run()` gives `offers`' table; `value(e, env)` what an
    expression may be, by the `visit_` method of its class."""

    def __init__(self, defn):
        self.defn = defn
        self.params: dict = {}   # ("proc" | "func" | "event", name) -> {parameter: Kinds}, from the calls
        self.values: dict = {}   # game function -> Kinds of its value
        self.found: dict = {}    # where(choice) -> Kinds offered
        self.rounds = 0          # the rounds over the pack made so far
        self.walked: dict = {}   # id of a body's first statement -> (its bindings, its statements and their parts)
        # zone -> the kinds of component that may lie in it (None: any): where cards start, and
        # what rules move there; grown round after round with the moves found
        self.zone_cards: dict = tables.starts(defn)
        self.moved: dict = {}
        self.class_cards = tables.class_cards(defn)  # a class no rule tags -> the kinds of component printed with it
        self.sacrifices = any(isinstance(n, N.Cost) and n.kind == N.CostKind.SACRIFICE  # the engine discards
                              for n in tables.every_node(defn))

    def run(self) -> dict:
        for rounds in range(ROUNDS):
            self.rounds = rounds
            self.calls, self.now, self.found, self.moved = {}, {}, {}, {}
            for body, env in self.bodies():
                self.scan(body, env)
            for name, f in self.defn.functions.items():
                if f.tree is not None:
                    env = dict(self.params.get(("func", name), {}))
                    self.now[name] = self.value(f.tree.expr, {p: env.get(p, _NOTHING) for p in f.params})
            if rounds >= LOOSEN_AFTER:
                self.calls = _loosened(self.params, self.calls)
                self.now = {k: v if self.values.get(k) == v else loose(v) for k, v in self.now.items()}
            discard = self.defn.discard
            if self.sacrifices and discard is not None:  # a cost: the engine discards a card in play
                self.moved[discard] = tables.union([self.moved.get(discard, frozenset()), self.in_play().cards])
            grown = tables.grown(self.zone_cards, self.moved)
            if self.calls == self.params and self.now == self.values and grown == self.zone_cards:
                return self.found
            self.params, self.values, self.zone_cards = self.calls, self.now, grown
        return {k: vk.UNKNOWN for k in self.found}

    # the bodies of the pack, each with what its parameters may be ----------------------------
    def bodies(self):
        d = self.defn
        for name, proc in d.procedures.items():
            if proc.tree is not None:
                given = self.params.get(("proc", name))
                if given is None and self.rounds:  # no call gives it anything: whatever runs it may give
                    given = dict.fromkeys(proc.params, vk.UNKNOWN)
                yield proc.tree.body, {p: (given or {}).get(p, _NOTHING) for p in proc.params}
        # `self` is the card the ability is printed on: a keyword's, any card printed with abilities
        card = {"self": vk.components(frozenset(c.component for c in d.cards if c.abilities)), "you": vk.of(PLAYER)}
        for kw in d.keywords:
            env = {**card, **{p: _PARAM_KINDS.get(t, vk.UNKNOWN) for p, t in kw.params.items()}}
            for tree in kw.trees:
                yield from self.ability(tree, env)
        for c in d.cards:
            printed = {**card, "self": vk.components(frozenset({c.component}))}
            for ab in c.abilities:
                yield from self.ability(ab.tree, printed)

    def ability(self, tree, env):
        if isinstance(tree, N.Trigger):
            names = self.defn.events.get(tree.event) or []
            given = self.params.get(("event", tree.event), {})
            env = {**env, **{p: given.get(p, vk.UNKNOWN) for p in names}}
        if tree is not None:
            yield [tree], env

    # one body -------------------------------------------------------------------------------
    def scan(self, body, params: dict) -> None:
        """Every expression of `body` evaluated (the calls it makes and the choices it offers
        recorded), its locals first worked out to a fixed point."""
        walked = self.walked.get(id(body[0]) if body else 0)
        if walked is None:  # the same in every round: walked once
            statements = [(s, list(_parts(s))) for s in N.walk(body, _STATEMENT_PARTS)]
            walked = self.walked[id(body[0]) if body else 0] = (
                [s for s, _ in statements if isinstance(s, _BINDS)], statements)
        bindings, statements = walked
        # every local is nothing until a binding gives it something (not a name of the game)
        env = {**{name: _NOTHING for s in bindings for name in _names(s)}, **params}
        for rounds in range(ROUNDS):
            before = dict(env)
            for s in bindings:
                for name, k in self.bound(s, env):
                    env[name] = vk.join(env.get(name), k) if name in env and env[name] != _NOTHING else k
            if rounds >= LOOSEN_AFTER:
                env = {n: k if before.get(n) == k else loose(k) for n, k in env.items()}
            if env == before:
                break
        else:
            env = {n: vk.UNKNOWN for n in env}
        for s, parts in statements:
            for e in parts:
                self.value(e, env)
            if isinstance(s, N.Choose) or (isinstance(s, N.Option) and s.source is not None):
                self.found[where(s.pos)] = self.offered(s, env)
            elif isinstance(s, N.CallProc):
                self.call(("proc", s.proc), self.defn.procedures.get(s.proc), s.args, env)
            elif isinstance(s, N.Signal):
                self.call(("event", s.event), None, s.args, env, self.defn.events.get(s.event) or [])
            elif isinstance(s, N.Move):
                self.move(s, env)

    def bound(self, s, env):
        """(local, Kinds) of each local statement `s` binds."""
        if isinstance(s, N.Let):
            yield s.name, self.value(s.value, env)
        elif isinstance(s, N.SetStmt):
            if isinstance(s.target, N.Name) and s.target.name in env:  # a local set again (not a counter)
                yield s.target.name, self.value(s.value, env)
        elif isinstance(s, (N.Choose, N.For)) or (isinstance(s, N.Option) and s.var and s.source is not None):
            yield s.var, self.offered(s, env)
        elif isinstance(s, N.Roll):
            sides = self.value(s.sides, env) if s.sides is not None else vk.number(6, 6)
            yield s.name, vk.list_of(vk.number(1, sides.most))
        elif isinstance(s, N.Decide):
            k = None
            for r in s.rules:
                k = vk.join(k, self.value(r.value, env))
            yield s.var, k if k is not None else vk.UNKNOWN

    def offered(self, s, env) -> vk.Kinds:
        """What a `choose`, a `for` or a menu option `for each` gives its variable: the members of
        its list that its condition may let through (and none, for an optional choice)."""
        cond = s.cond if isinstance(s, N.Option) else s.where
        got = self.narrow(vk.members_of(self.value(s.source, env)), s.var, cond, env)
        return vk.join(got, vk.of(NONE)) if isinstance(s, N.Choose) and s.optional else got

    def move(self, s, env) -> None:
        """A `move`: the kinds of component it moves may lie in its destination from now on (in
        every zone, when the destination is no zone named in the rules)."""
        cards = vk.component_kinds(vk.members_of(self.value(s.what, env)))
        to = self.value(s.to, env)
        for z in (to.zones if ZONE in to.types and ANY not in to.types and to.zones is not None
                  else self.defn.zones):
            had = self.moved.get(z, frozenset())
            self.moved[z] = None if had is None or cards is None else had | cards

    def narrow(self, members: vk.Kinds, var: str | None, cond, env: dict) -> vk.Kinds:
        """`members` as far as condition `cond` (None: none) lets them through: a component must be
        of the classes it says `var is CLASS` of (through `and` and `or`), for classes no rule tags
        (their components are those printed with them)."""
        if cond is None or var is None or COMPONENT not in members.types:
            return members
        allowed = self.allowed(cond.expr if type(cond) is N.Condition else cond, var, env)
        if allowed is None:
            return members
        return members._replace(cards=allowed if members.cards is None else members.cards & allowed)

    def allowed(self, c, var: str, env: dict):
        """The kinds of component `var` may be for condition `c` to hold (None: any)."""
        t = type(c)
        if t is N.Compare and c.op == "is" and type(c.left) is N.Name and c.left.name == var \
                and type(c.right) is N.Name and c.right.name not in env:  # a class, not a local
            return self.class_cards.get(tables.class_key(self.defn, c.right.name))
        if t is N.BoolOp:
            a, b = self.allowed(c.left, var, env), self.allowed(c.right, var, env)
            if c.op == "and":
                return a if b is None else b if a is None else a & b
            return None if a is None or b is None else a | b
        return None

    def zone(self, name: str) -> vk.Kinds:
        """Zone `name` of some owner: its members are components of the kinds that may lie there."""
        return vk.Kinds(frozenset({ZONE}), members=vk.components(self.zone_cards.get(name, frozenset())),
                        zones=frozenset({name}))

    def zone_of(self, c: vk.Kinds) -> vk.Kinds:
        """`zone_of(C)`: one of the zones where a component of C's kinds may lie, or none."""
        cards = vk.component_kinds(c)
        names = frozenset(z for z, held in self.zone_cards.items()
                          if cards is None or held is None or held & cards)
        return vk.Kinds(frozenset({ZONE, NONE}), members=vk.components(tables.union(self.zone_cards[z] for z in names)),
                        zones=names)

    # what the built-ins ask of the pack (Function.kinds) -------------------------------------
    def in_play(self) -> vk.Kinds:
        """A component in a zone in play."""
        return vk.components(tables.union(self.zone_cards.get(z.name, frozenset())
                                          for z in self.defn.zones.values() if z.in_play))

    def card_kinds(self, id_given) -> vk.Kinds:
        """A copy of the card whose id expression `id_given` gives (any card, when not written out)."""
        if not isinstance(id_given, N.String):
            return vk.of(COMPONENT)
        return vk.components(frozenset(c.component for c in self.defn.cards if fold(c.id) == fold(id_given.value)))

    def supply(self, name_given) -> vk.Kinds:
        """`supply(NAME)`, when the name is written out."""
        return tables.supply(self.defn, name_given.value) if isinstance(name_given, N.String) else vk.number(0)

    def call(self, key, target, args, env, names=None) -> None:
        """A call of procedure, function or event `key` with `args`: what each of its parameters
        may be grows by what the call gives it."""
        names = names if names is not None else (target.params if target is not None else [])
        given = self.calls.setdefault(key, {})
        for p, a in zip(names, args, strict=False):
            k = self.value(a, env)
            given[p] = vk.join(given[p], k) if p in given else k

    # one expression ---------------------------------------------------------------------------
    def value(self, e, env: dict) -> vk.Kinds:
        """What expression `e` may be, its locals being `env`."""
        return self._methods[type(e)](self, e, env)

    def generic_visit(self, e, env):
        """A node no method reads (a keyword's phrase where a value is): what is under it is
        still read (the calls it makes), and it may be anything."""
        for child in N.children(e):
            self.value(child, env)
        return vk.UNKNOWN

    def visit_Number(self, e, env):
        return vk.number(e.value, e.value)

    def visit_String(self, e, env):
        return vk.of(STRING)

    def visit_Bool(self, e, env):
        return vk.of(BOOL)

    def visit_NoneLit(self, e, env):
        return vk.of(NONE)

    def visit_Name(self, e, env):
        if e.name in env:
            return env[e.name]
        special = SPECIAL_NAMES.get(e.name)
        said = special.kinds(self) if special is not None else None
        if said is not None:
            return said
        d = self.defn
        if e.name in d.zones:
            return self.zone(e.name)
        if e.name in d.counters:
            return tables.counter(d, d.counters[e.name])
        if e.name in SPECIAL_NAMES:
            return vk.UNKNOWN
        return vk.of(CLASS) if any(v == e.name for _, v in d.classes.values()) else vk.UNKNOWN

    def visit_Attr(self, e, env):
        obj = self.value(e.obj, env)
        d, n = self.defn, e.name
        if isinstance(e.obj, N.Name) and e.obj.name in ("options", "data") and e.obj.name not in env:
            return tables.datum(d.data.get(n)) if e.obj.name == "data" and n in d.data else vk.UNKNOWN
        if n in d.zones:
            return self.zone(n)
        if n in d.counters:
            c = d.counters[n]
            k = tables.counter(d, c)
            return vk.Kinds(frozenset({COUNTER_MAP}), k.least, k.most) if c.scope.is_pair else k
        if n in d.attributes:
            k = _ATTRIBUTE_KINDS.get(d.attributes[n].type, vk.UNKNOWN)
            return k if NODE not in obj.types and ANY not in obj.types else vk.join(k, tables.node_attribute(d, n))
        prop = PROPERTIES.get(n)
        said = prop.kinds(self) if prop is not None else None
        return said if said is not None else tables.node_attribute(d, n)

    def visit_Index(self, e, env):
        obj = self.value(e.obj, env)
        self.value(e.key, env)
        if obj.types == {COUNTER_MAP}:
            return vk.number(obj.least, obj.most)
        if obj.types <= {LIST, ZONE}:
            return vk.join(vk.members_of(obj), vk.of(NONE))
        return vk.UNKNOWN

    def visit_Call(self, e, env):
        args = [self.value(a, env) for a in e.args]
        b = FUNCTIONS.get(e.func)
        if b is not None:
            return b.kinds(e, args, self) if b.min_args <= len(args) <= b.max_args else vk.UNKNOWN
        f = self.defn.functions.get(e.func)
        if f is None:
            return vk.UNKNOWN
        given = self.calls.setdefault(("func", e.func), {})
        for p, k in zip(f.params, args, strict=False):
            given[p] = vk.join(given[p], k) if p in given else k
        return self.values.get(e.func, _NOTHING)

    def visit_ListLit(self, e, env):
        if len(e.items) == 1 and isinstance(e.items[0], (N.Each, N.Mapped)):
            return self.value(e.items[0], env)  # `[each x in S]` is the list itself (as compiled)
        k = None
        for i in e.items:
            k = vk.join(k, self.value(i, env))
        return vk.list_of(k if k is not None else _NOTHING, len(e.items))

    def visit_Each(self, e, env):
        source = self.value(e.source, env)
        members = self.narrow(vk.members_of(source), e.var, e.where, env)
        inner = {**env, e.var: members}
        if e.where is not None:
            self.value(e.where, inner)
        longest = source.longest
        if type(e) is N.Mapped:
            return vk.list_of(self.value(e.expr, inner), longest)
        return vk.list_of(members, longest)

    visit_Mapped = visit_Each

    def visit_BinOp(self, e, env):
        a, b = self.value(e.left, env), self.value(e.right, env)
        if ANY in a.types or ANY in b.types:
            return vk.UNKNOWN
        if e.op == "+" and (a.types | b.types) & {LIST, ZONE}:
            longest = None if a.longest is None or b.longest is None else a.longest + b.longest
            return vk.list_of(vk.join(vk.members_of(a), vk.members_of(b)), longest)
        return _ARITHMETIC.get(e.op, lambda x, y: vk.number())(a, b)

    def visit_Compare(self, e, env):
        for part in N.children(e):
            self.value(part, env)
        return vk.of(BOOL)

    visit_BoolOp = visit_Not = visit_Compare

    def visit_Neg(self, e, env):
        return vk.negate(self.value(e.operand, env))

    def visit_Condition(self, e, env):
        return self.value(e.expr, env)


_BINDS = (N.Let, N.SetStmt, N.Choose, N.For, N.Option, N.Roll, N.Decide)
_ARITHMETIC = {"+": vk.add, "-": vk.subtract, "*": vk.multiply, "/": vk.divide, "%": vk.modulo}
def _names(s):
    """The locals statement `s` may bind (`set` binds one only when a binding names it too)."""
    if isinstance(s, (N.Let, N.Roll)):
        return (s.name,)
    if isinstance(s, (N.Choose, N.For, N.Decide)) or (isinstance(s, N.Option) and s.var):
        return (s.var,)
    return ()


def _parts(s):
    """The expressions right under statement or part `s` (not those of the statements in it)."""
    for value in vars(s).values():
        for v in (value if isinstance(value, (list, tuple)) else (value,)):
            if isinstance(v, tuple):
                yield from (x for x in v if isinstance(x, _STATEMENT_PARTS))
            elif isinstance(v, _STATEMENT_PARTS):
                yield v


def _loosened(before: dict, now: dict) -> dict:
    return {key: {p: k if before.get(key, {}).get(p) == k else loose(k) for p, k in given.items()}
            for key, given in now.items()}
