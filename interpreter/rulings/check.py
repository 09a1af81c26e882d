"""The checking pipeline behind `regles check`: stages 1 to 4 over paths.

`check_paths` finds the packs among the given paths (game folders, or single
files that belong to a game), runs load, validate, parse and check on each,
and returns one Report with every error of every file.
"""
from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path
from typing import Callable

from .. import read_and_check
from ..content.folders import (EXPANSION_FILES, GAME_FILES, display_path, expansion_file, find_expansion_root,
                               find_game_root, is_dir, is_file, shipped_game, shipped_games, yaml_files)
from ..content.layers import Chosen, mod_layer, plan, read_data
from ..content.pack import PackLoader, collector_paused, remember_text, shared_cards, test_cards
from ..content.source import load_file, shared_loads
from ..language.check_reuse import shared_checks
from ..language.texts import shared_parses
from ..diagnostics import ContentError, Position, Report
from ..names import did_you_mean
from ..resources import content_dir


def _named_game(path: Path, report: Report) -> Path | None:
    """The game a lone file names with 'game:' (a shipped game or a folder)."""
    try:
        src, _ = load_file(display_path(path))
    except ContentError:
        return None
    data = src.data
    name = data.get("game") if isinstance(data, dict) else None
    if not isinstance(name, str):
        return None
    shipped = shipped_game(name)
    if shipped is not None:
        return shipped
    candidate = (path.parent / name)
    if is_file(candidate / "game.yaml"):
        return candidate
    report.sources.setdefault(src.path, src.text)
    report.error("N012", name.pos, f"unknown game '{name}'",
                 did_you_mean(name, shipped_games()) or "name a shipped game or the folder of a game")
    return None


def _is_expansion_file(path: Path) -> bool:
    return (read_data(path) or {}).get("kind") == "expansion"


def _add_expansion(folder: Path, expansions: dict, report: Report) -> None:
    """Expansion `folder` to check with its game: the game folder around it, or the game its
    expansion file names."""
    game = find_game_root(folder.parent)
    if game is None:
        before = len(report.diagnostics)
        game = _named_game(expansion_file(folder), report)
        if game is None and len(report.diagnostics) == before:
            # no game to check it with: the file is read alone, to say why it names none
            PackLoader(report).load(expansion_file(folder))
    if game is not None:
        found = expansions.setdefault(game, [])
        if folder not in found:
            found.append(folder)


def local_content(start: Path) -> Path | None:
    """The 'content' folder of the clone or workspace the user works in: the nearest one at
    `start` or above that holds game folders, or None."""
    for folder in [start, *start.parents]:
        found = folder / "content"
        if is_dir(found) and game_folders(found):
            return found
    return None


def game_folders(root: Path) -> list[Path]:
    """The game folders right inside `root`."""
    try:
        return sorted(p for p in root.iterdir() if is_file(p / "game.yaml") or is_file(p / "game.yml"))
    except OSError:
        return []


def default_content(start: Path | None) -> tuple[Path, str]:
    """What `regles check` checks without a path, and how to say it: the content folder of the
    clone or workspace the user is in (the content they edit), else the shipped games."""
    shipped = content_dir()
    here = local_content(start) if start is not None else None
    if here is not None and here.resolve() != shipped.resolve():
        return here, f"the games in {display_path(here)}"
    return shipped, f"the shipped games in {shipped}"


def _with_test_cards(root: Path, report: Report, extra: list, defn, layers=()) -> None:
    """The rules tests that write cards of their own, each checked in the pack that holds them:
    the cards, and the test's parts that name them."""
    for test in defn.tests if defn is not None else ():
        if test.cards:
            read_and_check(root, report, list(extra) + test_cards(test, defn.id), layers)


def check_paths(paths: list[str], checked: Callable | None = None, again: bool = False) -> Report:
    """Stages 1 to 4 over the packs `paths` name; `checked(defn, findings)` is told of each pack
    checked (the definitions of a pack whose game file does not read are None). `again`: the
    caller checks again in this process, after an edit (a language server): what the checks of
    abilities and rules tests find is kept for the next check (language.check_reuse)."""
    with collector_paused(), shared_parses(kept=True), shared_loads(kept=True), shared_cards():
        return _check_paths(paths, checked or (lambda defn, found: None), again)


def _check_paths(paths: list[str], checked: Callable, again: bool) -> Report:
    report = Report()
    packs: dict[Path, list[Path]] = {}
    expansions: dict[Path, list[Path]] = {}  # expansion folders to check with their game, by game folder
    lone: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if is_dir(p):
            files = yaml_files(p, nested=True)
            outer = find_expansion_root(p)
            folders = sorted({f.parent for f in files if f.name in EXPANSION_FILES} | ({outer} if outer else set()))
            for e in folders:
                _add_expansion(e, expansions, report)
            roots = sorted({f.parent for f in files if f.name in GAME_FILES})
            for r in roots:
                # an inner pack (a game folder inside the folder checked) is its own pack
                packs.setdefault(r, [])
            above = find_game_root(p)
            for f in files:
                if any(r in f.parents or r == f.parent for r in roots + folders):
                    continue  # checked with its pack
                if above is not None:
                    packs.setdefault(above, [])
                elif f not in lone:
                    lone.append(f)  # a file of no game folder: checked with the game it names
        elif is_file(p):
            if p.name in GAME_FILES:
                packs.setdefault(p.parent, [])
                continue
            outer = find_expansion_root(p)
            if outer is not None:
                _add_expansion(outer, expansions, report)
                continue
            root = find_game_root(p)
            if root is not None:
                packs.setdefault(root, [])
            else:
                lone.append(p)
        else:
            report.error("F001", Position(raw), "no such file or folder")
    orphans: list[tuple[Path, int]] = []
    for f in lone:
        before = len(report.errors)
        game_root = _named_game(f, report)
        if game_root is not None and _is_expansion_file(f):  # a lone expansion file: laid over its game
            if f not in expansions.setdefault(game_root, []):
                expansions[game_root].append(f)
        elif game_root is not None:
            # the files naming one game are checked together, with it, once
            extra = packs.setdefault(game_root, [])
            if f not in extra:
                extra.append(f)
        else:
            orphans.append((f, len(report.errors) - before))
    groups = []
    for root, folders in expansions.items():
        # the expansions of one game together, over it: what they do to each other is checked too;
        # a solo mode, which sets who plays, apart from the others
        modes = [e for e in folders if is_dir(e) and mod_layer(e).solo]
        rest = [e for e in folders if e not in modes]
        groups += ([(root, rest)] if rest else []) + [(root, [m]) for m in modes]
    # a card's ability or rules test checked in one pack is not checked again in the next, nor in
    # the next check in this process (`again`) where what it reads is alike (language.check_reuse).
    # Noting what each check reads costs about a tenth of it: it is done where another pack or
    # another check takes it again (a rules test with cards of its own is checked in a pack of its
    # own, with the game's cards)
    several = len(packs) + len(groups) > 1 or any(is_dir(root / "tests") for root in packs)
    with shared_checks(kept=again) if several or again else nullcontext():
        for root, extra in packs.items():
            defn, found = read_and_check(root, report, extra)
            checked(defn, found)
            _with_test_cards(root, report, extra, defn)
        for root, folders in groups:
            inside = all(root in e.parents and is_dir(e) for e in folders)
            chosen = Chosen(expansions=tuple(mod_layer(e).id for e in folders)) if inside else \
                Chosen(mods=tuple(str(e) for e in folders))
            try:
                layers = plan(root, chosen)
            except ValueError as exc:
                f = expansion_file(folders[0])
                at = getattr(exc, "position", None)  # a name a file requires: where it is written
                report.error(getattr(exc, "code", "E000"), at or Position(display_path(f) if f else str(folders[0])),
                             str(exc))
                if at is not None and at.path not in report.sources:
                    remember_text(report, at.path)
                continue
            extra = packs.get(root, [])
            defn, found = read_and_check(root, report, extra, layers)
            checked(defn, found)
            _with_test_cards(root, report, extra, defn, layers)
    report.diagnostics = list(dict.fromkeys(report.diagnostics))  # said once, though checked twice
    for f, found in orphans:
        before = len(report.errors)
        loader = PackLoader(report)
        src = loader.load(f)
        if src is not None and src.data.get("kind") not in ("game",) and not found and len(report.errors) == before:
            # said only of a file that is otherwise sound: its own errors come first
            report.error("N012", src.data.pos, "this file belongs to no game",
                         "put it in a game folder, or name its game with 'game: NAME'")
    return report
