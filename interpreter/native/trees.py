"""The native backend's trees: what the compiler keeps of a code it lowers (`Proc`), the parts
of the texts it records (`Shown`), and the walks and rewrites of checked statement trees it
shares between its stages (the statements of a body in order, the names one binds, an
effect spliced into a keyword's ability)."""
from __future__ import annotations

from dataclasses import replace
from importlib import resources

from ..language import nodes as N
from .expressions import SCALARS, listed, masked, said
from .slots import NotNative

WAITS = (N.CallProc, N.Menu, N.Choose, N.Signal)  # statements after which the machine runs other frames first
POP = -2  # an option that ends its frame (the 'no' of an optional ability)
ACTS = -3  # the options of a menu that are actions of cards
LISTED = "\0list:"  # marks the C of a text's value that is a kept list (recorded as its length, then its members)


class Shown:
    """A part of a text that shows a value of type `t` (the other parts are texts)."""

    __slots__ = ("t",)

    def __init__(self, t):
        self.t = t


class Proc:
    """A procedure or a triggered ability being lowered: its locals' slots and types."""

    def __init__(self, name: str, index: int, params: list, body: list, pos, acting=None, ability=None,
                 consts=None):
        self.name, self.index, self.params, self.body, self.pos = name, index, list(params), body, pos
        self.acting = acting
        self.ability = ability  # the Trigger or Action, for an ability
        self.slots: dict = {}  # name -> (slot, type)
        self.consts: dict = consts or {}  # a keyword's parameter -> (type, C), or ("class", key), or ("expr", node)
        self.empty: set = set()  # locals let to an empty list, not yet typed
        self.dead = False  # never run by the game (an untyped parameter says so): not lowered
        # every name the code binds (its parameters, its lets, choices and loops): they hide a
        # class or counter of the same name, typed or not yet
        self.declared = set(self.params) | {n for s in statements(body) for n in bound_names(s)}

    def local(self, name: str, t, pos) -> str:
        if name in self.slots:
            slot, old = self.slots[name]
            if old != t:
                raise NotNative(pos, f"'{name}' holding a {said(old)} and a {said(t)}")
            return f"L[{slot}]"
        if not (t in SCALARS or masked(t) or (isinstance(t, tuple) and t[0] == "kept")):
            raise NotNative(pos, f"'{name}' holding a {said(t)}")
        self.slots[name] = (len(self.slots), t)
        return f"L[{len(self.slots) - 1}]"


def resource(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def statements(body):
    """The statements of `body` and of the bodies inside them, in the order they are written."""
    for s in body or []:
        yield s
        if isinstance(s, N.If):
            for _, b in s.branches:
                yield from statements(b)
            yield from statements(s.orelse or [])
        elif isinstance(s, (N.While, N.Repeat, N.For)):
            yield from statements(s.body)
        elif isinstance(s, N.Menu):
            for o in s.options:
                yield from statements(getattr(o, "body", None) or [])


def bound_names(s) -> list:
    """The names statement `s` binds."""
    if isinstance(s, N.Let):
        return [s.name]
    if isinstance(s, (N.Choose, N.For, N.Decide)):
        return [s.var]
    if isinstance(s, N.Roll):
        return [s.name]
    if isinstance(s, N.Menu):
        return [o.var for o in s.options if getattr(o, "var", None)]
    return []


def record(value: str) -> str:
    """The C that records one value a text shows, with the event being made (`e`)."""
    if value.startswith(LISTED):
        return f"rg_value_list(st, cx, e, {value[len(LISTED):]});"
    return f"rg_value(st, cx, e, {value});"


def counter_name(e) -> str:
    """The name of the counter a counter reference names."""
    if isinstance(e, N.Name):
        return e.name
    if isinstance(e, N.Attr):
        return e.name
    return e.obj.name  # a counter kept per pair of owners, `owner.counter[second]`


def stored(t):
    """The type a variable keeps a value of type `t` as: a list walked where it is made is kept
    in the arena."""
    return ("kept", t[1]) if listed(t) or (isinstance(t, tuple) and t[0] == "span") else t


def splice(body: list, effects: dict) -> list:
    """`body` with each effect parameter of a keyword (a phrase of one word naming it) replaced
    by the statements a card prints for it, as the Python backend splices them in; the trees
    shared by every card are not changed: what holds a spliced body is copied."""
    out = []
    for s in body or []:
        if isinstance(s, N.Phrase) and s.words and s.words[0].value in effects:
            out += effects[s.words[0].value]
        elif isinstance(s, N.If):
            out.append(replace(s, branches=[(c, splice(b, effects)) for c, b in s.branches],
                               orelse=splice(s.orelse, effects) if s.orelse else s.orelse))
        elif isinstance(s, (N.While, N.Repeat, N.For)):
            out.append(replace(s, body=splice(s.body, effects)))
        elif isinstance(s, N.Menu):
            out.append(replace(s, options=[replace(o, body=splice(o.body, effects)) if hasattr(o, "body") else o
                                           for o in s.options]))
        else:
            out.append(s)
    return out


def bound(v) -> str:
    return "RG_NO_BOUND" if v is None else f"{v}LL"


def table(ctype: str, name: str, values: list) -> str:
    vals = ", ".join(str(v) for v in values) or "0"
    return f"static const {ctype} {name}[] = {{{vals}}};"
