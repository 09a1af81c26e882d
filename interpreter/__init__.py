"""regles: a rules-as-data interpreter for tabletop games.

The package is laid out as its pipeline, one subpackage per wing:

    content/   stages 1-2: YAML read with positions, JSON Schema, a pack gathered
    language/  stages 3-4: the rules language parsed, names and types checked
    compile/   stage 5: checked trees compiled to Python, once per pack
    engine/    stage 6: values, the state, the machine, the run-time library

and, above the front door, the wings of the tools, one per audience:

    view/      what a seat is told: narration, content shown as text, why not
    rl/        for AI researchers: PettingZoo environments, OpenSpiel states
    rulings/   for modders and rules lawyers: check, rules tests, explain, traces
    play/      for players: agents, the search agent, the terminal, the web table
    runs/      for designers: simulate, compare, cluster, results, reports, profile
    printing/  for designers: card faces laid out, print-and-play sheets
    lsp/       for modders in their editor: the language server
    cli/       the `regles` command, which calls them all

`diagnostics`, `names` and `resources` are shared by every wing. A game's parsed
and compiled form is kept on disk between processes (`compile.warm`). This module is
the front door: `load` reads as the pipeline, one line a stage.
"""
from __future__ import annotations

import gc
from contextlib import nullcontext
from pathlib import Path

from .compile import compile_game
from .compile.kept import KEPT, folders_digest, folders_read
from .compile.warm import CheckedPack, WarmStart
from .content.folders import is_file, shipped_game, shipped_games
from .content.layers import Chosen, leave_out, plan
from .content.model import GameDef
from .content.pack import collector_paused, read_pack
from .content.settings import set_values, settings_of
from .diagnostics import LoadError, Position, Report
from .engine.game import Game, GameState
from .engine.savefile import SaveError
from .engine.state import GameFault
from .language.checker import Findings, check_pack
from .language.texts import parse_pack, shared_parses
from .names import did_you_mean
from .version import __version__

__all__ = ["Game", "GameFault", "GameState", "LoadError", "SaveError", "__version__", "load", "read_and_check"]


def load(name_or_path: str, expansions=(), scenario: str | None = None, mods=(), extra=(), without=(),
         settings=(), tests: bool = False) -> Game:
    """Load, check and compile a game to play it: a shipped game by id, or a game folder; with
    the expansions (by id), the scenario (by id) and the mods (paths of expansion folders, or
    of folders or files of cards) laid over it, the `extra` content files (paths, or sources
    read already) added to it, the cards `without` (ids) left out of it, every copy, with
    the game's rules tests, and cards' attributes set (`settings`: {'CARD.ATTRIBUTE': value},
    see content.settings). ValueError names an unknown expansion, scenario, card or attribute.

    With `tests`, the rules tests of its folders are read, checked and kept too
    (`game.program.defn.tests`, run by `rulings.ruletest.run_test`); without, they are not
    read: nothing in a game depends on them, and they were a third of a first start.
    `regles check` and `regles test` read them."""
    root = _locate(name_or_path)
    chosen = Chosen(tuple(expansions), scenario, tuple(str(m) for m in mods), tuple(without), settings_of(settings),
                    bool(tests))
    kept = KEPT.get(root, chosen) if not extra else None  # compiled already, from the same files
    if kept is not None:
        return Game(*kept, chosen, name_or_path, load)
    # the collector paused for the whole load, as for reading, checking and compiling (see
    # collector_paused): planning the layers reads files too, and a first start collected some
    # twenty times before the pack was read (7% of the largest shipped game's load, with the
    # collection below)
    with collector_paused():
        return _load(root, chosen, name_or_path, extra)


def _load(root: Path, chosen: Chosen, name_or_path: str, extra) -> Game:
    """`load` of a game not kept in memory."""
    scenario = chosen.scenario
    report = Report()
    folders = folders_read(root, chosen)
    before = folders_digest(folders) if not extra else None  # the game's files, before any is read
    warm = WarmStart(enabled=not extra)             # parsed and compiled by an earlier process
    # read and checked by an earlier process, from the same files (which also laid the same
    # expansions: no need to plan them again)
    checked = CheckedPack(root, chosen, enabled=not extra)
    stored = checked.get(before)
    if stored is not None:
        defn, found, report = stored
        warm.open(report.sources)                   # the code objects: the trees are in `defn`
    else:
        layers = plan(root, chosen)                 # which expansions, in which order
        defn, found = read_and_check(root, report, extra, layers, scenario, chosen.without, warm,  # stages 1-4
                                     chosen.settings, chosen.tests)
        if defn is None or not report.ok:
            raise LoadError(report)
        checked.snapshot(defn, found, report)
    with collector_paused(), warm.compiling(), shared_parses(warm.trees):
        program = _compile(defn, found, root, report)   # stage 5: compile
    warm.keep()
    _settle()
    # kept only when the files are those read: a file saved while the load read it must not
    # leave a program or pack that its new bytes would seem to have made
    if before is not None and (stored is not None or folders_digest(folders) == before):
        checked.keep(before)
        KEPT.put(root, chosen, program, report, before)
    return Game(program, report, chosen, name_or_path, load)  # stage 6 runs in the states it makes


# whether the next load freezes its objects: true until the first load of the process has
FREEZE_FIRST_LOAD = True


def _settle() -> None:
    """Put the objects of a load (made with the collector paused: most of them live as long as
    the game) out of the young generations: left young, the collections of the first games
    walk them again and again (measured: 6% of a game's instructions after a warm start).
    The first load of a process freezes them, which no collection walks again (a command
    loads one game: its collection was 10 to 25 ms of a first start, about 50 of a warm one);
    a later load, in a process that loads many (tests, the web table, the language server),
    collects them, so that what its dropped programs held is freed (frozen, it would not be)."""
    global FREEZE_FIRST_LOAD
    if FREEZE_FIRST_LOAD:
        FREEZE_FIRST_LOAD = False
        gc.freeze()
    else:
        gc.collect(1)


def read_and_check(root: Path, report: Report, extra=(), layers=(), scenario: str | None = None, without=(),
                   warm: WarmStart | None = None, settings=(), tests: bool = True
                   ) -> tuple[GameDef | None, Findings | None]:
    """Stages 1 to 4 over the pack in folder `root` (and the files `extra` that name its game),
    with `layers` and `scenario` laid over it, the cards `without` left out and the `settings`
    set; with its rules tests, or (`tests` false) without reading them. Every error goes to
    `report`; returns the definitions and what the checker found.
    `warm`: the trees of an earlier process that read the same files, taken and added to."""
    with collector_paused():
        defn = read_pack(root, report, extra, layers, scenario, tests)  # stages 1-2: read, validated, laid
        if defn is None:
            return None, None
        leave_out(defn, without)
        set_values(defn, settings)  # before the check: a value set is checked as if printed
        if warm is not None:
            warm.open(report.sources)
        with shared_parses(warm.trees) if warm is not None else nullcontext():
            parse_pack(defn, report)             # stage 3: every rules text parsed
            found = check_pack(defn, report)     # stage 4: names, arities and types checked
    return defn, found


def _locate(name_or_path: str) -> Path:
    """The folder of a shipped game (by id) or of a game folder; LoadError when there is none."""
    root = shipped_game(name_or_path)
    if root is not None:
        return root
    if is_file(Path(name_or_path) / "game.yaml"):
        return Path(name_or_path)
    report = Report()
    hint = did_you_mean(name_or_path, shipped_games())
    report.error("F001", Position(str(name_or_path)), "no such game" + (f"; {hint}" if hint else "")
                 + (f" (shipped games: {', '.join(shipped_games())})" if shipped_games() else ""))
    raise LoadError(report)


def _compile(defn: GameDef, found: Findings, root: Path, report: Report):
    try:
        return compile_game(defn, found, root, report.sources)
    except GameFault as exc:
        report.error("C001", exc.pos or Position(str(root)), f"cannot compile: {exc.message}")
        raise LoadError(report) from None
