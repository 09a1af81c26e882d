"""One way to walk the syntax tree: a visitor with a method per node class.

In the manner of Jinja's `visitor.py`: `visit(node, ...)` calls the method
`visit_<ClassName>` of the visitor (with the same further arguments), or
`generic_visit` when it has none, which visits the nodes under `node` in turn.
The method a class of node gets is looked up once per visitor class and node
class, and kept: dispatching costs a dictionary read, no string is built.

Every pass over the tree is one: the compiler of statements
(`compile.statements.Compiler`) and of expressions (`compile.expressions.ExprGen`),
the checks of statements and expressions (`check_statements`, `check_expressions`,
the flow of locals in `check_flow`), and the prose renderers (`prose.english`,
`prose.french`: a language overrides the `visit_` methods it writes otherwise).
A visitor's `GENERIC` names the node classes for which its generic fallback is
the right thing; `tests/language/test_visitor.py` checks that every node class
of the family a visitor meets (`nodes.Expr`, `nodes.Stmt`) has a method there or
is in `GENERIC`, so that a new node class cannot be forgotten by a pass.
"""
from __future__ import annotations

from .nodes import children, walk

__all__ = ["NodeVisitor", "children", "walk", "visitor_name"]


def visitor_name(cls: type) -> str:
    """The name of the method that visits nodes of class `cls`."""
    return "visit_" + cls.__name__


class _Methods(dict):
    """Node class -> the function that visits it for one visitor class (its `visit_` method, or
    its `generic_visit`), found on first use and kept."""

    def __init__(self, visitor: type):
        super().__init__()
        self.visitor = visitor

    def __missing__(self, t: type):
        found = getattr(self.visitor, visitor_name(t), None)
        if found is None:
            found = self.visitor.generic_visit
        self[t] = found
        return found


class NodeVisitor:
    """Walks a tree, calling `visit_<ClassName>` for each node it is asked to visit.

    `_methods[type(node)]` is the function that visits a node (called with the visitor first):
    a pass whose dispatch is hot reads it directly, `self._methods[type(e)](self, e, ...)`, one
    dictionary read and one call, as cheap as a method looked up by name."""

    # node classes for which `generic_visit` is right (see the module's docstring); each
    # visitor documents its own
    GENERIC: frozenset = frozenset()

    _methods: _Methods

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._methods = _Methods(cls)

    def get_visitor(self, node):
        """The bound method that visits `node`, or None when the visitor has none for its class."""
        found = self._methods[type(node)]
        return None if found is type(self).generic_visit else found.__get__(self)

    def visit(self, node, *args, **kwargs):
        """Visit `node` with its `visit_` method, or `generic_visit`."""
        return self._methods[type(node)](self, node, *args, **kwargs)

    def generic_visit(self, node, *args, **kwargs):
        """Visit each node under `node` (see `nodes.children`)."""
        for child in children(node):
            self.visit(child, *args, **kwargs)


NodeVisitor._methods = _Methods(NodeVisitor)
