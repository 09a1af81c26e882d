"""Special names (`self`, `you`, `players`...): names with a meaning of their own in every
game; one record each, in `SPECIAL_NAMES`.
"""
from __future__ import annotations

from .. import value_kinds as vk
from ..types import ANY, COMPONENT, DATA, LIST, NONE, NUMBER, OPTIONS, PLAYER, TEAM


class SpecialName:
    """A name with a meaning of its own in every game; `python` is how the generated code
    reads it (None: it is only read with a dot, `options.NAME`)."""

    name: str = ""
    returns: str = ANY
    python: str | None = None
    doc: str = ""
    prose: dict = {}  # how a card written as prose says it, by language
    prose_you: dict = {}  # of a player: how prose says it is you, where the rules write `NAME == you`
    also: tuple = ()  # what other languages call it ('this' for `self`): an unknown name so written is hinted to it

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        SPECIAL_NAMES[cls.name] = made = cls()
        for word in made.also:
            ALSO_CALLED[word] = made.name

    def kinds(self, pack) -> vk.Kinds | None:
        """What its value may be (`value_kinds.Kinds`), for the analysis of what each choice may
        offer (`language.offers`, whose pass is `pack`, `pack.defn` its pack); None: not known."""
        return None


SPECIAL_NAMES: dict[str, SpecialName] = {}
ALSO_CALLED: dict[str, str] = {}  # a word other languages use -> the special name it stands for here


class SelfName(SpecialName):
    name, returns, python = "self", COMPONENT, "fr.me"
    doc = "the component whose ability is running"
    also = ("this", "me", "it", "this_card")
    prose = {"en": "this card",
             "fr": "cette carte"}

    def kinds(self, pack):
        return vk.of(COMPONENT)


class YouName(SpecialName):
    name, returns, python = "you", PLAYER, "fr.you"
    doc = "the player acting: the controller of an ability, or the acting player of a procedure"
    also = ("i", "myself", "current_player", "active_player")
    prose = {"en": "you",
             "fr": "vous"}

    def kinds(self, pack):
        return vk.of(PLAYER)


class PlayersName(SpecialName):
    name, returns, python = "players", LIST, "st.program.seats[st.n]"
    doc = "every player, in seat order"
    prose = {"en": "the players",
             "fr": "les joueurs"}

    def kinds(self, pack):
        return vk.list_of(vk.of(PLAYER), pack.defn.max_players)


class TeamsName(SpecialName):
    name, returns, python = "teams", LIST, "R_teams(st)"
    doc = "every team"
    prose = {"en": "the teams",
             "fr": "les équipes"}

    def kinds(self, pack):
        return vk.list_of(vk.of(TEAM), pack.defn.max_players)


class PlayerCountName(SpecialName):
    name, returns, python = "player_count", NUMBER, "st.n"
    doc = "how many players the game has"
    prose = {"en": "the number of players",
             "fr": "le nombre de joueurs"}

    def kinds(self, pack):
        return vk.number(pack.defn.min_players, pack.defn.max_players)


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
    prose_you = {"en": "you caused it", "fr": "c'est vous qui l'avez provoqué"}

    def kinds(self, pack):
        return vk.of(PLAYER, NONE)


# The names that stand for what a frame acts for, not a value of the state.
CONTEXT_NAMES = frozenset({"self", "you", "cause"})
