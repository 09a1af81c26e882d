"""Stage 5's driver: a checked pack compiled into its `Program`.

    program = compile_game(defn, found, root)

Reads as the order of the work: the tables, then the procedures, the abilities
of the cards, the invariants and the heuristic.
"""
from __future__ import annotations

from pathlib import Path

from ..engine.code import Code, CodeKind
from ..engine.program import Program
from ..engine.specs import AutomatonSpec
from ..engine.state import Frame
from ..engine.values import Seat
from .abilities import AbilityCompiler
from .analysis import Analysis
from .context import Ctx
from .program import make_program, seat_report
from .reasons import Reasons
from .statements import Compiler


def compile_game(defn, found, root: Path, sources: dict | None = None) -> Program:
    """The compiled program of pack `defn`, checked (`found`: what the checker found);
    `sources`, the text of each content file read, gives the conditions their text as written."""
    program = make_program(defn, found, root)
    compiler = program.compiler = Compiler(program, Analysis(defn, found))
    program.sources = dict(sources or {})
    compiler.reasons = Reasons(program, compiler, program.sources)
    compile_procedures(program, compiler)
    AbilityCompiler(program, compiler, found).compile_all()
    program.invariants = [(text, compiler.expr(tree, Ctx(Code("invariant", CodeKind.INVARIANT))))
                          for text, tree in defn.invariants]
    program.heuristic = compile_heuristic(defn, compiler)
    program.automata = compile_automata(defn, compiler)
    program.seat_report = seat_report(defn, compile_seat_label(defn, compiler))
    return program


def compile_procedures(program: Program, compiler: Compiler) -> None:
    defn = program.defn
    for name in defn.procedures:  # every code first: a procedure may call one declared after it
        code = program.procs[name] = Code(f"proc:{name}", CodeKind.PROC, proc=name)
        program.codes[code.name] = code
    for name, proc in defn.procedures.items():
        compiler.body(proc.tree.body, Ctx(program.procs[name], locals_=proc.params))


def compile_heuristic(defn, compiler: Compiler):
    """The game's `heuristic:` as `f(state, seat) -> number` (of player `p`), or None; the
    terms expansions add to it are added to its value."""
    trees = [t for t in [defn.heuristic_tree] + [t for _, t in defn.heuristics] if t is not None]
    if not trees:
        return None
    code = Code("heuristic", CodeKind.HEURISTIC)
    fns = [compiler.expr(tree, Ctx(code, locals_=["p"])) for tree in trees]

    def value(st, seat):  # the greedy agent asks it of every option: one frame for all the terms
        p = Seat(seat)
        frame = Frame(code, 0, {"p": p}, None, p)
        total = 0
        for fn in fns:
            v = fn(st, frame)
            if v is not None:
                total += int(v) if isinstance(v, bool) else v
        return total
    return value


def compile_automata(defn, compiler: Compiler) -> dict:
    """The seats driven by content, by seat index (from 0): each with its ranking of the
    options of a choice asked of it, `prefer` evaluated with `option` and `you` bound."""
    out = {}
    for auto in defn.automata.values():
        rank = None
        if auto.tree is not None:
            code = Code(f"automaton:{auto.id}", CodeKind.AUTOMATON)
            fn = compiler.expr(auto.tree, Ctx(code, locals_=["option", "you"]))

            def rank(st, seat, option, fn=fn, code=code):
                return fn(st, Frame(code, 0, {"option": option, "you": seat}, None, seat))
        out[auto.seat - 1] = AutomatonSpec(auto.id, auto.title, auto.seat, rank, auto.pos)
    return out


def compile_seat_label(defn, compiler: Compiler):
    """The game's `report_seats_by` label as `f(state, seat) -> value`, or None."""
    if defn.seat_report_tree is None:
        return None
    code = Code("seat label", CodeKind.SEAT_LABEL)
    fn = compiler.expr(defn.seat_report_tree, Ctx(code, locals_=["p"]))

    def label(st, seat):
        p = Seat(seat)
        return fn(st, Frame(code, 0, {"p": p}, None, p))
    return label
