"""`regles profile`: where a game's time goes, by content line and by game function.

A designer whose game plays slowly wants to know which of their rules costs
the time, not which function of the engine: the answer is in the content's
own terms. The games are played twice with the same seeds and bots: once as
they are, for the true time per decision, and once with every operation of
the compiled code and every game function timed. Time is then given:

- per statement: each operation runs its statement and, inline, those after
  it up to the next pause (a choice, a call, a jump), so a line's time is that
  of the run of statements starting there; operations of the same line (a
  keyword's ability on many cards) are added up;
- per game function: the time of its outermost calls, with what it calls
  (as cProfile's cumulative time: shares of functions overlap);
- the engine between statements: resolving the option picked, the machine's
  loop, making the next decision.

The timing wraps the compiled program of a game loaded for this purpose only
and is taken off afterwards; the profiled games are checked to make the same
number of decisions as the plain ones (the wrapping changes nothing they do).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..diagnostics import source_line
from ..engine.values import seed_for
from .simulate import play_game


@dataclass
class Row:
    """The time of one content line or game function over the profiled games."""

    what: str  # "statement" or "function"
    name: str  # the code or function it belongs to
    where: str  # path:line:column, or "" when unknown
    text: str  # the content line, stripped
    calls: int = 0
    seconds: float = 0.0

    def as_json(self, decisions: int, total: float) -> dict:
        return {"kind": self.what, "name": self.name, "where": self.where, "text": self.text, "calls": self.calls,
                "seconds": round(self.seconds, 6), "share": round(self.seconds / total, 4) if total else 0.0,
                "microseconds_per_decision": round(self.seconds / decisions * 1e6, 3) if decisions else 0.0,
                "calls_per_decision": round(self.calls / decisions, 4) if decisions else 0.0}


@dataclass
class Profile:
    game: str
    players: int
    games: int
    decisions: int
    plain_seconds: float  # the games played as they are
    profiled_seconds: float  # the same games, timed
    statements: list = field(default_factory=list)  # Row, slowest first
    functions: list = field(default_factory=list)
    errors: int = 0

    @property
    def statements_seconds(self) -> float:
        return sum(r.seconds for r in self.statements)

    def as_json(self) -> dict:
        d, t = self.decisions, self.profiled_seconds
        return {"game": self.game, "players": self.players, "games": self.games, "decisions": d,
                "errors": self.errors,
                "seconds": round(self.plain_seconds, 6), "profiled_seconds": round(t, 6),
                "microseconds_per_decision": round(self.plain_seconds / d * 1e6, 3) if d else 0.0,
                "decisions_per_second": round(d / self.plain_seconds, 1) if self.plain_seconds else 0.0,
                "statements_share": round(self.statements_seconds / t, 4) if t else 0.0,
                "statements": [r.as_json(d, t) for r in self.statements],
                "functions": [r.as_json(d, t) for r in self.functions]}


class _Timers:
    """The timing wrappers put on a compiled program, and what they measured."""

    def __init__(self, program):
        self.program = program
        self.rows: dict = {}  # (kind, where or name) -> Row
        self.undo: list = []  # (container, key, original)
        self.active: dict = {}  # function name -> calls of it under way (its recursion is not timed twice)

    def row(self, what: str, name: str, pos) -> Row:
        where = str(pos) if pos is not None else ""
        key = (what, where if what == "statement" and where else name)
        r = self.rows.get(key)
        if r is None:
            text = ""
            if pos is not None:
                text = (source_line(self.program.sources.get(pos.path), pos.line) or "").strip()
            r = self.rows[key] = Row(what, name, where, text)
        return r

    def wrap_ops(self) -> None:
        for code in list(self.program.codes.values()):
            code.ready()  # its functions compiled now: a stub replaces itself when first run
            for i, op in enumerate(code.ops):
                if op is None:
                    continue
                pos = code.pos[i] if i < len(code.pos) else None
                self.undo.append((code.ops, i, op))
                code.ops[i] = _timed_op(op, self.row("statement", code.name, pos))

    def wrap_functions(self) -> None:
        compiler = self.program.compiler
        fns = compiler.src.ns.get("FN") if compiler is not None else None
        if not fns:
            return
        for name, fn in list(fns.items()):
            f = self.program.defn.functions.get(name)
            self.undo.append((fns, name, fn))
            fns[name] = _timed_function(fn, self.row("function", name, f.tree.pos if f is not None else None),
                                        name, self.active)

    def remove(self) -> None:
        for container, key, original in reversed(self.undo):
            container[key] = original
        self.undo.clear()


def _timed_op(op, row: Row):
    clock = time.perf_counter

    def timed(st, fr):
        t = clock()
        try:
            return op(st, fr)
        finally:
            row.seconds += clock() - t
            row.calls += 1
    return timed


def _timed_function(fn, row: Row, name: str, active: dict):
    clock = time.perf_counter

    def timed(*args):
        row.calls += 1
        if active.get(name):
            return fn(*args)  # a call of itself: its time is in the outer call's
        active[name] = True
        t = clock()
        try:
            return fn(*args)
        finally:
            row.seconds += clock() - t
            active[name] = False
    return timed


def _play(game, players: int, options: dict, games: int, seed: int, agents: list, powers) -> tuple:
    """(decisions, errors) of `games` games, seeded as simulate seeds them."""
    decisions = errors = 0
    for i in range(games):
        state, exc, _ = play_game(game, players, seed_for(seed, i), options, agents, powers=powers)
        if state is not None:
            decisions += len(state.history)
        if exc is not None:
            errors += 1
    return decisions, errors


def profile(game, players: int, options: dict, games: int, seed: int, agents: list, powers=None) -> Profile:
    """Play `games` games as they are, then again timed, and gather where the time went."""
    t = time.perf_counter()
    decisions, errors = _play(game, players, options, games, seed, agents, powers)
    plain = time.perf_counter() - t
    timers = _Timers(game.program)
    timers.wrap_ops()
    timers.wrap_functions()
    try:
        t = time.perf_counter()
        again, _ = _play(game, players, options, games, seed, agents, powers)
        profiled = time.perf_counter() - t
    finally:
        timers.remove()
    if again != decisions:  # the wrappers would have changed what the games do: a fault of regles
        raise RuntimeError(f"the profiled games made {again} decisions, the plain ones {decisions}")
    rows = [r for r in timers.rows.values() if r.calls]
    by_time = sorted(rows, key=lambda r: (-r.seconds, r.where, r.name))
    return Profile(game.id, players, games, decisions, plain, profiled,
                   [r for r in by_time if r.what == "statement"], [r for r in by_time if r.what == "function"],
                   errors)


def render_text(p: Profile, top: int = 15) -> str:
    d, t = p.decisions, p.profiled_seconds
    per = p.plain_seconds / d * 1e6 if d else 0.0
    lines = [f"{p.game}, {p.players} players: {p.games:,} games, {d:,} decisions in {p.plain_seconds:.2f} s "
             f"({d / p.plain_seconds:,.0f} decisions/s, {per:.1f} µs each)" if p.plain_seconds and d else
             f"{p.game}, {p.players} players: {p.games:,} games, {d:,} decisions"]
    if p.errors:
        lines.append(f"  {p.errors} of the games failed (see regles simulate for their traces)")
    if not t or not d:
        return "\n".join(lines)
    stated = p.statements_seconds
    lines.append(f"timed again: {t:.2f} s (the timing adds {max(0.0, t / p.plain_seconds - 1) * 100:.0f}%); "
                 f"the rules' statements {stated / t * 100:.0f}% of it, the engine between them "
                 f"{max(0.0, 1 - stated / t) * 100:.0f}%")
    for title, rows, note in (
            ("Statements", p.statements, "each with the statements it runs after it up to a pause"),
            ("Game functions", p.functions, "outermost calls, with what they call: shares overlap")):
        lines += ["", f"{title} ({note})", f"  {'share':>6} {'µs/dec':>7} {'calls/dec':>9} {'µs/call':>8}  where"]
        for r in rows[:top]:
            lines.append(f"  {r.seconds / t * 100:5.1f}% {r.seconds / d * 1e6:7.2f} {r.calls / d:9.2f} "
                         f"{r.seconds / r.calls * 1e6:8.2f}  {r.where or r.name}"
                         + (f"  [{r.name}]" if r.what == "function" else ""))
            if r.text:
                lines.append(f"  {'':>34}{r.text[:100]}")
        if len(rows) > top:
            lines.append(f"  ... {len(rows) - top} more (--top N)")
    return "\n".join(lines)
