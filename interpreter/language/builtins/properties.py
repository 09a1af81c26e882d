"""Built-in properties (`x.NAME`): what every component, player, node or zone has, besides
the zones, counters and attributes a game declares; one record each, in `PROPERTIES`.
"""
from __future__ import annotations

from ...engine import machine
from ...engine.library import iterate
from ...engine.state import GameFault, describe
from ...engine.values import Comp, NodeRef, Seat
from .. import value_kinds as vk
from ..types import ANY, BOOL, CLASS, COMPONENT, LIST, NODE, NONE, NUMBER, PLAYER, SET, STRING, TEAM, ZONE
from .base import TAGS, ZONES, neighbors_of


class Property:
    """A property every component, player, node or zone has (`x.NAME`), besides the zones,
    counters and attributes a game declares."""

    name: str = ""
    of: str = ""  # what has it, as the reference says
    owner: str = ANY  # what the checker lets it be read of (the game stops on others); anything by default
    returns: str = ANY
    reads: str = ""
    doc: str = ""
    prose: dict = {}  # how a card written as prose says it, by language: {0} is what has it
    prose_not: dict = {}  # of a truth: how prose says it is false, where the rules write `not x.p`
    prose_you: dict = {}  # of a player: how prose says it is you, where the rules write `x.p == you`

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        PROPERTIES[cls.name] = cls()

    @staticmethod
    def run(st, o, pos):
        raise NotImplementedError

    def kinds(self, pack) -> vk.Kinds | None:
        """What its value may be (`value_kinds.Kinds`), for the analysis of what each choice may
        offer (`language.offers`, whose pass is `pack`); None: as a node attribute of its name."""
        return None


PROPERTIES: dict[str, Property] = {}


class IdProperty(Property):
    name, of, returns = "id", "component, node", STRING
    doc = "the identifier of a component (its card id) or a node"
    prose = {"en": "the id of {0}",
             "fr": "l'identifiant de {0}"}

    def kinds(self, pack):
        return vk.of(STRING)

    @staticmethod
    def run(st, o, pos):
        if type(o) is Comp:
            return st.program.comp_card[o].id
        return str(o) if o is not None else None


class TitleProperty(Property):
    name, of, returns = "title", "component", STRING
    doc = "the printed title of a component"
    prose = {"en": "the title of {0}",
             "fr": "le titre de {0}"}

    def kinds(self, pack):
        return vk.of(STRING)

    @staticmethod
    def run(st, o, pos):
        if type(o) is Comp:
            return st.program.comp_card[o].title
        return machine.label_of(st, o)


class KindProperty(Property):
    name, of = "kind", "component, node"
    doc = "the component kind, or the node kind"
    prose = {"en": "the kind of {0}",
             "fr": "le type de {0}"}

    @staticmethod
    def run(st, o, pos):
        if type(o) is Comp:
            return st.program.comp_card[o].component
        if type(o) is NodeRef:
            return st.program.nodes[o].get("kind")
        return None


class ZoneProperty(Property):
    name, of, returns, reads = "zone", "component", ZONE, ZONES
    owner = COMPONENT
    doc = "the zone a component lies in"
    prose = {"en": "the zone of {0}",
             "fr": "la zone de {0}"}

    def kinds(self, pack):
        return vk.Kinds(frozenset({ZONE, NONE}), members=vk.of(COMPONENT))

    @staticmethod
    def run(st, o, pos):
        if type(o) is Comp:
            return st.where[o]
        raise GameFault(f"{describe(o, st.program)} lies in no zone", pos)


class OwnerProperty(Property):
    name, of, returns, reads = "owner", "component", PLAYER, ZONES
    doc = "the player a component belongs to"
    prose = {"en": "the owner of {0}",
             "fr": "le propriétaire de {0}"}

    def kinds(self, pack):
        return vk.of(PLAYER, NONE)

    @staticmethod
    def run(st, o, pos):
        return machine.owner(st, o)


class ControllerProperty(Property):
    name, of, returns, reads = "controller", "component", PLAYER, ZONES
    doc = "the player whose zone holds the component"
    prose = {"en": "the controller of {0}",
             "fr": "le joueur qui contrôle {0}"}
    prose_you = {"en": "you control {0}", "fr": "vous contrôlez {0}"}

    def kinds(self, pack):
        return vk.of(PLAYER, NONE)

    @staticmethod
    def run(st, o, pos):
        return machine.controller(st, o)


class TappedProperty(Property):
    name, of, returns, reads = "tapped", "component", BOOL, TAGS
    doc = "whether the component is tapped"
    prose = {"en": "{0} is tapped",
             "fr": "{0} est inclinée"}
    prose_not = {"en": "{0} is not tapped", "fr": "{0} n'est pas inclinée"}

    def kinds(self, pack):
        return vk.of(BOOL)

    @staticmethod
    def run(st, o, pos):
        return type(o) is Comp and o in st.tapped


class TagsProperty(Property):
    name, of, returns, reads = "tags", "component", LIST, TAGS
    doc = "the classes given to a component"
    prose = {"en": "the classes given to {0}",
             "fr": "les classes données à {0}"}

    def kinds(self, pack):
        return vk.list_of(vk.of(CLASS))

    @staticmethod
    def run(st, o, pos):
        return list(st.tags.get(o, ())) if type(o) is Comp else []


class SeatProperty(Property):
    name, of, returns = "seat", "player", NUMBER
    owner = PLAYER
    doc = "the seat number of a player, from 1"
    prose = {"en": "the seat number of {0}",
             "fr": "la place de {0}"}

    @staticmethod
    def run(st, o, pos):
        if type(o) is Seat:
            return int(o) + 1
        raise GameFault(f"{describe(o, st.program)} has no seat: only a player has one", pos)  # a number is promised


class TeamProperty(Property):
    name, of, returns = "team", "player", TEAM
    doc = "the team of a player"
    prose = {"en": "the team of {0}",
             "fr": "l'équipe de {0}"}

    def kinds(self, pack):
        return vk.of(TEAM, NONE)

    @staticmethod
    def run(st, o, pos):
        return st.team_of(o) if type(o) is Seat else None


class NeighborsProperty(Property):
    name, of, returns = "neighbors", "node", LIST
    doc = "the nodes linked to a node"
    prose = {"en": "the nodes linked to {0}",
             "fr": "les nœuds reliés à {0}"}

    def kinds(self, pack):
        return vk.list_of(vk.of(NODE))

    @staticmethod
    def run(st, o, pos):
        return neighbors_of(st, o) if isinstance(o, str) else ()


class SizeProperty(Property):
    name, of, returns, reads = "size", "zone", NUMBER, ZONES
    owner = SET
    doc = "how many components a zone holds"
    prose = {"en": "the number of cards in {0}",
             "fr": "le nombre de cartes dans {0}"}

    def kinds(self, pack):
        return vk.number(0)

    @staticmethod
    def run(st, o, pos):
        try:
            return len(iterate(st, o))
        except TypeError as exc:  # a number, a text...: the words of iterate, at the read
            raise GameFault(str(exc), pos) from None
