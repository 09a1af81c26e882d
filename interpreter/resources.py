"""Where the grammar, the schemas and the shipped content live.

In a wheel they are installed inside the package (`interpreter/_data/`); in a
source checkout or an editable install they are the top-level folders beside
the package. Both layouts are looked up, the installed one first.
"""
from __future__ import annotations

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
