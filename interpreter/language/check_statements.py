"""Stage 4, statements: the checks of a block of statements, mixed into the Checker.

Every local a block binds is known before the block is checked (`bound_names`);
each statement's expressions are checked with the types it wants (a zone to
move to, a number of dice, a player who chooses); `break` outside a loop and
statements after one that ends the block are reported; a keyword used as a
statement is refused; the {expressions} inside a text are parsed and checked.
"""
from __future__ import annotations

from ..diagnostics import Position, plural
from ..names import did_you_mean, fold
from ..scopes import OwnerKind
from . import nodes as N
from .builtins import SPECIAL_NAMES
from .check_expressions import Scope
from .texts import LabelPart, label_parts
from .types import ANY, COMPONENT, COUNTER, EFFECT, LIST, NUMBER, PLAYER, ZONE
from .visitor import walk


# Nodes that hold no statement, only expressions and words: no local is bound inside them, and
# walking every name and number costs
_NO_STATEMENTS = (N.Expr, N.Word)


class StatementChecks:
    """The checks of statements, a `visit_` method per statement class (the Checker they are
    mixed into is the NodeVisitor, and holds the pack and the report)."""

    # nothing to check in them, and nothing under them: the generic walk visits nothing
    GENERIC_STATEMENTS = frozenset({N.Return, N.Pass})

    # statements --------------------------------------------------------------
    def bound_names(self, body, names: dict) -> dict:
        """Every local a block binds (let, choose, for, roll, option), with what is given."""
        out = dict(names)
        for n in walk(body, _NO_STATEMENTS):
            if isinstance(n, N.Let):
                out.setdefault(n.name, ANY)
            elif isinstance(n, (N.Choose, N.For, N.Decide)):
                out.setdefault(n.var, ANY)
            elif isinstance(n, N.Roll):
                out.setdefault(n.name, LIST)
            elif isinstance(n, N.Option) and n.var:
                out.setdefault(n.var, ANY)
        return out

    def block(self, body, scope: Scope) -> None:
        ended = None
        for stmt in body:
            if ended is not None:
                self.report.warning("T008", stmt.pos, f"unreachable statement: it follows '{ended}'",
                                    "remove it, or move it before")
                ended = None  # one warning per block
            self.stmt(stmt, scope)
            if isinstance(stmt, (N.Return, N.Break, N.Continue, N.Exit, N.Fail, N.Win)):
                ended = type(stmt).__name__.lower()

    def stmt(self, s, scope: Scope) -> None:
        """Check statement `s`, by the `visit_` method of its class (language.visitor)."""
        self.visit(s, scope)

    def visit_Move(self, s, scope: Scope) -> None:
        self.expr(s.what, scope)
        self.expect(s.to, scope, ZONE, "the destination of 'move'")

    def visit_Add(self, s, scope: Scope) -> None:
        self.expect(s.amount, scope, NUMBER, "the amount")
        self.expect(s.target, scope, COUNTER, f"the target of '{type(s).__name__.lower()}'")

    visit_Remove = visit_Pay = visit_Add

    def visit_Gain(self, s, scope: Scope) -> None:
        self.expect(s.amount, scope, NUMBER, "the amount")
        c = self.defn.counters.get(s.counter)
        if c is None:
            if self.unknown(s.counter, self.defn.counters):
                self.error("N002", self.word(s.pos, s.counter), f"unknown counter '{s.counter}'",
                           did_you_mean(s.counter, self.defn.counters)
                           or ("counters: " + ", ".join(self.defn.counters) if self.defn.counters else None))
        elif not (c.scope.per(OwnerKind.PLAYER) or c.scope.per(OwnerKind.TEAM)):
            self.error("T003", s.pos, f"'{type(s).__name__.lower()}' works on counters kept per player or team; "
                              f"'{s.counter}' is kept per {'/'.join(c.scope)}",
                       f"use 'add N to OWNER.{s.counter}'")
        if s.owner is not None:
            self.expr(s.owner, scope)

    visit_Lose = visit_Gain

    def visit_SetStmt(self, s, scope: Scope) -> None:
        if isinstance(s.target, N.Name) and self.global_name(s.target.name) == COUNTER \
                and s.target.name not in scope.names:
            pass  # a counter of the whole game
        elif isinstance(s.target, N.Name):
            if s.target.name not in scope.names:
                self.error("T003", s.target.pos, f"cannot set '{s.target.name}': it is not a local name",
                           "introduce it with 'let'")
        elif isinstance(s.target, (N.Attr, N.Index)):
            self.expr(s.target, scope)
        else:
            self.error("T003", s.target.pos, "only a name, an attribute or a counter can be set")
        self.expr(s.value, scope)

    def visit_Let(self, s, scope: Scope) -> None:
        if s.name in SPECIAL_NAMES:
            self.error("N015", s.pos, f"'{s.name}' is a reserved name", "choose another name")
        self.expr(s.value, scope)

    def visit_Score(self, s, scope: Scope) -> None:
        self.expect(s.amount, scope, NUMBER, "the points scored")
        if self.defn.score is None:
            self.error("D004", s.pos, "'score' needs the game to name its score counter", "add 'score: COUNTER' to the game file")
        if s.owner is not None:
            self.expr(s.owner, scope)
        if s.source is not None:
            self.expr(s.source, scope)

    def visit_Signal(self, s, scope: Scope) -> None:
        if s.event not in self.defn.events:
            self.error("N005", self.word(s.pos, s.event), f"unknown event '{s.event}'", did_you_mean(s.event, self.defn.events)
                       or "declare it under events: in the game file")
        else:
            want = len(self.defn.events[s.event])
            if len(s.args) != want:
                self.error("T001", s.pos, f"event '{s.event}' takes {plural(want, 'argument')}, got {len(s.args)}")
        for a in s.args:
            self.expr(a, scope)

    def visit_CallProc(self, s, scope: Scope) -> None:
        proc = self.defn.procedures.get(s.proc)
        if proc is None:
            self.error("N007", self.word(s.pos, s.proc), f"unknown procedure '{s.proc}'",
                       did_you_mean(s.proc, self.defn.procedures))
        elif len(s.args) != len(proc.params):
            self.error("T001", s.pos, f"procedure '{s.proc}' takes {plural(len(proc.params), 'argument')}, got {len(s.args)}",
                       f"call {s.proc}({', '.join(proc.params)})" if proc.params else None)
        for a in s.args:
            self.expr(a, scope)

    def visit_Shuffle(self, s, scope: Scope) -> None:
        self.expect(s.zone, scope, ZONE, "what 'shuffle' shuffles")

    def visit_Tag(self, s, scope: Scope) -> None:
        self.expr(s.what, scope)
        if fold(s.tag) not in self.defn.classes:
            self.error("N004", self.word(s.pos, s.tag), f"unknown class '{s.tag}'", self.classes_hint(s.tag))

    def visit_TapStmt(self, s, scope: Scope) -> None:
        self.expr(s.what, scope)

    visit_Reveal = visit_TapStmt

    def visit_Win(self, s, scope: Scope) -> None:
        self.expr(s.who, scope)
        if not self.cards_named.in_tests:
            self.wins_written = True  # a rule of the game can end it with winners (not a rules test's)

    def visit_Exit(self, s, scope: Scope) -> None:
        if s.proc not in self.defn.procedures:
            self.error("N007", self.word(s.pos, s.proc), f"unknown procedure '{s.proc}'",
                       did_you_mean(s.proc, self.defn.procedures))

    def visit_Break(self, s, scope: Scope) -> None:
        if scope.loops == 0:
            self.error("T005", s.pos, f"'{type(s).__name__.lower()}' outside a loop", "use 'return' to leave a procedure")

    visit_Continue = visit_Break

    def visit_Roll(self, s, scope: Scope) -> None:
        self.expect(s.count, scope, NUMBER, "the number of dice")
        if s.sides is not None:
            self.expect(s.sides, scope, NUMBER, "the number of sides")

    def visit_Choose(self, s, scope: Scope) -> None:
        self.expr(s.source, scope)
        if s.where is not None:
            self.expr(s.where, scope)
        self.check_asked(s, scope, "who chooses")

    def visit_Decide(self, s, scope: Scope) -> None:
        self.check_asked(s, scope, "who decides")
        for rule in s.rules:
            self.expr(rule.value, scope)
            if rule.cond is not None:
                self.expr(rule.cond, scope)

    def visit_Use(self, s, scope: Scope) -> None:
        self.expect(s.card, scope, COMPONENT, "the card whose action is used")
        if s.chooser is not None:
            self.expect(s.chooser, scope, PLAYER, "who uses it")

    def visit_Menu(self, s, scope: Scope) -> None:
        self.check_asked(s, scope, "who chooses")
        for o in s.options:
            if isinstance(o, N.ActionsOption):
                if o.window is not None and o.window not in self.defn.windows:
                    self.error("N006", o.pos, f"unknown window '{o.window}'", did_you_mean(o.window, self.defn.windows))
                continue
            if o.source is not None:
                self.expr(o.source, scope)
            if o.cond is not None:
                self.expr(o.cond, scope)
            self.check_labels(o.label, o.pos, scope)
            # 'break' in an option leaves the innermost loop around the menu
            self.block(o.body, scope)

    def visit_If(self, s, scope: Scope) -> None:
        for cond, body in s.branches:
            self.expr(cond, scope)
            self.block(body, scope)
        if s.orelse:
            self.block(s.orelse, scope)

    def visit_For(self, s, scope: Scope) -> None:
        self.expr(s.source, scope)
        if s.where is not None:
            self.expr(s.where, scope)
        self.block(s.body, Scope(scope.names, scope.loops + 1, scope.in_ability, scope.proc))

    def visit_Repeat(self, s, scope: Scope) -> None:
        if s.count is not None:
            self.expect(s.count, scope, NUMBER, "the number of repetitions")
        self.block(s.body, Scope(scope.names, scope.loops + 1, scope.in_ability, scope.proc))

    def visit_While(self, s, scope: Scope) -> None:
        self.expr(s.cond, scope)
        if isinstance(s.cond, N.Bool) and s.cond.value is False:
            self.report.warning("T008", s.pos, "this loop never runs: its condition is false")
        self.block(s.body, Scope(scope.names, scope.loops + 1, scope.in_ability, scope.proc))

    def visit_Phrase(self, s, scope: Scope) -> None:
        if len(s.words) == 1 and scope.names.get(s.words[0].value) == EFFECT:
            return  # the effect parameter of a keyword, spliced in
        found = self.match_phrase(s)
        if found is not None:
            self.error("K001", s.pos, f"keyword '{found.keyword.name}' is an ability, not an effect: it is printed on cards, "
                              "not used in a procedure")

    def visit_Log(self, s, scope: Scope) -> None:
        self.check_labels(s.text, s.pos, scope)

    visit_Fail = visit_Log

    def check_asked(self, s, scope: Scope, who: str) -> None:
        """The player a choice or decision is asked of (`by P`) and its prompt."""
        if s.chooser is not None:
            self.expect(s.chooser, scope, PLAYER, who)
        if s.prompt:
            self.check_labels(s.prompt, s.pos, scope)

    def check_labels(self, text: str, pos: Position, scope: Scope) -> None:
        """Each {expression} inside a text must read and resolve; the parts are kept for the compiler."""
        parts = self.found.labels[(text, pos)] = label_parts(text, pos)
        for part in parts:
            if isinstance(part, LabelPart):
                if part.error is not None:
                    self.error("P002", pos, f"in text \"{text}\": {{{part.source}}} does not read: {part.error.message}")
                else:
                    self.expr(part.tree.expr, scope)
