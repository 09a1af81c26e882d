"""The fuzz driver: each case loaded and played in a worker process of its own, under limits.

`run_cases(cases, limits, workers)` forks one process per case (from a parent
that has imported and warmed the interpreter once), at most `workers` at a
time. The child writes the case's game folder, loads it with
`interpreter.load` (stages 1 to 5, as `regles simulate` does) and, when it
loads, plays a few games with a seeded random player under a decision cap,
then runs the rules tests of a mutated rules-test file. It sends back an
`Outcome`.

The oracle: loading gives a game or a `LoadError` whose diagnostics each point
at a line of a file; a game stops by ending, by the decision cap, or by a
`GameFault` that points at a line of a file. Anything else is a failure, of
one of the kinds of `FAILURES`:

- `exception`: any other exception (the `internal error` of the command);
- `no position`: a diagnostic or a fault without a file and a line;
- `internal error`: a diagnostic whose message says so;
- `warning`: a Python warning (a SyntaxWarning of generated code...);
- `invariant`: a generic invariant of every game broken after a step: a
  component in two places or none, a counter beyond its bounds, a supply
  not conserved (engine/invariants.py; the game's own `invariants:` are left
  out, since a mutant may well break those);
- `hang`: the case used up its CPU seconds (the child's RLIMIT_CPU; CPU time,
  not wall time, so that a busy machine does not make hangs), or its wall
  time far beyond them;
- `memory`: the case used up its memory (RLIMIT_AS, over what the worker
  starts with);
- `crash`: the worker died without a word (a signal);
- `past the end`: a diagnostic whose line is past the last line of its file.

A case whose `driver` is "web" or "lsp" is not a game folder: the worker
sends its requests to a fresh web application (fuzz_web.py) or its frames to
a language server it starts (fuzz_lsp.py), and the failures are those of
their oracles: `server error` (a 5xx), `bad answer` (a 4xx that is not one
JSON sentence; a request answered with an error), `leak` (a path of the
server's, or a byte of a private file, in an answer), `dead server` (no
answer any more), and `exception` (a traceback on the language server's
standard error).

Everything a case does is seeded from its name, so a run gives the same
outcomes on any machine, whatever the number of workers; but for `hang`, whose
place (the frames shown) is wherever the budget ran out.
"""
from __future__ import annotations

import ctypes
import multiprocessing
import os
import random
import shutil
import signal
import tempfile
import time
import traceback
import warnings
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from multiprocessing.connection import wait
from pathlib import Path

try:
    import resource
except ImportError:  # not POSIX: the workers cannot be limited, and the fuzz tests are skipped
    resource = None

import interpreter
from interpreter import GameFault, LoadError
from interpreter.content.folders import shipped_games
from interpreter.diagnostics import lines_of
from interpreter.engine.invariants import InvariantError, Invariants
from interpreter.rulings.ruletest import run_test

from fuzz_hostile import benign, hostile
from fuzz_mutations import mutant

PR_SET_PDEATHSIG = 1  # prctl(2)
CAN_FORK = "fork" in multiprocessing.get_all_start_methods() and resource is not None
FAILURES = ("exception", "no position", "past the end", "internal error", "warning", "invariant", "hang", "memory",
            "crash", "server error", "bad answer", "leak", "dead server")


@dataclass(frozen=True)
class Limits:
    cpu_seconds: int = 5          # per case: load, games and tests together
    memory_mb: int = 1500         # address space the worker may add to what it starts with
    games: int = 2                # random games per case that loads
    decisions: int = 300          # decision cap of each game
    # the budget of work between two decisions the games get: a tenth of the engine's, so that a
    # runaway case stops in a fraction of the CPU limit even on a loaded machine (the guard is
    # the same; the full budget's own bound in time is measured in docs/language.md)
    work_budget: int = 200_000

    @property
    def wall_seconds(self) -> float:
        # only a worker that sleeps or is starved for long gets here: CPU seconds are the budget
        return self.cpu_seconds * 6 + 30


@dataclass
class Outcome:
    name: str
    kind: str
    target: str
    what: list
    stage: str = ""                # "load error" or "loaded"
    failure: str | None = None     # one of FAILURES, or None when the case behaved
    detail: str = ""               # the failure's message
    frames: list = field(default_factory=list)  # the innermost frames of the failure, "file:line function"
    errors: int = 0                # diagnostics of a load error
    first_error: str = ""
    diagnostics: list = field(default_factory=list)  # of a load error: "file:line:col: severity: message"
    games: int = 0                 # games started
    decisions: int = 0
    ended: int = 0                 # games that ended
    capped: int = 0                # games stopped by the decision cap
    faults: int = 0                # games stopped by a clean GameFault
    tests: int = 0                 # rules tests run
    requests: int = 0              # of a web or lsp case: requests (or frames) sent
    answered: int = 0              # ... and the well-formed requests after them that were answered
    statuses: dict = field(default_factory=dict)  # of a web case: answers by status code
    seconds: float = 0.0

    def line(self) -> str:
        said = f"{self.name} [{self.target}] {'; '.join(self.what)}"
        if self.failure:
            where = f" at {self.frames[-1]}" if self.frames else ""
            return f"{said}\n    {self.failure}: {self.detail[:300]}{where}"
        return said


# -- in the worker ------------------------------------------------------------------------------------

class CpuBudget(BaseException):
    """The worker's CPU seconds ran out (raised by the SIGXCPU handler, wherever the case was)."""


def write_case(case, folder: Path) -> Path:
    if case.base is not None:
        shutil.copytree(case.base, folder)
    else:
        folder.mkdir(parents=True)
    for rel, text in case.files.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
    return folder


def _positioned(pos) -> bool:
    """A position a person can open: an existing file and a line in it."""
    return pos is not None and bool(getattr(pos, "path", None)) and Path(pos.path).is_file() and pos.line >= 1


def _line_count(path: str) -> int:
    with open(path, "rb") as f:
        return max(1, len(lines_of(f.read().decode("utf-8", "replace"))))


def _within(pos) -> bool:
    """Whether a position's line is a line of its file (1 to the number of lines, as YAML counts
    them): an error is never put one line past the end of a file."""
    try:
        return 1 <= pos.line <= _line_count(pos.path)
    except OSError:
        return False


def _frames(tb, keep: int = 6) -> list:
    out = []
    for fr in traceback.extract_tb(tb)[-keep:]:
        path = fr.filename
        for mark in ("/interpreter/", "/tests/", "/lark/", "/yaml/", "/jsonschema/"):
            if mark in path:
                path = mark.strip("/") + "/" + path.split(mark, 1)[1]
                break
        out.append(f"{path}:{fr.lineno} {fr.name}")
    return out


def _fail(out: Outcome, kind: str, detail: str, tb=None) -> None:
    if out.failure is None:
        out.failure, out.detail = kind, detail
        out.frames = [f for f in _frames(tb, 7) if not f.endswith(" _on_cpu_budget")][-6:] if tb is not None else []


def evaluate(case, limits: Limits) -> Outcome:
    """Load and play one case here; the outcome says how it went. Meant for a worker process."""
    out = Outcome(case.name, case.kind, case.target, list(case.what))
    t0 = time.process_time()
    tmp = Path(tempfile.mkdtemp(prefix="regles-fuzz-"))
    try:
        root = write_case(case, tmp / "game") if case.driver == "load" else tmp
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                DRIVERS[case.driver](case, root, limits, out)
            except CpuBudget as exc:
                _fail(out, "hang", f"more than {limits.cpu_seconds} CPU seconds", exc.__traceback__)
            except MemoryError as exc:
                _fail(out, "memory", f"more than {limits.memory_mb} MB", exc.__traceback__)
            except RecursionError as exc:
                _fail(out, "exception", f"RecursionError: {exc}", exc.__traceback__)
            except Exception as exc:
                _fail(out, "exception", f"{type(exc).__name__}: {exc}", exc.__traceback__)
        for w in caught:
            _fail(out, "warning", f"{w.category.__name__}: {w.message} ({Path(w.filename).name}:{w.lineno})")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    out.seconds = round(time.process_time() - t0, 3)
    return out


def _load_and_play(case, root: Path, limits: Limits, out: Outcome) -> None:
    try:
        if case.expansions or case.scenario:
            game = interpreter.load(str(root), case.expansions, case.scenario, tests=True)
        else:
            game = interpreter.load(str(root), tests=True)
        game.program.step_budget = limits.work_budget
    except ValueError as exc:
        if not (case.expansions or case.scenario):
            raise
        # the expansion or scenario the case is loaded with is not found (its file, mutated, no longer
        # names it): the refusal of a name asked for, as `regles play --scenario` gives it
        out.stage = "load error"
        out.errors = 1
        out.first_error = out.diagnostics = f"(refused) {exc}"
        out.diagnostics = [out.first_error]
        return
    except LoadError as exc:
        out.stage = "load error"
        diagnostics = exc.report.sorted()
        out.errors = len(exc.report.errors)
        first = exc.report.errors[0] if exc.report.errors else None
        if first is not None:
            out.first_error = f"{_shown(first.position, root)}: {first.message}"
        out.diagnostics = [f"{_shown(d.position, root)}: {d.severity}[{d.code}]: {d.message}" for d in diagnostics[:50]]
        for d in diagnostics:
            if "internal error" in d.message:
                _fail(out, "internal error", f"{_shown(d.position, root)}: {d.message}")
            elif not _positioned(d.position):
                _fail(out, "no position", f"{d.position}: {d.message}")
            elif not _within(d.position):
                _fail(out, "past the end", f"{_shown(d.position, root)}: {d.message} (the file has "
                                           f"{_line_count(d.position.path)} lines)")
        return
    out.stage = "loaded"
    counts = game.player_counts()
    for g in range(limits.games if counts else 0):  # a scenario's own counts (none: no game to play)
        span = len(counts)
        players = counts[(g * (span - 1) if g < 2 else g) % span]
        seed = random.Random(f"game:{case.name}:{g}").randrange(2 ** 32)
        _play(game, players, seed, limits, out)
    tested = [r for r in case.files if r.startswith("tests/") or "/tests/" in r]
    for t in game.program.defn.tests:
        if any(Path(t.file).resolve() == (root / r).resolve() for r in tested):
            out.tests += 1
            run_test(game, t)


def _web(case, root: Path, limits: Limits, out: Outcome) -> None:
    from fuzz_web import run_web
    run_web(case, root, limits, out)


def _lsp(case, root: Path, limits: Limits, out: Outcome) -> None:
    from fuzz_lsp import run_lsp
    run_lsp(case, root, limits, out)


DRIVERS = {"load": _load_and_play, "web": _web, "lsp": _lsp}


def _play(game, players: int, seed: int, limits: Limits, out: Outcome) -> None:
    rng = random.Random(seed)
    out.games += 1
    try:
        st = game.new_state(players, seed)
        inv = GenericInvariants(st, limits.decisions + 1)
        for _ in range(limits.decisions):
            if st.is_terminal():
                break
            st.labels()
            actions = st.legal_actions()
            st.apply(rng.choice(actions))
            out.decisions += 1
            inv.check(st)
        if st.is_terminal():
            out.ended += 1
            st.returns()
        else:
            out.capped += 1
        st.scores()
        for seat in range(players):
            st.observation(seat)
        game.state_from_json(st.to_json())
    except GameFault as exc:
        out.faults += 1
        if not _positioned(exc.pos):
            _fail(out, "no position", f"GameFault without a line: {exc.message}", exc.__traceback__)
    except InvariantError as exc:
        _fail(out, "invariant", f"{exc.message} (seed {seed}, {players} players, after {len(st.history)} "
                                f"decisions)", exc.__traceback__)


class GenericInvariants(Invariants):
    """The invariants of every game, without the game's own (which a mutant may break)."""

    def check_declared(self, state) -> None:
        pass


def _shown(pos, root: Path) -> str:
    text = str(pos)
    return text.replace(str(root) + os.sep, "")


def _address_space() -> int:
    """Bytes of address space the worker has at its start (what it inherits from the parent), so that
    its memory limit is what the case may add, however large the parent (a test run) is."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            return int(f.read().split()[0]) * resource.getpagesize()
    except (OSError, ValueError, IndexError):
        return 0


def _on_cpu_budget(signum, frame):
    raise CpuBudget()


def _child(case, limits: Limits, conn) -> None:
    try:  # die with the parent (an interrupted run leaves no worker behind)
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass
    try:
        resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 3))
        signal.signal(signal.SIGXCPU, _on_cpu_budget)
        memory = _address_space() + limits.memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    except (ValueError, OSError):  # a system without these limits: the wall-clock limit remains
        pass
    try:
        out = evaluate(case, limits)
    except BaseException as exc:  # the budget ran out outside the case (while cleaning up): still a hang
        out = Outcome(case.name, case.kind, case.target, list(case.what), failure="hang" if isinstance(
            exc, CpuBudget) else "crash", detail=f"{type(exc).__name__}: {exc}")
    conn.send(asdict(out))
    conn.close()


def make_cases(seed: int, count: int, hostile_share: int = 4) -> list:
    """The cases of a run: every `hostile_share`-th a hostile program, the others mutants."""
    return [hostile(seed, i) if i % hostile_share == hostile_share - 1 else mutant(seed, i) for i in range(count)]


def maker(kind: str):
    """The function `(seed, index) -> Case` of a kind of case (imported only when asked for)."""
    if kind == "mutant":
        return mutant
    if kind == "hostile":
        return hostile
    if kind == "yaml-tree":
        from fuzz_yaml_tree import tree_mutant
        return tree_mutant
    if kind == "aliases":
        from fuzz_aliases import alias_case
        return alias_case
    if kind == "grammar":
        from fuzz_grammar import grammar_case
        return grammar_case
    if kind == "web":
        from fuzz_web import web_case
        return web_case
    if kind == "lsp":
        from fuzz_lsp import lsp_case
        return lsp_case
    raise ValueError(f"no kind of case '{kind}' (kinds: {', '.join(KINDS)})")


KINDS = ("mutant", "hostile", "yaml-tree", "aliases", "grammar", "web", "lsp")
NEW_KINDS = KINDS[2:]


def kind_cases(kind: str, seed: int, count: int, start: int = 0) -> list:
    """Cases `start` to `start + count` of one kind, seeded `seed` (named "KIND:SEED:INDEX")."""
    make = maker(kind)
    return [make(seed, i) for i in range(start, start + count)]


def case_named(name: str, hostile_share: int = 4):
    """The case of a name: "SEED:INDEX" (the mix of mutants and hostile programs), or "KIND:SEED:INDEX"."""
    parts = name.split(":")
    if len(parts) == 2:
        seed, index = (int(x) for x in parts)
        return hostile(seed, index) if index % hostile_share == hostile_share - 1 else mutant(seed, index)
    kind, seed, index = parts[0], int(parts[1]), int(parts[2])
    return maker(kind)(seed, index)


# -- in the parent ------------------------------------------------------------------------------------

def _context():
    # fork: each worker starts with the interpreter imported and its grammar and schemas built
    return multiprocessing.get_context("fork")


@lru_cache(maxsize=1)
def warm_up() -> None:
    """Import and build once, in the parent, what every worker would build again."""
    for name in shipped_games():
        interpreter.load(name)
    evaluate(benign(), Limits())


def run_cases(cases, limits: Limits = Limits(), workers: int = 2, progress=None) -> list:
    """The outcomes of `cases`, in their order; each case runs in a forked worker."""
    warm_up()
    ctx = _context()
    pending = list(enumerate(cases))[::-1]
    running: dict = {}  # reading end -> (index, case, process, start)
    results: dict = {}
    while pending or running:
        while pending and len(running) < workers:
            i, case = pending.pop()
            here, there = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=_child, args=(case, limits, there), daemon=True)
            proc.start()
            there.close()
            running[here] = (i, case, proc, time.monotonic())
        ready = wait(list(running) + [p.sentinel for _, _, p, _ in running.values()], timeout=1.0)
        now = time.monotonic()
        for conn in list(running):
            i, case, proc, start = running[conn]
            out = None
            if conn in ready or proc.sentinel in ready:
                try:
                    out = Outcome(**conn.recv())
                except (EOFError, OSError):
                    proc.join(1)
                    code = proc.exitcode
                    out = Outcome(case.name, case.kind, case.target, list(case.what), failure="hang" if code in (
                        -signal.SIGXCPU, -signal.SIGKILL) else "crash", detail=f"worker ended with status {code}")
            elif now - start > limits.wall_seconds:
                out = Outcome(case.name, case.kind, case.target, list(case.what), failure="hang",
                              detail=f"more than {limits.wall_seconds} seconds of wall time")
            if out is None:
                continue
            if proc.is_alive():
                proc.kill()
            proc.join()
            conn.close()
            del running[conn]
            results[i] = out
            if progress:
                progress(out)
    return [results[i] for i in range(len(cases))]


def summary(outcomes: list) -> dict:
    """The figures of a run: cases, how many loaded, games played on them, failures by kind."""
    by_kind: dict = {}
    for o in outcomes:
        if o.failure:
            by_kind[o.failure] = by_kind.get(o.failure, 0) + 1
    loaded = [o for o in outcomes if o.stage == "loaded"]
    return {
        "cases": len(outcomes),
        "mutants": sum(o.kind == "mutant" for o in outcomes),
        "hostile": sum(o.kind == "hostile" for o in outcomes),
        "load errors": sum(o.stage == "load error" for o in outcomes),
        "loaded": len(loaded),
        "games": sum(o.games for o in outcomes),
        "games ended": sum(o.ended for o in outcomes),
        "games capped": sum(o.capped for o in outcomes),
        "games faulted": sum(o.faults for o in outcomes),
        "decisions": sum(o.decisions for o in outcomes),
        "rules tests": sum(o.tests for o in outcomes),
        "failures": sum(by_kind.values()),
        "failures by kind": dict(sorted(by_kind.items())),
        "by kind of case": {kind: _figures_of([o for o in outcomes if o.kind == kind])
                            for kind in sorted({o.kind for o in outcomes})},
    }


def _figures_of(outcomes: list) -> dict:
    failed: dict = {}
    for o in outcomes:
        if o.failure:
            failed[o.failure] = failed.get(o.failure, 0) + 1
    out = {"cases": len(outcomes), "load errors": sum(o.stage == "load error" for o in outcomes),
           "loaded": sum(o.stage == "loaded" for o in outcomes), "games": sum(o.games for o in outcomes),
           "games ended": sum(o.ended for o in outcomes), "games faulted": sum(o.faults for o in outcomes)}
    if any(o.requests for o in outcomes):
        statuses: dict = {}
        for o in outcomes:
            for code, n in o.statuses.items():
                statuses[code] = statuses.get(code, 0) + n
        out.update({"requests": sum(o.requests for o in outcomes), "answered": sum(o.answered for o in outcomes),
                    "statuses": dict(sorted(statuses.items()))})
    out["failures"] = dict(sorted(failed.items()))
    return out
