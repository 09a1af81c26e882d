"""Compiled code as the machine runs it: the operations of one procedure or ability.

The compiler (stage 5) makes a `Code` for each procedure, ability, test part or
expression context; the machine runs its operations, each a Python function
`(state, frame)`, and maps an error back to the statement that made it.
"""
from __future__ import annotations

import enum


class CodeKind(enum.StrEnum):
    """What a `Code` is the code of."""
    PROC = "proc"  # a procedure of the game (its `proc` the procedure's name)
    SCRIPT = "script"  # a part of a rules test
    ABILITY = "ability"  # an ability of a card (its `source` the ability)
    ACTION = "action"  # an action of a card, used from a menu (its `source` the ability)
    FUNCTION = "function"  # a function of the game, or a shape
    INVARIANT = "invariant"
    HEURISTIC = "heuristic"
    AUTOMATON = "automaton"
    SEAT_LABEL = "seat label"
    BINDING = "binding"  # a keyword's parameter computed once
    WHY = "why"  # a condition read to say why an option is not offered
    THEN = "then"  # a rules test's expected condition
    TABLE = "table"  # a condition of the web table's layout


class Code:
    """The operations of one procedure or ability, with the position of each."""

    __slots__ = ("name", "ops", "pos", "kind", "proc", "source", "menus", "choices", "srcs", "filename",
                 "line_pos", "pending")

    def __init__(self, name, kind: CodeKind, proc=None, source=None):
        self.name = name
        self.ops = []
        self.pos = []
        self.srcs = []  # the Python source of each operation still to be assembled (or None)
        self.filename = None  # of the assembled source, whose line numbers map to positions:
        self.line_pos = {}  # line -> position of the statement it belongs to
        self.pending = None  # what compiles the functions of its operations, until they are
        self.menus = {}  # index of a menu operation -> its MenuSpec (to restore a saved decision)
        self.choices = {}  # index of a choose operation -> its ChooseSpec (to say why a candidate is not offered)
        self.kind = kind
        self.proc = proc
        self.source = source

    def __repr__(self):
        return f"<Code {self.name}>"

    def ready(self) -> None:
        """Compile the functions of the operations now, if they wait for the code's first run:
        for whoever reads `ops` rather than running them (compile.assemble)."""
        if self.pending is not None:
            self.pending()

    def position_of(self, tb):
        """The position of the statement of this code that raised, from traceback `tb`."""
        found = None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == self.filename:
                found = self.line_pos.get(tb.tb_lineno)
            tb = tb.tb_next
        return found
