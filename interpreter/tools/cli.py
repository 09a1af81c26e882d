"""The `regles` command: check content, and (with the engine) play and simulate.

Usage errors exit with status 2, content errors with 1, success with 0; no
input, however broken, makes this command print a Python traceback.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shlex
import signal
import sys
import uuid
from datetime import datetime, timezone
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from .. import LoadError, __version__, load
from ..content.folders import exists, find_expansion_root, find_game_root, is_dir, is_file
from ..content.layers import available_expansions
from ..diagnostics import lines_of, plural, printable, render_json, render_text
from ..engine.state import GameFault
from ..names import did_you_mean
from . import check
from . import cluster
from . import compare
from . import report
from . import report_html
from . import simulate as S
from .agents import HumanAgent, parse_agents
from .cluster import ClusterError
from .explain import explain, find_card
from .lsp import server as lsp_server
from ..language.prose import LANGS, Prose
from .play import play_at_terminal
from .results import balance, cards, store
from .ruletest import run_test
from .shown import printable_stream
from .trace import TraceError, replay, state_at
from . import why
from . import faces as F
from . import sheets


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # usage errors: status 2, as argparse does, but never a traceback
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="regles", description="regles: a rules-as-data interpreter for tabletop games.")
    parser.add_argument("--version", action="version", version=f"regles {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    check = sub.add_parser("check", help="check content files or game folders and report every error",
                           description="Check content: YAML, schema, rules-language syntax, names and types. "
                                       "Exit status 0 when clean, 1 on content errors, 2 on usage errors.")
    check.add_argument("paths", nargs="*", metavar="PATH", help="game folders or content files (default: the shipped content)")
    check.add_argument("--format", choices=["text", "json"], default="text", help="how to print the report")
    check.add_argument("--color", choices=["auto", "always", "never"], default="auto")
    check.add_argument("--strict", action="store_true", help="treat warnings as errors")
    check.set_defaults(subparser=check)
    _add_play_commands(sub)
    lsp = sub.add_parser("lsp", help="run the language server editors talk to (needs regles[lsp])",
                         description="A language server for content files: check-as-you-type diagnostics, "
                                     "completion, hover and go to definition. It speaks over the standard input "
                                     "and output, or over TCP with --tcp. Needs pygls: pip install 'regles[lsp]'.")
    lsp.add_argument("--tcp", type=int, metavar="PORT", default=None, help="listen on this TCP port instead of stdio")
    lsp.add_argument("--host", default="127.0.0.1", help="the address --tcp listens on (default 127.0.0.1)")
    lsp.set_defaults(subparser=lsp)
    rpt = sub.add_parser("report", help="make an HTML page of charts from the results of simulate (needs regles[report])",
                         description="Write one self-contained HTML page of charts from a results file of "
                                     "simulate --results (a .duckdb file, or the .parquet of a Parquet set): "
                                     "win rates by seat, scores, game length, balance figures, cards and seat "
                                     "labels. Needs DuckDB and matplotlib: pip install 'regles[report]'.")
    rpt.add_argument("results", metavar="RESULTS", help="a results file: NAME.duckdb or NAME.parquet")
    rpt.add_argument("--run", metavar="RUN_ID", default=None, help="the run to report (default: the latest)")
    rpt.add_argument("--out", "-o", metavar="FILE", default=None,
                     help="the page to write (default: RESULTS with the suffix .html)")
    rpt.add_argument("--top", type=int, default=10, metavar="N",
                     help="how many cards of each end the card charts show (default 10)")
    rpt.add_argument("--min-plays", type=int, default=30, metavar="N",
                     help="compare a card when at least N seats played it and N did not (default 30)")
    rpt.set_defaults(subparser=rpt)
    return parser


def _add_play_commands(sub) -> None:
    """The subcommands that run games: simulate, play, replay."""
    def game_args(p):
        p.add_argument("game", metavar="GAME", help="a shipped game id, or a game folder")
        p.add_argument("--players", "-n", type=int, default=None, help="number of players (default: the fewest)")
        p.add_argument("--seed", "-s", type=int, default=1, help="the seed (default 1)")
        p.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE",
                       help="a game option; may be repeated")
        layer_args(p)
        p.add_argument("--scenario", metavar="NAME", default=None,
                       help="play this scenario (its expansion is laid with it)")
        p.add_argument("--solo", metavar="LEVEL", default=None,
                       help="the game's solo mode at this level: one player against the automaton of the "
                            "expansion that declares solo:")
        p.add_argument("--power", action="append", default=[], metavar="SEAT=NAME",
                       help="give seat SEAT (from 1) the personal power NAME; may be repeated "
                            "('--power random' in simulate: a power per seat, drawn for each game)")

    def cluster_arg(p):
        p.add_argument("--cluster", metavar="ADDRESS", default=None,
                       help="play the games on a Dask cluster: a scheduler's address (tcp://HOST:8786), or "
                            "'local' for one of --workers processes on this machine (needs regles[cluster])")

    def layer_args(p):
        p.add_argument("--expansion", "-x", action="append", default=[], metavar="NAME[,NAME]",
                       help="lay these expansions of the game over it; may be repeated")
        p.add_argument("--with", action="append", default=[], dest="mods", metavar="PATH",
                       help="lay a mod over the game: an expansion folder, or a folder or file of cards")

    sim = sub.add_parser("simulate", help="play many games with bots and report win rates, scores and speed",
                         description="Play many games with bots. Game i uses seed seed_for(SEED, i), so a run "
                                     "gives the same results whatever the number of workers. A game that "
                                     "raises is an error: reported with its seed, its trace saved. Exit "
                                     "status 1 when any game failed.")
    game_args(sim)
    sim.add_argument("--games", "-k", type=int, default=100, help="how many games (default 100)")
    sim.add_argument("--agents", "-a", default="random",
                     help="bots, one per seat or one for all: random, greedy (default random)")
    sim.add_argument("--check", action="store_true", help="check the generic invariants after every step")
    sim.add_argument("--json", metavar="FILE", help="write the results as a JSON object")
    sim.add_argument("--results", metavar="FILE",
                     help="append a row per game, per seat and per card a seat took, played, scored with or "
                          "held to FILE (.duckdb, or .parquet: four files); needs pip install 'regles[data]'")
    sim.add_argument("--cards", action="store_true",
                     help="report what each card does (win rate of the seats that played it, when held, "
                          "when taken, its average pick) and the balance measures (also with --results)")
    sim.add_argument("--workers", "-w", type=int, default=1, help="processes to spread the games over")
    cluster_arg(sim)
    sim.add_argument("--trace-dir", default="traces", metavar="DIR",
                     help="where the traces of failed games go (default ./traces)")
    sim.add_argument("--max-decisions", type=int, default=20_000, metavar="N",
                     help="a game with more decisions did not end: an error (default 20000)")
    sim.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    sim.add_argument("--by", action="append", default=[], metavar="ATTRIBUTE",
                     help="report the points cards brought their owners by this attribute (default: the game's report_by)")
    sim.set_defaults(subparser=sim)

    cmp_ = sub.add_parser("compare", help="play the same games with and without a change and report the differences",
                          description="A controlled comparison: the same seeds played by the same bots on the game "
                                      "as it is and on the game changed (cards left out with --without, or a mod "
                                      "laid with --variant). Reports, per seat, the difference in win rate and mean "
                                      "score with a 95% interval from the paired per-game differences (normal "
                                      "approximation), and the difference in game length. Exit status 1 when a "
                                      "game failed.")
    game_args(cmp_)
    change = cmp_.add_mutually_exclusive_group(required=True)
    change.add_argument("--without", action="append", default=[], metavar="CARD[,CARD]",
                        help="leave these cards out of the game (every copy); may be repeated")
    change.add_argument("--variant", metavar="PATH", default=None,
                        help="lay this mod (a file or folder, as --with) over the game")
    cmp_.add_argument("--games", "-k", type=int, default=200, help="how many games in each arm (default 200)")
    cmp_.add_argument("--agents", "-a", default="random",
                      help="bots, one per seat or one for all: random, greedy (default random)")
    cmp_.add_argument("--json", metavar="FILE", help="write the figures as a JSON object")
    cmp_.add_argument("--workers", "-w", type=int, default=1, help="processes to spread the games over")
    cluster_arg(cmp_)
    cmp_.add_argument("--trace-dir", default="traces", metavar="DIR",
                      help="where the traces of failed games go, in base/ and changed/ (default ./traces)")
    cmp_.add_argument("--max-decisions", type=int, default=20_000, metavar="N",
                      help="a game with more decisions did not end: an error (default 20000)")
    cmp_.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    cmp_.set_defaults(subparser=cmp_)

    play = sub.add_parser("play", help="play a game at the terminal against bots",
                          description="Play seat 1 (or --seat) at the terminal against bots; every event is "
                                      "told as it happens, showing only what your seat may see. "
                                      "Type the number of an option; q quits; why MOVE says why a move "
                                      "is not offered, naming the condition and its line.")
    game_args(play)
    play.add_argument("--agents", "-a", default="greedy",
                      help="the bots of the other seats, one for all or one per other seat (default greedy)")
    play.add_argument("--seat", type=int, default=1, help="the seat you play, from 1 (default 1)")
    play.add_argument("--save", metavar="TRACE", help="write the game's trace to this file")
    play.add_argument("--lang", choices=LANGS, default="en",
                      help="the language of the cards shown on request ('? N') and of what options do (default en)")
    play.add_argument("--all", action="store_true", dest="show_all",
                      help="show the rules' bookkeeping too (the counters the game declares internal)")
    play.set_defaults(subparser=play)

    rep = sub.add_parser("replay", help="play a saved trace again and check every event is the same",
                         description="Re-play a trace from its game, seed, options and choices; exit status 1 "
                                     "at the first event that differs.")
    rep.add_argument("trace", metavar="TRACE", help="a trace file (JSON lines)")
    rep.set_defaults(subparser=rep)

    test = sub.add_parser("test", help="run a game's rules tests (its executable rulings)",
                          description="Run the rules tests (kind: rules-test) of a game; exit status 1 when one fails.")
    test.add_argument("game", metavar="GAME", help="a shipped game id, a game folder, or an expansion folder")
    test.add_argument("files", nargs="*", metavar="RULINGS",
                      help="rules-test files kept outside the game's folder: run only their tests, with the game")
    layer_args(test)
    test.add_argument("--rule", "-r", action="append", default=[], metavar="ID", help="only tests naming this rule ID")
    test.add_argument("-k", metavar="TEXT", default=None, help="only tests whose name contains this text")
    test.set_defaults(subparser=test)

    why = sub.add_parser("why", help="say why a move is not possible at a point of a saved trace",
                         description="Replay a trace up to event EVENT and say whether MOVE is possible at the "
                                     "decision asked then: if not, the condition that excludes it, its file and "
                                     "line, and the values it read. MOVE is an option's label (or the start of "
                                     "it), a candidate's name, 'use CARD', 'CARD: LABEL' or an action's label. "
                                     "Exit status 0 with the answer, 1 when the trace's game cannot be loaded, "
                                     "2 on usage errors.")
    why.add_argument("trace", metavar="TRACE", help="a trace file (JSON lines), from play --save or simulate")
    why.add_argument("move", metavar="MOVE", help="the move, quoted when it has spaces")
    why.add_argument("--at", type=int, required=True, metavar="EVENT",
                     help="the event number (the trace's n): the decision a choice event answers, "
                          "else the first asked after the event")
    why.add_argument("--seat", type=int, default=None,
                     help="ask as this seat (from 1): nothing it may not see is told")
    why.set_defaults(subparser=why)

    exp = sub.add_parser("explain", help="show how the engine reads a card",
                         description="Show a card as it would be printed (its abilities written as prose), then "
                                     "its attributes and classes, and for each ability the keyword it matches and "
                                     "what the engine does with it.")
    exp.add_argument("game", metavar="GAME", help="a shipped game id, or a game folder")
    exp.add_argument("card", metavar="CARD", help="the card's id or title")
    exp.add_argument("--lang", choices=LANGS, default="en",
                     help="the language the card is written in (default: en)")
    layer_args(exp)
    exp.set_defaults(subparser=exp)

    sh = sub.add_parser("sheets", help="print-and-play sheets of a game's cards: a PDF, an SVG per card "
                                       "(needs regles[sheets])",
                        description="Lay out the faces of a game's cards nine to an A4 page (3 x 3 cards of "
                                    "63 x 88 mm, with cut marks), each card as many times as its copies, and "
                                    "write them as a PDF; with --svg-dir, or when --out is a folder, one SVG per "
                                    "card too. Abilities are written as prose. Needs reportlab: "
                                    f"{sheets.INSTALL}.")
    sh.add_argument("game", metavar="GAME", help="a shipped game id, or a game folder")
    layer_args(sh)
    sh.add_argument("--out", required=True, metavar="PDF|FOLDER",
                    help="the PDF to write, or a folder (an existing one, or a name ending with /) to write "
                         "GAME.pdf and the SVGs in")
    sh.add_argument("--svg-dir", metavar="DIR", default=None, help="write one SVG per card in this folder")
    sh.add_argument("--cards", action="append", default=[], metavar="ID[,ID]",
                    help="only these cards (ids or titles); the id of an expansion or mod laid with the game "
                         "for its cards, 'mod' for the cards of the mods given with --with; may be repeated")
    sh.add_argument("--set", dest="set_name", metavar="NAME", default=None,
                    help="only the cards of this set (the set: of their cards files)")
    sh.add_argument("--lang", choices=LANGS, default="en", help="the language of the abilities (default: en)")
    sh.add_argument("--players", "-n", type=int, default=None,
                    help="cards given to each player are printed this many times (default: the most players)")
    sh.set_defaults(subparser=sh)


def _usage_error(args, message: str) -> int:
    args.subparser.print_usage(sys.stderr)
    print(f"regles {args.command}: error: {printable(message)}", file=sys.stderr)
    return 2


def _unwritable(path: str, folder: bool = False) -> str | None:
    """Why `path` cannot be written (a file, or with `folder` a folder made if need be), or None.

    Checked before the first game, so that a run of an hour is not lost at its end."""
    p = Path(path)
    if folder:
        if is_dir(p):
            return None if os.access(p, os.W_OK) else f"cannot write in the folder {path}"
        if exists(p):
            return f"{path} is not a folder"
        above = next((a for a in p.absolute().parents if exists(a)), None)
        if above is None or not is_dir(above):
            return f"cannot make the folder {path}: {above} is not a folder"
        return None if os.access(above, os.W_OK) else f"cannot make the folder {path}: cannot write in {above}"
    if is_dir(p):
        return f"{path} is a folder; give a file name"
    parent = p.absolute().parent
    if not is_dir(parent):
        return f"cannot write {path}: no such folder {parent}"
    if exists(p):
        return None if os.access(p, os.W_OK) else f"cannot write {path}: permission denied"
    return None if os.access(parent, os.W_OK) else f"cannot write {path}: cannot write in {parent}"


def _setup_game(args):
    """(game, players, options) from the arguments, or an exit status (1 content, 2 usage)."""
    game = _load_only(args)
    if isinstance(game, int):
        return game
    players = args.players if args.players is not None else game.min_players
    if not game.min_players <= players <= game.max_players:
        more = [x.id for x in available_expansions(game.program.root).values() if (x.max_players or 0) >= players]
        span = f"{game.min_players}" if game.min_players == game.max_players else f"{game.min_players} to {game.max_players}"
        return _usage_error(args, f"{game.title} is for {span} players"
                                  + (" in its solo mode" if getattr(args, "solo", None) else "") + ", "
                                  f"not {players}" + (f" (with --expansion {' or '.join(more)}: up to {players})"
                                                      if more and players > game.max_players
                                                      and not getattr(args, "solo", None) else ""))
    given = {}
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            return _usage_error(args, f"--option takes KEY=VALUE, not '{item}'")
        given[key.strip()] = value.strip()
    if getattr(args, "solo", None) is not None:
        if args.solo_option in given and given[args.solo_option] != args.solo:
            return _usage_error(args, f"--solo {args.solo} and --option {args.solo_option}={given[args.solo_option]} "
                                      "disagree: give one of them")
        given[args.solo_option] = args.solo
    try:
        options = game.options(given)
        powers = _powers(args, players)
        if powers == "random":
            if not game.powers():
                raise ValueError(f"--power random: {game.title} has no personal powers"
                                 + ("" if game.program.defn.layers else " (an expansion may bring them)"))
        else:
            game.powers_of(powers, players)
        game.check_players(players)  # the scenario's player counts
    except ValueError as exc:
        return _usage_error(args, str(exc))
    args.powers = powers
    args.named_options = list(given)
    return game, players, options


def _powers(args, players: int) -> dict | str:
    """--power SEAT=NAME, each given once, as {seat from 1: name}; or "random"."""
    out = {}
    if getattr(args, "power", []) == ["random"] and args.command == "simulate":
        return "random"
    for item in getattr(args, "power", []):
        seat, sep, name = item.partition("=")
        if not sep or not seat.strip().isdigit() or not name.strip():
            raise ValueError(f"--power takes SEAT=NAME (a seat from 1 to {players}), not '{item}'")
        if int(seat) in out:
            raise ValueError(f"--power: seat {int(seat)} is given two powers")
        out[int(seat)] = name.strip()
    return out


def cmd_simulate(args) -> int:
    got = _setup_game(args)
    if isinstance(got, int):
        return got
    game, players, options = got
    if args.games < 1:
        return _usage_error(args, "--games must be at least 1")
    if args.workers < 1:
        return _usage_error(args, "--workers must be at least 1")
    if args.max_decisions < 1:
        return _usage_error(args, "--max-decisions must be at least 1")
    try:
        agents = parse_agents(args.agents, players)
    except ValueError as exc:
        return _usage_error(args, str(exc))
    known = list(game.program.defn.attributes)
    for name in args.by:
        if name not in known:
            hint = did_you_mean(name, known)
            return _usage_error(args, f"--by: {game.id} has no attribute '{name}'" + (f"; {hint}" if hint else "")
                                + (f" (attributes: {', '.join(known)})" if known else " (it has none)"))
    for path, folder, option in ((args.json, False, "--json"), (args.trace_dir, True, "--trace-dir")):
        why = _unwritable(path, folder) if path else None
        if why:
            return _usage_error(args, f"{option}: {why}")
    if args.results:
        why = _results_unusable(args.results, args.seed)
        if why:
            return _usage_error(args, f"--results: {why}")
    spec = S.RunSpec(args.game, players, args.seed, args.games, agents, options, args.check,
                     args.max_decisions, args.trace_dir, by=args.by, expansions=list(game.chosen.expansions),
                     scenario=game.chosen.scenario, mods=list(game.chosen.mods), powers=args.powers,
                     named=args.named_options, record=bool(args.results or args.cards))
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
    summary = report.summarise(game, spec, ran.results, ran.seconds, interrupted=ran.interrupted)
    if spec.record:
        team_of = game.program.team_of(players)
        summary["balance"] = balance.measures(ran.results, team_of)
        summary["card_effects"] = cards.effects(ran.results, players)
    report.render(summary, Console(file=sys.stdout, highlight=False))
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
    if args.json:
        try:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump(summary, f, indent=2, ensure_ascii=False)
                f.write("\n")
        except OSError as exc:
            print(f"regles simulate: error: cannot write {printable(args.json)}: {exc.strerror or exc}",
                  file=sys.stderr)
            return 1
    if ran.interrupted:
        print(f"regles simulate: interrupted; the report covers the {plural(len(ran.results), 'game')} played",
              file=sys.stderr)
        return 130
    return 1 if summary["errors"] else 0


def _results_unusable(path: str, seed: int) -> str | None:
    """Why results cannot be written to `path`, or None; checked before the first game."""
    kind = store.kind_of(path)
    if kind is None:
        return f"{path}: a results file ends in .duckdb or .parquet"
    if not -2 ** 63 <= seed < 2 ** 63:
        return f"the seed {seed} does not fit a results file (a 64-bit signed number)"
    files = [path] if kind == "duckdb" else [str(f) for f in store.parquet_files(path).values()]
    for f in files:
        why = _unwritable(f)
        if why:
            return why
    try:
        store.prepare(path)
    except store.ResultsError as exc:
        return str(exc)
    return None


def _run_with_bar(S, game, spec, workers, bar, task, started, cluster=None):
    # the pool forks its workers when made: start the bar's refresh thread after (when the games start)
    def begin():
        started()
        bar.start()
    try:
        return S.run(game, spec, workers, lambda k: bar.advance(task, k), begin, cluster=cluster)
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
            return _usage_error(args, str(exc))
        print(f"regles {args.command}: error: {printable(exc)}", file=sys.stderr)
        return 1


def _where_played(args, pool) -> str:
    if pool is not None:
        return (f", on a local Dask cluster" if pool.address == "local" else
                f", on the Dask cluster at {printable(pool.address)}") + f" of {plural(pool.workers(), 'worker')}"
    return f", {args.workers} workers" if args.workers > 1 and args.games > 1 else ""


def cmd_compare(args) -> int:
    got = _setup_game(args)
    if isinstance(got, int):
        return got
    game, players, options = got
    for value, name in ((args.games, "--games"), (args.workers, "--workers"), (args.max_decisions, "--max-decisions")):
        if value < 1:
            return _usage_error(args, f"{name} must be at least 1")
    without = [x.strip() for item in args.without for x in item.split(",") if x.strip()]
    if args.variant is None and not without:
        return _usage_error(args, "--without takes the ids of cards, separated by commas")
    try:
        agents = parse_agents(args.agents, players)
        changed = compare.changed_game(game, without, args.variant)
        changed_options = changed.options({k: options[k] for k in args.named_options})
        if args.powers != "random":
            changed.powers_of(args.powers, players)
    except ValueError as exc:
        return _usage_error(args, str(exc))
    except LoadError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    for path, folder, option in ((args.json, False, "--json"), (args.trace_dir, True, "--trace-dir")):
        why = _unwritable(path, folder) if path else None
        if why:
            return _usage_error(args, f"{option}: {why}")
    base = S.RunSpec(args.game, players, args.seed, args.games, agents, options, False, args.max_decisions,
                     str(Path(args.trace_dir) / "base"), expansions=list(game.chosen.expansions),
                     scenario=game.chosen.scenario, mods=list(game.chosen.mods), powers=args.powers,
                     named=args.named_options, without=list(game.chosen.without))
    other = dataclasses.replace(base, options=changed_options, trace_dir=str(Path(args.trace_dir) / "changed"),
                                mods=list(changed.chosen.mods), without=list(changed.chosen.without))
    change = {"without": list(changed.program.defn.without)} if args.variant is None else {"variant": args.variant}
    pool = _open_cluster(args)
    if isinstance(pool, int):
        return pool
    if not args.quiet:
        print(f"playing {plural(args.games, 'game')} of {printable(game.id)} ({players} players) as it is, then "
              f"{printable(compare.change_text(change))}" + _where_played(args, pool)
              + "; Ctrl-C stops and reports the pairs played", file=sys.stderr, flush=True)
    show_bar = not args.quiet and sys.stderr.isatty()
    runs = []
    try:
        for arm_game, spec in ((game, base), (changed, other)):
            if show_bar:
                bar = Progress(TextColumn("{task.description}", style="bold", markup=False), BarColumn(),
                               MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn(),
                               console=Console(file=sys.stderr), transient=True)
                task = bar.add_task("as is" if spec is base else "changed", total=args.games)
                ran = _run_with_bar(S, arm_game, spec, args.workers, bar, task, lambda: None, pool)
            else:
                ran = S.run(arm_game, spec, args.workers, cluster=pool)
            runs.append(ran)
            if ran.interrupted:
                break
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
    compare.render(summary, Console(file=sys.stdout, highlight=False))
    if args.json:
        try:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump(summary, f, indent=2, ensure_ascii=False)
                f.write("\n")
        except OSError as exc:
            print(f"regles compare: error: cannot write {printable(args.json)}: {exc.strerror or exc}",
                  file=sys.stderr)
            return 1
    if interrupted:
        return 130
    return 1 if summary["errors"]["base"] or summary["errors"]["changed"] else 0


def cmd_play(args) -> int:
    got = _setup_game(args)
    if isinstance(got, int):
        return got
    game, players, options = got
    if not 1 <= args.seat <= players:
        return _usage_error(args, f"--seat is a seat from 1 to {players}, not {args.seat}")
    try:
        bots = parse_agents(args.agents, players - 1, default="greedy") if players > 1 else []
    except ValueError as exc:
        return _usage_error(args, str(exc).replace(f"for {players - 1} players", f"for the {players - 1} other seats"))
    why = _unwritable(args.save) if args.save else None
    if why:  # said now, not after the game
        return _usage_error(args, f"--save: {why}")
    return play_at_terminal(game, players, args.seed, options, bots, seat=args.seat - 1, human=HumanAgent(lang=args.lang),
                            save=args.save, source=args.game, show_all=args.show_all, powers=args.powers)


def _load_only(args):
    """The game named in the arguments, with the expansions, scenario and mods they lay over
    it, or an exit status (1 content errors, 2 no such game, expansion or scenario)."""
    name, expansions = args.game, [x.strip() for item in getattr(args, "expansion", []) for x in item.split(",")
                                   if x.strip()]
    mods = list(getattr(args, "mods", []))
    outer = find_expansion_root(Path(name)) if is_dir(Path(name)) else None
    if outer is not None:  # an expansion folder: its game, with it laid over
        game_root = find_game_root(outer.parent)
        if game_root is None:
            return _usage_error(args, f"{name}: an expansion folder outside its game's folder: "
                                      f"give the game and --with {name}")
        name, mods = str(game_root), mods + [str(outer)]
    try:
        game = load(name, expansions, getattr(args, "scenario", None), mods)
        if getattr(args, "solo", None) is not None:
            game = _solo(game, args)
        return game
    except ValueError as exc:
        return _usage_error(args, str(exc))
    except LoadError as exc:
        diags = exc.report.diagnostics
        if len(diags) == 1 and diags[0].message.startswith("no such game"):
            what = "not a game folder (it has no game.yaml)" if os.path.isdir(args.game) else diags[0].message
            return _usage_error(args, f"{args.game}: {what}")
        print(str(exc), file=sys.stderr)
        return 1


def _solo(game, args):
    """The game with its solo mode laid over it (`--solo LEVEL`): the expansion declaring
    `solo:`; the option it names is set to LEVEL in `_setup_game`."""
    modes = [x for x in available_expansions(game.program.root).values() if x.solo]
    if not modes:
        raise ValueError(f"--solo: {game.title} has no solo mode (no expansion of it declares solo:)")
    laid = [x for x in modes if x.id in game.chosen.expansions]
    if len(laid) != 1 and len(modes) > 1:
        raise ValueError(f"--solo: {game.title} has {len(modes)} solo modes ({', '.join(x.id for x in modes)}): "
                         "name one with --expansion")
    mode = (laid or modes)[0]
    args.solo_option = mode.solo
    if mode.id in game.chosen.expansions:
        return game
    return game.with_layers(list(game.chosen.expansions) + [mode.id], game.chosen.scenario, list(game.chosen.mods))


def cmd_test(args) -> int:
    for f in args.files:
        if not is_file(Path(f)):
            return _usage_error(args, f"{f}: no such rulings file")
    args.mods = list(args.mods) + list(args.files)  # laid over the game as mods: what they hold joins it
    game = _load_only(args)
    if isinstance(game, int):
        return game
    tests = game.program.defn.tests
    mods = [layer.id for layer in game.program.defn.layers if layer.kind == "mod"]
    if args.files:
        files = {Path(f).resolve() for f in args.files}
        tests = [t for t in tests if Path(t.file).resolve() in files]
    elif find_expansion_root(Path(args.game)) is not None and is_dir(Path(args.game)):
        tests = [t for t in tests if t.layer in mods]  # an expansion folder: its own tests
    if args.rule:
        tests = [t for t in tests if any(r in t.rules for r in args.rule)]
    if args.k:
        tests = [t for t in tests if args.k.casefold() in t.name.casefold()]
    if not tests:
        return _usage_error(args, "no rules test matches" if game.program.defn.tests else f"{game.id} has no rules test")
    passed = failed = 0
    for t in tests:
        r = run_test(game, t)
        rules = f" [{', '.join(r.rules)}]" if r.rules else ""
        if r.passed:
            passed += 1
            print(printable(f"ok      {r.name}{rules}"))
        else:
            failed += 1
            print(printable(f"FAILED  {r.name}{rules}  ({r.file}:{r.line})"))
            for line in lines_of(r.message):
                print(f"        {printable(line)}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def cmd_explain(args) -> int:
    game = _load_only(args)
    if isinstance(game, int):
        return game
    card, hint = find_card(game.program.defn, args.card)
    if card is None:
        return _usage_error(args, f"no card '{args.card}' in {game.id}" + (f"; {hint}" if hint else ""))
    print(explain(game, card, args.lang))
    return 0


def cmd_sheets(args) -> int:
    try:
        sheets.library()
    except sheets.MissingLibrary as exc:
        return _usage_error(args, str(exc))
    folder = args.out.endswith(("/", os.sep)) or is_dir(Path(args.out))
    svg_dir = args.svg_dir or (args.out if folder else None)
    for path, is_folder, option in ((args.out, folder, "--out"), (svg_dir, True, "--svg-dir")):
        why = _unwritable(path, is_folder) if path else None
        if why:
            return _usage_error(args, f"{option}: {why}")
    game = _load_only(args)
    if isinstance(game, int):
        return game
    defn = game.program.defn
    if not defn.cards:
        return _usage_error(args, f"{game.id} has no cards")
    players = args.players if args.players is not None else game.max_players
    if not 1 <= players <= max(game.max_players, 1):
        return _usage_error(args, f"--players is a number from 1 to {game.max_players}, not {players}")
    try:
        cards = sheets.select(defn, [x.strip() for item in args.cards for x in item.split(",") if x.strip()],
                              args.set_name)
    except ValueError as exc:
        return _usage_error(args, str(exc))
    faces = F.faces(defn, Prose(defn, game.program.found, args.lang), cards, players)
    if not any(f.copies for f in faces):
        return _usage_error(args, "the cards chosen have no copies to print")
    pdf = os.path.join(args.out, sheets.file_name(game.id, ".pdf")) if folder else args.out
    try:
        if folder:
            Path(args.out).mkdir(parents=True, exist_ok=True)
        pages = sheets.write_pdf(pdf, faces, defn.title)
        drawn = sheets.write_svgs(svg_dir, faces) if svg_dir else 0
    except OSError as exc:
        print(f"regles sheets: error: cannot write {printable(exc.filename or pdf)}: {exc.strerror or exc}",
              file=sys.stderr)
        return 1
    total = sum(f.copies for f in faces)
    print(printable(f"wrote {pdf}: {plural(pages, 'page')}, {plural(total, 'card')} "
                    f"({plural(len(faces), 'different card')})"
                    + (f"; {plural(drawn, 'SVG')} in {svg_dir}" if svg_dir else "")))
    return 0


def cmd_why(args) -> int:
    if not os.path.isfile(args.trace):
        return _usage_error(args, f"no such trace file: {args.trace}")
    try:
        game, state = state_at(args.trace, args.at)
    except TraceError as exc:
        return _usage_error(args, str(exc))
    except IndexError as exc:
        return _usage_error(args, f"--at {args.at}: {exc}")
    except LoadError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    except ValueError as exc:  # an expansion, scenario or mod it names is not there
        print(f"regles why: error: {printable(exc)}", file=sys.stderr)
        return 1
    except GameFault as exc:
        print(f"regles why: the game of the trace fails before event {args.at}: {printable(exc)}", file=sys.stderr)
        return 1
    if args.seat is not None and not 1 <= args.seat <= state.n:
        return _usage_error(args, f"--seat is a seat from 1 to {state.n}, not {args.seat}")
    print(f"at event {args.at}: {why.asked(state)}")
    answer = state.why_not(args.move, None if args.seat is None else args.seat - 1)
    for line in why.render(answer, game.program.sources):
        print(line)
    return 0


def cmd_lsp(args) -> int:
    if args.tcp is not None and not 0 < args.tcp < 65536:
        return _usage_error(args, f"--tcp takes a port from 1 to 65535, not {args.tcp}")
    try:
        lsp_server.serve(args.tcp, args.host)
    except lsp_server.MissingServer as exc:
        return _usage_error(args, str(exc))
    except OSError as exc:  # the port is taken, or the address is not this machine's
        return _usage_error(args, f"cannot listen on {args.host}:{args.tcp}: {exc.strerror or exc}")
    return 0


def cmd_report(args) -> int:
    if not os.path.isfile(args.results):
        return _usage_error(args, f"no such results file: {args.results}")
    if args.top < 1 or args.min_plays < 1:
        return _usage_error(args, f"{'--top' if args.top < 1 else '--min-plays'} must be at least 1")
    out = args.out or str(Path(args.results).with_suffix(".html"))
    why = _unwritable(out)
    if why:
        return _usage_error(args, f"--out: {why}")
    try:
        figures = report_html.write_report(args.results, out, args.run, args.top, args.min_plays)
    except report_html.MissingExtra as exc:
        return _usage_error(args, str(exc))
    except report_html.UnknownRun as exc:
        hint = did_you_mean(exc.run_id, exc.runs)
        return _usage_error(args, f"--run: no run '{exc.run_id}' in {args.results}"
                            + (f"; {hint}" if hint else f"; its runs: {', '.join(map(str, exc.runs))}"))
    except report_html.ResultsError as exc:
        print(f"regles report: error: {printable(args.results)}: {printable(exc)}", file=sys.stderr)
        return 1
    except OSError as exc:
        return _usage_error(args, f"cannot write {out}: {exc.strerror or exc}")
    print(printable(f"wrote {out}: run {figures.run.get('run_id')}, {figures.run.get('game')}, "
                    f"{plural(figures.completed, 'completed game')}"))
    return 0


def cmd_replay(args) -> int:
    if not os.path.isfile(args.trace):
        return _usage_error(args, f"no such trace file: {args.trace}")
    return replay(args.trace, out=printable_stream(sys.stdout), err=printable_stream(sys.stderr))


def cmd_check(args) -> int:
    missing = [p for p in args.paths if not os.path.exists(p)]
    if missing:  # a path that names nothing is a mistake in the command, not in the content
        args.subparser.print_usage(sys.stderr)
        for p in missing:
            print(f"regles check: error: no such file or folder: {printable(p)}", file=sys.stderr)
        return 2
    if args.paths:
        report, header = check.check_paths(args.paths), None
    else:  # the content folder of the clone the user edits, else the shipped games
        root, what = check.default_content(_cwd())
        report = check.check_paths([str(root)])
        header = (f"checking {what} ({plural(len(check.game_folders(root)), 'game')}, "
                  f"{plural(report.files_checked, 'file')})")
    if args.format == "json":
        print(render_json(report))
    else:
        color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
        if header:
            print(printable(header))
        print(render_text(report, color=color))
    failed = not report.ok or (args.strict and report.diagnostics)
    return 1 if failed else 0


def _cwd() -> Path | None:
    try:
        return Path.cwd()
    except OSError:  # the working folder was removed
        return None


def main(argv=None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # usage errors (2), --help and --version (0): a status, not an exception
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    args.argv = list(sys.argv[1:] if argv is None else argv)
    handler = globals()["cmd_" + args.command.replace("-", "_")]
    try:
        return handler(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except RecursionError:
        print("regles: error: the content nests too deeply to be read", file=sys.stderr)
        return 1
    except Exception as exc:  # a fault of regles itself: say so in one line, never a traceback
        print(f"regles: internal error: {type(exc).__name__}: {printable(exc)}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
