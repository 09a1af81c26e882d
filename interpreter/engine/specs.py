"""What compiled content hands the machine: the decisions, menus, triggers and actions
it runs, each made once per pack by the compiler and shared by every state.
"""
from __future__ import annotations


class ChooseSpec:
    """A choice: `src(state, frame)` gives the candidates, already filtered, as a list."""

    __slots__ = ("var", "src", "chooser", "optional", "prompt", "pos", "secret")

    def __init__(self, var, src, chooser, optional, prompt, pos, secret=False):
        self.var, self.src, self.chooser = var, src, chooser
        self.optional, self.prompt, self.pos, self.secret = optional, prompt, pos, secret


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
    __slots__ = ("label", "var", "src", "cond", "start", "window", "pos")

    def __init__(self, label, var, src, cond, start, window, pos):
        self.label, self.var, self.src, self.cond = label, var, src, cond
        self.start, self.window, self.pos = start, window, pos


class MenuSpec:
    __slots__ = ("chooser", "prompt", "options", "end", "pos", "secret")

    def __init__(self, chooser, prompt, options, end, pos, secret=False):
        self.chooser, self.prompt, self.options, self.end, self.pos = chooser, prompt, options, end, pos
        self.secret = secret


class ActionSpec:
    """An action ability of a component: when it may be used, what it costs, what it does."""

    __slots__ = ("index", "code", "label", "windows", "limit", "usable", "source", "usable_free")

    def __init__(self, index, code, label, windows, limit, usable, source, usable_free=None):
        self.index, self.code, self.label, self.windows = index, code, label, windows
        self.limit, self.usable, self.source = limit, usable, source
        # whether it may be used with its `pay` costs waived (`use ... free`): its condition,
        # and its other costs (tap, the card's own tokens, a sacrifice) can be paid
        self.usable_free = usable_free


# the local that marks the frame of an action used for free (`use ... free`): its `pay` costs
# are waived; no name of content can hold this character
FREE = "\x00free"


class TriggerSpec:
    """A triggered ability of a component: the event it listens to, and whether it hears
    the event about any component in play (`whenever`) or only about its own (`when`)."""

    __slots__ = ("event", "broadcast", "code")

    def __init__(self, event, broadcast, code):
        self.event, self.broadcast, self.code = event, broadcast, code
