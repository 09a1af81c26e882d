"""Zones, components and nodes named as people name them, for the messages of faults.

A fault of a running game is read by the modder whose content caused it, so it
names what the rules name: "player 1's slot", "tokens on Farm", "site at
North", "Farm (component 17)", not the keys a state keeps them by
(`slot#0`, `tokens#17`, `site#north`; see `engine.keys`). Seats and teams are
counted from 1, as players count them.
"""
from __future__ import annotations

from . import keys


def zone(program, key: str) -> str:
    """'market', "player 1's hand", "team 2's pool", 'site at North', 'tokens on Farm'."""
    name = keys.name_of(key).replace("_", " ")
    parts = keys.owners_of(key)
    if not parts:
        return name
    try:
        words = tuple(getattr(program.zone_def(key).scope, "words", program.zone_def(key).scope))
    except (KeyError, AttributeError, IndexError, ValueError):
        return str(key)
    whose, where = [], []
    for word, raw in zip(words, parts):
        if word == "player" and raw.isdigit():
            whose.append(f"player {int(raw) + 1}'s")
        elif word == "team" and keys.is_team_owner(raw):
            whose.append(f"team {keys.team_of_owner(raw) + 1}'s")
        elif word == "node":
            where.append("at " + node(program, raw))
        elif raw.isdigit() and int(raw) < len(program.comp_card):
            where.append("on " + program.comp_card[int(raw)].title)
        else:
            where.append("of " + raw)
    return " ".join(whose + [name] + where)


def node(program, raw: str) -> str:
    """A node by the name the board gives it, else its id."""
    return str(program.nodes.get(raw, {}).get("name", raw))


def component(program, c: int) -> str:
    """'Farm (component 17)': its card's title, and which copy."""
    if 0 <= int(c) < len(program.comp_card):
        return f"{program.comp_card[int(c)].title} (component {int(c)})"
    return f"component {int(c)}"
