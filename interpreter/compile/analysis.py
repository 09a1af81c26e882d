"""What the compiler knows of a whole pack before it writes any code.

Which classes some statement may tag a component with, whether some statement
sets an attribute, and for each game function whether it is pure (draws no
random value), contextual (reads `self`, `you` or `cause`) and what it reads
of the state: the versions of the state its results depend on, so that a
pure function keeps its results while those parts of the state stand still.
What a built-in reads is said by its record (`language.builtins`).
"""
from __future__ import annotations

from ..language import nodes as N
from ..language.builtins import CONTEXT_NAMES, FUNCTIONS, PROPERTIES
from ..names import fold

# The version counters of a state (see engine.state.State): any zone, any counter, tags and
# taps, attributes set by rules; `st.zv[i]` and `st.cv[i]` count the changes of one zone or counter.
EVERYTHING = frozenset({"st.vz", "st.vc", "st.vt", "st.vo"})


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

    def attributes_set(self) -> bool:
        """Whether some statement of the pack sets an attribute of a component."""
        if self._sets is None:
            d = self.defn
            self._sets = any(isinstance(n, N.SetStmt) and isinstance(n.target, N.Attr) and n.target.name in d.attributes
                             for n in self.statement_nodes())
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
        d = self.defn
        f = d.functions[name]
        bound = {n.var for n in N.walk(f.tree) if isinstance(n, (N.Each, N.Mapped))}
        reads: set = set()

        def iterated(e) -> None:
            """`e` is iterated: a value that may be a zone not named here reads any zone."""
            if isinstance(e, N.Name) and e.name not in d.zones and e.name not in bound and \
                    e.name not in CONTEXT_NAMES and e.name not in ("players", "teams"):
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
                        return set(EVERYTHING)
                    continue  # what it reads is gathered by function_reads
                if b.iterates:
                    for a in n.args:
                        iterated(a)
                reads.update(f"st.v{letter}" for letter in b.reads)
        return reads
