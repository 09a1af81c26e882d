"""What one seat may see of a state: hidden zones and counters masked.

A zone's `visibility` says who sees its contents: `public` everyone, `owner`
only the player (or team, for `team`) it belongs to, `hidden` nobody. Others
see how many components lie there, never which.

`NOBODY` stands for someone at the table who plays no seat (a spectator of the
public view): it sees exactly what every seat sees, and nothing any one seat
sees alone.
"""
from __future__ import annotations

from ..scopes import OwnerKind
from . import keys
from . import machine as vm
from .values import Comp, Seat, Team

NOBODY = -1  # the seat of no one: a spectator of what the whole table sees


def may_see(st, visibility: str, holder, seat: int) -> bool:
    if visibility == "public":
        return True
    if visibility == "hidden":
        return False
    if seat == NOBODY:  # what is public is what every seat sees
        return all(may_see(st, visibility, holder, s) for s in range(st.n))
    if holder is None:
        return visibility != "owner"
    if type(holder) is Seat:
        if visibility == "team":
            return st.team_of(holder) == st.team_of(Seat(seat))
        return int(holder) == seat
    if type(holder) is Team:
        return st.team_of(Seat(seat)) == holder
    # a zone of a component or node: visible when that holder is visible to the seat
    ctrl = vm.controller(st, holder) if type(holder) is not str else None
    if ctrl is None:
        return visibility != "owner"
    return int(ctrl) == seat or (visibility == "team" and st.team_of(ctrl) == st.team_of(Seat(seat)))


def counter_holder(cdef, key: str):
    """Whose counter `key` (of definition `cdef`) is, for what a seat may see of it: a
    player's, a team's (seen as its team may see it), a component's (seen by its controller),
    or None for the game's and the others."""
    owner = keys.owner_of(key)
    if owner is None:
        return None
    kind = cdef.scope.kind
    if kind is OwnerKind.PLAYER:
        return Seat(int(owner))
    if kind is OwnerKind.TEAM and keys.is_team_owner(owner):
        return Team(keys.team_of_owner(owner))
    if kind is OwnerKind.COMPONENT and owner.isdigit():
        # a counter kept on a component: seen as the component's zone is, by whoever controls it
        return Comp(int(owner))
    return None


def _seen(st, c) -> dict:
    """A component a seat sees: its id, card and title, whose it is (a seat's pieces on a shared
    board show their owner), and whether it is tapped."""
    card = st.program.comp_card[c]
    out = {"id": int(c), "card": card.id, "title": card.title}
    owner = vm.owner(st, c)
    if owner is not None:
        out["owner"] = int(owner)
    if c in st.tapped:
        out["tapped"] = True
    return out


def observation(st, seat: int) -> dict:
    program = st.program
    zones = {}
    for key, comps in st.zones.items():
        zdef = program.zone_def(key)
        if may_see(st, zdef.visibility, program.zone_holder(key), seat):
            zones[key] = [_seen(st, c) for c in comps]
        else:
            zones[key] = {"count": len(comps)}
            holder = program.zone_holder(key)
            if zdef.visibility == "owner" and type(holder) not in (Seat, Team):
                # a zone of the board or of a component: each sees its own pieces there
                mine = [c for c in comps if program.comp_owner[c] == seat]
                if mine:
                    zones[key]["yours"] = [{"id": int(c), "card": program.comp_card[c].id,
                                            "title": program.comp_card[c].title} for c in mine]
    counters = {}
    for key, value in st.counters.items():
        if keys.is_supply(key):
            counters[key] = value
            continue
        name = keys.name_of(key)
        cdef = program.counters.get(name)
        if cdef is None:
            continue
        if may_see(st, cdef.visibility, counter_holder(cdef, key), seat):
            counters[key] = value
    obs = {"seat": seat, "players": st.n, "zones": zones, "counters": counters,
           "terminal": st.pending is None}
    if st.pending is not None:
        obs["to_play"] = int(st.pending.player)
        if int(st.pending.player) == seat:
            obs["prompt"] = st.pending.prompt
            obs["options"] = list(st.pending.labels_for(st))
    if st.winners is not None:
        obs["winners"] = [w for w in st.winners]
    return obs
