"""Built-in functions of numbers and sets: count, sum, max, min, any, all, first, last,
top, bottom, abs, random, sorted, reversed, distinct, most, range, select.
"""
from __future__ import annotations

from ...engine.library import iterate_at, make_list, number, spend, truth
from ...limits import MAX_LIST
from ...engine.state import GameFault, describe
from .. import nodes as N
from .. import value_kinds as vk
from ..types import ANY, BOOL, LIST, NONE, NUMBER, SET
from .base import MISSING, Function


def _first_argument_lazy(gen, call, ctx, sc, f: str):
    """any/all/first over a comprehension, stopping at the first member that decides."""
    if len(call.args) == 1 and isinstance(call.args[0], (N.Each, N.Mapped)):
        lazy = gen.generator(call.args[0], ctx, sc, truth=f != "first")
        return f"next({lazy}, None)" if f == "first" else f"{f}({lazy})"
    return None


def _numbers(st, pos, v):
    return [number(x, pos) for x in iterate_at(st, v, pos)]


def _sort_key(v):
    if isinstance(v, (list, tuple)):
        return tuple(_sort_key(x) for x in v)
    if v is None:
        return (0, 0)
    if isinstance(v, (int, float)):
        return (1, v)
    return (2, str(v))


def _bounds(pick, args: list) -> tuple:
    """(least, most) of max() or min() (`pick`) of two numbers, or of a list of numbers (0 when
    the list is empty); None where not known."""
    if len(args) == 1:
        m = vk.members_of(args[0])
        return (None if m.least is None else min(0, m.least)), (None if m.most is None else max(0, m.most))
    leasts = [x.least for x in args if x.least is not None]
    mosts = [x.most for x in args if x.most is not None]
    if pick is max:  # at least the larger known least; at most the larger most when both are known
        return (max(leasts) if leasts else None), (max(mosts) if len(mosts) == 2 else None)
    return (min(leasts) if len(leasts) == 2 else None), (min(mosts) if mosts else None)


class Count(Function):
    name, forms, types, returns, iterates = "count", ("count(S)",), {"S": SET}, NUMBER, True
    doc = "how many members a set, zone or list has"
    # of a zone, {1} is what it holds ('tiles' where it declares `holds: tile`, else 'cards')
    prose = {"en": {1: "the number of {0}", "zone": "the number of {1} in {0}"},
             "fr": {1: "le nombre de {0}", "zone": "le nombre de {1} dans {0}"}}

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

    def kinds(self, call, args: list, pack) -> vk.Kinds:
        return vk.number(0, args[0].longest if args[0].members is not None else None)


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
    def run(st, pos, a, b=MISSING):
        if b is not MISSING:
            return max(number(a, pos), number(b, pos))
        xs = _numbers(st, pos, a)
        return max(xs) if xs else 0

    def kinds(self, call, args: list, pack) -> vk.Kinds:
        return vk.number(*_bounds(max, args))


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
    def run(st, pos, a, b=MISSING):
        if b is not MISSING:
            return min(number(a, pos), number(b, pos))
        xs = _numbers(st, pos, a)
        return min(xs) if xs else 0

    def kinds(self, call, args: list, pack) -> vk.Kinds:
        return vk.number(*_bounds(min, args))


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
        return any(truth(x) for x in iterate_at(st, s, pos))

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
        return all(truth(x) for x in iterate_at(st, s, pos))

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

    def kinds(self, call, args: list, pack) -> vk.Kinds:
        return vk.join(vk.members_of(args[0]), vk.of(NONE))


class Last(Function):
    name, forms, types, iterates = "last", ("last(S)",), {"S": SET}, True
    doc = "the last member of a set or zone, or none"
    prose = {"en": {1: "the last of {0}"},
             "fr": {1: "le dernier de {0}"}}

    @staticmethod
    def run(st, pos, s):
        xs = iterate_at(st, s, pos)
        return xs[-1] if xs else None

    def kinds(self, call, args: list, pack) -> vk.Kinds:
        return vk.join(vk.members_of(args[0]), vk.of(NONE))


class Top(Function):
    name, forms, types, iterates = "top", ("top(Z)", "top(Z, N)"), {"Z": SET, "N": NUMBER}, True
    doc = "the top member of a zone, or a list of its N top members"
    prose = {"en": {1: "the top card of {0}", 2: "the {1} top cards of {0}"},
             "fr": {1: "la carte du dessus de {0}", 2: "les {1} cartes du dessus de {0}"}}

    @staticmethod
    def run(st, pos, z, n=MISSING):
        items = iterate_at(st, z, pos)
        if n is MISSING:
            return items[-1] if items else None
        k = number(n, pos)
        return list(reversed(items[-k:])) if k > 0 else []

    def kinds(self, call, args: list, pack) -> vk.Kinds:
        return vk.join(vk.members_of(args[0]), vk.of(NONE)) if len(args) == 1 else \
            vk.list_of(vk.members_of(args[0]), args[1].most)


class Bottom(Function):
    name, forms, types, iterates = "bottom", ("bottom(Z)", "bottom(Z, N)"), {"Z": SET, "N": NUMBER}, True
    doc = "the bottom member of a zone, or a list of its N bottom members"
    prose = {"en": {1: "the bottom card of {0}", 2: "the {1} bottom cards of {0}"},
             "fr": {1: "la carte du dessous de {0}", 2: "les {1} cartes du dessous de {0}"}}

    @staticmethod
    def run(st, pos, z, n=MISSING):
        items = iterate_at(st, z, pos)
        if n is MISSING:
            return items[0] if items else None
        k = number(n, pos)
        return list(items[:k]) if k > 0 else []

    def kinds(self, call, args: list, pack) -> vk.Kinds:
        return vk.join(vk.members_of(args[0]), vk.of(NONE)) if len(args) == 1 else \
            vk.list_of(vk.members_of(args[0]), args[1].most)


class Abs(Function):
    name, forms, types, returns = "abs", ("abs(N)",), {"N": NUMBER}, NUMBER
    doc = "the absolute value of a number"
    prose = {"en": {1: "the absolute value of {0}"},
             "fr": {1: "la valeur absolue de {0}"}}

    @staticmethod
    def run(st, pos, v):
        return abs(number(v, pos))

    def kinds(self, call, args: list, pack) -> vk.Kinds:
        a = args[0]
        return vk.number(0, None if a.least is None or a.most is None else max(-a.least, a.most))


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

    def kinds(self, call, args: list, pack) -> vk.Kinds:
        return vk.join(vk.members_of(args[0]), vk.of(NONE))


class Sorted(Function):
    name, forms, types = "sorted", ("sorted(L)", "sorted(L, KEYS)"), {"L": SET, "KEYS": SET}
    returns, iterates = LIST, True
    doc = "a list sorted ascending (by a list of keys given as second argument)"
    prose = {"en": {1: "{0} in ascending order", 2: "{0} in ascending order of {1}"},
             "fr": {1: "{0} dans l'ordre croissant", 2: "{0} dans l'ordre croissant de {1}"}}

    @staticmethod
    def run(st, pos, s, keys=MISSING):
        items = list(iterate_at(st, s, pos))
        if keys is MISSING:
            return sorted(items, key=_sort_key)
        ks = list(iterate_at(st, keys, pos))
        if len(ks) != len(items):
            raise GameFault("sorted(): the list of keys must be as long as the list", pos)
        order = sorted(range(len(items)), key=lambda i: (_sort_key(ks[i]), i))
        return [items[i] for i in order]

    def kinds(self, call, args: list, pack) -> vk.Kinds:
        return vk.list_of(vk.members_of(args[0]), args[0].longest)


class Reversed(Function):
    name, forms, types, returns, iterates = "reversed", ("reversed(L)",), {"L": SET}, LIST, True
    doc = "a list in reverse order"
    prose = {"en": {1: "{0} in reverse order"},
             "fr": {1: "{0} dans l'ordre inverse"}}

    @staticmethod
    def run(st, pos, s):
        return list(reversed(list(iterate_at(st, s, pos))))

    def kinds(self, call, args: list, pack) -> vk.Kinds:
        return vk.list_of(vk.members_of(args[0]), args[0].longest)


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

    def kinds(self, call, args: list, pack) -> vk.Kinds:
        return vk.list_of(vk.members_of(args[0]), args[0].longest)


class Most(Function):
    name, forms, types, iterates = "most", ("most(L)",), {"L": SET}, True
    doc = "the value occurring strictly most often in a list, or none on a tie"
    prose = {"en": {1: "the value found most often in {0}"},
             "fr": {1: "la valeur la plus fréquente de {0}"}}

    @staticmethod
    def run(st, pos, s):
        counts: dict = {}
        first: dict = {}  # each value counted, as it was first met (a list is counted by its members)
        for x in iterate_at(st, s, pos):
            k = _counted(x, pos)
            counts[k] = counts.get(k, 0) + 1
            first.setdefault(k, x)
        if not counts:
            return None
        best = max(counts.values())
        top = [k for k, v in counts.items() if v == best]
        return first[top[0]] if len(top) == 1 else None

    def kinds(self, call, args: list, pack) -> vk.Kinds:
        return vk.join(vk.members_of(args[0]), vk.of(NONE))


def _counted(x, pos):
    """`x` as a key of a count: a list as the tuple of its members; a data table cannot be counted."""
    if isinstance(x, (list, tuple)):
        return tuple(_counted(y, pos) for y in x)
    if isinstance(x, (dict, set)):
        raise GameFault(f"most() counts numbers, names, components and lists, not {describe(x)}", pos)
    return x


class Range(Function):
    name, forms, types, returns = "range", ("range(N)", "range(A, B)"), {"N": NUMBER, "A": NUMBER, "B": NUMBER}, LIST
    doc = "the numbers from 1 to N (or from A to B)"
    prose = {"en": {1: "the numbers from 1 to {0}", 2: "the numbers from {0} to {1}"},
             "fr": {1: "les nombres de 1 à {0}", 2: "les nombres de {0} à {1}"}}

    @staticmethod
    def run(st, pos, a, b=MISSING):
        low, high = (1, number(a, pos)) if b is MISSING else (number(a, pos), number(b, pos))
        if high - low + 1 > MAX_LIST:
            raise GameFault(f"range() of {high - low + 1:,} numbers: at most {MAX_LIST:,}", pos)
        return make_list(st, list(range(low, high + 1)), pos)

    def kinds(self, call, args: list, pack) -> vk.Kinds:
        low, high = (vk.number(1, 1), args[0]) if len(args) == 1 else args
        longest = None if high.most is None or low.least is None else max(0, high.most - low.least + 1)
        return vk.list_of(vk.number(low.least, high.most), longest)


class Select(Function):
    name, forms, types = "select", ("select(C, A, B)",), {"C": ANY, "A": ANY, "B": ANY}
    doc = "A when C is true, else B (only the one chosen is evaluated)"
    prose = {"en": {3: "{1} if {0}, else {2}"},
             "fr": {3: "{1} si {0}, sinon {2}"}}
    run = None  # only the chosen branch is evaluated: always written inline

    def python(self, gen, call, ctx, sc):
        test, yes, no = (gen.gen(a, ctx, sc) for a in call.args)
        return f"({yes} if {test} else {no})"

    def kinds(self, call, args: list, pack) -> vk.Kinds:
        return vk.join(args[1], args[2]) if len(args) == 3 else vk.UNKNOWN
