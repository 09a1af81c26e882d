"""The system's C compiler, for what regles builds in C: found, run, and what it built kept.

    cc = compiler()                              # or None: the machine has none
    compile_to(cc, [*flags, "src.c"], path)      # the library at `path`, whole, or CompileError
    prune(folder, "game-", ".so", keep=32)       # the libraries used last kept, the others removed

The native backend builds a game's rules (`native/build.py`) and the check its YAML reader
(`content/yaml_native.py`) with it, each kept in the user's cache folder by a fingerprint of
what it was built from.
"""
from __future__ import annotations

import os
import shutil
import subprocess


class CompileError(Exception):
    """The compiler refused the source (`refused`, with what it said), or could not run."""

    def __init__(self, message: str, refused: bool):
        super().__init__(message)
        self.message = message
        self.refused = refused


def compiler() -> str | None:
    """The C compiler (`$CC`, else `cc`), or None when the machine has none."""
    return shutil.which(os.environ.get("CC") or "cc")


def compile_to(cc: str, args: list, path: str, timeout: float = 300) -> None:
    """Run `cc args -o path`: the file at `path` is whole or not there, since another process
    may load it at once (it is built under another name, then renamed)."""
    partial = path + f".{os.getpid()}.part"
    try:
        done = subprocess.run([cc, *args, "-o", partial], capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0:
            raise CompileError(done.stderr.strip()[:2000], refused=True)
        os.replace(partial, path)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise CompileError(str(exc), refused=False) from None
    finally:
        try:
            os.unlink(partial)
        except OSError:
            pass


def prune(folder: str, prefix: str, suffix: str, keep: int) -> None:
    """Keep the `keep` files of `folder` named `prefix...suffix` used last (`touch`); a process
    that loaded one removed keeps it (a file being built has another suffix)."""
    try:
        found = [os.path.join(folder, f) for f in os.listdir(folder) if f.startswith(prefix) and f.endswith(suffix)]
        found.sort(key=os.path.getmtime, reverse=True)
        for old in found[keep:]:
            os.unlink(old)
    except OSError:
        pass  # another process pruned it first, or the folder went: nothing to keep tidy


def touch(path: str) -> None:
    """Mark a built file as used now, so that pruning keeps it."""
    try:
        os.utime(path)
    except OSError:
        pass
