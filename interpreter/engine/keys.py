"""The keys of a state: how zones, counters, supplies and used actions are named.

Every key is built and split here, and nowhere else. They are part of the
saved form of a state and of traces, so they never change:

    market, round          a zone or counter of the whole game: its name
    hand#0, coins#2        one kept per player: NAME#SEAT (seats from 0)
    gems#t1                one kept per team: NAME#tTEAM (teams from 0)
    site#north, crews#17   one kept per node, or per component: NAME#NODE, NAME#COMPONENT
    cubes#north#0          a counter kept per pair of owners: NAME#FIRST#SECOND
    $coins                 what is left in the supply of a counter: $NAME
    round_end|17|0         an action used 'once per EVENT': EVENT|COMPONENT|ACTION INDEX
"""
from __future__ import annotations

from .values import Comp, NodeRef, Seat, Team

OWNER = "#"
SUPPLY = "$"
USED = "|"


def owner_key(value) -> str:
    """The part of a key naming its owner: a seat, 't' and a team, a node id, a component id."""
    t = type(value)
    if t is NodeRef or t is str:
        return value
    if t is Team:
        return team_owner(int(value))
    return int.__repr__(value) if t is Seat or t is Comp else str(value)


def team_owner(team: int) -> str:
    return f"t{team}"


def key(name: str, owner=None) -> str:
    """The key of zone or counter `name` of `owner` (None: of the whole game)."""
    return name if owner is None else f"{name}{OWNER}{owner_key(owner)}"


def seat_key(name: str, seat: int) -> str:
    """The key of zone or counter `name` of the player at seat `seat` (from 0)."""
    return f"{name}{OWNER}{seat}"


def team_key(name: str, team: int) -> str:
    """The key of counter `name` of team `team` (from 0)."""
    return f"{name}{OWNER}{team_owner(team)}"


def pair_key(name: str, first, second) -> str:
    """The key of counter `name` kept per pair of owners."""
    return f"{name}{OWNER}{owner_key(first)}{OWNER}{owner_key(second)}"


def name_of(key: str) -> str:
    """The zone or counter a key is of: 'hand' for 'hand#0'."""
    return key.split(OWNER, 1)[0]


def owners_of(key: str) -> list:
    """The owner parts of a key, as written: ['0'] for 'hand#0', [] for 'market'."""
    return key.split(OWNER)[1:]


def owner_of(key: str) -> str | None:
    """The first owner part of a key, as written, or None for a key of the whole game."""
    parts = key.split(OWNER, 1)
    return parts[1] if len(parts) == 2 else None


def first_owner(key: str) -> str | None:
    """The first owner part of a key, as written ('s4' for 'cubes#s4#0'), or None for a key
    of the whole game."""
    parts = key.split(OWNER, 2)
    return parts[1] if len(parts) > 1 else None


def is_team_owner(raw: str) -> bool:
    """Whether an owner part names a team ('t1')."""
    return raw.startswith("t") and raw[1:].isdigit()


def team_of_owner(raw: str) -> int:
    """The team an owner part names: 1 for 't1'."""
    return int(raw[1:])


def supply_key(name: str) -> str:
    """The key of what is left in the supply counter `name` draws on."""
    return f"{SUPPLY}{name}"


def is_supply(key: str) -> bool:
    return key.startswith(SUPPLY)


def supply_of(key: str) -> str:
    """The counter whose supply a supply key holds: 'coins' for '$coins'."""
    return key[len(SUPPLY):]


def used_key(event: str, comp, index: int) -> str:
    """The mark that action `index` of component `comp` was used since `event` was last signalled."""
    return f"{event}{USED}{int(comp)}{USED}{index}"


def used_prefix(event: str) -> str:
    """What the marks of the actions limited to 'once per `event`' begin with."""
    return f"{event}{USED}"
