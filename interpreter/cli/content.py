"""The commands about content and play: check, test, explain, why, lsp, play, replay."""
from __future__ import annotations

import os
import sys
from pathlib import Path

from .. import LoadError
from ..content.folders import find_expansion_root, is_dir, is_file
from ..content.model import LayerKind
from ..content.source import data_of
from ..diagnostics import lines_of, plural, printable, render_json, render_text
from ..engine.state import GameFault
from ..lsp import server as lsp_server
from ..play import weighing
from ..play.agents import HumanAgent, parse_agents
from ..play.terminal import play_at_terminal
from ..rl import layout
from ..rulings import check
from ..rulings.explain import explain, explain_scenario, find_card, find_scenario
from ..rulings.ruletest import run_test
from ..rulings.trace import TraceError, read_trace, replay, state_at
from ..view import why
from ..view.narrate_words import Said, words_in
from ..view.shown import printable_stream
from .common import cwd_content, load_only, setup_game, unwritable, usage_error


def cmd_play(args) -> int:
    got = setup_game(args)
    if isinstance(got, int):
        return got
    game, players, options = got
    if not 1 <= args.seat <= players:
        return usage_error(args, f"--seat is a seat from 1 to {players}, not {args.seat}")
    try:
        bots = parse_agents(args.agents, players - 1, default="greedy") if players > 1 else []
    except ValueError as exc:
        return usage_error(args, str(exc).replace(f"for {players - 1} players", f"for the {players - 1} other seats"))
    why = unwritable(args.save) if args.save else None
    if why:  # said now, not after the game
        return usage_error(args, f"--save: {why}")
    return play_at_terminal(game, players, args.seed, options, bots, seat=args.seat - 1, human=HumanAgent(lang=args.lang),
                            save=args.save, source=args.game, show_all=args.show_all, powers=args.powers,
                            lang=args.lang)


def cmd_test(args) -> int:
    if is_file(Path(args.game)):  # 'regles test my.yaml GAME', or 'regles test my.yaml'
        games = [f for f in args.files if not is_file(Path(f))]
        args.files = [args.game] + [f for f in args.files if is_file(Path(f))]
        if len(games) > 1:
            return usage_error(args, f"give one game, not {len(games)}: {', '.join(games)}")
        named = games[0] if games else _game_named_in(Path(args.game))
        if named is None:
            return usage_error(args, f"{args.game} names no game ('game: ID'): give the GAME too")
        args.game = named
    for f in args.files:
        if not is_file(Path(f)):
            return usage_error(args, f"{f}: no such rulings file")
    args.mods = list(args.mods) + list(args.files)  # laid over the game as mods: what they hold joins it
    game = load_only(args, tests=True)
    if isinstance(game, int):
        return game
    tests = game.program.defn.tests
    mods = [layer.id for layer in game.program.defn.layers if layer.kind is LayerKind.MOD]
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
        return usage_error(args, "no rules test matches" if game.program.defn.tests else f"{game.id} has no rules test")
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
        if args.verbose:
            for q in r.asked:
                print(printable(f"        asked {q.line()}"))
            if not r.asked:
                print("        no question asked")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def _game_named_in(path: Path) -> str | None:
    """The game a rules-test file names ('game: my-game', or a game folder's path from the
    file), read as the loader reads content; None when it names none or does not read (the
    load that follows, with the GAME given, reports what is wrong with it)."""
    data = data_of(path)
    named = data.get("game") if isinstance(data, dict) else None
    if not isinstance(named, str) or not named:
        return None
    return str(path.parent / named) if "/" in named else named


def cmd_explain(args) -> int:
    game = load_only(args)
    if isinstance(game, int):
        return game
    if args.observation:
        return _explain_observation(args, game)
    if args.card is None:
        return usage_error(args, "give a CARD, or --observation")
    card, hint = find_card(game.program.defn, args.card)
    if card is None:
        sc = _scenario_named(game, args.card)
        if sc is not None:
            print(explain_scenario(*sc, args.lang))
            return 0
        return usage_error(args, f"no card or scenario '{args.card}' in {game.id}" + (f"; {hint}" if hint else ""))
    print(explain(game, card, args.lang))
    return 0


def _scenario_named(game, name: str):
    """(the game with the scenario laid, the scenario) for a scenario id, or for the id or
    title of one of the scenarios the game checks; None when there is none."""
    sc = find_scenario(game.program.defn, name)
    if sc is not None:
        name = sc.id
    try:
        laid = game.with_layers(scenario=name)
    except (ValueError, LoadError):
        return None
    sc = laid.program.defn.scenario
    return (laid, sc) if sc is not None else None


def _explain_observation(args, game) -> int:
    if args.card is not None:
        return usage_error(args, "give a CARD or --observation, not both")
    players = args.players if args.players is not None else game.min_players
    if not game.min_players <= players <= game.max_players:
        return usage_error(args, f"--players: {game.title} is for {game.min_players} to {game.max_players} "
                                 f"players, not {players}")
    try:
        lines = layout.describe(game, players)
    except ImportError as exc:
        return usage_error(args, f"--observation: {exc}")
    for line in lines:
        print(printable(line))
    return 0


def _trace_at(args):
    """(game, state) of the trace of `args.trace` at event `args.at`, or an exit status (2 for
    a trace or event that is not there, 1 for a game that cannot be loaded or fails before)."""
    if not os.path.isfile(args.trace):
        return usage_error(args, f"no such trace file: {args.trace}")
    try:
        return state_at(args.trace, args.at)
    except TraceError as exc:
        return usage_error(args, str(exc))
    except IndexError as exc:
        return usage_error(args, f"--at {args.at}: {exc}")
    except LoadError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    except ValueError as exc:  # an expansion, scenario or mod it names is not there
        print(f"regles {args.command}: error: {printable(exc)}", file=sys.stderr)
        return 1
    except GameFault as exc:
        print(f"regles {args.command}: the game of the trace fails before event {args.at}: {printable(exc)}",
              file=sys.stderr)
        return 1


def cmd_why(args) -> int:
    got = _trace_at(args)
    if isinstance(got, int):
        return got
    game, state = got
    if args.seat is not None and not 1 <= args.seat <= state.n:
        return usage_error(args, f"--seat is a seat from 1 to {state.n}, not {args.seat}")
    lang = getattr(args, "lang", "en")
    seat = None if args.seat is None else args.seat - 1
    told = why.answered(state, args.move, seat, lang)
    print(words_in(lang).w("why_at_event", args.at, Said(told["asked"])))
    for line in why.lines(told):
        print(line)
    return 0


def cmd_why_bot(args) -> int:
    got = _trace_at(args)
    if isinstance(got, int):
        return got
    game, state = got
    header, _ = read_trace(args.trace)  # read and checked already by _trace_at
    if state.is_terminal():
        return usage_error(args, f"--at {args.at}: the game is over there; no bot decides")
    try:
        weighed, traced = weighing.weigh_in_trace(state, header, args.agent)
    except ValueError as exc:
        return usage_error(args, f"--agent: {exc}")
    print(f"at event {args.at}: {weighed.asked}")
    for line in weighed.lines(traced or "none said"):
        print(line)
    return 0


def cmd_lsp(args) -> int:
    if args.tcp is not None and not 0 < args.tcp < 65536:
        return usage_error(args, f"--tcp takes a port from 1 to 65535, not {args.tcp}")
    try:
        lsp_server.serve(args.tcp, args.host)
    except lsp_server.MissingServer as exc:
        return usage_error(args, str(exc))
    except OSError as exc:  # the port is taken, or the address is not this machine's
        return usage_error(args, f"cannot listen on {args.host}:{args.tcp}: {exc.strerror or exc}")
    return 0


def cmd_replay(args) -> int:
    if not os.path.isfile(args.trace):
        return usage_error(args, f"no such trace file: {args.trace}")
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
        root, what = check.default_content(cwd_content())
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
