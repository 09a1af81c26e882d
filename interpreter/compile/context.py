"""What the compiler knows while it compiles one body: the code it fills, the names
bound there, the loops around the current statement, and the native block being
captured (see `native`).
"""
from __future__ import annotations

from . import assemble


class Ctx:
    """What the compiler knows while compiling one body."""

    def __init__(self, cg, code: Code, consts=None, locals_=()):
        self.cg = cg
        self.code = code
        self.consts = consts or {}
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

    def emit_src(self, lines, pos, flow: str = "next", line_pos=None) -> int:
        """Append an operation given as lines of Python source (or a function giving
        them once jumps are known); `flow` says whether the run may go on after it:
        always ("next"), unless it returned ("branch"), or never ("end"). While a
        native block is compiled, the lines go into it instead."""
        if self.capture is not None:
            self.capture.append((lines, flow, pos))
            return -1
        self.code.ops.append(None)
        self.code.pos.append(pos)
        self.code.srcs.append(assemble.Src(lines, flow, line_pos))
        return len(self.code.ops) - 1

    def here(self) -> int:
        return len(self.code.ops)

    def fresh(self, what: str) -> str:
        self.hidden += 1
        return f"\x00{what}{self.hidden}"
