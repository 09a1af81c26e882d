"""Statements that never wait, compiled to one block of Python.

A branch or a loop whose statements can neither wait for a decision nor start
other code (no choice, menu, call or signal) runs from start to end in one go.
It then needs no jumps between operations: it becomes a single operation whose
source is a real Python `if`, `for` or `while`, with the statements' own source
inside (captured from the compiler, see `Ctx.capture`). Loops that might not
end take their rounds from the budget of work that the machine's operations
share (interpreter.limits).
The position of every line is kept, so an error names its own statement.
Python compiles at most 20 loops nested in one function, and indents at most
100 levels: a branch or loop holding more than MAX_LOOPS loops, or nested more
than MAX_NESTING deep, is compiled as operations (as a block that waits is),
and the blocks inside it natively again.
"""
from __future__ import annotations

from ..language import nodes as N
from .assemble import Flow

# statements that finish without waiting and without starting other code
_PLAIN = (N.Move, N.Add, N.Remove, N.Pay, N.Gain, N.Lose, N.Score, N.SetStmt, N.Let, N.Shuffle, N.Tag,
          N.TapStmt, N.Reveal, N.Log, N.Roll, N.Pass)
# statements after which the running code stops (the block returns)
_FINAL = (N.Win, N.Exit, N.Return, N.Fail)
_LOOPS = (N.For, N.Repeat, N.While)
# the most loops nested in one native block: Python refuses more than 20 nested blocks in a
# function, and a statement's own source may add one (a 'for' over the components it tags)
MAX_LOOPS = 16
# the most branches and loops nested in one native block (Python indents 100 levels at most)
MAX_NESTING = 64
# the most branches of one native 'if' (Python's compiler recurses once per 'elif')
MAX_BRANCHES = 100


def nesting(body) -> tuple:
    """(loops, branches and loops) nested deepest in statements `body`."""
    loops = blocks = 0
    for s in body:
        if isinstance(s, N.If):
            inner = [nesting(b) for _, b in s.branches] + [nesting(s.orelse or [])]
            loops = max(loops, *(n[0] for n in inner))
            blocks = max(blocks, 1 + max(n[1] for n in inner))
        elif isinstance(s, _LOOPS):
            n = nesting(s.body)
            loops, blocks = max(loops, 1 + n[0]), max(blocks, 1 + n[1])
    return loops, blocks


def runs_through(body, in_loop: bool) -> bool:
    """Whether statements `body` run through without waiting; `break` and `continue`
    count only inside a loop of the block itself."""
    for s in body:
        if isinstance(s, _PLAIN) or isinstance(s, _FINAL):
            continue
        if isinstance(s, (N.Break, N.Continue)):
            if not in_loop:
                return False
            continue
        if isinstance(s, N.If):
            if not all(runs_through(b, in_loop) for _, b in s.branches) or not runs_through(s.orelse or [], in_loop):
                return False
            continue
        if isinstance(s, _LOOPS):
            if not runs_through(s.body, True):
                return False
            continue
        return False
    return True


class Block:
    """Lines of Python with the position of each, and whether one may return."""

    def __init__(self):
        self.lines: list = []
        self.pos: list = []
        self.returns = False

    def add(self, line: str, pos, depth: int = 0) -> None:
        self.lines.append("    " * depth + line)
        self.pos.append(pos)

    def extend(self, entries, depth: int) -> None:
        """Add statements captured from the compiler: (lines, flow, position) each."""
        start = len(self.lines)
        for lines, flow, pos in entries:
            if isinstance(lines, Block):
                self.lines.extend("    " * depth + line for line in lines.lines)
                self.pos.extend(lines.pos)
                self.returns = self.returns or lines.returns
                continue
            for line in lines() if callable(lines) else lines:
                self.add(line, pos, depth)
            if flow is Flow.END:
                self.add("return", pos, depth)  # the code stopped: leave the block
            if flow is not Flow.NEXT:
                self.returns = True
        if len(self.lines) == start:
            self.add("pass", None, depth)


class NativeBlocks:
    """Mixed into `compiler.Compiler`: branches and loops compiled as native blocks."""

    def captured(self, body, ctx, loop: bool = False) -> list:
        """The statements of `body`, compiled to captured source instead of operations."""
        saved, ctx.capture = ctx.capture, []
        if loop:
            ctx.native_loops += 1
        try:
            self.block(body, ctx)
            return ctx.capture
        finally:
            ctx.capture = saved
            if loop:
                ctx.native_loops -= 1

    def can_inline(self, bodies, ctx, loop: bool) -> bool:
        """Whether the branch or loop of `bodies` may be one native block: none of its statements
        waits, and it nests no deeper than Python allows. Inside a native block, every block
        inside may (the outermost was measured with all it holds)."""
        inside = ctx.capture is not None
        in_loop = loop or (inside and ctx.native_loops > 0)
        if not all(runs_through(b, in_loop) for b in bodies):
            return False
        if inside:
            return True
        depth = [nesting(b) for b in bodies]
        return loop + max(n[0] for n in depth) <= MAX_LOOPS and 1 + max(n[1] for n in depth) <= MAX_NESTING

    def put(self, block: Block, ctx, pos) -> None:
        """Emit a finished block: as one operation, or into the block being captured."""
        if ctx.capture is not None:
            ctx.capture.append((block, Flow.NEXT, pos))
            return
        ctx.emit_src(block.lines, pos, Flow.BRANCH if block.returns else Flow.NEXT, block.pos)

    def native_if(self, s, ctx) -> None:
        b = Block()
        for i, (cond, body) in enumerate(s.branches):
            b.add(f"{'if' if i == 0 else 'elif'} {self.gen.test(cond, ctx, self.scope())}:", cond.pos)
            b.extend(self.captured(body, ctx), 1)
        if s.orelse:
            b.add("else:", s.pos)
            b.extend(self.captured(s.orelse, ctx), 1)
        self.put(b, ctx, s.pos)

    def _counted(self, b: Block, pos) -> None:
        """Take a round of a loop that might not end from the budget of work (interpreter.limits),
        which every loop shares: nested loops do not each get a budget of their own."""
        b.add("st.fuel -= 1", pos, 1)
        b.add(f"if st.fuel < 0: R_runaway(st, {self.const(pos, 'P')})", pos, 1)

    def native_for(self, s, ctx) -> None:
        ctx.locals.add(s.var)
        d = ctx.native_loops
        b = Block()
        source = self.source(s.source, ctx)
        b.add(f"for _x{d} in tuple(R_it(st, {source}, {self.const(s.pos, 'P')})):", s.pos)
        b.add(f"fr.env[{s.var!r}] = _x{d}", s.pos, 1)
        if s.where is not None:
            b.add(f"if not ({self.gen.test(s.where, ctx, self.scope())}):", s.pos, 1)
            b.add("continue", s.pos, 2)
        b.extend(self.captured(s.body, ctx, loop=True), 1)
        self.put(b, ctx, s.pos)

    def native_repeat(self, s, ctx) -> None:
        d = ctx.native_loops
        b = Block()
        if s.count is not None:
            b.add(f"for _r{d} in R_rounds(st, {self.number(s.count, ctx)}, {self.const(s.pos, 'P')}):", s.pos)
        else:
            b.add("while True:", s.pos)
            self._counted(b, s.pos)
        b.extend(self.captured(s.body, ctx, loop=True), 1)
        self.put(b, ctx, s.pos)

    def native_while(self, s, ctx) -> None:
        b = Block()
        b.add(f"while {self.gen.test(s.cond, ctx, self.scope())}:", s.pos)
        self._counted(b, s.pos)
        b.extend(self.captured(s.body, ctx, loop=True), 1)
        self.put(b, ctx, s.pos)
