"""Compiled programs kept in memory, so that loading unchanged content again costs a hash.

`interpreter.load` reads, checks and compiles a pack: most of a second for a shipped game. A
process that loads the same game many times (a server's tables, a notebook, the test suite)
gets the compiled program back when the folders it was read from hold the same files with the
same bytes, and every other file the first load read is unchanged too. A file added, removed
or edited, anywhere in those folders, means a fresh load.

Each load gets its own shallow copy of the program and of the report: a setting one `Game`
changes (its step budget, its zone limit) is never seen by another. The tables the engine fills
while playing (keys and node lists made once) stay shared: what fills them is the same whatever
game fills them. At most MAX_KEPT programs are kept, the least recently loaded dropped first.
"""
from __future__ import annotations

import copy
import hashlib
import os
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from ..diagnostics import Report

MAX_KEPT = 8


@dataclass
class _Entry:
    read: tuple  # the files read outside the folders, by path
    digest: bytes  # of the folders' files and of `read`, when the program was compiled
    program: object
    report: Report


class Kept:
    """The programs kept, by (working folder, folder of the game as named, what is laid over it)."""

    def __init__(self, size: int = MAX_KEPT):
        self.size = size
        self.enabled = True
        self._entries: OrderedDict = OrderedDict()

    def get(self, root: Path, chosen):
        """(program, report), each a copy of the one kept, or None when nothing is kept for
        this game and choice or its files have changed since."""
        key = _key(root, chosen)
        entry = self._entries.get(key) if self.enabled else None
        if entry is None:
            return None
        if digest(folders_read(root, chosen), entry.read) != entry.digest:
            del self._entries[key]
            return None
        self._entries.move_to_end(key)
        return copy.copy(entry.program), _copied(entry.report)

    def put(self, root: Path, chosen, program, report: Report, folders_known: bytes | None = None) -> None:
        """Keep `program`, compiled from the files `report` read; the caller goes on with its own.
        `folders_known`: the `folders_digest` of the game's and mods' folders as they were read."""
        if not self.enabled:
            return
        folders = folders_read(root, chosen)
        read = read_outside(folders, report)
        key = _key(root, chosen)
        self._entries[key] = _Entry(read, digest(folders, read, folders_known), copy.copy(program), _copied(report))
        self._entries.move_to_end(key)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)

    def clear(self) -> None:
        self._entries.clear()


def _key(root: Path, chosen) -> tuple:
    """The paths as given, and the working folder: a program keeps the paths it was read from
    as they were named (in its root, in the positions it shows), and they mean other files, or
    read otherwise, from another folder."""
    return (os.getcwd(), str(root), chosen)


def folders_read(root: Path, chosen) -> list:
    """The folders and files a load of `root` with `chosen` reads from: the game's folder (its
    expansions and scenarios are inside) and each mod."""
    return [Path(root)] + [Path(m) for m in chosen.mods]


def read_outside(folders: list, report: Report) -> tuple:
    """The files a load read (`report.checked`) outside `folders`, by resolved path."""
    inside = tuple(str(Path(f).resolve()) for f in folders)
    return tuple(sorted(p for p in (str(Path(x).resolve()) for x in report.checked)
                        if not any(p == f or p.startswith(f + os.sep) for f in inside)))


def folders_digest(folders) -> bytes:
    """A hash of every file under `folders`, its path and bytes, in a fixed order (a folder may
    be a single file)."""
    h = hashlib.blake2b(digest_size=20)
    for top in folders:
        top = Path(top)
        paths = [top] if top.is_file() else sorted(p for p in top.rglob("*") if p.is_file())
        for p in paths:
            _add(h, p)
    return h.digest()


def digest(folders, files, known: bytes | None = None) -> bytes:
    """A hash of every file under `folders` (`known`: their `folders_digest`, taken already) and
    of each of `files`; a path that cannot be read counts as missing."""
    h = hashlib.blake2b(digest_size=20)
    h.update(known if known is not None else folders_digest(folders))
    for f in files:
        _add(h, Path(f))
    return h.digest()


def _add(h, path: Path) -> None:
    h.update(str(path).encode("utf-8", "surrogateescape") + b"\0")
    try:
        h.update(path.read_bytes())
    except OSError:
        h.update(b"\1missing")
    h.update(b"\0")


def _copied(report: Report) -> Report:
    return Report(list(report.diagnostics), dict(report.sources), set(report.checked))


KEPT = Kept()
