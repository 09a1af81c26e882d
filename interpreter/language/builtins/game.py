"""Built-in functions of the game itself: option, supply, label."""
from __future__ import annotations

from ...engine import keys, machine
from ...names import did_you_mean
from .. import nodes as N
from .. import value_kinds as vk
from ..types import ANY, NUMBER, STRING
from .base import COUNTERS, Function


class Option(Function):
    name, forms, types = "option", ("option(NAME)",), {"NAME": STRING}
    doc = "the value of a game option, by name"
    prose = {"en": {1: "the option {0}"},
             "fr": {1: "l'option {0}"}}

    @staticmethod
    def run(st, pos, name):
        return st.options.get(str(name))

    def check(self, checker, call):
        arg = call.args[0] if call.args else None
        if isinstance(arg, N.String) and arg.value not in checker.defn.options:
            checker.error("N011", arg.pos, f"unknown option '{arg.value}'", did_you_mean(arg.value, checker.defn.options))


class Supply(Function):
    name, forms, types, returns, reads = "supply", ("supply(NAME)",), {"NAME": STRING}, NUMBER, COUNTERS
    doc = "how many are left in the supply of a counter, by name"
    prose = {"en": {1: "the supply of {0}"},
             "fr": {1: "la réserve de {0}"}}
    prose_some = {"en": "there are {0} left in the supply", "fr": "il reste des {0} dans la réserve"}
    prose_none = {"en": "there are no {0} left in the supply", "fr": "il ne reste plus de {0} dans la réserve"}

    @staticmethod
    def run(st, pos, name):
        return st.counters.get(keys.supply_key(str(name)), 0)

    def kinds(self, call, args: list, pack) -> vk.Kinds:
        return pack.supply(call.args[0])


class Label(Function):
    name, forms, types, returns = "label", ("label(V)",), {"V": ANY}, STRING
    doc = "the readable name of a value"
    prose = {"en": {1: "the name of {0}"},
             "fr": {1: "le nom de {0}"}}

    @staticmethod
    def run(st, pos, v):
        return machine.label_of(st, v)
