"""The typed syntax tree of the rules language.

One dataclass per construct, named after the grammar rule that builds it (as
in Lark's create_ast example). Every node keeps `pos`, its place in the
content file, so that checker errors and trace events can point at it.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..diagnostics import Position


@dataclass(eq=False)
class Node:
    pos: Position = field(repr=False, compare=False)


# Expressions -----------------------------------------------------------------

@dataclass(eq=False)
class Number(Node):
    value: int


@dataclass(eq=False)
class String(Node):
    value: str


@dataclass(eq=False)
class Bool(Node):
    value: bool


@dataclass(eq=False)
class NoneLit(Node):
    pass


@dataclass(eq=False)
class Name(Node):
    name: str


@dataclass(eq=False)
class Attr(Node):
    obj: Node
    name: str


@dataclass(eq=False)
class Index(Node):
    obj: Node
    key: Node


@dataclass(eq=False)
class Call(Node):
    func: str
    args: list


@dataclass(eq=False)
class ListLit(Node):
    items: list


@dataclass(eq=False)
class Each(Node):
    """`each x in S where C`: the members of S for which C holds."""
    var: str
    source: Node
    where: Node | None


@dataclass(eq=False)
class Mapped(Node):
    """`E for each x in S where C`: E for each such member."""
    expr: Node
    var: str
    source: Node
    where: Node | None


@dataclass(eq=False)
class BinOp(Node):
    op: str
    left: Node
    right: Node


@dataclass(eq=False)
class Compare(Node):
    op: str  # == != < <= > >= is isnot in notin
    left: Node
    right: Node


@dataclass(eq=False)
class BoolOp(Node):
    op: str  # and / or
    left: Node
    right: Node


@dataclass(eq=False)
class Not(Node):
    operand: Node


@dataclass(eq=False)
class Neg(Node):
    operand: Node


# Statements ------------------------------------------------------------------

@dataclass(eq=False)
class Phrase(Node):
    """Words as printed on a card; resolved against the keyword library."""
    words: list  # of Word
    body: list | None = None  # statements after ':'


@dataclass(eq=False)
class Word(Node):
    kind: str  # name, number, string, dash, expr
    value: object


@dataclass(eq=False)
class Move(Node):
    what: Node
    to: Node
    end: str | None = None  # top / bottom


@dataclass(eq=False)
class Add(Node):
    amount: Node
    target: Node


@dataclass(eq=False)
class Remove(Node):
    amount: Node
    target: Node


@dataclass(eq=False)
class Pay(Node):
    amount: Node
    target: Node


@dataclass(eq=False)
class Gain(Node):
    amount: Node
    counter: str
    owner: Node | None


@dataclass(eq=False)
class Lose(Node):
    amount: Node
    counter: str
    owner: Node | None


@dataclass(eq=False)
class SetStmt(Node):
    target: Node
    value: Node


@dataclass(eq=False)
class Let(Node):
    name: str
    value: Node


@dataclass(eq=False)
class Score(Node):
    amount: Node
    owner: Node | None
    source: Node | None = None  # the component the points are credited to


@dataclass(eq=False)
class Signal(Node):
    event: str
    args: list


@dataclass(eq=False)
class CallProc(Node):
    proc: str
    args: list


@dataclass(eq=False)
class Shuffle(Node):
    zone: Node


@dataclass(eq=False)
class Tag(Node):
    what: Node
    tag: str
    on: bool


@dataclass(eq=False)
class TapStmt(Node):
    what: Node
    on: bool


@dataclass(eq=False)
class Reveal(Node):
    what: Node


@dataclass(eq=False)
class Log(Node):
    text: str


@dataclass(eq=False)
class Win(Node):
    who: Node


@dataclass(eq=False)
class Exit(Node):
    proc: str


@dataclass(eq=False)
class Return(Node):
    pass


@dataclass(eq=False)
class Break(Node):
    pass


@dataclass(eq=False)
class Continue(Node):
    pass


@dataclass(eq=False)
class Pass(Node):
    pass


@dataclass(eq=False)
class Fail(Node):
    text: str


@dataclass(eq=False)
class Roll(Node):
    name: str
    count: Node
    sides: Node | None


@dataclass(eq=False)
class Choose(Node):
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
class Menu(Node):
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
class Decide(Node):
    var: str
    chooser: Node | None
    prompt: str | None
    rules: list  # of Prefer


@dataclass(eq=False)
class Use(Node):
    card: Node
    chooser: Node | None
    free: bool


@dataclass(eq=False)
class If(Node):
    branches: list  # of (cond, body)
    orelse: list | None


@dataclass(eq=False)
class For(Node):
    var: str
    source: Node
    where: Node | None
    body: list


@dataclass(eq=False)
class Repeat(Node):
    count: Node | None
    body: list


@dataclass(eq=False)
class While(Node):
    cond: Node
    body: list


# Top-level forms -------------------------------------------------------------

@dataclass(eq=False)
class Procedure(Node):
    body: list


@dataclass(eq=False)
class Cost(Node):
    kind: str  # tap, pay, spend, sacrifice
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


def walk(node):
    """Every node under `node` (itself included), depth first."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, Node):
            yield n
            for value in vars(n).values():
                if isinstance(value, (Node, list, tuple)):
                    stack.append(value)
        elif isinstance(n, (list, tuple)):
            stack.extend(n)
