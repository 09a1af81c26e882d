"""Checking a game's print hints (`print:` of a game file), read by `regles sheets`.

The schema has checked their shape; what is checked here is what they name: each
key a component kind the game declares, and each attribute a hint reads
(`band`, `symbol`, `figures`, `hide`, a tile's `cells` and `number`) an
attribute the game declares. A hint naming nothing is an error, with a
did-you-mean, as for the table's hints (`check_table`).
"""
from __future__ import annotations

from ..names import did_you_mean
from .check_table import _key_pos


def check_print_hints(defn, error) -> None:
    """Report through `error(pos, message, hint)` what the hints of `defn.print_hints` name that
    the game lacks."""
    hints = getattr(defn, "print_hints", None)
    if not isinstance(hints, dict):
        return
    here = getattr(hints, "pos", defn.pos)
    kinds = set(defn.components) | {c.component for c in defn.cards}
    for kind, hint in hints.items():
        where = _key_pos(hints, kind, here)
        if kind not in kinds:
            error(where, f"print hints name unknown component kind '{kind}'",
                  did_you_mean(kind, kinds) or "component kinds: " + ", ".join(sorted(kinds)))
            continue
        if not isinstance(hint, dict):
            continue
        named = [(key, hint.get(key)) for key in ("band", "symbol")]
        named += [(key, name) for key in ("figures", "hide") for name in (hint.get(key) or [])
                  if isinstance(hint.get(key), list)]
        tile = hint.get("tile")
        if isinstance(tile, dict):
            named += [(f"tile.{key}", tile.get(key)) for key in ("cells", "number")]
        for key, name in named:
            if isinstance(name, str) and name not in defn.attributes:
                error(_key_pos(hint, key.split(".")[0], where),
                      f"print hints of '{kind}': {key} names unknown attribute '{name}'",
                      did_you_mean(name, defn.attributes))
