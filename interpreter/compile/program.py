"""Stage 5: the compiled program of a game: its tables, and everything compiled once.

`CompiledGame` holds what never changes while a game is played: the components
made from the cards (their cards, owners, attributes, classes), the board's
nodes and links, the keys of zones and counters, the compiled procedures and
abilities. Every state of the game points to it.
"""
from __future__ import annotations

from pathlib import Path

from ..engine import machine as vm
from ..engine.state import Frame, GameFault
from ..engine.values import Comp, NodeRef, Seat, Team
from ..language import nodes as N
from ..content.source import plain_data
from ..names import fold
from ..engine.code import Code
from .context import Ctx
from .statements import Compiler

STEP_BUDGET = 2_000_000
ZONE_LIMIT = 100_000

class TriggerSpec:
    __slots__ = ("event", "broadcast", "code")

    def __init__(self, event, broadcast, code):
        self.event, self.broadcast, self.code = event, broadcast, code


class CompiledGame:
    """Everything static about a game: definitions, components, compiled code."""

    def __init__(self, defn, root: Path):
        self.defn = defn
        self.root = root
        self.id = defn.id
        self.step_budget = STEP_BUDGET
        self.zone_limit = ZONE_LIMIT
        self.data = plain_data(defn.data)
        self.codes: dict[str, Code] = {}
        self._zone_cache: dict = {}
        self.in_play_zone: dict = {}  # zone key -> False when not in play, else (holder, held by a component)
        self.counter_keys: dict = {}  # (counter name, owner type, owner) -> its key, made once
        self.zone_refs: dict = {}  # (zone name, owner) -> its key, made once
        self.counters_lost_in: list = []  # [zone index][component] -> its counters not kept there
        self.tag_zones = set(defn.tags_kept_in) if defn.tags_kept_in is not None else None
        self._holder_cache: dict = {}
        self._teams: dict = {}
        self.seats = {n: tuple(Seat(i) for i in range(n)) for n in range(1, defn.max_players + 1)}
        self.kept_counters = [(c.name, set(c.keep_in)) for c in defn.counters.values() if c.keep_in]
        self.limit_events: set = set()
        self.broadcast_events: set = set()
        self.nodes: dict = {}
        self.node_lists: dict = {}  # lists of nodes by kind, made on first need
        self.adj: dict = {}
        for b in defn.boards:
            for key, attrs in b.nodes.items():
                self.nodes[key] = {k: plain_data(v) for k, v in attrs.items() if k != "_pos"}
                self.nodes[key]["board"] = b.id
            for a, b2 in b.edges:
                self.adj.setdefault(a, []).append(b2)
                self.adj.setdefault(b2, []).append(a)
        for i, zdef in enumerate(defn.zones.values()):
            zdef.index = i
        for i, cdef in enumerate(defn.counters.values()):
            cdef.index = i
        self.build_components()
        self.counters_lost_in = [[None] * len(self.comps) for _ in defn.zones]
        self.compiler = Compiler(self)
        self._function_bodies: dict = {}
        self._fn_building: set = set()
        self.procs: dict[str, Code] = {}
        for name in defn.procedures:
            self.procs[name] = Code(f"proc:{name}", "proc", proc=name)
            self.codes[self.procs[name].name] = self.procs[name]
        for name, proc in defn.procedures.items():
            ctx = Ctx(self, self.procs[name], locals_=proc.params)
            self.compiler.body(proc.tree.body, ctx)
        self.compile_abilities()
        self.invariants = [(text, self.compiler.expr(tree, Ctx(self, Code("invariant", "invariant"))))
                           for text, tree in defn.invariants]

    # components ---------------------------------------------------------------
    def build_components(self) -> None:
        d = self.defn
        self.comp_card, self.comp_owner, self.comp_start, self.comps = [], [], [], []
        for card in d.cards:
            owners = range(d.max_players) if card.per_player else [None]
            for o in owners:
                for _ in range(card.copies):
                    self.comps.append(Comp(len(self.comps)))
                    self.comp_card.append(card)
                    self.comp_owner.append(o)
                    self.comp_start.append(card.start)
        self.cards_by_id: dict = {}
        for c, card in enumerate(self.comp_card):
            self.cards_by_id.setdefault(fold(card.id), []).append(self.comps[c])
        self.comp_attrs = {}
        for name, a in d.attributes.items():
            default = a.default
            vals = []
            for card in self.comp_card:
                v = card.attrs.get(name, default)
                if a.type == "class" and isinstance(v, str):
                    v = d.classes.get(fold(v), (None, v))[1]
                vals.append(plain_data(v))
            self.comp_attrs[name] = vals
        self.comp_classes = []
        class_attrs = [n for n, a in d.attributes.items() if a.type == "class"]
        per_card = {}
        for card in self.comp_card:
            if id(card) not in per_card:
                keys = set()
                for n in class_attrs:
                    v = card.attrs.get(n, d.attributes[n].default)
                    for x in (v if isinstance(v, list) else [v]):
                        if isinstance(x, str):
                            canon = d.classes.get(fold(x))
                            keys.add(fold(canon[1]) if canon else fold(x))
                for t in card.tags:
                    canon = d.classes.get(fold(t))
                    keys.add(fold(canon[1]) if canon else fold(t))
                per_card[id(card)] = frozenset(keys)
            self.comp_classes.append(per_card[id(card)])

    def compile_abilities(self) -> None:
        d = self.defn
        per_card = {}
        self.comp_triggers, self.comp_actions = [], []
        for card in d.cards:
            triggers: dict = {}
            actions: list = []
            for i, ab in enumerate(card.abilities):
                self.compile_ability(card, i, ab, triggers, actions)
            per_card[id(card)] = (triggers, actions)
        for card in self.comp_card:
            t, a = per_card[id(card)]
            self.comp_triggers.append(t)
            self.comp_actions.append(a)

    def compile_ability(self, card, i, ab, triggers, actions) -> None:
        tree = ab.tree
        trees = [(tree, {})]
        if isinstance(tree, N.PhraseAbility):
            kw = ab.keyword
            consts = {}
            for p, v in ab.bindings.items():
                ptype = kw.params.get(p)
                if ptype == "effect":
                    consts[p] = ("effect", v, {})
                elif ptype == "class":
                    consts[p] = ("class", fold(v))
                elif isinstance(v, N.Node):
                    consts[p] = ("expr", self.compiler.expr(v, Ctx(self, Code("tmp", "tmp"))))
                else:
                    consts[p] = ("const", v)
            trees = [(t, consts) for t in kw.trees]
        for j, t in enumerate(trees):
            node, consts = t
            name = f"card:{card.id}:{i}.{j}"
            if isinstance(node, N.Trigger):
                code = Code(name, "ability", source=ab)
                self.codes[name] = code
                ctx = Ctx(self, code, consts, self.defn.events.get(node.event, []) + ["cause"])
                self._trigger_prologue(node, ctx)
                self.compiler.body(node.body, ctx)
                triggers.setdefault(node.event, []).append(TriggerSpec(node.event, node.broadcast, code))
                if node.broadcast:
                    self.broadcast_events.add(node.event)
            elif isinstance(node, N.Action):
                actions.append(self._action(card, len(actions), node, consts, ab, name))

    def _trigger_prologue(self, node, ctx) -> None:
        comp, pos = self.compiler, node.pos
        p = comp.k(pos, "P")
        if node.cond is not None:  # not met: the ability does nothing
            ctx.emit_src([f"if not ({comp.gen.test(node.cond, ctx, comp.scope())}):",
                          "    st.frames.pop()",
                          "    return"], pos, "branch")
        if node.optional:
            event = node.event

            def prompt(st, fr):
                return f"use {st.g.comp_card[fr.me].title} ({event})?"
            ctx.emit_src([f"vm.ask(st, fr, fr.you, {comp.k(prompt, 'L')}, {p})"], pos, "end")

    def _action(self, card, index, node, consts, ab, name):
        code = Code(name, "action", source=ab)
        self.codes[name] = code
        ctx = Ctx(self, code, consts, ["cause"])
        comp = self.compiler
        checks = []
        pos = node.pos
        if node.cond is not None:
            cond = comp.expr(node.cond, ctx)
            checks.append(lambda st, fr: bool(cond(st, fr)))
        for cost in node.costs:
            if cost.kind == "tap":
                checks.append(lambda st, fr: fr.me not in st.tapped)
                ctx.emit(lambda st, fr, p=cost.pos: st.tap(fr.me, True, p), cost.pos)
            elif cost.kind in ("pay", "spend"):
                amount = comp.expr(cost.amount, ctx)
                cdef = self.defn.counters[cost.name]
                owner = (lambda st, fr: fr.you) if cost.kind == "pay" else (lambda st, fr: fr.me)
                keyf = comp._counter_key_from(owner, cdef, cost.pos)

                def can(st, fr, keyf=keyf, amount=amount, cdef=cdef):
                    return st.counters.get(keyf(st, fr), cdef.initial) >= amount(st, fr)
                checks.append(can)

                def pay(st, fr, keyf=keyf, amount=amount, cdef=cdef, p=cost.pos, kind=cost.kind):
                    st.add(keyf(st, fr), cdef, -amount(st, fr), p, kind)
                ctx.emit(pay, cost.pos)
            elif cost.kind == "sacrifice":
                cls = consts[cost.name][1] if cost.name in consts else fold(self.defn.classes[fold(cost.name)][1])
                classes = self.comp_classes

                def candidates(st, fr, cls=cls):
                    return [c for c in vm.in_play(st, fr.you)
                            if c != fr.me and (cls in classes[c] or cls in st.tags.get(c, ()))]
                checks.append(lambda st, fr, f=candidates: bool(f(st, fr)))
                var = "\x00sacrifice"
                spec = vm.ChooseSpec(var, candidates, None, False,
                                     lambda st, fr: "card to sacrifice", cost.pos)
                ctx.emit(lambda st, fr, spec=spec: vm.choose(st, fr, spec), cost.pos)
                discard = self.defn.discard

                def sacrifice(st, fr, p=cost.pos):
                    c = fr.env.get(var)
                    if c is not None:
                        if discard is None:
                            raise GameFault("a sacrifice needs the game to name its discard zone", p)
                        st.move(c, st.zone_key(discard, None), False, p)
                ctx.emit(sacrifice, cost.pos)
        comp.body(node.body, ctx)
        label_text = node.label or (f"{{self.title}}: {ab.text}")
        label = comp.label(label_text, pos, ctx)

        scratch = Frame(code, 0, {"cause": None}, None, None)  # reused: a check never waits

        def usable(st, c, player):
            scratch.me, scratch.you = c, player
            scratch.env["cause"] = player
            return all(check(st, scratch) for check in checks)

        def render(st, c):
            return label(st, Frame(code, 0, {}, c, None))
        if node.limit is not None:
            self.limit_events.add(node.limit)
        return vm.ActionSpec(index, code, render, set(node.windows), node.limit, usable, ab)

    def function_traits(self, name: str, seen=None) -> tuple:
        """(pure, contextual) of a game function: pure when it draws no random value
        (directly or through the functions it calls); contextual when it reads
        self, you or cause."""
        seen = set() if seen is None else seen
        if name in seen:
            return True, False
        seen.add(name)
        pure, contextual = True, False
        for n in N.walk(self.defn.functions[name].tree):
            if isinstance(n, N.Call):
                if n.func == "random":
                    pure = False
                elif n.func in self.defn.functions:
                    p, c = self.function_traits(n.func, seen)
                    pure, contextual = pure and p, contextual or c
            elif isinstance(n, N.Name) and n.name in ("self", "you", "cause"):
                contextual = True
        return pure, contextual

    # what the built-in functions and properties read of the state: z zones, c counters,
    # t tags and taps (a function given a zone as a value reads it: iterating reads zones)
    _ITERATING = frozenset({"count", "sum", "max", "min", "any", "all", "first", "last", "top", "bottom",
                            "sorted", "reversed", "distinct", "most", "random", "has"})
    _READS = {"zone_of": "z", "holder": "z", "owner": "z", "controller": "z", "in_play": "z",
              "tapped": "t", "supply": "c", "zone": "z", "size": "z", "tags": "t"}
    _READS_NOTHING = frozenset({"abs", "next", "previous", "partners", "opponents", "team", "members", "seat",
                                "node", "nodes", "neighbors", "linked", "option", "label", "range", "card", "cards",
                                "select", "id", "title", "kind"})

    def function_reads(self, name: str, seen=None) -> set:
        """What game function `name` reads of the state, through the functions it calls,
        as the version counters it depends on: `st.zv[i]` for zone i, `st.vz` for any
        zone, `st.cv[i]` for counter i, `st.vc` any counter, `st.vt` tags and taps,
        `st.vo` attributes set by rules. All of them when unsure."""
        everything = {"st.vz", "st.vc", "st.vt", "st.vo"}
        seen = set() if seen is None else seen
        if name in seen:
            return set()
        seen.add(name)
        d = self.defn
        f = d.functions[name]
        bound = {n.var for n in N.walk(f.tree) if isinstance(n, (N.Each, N.Mapped))}
        reads: set = set()

        def iterated(e) -> None:
            """`e` is iterated: a value that may be a zone not named here reads any zone."""
            if isinstance(e, N.Name) and e.name not in d.zones and e.name not in bound and \
                    e.name not in ("self", "you", "cause", "players", "teams"):
                reads.add("st.vz")
            elif isinstance(e, N.Index):
                reads.add("st.vz")

        for n in N.walk(f.tree):
            if isinstance(n, (N.Each, N.Mapped)):
                iterated(n.source)
            elif isinstance(n, N.Name):
                if n.name in d.zones:
                    reads.add(f"st.zv[{d.zones[n.name].index}]")
                elif n.name in d.counters:
                    reads.add(f"st.cv[{d.counters[n.name].index}]")
            elif isinstance(n, N.Attr):
                if n.name in d.zones:
                    reads.add(f"st.zv[{d.zones[n.name].index}]")
                elif n.name in d.counters:
                    reads.add(f"st.cv[{d.counters[n.name].index}]")
                elif n.name in d.attributes:
                    reads.add("st.vo")
                elif n.name in self._READS:
                    reads.add("st.v" + self._READS[n.name])
                elif n.name not in self._READS_NOTHING and n.name in _property_names():
                    return everything
            elif isinstance(n, N.Compare):
                if n.op in ("is", "isnot"):
                    cls = fold(n.right.name) if isinstance(n.right, N.Name) else None
                    cls = fold(d.classes[cls][1]) if cls in d.classes else None
                    if cls is None or cls in self.compiler.tagged_classes():
                        reads.add("st.vt")  # a class no statement tags is read from the cards alone
                elif n.op in ("in", "notin"):
                    iterated(n.right)
            elif isinstance(n, N.Call):
                if n.func in d.functions and n.func not in self.compiler.builtin_names:
                    reads |= self.function_reads(n.func, seen)
                elif n.func in self._ITERATING:
                    for a in n.args:
                        iterated(a)
                elif n.func in self._READS:
                    reads.add("st.v" + self._READS[n.func])
                elif n.func not in self._READS_NOTHING:
                    return everything
        return reads

    def function_is_static(self, name: str) -> bool:
        """Whether game function `name` gives the same value all game long for the same
        arguments: it reads nothing of the state (only its parameters, options, data,
        the player count and the board), not even a zone given to it as a value."""
        return not self.function_reads(name)

    def python_function(self, name: str) -> None:
        """Compile game function `name` to a Python function, once (see pygen)."""
        fns = self.compiler.src.ns["FN"]
        if name in fns or name in self._fn_building:
            return
        self._fn_building.add(name)
        pure, contextual = self.function_traits(name)
        static = pure and not contextual and self.function_is_static(name)
        fns[name] = self.compiler.gen.game_function(name, self.defn.functions[name], pure, contextual, static)

    def function_body(self, name: str) -> list:
        """A one-cell list holding the compiled body of a game function (filled on first need,
        so that functions may call each other in any order)."""
        cell = self._function_bodies.get(name)
        if cell is None:
            cell = self._function_bodies[name] = [None]
            f = self.defn.functions[name]
            cell[0] = self.compiler.expr(f.tree, Ctx(self, Code(f"function:{name}", "function"), locals_=f.params))
        return cell

    # places ---------------------------------------------------------------------
    def zone_def(self, key: str):
        d = self._zone_cache.get(key)
        if d is None:
            d = self.defn.zones[key.split("#", 1)[0]]
            self._zone_cache[key] = d
        return d

    def lost_counters(self, zdef, c) -> tuple:
        """(key, definition) of the counters component `c` loses on entering a zone of
        `zdef`: those kept only in some zones."""
        lost = tuple((f"{name}#{int(c)}", self.defn.counters[name]) for name, keep in self.kept_counters
                     if zdef.name not in keep)
        self.counters_lost_in[zdef.index][c] = lost
        return lost

    def zone_holder(self, key: str):
        h = self._holder_cache.get(key, _MISSING)
        if h is _MISSING:
            zdef = self.zone_def(key)
            if "#" not in key:
                h = None
            else:
                raw = key.split("#", 1)[1]
                scope = zdef.scope[0]
                if scope == "player":
                    h = Seat(int(raw))
                elif scope == "team":
                    h = Team(int(raw.lstrip("t")))
                elif scope == "node":
                    h = NodeRef(raw)
                else:
                    h = self.comps[int(raw)]
            self._holder_cache[key] = h
        return h

    def teams_for(self, n: int) -> list:
        t = self._teams.get(n)
        if t is None:
            t = self.defn.teams.get(n) or [[i] for i in range(n)]
            self._teams[n] = t
        return t

    def team_of(self, n: int) -> list:
        key = ("of", n)
        t = self._teams.get(key)
        if t is None:
            t = [0] * n
            for ti, members in enumerate(self.teams_for(n)):
                for s in members:
                    t[s] = ti
            self._teams[key] = t
        return t

    def player_name(self, i: int) -> str:
        return f"player {i + 1}"


_MISSING = object()


def _property_names():
    from ..engine.library import _PROPERTIES
    return _PROPERTIES


def compile_game(defn, found, root: Path) -> CompiledGame:
    """Stage 5: the compiled program of a checked pack."""
    return CompiledGame(defn, root)
