"""The C compiler, for what regles builds in C: found, run, and what it built kept.

    cc = compiler()                              # a command (a list), or None: the machine has none
    compile_to(cc, [*flags, "src.c"], path)      # the library at `path`, whole, or CompileError
    prune(folder, "game-", ".so", keep=32)       # the libraries used last kept, the others removed
    module = extension(source, "_name", folder)  # a Python module written in C, built once and loaded

The native backend builds a game's rules (`native/build.py`), the check its YAML reader
(`content/yaml_native.py`) and the parser its loop (`language/native_parse.py`) with it,
each kept in the user's cache folder by a fingerprint of what it was built from.

The compiler is the system's (`$CC`, else `cc`). Where there is none (Windows, a slim
container), the native backend takes the C compiler of Zig that the `ziglang` package ships
(`pip install 'regles[zig]'`): a whole C toolchain in a wheel, clang underneath, so that the
native backend needs nothing but pip. The YAML reader links the system's libyaml, which a
machine without a compiler seldom has headers for: it asks for the system's compiler only.
"""
from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
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


EXTENSION_FLAGS = ["-O2", "-shared", "-fPIC", "-w"]


def extension(source, name: str, folder: str, libraries: tuple = (), packaged: bool = False, keep: int = 4,
              build: bool = True):
    """The Python module `name` written in C in file `source`: built in `folder` by the C
    compiler (Zig's too with `packaged`) with Python's headers and linked with `libraries`, or
    taken from there when it was built already, and loaded; None when it cannot be built or
    loaded here, or (with `build` False) was not built yet. It is named by the fingerprint of
    its source, the compiler and the Python, and the `keep` used last are kept."""
    try:
        with open(source, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return None
    cc = compiler(packaged)
    include = sysconfig.get_paths().get("include")
    if cc is None or not include or not os.path.exists(os.path.join(include, "Python.h")):
        return None
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    flags = [*EXTENSION_FLAGS, *(["-undefined", "dynamic_lookup"] if sys.platform == "darwin" else [])]
    fingerprint = hashlib.sha256("\0".join([text, fingerprinted(cc), " ".join(flags), *libraries, sys.version, suffix])
                                 .encode("utf-8")).hexdigest()[:32]
    path = os.path.join(folder, f"{name}-{fingerprint}{suffix}")
    try:
        if not os.path.exists(path):
            if not build:
                return None
            os.makedirs(folder, mode=0o700, exist_ok=True)
            try:
                compile_to(cc, [*flags, f"-I{include}", str(source), *[f"-l{lib}" for lib in libraries]], path,
                           timeout=120)
            except CompileError:
                return None  # a library's headers missing, most often: the Python path does the work
            prune(folder, name + "-", suffix, keep)
        else:
            touch(path)
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except (OSError, ImportError):
        return None
    return module
