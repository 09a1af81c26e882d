"""What compiled content hands the machine: the decisions, menus, triggers and actions
it runs, each made once per pack by the compiler and shared by every state.
"""
from __future__ import annotations

from typing import NamedTuple


# What a move's answer is built from ("why not?", engine.why): the conditions and sources
# of choices, menus and actions as content wrote them, kept by the compiler beside the code.
class Because(NamedTuple):
    """The part of a condition that is false: as written, where, the values it read
    ('count(you.hand) is 0'), and the calls of game functions it was found in
    ('in affordable(you, c), where p is player 1, c is Gold Mine')."""
    text: str
    pos: object
    values: tuple = ()
    via: tuple = ()


class Condition:
    """A condition as content wrote it. `why(state, frame)` says which part of it is false
    (a `Because`), or None when it holds in that frame."""

    __slots__ = ("text", "pos", "why")

    def __init__(self, text, pos, why):
        self.text, self.pos, self.why = text, pos, why


class Among:
    """Where the candidates of a choice or a menu's option come from, as content wrote it:
    `members(state, frame)` gives them all, before any `where` or `if`."""

    __slots__ = ("text", "pos", "members")

    def __init__(self, text, pos, members):
        self.text, self.pos, self.members = text, pos, members


# The question before an optional triggered ability: the card's title and the event; the view
# says it again in the reader's language (view.texts), reading it back by this template.
OPTIONAL_ASK = "use {0} ({1})?"
# The label of an action a card prints without a name: its card's title, then the ability as
# written; the view shows the ability's face instead (view.texts), finding it by this template.
UNNAMED_ACTION = "{0}: {1}"


class ChooseSpec:
    """A choice: `src(state, frame)` gives the candidates, already filtered, as a list;
    `among` and `where` say what they were filtered from and by (None: not kept); `offers`, when
    the compiler knows it without reading the rules' text, what the candidates may be (a
    language.value_kinds.Kinds: see language.offers for the choices the rules write)."""

    __slots__ = ("var", "src", "chooser", "optional", "prompt", "pos", "secret", "among", "where", "offers")

    def __init__(self, var, src, chooser, optional, prompt, pos, secret=False, among=None, where=None, offers=None):
        self.var, self.src, self.chooser = var, src, chooser
        self.optional, self.prompt, self.pos, self.secret = optional, prompt, pos, secret
        self.among, self.where, self.offers = among, where, offers


class DecideSpec:
    """A decision made by the rules (`decide`): its rules in order, each (condition or None,
    value, position); the first whose condition holds and whose value is not none decides."""

    __slots__ = ("var", "chooser", "prompt", "rules", "pos")

    def __init__(self, var, chooser, prompt, rules, pos):
        self.var, self.chooser, self.prompt, self.rules, self.pos = var, chooser, prompt, rules, pos


class AutomatonSpec:
    """A seat driven by content: `rank(state, seat, option)` orders the options of any choice
    asked of it (the smallest wins; None: no rank, after every ranked option)."""

    __slots__ = ("id", "title", "seat", "rank", "pos")

    def __init__(self, id, title, seat, rank, pos):
        self.id, self.title, self.seat, self.rank, self.pos = id, title, seat, rank, pos


class MenuOption:
    """An option of a menu: its label, and for whom it is offered (`src`, with `var`) or
    whether (`cond`); `among` and `guard` are the same as content wrote them (engine.why)."""

    __slots__ = ("label", "var", "src", "cond", "start", "window", "pos", "among", "guard")

    def __init__(self, label, var, src, cond, start, window, pos, among=None, guard=None):
        self.label, self.var, self.src, self.cond = label, var, src, cond
        self.start, self.window, self.pos = start, window, pos
        self.among, self.guard = among, guard


class MenuSpec:
    __slots__ = ("chooser", "prompt", "options", "end", "pos", "secret")

    def __init__(self, chooser, prompt, options, end, pos, secret=False):
        self.chooser, self.prompt, self.options, self.end, self.pos = chooser, prompt, options, end, pos
        self.secret = secret


class ActionSpec:
    """An action ability of a component: when it may be used, what it costs, what it does."""

    __slots__ = ("index", "code", "label", "windows", "limit", "usable", "source", "usable_free", "pos",
                 "requires")

    def __init__(self, index, code, label, windows, limit, usable, source, usable_free=None, pos=None,
                 requires=()):
        self.index, self.code, self.label, self.windows = index, code, label, windows
        self.limit, self.usable, self.source = limit, usable, source
        # whether it may be used with its `pay` costs waived (`use ... free`): its condition,
        # and its other costs (tap, the card's own tokens, a sacrifice) can be paid
        self.usable_free = usable_free
        self.pos = pos  # where the action is written
        # what `usable` checks, in the order it checks them, as (kind, Condition): ("if", its
        # condition), then each cost (kind "tap", "pay", "spend", "sacrifice"), each read in a
        # frame of the action (engine.why)
        self.requires = requires


# the local that marks the frame of an action used for free (`use ... free`): its `pay` costs
# are waived; no name of content can hold this character
FREE = "\x00free"


class TriggerSpec:
    """A triggered ability of a component: the event it listens to, and whether it hears
    the event about any component in play (`whenever`) or only about its own (`when`)."""

    __slots__ = ("event", "broadcast", "code")

    def __init__(self, event, broadcast, code):
        self.event, self.broadcast, self.code = event, broadcast, code
