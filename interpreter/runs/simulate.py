"""Many games played by bots: win rates, scores, speed, and errors with their traces.

Game i of a run seeded S is played with seed `values.seed_for(S, i)`, and its
agents are seeded from that seed, so a run gives the same results whatever
the number of worker processes: games are spread over the workers in
chunks and their results merged back in game order.

A game that raises (a fault of the rules, a broken invariant with `check`,
more than `max_decisions` decisions, or any other exception) is an error: it
is recorded with its seed, its trace is saved (the game is played again with
the trace on, which the engine's determinism makes the same game), and the
run goes on. Ctrl-C stops a run: the games finished by then are its results.
With a Dask cluster (`cluster.py`) the same chunks go to its workers, merged
back in game order the same way.

A game is won by one side (a player, or a team in a game played in teams),
tied when rival sides share the win, or has no winner; a tie is never counted
as a win of each side, nor a team's win as a win of each of its seats in the
report's tables.
"""
from __future__ import annotations

import math
import multiprocessing
import random
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from .. import load
from ..cbuild import named
from ..engine import keys
from ..engine.invariants import MAX_DECISIONS, InvariantError, Invariants, check_bound
from ..engine.machine import label_of
from ..engine.state import GameFault
from ..engine.values import seed_for
from ..native import NativeGame, NativeLimit, NoCompiler, NotNative
from ..native import compiler as native_compiler
from ..play.agents import LookaheadFault, SeatView, agent_seed, make_agent
from ..rulings.trace import (default_trace_name, error_record, make_header, portable_message, result_of, source_of,
                    write_trace)
from ..scopes import OwnerKind
from .cluster import map_chunks
from .results.record import ROUND, Recorder

@dataclass
class GameResult:
    index: int
    seed: int
    winners: list | None  # seats from 0; None: no winner
    scores: list
    decisions: int
    error: dict | None = None
    notes: list = field(default_factory=list)
    credits: list = field(default_factory=list)  # [card id, seat from 0, points]
    powers: dict = field(default_factory=dict)  # seat from 1 -> the power it played with
    labels: list = field(default_factory=list)  # what each seat is reported by (`report_seats_by`), at the end
    tallies: list = field(default_factory=list)  # per seat, the final values of `report_seats_by`'s counters
    facts: dict | None = None  # with `RunSpec.record`: what the game did (results.record.Recorder.facts)
    standings: list = field(default_factory=list)  # per seat, what the end shows when the game declares `standing:`
    in_python: str = ""  # why the Python backend played it where the native one could not play it on (NativeLimit)


@dataclass
class RunSpec:
    game: str  # a shipped game id or a folder, as given
    players: int
    seed: int
    games: int
    agents: list
    options: dict
    check: bool = False
    max_decisions: int = MAX_DECISIONS
    trace_dir: str = "traces"
    by: list = field(default_factory=list)  # attributes to report credited points by
    expansions: list = field(default_factory=list)  # laid over the game, by id
    scenario: str | None = None
    mods: list = field(default_factory=list)  # paths
    powers: dict | str = field(default_factory=dict)  # seat from 1 -> power, or "random": drawn per game
    named: list = field(default_factory=list)  # options the user set (shown in the report, default or not)
    record: bool = False  # keep each game's facts (--results, --cards): off, the games run as fast as ever
    without: list = field(default_factory=list)  # cards left out of the game, by id
    first: int = 0  # the index of the run's first game: a run in batches plays games first.. of one series
    settings: list = field(default_factory=list)  # cards' attributes set: (card, attribute, value) each
    backend: str = "auto"  # what plays the games: "native" (C), "python", or "auto" (native when it can)

    def game_key(self) -> tuple:
        """What the game of the run is loaded from: a worker loads it once per key."""
        return (self.game, tuple(self.expansions), self.scenario, tuple(self.mods), tuple(self.without),
                tuple(tuple(x) for x in self.settings))


def laid_of(game) -> dict:
    """What is laid over, left out of and set in a loaded game, as a RunSpec names it (its
    workers load the game from that)."""
    c = game.chosen
    return {"expansions": list(c.expansions), "scenario": c.scenario, "mods": list(c.mods),
            "without": list(c.without), "settings": [list(x) for x in c.settings]}


def play_game(game, players: int, seed: int, options: dict, agent_names: list, *, check: bool = False,
              max_decisions: int = MAX_DECISIONS, trace: bool = False, powers: dict | None = None, watch=None):
    """Play one game with bots. Returns (state or None, exception or None, invariant notes).
    `watch` (a `results.record.Recorder`) is told of the game's start and of each decision."""
    agents = [make_agent(n, agent_seed(seed, i)) for i, n in enumerate(agent_names)]
    state = None
    notes = []
    try:
        state = game.new_state(players, seed, options, trace=trace, powers=powers)
        inv = Invariants(state, max_decisions) if check else None
        if inv is not None:
            notes = inv.notes
        if watch is not None:
            watch.start(state)
        while not state.is_terminal():
            p = state.current_player
            chose = agents[p]
            try:
                a = chose.act(SeatView(state, p))
            except LookaheadFault as lf:
                # the option faulted in the agent's imagined copy: play it for real, where it
                # faults again (then the trace shows it) or, if it hung on hidden chance, not
                a, chose = lf.action, None  # (its values are not this decision's)
            if watch is not None:
                watch.before(state, a, chose)
            state.apply(a)
            if watch is not None:
                watch.after(state)
            if inv is not None:
                inv.check(state)
            else:
                check_bound(state, max_decisions)
        return state, None, notes
    except Exception as exc:  # any failure of a game is a result of the run, not its end
        return state, exc, notes


def powers_for(game, spec: RunSpec, seed: int) -> dict:
    """The powers of the seats in the game of `seed`: as given, or with `--power random` one
    drawn for each seat from the game's seed, no two sharing what the game says they may not."""
    if spec.powers != "random":
        return dict(spec.powers)
    rng = random.Random(seed_for(seed, 2_000_003))
    pool = game.powers()
    rng.shuffle(pool)
    out: dict = {}
    for seat in range(1, spec.players + 1):
        for card in pool:
            try:
                game.powers_of({**out, seat: card}, spec.players)
            except ValueError:
                continue
            out[seat] = card
            pool.remove(card)
            break
    return out


BACKENDS = ("auto", "native", "python")
_NATIVE: dict = {}  # game key -> (NativeGame or None, what plays the games, the game it was made for)


def backend_for(game, spec: RunSpec, say=None) -> tuple:
    """(the native game that plays the games of `spec`, or None; what plays them, in words).

    The native backend plays a run when the game is within what it compiles, a C compiler is
    found, and every seat is a random agent (whose picks it makes in C, as the Python agent
    would: the same games, the same results, and with --results or --cards the same facts of
    each game); it checks no invariant (--check). Otherwise the Python backend plays, and the
    words say why. `say()` is called before the game's C is compiled (a first run: seconds)."""
    why = None
    if spec.backend == "python":
        why = "--backend python"
    elif any(a != "random" for a in spec.agents):
        why = "the native backend plays random agents only"
    elif spec.check:
        why = "--check follows each step in Python"
    if why is not None:
        return None, f"Python backend ({why})"
    key = spec.game_key()
    found = _NATIVE.get(key)
    if found is None or found[2] is not game:  # kept for this very game (a key names its content)
        try:
            compiled = NativeGame(game, say)
            built = named(native_compiler())
            found = _NATIVE[key] = (compiled, f"native backend (the rules in C, built by {built})", game)
        except (NotNative, NoCompiler) as exc:  # said in one line (a compiler's own output is long)
            found = _NATIVE[key] = (None, f"Python backend ({str(exc).splitlines()[0][:200]})", game)
    return found[:2]


def run_one(game, spec: RunSpec, index: int) -> GameResult:
    seed = seed_for(spec.seed, index)
    powers = powers_for(game, spec, seed)
    native = backend_for(game, spec)[0]
    if native is not None:
        try:
            return _run_native(native, game, spec, index, seed, powers)
        except NativeLimit as limit:  # past what the C plays (an automaton ranking a label made in play)
            result = _run_python(game, spec, index, seed, powers)
            result.in_python = str(limit.message)
            return result
    return _run_python(game, spec, index, seed, powers)


def _run_python(game, spec: RunSpec, index: int, seed: int, powers: dict) -> GameResult:
    watch = Recorder(game.program, spec.players) if spec.record else None
    state, exc, notes = play_game(game, spec.players, seed, spec.options, spec.agents,
                                  check=spec.check, max_decisions=spec.max_decisions, powers=powers, watch=watch)
    labels, tallies = [], []
    if exc is None and game.program.seat_label is not None:
        try:
            labels = [label_of(state, game.program.seat_label(state, s)) for s in range(spec.players)]
        except GameFault as fault:
            exc = fault
        names = game.program.defn.seat_report[3]
        tallies = [[state.counters.get(keys.seat_key(name, s), game.program.defn.counters[name].initial)
                    for name in names] for s in range(spec.players)]
    if exc is None:
        winners = list(state.winners) if state.winners else None
        credits = credits_of(state)
        return GameResult(index, seed, winners, list(state.scores()), len(state.history), notes=notes,
                          credits=credits, powers=powers, labels=labels, tallies=tallies,
                          facts=watch.facts(state, winners, credits) if watch is not None else None,
                          standings=list(state.standings()) if game.program.standing else [])
    facts = None
    if watch is not None:  # what is known of a game that failed: who began, how far it went
        facts = {"first_seat": None if watch.first_seat is None else watch.first_seat + 1,
                 "rounds": watch.round_now(state) if state is not None else None,
                 "lead_changes": None, "midgame_leader_won": None, "cards": []}
    return GameResult(index, seed, None, list(state.scores()) if state is not None else [],
                      len(state.history) if state is not None else 0,
                      error=_record_error(game, spec, index, seed, exc, powers), notes=notes, powers=powers,
                      facts=facts)


def _run_native(native, game, spec: RunSpec, index: int, seed: int, powers: dict) -> GameResult:
    """Game `index` played all in C by the seats' random agents: the game the Python backend
    plays with them (a fault is recorded as there, its trace made by the Python backend).
    NativeLimit when the C cannot play it on: the caller plays it in Python."""
    seeds = [agent_seed(seed, s) for s in range(spec.players)]
    watched = None
    try:
        st = native.new_state(spec.players, seed, spec.options, powers=powers)
        if spec.record:  # what each decision did, for the facts of --results and --cards
            watched = st.watched_play(seeds, spec.max_decisions, ROUND)
        else:
            st.random_play(seeds, spec.max_decisions)
    except NativeLimit:
        raise
    except Exception as exc:  # as play_game: a failure of a game is a result of the run
        if spec.record:  # what is known of a failed game is gathered by the Python backend's recorder
            return _run_python(game, spec, index, seed, powers)
        return GameResult(index, seed, None, [], 0, error=_record_error(game, spec, index, seed, exc, powers),
                          powers=powers)
    winners = list(st.winners) if st.winners else None
    labels, tallies = [], []
    if game.program.seat_label is not None:  # what each seat is reported by, at the end
        try:
            labels = [label_of(st.start_state, st.seat_label(s)) for s in range(spec.players)]
        except GameFault as fault:
            return GameResult(index, seed, None, [], 0, error=_record_error(game, spec, index, seed, fault, powers),
                              powers=powers)
        names = game.program.defn.seat_report[3]
        counted = st.counters()
        tallies = [[counted.get(keys.seat_key(name, s), game.program.defn.counters[name].initial) for name in names]
                   for s in range(spec.players)]
    credits = credits_of(st)
    facts = _native_facts(game, spec, st, watched, winners, credits) if watched is not None else None
    return GameResult(index, seed, winners, st.scores(), st.decisions, powers=powers, credits=credits,
                      labels=labels, tallies=tallies, standings=st.standings() if game.program.standing else [],
                      facts=facts)


def _native_facts(game, spec: RunSpec, st, watched, winners, credits) -> dict:
    """The facts of a game played in C, told to the recorder of the Python backend step by step."""
    steps, held = watched
    watch = Recorder(game.program, spec.players)
    for seat, picked, rnd, moves, scores in steps:
        watch.begin(seat, picked, rnd)
        seats = {}  # the seats of each zone the step moved components into or out of, once it is made
        for _, old, new, to_seats, from_seats in moves:
            seats[new] = to_seats
            if old is not None:
                seats[old] = from_seats
        watch.end([(c, old, new) for c, old, new, _, _ in moves], seats.__getitem__, scores)
    rounds = st.counters().get(ROUND, watch.round_initial) if watch.round_initial is not None else None
    return watch.facts_of(winners, credits, rounds, held)


def credits_of(state) -> list:
    """Points each card brought each seat: [card id, seat, points] (team points count for each member).
    The pieces each player owns a copy of are left out: they are no card of the game."""
    program = state.program
    out: dict = {}
    for (c, key), points in state.credit.items():
        if program.comp_owner[c] is not None:
            continue  # a piece each player owns a copy of (a pawn, a worker), not a card of the game
        owner = keys.owner_of(key)
        kind = program.defn.counters[keys.name_of(key)].scope.kind
        if owner is None or kind not in (OwnerKind.PLAYER, OwnerKind.TEAM):
            continue  # read by the counter's scope: a node may be named 't1' or '3'
        if kind is OwnerKind.TEAM:
            team = keys.team_of_owner(owner)
            seats = [s for s in range(state.n) if program.team_of(state.n)[s] == team]
        else:
            seats = [int(owner)]
        for s in seats:
            k = (program.comp_card[c].id, s)
            out[k] = out.get(k, 0) + points
    return [[card, seat, points] for (card, seat), points in sorted(out.items())]


def _record_error(game, spec: RunSpec, index: int, seed: int, exc, powers: dict) -> dict:
    message = portable_message(game, f"{type(exc).__name__}: {exc}" if not _known(exc) else str(exc))
    path = Path(spec.trace_dir) / default_trace_name(game.id, seed, index)
    # the same game again, with the trace on: the engine is deterministic, so it fails the same way
    state, exc2, _ = play_game(game, spec.players, seed, spec.options, spec.agents, check=spec.check,
                               max_decisions=spec.max_decisions, trace=True, powers=powers)
    if exc2 is None or str(exc2) != str(exc):
        message += " (not reproduced when played again: " + ("no error" if exc2 is None else str(exc2)) + ")"
    header = make_header(game, spec.players, seed, spec.options, state.history if state is not None else [],
                         agents=spec.agents, source=source_of(game, spec.game), check=spec.check,
                         max_decisions=spec.max_decisions, powers=powers,
                         result=result_of(state, exc) if state is not None else None,
                         error=error_record(exc2 if exc2 is not None else exc))
    try:
        write_trace(path, game, header, state.trace if state is not None else [])
        where = str(path)
    except OSError as oe:
        where = None
        message += f" (trace not saved: {oe})"
    return {"seed": seed, "index": index, "message": message, "trace": where}


def _known(exc) -> bool:
    return isinstance(exc, (GameFault, InvariantError))


# workers ---------------------------------------------------------------------------------

_WORKER: dict = {}


def _worker_init(spec: RunSpec) -> None:
    # Ctrl-C at the terminal reaches every process of the group: the parent stops the run and
    # reports the games done; a worker leaves without a word (and without a traceback)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker_game(spec)
    _WORKER["spec"] = spec


def _worker_game(spec: RunSpec):
    """The game of `spec` in this process, loaded once per game key."""
    if _WORKER.get("key") != spec.game_key():
        _WORKER["game"] = load(spec.game, spec.expansions, spec.scenario, spec.mods, without=spec.without,
                               settings=spec.settings)
        _WORKER["key"] = spec.game_key()
    return _WORKER["game"]


def _worker_chunk(indices: list) -> list:
    game, spec = _WORKER["game"], _WORKER["spec"]
    return [run_one(game, spec, i) for i in indices]


def play_chunk(spec: RunSpec, indices: list) -> list:
    """The results of the games `indices` of a run, played in this process (a cluster's worker)."""
    game = _worker_game(spec)
    return [run_one(game, spec, i) for i in indices]


def _context():
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


@dataclass
class Run:
    """The games a run played, in game order, how long they took, and whether it was cut short."""

    results: list
    seconds: float
    interrupted: bool = False

    def __iter__(self):  # `results, seconds = run(...)`
        return iter((self.results, self.seconds))


def run(game, spec: RunSpec, workers: int = 1, progress=None, started=None, cluster=None, say=None) -> Run:
    """Play the games of a run. Ctrl-C (KeyboardInterrupt) stops it: the games finished
    by then are its results, and `interrupted` is set.

    `started()` is called once the games start (the workers made), from when Ctrl-C stops
    the run cleanly; `progress(n)` as games finish, with how many just finished. With
    `cluster` (a `cluster.Cluster`), the games are played by its workers. `say()` is called
    before the game's rules are compiled to C (a first run of them: seconds).
    """
    if cluster is not None:
        return _run_on_cluster(spec, cluster, progress, started)
    if spec.backend != "python":
        backend_for(game, spec, say)  # compiled once here, before the games, not by every worker at once
    t0 = time.perf_counter()
    results: list = []
    if workers <= 1 or spec.games <= 1:
        try:
            if started:
                started()
            for i in range(spec.first, spec.first + spec.games):
                results.append(run_one(game, spec, i))
                if progress:
                    progress(1)
        except KeyboardInterrupt:
            return Run(results, time.perf_counter() - t0, True)
        return Run(results, time.perf_counter() - t0)
    workers = min(workers, spec.games)
    chunks = _chunks(spec.first, spec.games, workers)
    ctx = _context()
    if ctx.get_start_method() == "fork":  # the children inherit the loaded game
        _WORKER.update(game=game, key=spec.game_key())
    t0 = time.perf_counter()
    interrupted = False
    # the workers are made ignoring Ctrl-C, so that none is caught before its initializer runs
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        pool = ctx.Pool(workers, initializer=_worker_init, initargs=(spec,))
    finally:
        signal.signal(signal.SIGINT, before)
    try:
        if started:
            started()
        for chunk in pool.imap_unordered(_worker_chunk, chunks):
            results.extend(chunk)
            if progress:
                progress(len(chunk))
        pool.close()
    except KeyboardInterrupt:
        interrupted = True
    finally:
        pool.terminate()
        pool.join()
    results.sort(key=lambda r: r.index)
    return Run(results, time.perf_counter() - t0, interrupted)


def _chunks(first: int, games: int, workers: int) -> list:
    """The game indices first.. in chunks: about 8 a worker, so that none waits long at the end."""
    size = max(1, min(64, math.ceil(games / (workers * 8))))
    end = first + games
    return [list(range(i, min(i + size, end))) for i in range(first, end, size)]


def _run_on_cluster(spec: RunSpec, cluster, progress, started) -> Run:
    """The games of a run played by the workers of a Dask cluster, merged back in game order."""
    t0 = time.perf_counter()
    results: list = []
    interrupted = False
    try:
        if started:
            started()
        for chunk in map_chunks(cluster, play_chunk, spec, _chunks(spec.first, spec.games, cluster.workers())):
            results.extend(chunk)
            if progress:
                progress(len(chunk))
    except KeyboardInterrupt:
        interrupted = True
    results.sort(key=lambda r: r.index)
    return Run(results, time.perf_counter() - t0, interrupted)
