"""Where content lives on disk: game folders, their YAML files, the shipped games.

Paths come from users: a name no file system accepts (too long, a NUL byte)
is simply not a file, never an exception.
"""
from __future__ import annotations

import os
from pathlib import Path

from ..resources import content_dir

YAML_SUFFIXES = (".yaml", ".yml")
GAME_FILES = ("game.yaml", "game.yml")
EXPANSION_FILES = ("expansion.yaml", "expansion.yml")


def display_path(path: Path) -> str:
    """A path as the user should see it: relative to the working folder when inside it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return str(path)
    return rel if not rel.startswith("..") else str(path)


def yaml_files(root: Path, nested: bool = False) -> list[Path]:
    """The YAML files in folder `root` and its sub-folders, in a stable order. A sub-folder
    holding a pack of its own (a game or an expansion file) is left out, unless `nested`."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".")
                             and (nested or not is_pack_folder(Path(dirpath) / d)))
        for f in sorted(filenames):
            if f.endswith(YAML_SUFFIXES):
                out.append(Path(dirpath) / f)
    return out


def is_game_file(path: Path) -> bool:
    if path.name in ("game.yaml", "game.yml"):
        return True
    return False


def is_pack_folder(folder: Path) -> bool:
    """Whether `folder` holds a pack of its own: a game file or an expansion file."""
    return any(is_file(folder / f) for f in GAME_FILES + EXPANSION_FILES)


def expansion_file(folder: Path) -> Path | None:
    return next((folder / f for f in EXPANSION_FILES if is_file(folder / f)), None)


def find_game_root(start: Path) -> Path | None:
    """The nearest folder at or above `start` holding a game file."""
    here = start if start.is_dir() else start.parent
    for folder in [here, *here.parents]:
        if (folder / "game.yaml").is_file() or (folder / "game.yml").is_file():
            return folder
    return None


def find_expansion_root(start: Path) -> Path | None:
    """The nearest expansion folder at or above `start`, below any game folder, or None."""
    here = start if is_dir(start) else start.parent
    for folder in [here, *here.parents]:
        if expansion_file(folder) is not None:
            return folder
        if any(is_file(folder / g) for g in GAME_FILES):
            return None
    return None


def is_file(path: Path) -> bool:
    """`path.is_file()`, False for a name no file system accepts (too long, a NUL byte...)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except (OSError, ValueError):
        return False


def exists(path: Path) -> bool:
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def shipped_game(name: str) -> Path | None:
    folder = content_dir() / name
    if is_file(folder / "game.yaml"):
        return folder
    return None


def shipped_games() -> list[str]:
    root = content_dir()
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if (p / "game.yaml").is_file())
