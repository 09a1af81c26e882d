"""Special names (`self`, `you`, `players`...): names with a meaning of their own in every
game; one record each, in `SPECIAL_NAMES`.
"""
from __future__ import annotations

from ..types import ANY, COMPONENT, DATA, LIST, NUMBER, OPTIONS, PLAYER


class SpecialName:
    """A name with a meaning of its own in every game; `python` is how the generated code
    reads it (None: it is only read with a dot, `options.NAME`)."""

    name: str = ""
    returns: str = ANY
    python: str | None = None
    doc: str = ""
    prose: dict = {}  # how a card written as prose says it, by language

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        SPECIAL_NAMES[cls.name] = cls()


SPECIAL_NAMES: dict[str, SpecialName] = {}


class SelfName(SpecialName):
    name, returns, python = "self", COMPONENT, "fr.me"
    doc = "the component whose ability is running"
    prose = {"en": "this card",
             "fr": "cette carte"}


class YouName(SpecialName):
    name, returns, python = "you", PLAYER, "fr.you"
    doc = "the player acting: the controller of an ability, or the acting player of a procedure"
    prose = {"en": "you",
             "fr": "vous"}


class PlayersName(SpecialName):
    name, returns, python = "players", LIST, "st.program.seats[st.n]"
    doc = "every player, in seat order"
    prose = {"en": "the players",
             "fr": "les joueurs"}


class TeamsName(SpecialName):
    name, returns, python = "teams", LIST, "R_teams(st)"
    doc = "every team"
    prose = {"en": "the teams",
             "fr": "les équipes"}


class PlayerCountName(SpecialName):
    name, returns, python = "player_count", NUMBER, "st.n"
    doc = "how many players the game has"
    prose = {"en": "the number of players",
             "fr": "le nombre de joueurs"}


class OptionsName(SpecialName):
    name, returns = "options", OPTIONS
    doc = "the options of this game (options.NAME)"
    prose = {"en": "the options",
             "fr": "les options"}


class DataName(SpecialName):
    name, returns = "data", DATA
    doc = "the data tables of the game (data.NAME)"
    prose = {"en": "the data of the game",
             "fr": "les données du jeu"}


class CauseName(SpecialName):
    name, returns, python = "cause", PLAYER, "fr.env.get('cause')"
    doc = "the player who signalled the event being handled"
    prose = {"en": "the player who caused it",
             "fr": "le joueur qui l'a provoqué"}


# The names that stand for what a frame acts for, not a value of the state.
CONTEXT_NAMES = frozenset({"self", "you", "cause"})
