"""The YAML reader's native path: large content files read by libyaml and built in C.

    reader = native_reader(setup) # the module, or None (setup: source.NATIVE_SETUP)
    got = reader.read(text.encode("utf-8"), path)   # (value, blocks), or None: read it in Python

A check of a large pack spends a third of its time reading YAML: libyaml composes a tree of
node objects through Python (a call of the resolver and two marks for every value), then
`source._Builder` makes the positioned values of it. `yaml_reader.c` makes the same values
from libyaml's events directly, for files of NATIVE_FROM bytes or more. It builds only what
the Python path builds the same way (texts, mappings with text keys, lists, plain decimal
whole numbers, true/false, null, and an alias as a copy of what its anchor names); for
anything else in a file (a tag, another kind of number, a duplicate key, a file too large
with its aliases expanded, any YAML error) it gives up, and the Python path reads the
whole file, so that every error is said by one reader.

It is compiled once by the system's C compiler, with Python's headers and libyaml's, and
kept in the user's cache folder by the fingerprint of its source, the compiler and the
Python; with no compiler, headers, libyaml or cache folder (`REGLES_NO_CACHE=1`) the Python
path reads every file, as it does every small one. `tests/content/test_yaml_native.py`
compares both paths' values, positions and styles on every shipped file and on mutated
ones.
"""
from __future__ import annotations

import os
import threading
from pathlib import Path

from ..cbuild import extension
from ..resources import cache_folder

# bytes of YAML from which a file is read natively (a file of about 600 cards): a check or a
# load of the shipped games reads none so (their largest file is 64 kB) and compiles nothing
NATIVE_FROM = 128 * 1024
MODULE = "_regles_yaml"
SOURCE = Path(__file__).with_name("yaml_reader.c")
KEEP = 4  # readers kept in the cache folder: one per version of regles and Python in use

_LOCK = threading.Lock()
_FOUND: list = []  # [the module, or None]: looked for once per process


def native_reader(setup: tuple):
    """The native reader, set up with `setup` (what it builds values of: `source.NATIVE_SETUP`),
    or None when it cannot be built or loaded here."""
    if _FOUND:
        return _FOUND[0]
    with _LOCK:
        if not _FOUND:
            folder = cache_folder()
            # with no cache folder it would be built in each process: more than it spares
            _FOUND.append(None if folder is None else build(os.path.join(folder, "yaml"), setup))
    return _FOUND[0]


def build(folder: str, setup: tuple):
    """The reader built in `folder` (or taken from it when it was built there already) and set
    up with `setup`, or None when it cannot be built or loaded here."""
    module = extension(SOURCE, MODULE, folder, libraries=("yaml",), keep=KEEP)
    if module is None:
        return None
    module.setup(*setup)
    return module
