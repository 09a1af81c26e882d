"""What the commands of `regles` share: usage errors, the game a command names, writable paths."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from .. import LoadError, load
from ..content.folders import exists, find_expansion_root, find_game_root, is_dir
from ..content.layers import available_expansions, expansions_for
from ..content.pack import remember_text
from ..content.settings import parse_setting
from ..diagnostics import Report, printable, render_text


def usage_error(args, message: str) -> int:
    args.subparser.print_usage(sys.stderr)
    print(f"regles {args.command}: error: {printable(message)}", file=sys.stderr)
    return 2


def unwritable(path: str, folder: bool = False) -> str | None:
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


def setup_game(args):
    """(game, players, options) from the arguments, or an exit status (1 content, 2 usage)."""
    game = load_only(args)
    if isinstance(game, int):
        return game
    players = args.players if args.players is not None else game.min_players
    if not game.min_players <= players <= game.max_players:
        more = expansions_for(game.program.root, players)
        span = f"{game.min_players}" if game.min_players == game.max_players else f"{game.min_players} to {game.max_players}"
        return usage_error(args, f"{game.title} is for {span} players"
                                  + (" in its solo mode" if getattr(args, "solo", None) else "") + ", "
                                  f"not {players}" + (f" (with --expansion {' or '.join(more)}: up to {players})"
                                                      if more and players > game.max_players
                                                      and not getattr(args, "solo", None) else ""))
    given = {}
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            return usage_error(args, f"--option takes KEY=VALUE, not '{item}'")
        given[key.strip()] = value.strip()
    if getattr(args, "solo", None) is not None:
        if args.solo_option in given and given[args.solo_option] != args.solo:
            return usage_error(args, f"--solo {args.solo} and --option {args.solo_option}={given[args.solo_option]} "
                                      "disagree: give one of them")
        given[args.solo_option] = args.solo
    try:
        options = game.options(given)
        powers = seat_powers(args, players)
        if powers == "random":
            if not game.powers():
                raise ValueError(f"--power random: {game.title} has no personal powers"
                                 + ("" if game.program.defn.layers else " (an expansion may bring them)"))
        else:
            game.powers_of(powers, players)
        game.check_players(players)  # the scenario's player counts
    except ValueError as exc:
        return usage_error(args, str(exc))
    args.powers = powers
    args.named_options = list(given)
    return game, players, options


def setup_counted(args):
    """`setup_game`, and --games, --workers and --max-decisions each at least 1."""
    got = setup_game(args)
    if isinstance(got, int):
        return got
    for value, name in ((args.games, "--games"), (args.workers, "--workers"), (args.max_decisions, "--max-decisions")):
        if value < 1:
            return usage_error(args, f"{name} must be at least 1")
    return got


def seat_powers(args, players: int) -> dict | str:
    """--power SEAT=NAME, each given once, as {seat from 1: name}; or "random"."""
    out = {}
    if getattr(args, "power", []) == ["random"] and args.command in ("simulate", "balance", "tune"):
        return "random"
    for item in getattr(args, "power", []):
        seat, sep, name = item.partition("=")
        if not sep or not seat.strip().isdigit() or not name.strip():
            raise ValueError(f"--power takes SEAT=NAME (a seat from 1 to {players}), not '{item}'")
        if int(seat) in out:
            raise ValueError(f"--power: seat {int(seat)} is given two powers")
        out[int(seat)] = name.strip()
    return out


def load_only(args, tests: bool = False):
    """The game named in the arguments, with the expansions, scenario and mods they lay over
    it (and its rules tests, with `tests`), or an exit status (1 content errors, 2 no such
    game, expansion or scenario)."""
    name, expansions = args.game, [x.strip() for item in getattr(args, "expansion", []) for x in item.split(",")
                                   if x.strip()]
    mods = list(getattr(args, "mods", []))
    outer = find_expansion_root(Path(name)) if is_dir(Path(name)) else None
    if outer is not None:  # an expansion folder: its game, with it laid over
        game_root = find_game_root(outer.parent)
        if game_root is None:
            return usage_error(args, f"{name}: an expansion folder outside its game's folder: "
                                      f"give the game and --with {name}")
        name, mods = str(game_root), mods + [str(outer)]
    try:
        settings = [parse_setting(x) for x in getattr(args, "settings", [])]
        game = load(name, expansions, getattr(args, "scenario", None), mods, settings=settings, tests=tests)
        if getattr(args, "solo", None) is not None:
            game = with_solo(game, args)
        if mods:
            warn_of(game.report)  # a modder who only simulates is told what regles check would say
        return game
    except ValueError as exc:
        at = getattr(exc, "position", None)
        if at is None:
            return usage_error(args, str(exc))
        report = Report()  # a name a content file requires: an error of that file, where it is
        report.error(getattr(exc, "code", "E000"), at, str(exc))
        remember_text(report, at.path)
        report.checked.add(at.path)
        print(render_text(report), file=sys.stderr)
        return 1
    except LoadError as exc:
        diags = exc.report.diagnostics
        if len(diags) == 1 and diags[0].message.startswith("no such game"):
            what = "not a game folder (it has no game.yaml)" if os.path.isdir(args.game) else diags[0].message
            return usage_error(args, f"{args.game}: {what}")
        print(str(exc), file=sys.stderr)
        return 1


def warn_of(report: Report) -> None:
    """Print the warnings of a report (cards that never enter play...) on stderr, as check does."""
    warnings = [d for d in report.diagnostics if d.severity == "warning"]
    if warnings:
        print(render_text(Report(warnings, report.sources, report.checked)), file=sys.stderr)


def with_solo(game, args):
    """The game with its solo mode laid over it (`--solo LEVEL`): the expansion declaring
    `solo:`; the option it names is set to LEVEL in `setup_game`."""
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


def cwd_content() -> Path | None:
    try:
        return Path.cwd()
    except OSError:  # the working folder was removed
        return None


def write_json(path: str, data: dict, command: str) -> bool:
    """Write a command's results as JSON to `path`; False (having said why) when it cannot."""
    try:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=2, ensure_ascii=False)
            f.write("\n")
    except OSError as exc:
        print(f"regles {command}: error: cannot write {printable(path)}: {exc.strerror or exc}", file=sys.stderr)
        return False
    return True


def compiling_note(args, game):
    """What says, to a person waiting at a terminal, that the rules of `game` are being compiled
    to C (a first run of them: seconds); None where no one is told (--quiet, a log, a pipe)."""
    if getattr(args, "quiet", False) or not sys.stderr.isatty():
        return None
    return lambda: print(f"compiling the rules of {printable(game.id)} to C for the native backend (once: the "
                         "library is kept)", file=sys.stderr, flush=True)
