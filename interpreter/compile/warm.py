"""A game's parsed texts and compiled code kept on disk between processes: a warm start.

Loading a game reads its files, parses every rules text, checks the pack and compiles it.
Parsing and Python's `compile()` of the generated source are most of that work, and give
the same result for the same input every time; so `load` keeps them, after a load, in the
user's cache folder (`resources.cache_folder`), and the next process that loads the same
files takes them from there:

- the trees of the rules texts, by the exact text, grammar rule, place and YAML style
  (`language.texts.parse_text`'s key), in a file named by the engine, the Python and the
  text of every content file read: a content edit, however small, names another file;
- the code objects of the generated source, by the exact source, name and mode.

Reading, checking and the rest of compiling run as ever, so every diagnostic is the same,
and a tree or code object is used only for the very input it was made from. A file that
does not read (another Python, a partial write, anything) is ignored and written anew.
The files are the engine's own, never content's: in a folder only the user may write, as
the grammar's tables are. At most KEEP files are kept, the least recently written removed
first. `REGLES_NO_CACHE=1` turns it off.
"""
from __future__ import annotations

import hashlib
import marshal
import os
import pickle
import sys
import tempfile
from contextlib import contextmanager

from ..diagnostics import ContentError
from ..engine.fingerprint import engine_fingerprint
from ..resources import cache_folder

KEEP = 32  # files kept in the cache folder (a few games, each with its layers, a few edits)
_PREFIX = "warm-"

_CODES: dict | None = None  # during a load: (mode, name, source) -> code object, known or made


def compiled(source: str, name: str, mode: str):
    """Python's `compile(source, name, mode)`, taken from the warm store during a load."""
    codes = _CODES
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
        self.trees: dict = {}  # language.texts' key -> tree
        self.codes: dict = {}  # (mode, name, source) -> code object
        self._known = (0, 0)  # how many of each the file held

    def open(self, sources: dict) -> None:
        """Find the file of the content files read (path -> text) and take what it holds."""
        folder = cache_folder() if self.enabled else None
        if folder is None:
            return
        h = hashlib.sha256(f"{engine_fingerprint()}\n{sys.version}\n".encode())
        for path in sorted(sources, key=str):
            text = sources[path]
            h.update(f"{path}\n{len(text)}\n".encode("utf-8", "surrogatepass"))
            h.update(str(text).encode("utf-8", "surrogatepass"))
        self.path = os.path.join(folder, f"{_PREFIX}{h.hexdigest()[:32]}.pickle")
        try:
            with open(self.path, "rb") as f:
                data = pickle.load(f)  # noqa: S301 - the engine's own file, in a folder only the user writes
            trees, codes = data["trees"], marshal.loads(data["codes"])
            if not isinstance(trees, dict) or not isinstance(codes, dict):
                return
        except Exception:  # none yet, or one that does not read: made again
            return
        self.trees, self.codes = trees, codes
        self._known = (len(trees), len(codes))

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
        """Write what this load made, when it made anything new."""
        if self.path is None or self._known == (len(self.trees), len(self.codes)):
            return
        trees = {k: v for k, v in self.trees.items() if not isinstance(v, ContentError)}
        try:
            data = pickle.dumps({"trees": trees, "codes": marshal.dumps(self.codes)}, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # a tree that does not pickle: nothing kept, nothing lost
            return
        folder = os.path.dirname(self.path)
        try:
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=folder)
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, self.path)  # whole or not at all, whoever reads it meanwhile
            _prune(folder)
        except OSError:
            pass


def _prune(folder: str) -> None:
    """Remove the least recently written files past KEEP."""
    try:
        files = [e for e in os.scandir(folder) if e.name.startswith(_PREFIX) and e.is_file()]
        files.sort(key=lambda e: e.stat().st_mtime, reverse=True)
        for e in files[KEEP:]:
            os.unlink(e.path)
    except OSError:
        pass
