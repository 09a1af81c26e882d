"""Built-in functions of players and teams: next, previous, partners, opponents, team,
members, seat.
"""
from __future__ import annotations

from ...engine.library import number
from ...engine.state import GameFault, describe
from ...engine.values import Seat, Team
from .. import value_kinds as vk
from ..types import ANY, LIST, NUMBER, PLAYER, TEAM
from .base import Function


def _player(v, pos) -> Seat:
    if type(v) is not Seat:
        raise GameFault(f"expected a player, got {describe(v)}", pos)
    return v


class Next(Function):
    name, forms, types, returns = "next", ("next(P)", "next(P, N)"), {"P": PLAYER, "N": NUMBER}, PLAYER
    doc = "the player after a player in seat order (or N seats further)"
    prose = {"en": {1: "the player after {0}", 2: "the player {1} seats after {0}"},
             "fr": {1: "le joueur après {0}", 2: "le joueur {1} places après {0}"}}

    @staticmethod
    def run(st, pos, p, k=1):
        return Seat((int(_player(p, pos)) + number(k, pos)) % st.n)


class Previous(Function):
    name, forms, types, returns = "previous", ("previous(P)", "previous(P, N)"), {"P": PLAYER, "N": NUMBER}, PLAYER
    doc = "the player before a player in seat order (or N seats back)"
    prose = {"en": {1: "the player before {0}", 2: "the player {1} seats before {0}"},
             "fr": {1: "le joueur avant {0}", 2: "le joueur {1} places avant {0}"}}

    @staticmethod
    def run(st, pos, p, k=1):
        return Seat((int(_player(p, pos)) - number(k, pos)) % st.n)


class Partners(Function):
    name, forms, types, returns = "partners", ("partners(P)",), {"P": PLAYER}, LIST
    doc = "the other players of a player's team"
    prose = {"en": {1: "the partners of {0}"},
             "fr": {1: "les partenaires de {0}"}}

    @staticmethod
    def run(st, pos, p):
        t = st.team_of(_player(p, pos))
        return [q for q in st.program.seats[st.n] if st.team_of(q) == t and q != p]

    def kinds(self, call, args: list, pack) -> vk.Kinds:
        return vk.list_of(vk.of(PLAYER), pack.defn.max_players)


class Opponents(Function):
    name, forms, types, returns = "opponents", ("opponents(P)",), {"P": PLAYER}, LIST
    doc = "the players not in a player's team"
    prose = {"en": {1: "the opponents of {0}"},
             "fr": {1: "les adversaires de {0}"}}

    @staticmethod
    def run(st, pos, p):
        t = st.team_of(_player(p, pos))
        return [q for q in st.program.seats[st.n] if st.team_of(q) != t]

    def kinds(self, call, args: list, pack) -> vk.Kinds:
        return vk.list_of(vk.of(PLAYER), pack.defn.max_players)


class TeamOf(Function):
    name, forms, types, returns = "team", ("team(P)",), {"P": PLAYER}, TEAM
    doc = "the team of a player"
    prose = {"en": {1: "the team of {0}"},
             "fr": {1: "l'équipe de {0}"}}

    @staticmethod
    def run(st, pos, p):
        return st.team_of(_player(p, pos))


class Members(Function):
    name, forms, types, returns = "members", ("members(T)",), {"T": ANY}, LIST
    doc = "the players of a team"
    prose = {"en": {1: "the players of {0}"},
             "fr": {1: "les joueurs de {0}"}}

    @staticmethod
    def run(st, pos, t):
        if type(t) is Seat:
            t = st.team_of(t)
        return [q for q in st.program.seats[st.n] if st.team_of(q) == t]

    def kinds(self, call, args: list, pack) -> vk.Kinds:
        return vk.list_of(vk.of(PLAYER), pack.defn.max_players)


class SeatOf(Function):
    name, forms, types, returns = "seat", ("seat(P)",), {"P": ANY}, NUMBER
    doc = "the seat number of a player, from 1 (for a team, its number from 1)"
    prose = {"en": {1: "the seat number of {0}"},
             "fr": {1: "la place de {0}"}}

    @staticmethod
    def run(st, pos, p):
        return int(p) + 1 if type(p) is Team else int(_player(p, pos)) + 1
