"""Stage 5b, assemble: the operations of a compiled body become Python functions.

The compiler writes each statement as a few lines of Python source (`Src`).
Here every operation `i` of a `Code` becomes one function `(state, frame)`
that runs operation `i` and then, inline, the operations after it for as long
as the run surely or possibly goes on (up to a jump, a call, a choice that
waits or an end). The machine (`vm.run`) thus dispatches once per straight
run of statements, not once per statement, while every operation keeps its
own entry, so jumps, saved frames and menus still name operations by index.

Before an operation it runs inline that may wait, start other code or end
the run, the function sets `frame.pc` as the machine would have, so a choice
resumes at the right place. Each line of the source keeps the position of its
statement (`Code.line_pos`): an error names the statement that made it.

The source is written when the body is compiled (`finish`), and each operation's function
is compiled when the machine first dispatches it: Python's `compile()` was most of a game's
compiling, a game may run few of its codes (in one of the shipped games, about one in six
of them), and of a code's operations the machine dispatches only those a run starts at (the
others run inline, inside the function before them: of a straight run of 20,000 statements,
one operation in `MAX_RUN`). Until then each operation is a stub that compiles its own
function, puts it in its place and runs it; `Code.ready()` compiles the ones left at once,
for whoever reads the functions.
"""
from __future__ import annotations

import threading
import types
from enum import Enum

from ..engine.state import GameFault
from .warm import code_store, compiled

MAX_RUN = 16  # operations inlined in one function at most (the source grows as runs overlap)
_COMPILING = threading.Lock()  # one function compiled at a time: games of one program may run in threads


class Flow(Enum):
    """Whether the run of operations goes on after one of them."""

    NEXT = "always"
    BRANCH = "unless it returned"
    END = "never"


class Src:
    """The Python source of one operation, and its `Flow`."""

    __slots__ = ("lines", "flow", "line_pos")

    def __init__(self, lines, flow: Flow, line_pos=None):
        self.lines = lines
        self.flow = flow
        self.line_pos = line_pos  # the position of each line, when not all the operation's

    def render(self) -> list:
        return self.lines() if callable(self.lines) else self.lines


def finish(code, ns: dict) -> None:
    """Write the source of the operations of `code` and leave each to be compiled into its
    function, in namespace `ns`, when it first runs (see the module's docstring)."""
    srcs = code.srcs
    if not any(s is not None for s in srcs):
        return
    text, line_pos, spans = _source(code)
    code.filename = f"<code {code.name}>"
    code.line_pos = line_pos
    code.srcs = [None] * len(srcs)  # written: nothing left to write
    store = code_store()  # the load's warm store (or None), which the compiled functions go through
    left: dict = {}  # operation -> its stub, until its function replaces it
    earlier = code.pending  # the operations of an earlier body of the same code, if not compiled yet

    def compile_op(i) -> None:
        with _COMPILING:
            if code.ops[i] is not left.get(i):
                return  # compiled already (another thread's stub got there first)
            first, end = spans[i]
            try:
                code.ops[i] = _function(code.filename, text, first, end, ns, store, f"op_{i}")
            except (SyntaxError, ValueError, MemoryError, RecursionError) as exc:
                # Python refused the source the engine wrote: a fault of the engine, which
                # stops the game where the code starts (its trace kept), never a traceback
                where = next((p for p in code.pos if p is not None), None)
                raise GameFault(f"the engine cannot compile {code.name} ({type(exc).__name__}: {exc})", where) from None
            del left[i]
            if not left:  # every function made: the source dropped, and what is left is the earlier body's
                text.clear()
                if code.pending is ready:
                    code.pending = earlier if earlier is not None and earlier.left else None

    def ready():
        if earlier is not None:
            earlier()
        for i in list(left):
            compile_op(i)

    def stub(i):
        def op(st, fr):
            compile_op(i)
            code.ops[i](st, fr)
        return op

    for i in spans:
        code.ops[i] = left[i] = stub(i)
    ready.left = left  # what a later body of the same code asks: whether this one is all compiled
    code.pending = ready


def _source(code) -> tuple:
    """The lines of Python of the operations of `code`, the position of each line, and the
    lines of each operation's function (operation -> (first, end), indexes of the lines)."""
    srcs = code.srcs
    rendered = [s.render() if s is not None else None for s in srcs]
    text: list = []
    line_pos = {}
    spans = {}

    def put(line, pos):
        text.append(line)
        line_pos[len(text)] = pos

    for i, s in enumerate(srcs):
        if s is None or code.ops[i] is not None:
            continue
        first = len(text)
        put(f"def op_{i}(st, fr):", code.pos[i])
        start = len(text)
        j = i
        while True:
            last = srcs[j].flow is Flow.END or j + 1 >= len(srcs) or srcs[j + 1] is None or j + 1 - i >= MAX_RUN
            sets_pc = rendered[j] and rendered[j][0].startswith("fr.pc = ")
            if j > i and (last or srcs[j].flow is not Flow.NEXT) and not sets_pc:
                # where the frame resumes if this operation waits or starts other code
                put(f"    fr.pc = {j + 1}", code.pos[j])
            poss = srcs[j].line_pos
            for k, line in enumerate(rendered[j]):
                put(f"    {line}", poss[k] if poss is not None and poss[k] is not None else code.pos[j])
            if last:
                break
            j += 1
        if j == len(srcs) - 1 and srcs[j].flow is not Flow.END:
            put("    st.frames.pop()", code.pos[j])  # the end of the code: leave it here, not in the machine
        _local_env(text, line_pos, start, code.pos[i])
        spans[i] = (first, len(text))
        put("", None)
    return text, line_pos, spans


def _local_env(text: list, line_pos: dict, start: int, pos) -> None:
    """Read the frame's locals through a Python local in the function whose body is
    `text[start:]`, when it reads them more than once: `fr.env` is an attribute load each
    time, and the frame's dictionary is never replaced while its code runs (the line is
    inserted first; the positions of the lines after it move down one)."""
    body = text[start:]
    if sum(line.count("fr.env") for line in body) < 2:
        return
    text[start:] = ["    _env = fr.env", *(line.replace("fr.env", "_env") for line in body)]
    # the body's lines are the last ones written: lines start + 1 onwards, moved down from the end
    for n in range(start + len(body), start, -1):
        if n in line_pos:
            line_pos[n + 1] = line_pos.pop(n)
    line_pos[start + 1] = pos


def _function(filename: str, text: list, first: int, end: int, ns: dict, store, name: str):
    """The function the lines `text[first:end]` define, with globals `ns`, its lines numbered
    as they are in `text` (line k + 1 for `text[k]`, which `Code.line_pos` maps to positions)."""
    # our own generated source: content enters it only as constants of `ns` and repr'd names.
    # Compiled alone at line 1, then moved to its line: a prefix of blank lines would make each
    # compile read all the lines before it, and a code of many operations compiled one
    # function at a time would read its source as many times over.
    module = compiled("\n".join(text[first:end]), filename, "exec", store)
    body = next(c for c in module.co_consts if isinstance(c, types.CodeType) and c.co_name == name)
    return types.FunctionType(_moved(body, first), ns, name)


def _moved(body: types.CodeType, lines: int) -> types.CodeType:
    """`body`, and the code nested in it (comprehensions, lambdas), `lines` lines further down."""
    consts = tuple(_moved(c, lines) if isinstance(c, types.CodeType) else c for c in body.co_consts)
    return body.replace(co_firstlineno=body.co_firstlineno + lines, co_consts=consts)
