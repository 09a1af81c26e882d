"""The typed syntax tree of the rules language.

One dataclass per construct, named after the grammar rule that builds it (as
in Lark's create_ast example). Every node keeps `pos`, its place in the
content file, so that checker errors and trace events can point at it.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field

from ..diagnostics import Position


@dataclass(eq=False)
class Node:
    pos: Position = field(repr=False, compare=False)


@dataclass(eq=False)
class Expr(Node):
    """An expression: it has a value (the family the expression visitors handle)."""


@dataclass(eq=False)
class Stmt(Node):
    """A statement of a body (the family the statement visitors handle)."""


# Expressions -----------------------------------------------------------------

@dataclass(eq=False)
class Number(Expr):
    value: int


@dataclass(eq=False)
class String(Expr):
    value: str


@dataclass(eq=False)
class Bool(Expr):
    value: bool


@dataclass(eq=False)
class NoneLit(Expr):
    pass


@dataclass(eq=False)
class Name(Expr):
    name: str


@dataclass(eq=False)
class Attr(Expr):
    obj: Node
    name: str


@dataclass(eq=False)
class Index(Expr):
    obj: Node
    key: Node


@dataclass(eq=False)
class Call(Expr):
    func: str
    args: list


@dataclass(eq=False)
class ListLit(Expr):
    items: list


@dataclass(eq=False)
class Each(Expr):
    """`each x in S where C`: the members of S for which C holds."""
    var: str
    source: Node
    where: Node | None


@dataclass(eq=False)
class Mapped(Expr):
    """`E for each x in S where C`: E for each such member."""
    expr: Node
    var: str
    source: Node
    where: Node | None


@dataclass(eq=False)
class BinOp(Expr):
    op: str
    left: Node
    right: Node


@dataclass(eq=False)
class Compare(Expr):
    op: str  # == != < <= > >= is isnot in notin
    left: Node
    right: Node


@dataclass(eq=False)
class BoolOp(Expr):
    op: str  # and / or
    left: Node
    right: Node


@dataclass(eq=False)
class Not(Expr):
    operand: Node


@dataclass(eq=False)
class Neg(Expr):
    operand: Node


# Statements ------------------------------------------------------------------

@dataclass(eq=False)
class Phrase(Stmt):
    """Words as printed on a card; resolved against the keyword library."""
    words: list  # of Word
    body: list | None = None  # statements after ':'


class WordKind(enum.StrEnum):
    """What a word printed in a phrase is (the keyword matcher's tokens)."""
    NAME = "name"
    NUMBER = "number"
    STRING = "string"
    DASH = "dash"
    EXPR = "expr"  # an expression in parentheses


@dataclass(eq=False)
class Word(Node):
    kind: WordKind
    value: object


@dataclass(eq=False)
class Move(Stmt):
    what: Node
    to: Node
    end: str | None = None  # top / bottom


@dataclass(eq=False)
class Add(Stmt):
    amount: Node
    target: Node


@dataclass(eq=False)
class Remove(Stmt):
    amount: Node
    target: Node


@dataclass(eq=False)
class Pay(Stmt):
    amount: Node
    target: Node


@dataclass(eq=False)
class Gain(Stmt):
    amount: Node
    counter: str
    owner: Node | None


@dataclass(eq=False)
class Lose(Stmt):
    amount: Node
    counter: str
    owner: Node | None


@dataclass(eq=False)
class SetStmt(Stmt):
    target: Node
    value: Node


@dataclass(eq=False)
class Let(Stmt):
    name: str
    value: Node


@dataclass(eq=False)
class Score(Stmt):
    amount: Node
    owner: Node | None
    source: Node | None = None  # the component the points are credited to


@dataclass(eq=False)
class Signal(Stmt):
    event: str
    args: list


@dataclass(eq=False)
class CallProc(Stmt):
    proc: str
    args: list


@dataclass(eq=False)
class Shuffle(Stmt):
    zone: Node


@dataclass(eq=False)
class Tag(Stmt):
    what: Node
    tag: str
    on: bool


@dataclass(eq=False)
class TapStmt(Stmt):
    what: Node
    on: bool


@dataclass(eq=False)
class Reveal(Stmt):
    what: Node


@dataclass(eq=False)
class Log(Stmt):
    text: str


@dataclass(eq=False)
class Win(Stmt):
    who: Node


@dataclass(eq=False)
class Exit(Stmt):
    proc: str


@dataclass(eq=False)
class Return(Stmt):
    pass


@dataclass(eq=False)
class Break(Stmt):
    pass


@dataclass(eq=False)
class Continue(Stmt):
    pass


@dataclass(eq=False)
class Pass(Stmt):
    pass


@dataclass(eq=False)
class Fail(Stmt):
    text: str


@dataclass(eq=False)
class Roll(Stmt):
    name: str
    count: Node
    sides: Node | None


@dataclass(eq=False)
class Choose(Stmt):
    var: str
    source: Node
    where: Node | None
    chooser: Node | None
    optional: bool
    prompt: str | None
    secret: bool = False


@dataclass(eq=False)
class Option(Node):
    label: str
    var: str | None
    source: Node | None
    cond: Node | None
    body: list


@dataclass(eq=False)
class ActionsOption(Node):
    window: str | None


@dataclass(eq=False)
class Menu(Stmt):
    chooser: Node | None
    prompt: str | None
    options: list
    secret: bool = False


@dataclass(eq=False)
class Prefer(Node):
    """One rule of a `decide`: its value, taken when `cond` holds and the value is not none."""
    value: Node
    cond: Node | None


@dataclass(eq=False)
class Decide(Stmt):
    var: str
    chooser: Node | None
    prompt: str | None
    rules: list  # of Prefer


@dataclass(eq=False)
class Use(Stmt):
    card: Node
    chooser: Node | None
    free: bool


@dataclass(eq=False)
class If(Stmt):
    branches: list  # of (cond, body)
    orelse: list | None


@dataclass(eq=False)
class For(Stmt):
    var: str
    source: Node
    where: Node | None
    body: list


@dataclass(eq=False)
class Repeat(Stmt):
    count: Node | None
    body: list


@dataclass(eq=False)
class While(Stmt):
    cond: Node
    body: list


# Top-level forms -------------------------------------------------------------

@dataclass(eq=False)
class Procedure(Node):
    body: list


class CostKind(enum.StrEnum):
    """What an action's cost is: tap the card, pay or spend a counter, sacrifice a component."""
    TAP = "tap"
    PAY = "pay"
    SPEND = "spend"
    SACRIFICE = "sacrifice"


@dataclass(eq=False)
class Cost(Node):
    kind: CostKind
    amount: Node | None = None
    name: str | None = None


@dataclass(eq=False)
class Trigger(Node):
    """`when EVENT` (the card the event is about) or `whenever EVENT` (every card in play)."""
    event: str
    broadcast: bool
    optional: bool
    cond: Node | None
    body: list


@dataclass(eq=False)
class Action(Node):
    label: str | None
    windows: list
    costs: list
    limit: str | None
    cond: Node | None
    body: list


@dataclass(eq=False)
class PhraseAbility(Node):
    phrase: Phrase


@dataclass(eq=False)
class Condition(Node):
    expr: Node


def children(node):
    """The nodes right under `node`, in the order of its fields (lists and tuples flattened,
    as an `if`'s (condition, body) branches; `None` and plain values left out)."""
    for value in vars(node).values():
        if isinstance(value, Node):
            yield value
        elif isinstance(value, (list, tuple)):
            stack = [iter(value)]
            while stack:
                item = next(stack[-1], _END)
                if item is _END:
                    stack.pop()
                elif isinstance(item, Node):
                    yield item
                elif isinstance(item, (list, tuple)):
                    stack.append(iter(item))


_END = object()


def walk(node, prune=()):
    """Every node under `node` (itself included), depth first, the last field first; a node
    of a class of `prune` is neither given nor entered (`walk(body, (Expr, Word))`: the
    statements of a body and the parts of statements, without walking each name and number)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, Node):
            if prune and isinstance(n, prune):
                continue
            yield n
            for value in vars(n).values():
                if isinstance(value, (Node, list, tuple)):
                    stack.append(value)
        elif isinstance(n, (list, tuple)):
            stack.extend(n)
