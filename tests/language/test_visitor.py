"""Every pass over the syntax tree handles every node class it can meet.

The families come from `language.nodes` at test time: the subclasses of
`nodes.Expr` (what expression passes meet) and of `nodes.Stmt` (what statement
passes meet). A pass handles a class by a `visit_<ClassName>` method, or by
naming it in its `GENERIC` set (its generic fallback is right for it): a node
class added to `nodes.py` fails here until each pass says how it takes it.
"""
from __future__ import annotations

import dataclasses

import pytest

from interpreter.compile.expressions import ExprGen
from interpreter.compile.statements import Compiler
from interpreter.language import nodes as N
from interpreter.language.check_expressions import ExpressionChecks
from interpreter.language.check_flow import FlowWalk
from interpreter.language.check_statements import StatementChecks
from interpreter.language.checker import PASSES, Checker
from interpreter.language.offers import Offers
from interpreter.language.prose.english import English
from interpreter.language.prose.french import French
from interpreter.language.visitor import NodeVisitor, children, visitor_name


def family(base) -> set:
    """Every node class of `nodes.py` under `base` (read from the module now)."""
    return {c for c in vars(N).values() if isinstance(c, type) and issubclass(c, base) and c is not base}


# the expressions a pass over expressions meets: a condition (a whole ability's or rule's) is one
EXPRESSIONS = ("expressions", lambda: family(N.Expr) | {N.Condition})
STATEMENTS = ("statements", lambda: family(N.Stmt))
# the prose renderers write every node a card can hold: expressions, statements, their parts, abilities
EVERYTHING = ("every node", lambda: family(N.Node) - {N.Expr, N.Stmt, N.Word})

# (visitor class, the methods' owner, family): the checker's passes are mixins of one Checker
PASSES_OVER_NODES = [
    (Compiler, Compiler, STATEMENTS),
    (ExprGen, ExprGen, EXPRESSIONS),
    (Checker, StatementChecks, STATEMENTS),
    (Checker, ExpressionChecks, EXPRESSIONS),
    (FlowWalk, FlowWalk, STATEMENTS),
    (Offers, Offers, EXPRESSIONS),
    (English, English, EVERYTHING),
    (French, French, EVERYTHING),
]


def unhandled(visitor: type, owner: type, classes: set) -> set:
    return {c.__name__ for c in classes if not hasattr(owner, visitor_name(c)) and c not in visitor.GENERIC}


@pytest.mark.parametrize("visitor,owner,kind", PASSES_OVER_NODES,
                         ids=[f"{o.__name__}-{k[0]}" for _, o, k in PASSES_OVER_NODES])
def test_every_node_class_is_handled_by_every_pass(visitor, owner, kind):
    assert issubclass(visitor, NodeVisitor)
    name, classes = kind
    missing = unhandled(visitor, owner, classes())
    assert not missing, f"{owner.__name__} has no visit_ method for these {name}, nor names them in GENERIC: {missing}"
    # a class in GENERIC with a method of its own is one or the other
    assert not {c for c in visitor.GENERIC if hasattr(owner, visitor_name(c))}


def test_a_node_class_added_and_forgotten_fails(monkeypatch):
    @dataclasses.dataclass(eq=False)
    class Teleport(N.Stmt):
        what: N.Node

    @dataclasses.dataclass(eq=False)
    class Twice(N.Expr):
        operand: N.Node

    monkeypatch.setattr(N, "Teleport", Teleport, raising=False)
    monkeypatch.setattr(N, "Twice", Twice, raising=False)
    for visitor, owner, (name, classes) in PASSES_OVER_NODES:
        missing = unhandled(visitor, owner, classes())
        assert missing & {"Teleport", "Twice"}, owner


def test_the_families_cover_the_tree():
    every = family(N.Node) - {N.Expr, N.Stmt}
    parts = {N.Word, N.Option, N.ActionsOption, N.Prefer}  # pieces of statements, visited by theirs
    forms = {N.Procedure, N.Cost, N.Trigger, N.Action, N.PhraseAbility, N.Condition}  # top-level forms
    assert every == family(N.Expr) | family(N.Stmt) | parts | forms
    assert not family(N.Expr) & family(N.Stmt)


def test_the_method_of_a_class_is_found_once_and_kept():
    class Counting(NodeVisitor):
        def visit_Number(self, e):
            return e.value

    v = Counting()
    one = N.Number(None, 1)
    assert v.visit(one) == 1 and Counting._methods[N.Number] is Counting.visit_Number
    assert v.get_visitor(one)(one) == 1
    assert v.visit(N.Name(None, "x")) is None and Counting._methods[N.Name] is Counting.generic_visit
    assert v.get_visitor(N.Name(None, "x")) is None
    assert set(Counting._methods) == {N.Number, N.Name}
    assert N.Number not in NodeVisitor._methods  # each visitor class keeps its own


def test_the_generic_visit_walks_the_children_in_order():
    seen = []

    class Names(NodeVisitor):
        def visit_Name(self, e):
            seen.append(e.name)

    tree = N.If(None, [(N.Name(None, "a"), [N.Win(None, N.Name(None, "b"))])], [N.Let(None, "x", N.Name(None, "c"))])
    Names().visit(tree)
    assert seen == ["a", "b", "c"]
    assert [type(c).__name__ for c in children(tree)] == ["Name", "Win", "Let"]


def test_the_checker_runs_its_passes_in_a_declared_order():
    assert len(PASSES) == len(set(PASSES)) > 10
    for run in PASSES:
        assert getattr(Checker, run.__name__) is run and run.__doc__, run.__name__
