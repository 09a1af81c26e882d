"""`regles sheets`, `regles report`, `regles tune`, `regles profile` and `regles serve`: print-and-play
sheets, a page of charts from results, a number tuned to a balance target, where a game's time goes
by content line, and a table in the browser."""
from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path

from rich.console import Console

from .. import LoadError
from ..content.folders import is_dir
from ..diagnostics import plural, printable
from ..language.prose import LANGS, Prose
from ..names import did_you_mean
from ..play.agents import parse_agents
from ..play.web import serve as W
from ..printing import faces as F
from ..printing import sheets, tts
from ..runs import profile as P
from ..runs import report_html, statistics
from ..runs import simulate as S
from ..runs import tune as T
from ..view.shown import text
from .common import compiling_note, load_only, setup_counted, setup_game, unwritable, usage_error, write_json


def cmd_sheets(args) -> int:
    if args.out is None and args.tts is None:
        return usage_error(args, "say what to write: --out PDF|FOLDER, --tts DIR, or both")
    if args.tts_url is not None and (args.tts is None or not args.tts_url.startswith(("https://", "http://"))):
        return usage_error(args, "--tts-url takes the http(s) address the images of --tts will be at")
    try:
        sheets.library()
        if args.tts:
            tts.renderer()
    except (sheets.MissingLibrary, tts.MissingRenderer) as exc:
        return usage_error(args, str(exc))
    folder = args.out is not None and (args.out.endswith(("/", os.sep)) or is_dir(Path(args.out)))
    svg_dir = args.svg_dir or (args.out if folder else None)
    for path, is_folder, option in ((args.out, folder, "--out"), (svg_dir, True, "--svg-dir"), (args.tts, True, "--tts")):
        why = unwritable(path, is_folder) if path else None
        if why:
            return usage_error(args, f"{option}: {why}")
    args.settings = [x for x in args.set_name if "=" in x]  # an attribute set, as simulate's --set
    named_sets = [x for x in args.set_name if "=" not in x]
    if len(named_sets) > 1:
        return usage_error(args, f"--set: one set of cards at a time, not {', '.join(named_sets)}")
    game = load_only(args)
    if isinstance(game, int):
        return game
    defn = game.program.defn
    if not defn.cards:
        return usage_error(args, f"{game.id} has no cards")
    players = args.players if args.players is not None else game.max_players
    if not 1 <= players <= max(game.max_players, 1):
        return usage_error(args, f"--players is a number from 1 to {game.max_players}, not {players}")
    try:
        cards = sheets.select(defn, [x.strip() for item in args.cards for x in item.split(",") if x.strip()],
                              named_sets[0] if named_sets else None)
    except ValueError as exc:
        return usage_error(args, str(exc))
    if not 0 <= args.bleed <= sheets.MAX_BLEED:
        return usage_error(args, f"--bleed takes millimetres from 0 to {sheets.MAX_BLEED:g}, not {args.bleed:g}")
    lang = args.lang or (defn.language if defn.language in LANGS else "en")
    notes: list = []
    faces = F.faces(defn, Prose(defn, game.program.found, lang), cards, players, notes)
    if args.once:
        faces = [dataclasses.replace(f, copies=min(f.copies, 1)) for f in faces]
    if not any(f.copies for f in faces):
        return usage_error(args, "the cards chosen have no copies to print")
    pdf = os.path.join(args.out, sheets.file_name(game.id, ".pdf")) if folder else args.out
    pages, drawn, table = 0, 0, None
    try:
        if folder:
            Path(args.out).mkdir(parents=True, exist_ok=True)
        if pdf is not None:
            pages = sheets.write_pdf(pdf, faces, defn.title, backs=args.backs, bleed_mm=args.bleed, notes=notes)
        drawn = sheets.write_svgs(svg_dir, faces) if svg_dir else 0
        if args.tts:
            table = tts.write(args.tts, game.id, defn.title, faces, args.tts_url, notes)
    except OSError as exc:
        print(f"regles sheets: error: cannot write {printable(exc.filename or pdf or args.tts)}: "
              f"{exc.strerror or exc}", file=sys.stderr)
        return 1
    except ValueError as exc:
        return usage_error(args, str(exc))
    for note in dict.fromkeys(notes):
        print(printable(f"regles sheets: {game.id}: {note}"), file=sys.stderr)
    cut = sum(1 for note in dict.fromkeys(notes) if "does not fit" in note)
    total = sum(f.copies for f in faces if not isinstance(f, F.Tile))
    tiles = sum(f.copies for f in faces if isinstance(f, F.Tile))
    if pdf is not None:
        print(printable(f"wrote {pdf}: {plural(pages, 'page')}, {plural(total, 'card')} "
                        f"({plural(sum(1 for f in faces if not isinstance(f, F.Tile)), 'different card')})"
                        + (f", {plural(tiles, 'tile')}" if tiles else "") + f", in '{lang}'"
                        + (f"; {plural(drawn, 'SVG')} in {svg_dir}" if svg_dir else "")))
    if table is not None:
        print(printable(f"wrote {table['object']}: {plural(table['decks'], 'deck')} of {plural(table['cards'], 'card')} "
                        f"on {plural(table['sheets'], 'sheet')} of faces, in '{lang}', for Tabletop Simulator"
                        + (f" ({plural(tiles, 'tile')} left out: tiles are not cards)" if tiles else "")))
    return 1 if args.strict and cut else 0


def cmd_report(args) -> int:
    if not os.path.isfile(args.results):
        return usage_error(args, f"no such results file: {args.results}")
    if args.top < 1 or args.min_plays < 1:
        return usage_error(args, f"{'--top' if args.top < 1 else '--min-plays'} must be at least 1")
    out = args.out or str(Path(args.results).with_suffix(".html"))
    why = unwritable(out)
    if why:
        return usage_error(args, f"--out: {why}")
    try:
        figures = report_html.write_report(args.results, out, args.run, args.top, args.min_plays)
    except report_html.MissingExtra as exc:
        return usage_error(args, str(exc))
    except report_html.UnknownRun as exc:
        hint = did_you_mean(exc.run_id, exc.runs)
        return usage_error(args, f"--run: no run '{exc.run_id}' in {args.results}"
                            + (f"; {hint}" if hint else f"; its runs: {', '.join(map(str, exc.runs))}"))
    except report_html.ResultsError as exc:
        print(f"regles report: error: {printable(args.results)}: {printable(exc)}", file=sys.stderr)
        return 1
    except OSError as exc:
        return usage_error(args, f"cannot write {out}: {exc.strerror or exc}")
    print(printable(f"wrote {out}: run {figures.run.get('run_id')}, {figures.run.get('game')}, "
                    f"{plural(figures.completed, 'completed game')}"))
    return 0


def cmd_tune(args) -> int:
    ranges = [x for x in args.settings if ".." in x.partition("=")[2]]
    if len(ranges) != 1:
        return usage_error(args, "give the value to search as one --set CARD.ATTRIBUTE=LO..HI"
                                 + (f" (found {len(ranges)})" if ranges else ""))
    try:
        card, attribute, low, high = T.parse_range(ranges[0])
    except ValueError as exc:
        return usage_error(args, str(exc))
    args.settings = [x for x in args.settings if x is not ranges[0]]
    got = setup_counted(args)
    if isinstance(got, int):
        return got
    game, players, options = got
    fixed = list(game.chosen.settings)
    try:
        game.with_layers(settings=fixed + [(card, attribute, low)])  # the card and attribute exist
        label = game.program.defn.seat_report[0] if game.program.defn.seat_report else None
        target = T.parse_target(args.target, label)
        if target.aim is T.Aim.POWERS and args.powers != "random":
            raise ValueError("--target: power win rates need --power random (a power per seat, drawn each game)")
        if target.card is not None and target.card not in {c.id for c in game.program.defn.cards}:
            raise ValueError(f"--target: no card '{target.card[:60]}' in {game.id}")
        agents = parse_agents(args.agents, players)
    except ValueError as exc:
        return usage_error(args, str(exc))
    except LoadError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    if target.needs_facts and (why := statistics.missing()):
        return usage_error(args, f"--target: {why}")
    why = unwritable(args.json) if args.json else None
    if why:
        return usage_error(args, f"--json: {why}")
    if not args.quiet:
        print(f"tuning {card}.{attribute} from {low} to {high}: {plural(args.games, 'game')} of "
              f"{printable(game.id)} ({players} players) per value tried; Ctrl-C stops", file=sys.stderr, flush=True)
    errors, stopped = [], False

    def play(value: int):
        nonlocal stopped
        if stopped:
            raise KeyboardInterrupt
        variant = game.with_layers(settings=fixed + [(card, attribute, value)])
        spec = S.RunSpec(args.game, players, args.seed, args.games, agents, options, False, args.max_decisions,
                         "traces", powers=args.powers, named=args.named_options, record=target.needs_facts,
                         **S.laid_of(variant))
        ran = S.run(variant, spec, args.workers, say=compiling_note(args, variant))
        if ran.interrupted:
            stopped = True
            raise KeyboardInterrupt
        errors.extend(r.error for r in ran.results if r.error is not None)
        trial = T.measure(target, ran.results, players, game.program.team_of(players), value, card)
        if not args.quiet:
            print(f"  {attribute} = {value}: {T.figure_text(target, trial)}; "
                  f"{'met' if trial.meets else 'missed'}", file=sys.stderr, flush=True)
        return trial

    try:
        trials, best = T.search(low, high, play)
    except LoadError as exc:  # a value the content cannot hold (a rule's bound): said as content says it
        print(str(exc), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted: no value chosen", file=sys.stderr)
        return 130
    summary = {"game": game.id, "card": card, "attribute": attribute, "low": low, "high": high,
               "target": target.text.strip(), "players": players, "games": args.games, "seed": args.seed,
               "agents": agents, "trials": [t.as_json() for t in trials], "chosen": best.value,
               "meets": best.meets, "surely": best.surely, "errors": len(errors)}
    T.render(summary, target, trials, best, Console(file=sys.stdout, highlight=False))
    if errors:
        print(text(f"{plural(len(errors), 'game')} failed; the first: {errors[0].get('message')}"), file=sys.stderr)
    if args.json and not write_json(args.json, summary, "tune"):
        return 1
    return 0 if best.meets and not errors else 1


def cmd_profile(args) -> int:
    got = setup_game(args)
    if isinstance(got, int):
        return got
    game, players, options = got
    if args.games < 1 or args.top < 1:
        return usage_error(args, f"{'--games' if args.games < 1 else '--top'} must be at least 1")
    if args.powers == "random":
        return usage_error(args, "--power random is for simulate; give SEAT=NAME here")
    try:
        agents = parse_agents(args.agents, players)
    except ValueError as exc:
        return usage_error(args, str(exc))
    why = unwritable(args.json) if args.json else None
    if why:
        return usage_error(args, f"--json: {why}")
    found = P.profile(game, players, options, args.games, args.seed, agents, args.powers or None)
    for line in P.render_text(found, args.top).splitlines():
        print(printable(line))
    if args.json and not write_json(args.json, found.as_json(), "profile"):
        return 1
    return 1 if found.errors else 0


def cmd_serve(args) -> int:
    try:
        W.check_available()
    except W.MissingServer as exc:
        return usage_error(args, str(exc))
    if not 0 < args.port < 65536:
        return usage_error(args, f"--port takes a port from 1 to 65535, not {args.port}")
    if not 0 <= args.bot_delay <= 60:
        return usage_error(args, f"--bot-delay takes seconds from 0 to 60, not {args.bot_delay}")
    why = unwritable(args.data, folder=True)
    if why:
        return usage_error(args, f"--data: {why}")
    if args.mods and args.game is None:
        return usage_error(args, "--with lays a mod over one game: name the game (regles serve GAME --with PATH)")
    if args.game is not None:  # the game is checked now: its errors, not a page's
        args.expansion, args.scenario = [], None
        got = load_only(args)
        if isinstance(got, int):
            return got
    why = W.port_free(args.host, args.port)
    if why:
        return usage_error(args, why)
    W.serve(Path(args.data), args.game, args.mods, args.host, args.port, args.bot_delay,
            allow_hosts=tuple(args.allow_hosts))
    return 0
