"""Where the grammar, the schemas and the shipped content live.

In a wheel they are installed inside the package (`interpreter/_data/`); in a
source checkout or an editable install they are the top-level folders beside
the package. Both layouts are looked up, the installed one first.
"""
from __future__ import annotations

import os
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    installed = _PACKAGE / "_data" / name
    if installed.is_dir():
        return installed
    return _PACKAGE.parent / name


def grammar_path() -> Path:
    return data_dir("grammar") / "regles.lark"


def schemas_dir() -> Path:
    return data_dir("schemas")


def content_dir() -> Path:
    return data_dir("content")


def cache_folder() -> str | None:
    """The folder where regles keeps what it builds between processes (the grammar's tables, a
    game's parsed and compiled form), or None for none. It is the engine's own, never content's:
    `$XDG_CACHE_HOME/regles`, else `~/.cache/regles`, made private, and used only when it is the
    user's and no one else may write it. `REGLES_NO_CACHE=1` turns it off."""
    if os.environ.get("REGLES_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "regles")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        info = os.stat(folder)
        if info.st_uid != os.getuid() or info.st_mode & 0o022 or not os.access(folder, os.W_OK):
            return None  # a folder others may write: what it holds is not trusted
    except (OSError, AttributeError):  # no home, a read-only disk, no getuid: build each time
        return None
    return folder
