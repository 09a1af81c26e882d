"""An expression of the rules language written back as text, from its checked tree.

Used where the text of an expression is wanted and its place in a file cannot give
it whole (an expression over several lines, or in a quoted YAML string whose escapes
move the columns): the answer to "why not?" names a condition by its text. The text
reads as content would write it, with parentheses only where the grammar needs them.
"""
from __future__ import annotations

from . import nodes as N

# how tightly each kind of expression binds (the grammar's levels, loosest first)
_OR, _AND, _NOT, _COMPARE, _SUM, _PRODUCT, _UNARY, _ATOM = range(8)
_COMPARISONS = {"isnot": "is not", "notin": "not in"}


def written(node) -> str:
    """The text of expression `node`, as the rules language writes it."""
    return _text(node)[0]


def _text(e) -> tuple[str, int]:
    """The text of `e`, and how tightly it binds."""
    if isinstance(e, N.Condition):
        return _text(e.expr)
    if isinstance(e, N.Number):
        return str(e.value), _ATOM
    if isinstance(e, N.String):
        return '"' + e.value.replace("\\", "\\\\").replace('"', '\\"') + '"', _ATOM
    if isinstance(e, N.Bool):
        return ("true" if e.value else "false"), _ATOM
    if isinstance(e, N.NoneLit):
        return "none", _ATOM
    if isinstance(e, N.Name):
        return e.name, _ATOM
    if isinstance(e, N.Attr):
        return f"{_at(e.obj, _UNARY + 1)}.{e.name}", _ATOM
    if isinstance(e, N.Index):
        return f"{_at(e.obj, _UNARY + 1)}[{written(e.key)}]", _ATOM
    if isinstance(e, N.Call):
        return f"{e.func}({', '.join(written(a) for a in e.args)})", _ATOM
    if isinstance(e, N.ListLit):
        return f"[{', '.join(written(a) for a in e.items)}]", _ATOM
    if isinstance(e, N.Each):
        return f"each {e.var} in {written(e.source)}{_where(e.where)}", _OR
    if isinstance(e, N.Mapped):
        return f"{written(e.expr)} for each {e.var} in {written(e.source)}{_where(e.where)}", _OR
    if isinstance(e, N.BoolOp):
        level = _OR if e.op == "or" else _AND
        return f"{_at(e.left, level)} {e.op} {_at(e.right, level + 1)}", level
    if isinstance(e, N.Not):
        # `not (c is Moved)`, as content writes it, rather than the bare `not c is Moved`
        return f"not {_at(e.operand, _COMPARE + 1)}", _NOT
    if isinstance(e, N.Compare):
        op = _COMPARISONS.get(e.op, e.op)
        return f"{_at(e.left, _SUM)} {op} {_at(e.right, _SUM)}", _COMPARE
    if isinstance(e, N.BinOp):
        level = _SUM if e.op in ("+", "-") else _PRODUCT
        return f"{_at(e.left, level)} {e.op} {_at(e.right, level + 1)}", level
    if isinstance(e, N.Neg):
        return f"-{_at(e.operand, _UNARY)}", _UNARY
    return f"<{type(e).__name__}>", _ATOM


def _at(e, level: int) -> str:
    """The text of `e` where an expression binding at least as tightly as `level` is needed."""
    text, own = _text(e)
    return text if own >= level else f"({text})"


def _where(cond) -> str:
    return f" where {written(cond)}" if cond is not None else ""
