"""The types the checker gives expressions, and how they read in a message.

A type is a member of `Type`, a word (a `StrEnum`). `ANY` is what the checker cannot tell. Two types are
promises the code generator relies on: a `NUMBER` is always a whole number
and a `LIST` always a Python list or tuple, never none. The others say what a
value is when it is something (a `PLAYER` may be none where no one is).
"""
from __future__ import annotations

import enum



class Type(enum.StrEnum):
    """A type of the language. A member is its word ("number", "counter map"): it compares,
    hashes, prints and is written to JSON as that word."""
    ANY = "any"
    NUMBER = "number"
    BOOL = "bool"
    STRING = "string"
    PLAYER = "player"
    TEAM = "team"
    COMPONENT = "component"
    NODE = "node"
    ZONE = "zone"
    COUNTER = "counter"  # a counter of an owner: reads as its number, and can be added to
    COUNTER_MAP = "counter map"  # a counter kept per pair of owners, not yet indexed by the second
    LIST = "list"
    CLASS = "class"
    NONE = "none"
    SET = "set"  # what an argument may be when it is iterated: a list, a zone, or one thing
    OPTIONS = "options"  # the special name `options`, read with a dot
    DATA = "data"  # the special name `data`, read with a dot
    EFFECT = "effect"  # a keyword's parameter standing for the statements after ':'


(ANY, NUMBER, BOOL, STRING, PLAYER, TEAM, COMPONENT, NODE, ZONE, COUNTER, COUNTER_MAP, LIST, CLASS, NONE, SET,
 OPTIONS, DATA, EFFECT) = Type

NUMERIC = frozenset({ANY, NUMBER, COUNTER})
PROMISES = frozenset({NUMBER, COUNTER, LIST})  # the types the code generator relies on

WORDS = {NUMBER: "a number", BOOL: "a truth value", STRING: "a string", PLAYER: "a player", TEAM: "a team",
         COMPONENT: "a component", NODE: "a node", ZONE: "a zone", COUNTER: "a counter", LIST: "a list",
         CLASS: "a class", NONE: "none", COUNTER_MAP: "a counter kept per player", SET: "a set, zone or list",
         ANY: "anything"}


def word(t: str) -> str:
    """`t` as a message says it: 'a number', 'a list'..."""
    return WORDS.get(t, t)


# What each type given where another is wanted is accepted as (ANY always is).
_ACCEPTS = {
    NUMBER: NUMERIC,
    SET: frozenset({LIST, ZONE, COMPONENT, PLAYER, TEAM, NODE, NONE}),
    STRING: frozenset({STRING, CLASS}),  # a class is its name
    PLAYER: frozenset({PLAYER}),
    NODE: frozenset({NODE}),
    ZONE: frozenset({ZONE}),
    COUNTER: frozenset({COUNTER}),
}


def accepts(want: str, got: str) -> bool:
    """Whether a value of type `got` may be given where `want` is expected."""
    return got == ANY or want == ANY or got == want or got in _ACCEPTS.get(want, ())
