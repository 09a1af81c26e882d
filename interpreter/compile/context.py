"""What the compiler knows while it compiles one body: the code it fills, the names
bound there, what a keyword's parameters stand for on the card being compiled, the
loops around the current statement, and the native block being captured.
"""
from __future__ import annotations

from typing import NamedTuple

from ..engine.code import Code
from .assemble import Flow, Src


# What a keyword's parameter stands for on one card (the bindings the checker found).
class Const(NamedTuple):
    """A value printed on the card: a number or a name."""
    value: object


class ClassName(NamedTuple):
    """A class printed on the card, by its folded key."""
    key: str


class Computed(NamedTuple):
    """An expression printed on the card, compiled: `fn(state, frame)` gives its value."""
    fn: object


class Effect(NamedTuple):
    """The statements printed after ':', spliced in where the parameter is used, compiled
    with the bindings of their own place (`consts`)."""
    body: list
    consts: dict


class Ctx:
    """What the compiler knows while compiling one body."""

    def __init__(self, code: Code, consts=None, locals_=()):
        self.code = code
        self.consts = consts or {}  # keyword parameter -> Const, ClassName, Computed or Effect
        self.locals = set(locals_)
        self.loops: list[tuple[list, list]] = []  # (continue target cell, break patch list)
        self.hidden = 0
        self.capture = None  # while compiling a native block (see native): its statements' source
        self.native_loops = 0  # loops of the native block being compiled, around this point

    def emit(self, op, pos) -> int:
        """Append an operation given as a function (state, frame)."""
        self.code.ops.append(op)
        self.code.pos.append(pos)
        self.code.srcs.append(None)
        return len(self.code.ops) - 1

    def emit_src(self, lines, pos, flow: Flow = Flow.NEXT, line_pos=None) -> int:
        """Append an operation given as lines of Python source (or a function giving
        them once jumps are known), with its `Flow`. While a native block is compiled,
        the lines go into it instead."""
        if self.capture is not None:
            self.capture.append((lines, flow, pos))
            return -1
        self.code.ops.append(None)
        self.code.pos.append(pos)
        self.code.srcs.append(Src(lines, flow, line_pos))
        return len(self.code.ops) - 1

    def here(self) -> int:
        return len(self.code.ops)

    def fresh(self, what: str) -> str:
        self.hidden += 1
        return f"\x00{what}{self.hidden}"
