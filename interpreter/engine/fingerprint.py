"""The fingerprint of a game: what a saved state or a trace must have been made under.

    fingerprint(program)  ->  {"content": "3f2a...", "engine": "9c41..."}

`content` is a SHA-256 of the game as it was read and checked: every
definition of its `GameDef` (cards in order with their attributes, zones,
counters, options, procedures, keywords, boards, scenarios, data...) with the
rules texts and their parsed trees, and the place of each (file relative to
the game's folder, line, column). Left out, because they cannot change what
happens in a game: comments and the layout of the YAML text, when no line of
what the game reads moves; the folder the game lies in; the game's rules tests
(`kind: rules-test` files); a card's `authored` note.

Positions are kept on purpose: every event of a trace names the line that
caused it, so a change that moves a line of the rules changes the game's
trace. With positions in, one fingerprint means one behaviour, to the event.

`engine` is a SHA-256 of the source of regles' own modules that read, check,
compile and run a game (every module of the package but those of the tools'
wings, `TOOL_WINGS`; the version of the saved form among them) and of its grammar. A saved state
resumes inside compiled code, which means nothing under another compiler.
An installed copy without its sources is told apart by its version number.

Each fingerprint is computed once per program (and the engine's once per
process), on first need: playing never pays for it.
"""
from __future__ import annotations

import dataclasses
import enum
import hashlib
import weakref
from pathlib import Path

from ..diagnostics import Position
from ..resources import grammar_path
from ..version import __version__

# Fields of the definitions that cannot change what happens in a game: the
# places of names (kept on each definition's `pos` already), the game's rules
# tests, notes for people (`authored`, and the printed set a card's file names), and the game's
# layout hints for the table in the browser (`table`).
# The folder of a layer (`LayerDef.root`) is written as the command was given it, relative to
# where it ran: the layer is known by its id and the place of its file (`pos`) instead.
SKIPPED_FIELDS = frozenset({"file", "key_pos", "params_pos", "players_pos", "attribute_name_pos", "tests",
                            "authored", "root", "set", "table"})

_PACKAGE = Path(__file__).resolve().parent.parent
# The wings of the tools, which run games but never change what happens in one (`rl` is counted in).
TOOL_WINGS = frozenset({"cli", "lsp", "play", "printing", "rulings", "runs", "view"})
_CACHE: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_ENGINE: list = []


def fingerprint(program) -> dict:
    """{"content": ..., "engine": ...}: the fingerprints of `program`'s game and of this regles."""
    got = _CACHE.get(program)
    if got is None:
        got = _CACHE[program] = {"content": program.content_fingerprint(),
                                 "engine": engine_fingerprint()}
    return got


def engine_fingerprint() -> str:
    """The fingerprint of the modules that read, check, compile and run games, and of the grammar."""
    if not _ENGINE:
        # the package's own version, not its installed metadata's: importlib.metadata (with the
        # email package) was 15 ms of every first start
        h = hashlib.sha256(f"regles {__version__}\n".encode())
        files = sorted(p for p in _PACKAGE.rglob("*.py") if p.relative_to(_PACKAGE).parts[0] not in TOOL_WINGS)
        files.append(grammar_path())
        for p in files:
            try:
                data = p.read_bytes()
            except OSError:
                data = b""  # (the grammar, in an unusual install): counted as empty
            name = p.relative_to(_PACKAGE).as_posix() if p.is_relative_to(_PACKAGE) else p.name
            h.update(f"{name}\n{len(data)}\n".encode())
            h.update(data)
        _ENGINE.append(h.hexdigest())
    return _ENGINE[0]


def content_fingerprint(defn, root=None) -> str:
    """The fingerprint of game definition `defn` (read from folder `root`)."""
    return hashlib.sha256("\x1f".join(tokens(defn, root)).encode("utf-8", "surrogatepass")).hexdigest()


def tokens(value, root=None, strict: bool = False) -> list:
    """The definitions under `value` as a flat list of texts, in a fixed order. With
    `strict`, a value of a kind this module does not know is an error (tests use it to
    make sure nothing of a game is hashed as a mere type name)."""
    out: list = []
    places = _Places(root)
    seen: dict = {}  # id of a definition already written -> its number (shared or cyclic references)
    stack = [value]
    while stack:
        v = stack.pop()
        if type(v) is _Token:
            out.append(v.text)
            continue
        if v is None or isinstance(v, bool):
            out.append(repr(v))
        elif isinstance(v, enum.Enum):
            out.append(f"E{type(v).__name__}.{v.name}")
        elif isinstance(v, int):
            out.append(f"i{int(v)}")
        elif isinstance(v, float):
            out.append(f"f{float(v)!r}")
        elif isinstance(v, str):
            s = str(v)
            out.append(f"s{len(s)}:{s}")
        elif isinstance(v, Position):
            out.append(f"@{places.of(v.path)}:{v.line}:{v.column}")
        elif isinstance(v, (list, tuple)):
            out.append("[" if isinstance(v, list) else "(")
            stack.append(_Token("]" if isinstance(v, list) else ")"))
            stack.extend(reversed(v))
        elif isinstance(v, dict):
            out.append("{")
            stack.append(_Token("}"))
            for k, x in reversed(list(v.items())):
                stack.append(x)
                stack.append(k)
        elif isinstance(v, (set, frozenset)):
            out.append("<" + ",".join(sorted("\x1e".join(tokens(x, root, strict)) for x in v)) + ">")
        elif dataclasses.is_dataclass(v) and not isinstance(v, type):
            if id(v) in seen:
                out.append(f"^{seen[id(v)]}")
                continue
            seen[id(v)] = len(seen)
            out.append(f"D{type(v).__name__}")
            for f in reversed(dataclasses.fields(v)):
                if f.name not in SKIPPED_FIELDS:
                    stack.append(getattr(v, f.name))
                    stack.append(_Token(f"={f.name}"))
        elif strict:
            raise TypeError(f"no fingerprint for a {type(v).__qualname__}")
        else:
            out.append(f"?{type(v).__qualname__}")
    return out


class _Token:
    """A text to write as it is (a closing bracket, a field's name), among the values to walk."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text


class _Places:
    """The path of a position relative to the game's folder, so that a game moved
    elsewhere keeps its fingerprint."""

    def __init__(self, root):
        self.root = Path(root).resolve() if root is not None else None
        self.cache: dict = {}

    def of(self, path) -> str:
        rel = self.cache.get(path)
        if rel is None:
            rel = str(path)
            if self.root is not None:
                try:
                    rel = Path(path).resolve().relative_to(self.root).as_posix()
                except (ValueError, OSError):
                    pass
            self.cache[path] = rel
        return rel
