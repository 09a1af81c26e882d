"""The C compiler, for what regles builds in C: found, run, and what it built kept.

    cc = compiler()                              # a command (a list), or None: the machine has none
    compile_to(cc, [*flags, "src.c"], path)      # the library at `path`, whole, or CompileError
    prune(folder, "game-", ".so", keep=32)       # the libraries used last kept, the others removed

The native backend builds a game's rules (`native/build.py`) and the check its YAML reader
(`content/yaml_native.py`) with it, each kept in the user's cache folder by a fingerprint of
what it was built from.

The compiler is the system's (`$CC`, else `cc`). Where there is none (Windows, a slim
container), the native backend takes the C compiler of Zig that the `ziglang` package ships
(`pip install 'regles[zig]'`): a whole C toolchain in a wheel, clang underneath, so that the
native backend needs nothing but pip. The YAML reader links the system's libyaml, which a
machine without a compiler seldom has headers for: it asks for the system's compiler only.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from importlib import metadata, util


class CompileError(Exception):
    """The compiler refused the source (`refused`, with what it said), or could not run."""

    def __init__(self, message: str, refused: bool):
        super().__init__(message)
        self.message = message
        self.refused = refused


def compiler(packaged: bool = False) -> list | None:
    """The C compiler as a command: the system's (`$CC`, else `cc`); with `packaged`, else Zig's
    from the `ziglang` package; None when there is none."""
    found = shutil.which(os.environ.get("CC") or "cc")
    if found is not None:
        return [found]
    if packaged and util.find_spec("ziglang") is not None:
        return [sys.executable, "-m", "ziglang", "cc"]
    return None


def named(cc: list) -> str:
    """What a compiler is called in a report: `cc`, `gcc`, or `zig cc` (from the ziglang package)."""
    return "zig cc" if cc[1:] == ["-m", "ziglang", "cc"] else os.path.basename(cc[0])


def fingerprinted(cc: list) -> str:
    """The compiler as a library's fingerprint names it: its command, and the version of Zig's
    package (a new Zig builds anew)."""
    if named(cc) == "zig cc":
        try:
            return " ".join(cc[1:]) + " " + metadata.version("ziglang")
        except metadata.PackageNotFoundError:
            return " ".join(cc[1:])
    return cc[0]


def compile_to(cc: list, args: list, path: str, timeout: float = 300) -> None:
    """Run `cc args -o path`: the file at `path` is whole or not there, since another process
    may load it at once (it is built under another name, then renamed)."""
    partial = path + f".{os.getpid()}.part"
    try:
        done = subprocess.run([*cc, *args, "-o", partial], capture_output=True, text=True, timeout=timeout)
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
