"""What the compiler knows of a whole pack before it writes any code.

Which classes some statement may tag a component with, whether some statement
sets an attribute, and for each game function whether it is pure (draws no
random value), contextual (reads `self`, `you` or `cause`) and what it reads
of the state: the versions of the state its results depend on, so that a
pure function keeps its results while those parts of the state stand still.
What a built-in reads is said by its record (`language.builtins`).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..language import nodes as N
from ..language.builtins import CONTEXT_NAMES, FUNCTIONS, PROPERTIES
from ..names import fold
from ..scopes import OwnerKind

# The version counters of a state (see engine.state.State): any zone, any counter, tags and
# taps, attributes set by rules; `st.zv[i]` and `st.cv[i]` count the changes of one zone or counter.
EVERYTHING = frozenset({"st.vz", "st.vc", "st.vt", "st.vo"})


@dataclass(frozen=True)
class ElementWise:
    """A game function `[each var in source where where]` kept member by member (see
    Analysis.element_wise): `owned`, the ("zone" or "counter", index) of the member's own zones
    and counters its condition reads; `reads`, the version counters of everything else."""
    var: str
    source: object
    where: object
    owned: frozenset
    reads: frozenset


class Analysis:
    """Facts about the trees of one checked pack, each worked out once."""

    def __init__(self, defn, found):
        self.defn = defn
        self.found = found  # what the checker found (language.checker.Findings)
        self._nodes = None
        self._tagged = None
        self._sets = None
        self._traits: dict | None = None  # every game function's (pure, contextual, reads)
        self._owns: dict = {}

    def statement_nodes(self) -> list:
        """Every node of every statement the pack may run: procedures, keywords, card
        abilities and their bindings, the parts of rules tests."""
        if self._nodes is None:
            d = self.defn
            roots = [p.tree for p in d.procedures.values()]
            for kw in d.keywords:
                roots.extend(kw.trees)
            for t in d.tests:
                roots.extend([t.given, t.when, [tree for _, tree in t.then]])
            for card in d.cards:
                roots.extend(ab.tree for ab in card.abilities)
            for use in self.found.keyword_uses.values():
                roots.extend(v for v in use.bindings.values() if isinstance(v, (N.Node, list)))
            self._nodes = [n for r in roots for n in N.walk(r)]
        return self._nodes

    def tagged_classes(self) -> set:
        """The classes some statement of the pack may tag a component with."""
        if self._tagged is None:
            d = self.defn
            self._tagged = {fold(d.classes[fold(n.tag)][1]) if fold(n.tag) in d.classes else fold(n.tag)
                            for n in self.statement_nodes() if isinstance(n, N.Tag)}
            # the classes declared on their own (not values of an attribute) exist to be tagged
            self._tagged |= {fold(name) for attr, name in d.classes.values() if attr is None}
        return self._tagged

    def attribute_names_set(self) -> frozenset:
        """The attributes some statement of the pack sets on a component."""
        if self._sets is None:
            d = self.defn
            self._sets = frozenset(n.target.name for n in self.statement_nodes() if isinstance(n, N.SetStmt)
                                   and isinstance(n.target, N.Attr) and n.target.name in d.attributes)
        return self._sets

    # game functions ------------------------------------------------------------------------
    # Each function's own facts are worked out once, then gathered over the functions it calls,
    # directly or not, without recursion (a chain of calls may be longer than Python's limit).
    def function_traits(self, name: str) -> tuple:
        """(pure, contextual) of game function `name`: pure when it draws no random value
        (directly or through the functions it calls); contextual when it reads self, you
        or cause."""
        pure, contextual, _ = self._gathered()[name]
        return pure, contextual

    def function_reads(self, name: str) -> frozenset:
        """What game function `name` reads of the state, through the functions it calls, as
        the version counters it depends on (see EVERYTHING); all of them when unsure."""
        return self._gathered()[name][2]

    def _gathered(self) -> dict:
        """(pure, contextual, reads) of every game function, its own facts gathered over the
        functions it calls, worked out for all at once: each function's facts only ever grow
        (less pure, more contextual, more reads), so a function is looked at again only when
        one it calls changed, and a chain of thousands of calls costs as many steps."""
        if self._traits is None:
            names = list(self.defn.functions)
            facts = {f: (*self._own(f)[0], frozenset(self._own(f)[1])) for f in names}
            callers: dict = {f: [] for f in names}
            for f in names:
                for callee in self._own(f)[2]:
                    callers[callee].append(f)
            todo, queued = names[::-1], set(names)
            while todo:
                f = todo.pop()
                queued.discard(f)
                pure, contextual, reads = facts[f]
                for callee in self._own(f)[2]:
                    p, c, r = facts[callee]
                    pure, contextual, reads = pure and p, contextual or c, reads | r
                if (pure, contextual, reads) != facts[f]:
                    facts[f] = (pure, contextual, reads)
                    for caller in callers[f]:
                        if caller not in queued:
                            queued.add(caller)
                            todo.append(caller)
            self._traits = facts
        return self._traits

    def function_is_static(self, name: str) -> bool:
        """Whether game function `name` gives the same value all game long for the same
        arguments: it reads nothing of the state (only its parameters, options, data,
        the player count and the board), not even a zone given to it as a value."""
        return not self.function_reads(name)

    def _own(self, name: str) -> tuple:
        """((pure, contextual), reads, calls) of game function `name`'s own body, but for the
        game functions it calls."""
        known = self._owns.get(name)
        if known is None:
            known = self._owns[name] = (self._own_traits(name), self._own_reads(name), self._calls(name))
        return known

    def _calls(self, name: str) -> list:
        functions = self.defn.functions
        return [n.func for n in N.walk(functions[name].tree)
                if isinstance(n, N.Call) and n.func not in FUNCTIONS and n.func in functions]

    def _own_traits(self, name: str) -> tuple:
        pure, contextual = True, False
        for n in N.walk(self.defn.functions[name].tree):
            if isinstance(n, N.Call):
                if n.func in FUNCTIONS:
                    pure = pure and not FUNCTIONS[n.func].draws
            elif isinstance(n, N.Name) and n.name in CONTEXT_NAMES:
                contextual = True
        return pure, contextual

    def _own_reads(self, name: str) -> set:
        reads, _ = self.reads_of(self.defn.functions[name].tree)
        return reads

    def reads_of(self, tree, element: str | None = None) -> tuple:
        """(reads, owned) of expression `tree`, but for the game functions it calls: the
        version counters it depends on, and, when `element` names a variable, the zones and
        counters it reads of that variable's value alone (`element.hand`, `element.cubes[p]`),
        as ("zone" or "counter", index), left out of the reads. None for owned when `element`
        is read in a way no key names (iterated, or bound again inside)."""
        d = self.defn
        bound = {n.var for n in N.walk(tree) if isinstance(n, (N.Each, N.Mapped))}
        reads: set = set()
        owned: set | None = set() if element is not None else None
        if element is not None and element in bound:
            owned = None  # bound again inside: which value a name means is not worth following

        def iterated(e) -> None:
            """`e` is iterated: a value that may be a zone not named here reads any zone."""
            nonlocal owned
            if isinstance(e, N.Name) and element is not None and e.name == element:
                owned = None  # the value itself may be a zone: its contents are no key of it
            elif isinstance(e, N.Name) and e.name not in d.zones and e.name not in bound and \
                    e.name not in CONTEXT_NAMES and e.name not in ("players", "teams"):
                reads.add("st.vz")
            elif isinstance(e, N.Index):
                reads.add("st.vz")

        def of_element(n) -> bool:
            return element is not None and isinstance(n.obj, N.Name) and n.obj.name == element

        for n in N.walk(tree):
            if isinstance(n, (N.Each, N.Mapped)):
                iterated(n.source)
            elif isinstance(n, N.Name):
                if n.name in d.zones:
                    reads.add(f"st.zv[{d.zones[n.name].index}]")
                elif n.name in d.counters:
                    reads.add(f"st.cv[{d.counters[n.name].index}]")
            elif isinstance(n, N.Attr):
                # a team's zone or counter read of a player is keyed by the team, not by the player
                if n.name in d.zones:
                    if of_element(n) and owned is not None and d.zones[n.name].scope.kind is not OwnerKind.TEAM:
                        owned.add(("zone", d.zones[n.name].index))
                    else:
                        reads.add(f"st.zv[{d.zones[n.name].index}]")
                elif n.name in d.counters:
                    if of_element(n) and owned is not None and d.counters[n.name].scope.kind is not OwnerKind.TEAM:
                        owned.add(("counter", d.counters[n.name].index))
                    else:
                        reads.add(f"st.cv[{d.counters[n.name].index}]")
                elif n.name in d.attributes:
                    reads.add("st.vo")
                elif n.name in PROPERTIES:
                    reads.update(f"st.v{letter}" for letter in PROPERTIES[n.name].reads)
            elif isinstance(n, N.Compare):
                if n.op in ("is", "isnot"):
                    cls = fold(n.right.name) if isinstance(n.right, N.Name) else None
                    cls = fold(d.classes[cls][1]) if cls in d.classes else None
                    if cls is None or cls in self.tagged_classes():
                        reads.add("st.vt")  # a class no statement tags is read from the cards alone
                elif n.op in ("in", "notin"):
                    iterated(n.right)
            elif isinstance(n, N.Call):
                b = FUNCTIONS.get(n.func)
                if b is None:
                    if n.func not in d.functions:
                        return set(EVERYTHING), owned
                    continue  # what it reads is gathered by function_reads
                if b.iterates:
                    for a in n.args:
                        iterated(a)
                reads.update(f"st.v{letter}" for letter in b.reads)
        return reads, owned

    def calls_in(self, tree) -> set:
        """The game functions expression `tree` calls, directly."""
        return {n.func for n in N.walk(tree) if isinstance(n, N.Call) and n.func not in FUNCTIONS
                and n.func in self.defn.functions}

    def element_wise(self, name: str):
        """An `ElementWise` when game function `name` can keep its value by the moves: a pure
        function, reading no `self`, `you` or `cause`, whose body is `[each x in S where C]`,
        whose members S read nothing of the state (the board's spaces, say), and whose
        condition C reads of the state some zones and counters of x itself (and anything else
        only through what its stamp covers). A change of one such zone or counter of an owner
        needs C tested again for that owner's members alone. None otherwise: the function
        keeps its results as a whole, or not at all."""
        f = self.defn.functions[name]
        tree = f.tree.expr if isinstance(f.tree, N.Condition) else f.tree
        if isinstance(tree, N.ListLit) and len(tree.items) == 1:
            tree = tree.items[0]
        if not isinstance(tree, N.Each) or tree.where is None:
            return None
        pure, contextual = self.function_traits(name)
        if not pure or contextual or tree.var in f.params:
            return None
        where_reads, owned = self.reads_of(tree.where, tree.var)
        if not owned:
            return None  # nothing of the members themselves: kept as a whole (or refused) as it is
        source_reads, _ = self.reads_of(tree.source)
        if source_reads or any(self.function_reads(callee) for callee in self.calls_in(tree.source)):
            # members that change (a zone's): measured, keeping them costs more than it saves
            return None
        reads = set(where_reads)
        for callee in self.calls_in(tree.where):
            reads |= self.function_reads(callee)
        if reads & {"st.vz", "st.vc"}:
            return None  # any zone or any counter, which every move changes: no use keeping it
        # a zone or counter also read of other owners changes the stamp itself: nothing to watch
        owned = {(kind, i) for kind, i in owned if f"st.{kind[0]}v[{i}]" not in reads}
        if not owned:
            return None
        return ElementWise(tree.var, tree.source, tree.where, frozenset(owned), frozenset(reads))
