"""The events of a trace: one declared record per kind, with its fields.

A game played with the trace on records what happened as events, one a dict
(`GameState.emit`): `{"n": 12, "type": "move", "card": "ore", "id": 4, "from":
"deck", "to": "hand:1", "at": "game.yaml:44"}`. Every event has `n` (its
number in the trace), `type` (its kind, one of `EVENTS`) and, when content
caused it, `at` (the content line); the other fields are the kind's own.

The engine emits them with the constants here (`MOVE`, `CHOICE`...); a `Kind`
is a `StrEnum`, so an event's `"type"` is written to JSON as the same text as
ever. The readers of traces read the same records: narration tells every kind,
those declared `bookkeeping` only when asked to tell everything (view/narrate.py), the trace reader refuses an
event of no declared kind or without a field its kind requires
(rulings/trace.py), replays mark what an event `touches` and fork at the
events that `answers` a decision (play/web/replays.py, rulings/ruletest.py),
and docs/playing.md lists them (docs/gen_trace_events.py).

Nothing is checked when an event is emitted, so that playing with a trace
costs what it did: tests/engine/test_events.py plays games of every shipped
game and checks each event against its record.
"""
from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple


class Kind(StrEnum):
    """The `"type"` of an event."""
    START = "start"
    MOVE = "move"
    SHUFFLE = "shuffle"
    TAP = "tap"
    UNTAP = "untap"
    TAG = "tag"
    UNTAG = "untag"
    SET = "set"
    COUNTER = "counter"
    ROLL = "roll"
    REVEAL = "reveal"
    LOG = "log"
    SIGNAL = "signal"
    ACTION = "action"
    UNUSED = "unused"
    CHOICE = "choice"
    DECIDE = "decide"
    FAIL = "fail"
    WIN = "win"
    CUT = "cut"


START, MOVE, SHUFFLE, TAP, UNTAP, TAG, UNTAG, SET, COUNTER, ROLL = (
    Kind.START, Kind.MOVE, Kind.SHUFFLE, Kind.TAP, Kind.UNTAP, Kind.TAG, Kind.UNTAG, Kind.SET, Kind.COUNTER, Kind.ROLL)
REVEAL, LOG, SIGNAL, ACTION, UNUSED, CHOICE, DECIDE, FAIL, WIN, CUT = (
    Kind.REVEAL, Kind.LOG, Kind.SIGNAL, Kind.ACTION, Kind.UNUSED, Kind.CHOICE, Kind.DECIDE, Kind.FAIL, Kind.WIN,
    Kind.CUT)


class Field(NamedTuple):
    name: str
    doc: str
    optional: bool = False  # left out of some events of the kind


class Event(NamedTuple):
    """What an event of kind `kind` is and holds."""
    kind: Kind
    doc: str
    fields: tuple  # of Field: the kind's own, besides COMMON
    changes: bool = False  # records a change of the table: a component, a zone, a counter, the winners
    answers: bool = False  # answers a decision of a player: one of the header's `choices`
    touches: tuple = ()  # what its fields name that the change marks: "component" (`id`), "zone", "counter"
    bookkeeping: bool = False  # how the rules move on: narrated only with everything (--all, replays)


def _f(name, doc, optional=False):
    return Field(name, doc, optional)


# fields every event has, or may have
COMMON = (_f("n", "its number in the trace, from 0"),
          _f("type", "its kind"),
          _f("at", "the content line that caused it, `file:line`", True))

_CARD = (_f("card", "the card's id"), _f("id", "the component's number"))
_PLAYER = _f("player", "the player, from 1")

EVENTS: tuple = (
    Event(START, "the game set up", (
        _f("game", "the game's id"), _f("players", "the number of players"), _f("seed", "the seed"),
        _f("options", "the options, by name"), _f("expansions", "the expansions laid over the game"),
        _f("scenario", "the scenario, or null"), _f("mods", "the mods laid over the game, by folder"),
        _f("without", "the cards left out of the game", True),
        _f("set", "the cards' attributes set at load, [card, attribute, value] each", True),
        _f("powers", "the personal power of each seat (seat from 1 -> card id)"))),
    Event(MOVE, "a component moved to a zone, or to the top or bottom of its own", (
        *_CARD, _f("from", "the zone it left, or null"), _f("to", "the zone it entered")),
          changes=True, touches=("component", "zone")),
    Event(SHUFFLE, "a zone shuffled", (_f("zone", "the zone"),), changes=True, touches=("zone",)),
    Event(TAP, "a component tapped", _CARD, changes=True, touches=("component",)),
    Event(UNTAP, "a component untapped", _CARD, changes=True, touches=("component",)),
    Event(TAG, "a component given a class", (*_CARD, _f("tag", "the class")), changes=True, touches=("component",)),
    Event(UNTAG, "a component's class taken away", (*_CARD, _f("tag", "the class")), changes=True,
          touches=("component",)),
    Event(SET, "an attribute of a component set", (
        *_CARD, _f("attribute", "the attribute"), _f("value", "its new value")), changes=True, touches=("component",)),
    Event(COUNTER, "a counter changed", (
        _f("counter", "the counter's key (a seat's or a card's counter: `name#holder`)"), _f("change", "by how much"),
        _f("value", "its new value"), _f("reason", "what changed it: add, set...")), changes=True,
          touches=("counter",)),
    Event(ROLL, "dice rolled", (_f("dice", "the numbers rolled"),)),
    Event(REVEAL, "a value revealed to every player (`reveal`)", (
        _f("what", "the value"), _f("label", "the value in words")),),
    Event(LOG, "a line the content logs (`log`)", (_f("text", "the text"),)),
    Event(SIGNAL, "an event of the rules signalled, its triggers to run", (
        _f("event", "the rules' event"), _f("args", "the values it was signalled with")), bookkeeping=True),
    Event(ACTION, "a player used an action of a component", (
        *_CARD, _f("ability", "the action's number on the component"), _PLAYER,
        _f("free", "true when its costs are not paid", True)), touches=("component",)),
    Event(UNUSED, "a player could use no action of a component (`use`)", (*_CARD, _PLAYER)),
    Event(CHOICE, "a player chose an option of a decision", (
        _PLAYER, _f("prompt", "the question"), _f("option", "the option's number, from 0"),
        _f("label", "the option in words"), _f("options", "how many options there were"),
        _f("auto", "true when it was the only option"),
        _f("secret", "true when the other players do not see it", True)), answers=True),
    Event(DECIDE, "a decision the rules made for a player: by a rule of the game, or by an automaton", (
        _PLAYER, _f("prompt", "the question"), _f("label", "the option in words, or null"),
        _f("rule", "the number of the rule that decided (0: none did), or `prefer` for an automaton"),
        _f("value", "the value decided", True), _f("option", "the option's number", True),
        _f("options", "how many options there were", True), _f("automaton", "the automaton", True),
        _f("asked_at", "the content line that asked", True),
        _f("secret", "true when the other players do not see it", True))),
    Event(FAIL, "the running ability failed: its effect is impossible", (_f("text", "why"),)),
    Event(WIN, "the game won", (_f("players", "the winners, from 1"),), changes=True),
    Event(CUT, "events between two decisions past the trace's bound, not recorded", (
        _f("left_out", "how many"),)),
)

BY_KIND: dict = {e.kind: e for e in EVENTS}

# the fields of each kind: {kind: (required, optional)}, COMMON included
FIELDS: dict = {e.kind: (tuple(f.name for f in (*COMMON, *e.fields) if not f.optional),
                         tuple(f.name for f in (*COMMON, *e.fields) if f.optional)) for e in EVENTS}

ANSWERS = frozenset(e.kind for e in EVENTS if e.answers)


def touches(kind, what: str) -> bool:
    """Whether events of `kind` (any text) name a `what` they change ("component", "zone", "counter")."""
    e = BY_KIND.get(kind)
    return e is not None and what in e.touches
