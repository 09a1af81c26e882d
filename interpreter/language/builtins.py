"""The built-ins of the rules language: one record each.

A built-in function is one class, in the manner of sqlglot's `class Ceil(Func)`:
its forms (`max(L)`, `max(A, B)`) give its arity, `types` the type of each
argument, `returns` the type of its value, `reads` what it reads of the state
and `iterates` whether it reads a zone given to it as a value, `run` what it
does, `python` how the code generator writes it when it can do better than
calling `run`, and `prose` how a card written as prose says it in each language. `check` adds what the checker can say of a call beyond types.
Properties (`x.owner`) and special names (`you`) are records too.

Every other table is derived from these records: the checker's arities and
types (`language.checker`), the analysis of what a game function reads
(`compile.analysis`), the code generator's special cases
(`compile.expressions`), the prose of cards (`language.prose`), and the tables of
the language reference (`docs/gen_language_tables.py`). Adding a built-in is one class here.

They are generic: sets, numbers, players, graphs; nothing here knows a game.
"""
from __future__ import annotations

import re

from ..engine import keys, machine
from ..engine.library import iterate, iterate_at, make_list, number, same, spend
from ..engine.limits import MAX_LIST
from ..engine.state import GameFault, describe
from ..engine.values import Comp, NodeRef, Seat, Team
from ..names import did_you_mean, fold
from . import nodes as N
from .types import (ANY, BOOL, COMPONENT, DATA, LIST, NODE, NUMBER, OPTIONS, PLAYER, SET, STRING, TEAM,
                    ZONE)

# What a built-in reads of the state, as letters: z the zones, c the counters, t the tags and taps.
ZONES, COUNTERS, TAGS = "z", "c", "t"

_MISSING = object()
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


FUNCTIONS: dict[str, Function] = {}


def _first_argument_lazy(gen, call, ctx, sc, f: str):
    """any/all/first over a comprehension, stopping at the first member that decides."""
    if len(call.args) == 1 and isinstance(call.args[0], (N.Each, N.Mapped)):
        lazy = gen.generator(call.args[0], ctx, sc, truth=f != "first")
        return f"next({lazy}, None)" if f == "first" else f"{f}({lazy})"
    return None


def _numbers(st, pos, v):
    return [number(x, pos) for x in iterate_at(st, v, pos)]


def _player(v, pos) -> Seat:
    if type(v) is not Seat:
        raise GameFault(f"expected a player, got {describe(v)}", pos)
    return v


def _neighbors(st, n) -> tuple:
    found = st.program.node_lists.get(("neighbors", n))  # boards never change: made once per node
    if found is None:
        found = st.program.node_lists[("neighbors", n)] = tuple(NodeRef(x) for x in st.program.adj.get(n, ()))
    return found


def _sort_key(v):
    if isinstance(v, (list, tuple)):
        return tuple(_sort_key(x) for x in v)
    if v is None:
        return (0, 0)
    if isinstance(v, (int, float)):
        return (1, v)
    return (2, str(v))


def _cards(st, pos, key):
    found = st.program.cards_by_id.get(fold(str(key)))
    if not found:
        raise GameFault(f"no card with id '{key}'", pos)
    return found


def _check_card_id(checker, call) -> None:
    arg = call.args[0] if call.args else None
    if isinstance(arg, N.String) and fold(arg.value) not in checker.card_ids():
        checker.error(arg.pos, f"no card with id '{arg.value}'",
                      did_you_mean(arg.value, checker.card_names()))


# numbers and sets ----------------------------------------------------------------------

class Count(Function):
    name, forms, types, returns, iterates = "count", ("count(S)",), {"S": SET}, NUMBER, True
    doc = "how many members a set, zone or list has"
    prose = {"en": {1: "the number of {0}", "zone": "the number of cards in {0}"},
             "fr": {1: "le nombre de {0}", "zone": "le nombre de cartes dans {0}"}}

    @staticmethod
    def run(st, pos, s):
        return len(iterate_at(st, s, pos))

    def python(self, gen, call, ctx, sc):
        if len(call.args) != 1:
            return None
        arg = gen.gen(call.args[0], ctx, sc)
        if gen.zone_source(call.args[0], ctx, sc):
            return f"len(st.zones.get({arg}, ()))"
        if gen.sequence(call.args[0]):
            return f"len({arg})"
        return f"len(R_it(st, {arg}, {gen.pos(call)}))"


class Sum(Function):
    name, forms, types, returns, iterates = "sum", ("sum(L)",), {"L": SET}, NUMBER, True
    doc = "the total of a list of numbers"
    prose = {"en": {1: "the total of {0}", "mapped": "the total of {expr} for each {var} among {source}{where}"},
             "fr": {1: "le total de {0}", "mapped": "le total de {expr} pour chaque {var} parmi {source}{where}"}}

    @staticmethod
    def run(st, pos, s):
        return sum(_numbers(st, pos, s))

    def python(self, gen, call, ctx, sc):
        if len(call.args) == 1 and isinstance(call.args[0], N.Mapped) and gen.numeric(call.args[0].expr, ctx):
            return f"sum({gen.gen(call.args[0], ctx, sc)})"
        return None


class Max(Function):
    name, forms, types = "max", ("max(L)", "max(A, B)"), {"L": SET, "A": NUMBER, "B": NUMBER}
    returns, iterates = NUMBER, True
    doc = "the largest of a list of numbers (or of two numbers); 0 for an empty list"
    prose = {"en": {1: "the largest of {0}",
                    2: "the larger of {0} and {1}",
                    "mapped": "the largest {expr} for any {var} among {source}{where}"},
             "fr": {1: "le plus grand de {0}",
                    2: "le plus grand de {0} et {1}",
                    "mapped": "la plus grande valeur de {expr} pour un {var} parmi {source}{where}"}}

    @staticmethod
    def run(st, pos, a, b=_MISSING):
        if b is not _MISSING:
            return max(number(a, pos), number(b, pos))
        xs = _numbers(st, pos, a)
        return max(xs) if xs else 0


class Min(Function):
    name, forms, types = "min", ("min(L)", "min(A, B)"), {"L": SET, "A": NUMBER, "B": NUMBER}
    returns, iterates = NUMBER, True
    doc = "the smallest of a list of numbers (or of two numbers); 0 for an empty list"
    prose = {"en": {1: "the smallest of {0}",
                    2: "the smaller of {0} and {1}",
                    "mapped": "the smallest {expr} for any {var} among {source}{where}"},
             "fr": {1: "le plus petit de {0}",
                    2: "le plus petit de {0} et {1}",
                    "mapped": "la plus petite valeur de {expr} pour un {var} parmi {source}{where}"}}

    @staticmethod
    def run(st, pos, a, b=_MISSING):
        if b is not _MISSING:
            return min(number(a, pos), number(b, pos))
        xs = _numbers(st, pos, a)
        return min(xs) if xs else 0


class Any(Function):
    name, forms, types, returns, iterates = "any", ("any(S)",), {"S": SET}, BOOL, True
    doc = "whether a set or list has a member (or a true value)"
    prose = {"en": {1: "{0} is not empty",
                    "each": "there is {0:some}",
                    "mapped": "for at least one {var} among {source}{where}, {expr}"},
             "fr": {1: "{0} n'est pas vide",
                    "each": "il existe {0:some}",
                    "mapped": "pour au moins un {var} parmi {source}{where}, {expr}"}}

    @staticmethod
    def run(st, pos, s):
        return any(iterate_at(st, s, pos))

    def python(self, gen, call, ctx, sc):
        return _first_argument_lazy(gen, call, ctx, sc, "any")


class All(Function):
    name, forms, types, returns, iterates = "all", ("all(L)",), {"L": SET}, BOOL, True
    doc = "whether every value of a list is true"
    prose = {"en": {1: "every one of {0} is true",
                    "each": "every one of {0} is true",
                    "mapped": "for every {var} among {source}{where}, {expr}"},
             "fr": {1: "tout {0} est vrai",
                    "each": "tout {0} est vrai",
                    "mapped": "pour chaque {var} parmi {source}{where}, {expr}"}}

    @staticmethod
    def run(st, pos, s):
        return all(iterate_at(st, s, pos))

    def python(self, gen, call, ctx, sc):
        return _first_argument_lazy(gen, call, ctx, sc, "all")


class First(Function):
    name, forms, types, iterates = "first", ("first(S)",), {"S": SET}, True
    doc = "the first member of a set or zone, or none"
    prose = {"en": {1: "the first of {0}"},
             "fr": {1: "le premier de {0}"}}

    @staticmethod
    def run(st, pos, s):
        xs = iterate_at(st, s, pos)
        return xs[0] if xs else None

    def python(self, gen, call, ctx, sc):
        return _first_argument_lazy(gen, call, ctx, sc, "first")


class Last(Function):
    name, forms, types, iterates = "last", ("last(S)",), {"S": SET}, True
    doc = "the last member of a set or zone, or none"
    prose = {"en": {1: "the last of {0}"},
             "fr": {1: "le dernier de {0}"}}

    @staticmethod
    def run(st, pos, s):
        xs = iterate_at(st, s, pos)
        return xs[-1] if xs else None


class Top(Function):
    name, forms, types, iterates = "top", ("top(Z)", "top(Z, N)"), {"Z": SET, "N": NUMBER}, True
    doc = "the top member of a zone, or a list of its N top members"
    prose = {"en": {1: "the top card of {0}", 2: "the {1} top cards of {0}"},
             "fr": {1: "la carte du dessus de {0}", 2: "les {1} cartes du dessus de {0}"}}

    @staticmethod
    def run(st, pos, z, n=_MISSING):
        items = iterate_at(st, z, pos)
        if n is _MISSING:
            return items[-1] if items else None
        k = number(n, pos)
        return list(reversed(items[-k:])) if k > 0 else []


class Bottom(Function):
    name, forms, types, iterates = "bottom", ("bottom(Z)", "bottom(Z, N)"), {"Z": SET, "N": NUMBER}, True
    doc = "the bottom member of a zone, or a list of its N bottom members"
    prose = {"en": {1: "the bottom card of {0}", 2: "the {1} bottom cards of {0}"},
             "fr": {1: "la carte du dessous de {0}", 2: "les {1} cartes du dessous de {0}"}}

    @staticmethod
    def run(st, pos, z, n=_MISSING):
        items = iterate_at(st, z, pos)
        if n is _MISSING:
            return items[0] if items else None
        k = number(n, pos)
        return list(items[:k]) if k > 0 else []


class Abs(Function):
    name, forms, types, returns = "abs", ("abs(N)",), {"N": NUMBER}, NUMBER
    doc = "the absolute value of a number"
    prose = {"en": {1: "the absolute value of {0}"},
             "fr": {1: "la valeur absolue de {0}"}}

    @staticmethod
    def run(st, pos, v):
        return abs(number(v, pos))


class Random(Function):
    name, forms, types, iterates, draws = "random", ("random(S)",), {"S": SET}, True, True
    doc = "a member of a set drawn with the game's seeded generator"
    prose = {"en": {1: "one of {0} drawn at random"},
             "fr": {1: "un de {0} tiré au hasard"}}

    @staticmethod
    def run(st, pos, s):
        items = iterate_at(st, s, pos)
        if not items:
            return None
        return items[st.rng.below(len(items))]


class Sorted(Function):
    name, forms, types = "sorted", ("sorted(L)", "sorted(L, KEYS)"), {"L": SET, "KEYS": SET}
    returns, iterates = LIST, True
    doc = "a list sorted ascending (by a list of keys given as second argument)"
    prose = {"en": {1: "{0} in ascending order", 2: "{0} in ascending order of {1}"},
             "fr": {1: "{0} dans l'ordre croissant", 2: "{0} dans l'ordre croissant de {1}"}}

    @staticmethod
    def run(st, pos, s, keys=_MISSING):
        items = list(iterate_at(st, s, pos))
        if keys is _MISSING:
            return sorted(items, key=_sort_key)
        ks = list(iterate_at(st, keys, pos))
        if len(ks) != len(items):
            raise GameFault("sorted(): the list of keys must be as long as the list", pos)
        order = sorted(range(len(items)), key=lambda i: (_sort_key(ks[i]), i))
        return [items[i] for i in order]


class Reversed(Function):
    name, forms, types, returns, iterates = "reversed", ("reversed(L)",), {"L": SET}, LIST, True
    doc = "a list in reverse order"
    prose = {"en": {1: "{0} in reverse order"},
             "fr": {1: "{0} dans l'ordre inverse"}}

    @staticmethod
    def run(st, pos, s):
        return list(reversed(list(iterate_at(st, s, pos))))


class Distinct(Function):
    name, forms, types, returns, iterates = "distinct", ("distinct(L)",), {"L": SET}, LIST, True
    doc = "a list without repeated values"
    prose = {"en": {1: "{0} without repeats"},
             "fr": {1: "{0} sans doublons"}}

    @staticmethod
    def run(st, pos, s):
        out, seen = [], set()
        for x in iterate_at(st, s, pos):
            try:
                if x in seen:
                    continue
                seen.add(x)
            except TypeError:  # a list: compared with each kept value, each comparison a unit of work
                spend(st, len(out), pos)
                if x in out:
                    continue
            out.append(x)
        return out


class Most(Function):
    name, forms, types, iterates = "most", ("most(L)",), {"L": SET}, True
    doc = "the value occurring strictly most often in a list, or none on a tie"
    prose = {"en": {1: "the value found most often in {0}"},
             "fr": {1: "la valeur la plus fréquente de {0}"}}

    @staticmethod
    def run(st, pos, s):
        counts: dict = {}
        for x in iterate_at(st, s, pos):
            counts[x] = counts.get(x, 0) + 1
        if not counts:
            return None
        best = max(counts.values())
        top = [k for k, v in counts.items() if v == best]
        return top[0] if len(top) == 1 else None


class Range(Function):
    name, forms, types, returns = "range", ("range(N)", "range(A, B)"), {"N": NUMBER, "A": NUMBER, "B": NUMBER}, LIST
    doc = "the numbers from 1 to N (or from A to B)"
    prose = {"en": {1: "the numbers from 1 to {0}", 2: "the numbers from {0} to {1}"},
             "fr": {1: "les nombres de 1 à {0}", 2: "les nombres de {0} à {1}"}}

    @staticmethod
    def run(st, pos, a, b=_MISSING):
        low, high = (1, number(a, pos)) if b is _MISSING else (number(a, pos), number(b, pos))
        if high - low + 1 > MAX_LIST:
            raise GameFault(f"range() of {high - low + 1:,} numbers: at most {MAX_LIST:,}", pos)
        return make_list(st, list(range(low, high + 1)), pos)


class Select(Function):
    name, forms, types = "select", ("select(C, A, B)",), {"C": ANY, "A": ANY, "B": ANY}
    doc = "A when C is true, else B (only the one chosen is evaluated)"
    prose = {"en": {3: "{1} if {0}, else {2}"},
             "fr": {3: "{1} si {0}, sinon {2}"}}
    run = None  # only the chosen branch is evaluated: always written inline

    def python(self, gen, call, ctx, sc):
        test, yes, no = (gen.gen(a, ctx, sc) for a in call.args)
        return f"({yes} if {test} else {no})"


# players and teams ----------------------------------------------------------------------

class Next(Function):
    name, forms, types, returns = "next", ("next(P)", "next(P, N)"), {"P": PLAYER, "N": NUMBER}, PLAYER
    doc = "the player after a player in seat order (or N seats further)"
    prose = {"en": {1: "the player after {0}", 2: "the player {1} seats after {0}"},
             "fr": {1: "le joueur après {0}", 2: "le joueur {1} places après {0}"}}

    @staticmethod
    def run(st, pos, p, k=1):
        return Seat((int(_player(p, pos)) + number(k, pos)) % st.n)


class Previous(Function):
    name, forms, types, returns = "previous", ("previous(P)", "previous(P, N)"), {"P": PLAYER, "N": NUMBER}, PLAYER
    doc = "the player before a player in seat order (or N seats back)"
    prose = {"en": {1: "the player before {0}", 2: "the player {1} seats before {0}"},
             "fr": {1: "le joueur avant {0}", 2: "le joueur {1} places avant {0}"}}

    @staticmethod
    def run(st, pos, p, k=1):
        return Seat((int(_player(p, pos)) - number(k, pos)) % st.n)


class Partners(Function):
    name, forms, types, returns = "partners", ("partners(P)",), {"P": PLAYER}, LIST
    doc = "the other players of a player's team"
    prose = {"en": {1: "the partners of {0}"},
             "fr": {1: "les partenaires de {0}"}}

    @staticmethod
    def run(st, pos, p):
        t = st.team_of(_player(p, pos))
        return [q for q in st.program.seats[st.n] if st.team_of(q) == t and q != p]


class Opponents(Function):
    name, forms, types, returns = "opponents", ("opponents(P)",), {"P": PLAYER}, LIST
    doc = "the players not in a player's team"
    prose = {"en": {1: "the opponents of {0}"},
             "fr": {1: "les adversaires de {0}"}}

    @staticmethod
    def run(st, pos, p):
        t = st.team_of(_player(p, pos))
        return [q for q in st.program.seats[st.n] if st.team_of(q) != t]


class TeamOf(Function):
    name, forms, types, returns = "team", ("team(P)",), {"P": PLAYER}, TEAM
    doc = "the team of a player"
    prose = {"en": {1: "the team of {0}"},
             "fr": {1: "l'équipe de {0}"}}

    @staticmethod
    def run(st, pos, p):
        return st.team_of(_player(p, pos))


class Members(Function):
    name, forms, types, returns = "members", ("members(T)",), {"T": ANY}, LIST
    doc = "the players of a team"
    prose = {"en": {1: "the players of {0}"},
             "fr": {1: "les joueurs de {0}"}}

    @staticmethod
    def run(st, pos, t):
        if type(t) is Seat:
            t = st.team_of(t)
        return [q for q in st.program.seats[st.n] if st.team_of(q) == t]


class SeatOf(Function):
    name, forms, types, returns = "seat", ("seat(P)",), {"P": ANY}, NUMBER
    doc = "the seat number of a player, from 1 (for a team, its number from 1)"
    prose = {"en": {1: "the seat number of {0}"},
             "fr": {1: "la place de {0}"}}

    @staticmethod
    def run(st, pos, p):
        return int(p) + 1 if type(p) is Team else int(_player(p, pos)) + 1


# the board ------------------------------------------------------------------------------

class Node(Function):
    name, forms, types, returns = "node", ("node(ID)",), {"ID": ANY}, NODE
    doc = "the board node with this id"
    prose = {"en": {1: "the board node {0}"},
             "fr": {1: "le nœud {0} du plateau"}}

    @staticmethod
    def run(st, pos, key):
        k = str(key)
        if k not in st.program.nodes:
            raise GameFault(f"no board node '{k}'", pos)
        return NodeRef(k)


class Nodes(Function):
    name, forms, types, returns = "nodes", ("nodes()", "nodes(KIND)"), {"KIND": ANY}, LIST
    doc = "every board node, or those of one kind"
    prose = {"en": {0: "every board node", 1: "the board nodes of kind {0}"},
             "fr": {0: "tous les nœuds du plateau", 1: "les nœuds du plateau de type {0}"}}

    @staticmethod
    def run(st, pos, kind=_MISSING):
        cached = type(kind) is str or kind is _MISSING
        found = st.program.node_lists.get(kind) if cached else None  # boards never change: each list is made once
        if found is None:
            if kind is _MISSING:
                found = tuple(NodeRef(k) for k in st.program.nodes)
            else:
                found = tuple(NodeRef(k) for k, v in st.program.nodes.items() if same(v.get("kind"), kind))
            if cached:
                st.program.node_lists[kind] = found
        return found


class Neighbors(Function):
    name, forms, types, returns = "neighbors", ("neighbors(N)",), {"N": ANY}, LIST
    doc = "the nodes linked to a node"
    prose = {"en": {1: "the nodes linked to {0}"},
             "fr": {1: "les nœuds reliés à {0}"}}

    @staticmethod
    def run(st, pos, n):
        return _neighbors(st, str(n))


class Linked(Function):
    name, forms, types, returns = "linked", ("linked(A, B)",), {"A": ANY, "B": ANY}, BOOL
    doc = "whether two nodes are linked"
    prose = {"en": {2: "{0} is linked to {1}"},
             "fr": {2: "{0} est relié à {1}"}}

    @staticmethod
    def run(st, pos, a, b):
        return str(b) in st.program.adj.get(str(a), ())


# components and places ------------------------------------------------------------------

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


class Holder(Function):
    name, forms, types, reads = "holder", ("holder(C)",), {"C": ANY}, ZONES
    doc = "what the zone of a component belongs to (a player, a node, a component), or none"
    prose = {"en": {1: "what holds {0}"},
             "fr": {1: "ce qui porte {0}"}}

    @staticmethod
    def run(st, pos, c):
        return machine.holder(st, c)

    def python(self, gen, call, ctx, sc):
        if len(call.args) != 1:
            return None
        return f"vm.holder(st, {gen.gen(call.args[0], ctx, sc)})"


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
        return machine.in_play(st, p)

    def python(self, gen, call, ctx, sc):
        args = [gen.gen(a, ctx, sc) for a in call.args]
        return f"vm.in_play(st{', ' + args[0] if args else ''})"

    components = True


class Tapped(Function):
    name, forms, types, returns, reads = "tapped", ("tapped(C)",), {"C": ANY}, BOOL, TAGS
    doc = "whether a component is tapped"
    prose = {"en": {1: "{0} is tapped"},
             "fr": {1: "{0} est inclinée"}}

    @staticmethod
    def run(st, pos, c):
        return c in st.tapped


class HasWon(Function):
    name, forms, types, returns = "has_won", ("has_won(P)",), {"P": PLAYER}, BOOL
    doc = "whether a player is among the winners of the game (after `win`; false while it goes on)"
    prose = {"en": {1: "{0} has won"},
             "fr": {1: "{0} a gagné"}}

    @staticmethod
    def run(st, pos, p):
        return type(p) is Seat and st.winners is not None and int(p) in st.winners


class Automated(Function):
    name, forms, types, returns = "automated", ("automated(P)",), {"P": PLAYER}, BOOL
    doc = "whether a seat is driven by content (an automaton of `automata:`), never asked by an agent"
    prose = {"en": {1: "{0} is played by the rules"},
             "fr": {1: "{0} est joué par les règles"}}

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
                checker.error(arg.pos, f"no keyword '{arg.value}'", did_you_mean(arg.value, list(titles.values())))


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


# the game -------------------------------------------------------------------------------

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
            checker.error(arg.pos, f"unknown option '{arg.value}'", did_you_mean(arg.value, checker.defn.options))


class Supply(Function):
    name, forms, types, returns, reads = "supply", ("supply(NAME)",), {"NAME": STRING}, NUMBER, COUNTERS
    doc = "how many are left in the supply of a counter, by name"
    prose = {"en": {1: "the supply of {0}"},
             "fr": {1: "la réserve de {0}"}}

    @staticmethod
    def run(st, pos, name):
        return st.counters.get(keys.supply_key(str(name)), 0)


class Label(Function):
    name, forms, types, returns = "label", ("label(V)",), {"V": ANY}, STRING
    doc = "the readable name of a value"
    prose = {"en": {1: "the name of {0}"},
             "fr": {1: "le nom de {0}"}}

    @staticmethod
    def run(st, pos, v):
        return machine.label_of(st, v)


# properties: `x.NAME` ------------------------------------------------------------------

class Property:
    """A property every component, player, node or zone has (`x.NAME`), besides the zones,
    counters and attributes a game declares."""

    name: str = ""
    of: str = ""  # what has it, as the reference says
    returns: str = ANY
    reads: str = ""
    doc: str = ""
    prose: dict = {}  # how a card written as prose says it, by language: {0} is what has it

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        PROPERTIES[cls.name] = cls()

    @staticmethod
    def run(st, o, pos):
        raise NotImplementedError


PROPERTIES: dict[str, Property] = {}


class IdProperty(Property):
    name, of, returns = "id", "component, node", STRING
    doc = "the identifier of a component (its card id) or a node"
    prose = {"en": "the id of {0}",
             "fr": "l'identifiant de {0}"}

    @staticmethod
    def run(st, o, pos):
        if type(o) is Comp:
            return st.program.comp_card[o].id
        return str(o) if o is not None else None


class TitleProperty(Property):
    name, of, returns = "title", "component", STRING
    doc = "the printed title of a component"
    prose = {"en": "the title of {0}",
             "fr": "le titre de {0}"}

    @staticmethod
    def run(st, o, pos):
        if type(o) is Comp:
            return st.program.comp_card[o].title
        return machine.label_of(st, o)


class KindProperty(Property):
    name, of = "kind", "component, node"
    doc = "the component kind, or the node kind"
    prose = {"en": "the kind of {0}",
             "fr": "le type de {0}"}

    @staticmethod
    def run(st, o, pos):
        if type(o) is Comp:
            return st.program.comp_card[o].component
        if type(o) is NodeRef:
            return st.program.nodes[o].get("kind")
        return None


class ZoneProperty(Property):
    name, of, returns, reads = "zone", "component", ZONE, ZONES
    doc = "the zone a component lies in"
    prose = {"en": "the zone of {0}",
             "fr": "la zone de {0}"}

    @staticmethod
    def run(st, o, pos):
        if type(o) is Comp:
            return st.where[o]
        raise GameFault(f"{describe(o)} lies in no zone", pos)


class OwnerProperty(Property):
    name, of, returns, reads = "owner", "component", PLAYER, ZONES
    doc = "the player a component belongs to"
    prose = {"en": "the owner of {0}",
             "fr": "le propriétaire de {0}"}

    @staticmethod
    def run(st, o, pos):
        return machine.owner(st, o)


class ControllerProperty(Property):
    name, of, returns, reads = "controller", "component", PLAYER, ZONES
    doc = "the player whose zone holds the component"
    prose = {"en": "the controller of {0}",
             "fr": "le joueur qui contrôle {0}"}

    @staticmethod
    def run(st, o, pos):
        return machine.controller(st, o)


class TappedProperty(Property):
    name, of, returns, reads = "tapped", "component", BOOL, TAGS
    doc = "whether the component is tapped"
    prose = {"en": "{0} is tapped",
             "fr": "{0} est inclinée"}

    @staticmethod
    def run(st, o, pos):
        return o in st.tapped


class TagsProperty(Property):
    name, of, returns, reads = "tags", "component", LIST, TAGS
    doc = "the classes given to a component"
    prose = {"en": "the classes given to {0}",
             "fr": "les classes données à {0}"}

    @staticmethod
    def run(st, o, pos):
        return list(st.tags.get(o, ()))


class SeatProperty(Property):
    name, of, returns = "seat", "player", NUMBER
    doc = "the seat number of a player, from 1"
    prose = {"en": "the seat number of {0}",
             "fr": "la place de {0}"}

    @staticmethod
    def run(st, o, pos):
        return int(o) + 1 if type(o) is Seat else None


class TeamProperty(Property):
    name, of, returns = "team", "player", TEAM
    doc = "the team of a player"
    prose = {"en": "the team of {0}",
             "fr": "l'équipe de {0}"}

    @staticmethod
    def run(st, o, pos):
        return st.team_of(o) if type(o) is Seat else None


class NeighborsProperty(Property):
    name, of, returns = "neighbors", "node", LIST
    doc = "the nodes linked to a node"
    prose = {"en": "the nodes linked to {0}",
             "fr": "les nœuds reliés à {0}"}

    @staticmethod
    def run(st, o, pos):
        return _neighbors(st, o)


class SizeProperty(Property):
    name, of, returns, reads = "size", "zone", NUMBER, ZONES
    doc = "how many components a zone holds"
    prose = {"en": "the number of cards in {0}",
             "fr": "le nombre de cartes dans {0}"}

    @staticmethod
    def run(st, o, pos):
        return len(iterate(st, o))


# special names ------------------------------------------------------------------------

class SpecialName:
    """A name with a meaning of its own in every game; `python` is how the generated code
    reads it (None: it is only read with a dot, `options.NAME`)."""

    name: str = ""
    returns: str = ANY
    python: str | None = None
    doc: str = ""
    prose: dict = {}  # how a card written as prose says it, by language

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        SPECIAL_NAMES[cls.name] = cls()


SPECIAL_NAMES: dict[str, SpecialName] = {}


class SelfName(SpecialName):
    name, returns, python = "self", COMPONENT, "fr.me"
    doc = "the component whose ability is running"
    prose = {"en": "this card",
             "fr": "cette carte"}


class YouName(SpecialName):
    name, returns, python = "you", PLAYER, "fr.you"
    doc = "the player acting: the controller of an ability, or the acting player of a procedure"
    prose = {"en": "you",
             "fr": "vous"}


class PlayersName(SpecialName):
    name, returns, python = "players", LIST, "st.program.seats[st.n]"
    doc = "every player, in seat order"
    prose = {"en": "the players",
             "fr": "les joueurs"}


class TeamsName(SpecialName):
    name, returns, python = "teams", LIST, "R_teams(st)"
    doc = "every team"
    prose = {"en": "the teams",
             "fr": "les équipes"}


class PlayerCountName(SpecialName):
    name, returns, python = "player_count", NUMBER, "st.n"
    doc = "how many players the game has"
    prose = {"en": "the number of players",
             "fr": "le nombre de joueurs"}


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


# The names that stand for what a frame acts for, not a value of the state.
CONTEXT_NAMES = frozenset({"self", "you", "cause"})
