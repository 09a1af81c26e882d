"""Stage 5b, assemble: the operations of a compiled body become Python functions.

The compiler writes each statement as a few lines of Python source (`Src`).
Here every operation `i` of a `Code` becomes one function `(state, frame)`
that runs operation `i` and then, inline, the operations after it for as long
as the run surely or possibly goes on (up to a jump, a call, a choice that
waits or an end). The machine (`vm.run`) thus dispatches once per straight
run of statements, not once per statement, while every operation keeps its
own entry, so jumps, saved frames and menus still name operations by index.

Before each operation it runs inline, the function sets `frame.pc` as the
machine would have: an error then names the line of the statement that made
it, and a choice resumes at the right place.
"""
from __future__ import annotations

MAX_RUN = 16  # operations inlined in one function at most (the source grows as runs overlap)


class Src:
    """The Python source of one operation; `flow` says if the run goes on after it:
    "next" (always), "branch" (unless it returned) or "end" (never)."""

    __slots__ = ("lines", "flow")

    def __init__(self, lines, flow: str):
        self.lines = lines
        self.flow = flow

    def render(self) -> list:
        return self.lines() if callable(self.lines) else self.lines


def finish(code, ns: dict) -> None:
    """Turn the source operations of `code` into functions, in namespace `ns`."""
    srcs = code.srcs
    if not any(s is not None for s in srcs):
        return
    rendered = [s.render() if s is not None else None for s in srcs]
    parts = []
    for i, s in enumerate(srcs):
        if s is None or code.ops[i] is not None:
            continue
        body = []
        j = i
        while True:
            if j > i:
                body.append(f"fr.pc = {j + 1}")
            body.extend(rendered[j])
            if srcs[j].flow == "end":
                break
            j += 1
            if j >= len(srcs) or srcs[j] is None or j - i >= MAX_RUN:
                break
        parts.append(f"def op_{i}(st, fr):\n" + "".join(f"    {line}\n" for line in body))
    text = "\n".join(parts)
    local: dict = {}
    # our own generated source: content enters it only as constants of `ns` and repr'd names
    exec(compile(text, f"<code {code.name}>", "exec"), ns, local)  # noqa: S102
    for i, s in enumerate(srcs):
        if s is not None and code.ops[i] is None:
            code.ops[i] = local[f"op_{i}"]
    code.srcs = [None] * len(srcs)  # assembled: nothing left to do
