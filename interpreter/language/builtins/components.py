"""Built-in functions of components and the places they lie in: zone_of, holder, owner,
controller, in_play, tapped, has_won, automated, can_use, action_count, has, prints,
card, cards.
"""
from __future__ import annotations

from ...engine import machine
from ...engine.state import GameFault
from ...engine.values import Comp, Seat
from ...names import did_you_mean, fold
from .. import nodes as N
from .. import value_kinds as vk
from ..types import ANY, BOOL, COMPONENT, LIST, NODE, NONE, NUMBER, PLAYER, STRING, ZONE
from .base import COUNTERS, TAGS, ZONES, Function


def _cards(st, pos, key):
    found = st.program.cards_by_id.get(fold(str(key)))
    if not found:
        raise GameFault(f"no card with id '{key}'", pos)
    return found


def _check_card_id(checker, call) -> None:
    arg = call.args[0] if call.args else None
    checker.cards_named.name(arg)  # a card the rules name may enter a zone its file does not start it in
    if isinstance(arg, N.String) and not checker.has_card(arg.value):
        checker.error("N018", arg.pos, f"no card with id '{arg.value}'",
                      did_you_mean(arg.value, checker.card_names()))


class ZoneOf(Function):
    name, forms, types, returns, reads = "zone_of", ("zone_of(C)",), {"C": ANY}, ZONE, ZONES
    doc = "the zone a component lies in"
    prose = {"en": {1: "the zone of {0}"},
             "fr": {1: "la zone de {0}"}}

    @staticmethod
    def run(st, pos, c):
        return st.where[c] if type(c) is Comp else None

    def python(self, gen, call, ctx, sc):
        if len(call.args) != 1:
            return None
        arg = gen.gen(call.args[0], ctx, sc)
        if gen.simple(arg):
            return f"(st.where[{arg}] if type({arg}) is Comp else None)"
        return gen.call_run(self, call, [arg])

    def kinds(self, call, args: list, pack) -> vk.Kinds:
        return pack.zone_of(vk.members_of(args[0]))


class Holder(Function):
    name, forms, types, reads = "holder", ("holder(C)",), {"C": ANY}, ZONES
    doc = "what the zone of a component belongs to (a player, a node, a component), or none"
    prose = {"en": {1: "what holds {0}"},
             "fr": {1: "ce qui porte {0}"}}
    # 'that place holds that card', not 'that place is what holds that card'
    prose_is = {"en": "{1} holds {0}", "fr": "{1} porte {0}"}
    prose_is_not = {"en": "{1} does not hold {0}", "fr": "{1} ne porte pas {0}"}
    # not 'what holds the first card is not what holds it'
    prose_same = {"en": "{0} and {1} are in the same place", "fr": "{0} et {1} sont au même endroit"}
    prose_same_not = {"en": "{0} and {1} are not in the same place", "fr": "{0} et {1} ne sont pas au même endroit"}

    @staticmethod
    def run(st, pos, c):
        return machine.holder(st, c)

    def python(self, gen, call, ctx, sc):
        if len(call.args) != 1:
            return None
        return f"vm.holder(st, {gen.gen(call.args[0], ctx, sc)})"

    def kinds(self, call, args: list, pack) -> vk.Kinds:
        return vk.of(NODE, COMPONENT, NONE)


class Owner(Function):
    name, forms, types, returns, reads = "owner", ("owner(C)",), {"C": ANY}, PLAYER, ZONES
    doc = "the player a component belongs to (its copy), or none"
    prose = {"en": {1: "the owner of {0}"},
             "fr": {1: "le propriétaire de {0}"}}

    @staticmethod
    def run(st, pos, c):
        return machine.owner(st, c)


class Controller(Function):
    name, forms, types, returns, reads = "controller", ("controller(C)",), {"C": ANY}, PLAYER, ZONES
    doc = "the player whose zone holds a component, or none"
    prose = {"en": {1: "the controller of {0}"},
             "fr": {1: "le joueur qui contrôle {0}"}}
    prose_you = {"en": "you control {0}", "fr": "vous contrôlez {0}"}

    @staticmethod
    def run(st, pos, c):
        return machine.controller(st, c)


class InPlay(Function):
    name, forms, types, returns, reads = "in_play", ("in_play()", "in_play(P)"), {"P": PLAYER}, LIST, ZONES
    doc = "every component in a zone that is in play (or only those a player controls)"
    prose = {"en": {0: "the cards in play", 1: "the cards in play of {0}"},
             "fr": {0: "les cartes en jeu", 1: "les cartes en jeu de {0}"}}

    @staticmethod
    def run(st, pos, p=None):
        return machine.in_play(st, p, pos)

    def python(self, gen, call, ctx, sc):
        if not call.args:
            return "vm.in_play(st)"
        return f"vm.in_play(st, {gen.gen(call.args[0], ctx, sc)}, {gen.pos(call)})"

    components = True

    def kinds(self, call, args: list, pack) -> vk.Kinds:
        return vk.list_of(pack.in_play())


class Tapped(Function):
    name, forms, types, returns, reads = "tapped", ("tapped(C)",), {"C": ANY}, BOOL, TAGS
    doc = "whether a component is tapped"
    prose = {"en": {1: "{0} is tapped"},
             "fr": {1: "{0} est inclinée"}}
    prose_not = {"en": "{0} is not tapped", "fr": "{0} n'est pas inclinée"}

    @staticmethod
    def run(st, pos, c):
        return type(c) is Comp and c in st.tapped


class HasWon(Function):
    name, forms, types, returns = "has_won", ("has_won(P)",), {"P": PLAYER}, BOOL
    doc = "whether a player is among the winners of the game (after `win`; false while it goes on)"
    prose = {"en": {1: "{0} has won"},
             "fr": {1: "{0} a gagné"}}
    prose_not = {"en": "{0} has not won", "fr": "{0} n'a pas gagné"}

    @staticmethod
    def run(st, pos, p):
        return type(p) is Seat and st.winners is not None and int(p) in st.winners


class Automated(Function):
    name, forms, types, returns = "automated", ("automated(P)",), {"P": PLAYER}, BOOL
    doc = "whether a seat is driven by content (an automaton of `automata:`), never asked by an agent"
    prose = {"en": {1: "{0} is played by the rules"},
             "fr": {1: "{0} est joué par les règles"}}
    prose_not = {"en": "{0} is not played by the rules", "fr": "{0} n'est pas joué par les règles"}

    @staticmethod
    def run(st, pos, p):
        return type(p) is Seat and p in st.program.automata


class CanUse(Function):
    name, forms, types, returns = "can_use", ("can_use(C, P)",), {"C": ANY, "P": PLAYER}, BOOL
    reads = ZONES + COUNTERS + TAGS  # an action's condition may read anything
    doc = ("whether `use C by P free` would run an action now: its condition holds and its costs "
           "but `pay` (a tap, the card's tokens, a sacrifice) can be paid")
    prose = {"en": {2: "{1} can use an action of {0}"},
             "fr": {2: "{1} peut utiliser une action de {0}"}}
    prose_not = {"en": "{1} cannot use an action of {0}", "fr": "{1} ne peut utiliser aucune action de {0}"}

    @staticmethod
    def run(st, pos, c, p):
        if type(c) is not Comp or type(p) is not Seat:
            return False
        return any(a.usable_free(st, c, p) for a in st.program.comp_actions[c] if not machine.spent(st, c, a))


class ActionCount(Function):
    name, forms, types, returns = "action_count", ("action_count(C)",), {"C": ANY}, NUMBER
    doc = "how many actions a component has (none for anything but a component)"
    prose = {"en": {1: "the number of actions of {0}"},
             "fr": {1: "le nombre d'actions de {0}"}}

    @staticmethod
    def run(st, pos, c):
        return len(st.program.comp_actions[c]) if type(c) is Comp else 0


class Has(Function):
    name, forms, types, returns = "has", ("has(C, NAME)",), {"C": ANY, "NAME": STRING}, BOOL
    reads, iterates = TAGS, True
    doc = "whether a component carries a class (tag or attribute value), given by name"
    prose = {"en": {2: "{0} has the class {1}"},
             "fr": {2: "{0} a la classe {1}"}}
    prose_not = {"en": "{0} does not have the class {1}", "fr": "{0} n'a pas la classe {1}"}

    @staticmethod
    def run(st, pos, c, name):
        if type(c) is not Comp:
            return False
        key = fold(str(name))
        canon = st.program.defn.classes.get(key)
        key = fold(canon[1]) if canon else key
        return key in st.program.comp_classes[c] or key in st.tags.get(c, ())


class Prints(Function):
    name, forms, types, returns = "prints", ("prints(C, NAME)",), {"C": ANY, "NAME": STRING}, BOOL
    doc = "whether a component's card prints a keyword, named by its first words ('Bonus' of 'Bonus X - Y')"
    prose = {"en": {2: "{0} prints the keyword {1}"},
             "fr": {2: "{0} porte le mot-clé {1}"}}
    prose_not = {"en": "{0} does not print the keyword {1}", "fr": "{0} ne porte pas le mot-clé {1}"}

    @staticmethod
    def run(st, pos, c, name):
        if type(c) is not Comp:
            return False
        return keyword_title(str(name)) in st.program.comp_prints[c]

    def check(self, checker, call):
        arg = call.args[1] if len(call.args) > 1 else None
        if isinstance(arg, N.String):
            titles = {keyword_title(t): t for t in checker.keyword_titles()}
            if keyword_title(arg.value) not in titles:
                checker.error("N018", arg.pos, f"no keyword '{arg.value}'", did_you_mean(arg.value, list(titles.values())))


def keyword_title(text: str) -> str:
    """A keyword's name as `prints` compares it: its words, folded, one space between them."""
    return " ".join(fold(w) for w in str(text).split())


class Card(Function):
    name, forms, types, returns = "card", ("card(ID)",), {"ID": STRING}, COMPONENT
    doc = "the component with this card id (the first copy); mostly for rules tests"
    prose = {"en": {1: "the card {0}"},
             "fr": {1: "la carte {0}"}}

    @staticmethod
    def run(st, pos, key):
        return _cards(st, pos, key)[0]

    def check(self, checker, call):
        _check_card_id(checker, call)

    def kinds(self, call, args: list, pack) -> vk.Kinds:
        return pack.card_kinds(call.args[0])


class Cards(Function):
    name, forms, types, returns = "cards", ("cards(ID)",), {"ID": STRING}, LIST
    doc = ("every copy of the component with this card id (a per-player card has a copy for each seat the game "
           "may ever have: `owner(c)` tells which seat's, and those of seats not played stay in their first zone)")
    prose = {"en": {1: "every copy of the card {0}"},
             "fr": {1: "chaque exemplaire de la carte {0}"}}

    @staticmethod
    def run(st, pos, key):
        return _cards(st, pos, key)

    def check(self, checker, call):
        _check_card_id(checker, call)

    def kinds(self, call, args: list, pack) -> vk.Kinds:
        return vk.list_of(pack.card_kinds(call.args[0]))
