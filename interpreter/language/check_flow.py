"""Stage 4, flow: every local name has a value wherever it is read.

A local (of `let`, `roll`, `choose`, `for each` or an option) has a value
after the statement that gives it one, on every way the rules may take to the
place where it is read: after an `if` only when each branch gives it one (or
leaves the block), after a menu only when each option does, never after a loop
by its rounds (a loop may run no round; `repeat:` without a count ends only by
`break`, so what every `break` has is had after it). A text's {expressions}
are read where the text is shown: a choice's prompt before the pick, an
option's label before its statements, an action's label, costs and condition
before its own. The analysis is cautious: a name given a value in every round
of `repeat 3 times` still has none after it for the checker.

The compiler reads a name as a local from its first binding in the text on,
and as the game's zone, counter or class before it; the flow follows it: a
name of the game read before a local of the same name is the game's.
"""
from __future__ import annotations

from . import nodes as N
from .builtins import SPECIAL_NAMES
from .texts import LabelPart, label_parts
from .visitor import NodeVisitor, children

# statements that leave the block: nothing after them runs
_LEAVE = (N.Return, N.Exit, N.Fail, N.Win, N.Break, N.Continue)


def _join(outs):
    """The names surely bound after one of several ways (None: a way that never comes back)."""
    came = [o for o in outs if o is not None]
    if not came:
        return None
    return frozenset.intersection(*came)


class FlowWalk(NodeVisitor):
    """The flow of one body: `locals_` are all the local names of the body (its parameters and
    every name it binds), `given` those with a value on entry. A statement is walked by the
    `visit_` method of its class; an expression by `read`, which only follows names."""

    # statements that bind no local and hold no body: each reads its expressions, and those that
    # leave the block (_LEAVE) end the way there
    GENERIC = frozenset({N.Move, N.Add, N.Remove, N.Pay, N.Gain, N.Lose, N.Score, N.Signal, N.CallProc,
                         N.Shuffle, N.Tag, N.TapStmt, N.Reveal, N.Win, N.Exit, N.Return, N.Continue, N.Pass,
                         N.Use})

    def __init__(self, checker, locals_, given):
        self.checker = checker
        self.locals = frozenset(locals_)
        self.given = frozenset(given)
        self.seen = set(given)  # the names the compiler reads as locals from here on
        self.loops: list = []  # the names bound at each 'break' of the loops around
        self.reported: set = set()
        self.binding = None  # the name a statement binds while its own parts are read

    # statements --------------------------------------------------------------
    def block(self, body, bound):
        """The names surely bound after statements `body` run from `bound` (None: they never end)."""
        for i, s in enumerate(body):
            if bound is None:
                self.unreached(body[i:])
                return None
            bound = self.stmt(s, bound)
        return bound

    def unreached(self, body) -> None:
        """Statements that never run (the checker warns of them): nothing is read there, but the
        compiler still reads the names they bind as locals after them."""
        saved, self.loops = self.loops, []  # their 'break's are never taken
        try:
            self.block(body, self.locals)
        finally:
            self.loops = saved

    def stmt(self, s, bound):
        """The names surely bound after statement `s` (None: it never ends), by the `visit_`
        method of its class (language.visitor), or `generic_visit`."""
        return self.visit(s, bound)

    def visit_Let(self, s, bound):
        self.read(s.value, bound)
        return self.bind(s.name, bound)

    def visit_Roll(self, s, bound):
        self.read(s.count, bound)
        self.read(s.sides, bound)
        return self.bind(s.name, bound)

    def visit_SetStmt(self, s, bound):
        self.read(s.value, bound)
        target = s.target
        if isinstance(target, N.Name):
            # a local set gets its value, as with 'let'; before its first binding in the text the
            # name is the game's counter, or a local that no statement after can read
            return bound | {target.name} if target.name in self.seen else bound
        self.read(target, bound)
        return bound

    def visit_If(self, s, bound):
        outs = []
        for cond, body in s.branches:
            self.read(cond, bound)
            outs.append(self.block(body, bound))
        outs.append(self.block(s.orelse, bound) if s.orelse else bound)
        return _join(outs)

    def visit_For(self, s, bound):
        self.binding = s.var
        self.read(s.source, bound)
        self.binding = None
        self.seen.add(s.var)
        inner = bound | {s.var}
        self.read(s.where, inner)
        self.loop(s.body, inner)
        return bound

    def visit_Repeat(self, s, bound):
        self.read(s.count, bound)
        breaks = self.loop(s.body, bound)
        return bound if s.count is not None else _join(breaks)

    def visit_While(self, s, bound):
        self.read(s.cond, bound)
        self.loop(s.body, bound)
        return bound

    def visit_Choose(self, s, bound):
        self.binding = s.var
        self.read(s.source, bound)
        self.read(s.chooser, bound)
        self.text(s.prompt, s.pos, bound, "a choice's prompt is shown before the pick is made")
        self.binding = None
        self.read(s.where, bound | {s.var})
        return self.bind(s.var, bound)

    def visit_Decide(self, s, bound):
        self.read(s.chooser, bound)
        self.text(s.prompt, s.pos, bound, "a decision's prompt is shown before it is made")
        for rule in s.rules:
            self.read(rule.cond, bound)
            self.read(rule.value, bound)
        return self.bind(s.var, bound)

    def visit_Menu(self, s, bound):
        read = self.read
        read(s.chooser, bound)
        self.text(s.prompt, s.pos, bound, "a menu's prompt is shown before an option is chosen")
        outs = []
        for o in s.options:
            if isinstance(o, N.ActionsOption):
                outs.append(bound)
                continue
            inner = bound
            if o.var:
                self.binding = o.var
                read(o.source, bound)
                self.binding = None
                self.seen.add(o.var)
                inner = bound | {o.var}
            before = "an option's label and condition are read before its statements run"
            read(o.cond, inner, why=before)
            self.text(o.label, o.pos, inner, before)
            outs.append(self.block(o.body, inner))
        return _join(outs)

    def visit_Break(self, s, bound):
        if self.loops:
            self.loops[-1].append(bound)
        return None

    def visit_Log(self, s, bound):
        self.text(s.text, s.pos, bound)
        return bound

    def visit_Fail(self, s, bound):
        self.text(s.text, s.pos, bound)
        return None

    def visit_Phrase(self, s, bound):
        return bound  # a keyword's effect, spliced in: checked where it is written

    def generic_visit(self, s, bound):
        """The other statements read expressions only (those of `GENERIC`)."""
        for value in children(s):
            self.read(value, bound)
        return None if isinstance(s, _LEAVE) else bound

    def loop(self, body, bound) -> list:
        """Walk the body of a loop; the names bound at each of its 'break's."""
        self.loops.append([])
        try:
            self.block(body, bound)
        finally:
            breaks = self.loops.pop()
        return breaks

    def bind(self, name, bound):
        self.seen.add(name)
        return bound | {name}

    # expressions -------------------------------------------------------------
    def read(self, e, bound, text=None, why=None) -> None:
        """Check that every local `e` reads has a value, given those of `bound` (`text`: the
        text `e` is an {expression} of; `why`: why it is read before the statements after it)."""
        if e is None:
            return
        t = type(e)
        if t is N.Name:
            self.use(e.name, e.pos, bound, text, why)
        elif t is N.Each or t is N.Mapped:
            self.read(e.source, bound, text, why)
            inner = bound | {e.var}
            self.read(e.where, inner, text, why)
            if t is N.Mapped:
                self.read(e.expr, inner, text, why)
        elif t is N.Attr:
            self.read(e.obj, bound, text, why)
        elif t not in (N.Number, N.String, N.Bool, N.NoneLit):
            for value in children(e):
                self.read(value, bound, text, why)

    def text(self, text, pos, bound, why=None) -> None:
        """The {expressions} of a text, read where it is shown."""
        if not text:
            return
        for part in self.checker.found.labels.get((text, pos)) or label_parts(text, pos):
            if isinstance(part, LabelPart) and part.tree is not None:
                self.read(part.tree.expr, bound, text, why)

    def use(self, name, pos, bound, text=None, why=None) -> None:
        if name not in self.locals or name in bound or name in self.reported:
            return
        if name not in self.seen and name != self.binding and self.is_game_name(name):
            return  # read before any local of that name: the game's zone, counter or class
        self.reported.add(name)
        where = f"in text \"{text}\": " if text is not None else ""
        if name in self.seen:
            self.checker.error("T004", pos, f"{where}'{name}' may have no value here: it is given one only in some "
                                    "branches or loops before",
                               f"give it a value on every way here, e.g. 'let {name} = none' before the branch or loop")
        else:
            self.checker.error("T004", pos, f"{where}'{name}' is read before it is given a value",
                               why or f"give it a value before, e.g. 'let {name} = ...'")

    def is_game_name(self, name) -> bool:
        return name in SPECIAL_NAMES or self.checker.global_name(name) is not None


class NoFlow:
    """The flow of a body whose every local has a value on entry (its parameters, an event's
    arguments; most abilities of cards bind no local): no name can be read before it has one,
    so nothing is walked. `FlowWalk` says the same, walking every expression
    (`tests/language/test_flow.py` compares them over every shipped game)."""

    def block(self, body, bound):
        return bound

    def read(self, e, bound, text=None, why=None) -> None:
        return None

    def text(self, text, pos, bound, why=None) -> None:
        return None

    given = frozenset()


NO_FLOW = NoFlow()


class FlowChecks:
    """Mixed into the Checker: the flow of a body's locals (see FlowWalk)."""

    walk_every_flow = False  # (a test walks every flow, to compare NoFlow's silence with FlowWalk)

    def flow(self, locals_, given):
        # every name a walk reads is one of the body's locals or not its own: where each local has
        # a value on entry, no read can come before its value (the names bound stay a superset of
        # those given, on every way through the body)
        if not self.walk_every_flow and set(locals_) <= set(given):
            return NO_FLOW
        return FlowWalk(self, locals_, given)
