"""`regles simulate` and `regles compare`: many games by bots, on this machine or a cluster."""
from __future__ import annotations

import dataclasses
import json
import shlex
import signal
import sys
import uuid
from datetime import datetime, timezone
from pathlib import Path

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from .. import LoadError
from ..diagnostics import plural, printable
from ..names import did_you_mean
from ..play.agents import parse_agents
from ..runs import cluster, compare, gate, report_html, report_text, sequential, statistics
from ..runs import simulate as S
from ..runs.cluster import ClusterError
from ..runs.results import balance, cards, store
from ..content.settings import parse_setting
from .common import compiling_note, setup_counted, setup_game, unwritable, usage_error, write_json


def cmd_simulate(args) -> int:
    got = setup_game(args)
    if isinstance(got, int):
        return got
    game, players, options = got
    if args.games < 1:
        return usage_error(args, "--games must be at least 1")
    if args.workers < 1:
        return usage_error(args, "--workers must be at least 1")
    if args.max_decisions < 1:
        return usage_error(args, "--max-decisions must be at least 1")
    try:
        agents = parse_agents(args.agents, players)
    except ValueError as exc:
        return usage_error(args, str(exc))
    known = list(game.program.defn.attributes)
    for name in args.by:
        if name not in known:
            hint = did_you_mean(name, known)
            return usage_error(args, f"--by: {game.id} has no attribute '{name}'" + (f"; {hint}" if hint else "")
                                + (f" (attributes: {', '.join(known)})" if known else " (it has none)"))
    for path, folder, option in ((args.json, False, "--json"), (args.trace_dir, True, "--trace-dir")):
        why = unwritable(path, folder) if path else None
        if why:
            return usage_error(args, f"{option}: {why}")
    if args.results:
        why = _results_unusable(args.results, args.seed)
        if why:
            return usage_error(args, f"--results: {why}")
    if args.results or args.cards:
        why = statistics.missing()
        if why:
            return usage_error(args, f"{'--results' if args.results else '--cards'}: {why}")
    spec = S.RunSpec(args.game, players, args.seed, args.games, agents, options, args.check,
                     args.max_decisions, args.trace_dir, by=args.by, powers=args.powers,
                     named=args.named_options, record=bool(args.results or args.cards), backend=args.backend,
                     **S.laid_of(game))
    if args.backend != "python":  # the rules compiled to C now, once
        native, words = S.backend_for(game, spec, say=compiling_note(args, game))
        if native is None and args.backend == "native":
            return usage_error(args, f"--backend native: the games would be played by the {words}")
    err = Console(file=sys.stderr)
    pool = _open_cluster(args)
    if isinstance(pool, int):
        return pool
    started_at = datetime.now(timezone.utc).replace(tzinfo=None)

    def started():
        if not args.quiet:
            print(f"playing {plural(args.games, 'game')} of {printable(game.id)} ({players} players"
                  + _where_played(args, pool) + "); Ctrl-C stops and reports the games played",
                  file=sys.stderr, flush=True)
    show_bar = not args.quiet and sys.stderr.isatty()
    try:
        if show_bar:
            bar = Progress(TextColumn("{task.description}", style="bold", markup=False), BarColumn(),
                           MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn(), console=err,
                           transient=True)
            task = bar.add_task(printable(game.id), total=args.games)
            ran = _run_with_bar(S, game, spec, args.workers, bar, task, started, pool)
        else:
            ran = S.run(game, spec, args.workers, started=started, cluster=pool)
    except ClusterError as exc:
        print(f"regles {args.command}: error: {printable(exc)}", file=sys.stderr)
        return 1
    finally:
        if pool is not None:
            pool.close()
    if ran.interrupted:  # a second Ctrl-C does not cut the report of the games played short
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    summary = report_text.summarise(game, spec, ran.results, ran.seconds, interrupted=ran.interrupted)
    summary["backend"] = S.backend_for(game, spec)[1]
    fell_back = [r.in_python for r in ran.results if r.in_python]
    if fell_back:
        summary["backend"] += f"; {len(fell_back)} of {len(ran.results)} games by the Python backend, past what " \
                              f"the C plays ({fell_back[0]})"
    if spec.record:
        team_of = game.program.team_of(players)
        summary["balance"] = balance.measures(ran.results, team_of)
        summary["card_effects"] = cards.effects(ran.results, players, team_of)
    report_text.render(summary, Console(file=sys.stdout, highlight=False))
    if args.results:
        run = store.run_row(game, spec, summary["agents"], len(ran.results), uuid.uuid4().hex, started_at,
                            "regles " + shlex.join(getattr(args, "argv", None) or sys.argv[1:]))
        try:
            store.write(args.results, store.tables(run, ran.results, game.program.team_of(players)))
        except store.ResultsError as exc:
            print(f"regles simulate: error: {printable(exc)}", file=sys.stderr)
            return 1
        if not args.quiet:
            print(f"results of run {run['run_id']} written to {printable(args.results)}", file=sys.stderr)
    if args.json and not write_json(args.json, summary, "simulate"):
        return 1
    if ran.interrupted:
        print(f"regles simulate: interrupted; the report covers the {plural(len(ran.results), 'game')} played",
              file=sys.stderr)
        return 130
    return 1 if summary["errors"] else 0


def cmd_balance(args) -> int:
    got = setup_counted(args)
    if isinstance(got, int):
        return got
    game, players, options = got
    for path, option in ((args.write_baseline, "--write-baseline"), (args.json, "--json")):
        why = unwritable(path) if path else None
        if why:
            return usage_error(args, f"{option}: {why}")
    layers = {k: v for k, v in S.laid_of(game).items() if k != "without"}
    if args.baseline is not None:
        try:
            with open(args.baseline, encoding="utf-8") as f:
                data = gate.read(json.load(f), game.id)
        except (OSError, UnicodeDecodeError, ValueError) as exc:  # json's errors and BaselineError are ValueErrors
            return usage_error(args, f"--baseline {args.baseline}: {getattr(exc, 'strerror', None) or exc}")
        try:
            run = gate.settings_of(data, game, layers)
        except gate.BaselineError as exc:
            return usage_error(args, f"--baseline {args.baseline}: {exc}")
        players, agents, options, seed, games, powers = (run[k] for k in ("players", "agents", "options", "seed",
                                                                           "games", "powers"))
        flagged = list(data["cards"])
    else:
        try:
            agents = parse_agents(args.agents, players)
        except ValueError as exc:
            return usage_error(args, str(exc))
        seed, games, flagged, powers = args.seed, args.games, args.card, args.powers
        known = {c.id for c in game.program.defn.cards}
        unknown = [c for c in flagged if c not in known]
        if unknown:
            return usage_error(args, f"--card: no card '{unknown[0]}' in {game.id}"
                                     + (f"; {hint}" if (hint := did_you_mean(unknown[0], known)) else ""))
    if flagged and (why := statistics.missing()):
        return usage_error(args, f"--card: {why}")
    spec = S.RunSpec(args.game, players, seed, games, agents, options, False, args.max_decisions, "traces",
                     powers=powers, named=list(options), record=bool(flagged), **layers)
    if not args.quiet:
        print(f"playing {plural(games, 'game')} of {printable(game.id)} ({players} players)"
              + ("; then comparing with the baseline" if args.baseline else ""), file=sys.stderr, flush=True)
    ran = S.run(game, spec, args.workers, say=compiling_note(args, game))
    if ran.interrupted:
        return 130
    effects = {row["card"]: [row["effect"], row["effect_low"], row["effect_high"]]
               for row in cards.effects(ran.results, players, game.program.team_of(players)) if row["card"] in flagged} \
        if flagged else {}
    if args.write_baseline:
        settings = {"players": players, "seed": seed, "games": games, "agents": agents,
                    "options": {k: v for k, v in options.items()}, "powers": powers, **layers}
        made = gate.baseline(game.id, settings, ran.results, {c: effects.get(c, [None, None, None]) for c in flagged})
        if not write_json(args.write_baseline, made, "balance"):
            return 1
        print(f"wrote the baseline of {plural(games, 'game')} of {printable(game.id)} to {printable(args.write_baseline)}")
        return 0
    figures = gate.compare_runs(game, players, data, ran.results, effects)
    gate.render(figures, Console(file=sys.stdout, highlight=False))
    if args.json and not write_json(args.json, {"figures": [dict(vars(f), moved=f.moved) for f in figures]},
                                    "balance"):
        return 1
    return 1 if any(f.moved for f in figures) else 0


def _play_arms(args, arms, games: int, pool, first: int = 0) -> list:
    """Play games first.. of both arms ((game, spec) each), the bar shown at a terminal; the
    runs, fewer than two when Ctrl-C stopped the first."""
    show_bar = not args.quiet and sys.stderr.isatty()
    runs = []
    for arm_game, spec in arms:
        spec = dataclasses.replace(spec, games=games, first=first)
        if show_bar:
            bar = Progress(TextColumn("{task.description}", style="bold", markup=False), BarColumn(),
                           MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn(),
                           console=Console(file=sys.stderr), transient=True)
            task = bar.add_task("as is" if arm_game is arms[0][0] else "changed", total=games)
            ran = _run_with_bar(S, arm_game, spec, args.workers, bar, task, lambda: None, pool,
                                say=compiling_note(args, arm_game))
        else:
            ran = S.run(arm_game, spec, args.workers, cluster=pool, say=compiling_note(args, arm_game))
        runs.append(ran)
        if ran.interrupted:
            break
    return runs


def _play_until_decided(args, game, changed, base, other, players: int, design, pool):
    """Batches of pairs until the sequential test decides: the two arms' runs (all batches
    merged) and the verdict (plain data: the decision, the pairs, the path of each seat's and
    label's log-likelihood ratios, the bounds)."""
    units: dict = {}
    merged = [S.Run([], 0.0), S.Run([], 0.0)]
    path, pairs, decided, moved = [], 0, "", []
    while not decided and pairs < design.max_pairs:
        size = min(design.batch, design.max_pairs - pairs)
        runs = _play_arms(args, ((game, base), (changed, other)), size, pool, first=pairs)
        for m, r in zip(merged, runs):
            m.results.extend(r.results)
            m.seconds += r.seconds
        if len(runs) < 2 or any(r.interrupted for r in runs):
            merged = [dataclasses.replace(m, interrupted=True) for m in merged]
            break
        sequential.update(units, design, compare.pair_outcomes(game, players, runs[0].results, runs[1].results),
                          pairs)
        pairs += size
        path.append({"pairs": pairs, "llr": {u.name: [round(u.up, 4), round(u.down, 4)] for u in units.values()}})
        decided, moved = sequential.decision(units, design, pairs)
        if not args.quiet:
            lower, upper = design.bounds(2 * len(units))
            print(f"  {pairs} pairs, log-likelihood ratios up and down (bounds {lower:.2f}, {upper:.2f}): "
                  + ", ".join(f"{printable(u.name)} {u.up:.2f} {u.down:.2f}" for u in units.values()),
                  file=sys.stderr, flush=True)
    lower, upper = design.bounds(2 * max(1, len(units)))
    verdict = {"decision": decided or (sequential.UNDECIDED if pairs >= design.max_pairs else "interrupted"),
               "pairs": pairs, "points": round(100 * design.delta, 4), "alpha": design.alpha, "beta": design.beta,
               "batch": design.batch, "max_pairs": design.max_pairs, "bounds": [round(lower, 4), round(upper, 4)],
               "moved": [{"figure": name, "direction": "up" if sign > 0 else "down"} for name, sign in moved],
               "counts": [{"figure": u.name, "as_is_only": u.counts[0], "alike": u.counts[1],
                           "changed_only": u.counts[2]} for u in units.values()],
               "path": path}
    return merged, verdict


def _delta(args) -> float:
    if args.elo is not None:
        return sequential.elo_points(args.elo)
    return (5.0 if args.points is None else args.points) / 100


def _design_unusable(args, players: int) -> str | None:
    """Why the options of --until-decided cannot make a test, or None."""
    if args.elo is not None and players != 2:
        return "--elo is for a game of two players (a win rate from 50%); use --points"
    delta = _delta(args)
    if not 0 < delta < 1:
        return "--points must be between 0 and 100 (--elo above 0)"
    for value, name in ((args.alpha, "--alpha"), (args.beta, "--beta")):
        if not 0 < value < 0.5:
            return f"{name} must be between 0 and 0.5"
    if args.batch < 1 or args.max_games < args.batch:
        return "--batch must be at least 1 and --max-games at least --batch"
    return None


def _results_unusable(path: str, seed: int) -> str | None:
    """Why results cannot be written to `path`, or None; checked before the first game."""
    kind = store.kind_of(path)
    if kind is None:
        return f"{path}: a results file ends in .duckdb or .parquet"
    if not -2 ** 63 <= seed < 2 ** 63:
        return f"the seed {seed} does not fit a results file (a 64-bit signed number)"
    files = [path] if kind == "duckdb" else [str(f) for f in store.parquet_files(path).values()]
    for f in files:
        why = unwritable(f)
        if why:
            return why
    try:
        store.prepare(path)
    except store.ResultsError as exc:
        return str(exc)
    return None


def _run_with_bar(S, game, spec, workers, bar, task, started, cluster=None, say=None):
    # the pool forks its workers when made: start the bar's refresh thread after (when the games start)
    def begin():
        started()
        bar.start()
    try:
        return S.run(game, spec, workers, lambda k: bar.advance(task, k), begin, cluster=cluster, say=say)
    finally:
        bar.stop()


def _open_cluster(args):
    """The Dask cluster of --cluster, None without it, or an exit status: 2 when Dask is not
    installed, 1 when the scheduler cannot be reached."""
    if args.cluster is None:
        return None
    try:
        return cluster.connect(args.cluster, args.workers)
    except ClusterError as exc:
        if exc.usage:
            return usage_error(args, str(exc))
        print(f"regles {args.command}: error: {printable(exc)}", file=sys.stderr)
        return 1


def _where_played(args, pool) -> str:
    if pool is not None:
        return (", on a local Dask cluster" if pool.address == "local" else
                f", on the Dask cluster at {printable(pool.address)}") + f" of {plural(pool.workers(), 'worker')}"
    return f", {args.workers} workers" if args.workers > 1 and args.games > 1 else ""


def cmd_compare(args) -> int:
    got = setup_counted(args)
    if isinstance(got, int):
        return got
    game, players, options = got
    without = [x.strip() for item in args.without for x in item.split(",") if x.strip()]
    if args.variant is None and not without and not args.change:
        return usage_error(args, "--without takes the ids of cards, separated by commas")
    try:
        agents = parse_agents(args.agents, players)
        settings = [parse_setting(x) for x in args.change]
        changed = compare.changed_game(game, without, args.variant, settings)
        changed_options = changed.options({k: options[k] for k in args.named_options})
        if args.powers != "random":
            changed.powers_of(args.powers, players)
    except ValueError as exc:
        return usage_error(args, str(exc))
    except LoadError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    for path, folder, option in ((args.json, False, "--json"), (args.trace_dir, True, "--trace-dir"),
                                 (args.html, False, "--html")):
        why = unwritable(path, folder) if path else None
        if why:
            return usage_error(args, f"{option}: {why}")
    if args.html and not args.until_decided:
        return usage_error(args, "--html draws the path of --until-decided: give both")
    if args.html:
        try:
            report_html.require_charts()
        except report_html.MissingExtra as exc:
            return usage_error(args, f"--html: {exc}")
    base = S.RunSpec(args.game, players, args.seed, args.games, agents, options, False, args.max_decisions,
                     str(Path(args.trace_dir) / "base"), powers=args.powers, named=args.named_options,
                     **S.laid_of(game))
    other = dataclasses.replace(base, options=changed_options, trace_dir=str(Path(args.trace_dir) / "changed"),
                                **S.laid_of(changed))
    titles = {c.id: c.title for c in game.program.defn.cards}
    if args.variant is not None:
        change = {"variant": args.variant}
    elif settings:
        set_now = {(c, a): v for c, a, v in changed.program.settings}  # each value of its attribute's type
        change = {"set": [[c, a, set_now.get((c, a), v)] for c, a, v in settings]}
    else:
        change = {"without": list(changed.program.defn.without),
                  "titles": [str(titles.get(c, c)) for c in changed.program.defn.without]}
    design = None
    if args.until_decided:
        why = _design_unusable(args, players)
        if why:
            return usage_error(args, why)
        design = sequential.Design(_delta(args), args.alpha, args.beta, args.batch, args.max_games)
    pool = _open_cluster(args)
    if isinstance(pool, int):
        return pool
    if not args.quiet:
        what = (f"pairs of games in batches of {design.batch} until a test decides (at most {design.max_pairs})"
                if design else plural(args.games, 'game'))
        print(f"playing {what} of {printable(game.id)} ({players} players) as it is, then "
              f"{printable(compare.change_text(change))}" + _where_played(args, pool)
              + "; Ctrl-C stops and reports the pairs played", file=sys.stderr, flush=True)
    try:
        if design is None:
            runs = _play_arms(args, ((game, base), (changed, other)), args.games, pool)
            verdict = None
        else:
            runs, verdict = _play_until_decided(args, game, changed, base, other, players, design, pool)
    except ClusterError as exc:
        print(f"regles compare: error: {printable(exc)}", file=sys.stderr)
        return 1
    finally:
        if pool is not None:
            pool.close()
    interrupted = any(r.interrupted for r in runs)
    if interrupted:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    results = [r.results for r in runs] + [[]] * (2 - len(runs))
    summary = compare.summarise(game, changed, base, change, results[0], results[1],
                                sum(r.seconds for r in runs), interrupted)
    if verdict is not None:
        summary["sequential"] = verdict
        summary["games"] = verdict["pairs"]
    compare.render(summary, Console(file=sys.stdout, highlight=False))
    if args.json and not write_json(args.json, summary, "compare"):
        return 1
    if verdict is not None and args.html:
        try:
            report_html.write_sequential(summary, args.html)
        except (report_html.MissingExtra, OSError) as exc:
            print(f"regles compare: error: {printable(exc)}", file=sys.stderr)
            return 1
    if interrupted:
        return 130
    return 1 if summary["errors"]["base"] or summary["errors"]["changed"] else 0
