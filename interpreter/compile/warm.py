"""A game's parsed texts and compiled code kept on disk between processes: a warm start.

Loading a game reads its files, parses every rules text, checks the pack and compiles it.
Parsing and Python's `compile()` of the generated source are most of that work, and give
the same result for the same input every time; so `load` keeps them, after a load, in the
user's cache folder (`resources.cache_folder`), and the next process that loads the same
files takes them from there:

- the trees of the rules texts, by the exact text, grammar rule, place and YAML style
  (`language.texts.parse_text`'s key), in a file named by the engine, the Python and the
  text of every content file read: a content edit, however small, names another file;
- the code objects of the generated source, by the exact source, name and mode. A code is
  compiled when it first runs (`assemble`), most of them after the load: those compiled
  later are added to the file when the process ends (`CodeStore`).

- the checked pack (`CheckedPack`): the definitions, the checker's findings and the report of
  reading and checking it (stages 1 to 4), by the engine, the Python, the working folder, the
  game's folder and what is laid over it; used only when every file under the game's and the
  mods' folders, and every other file the load read, has the bytes it had (`kept.digest`, as
  the programs kept in memory are checked). A warm start then reads, parses and checks
  nothing, and compiles from the stored form, with the stored code objects.

Reading, checking and the rest of compiling run as ever when the pack is not stored, so every
diagnostic is the same, and a tree, code object or checked pack is used only for the very
input it was made from. A file that does not read (another Python, a partial write,
anything) is ignored and written anew.
The files are the engine's own, never content's: in a folder only the user may write, as
the grammar's tables are. At most KEEP files are kept, the least recently written removed
first. `REGLES_NO_CACHE=1` turns it off.
"""
from __future__ import annotations

import atexit
import hashlib
import marshal
import os
import pickle
import sys
import tempfile
import weakref
from contextlib import contextmanager

from ..content.pack import collector_paused
from ..content.source import edited_texts_given
from ..diagnostics import ContentError
from ..engine.fingerprint import engine_fingerprint
from ..resources import cache_folder
from .kept import digest, folders_read, read_outside

KEEP = 32  # files kept in the cache folder (a few games, each with its layers, a few edits)
_PREFIX = "warm-"
_CHECKED = "checked-"  # the prefix of the files of checked packs

_CODES: CodeStore | None = None  # during a load: (mode, name, source) -> code object, known or made
_UNSET = object()


class CodeStore(dict):
    """(mode, name, source) -> code object: the code objects of one load's warm store, and of
    the codes compiled after it (`assemble` compiles a code when it first runs). Those made
    after the store's file was written are added to it when the process ends."""

    def __init__(self, codes=(), path=None):
        super().__init__(codes)
        self.path = path  # the store's file, or None: kept in memory only
        self.written = len(self)  # how many the file holds

    def write(self, trees: bytes, others: dict | None = None) -> None:
        """Write the file: the `trees` (their stored form) and every code object made so far,
        with `others` (those the file holds that this store does not: another load's)."""
        if self.path is None:
            return
        codes = {**(others or {}), **self}
        data = pickle.dumps({"trees": trees, "codes": marshal.dumps(codes)}, protocol=pickle.HIGHEST_PROTOCOL)
        _write(self.path, data, _PREFIX)
        self.written = len(self)
        _GROWING[id(self)] = self

    def write_added(self) -> None:
        """Add to the file the code objects made since it was written, keeping its trees and
        the code objects it holds (another load of the same files may have written some)."""
        if self.path is None or len(self) <= self.written:
            return
        found = _read_store(self.path)
        if found is None:  # gone, or not readable: the next load makes it again
            return
        try:
            self.write(*found)
        except Exception:  # a code object that does not marshal: nothing kept, nothing lost
            return


def _read_store(path: str) -> tuple | None:
    """(trees in their stored form, code objects) of the store's file at `path`, or None when
    there is none or it does not read (another Python, a partial write, anything)."""
    try:
        with open(path, "rb") as f:
            data = pickle.load(f)  # noqa: S301 - the engine's own file, in a folder only the user writes
        trees, codes = data["trees"], marshal.loads(data["codes"])
    except Exception:
        return None
    if not isinstance(trees, bytes) or not isinstance(codes, dict):
        return None
    return trees, codes


# the stores written, whose programs may compile more (by id: a dict is not hashable)
_GROWING: weakref.WeakValueDictionary = weakref.WeakValueDictionary()


@atexit.register
def _write_added() -> None:
    for store in list(_GROWING.values()):
        store.write_added()


def code_store() -> CodeStore | None:
    """The store that `compiled` goes through now (the load's), for code compiled later."""
    return _CODES


def compiled(source: str, name: str, mode: str, store=_UNSET):
    """Python's `compile(source, name, mode)`, taken from `store` (by default, the store of
    the load running, if any) and added to it."""
    codes = _CODES if store is _UNSET else store
    if codes is None:
        return compile(source, name, mode)
    key = (mode, name, source)
    code = codes.get(key)
    if code is None:
        code = codes[key] = compile(source, name, mode)
    return code


class WarmStart:
    """The store of one load: `open` it once the files are read, then parse and compile
    within `compiling()`, and `keep()` what was made when the load succeeds. A store made
    with `enabled` false (a load with files of its own beside the game's) reads and writes
    nothing, and only shares its trees within the load."""

    def __init__(self, enabled: bool = True):
        self.enabled = enabled
        self.path = None
        self.trees = _LazyTrees(None)  # language.texts' key -> tree
        self.codes = CodeStore()  # (mode, name, source) -> code object

    def open(self, sources: dict) -> None:
        """Find the file of the content files read (path -> text) and take what it holds: its
        code objects, and its trees, read when one is first looked for (`_LazyTrees`)."""
        folder = cache_folder() if self.enabled else None
        if folder is None:
            return
        h = hashlib.sha256(f"{engine_fingerprint()}\n{sys.version}\n".encode())
        for path in sorted(sources, key=str):
            text = sources[path]
            h.update(f"{path}\n{len(text)}\n".encode("utf-8", "surrogatepass"))
            h.update(str(text).encode("utf-8", "surrogatepass"))
        self.path = os.path.join(folder, f"{_PREFIX}{h.hexdigest()[:32]}.pickle")
        found = _read_store(self.path)
        if found is None:  # none yet, or one that does not read: made again
            return
        stored, codes = found
        self.trees, self.codes = _LazyTrees(stored), CodeStore(codes, self.path)

    @contextmanager
    def compiling(self):
        """Within the block, `compiled` goes through this store."""
        global _CODES
        outer, _CODES = _CODES, self.codes
        try:
            yield self
        finally:
            _CODES = outer

    def keep(self) -> None:
        """Write what this load made, when it made anything new; the code objects compiled
        later are added when the process ends."""
        trees = self.trees
        if self.path is None:
            return
        self.codes.path = self.path
        if not trees.added() and len(self.codes) == self.codes.written:
            _GROWING[id(self.codes)] = self.codes
            return
        try:
            if not trees.loaded:
                stored = trees.stored  # never read: written back as they were
            else:
                stored = pickle.dumps({k: v for k, v in trees.items() if not isinstance(v, ContentError)},
                                      protocol=pickle.HIGHEST_PROTOCOL)
            self.codes.write(stored)
        except Exception:  # a tree that does not pickle: nothing kept, nothing lost
            return


class _LazyTrees(dict):
    """The trees of a warm store, read from their stored form (`stored`, None: no store) the first
    time one is looked for: a load whose pack was checked already (`CheckedPack`) has its trees
    in the pack, and mostly looks for none."""

    def __init__(self, stored: bytes | None):
        super().__init__()
        self.stored = stored
        self.loaded = stored is None
        self.stored_count = 0  # how many the stored form holds, once read

    def load(self) -> None:
        if not self.loaded:
            self.loaded = True
            try:
                with collector_paused():
                    found = pickle.loads(self.stored)  # noqa: S301 - the engine's own file, in a folder only the user writes
            except Exception:  # trees that do not read (another version, a damaged file): parsed again
                found = None
            if not isinstance(found, dict):
                return
            for k, v in found.items():
                dict.setdefault(self, k, v)
            self.stored_count = len(found)

    def added(self) -> bool:
        """Whether trees were made that the store did not hold."""
        return self.loaded and len(self) > self.stored_count

    def __contains__(self, key):
        self.load()
        return dict.__contains__(self, key)

    def __getitem__(self, key):
        self.load()
        return dict.__getitem__(self, key)

    def get(self, key, default=None):
        self.load()
        return dict.get(self, key, default)


class CheckedPack:
    """The checked pack of one load of `root` with `chosen` (see the module's docstring): `get`
    it before reading; else `snapshot` what reading and checking gave, before compiling (which
    may add to it), and `keep` it once compiled, when the files are still those read. A store
    made with `enabled` false (a load with files of its own beside the game's), or while
    editors' texts stand for files (the language server), reads and writes nothing."""

    def __init__(self, root, chosen, enabled: bool = True):
        self.folders = folders_read(root, chosen)
        self.path = None
        self._made = None
        folder = cache_folder() if enabled and not edited_texts_given() else None
        if folder is not None:
            h = hashlib.sha256(f"{engine_fingerprint()}\n{sys.version}\n{os.getcwd()}\n{root}\n{chosen!r}".encode(
                "utf-8", "surrogatepass"))
            self.path = os.path.join(folder, f"{_CHECKED}{h.hexdigest()[:32]}.pickle")

    def get(self, folders_known: bytes):
        """(definitions, findings, report) stored for these files, or None. `folders_known`: the
        `kept.folders_digest` of the game's and mods' folders now."""
        if self.path is None:
            return None
        try:
            with open(self.path, "rb") as f:
                stored = pickle.load(f)  # noqa: S301 - the engine's own file, in a folder only the user writes
            if digest(self.folders, stored["read"], folders_known) != stored["digest"]:
                return None  # a file changed, came or went since
            with collector_paused():  # many small objects, none of them garbage
                defn, found, report = pickle.loads(stored["pack"])  # noqa: S301 - as above
        except Exception:  # none yet, or one that does not read: read and checked anew
            return None
        return defn, found, report

    def snapshot(self, defn, found, report) -> None:
        """What reading and checking gave, as it is before compiling."""
        if self.path is None:
            return
        try:
            self._made = (pickle.dumps((defn, found, report), protocol=pickle.HIGHEST_PROTOCOL), report)
        except Exception:  # a value of content that does not pickle: nothing kept, nothing lost
            return

    def keep(self, folders_known: bytes) -> None:
        """Write the snapshot, `folders_known` being the digest of the folders as they were read."""
        if self.path is not None and self._made is not None:
            pack, report = self._made
            read = read_outside(self.folders, report)
            made = {"read": read, "digest": digest(self.folders, read, folders_known), "pack": pack}
            _write(self.path, pickle.dumps(made, protocol=pickle.HIGHEST_PROTOCOL), _CHECKED)


def _write(path: str, data: bytes, prefix: str) -> None:
    """Write `data` to `path` whole or not at all, and prune the files of `prefix`."""
    folder = os.path.dirname(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=folder)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)  # whole or not at all, whoever reads it meanwhile
        _prune(folder, prefix)
    except OSError:
        pass


def _prune(folder: str, prefix: str) -> None:
    """Remove the least recently written files of `prefix` past KEEP."""
    try:
        files = [e for e in os.scandir(folder) if e.name.startswith(prefix) and e.is_file()]
        files.sort(key=lambda e: e.stat().st_mtime, reverse=True)
        for e in files[KEEP:]:
            os.unlink(e.path)
    except OSError:
        pass
