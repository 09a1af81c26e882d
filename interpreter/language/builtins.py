"""The functions and special names every game may use in expressions.

One table serves the checker (arity, what a name is) and the compiler (the
implementation). These are generic: sets, numbers, players, graphs; nothing
here knows any game.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Builtin:
    name: str
    min_args: int
    max_args: int
    doc: str


FUNCTIONS = {b.name: b for b in [
    Builtin("count", 1, 1, "how many members a set, zone or list has"),
    Builtin("sum", 1, 1, "the total of a list of numbers"),
    Builtin("max", 1, 2, "the largest of a list of numbers (or of two numbers); 0 for an empty list"),
    Builtin("min", 1, 2, "the smallest of a list of numbers (or of two numbers); 0 for an empty list"),
    Builtin("any", 1, 1, "whether a set or list has a member (or a true value)"),
    Builtin("all", 1, 1, "whether every value of a list is true"),
    Builtin("first", 1, 1, "the first member of a set or zone, or none"),
    Builtin("last", 1, 1, "the last member of a set or zone, or none"),
    Builtin("top", 1, 2, "the top member of a zone, or a list of its N top members"),
    Builtin("bottom", 1, 2, "the bottom member of a zone, or a list of its N bottom members"),
    Builtin("abs", 1, 1, "the absolute value of a number"),
    Builtin("next", 1, 2, "the player after a player in seat order (or N seats further)"),
    Builtin("previous", 1, 2, "the player before a player in seat order (or N seats back)"),
    Builtin("partners", 1, 1, "the other players of a player's team"),
    Builtin("opponents", 1, 1, "the players not in a player's team"),
    Builtin("team", 1, 1, "the team of a player"),
    Builtin("members", 1, 1, "the players of a team"),
    Builtin("seat", 1, 1, "the seat number of a player, from 1 (for a team, its number from 1)"),
    Builtin("node", 1, 1, "the board node with this id"),
    Builtin("nodes", 0, 1, "every board node, or those of one kind"),
    Builtin("neighbors", 1, 1, "the nodes linked to a node"),
    Builtin("linked", 2, 2, "whether two nodes are linked"),
    Builtin("zone_of", 1, 1, "the zone a component lies in"),
    Builtin("holder", 1, 1, "what the zone of a component belongs to (a player, a node, a component), or none"),
    Builtin("owner", 1, 1, "the player a component belongs to (its copy), or none"),
    Builtin("controller", 1, 1, "the player whose zone holds a component, or none"),
    Builtin("option", 1, 1, "the value of a game option, by name"),
    Builtin("random", 1, 1, "a member of a set drawn with the game's seeded generator"),
    Builtin("sorted", 1, 2, "a list sorted ascending (by a list of keys given as second argument)"),
    Builtin("reversed", 1, 1, "a list in reverse order"),
    Builtin("distinct", 1, 1, "a list without repeated values"),
    Builtin("most", 1, 1, "the value occurring strictly most often in a list, or none on a tie"),
    Builtin("tapped", 1, 1, "whether a component is tapped"),
    Builtin("has", 2, 2, "whether a component carries a class (tag or attribute value), given by name"),
    Builtin("label", 1, 1, "the readable name of a value"),
    Builtin("range", 1, 2, "the numbers from 1 to N (or from A to B)"),
    Builtin("card", 1, 1, "the component with this card id (the first copy)"),
    Builtin("cards", 1, 1, "every copy of the component with this card id"),
    Builtin("select", 3, 3, "the second argument when the first is true, else the third (only the one chosen is evaluated)"),
    Builtin("supply", 1, 1, "how many are left in the supply of a counter, by name"),
    Builtin("in_play", 0, 1, "every component in a zone that is in play (or only those a player controls)"),
]}

# Names with a meaning of their own in every game.
SPECIAL_NAMES = {
    "self": "the component whose ability is running",
    "you": "the player acting: the controller of an ability, or the player a procedure was called for",
    "players": "every player, in seat order",
    "teams": "every team",
    "player_count": "how many players the game has",
    "options": "the options of this game (options.NAME)",
    "data": "the data tables of the game (data.NAME)",
    "cause": "the player who signalled the event being handled",
}

# Properties every component, player or node has, besides declared attributes, zones and counters.
PROPERTIES = {
    "id": "the identifier of a component (its card id) or a node",
    "title": "the printed title of a component",
    "kind": "the component kind, or the node kind",
    "zone": "the zone a component lies in",
    "owner": "the player a component belongs to",
    "controller": "the player whose zone holds the component",
    "tapped": "whether the component is tapped",
    "tags": "the classes given to a component",
    "seat": "the seat number of a player, from 1",
    "team": "the team of a player",
    "neighbors": "the nodes linked to a node",
    "size": "how many components a zone holds",
}
