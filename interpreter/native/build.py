"""The native backend's build: a game's C compiled by the system's C compiler, and loaded.

    lib, ffi = build(c_source)        # or NoCompiler(reason)

The library is kept in the user's cache folder by the fingerprint of its source, the
compiler and cffi, so a game is compiled once (about a second), and loaded by later
processes at once; with no cache folder (`REGLES_NO_CACHE=1`) it is built in a temporary
folder. cffi's ABI mode loads it: no Python headers and no setuptools are needed, only a C
compiler (`$CC`, else `cc`). The Python side calls the library once per decision, so the
cost of a call through cffi is small beside the game's work.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
import threading

from ..cbuild import CompileError, compile_to, fingerprinted, prune, touch
from ..cbuild import compiler as find_compiler
from ..resources import cache_folder

CDEF = """
typedef struct {
    int32_t kind, pos;
    int64_t a, b, c, d, e, f;
    int32_t text, nvals;
    int64_t vals;
} rg_event;

typedef struct {
    int32_t on;
    int32_t n, cap;
    rg_event *ev;
    int64_t nvals, capvals;
    int64_t *vals;
} rg_log;

typedef struct {
    int64_t n, cap;
    int64_t *rec;
    int32_t nmv, capmv;
    int32_t *mv;
    int32_t overflow;
} rg_watch;

size_t rg_size(void);
int rg_random_play_watched(void *st, rg_log *lg, uint64_t *seeds, int64_t most, rg_watch *w,
                           const int8_t *picks, int32_t counter, const int32_t *score_slot,
                           const int64_t *score_initial);
void rg_held_by(const void *st, int64_t *out);
void rg_unwatch(rg_watch *w);
int rg_start(void *st, rg_log *lg, int32_t n, uint64_t rng, const int64_t *options, const int64_t *counters,
             const int32_t *zones, const int32_t *teams);
int rg_apply(void *st, rg_log *lg, int32_t index);
int rg_random_play(void *st, rg_log *lg, uint64_t *seeds, int64_t most);
void rg_info(const void *st, int64_t *out);
void rg_layout(int64_t *out);
void rg_counters(const void *st, int64_t *out);
int64_t rg_counter(const void *st, int32_t slot);
void rg_credit(const void *st, int64_t *out);
int32_t rg_failed(const void *st, int64_t *vals);
int rg_seat_label(void *st, int32_t seat, int64_t *out);
void free(void *p);
"""

FLAGS = ["-O2", "-shared", "-fPIC", "-std=gnu99", "-w"]  # GNU C: statement expressions
KEEP = 32  # libraries kept in the cache folder (a few games, each with its layers, a few edits)
_LOCK = threading.Lock()
_LOADED: dict = {}  # fingerprint -> (lib, ffi): a library is loaded once per process


class NoCompiler(Exception):
    """No C compiler could build the game: the Python backend runs it."""


def compiler() -> list | None:
    """The command the native backend compiles with: the system's C compiler, else Zig's from the
    `ziglang` package, else None."""
    return find_compiler(packaged=True)


def build(source: str, say=None):
    """(lib, ffi) of the library of C `source`, built or taken from the cache; `say()` is
    called before a build, which takes seconds."""
    try:
        import cffi
    except ImportError:
        raise NoCompiler("the native backend needs cffi (pip install 'regles[native]')") from None
    cc = compiler()
    if cc is None:
        raise NoCompiler("no C compiler found (set $CC, or pip install 'regles[zig]' for Zig's)")
    fingerprint = hashlib.sha256("\0".join([source, fingerprinted(cc), " ".join(FLAGS), cffi.__version__,
                                            sys.platform])
                                 .encode("utf-8")).hexdigest()[:32]
    with _LOCK:
        if fingerprint in _LOADED:
            return _LOADED[fingerprint]
        folder = cache_folder()
        made = None
        if folder is not None:
            folder = os.path.join(folder, "native")
            os.makedirs(folder, mode=0o700, exist_ok=True)
        else:
            folder = made = tempfile.mkdtemp(prefix="regles-native-")
        path = os.path.join(folder, f"game-{fingerprint}.so")
        if not os.path.exists(path):
            if say is not None:
                say()
            _compile(cc, source, path, folder)
            if made is None:
                prune(folder, "game-", ".so", KEEP)
        else:
            touch(path)
        ffi = cffi.FFI()
        ffi.cdef(CDEF)
        lib = ffi.dlopen(path)
        if made is not None:
            shutil.rmtree(made, ignore_errors=True)  # loaded: the file may go
        _LOADED[fingerprint] = (lib, ffi)
        return lib, ffi


def _compile(cc: list, source: str, path: str, folder: str) -> None:
    with tempfile.NamedTemporaryFile("w", suffix=".c", dir=folder, delete=False, encoding="utf-8") as f:
        f.write(source)
        c_path = f.name
    try:
        compile_to(cc, [*FLAGS, c_path], path)
    except CompileError as exc:
        if exc.refused:
            raise NoCompiler(f"the C compiler refused the game's source: {exc.message}") from None
        raise NoCompiler(f"the C compiler could not run: {exc.message}") from None
    finally:
        try:
            os.unlink(c_path)
        except OSError:
            pass
