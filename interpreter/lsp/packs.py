"""The packs open documents belong to, each checked once for all of them.

Every document of a game folder is checked as the same pack (`regles check FILE` checks the
folder around it), so the server keeps one check per pack, not one per document: sixty open
files of one game hold one pack. `pack_of` says which pack a document's check checks, as
`check_paths` finds it; `check_pack` checks it again only when the last check no longer
holds: when a file it read reads otherwise now (an edit, a save of other text, a change on
disk), or when it did not read one of the documents it is asked for (a file new to the pack). `Packs` keeps
the last check of at most MAX_PACKS packs, the least recently used dropped first.
"""
from __future__ import annotations

from collections import OrderedDict
from pathlib import Path

from ..content.folders import (GAME_FILES, display_path, find_expansion_root, find_game_root,
                               is_file)
from ..content.source import MAX_BYTES
from .analysis import Analysis, analyse

MAX_PACKS = 8  # packs kept at once: a game and a few of its expansions, or a few games


def pack_of(path: str) -> tuple[str, str]:
    """The pack a check of file `path` checks: its game folder, the expansion folder around
    it (checked over its game), or, for a file of neither, the file alone with the game it
    names."""
    p = Path(path)
    if p.name in GAME_FILES:
        return "game", str(p.parent)
    outer = find_expansion_root(p)
    if outer is not None:
        return "expansion", str(outer)
    root = find_game_root(p)
    if root is not None:
        return "game", str(root)
    return "file", path


def still_holds(last: Analysis, paths: set, texts: dict) -> bool:
    """Whether a check for documents `paths` would read what `last` read: the documents among
    its files, and each file the same text now (the editor's, for an open document, else the
    disk's)."""
    if not paths <= last.sources.keys():
        return False
    for where, text in last.sources.items():
        now = texts.get(where)
        if now is None:
            now = _on_disk(where)
        if now != text:
            return False
    return True


def _on_disk(path: str) -> str | None:
    """The text a check reads in file `path`, or None where it would not read it whole."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_BYTES + 1)
        if len(raw) > MAX_BYTES:
            return None  # too large: the check reads none of it
        text = raw.decode("utf-8")
    except (OSError, ValueError):  # gone, unreadable, not UTF-8: the check says what it makes of it
        return None
    return text.removeprefix("\ufeff")  # as the loader reads it


def check_pack(paths: set, texts: dict, last: Analysis | None) -> tuple[Analysis, bool]:
    """The check of the pack of documents `paths` with the open documents `texts`, and whether
    it was made now (`last`, the pack's last check, when it still holds)."""
    if last is not None and still_holds(last, paths, texts):
        return last, False
    saved = sorted(p for p in paths if is_file(Path(p)))  # a document never saved is in no pack yet
    return analyse(saved[0] if saved else min(paths), texts), True


class Packs:
    """The last check of each pack, by `pack_of`, the MAX_PACKS used last."""

    def __init__(self, size: int = MAX_PACKS):
        self.size = size
        self.checks: OrderedDict[tuple, Analysis] = OrderedDict()

    def get(self, pack: tuple) -> Analysis | None:
        analysis = self.checks.get(pack)
        if analysis is not None:
            self.checks.move_to_end(pack)
        return analysis

    def put(self, pack: tuple, analysis: Analysis) -> None:
        self.checks[pack] = analysis
        self.checks.move_to_end(pack)
        while len(self.checks) > self.size:
            self.checks.popitem(last=False)

    def drop(self, pack: tuple) -> None:
        self.checks.pop(pack, None)


def shown(pack: tuple) -> str:
    """A pack as a log names it: its folder or file, relative to the working folder when inside it."""
    return display_path(Path(pack[1]))
