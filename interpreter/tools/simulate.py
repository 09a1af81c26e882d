"""Many games played by bots: win rates, scores, speed, and errors with their traces.

Game i of a run seeded S is played with seed `values.seed_for(S, i)`, and its
agents are seeded from that seed, so a run gives the same results whatever
the number of worker processes: games are spread over the workers in
chunks and their results merged back in game order.

A game that raises (a fault of the rules, a broken invariant with `check`,
more than `max_decisions` decisions, or any other exception) is an error: it
is recorded with its seed, its trace is saved (the game is played again with
the trace on, which the engine's determinism makes the same game), and the
run goes on.
"""
from __future__ import annotations

import math
import multiprocessing
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from rich.table import Table

from .. import load
from ..engine import keys
from ..engine.invariants import MAX_DECISIONS, InvariantError, Invariants, check_bound
from ..engine.state import GameFault
from ..engine.values import seed_for
from .agents import LookaheadFault, SeatView, agent_seed, make_agent
from .trace import (default_trace_name, error_record, make_header, portable_message, result_of, source_of,
                    write_trace)

TIMING_KEYS = ("elapsed", "games_per_second", "decisions_per_second")


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


def play_game(game, players: int, seed: int, options: dict, agent_names: list, *, check: bool = False,
              max_decisions: int = MAX_DECISIONS, trace: bool = False):
    """Play one game with bots. Returns (state or None, exception or None, invariant notes)."""
    agents = [make_agent(n, agent_seed(seed, i)) for i, n in enumerate(agent_names)]
    state = None
    notes = []
    try:
        state = game.new_state(players, seed, options, trace=trace)
        inv = Invariants(state, max_decisions) if check else None
        if inv is not None:
            notes = inv.notes
        while not state.is_terminal():
            p = state.current_player
            try:
                a = agents[p].act(SeatView(state, p))
            except LookaheadFault as lf:
                # the option faulted in the agent's imagined copy: play it for real, where it
                # faults again (then the trace shows it) or, if it hung on hidden chance, not
                a = lf.action
            state.apply(a)
            if inv is not None:
                inv.check(state)
            else:
                check_bound(state, max_decisions)
        return state, None, notes
    except Exception as exc:  # any failure of a game is a result of the run, not its end
        return state, exc, notes


def run_one(game, spec: RunSpec, index: int) -> GameResult:
    seed = seed_for(spec.seed, index)
    state, exc, notes = play_game(game, spec.players, seed, spec.options, spec.agents,
                                  check=spec.check, max_decisions=spec.max_decisions)
    if exc is None:
        winners = list(state.winners) if state.winners else None
        return GameResult(index, seed, winners, list(state.scores()), len(state.history), notes=notes,
                          credits=_credits(state))
    return GameResult(index, seed, None, list(state.scores()) if state is not None else [],
                      len(state.history) if state is not None else 0,
                      error=_record_error(game, spec, index, seed, exc), notes=notes)


def _credits(state) -> list:
    """Points each card brought each seat: [card id, seat, points] (team points count for each member).
    The pieces each player owns a copy of are left out: they are no card of the game."""
    program = state.program
    out: dict = {}
    for (c, key), points in state.credit.items():
        if program.comp_owner[c] is not None:
            continue  # a piece each player owns a copy of (a pawn, a worker), not a card of the game
        owner = keys.owner_of(key)
        if owner is None:
            continue
        if keys.is_team_owner(owner):
            team = keys.team_of_owner(owner)
            seats = [s for s in range(state.n) if program.team_of(state.n)[s] == team]
        else:
            seats = [int(owner)]
        for s in seats:
            k = (program.comp_card[c].id, s)
            out[k] = out.get(k, 0) + points
    return [[card, seat, points] for (card, seat), points in sorted(out.items())]


def _record_error(game, spec: RunSpec, index: int, seed: int, exc) -> dict:
    message = portable_message(game, f"{type(exc).__name__}: {exc}" if not _known(exc) else str(exc))
    path = Path(spec.trace_dir) / default_trace_name(game.id, seed, index)
    # the same game again, with the trace on: the engine is deterministic, so it fails the same way
    state, exc2, _ = play_game(game, spec.players, seed, spec.options, spec.agents, check=spec.check,
                               max_decisions=spec.max_decisions, trace=True)
    if exc2 is None or str(exc2) != str(exc):
        message += " (not reproduced when played again: " + ("no error" if exc2 is None else str(exc2)) + ")"
    header = make_header(game, spec.players, seed, spec.options, state.history if state is not None else [],
                         agents=spec.agents, source=source_of(game, spec.game), check=spec.check,
                         max_decisions=spec.max_decisions,
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
    if _WORKER.get("key") != spec.game:
        _WORKER["game"] = load(spec.game)
        _WORKER["key"] = spec.game
    _WORKER["spec"] = spec


def _worker_chunk(indices: list) -> list:
    game, spec = _WORKER["game"], _WORKER["spec"]
    return [run_one(game, spec, i) for i in indices]


def _context():
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def run(game, spec: RunSpec, workers: int = 1, progress=None) -> tuple[list, float]:
    """Play the games of a run; returns (results in game order, seconds).

    `progress(n)` is called as games finish, with how many just finished.
    """
    t0 = time.perf_counter()
    results: list = []
    if workers <= 1 or spec.games <= 1:
        for i in range(spec.games):
            results.append(run_one(game, spec, i))
            if progress:
                progress(1)
        return results, time.perf_counter() - t0
    workers = min(workers, spec.games)
    size = max(1, min(64, math.ceil(spec.games / (workers * 8))))
    chunks = [list(range(i, min(i + size, spec.games))) for i in range(0, spec.games, size)]
    ctx = _context()
    if ctx.get_start_method() == "fork":  # the children inherit the loaded game
        _WORKER.update(game=game, key=spec.game)
    t0 = time.perf_counter()
    with ctx.Pool(workers, initializer=_worker_init, initargs=(spec,)) as pool:
        for chunk in pool.imap_unordered(_worker_chunk, chunks):
            results.extend(chunk)
            if progress:
                progress(len(chunk))
    results.sort(key=lambda r: r.index)
    return results, time.perf_counter() - t0


# statistics -----------------------------------------------------------------------------

def wilson(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of a proportion k/n (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def summarise(game, spec: RunSpec, results: list, seconds: float) -> dict:
    n = spec.players
    done = [r for r in results if r.error is None]
    c = len(done)
    wins = [sum(1 for r in done if r.winners and s in r.winners) for s in range(n)]
    draws = sum(1 for r in done if not r.winners)
    total_decisions = sum(r.decisions for r in results)
    out = {
        "game": game.id, "players": n, "seed": spec.seed, "options": spec.options, "agents": spec.agents,
        "check": spec.check, "games": spec.games, "completed": c, "draws": draws,
        "errors": [r.error for r in results if r.error is not None],
        "wins": wins,
        "win_rates": [_rate(k, c) for k in wins],
        "mean_scores": [round(sum(r.scores[s] for r in done) / c, 4) if c else None for s in range(n)],
        "decisions_per_game": round(sum(r.decisions for r in done) / c, 4) if c else None,
        "elapsed": round(seconds, 4),
        "games_per_second": round(len(results) / seconds, 2) if seconds > 0 else None,
        "decisions_per_second": round(total_decisions / seconds, 1) if seconds > 0 else None,
    }
    teams = game.program.teams_for(n)
    if any(len(t) > 1 for t in teams):
        out["teams"] = [[s + 1 for s in t] for t in teams]
        tw = [sum(1 for r in done if r.winners and any(s in r.winners for s in t)) for t in teams]
        out["team_wins"] = tw
        out["team_win_rates"] = [_rate(k, c) for k in tw]
    by = spec.by or list(game.program.defn.report_by)
    if by:
        out["by"] = {a: _by_attribute(game, done, a) for a in by}
        out["cards"] = _by_card(game, done)
    notes = []
    for r in results:
        for note in r.notes:
            if note not in notes:
                notes.append(note)
    if notes:
        out["notes"] = notes
    return out


def _card_attr(game, card_id: str, attribute: str):
    card = next(c for c in game.program.defn.cards if c.id == card_id)
    value = card.attrs.get(attribute, game.program.defn.attributes[attribute].default)
    return str(value) if value is not None else "–"


def _by_attribute(game, done: list, attribute: str) -> list:
    """Per value of `attribute`: mean points per game its cards brought their owners,
    and the win rate of a seat in the games where they brought it the most points."""
    points: dict = {}
    games_with: dict = {}
    for r in done:
        per_seat: dict = {}
        for card, seat, p in r.credits:
            v = _card_attr(game, card, attribute)
            points[v] = points.get(v, 0) + p
            per_seat.setdefault(v, {}).setdefault(seat, 0)
            per_seat[v][seat] += p
        for v, seats in per_seat.items():
            best = max(seats, key=lambda s: (seats[s], -s))
            w, n = games_with.get(v, (0, 0))
            games_with[v] = (w + (1 if r.winners and best in r.winners else 0), n + 1)
    total = sum(points.values()) or 1
    c = len(done) or 1
    rows = []
    for v in sorted(points, key=lambda v: -points[v]):
        w, n = games_with.get(v, (0, 0))
        rows.append({"value": v, "points_per_game": round(points[v] / c, 3), "share": round(points[v] / total, 4),
                     "lead_win_rate": _rate(w, n)})
    return rows


def _by_card(game, done: list) -> list:
    """Per card: mean points it brought per game, and the win rate of the seats it scored for."""
    points: dict = {}
    wins: dict = {}
    for r in done:
        for card, seat, p in r.credits:
            points[card] = points.get(card, 0) + p
            w, n = wins.get(card, (0, 0))
            wins[card] = (w + (1 if r.winners and seat in r.winners else 0), n + 1)
    c = len(done) or 1
    return [{"card": card, "points_per_game": round(points[card] / c, 3), "owner_win_rate": _rate(*wins[card])}
            for card in sorted(points, key=lambda k: -points[k])]


def _rate(k: int, n: int) -> dict:
    low, high = wilson(k, n)
    return {"rate": round(k / n, 4) if n else None, "low": round(low, 4), "high": round(high, 4)}


def comparable(summary: dict) -> dict:
    """The summary without its timing fields (which differ from run to run)."""
    return {k: v for k, v in summary.items() if k not in TIMING_KEYS}


# showing --------------------------------------------------------------------------------

def render(summary: dict, console) -> None:
    c = summary["completed"]
    title = (f"{summary['game']}: {summary['games']} games, {summary['players']} players, "
             f"seed {summary['seed']}" + (", checked" if summary["check"] else ""))
    t = Table(title=title, title_justify="left")
    t.add_column("seat", justify="right")
    t.add_column("agent")
    t.add_column("wins", justify="right")
    t.add_column("win rate", justify="right")
    t.add_column("95% CI", justify="right")
    t.add_column("mean score", justify="right")
    for s in range(summary["players"]):
        r = summary["win_rates"][s]
        ms = summary["mean_scores"][s]
        t.add_row(str(s + 1), summary["agents"][s], str(summary["wins"][s]), _pct(r["rate"]),
                  f"{_pct(r['low'])} – {_pct(r['high'])}", "–" if ms is None else f"{ms:.2f}")
    console.print(t)
    if "teams" in summary:
        tt = Table(title="teams", title_justify="left")
        tt.add_column("team", justify="right")
        tt.add_column("seats")
        tt.add_column("wins", justify="right")
        tt.add_column("win rate", justify="right")
        tt.add_column("95% CI", justify="right")
        for i, members in enumerate(summary["teams"]):
            r = summary["team_win_rates"][i]
            tt.add_row(str(i + 1), ", ".join(map(str, members)), str(summary["team_wins"][i]), _pct(r["rate"]),
                       f"{_pct(r['low'])} – {_pct(r['high'])}")
        console.print(tt)
    for attribute, rows in summary.get("by", {}).items():
        bt = Table(title=f"points brought, by {attribute}", title_justify="left")
        bt.add_column(attribute)
        bt.add_column("points per game", justify="right")
        bt.add_column("share", justify="right")
        bt.add_column("win rate of its top seat", justify="right")
        bt.add_column("95% CI", justify="right")
        for row in rows:
            r = row["lead_win_rate"]
            bt.add_row(row["value"], f"{row['points_per_game']:.2f}", _pct(row["share"]), _pct(r["rate"]),
                       f"{_pct(r['low'])} – {_pct(r['high'])}")
        console.print(bt)
    if summary.get("cards"):
        cards = summary["cards"]
        ct = Table(title=f"cards bringing the most and the fewest points ({len(cards)} scored)", title_justify="left")
        ct.add_column("card")
        ct.add_column("points per game", justify="right")
        ct.add_column("win rate of the seats it scored for", justify="right")
        shown = cards if len(cards) <= 10 else cards[:5] + cards[-5:]
        for row in shown:
            r = row["owner_win_rate"]
            ct.add_row(row["card"], f"{row['points_per_game']:.2f}", f"{_pct(r['rate'])} ({_pct(r['low'])} – {_pct(r['high'])})")
        console.print(ct)
    dpg = summary["decisions_per_game"]
    gps, dps = summary["games_per_second"], summary["decisions_per_second"]
    errors = summary["errors"]
    console.print(f"completed {c} of {summary['games']} games; draws (no winner) {summary['draws']}; "
                  f"errors {len(errors)}")
    console.print(f"decisions per game {'–' if dpg is None else f'{dpg:.1f}'}; "
                  f"{'–' if gps is None else f'{gps:.1f}'} games/s; "
                  f"{'–' if dps is None else f'{dps:.0f}'} decisions/s")
    for note in summary.get("notes", []):
        console.print(f"note: {note}", markup=False, soft_wrap=True)
    for e in errors[:10]:
        console.print(f"error in game {e['index']} (seed {e['seed']}): {e['message']}"
                      + (f"\n  trace: {e['trace']}" if e.get("trace") else ""), markup=False, highlight=False,
                      soft_wrap=True)
    if len(errors) > 10:
        console.print(f"... and {len(errors) - 10} more errors (see --json)")


def _pct(x) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"
