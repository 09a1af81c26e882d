"""What every built-in function is: the `Function` record, the table `FUNCTIONS` its
subclasses register in, and what the records of several modules share.
"""
from __future__ import annotations

import re

from ...engine.values import NodeRef
from ..types import ANY, COMPONENT, LIST, NONE, NUMBER
from ..value_kinds import UNKNOWN, Kinds, list_of, number, of

# What a built-in reads of the state, as letters: z the zones, c the counters, t the tags and taps.
ZONES, COUNTERS, TAGS = "z", "c", "t"

MISSING = object()  # an argument not given
_FORM = re.compile(r"(\w+)\(([^)]*)\)\Z")


class Function:
    """A built-in function; subclasses are the records, registered in FUNCTIONS in order."""

    name: str = ""
    forms: tuple = ()  # how it is called, as the reference writes it: "top(Z)", "top(Z, N)"
    types: dict = {}  # the type of each argument, by the name its forms give it
    returns: str = ANY  # the type of its value: a promise the code generator relies on
    reads: str = ""  # what it reads of the state (ZONES, COUNTERS, TAGS), besides its arguments
    iterates: bool = False  # whether it iterates its arguments (so a zone given as a value is read)
    components: bool = False  # whether its value is always a list of components
    draws: bool = False  # whether it draws from the game's random generator (a function calling it is not pure)
    doc: str = ""
    # how a card written as prose says a call, by language: a phrase whose {0}, {1}... are the
    # arguments, or one such phrase per number of arguments, and for an argument written
    # `each x in S where C` ("each"), `E for each x in S where C` ("mapped") or a zone ("zone")
    # a phrase of its own
    prose: dict = {}
    # of a truth: how prose says it is false ('{0} is not tapped'), by language, where the
    # rules write `not f(...)`; without it, the language's general negation of the phrase
    prose_not: dict = {}
    # of a player: how prose says it is you ('you control {0}'), by language, where the rules
    # write `f(...) == you`; without it, '{the phrase} is you'
    prose_you: dict = {}
    # of a number: how prose says it is more than 0 ("some") and 0 ("none"), by language, where
    # the rules compare it with 0 (`supply("x") > 0`: 'there are tokens left in the supply')
    prose_some: dict = {}
    prose_none: dict = {}
    # of a value another is compared with: how prose says they are equal ("is") and differ
    # ("is_not") where the rules write `x == f(a)` ('{1} holds {0}': its arguments, then x), and
    # how it says two calls are equal ("same") or differ ("same_not") where the rules write
    # `f(a) == f(b)` ('{0} and {1} are in the same place': the arguments of each call)
    prose_is: dict = {}
    prose_is_not: dict = {}
    prose_same: dict = {}
    prose_same_not: dict = {}
    signatures: dict = {}  # derived from the forms: number of arguments -> the type of each
    min_args = max_args = 0  # derived from the forms

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.signatures = {}
        for form in cls.forms:
            m = _FORM.match(form)
            if not m or m.group(1) != cls.name:
                raise TypeError(f"form {form!r} of {cls.__name__} does not call {cls.name}()")
            args = [a.strip() for a in m.group(2).split(",") if a.strip()]
            missing = [a for a in args if a not in cls.types]
            if missing:
                raise TypeError(f"form {form!r} of {cls.__name__}: no type for {', '.join(missing)}")
            cls.signatures[len(args)] = [cls.types[a] for a in args]
        cls.min_args, cls.max_args = min(cls.signatures), max(cls.signatures)
        FUNCTIONS[cls.name] = cls()

    def arg_types(self, count: int) -> list:
        """The types of the arguments of a call with `count` of them."""
        return self.signatures.get(count) or [ANY] * count

    @staticmethod
    def run(st, pos, *args):
        """The value of a call, given the values of its arguments."""
        raise NotImplementedError

    def python(self, gen, call, ctx, sc) -> str | None:
        """Python source for `call` when better than calling `run`, else None. `gen` is the
        code generator (compile.expressions.ExprGen) that asks."""
        return None

    def check(self, checker, call) -> None:
        """What the checker can say of `call` beyond arity and types."""

    def kinds(self, call, args: list, pack) -> Kinds:
        """What the value of `call` may be (language.value_kinds), given what each of its
        arguments may be (`args`), as far as the analysis of the pack (`pack`, a
        language.offers.Offers: its `defn`, and what it knows of zones, supplies and cards) can
        tell: by default what `returns` says, a list of components when `components`; a value
        that is no promise may be none."""
        if self.components:
            return list_of(of(COMPONENT))
        if self.returns == NUMBER:
            return number()
        if self.returns == LIST:
            return of(LIST)
        return UNKNOWN if self.returns == ANY else of(self.returns, NONE)


FUNCTIONS: dict[str, Function] = {}


def neighbors_of(st, n) -> tuple:
    found = st.program.node_lists.get(("neighbors", n))  # boards never change: made once per node
    if found is None:
        found = st.program.node_lists[("neighbors", n)] = tuple(NodeRef(x) for x in st.program.adj.get(n, ()))
    return found
