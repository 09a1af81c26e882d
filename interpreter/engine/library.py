"""The run-time library of the rules language: what its functions and properties do.

Each built-in function of `builtins.FUNCTIONS` has its implementation here
(`_FUNCS`), and each property of `builtins.PROPERTIES` too (`_PROPERTIES`), with
the value helpers the compiled code calls: numbers, equality, iteration,
indexing. They are generic: sets, numbers, players, graphs.
"""
from __future__ import annotations

from . import machine as vm
from ..language.builtins import FUNCTIONS
from ..names import fold
from .state import GameFault, describe
from .values import Comp, CounterMap, NodeRef, Seat, Team, ZoneRef, owner_key

_MISSING = object()


def iterate(st, v):
    """The members of a set-like value, as a list or tuple."""
    if v is None:
        return ()
    t = type(v)
    if t is ZoneRef:
        return st.zones.get(v, ())
    if t is list or t is tuple:
        return v
    if t is Comp or t is Seat or t is NodeRef or t is Team:
        return (v,)
    raise TypeError(f"{describe(v)} is not a set of things")


def _num(v, pos):
    if type(v) is int or type(v) is bool:
        return int(v)
    if isinstance(v, (int, float)) and type(v) not in (Comp, Seat, Team):
        return int(v)
    if v is None:
        return 0
    raise GameFault(f"expected a number, got {describe(v)}", pos)


_REFERENCES = (Comp, Seat, Team)


def _same(a, b) -> bool:
    """Equality in the rules language: names accent- and case-blind, a component never
    equal to a player or a number, lists equal member by member."""
    ta, tb = type(a), type(b)
    if ta is tb:
        if ta is str:
            return a == b or fold(a) == fold(b)
        if ta is list or ta is tuple:
            return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
        return a == b
    if isinstance(a, str) and isinstance(b, str):
        return a == b or fold(a) == fold(b)
    if ta in _REFERENCES or tb in _REFERENCES or ta is bool or tb is bool:
        return False
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return False


def _index(st, o, k, pos):
    if type(o) is CounterMap:
        cdef = st.g.defn.counters[o.name]
        return st.counters.get(f"{o.name}#{owner_key(o.first)}#{owner_key(k)}", cdef.initial)
    try:
        if isinstance(o, (list, tuple)):
            return o[k - 1] if isinstance(k, int) and k >= 1 else None
        if isinstance(o, dict):
            return o.get(k, o.get(str(k)))
    except (IndexError, TypeError):
        return None
    raise GameFault(f"cannot index {describe(o)}", pos)


def _iter(st, v, pos):
    t = type(v)
    if t is list or t is tuple:  # the common cases first, without a further call
        return v
    if t is ZoneRef:
        return st.zones.get(v, ())
    try:
        return iterate(st, v)
    except TypeError as exc:
        raise GameFault(str(exc), pos) from None


# properties and builtin functions -------------------------------------------------

def _prop_id(st, o, pos):
    if type(o) is Comp:
        return st.g.comp_card[o].id
    return str(o) if o is not None else None


def _prop_title(st, o, pos):
    if type(o) is Comp:
        return st.g.comp_card[o].title
    return vm.label_of(st, o)


def _prop_kind(st, o, pos):
    if type(o) is Comp:
        return st.g.comp_card[o].component
    if type(o) is NodeRef:
        return st.g.nodes[o].get("kind")
    return None


def _prop_zone(st, o, pos):
    if type(o) is Comp:
        return st.where[o]
    raise GameFault(f"{describe(o)} lies in no zone", pos)


def _prop_size(st, o, pos):
    return len(iterate(st, o))


_PROPERTIES = {
    "id": _prop_id,
    "title": _prop_title,
    "kind": _prop_kind,
    "zone": _prop_zone,
    "owner": lambda st, o, pos: vm.owner(st, o),
    "controller": lambda st, o, pos: vm.controller(st, o),
    "tapped": lambda st, o, pos: o in st.tapped,
    "tags": lambda st, o, pos: list(st.tags.get(o, ())),
    "seat": lambda st, o, pos: int(o) + 1 if type(o) is Seat else None,
    "team": lambda st, o, pos: st.team_of(o) if type(o) is Seat else None,
    "neighbors": lambda st, o, pos: _neighbors(st, o),
    "size": _prop_size,
}


def _numbers(st, pos, v):
    return [_num(x, pos) for x in iterate(st, v)]


def _f_max(st, pos, a, b=_MISSING):
    if b is not _MISSING:
        return max(_num(a, pos), _num(b, pos))
    xs = _numbers(st, pos, a)
    return max(xs) if xs else 0


def _f_min(st, pos, a, b=_MISSING):
    if b is not _MISSING:
        return min(_num(a, pos), _num(b, pos))
    xs = _numbers(st, pos, a)
    return min(xs) if xs else 0


def _f_top(st, pos, z, n=_MISSING):
    items = _iter(st, z, pos)
    if n is _MISSING:
        return items[-1] if items else None
    k = _num(n, pos)
    return list(reversed(items[-k:])) if k > 0 else []


def _f_bottom(st, pos, z, n=_MISSING):
    items = _iter(st, z, pos)
    if n is _MISSING:
        return items[0] if items else None
    k = _num(n, pos)
    return list(items[:k]) if k > 0 else []


def _player(v, pos) -> Seat:
    if type(v) is not Seat:
        raise GameFault(f"expected a player, got {describe(v)}", pos)
    return v


def _f_next(st, pos, p, k=1):
    return Seat((int(_player(p, pos)) + _num(k, pos)) % st.n)


def _f_previous(st, pos, p, k=1):
    return Seat((int(_player(p, pos)) - _num(k, pos)) % st.n)


def _f_partners(st, pos, p):
    t = st.team_of(_player(p, pos))
    return [q for q in st.g.seats[st.n] if st.team_of(q) == t and q != p]


def _f_opponents(st, pos, p):
    t = st.team_of(_player(p, pos))
    return [q for q in st.g.seats[st.n] if st.team_of(q) != t]


def _f_members(st, pos, t):
    if type(t) is Seat:
        t = st.team_of(t)
    return [q for q in st.g.seats[st.n] if st.team_of(q) == t]


def _f_node(st, pos, key):
    k = str(key)
    if k not in st.g.nodes:
        raise GameFault(f"no board node '{k}'", pos)
    return NodeRef(k)


def _neighbors(st, n) -> tuple:
    found = st.g.node_lists.get(("neighbors", n))  # boards never change: made once per node
    if found is None:
        found = st.g.node_lists[("neighbors", n)] = tuple(NodeRef(x) for x in st.g.adj.get(n, ()))
    return found


def _f_nodes(st, pos, kind=_MISSING):
    cached = type(kind) is str or kind is _MISSING
    found = st.g.node_lists.get(kind) if cached else None  # boards never change: each list is made once
    if found is None:
        if kind is _MISSING:
            found = tuple(NodeRef(k) for k in st.g.nodes)
        else:
            found = tuple(NodeRef(k) for k, v in st.g.nodes.items() if _same(v.get("kind"), kind))
        if cached:
            st.g.node_lists[kind] = found
    return found


def _f_random(st, pos, s):
    items = _iter(st, s, pos)
    if not items:
        return None
    return items[st.rng.below(len(items))]


def _sort_key(v):
    if isinstance(v, (list, tuple)):
        return tuple(_sort_key(x) for x in v)
    if v is None:
        return (0, 0)
    if isinstance(v, (int, float)):
        return (1, v)
    return (2, str(v))


def _f_sorted(st, pos, s, keys=_MISSING):
    items = list(_iter(st, s, pos))
    if keys is _MISSING:
        return sorted(items, key=_sort_key)
    ks = list(_iter(st, keys, pos))
    if len(ks) != len(items):
        raise GameFault("sorted(): the list of keys must be as long as the list", pos)
    order = sorted(range(len(items)), key=lambda i: (_sort_key(ks[i]), i))
    return [items[i] for i in order]


def _f_most(st, pos, s):
    counts: dict = {}
    for x in _iter(st, s, pos):
        counts[x] = counts.get(x, 0) + 1
    if not counts:
        return None
    best = max(counts.values())
    top = [k for k, v in counts.items() if v == best]
    return top[0] if len(top) == 1 else None


def _f_has(st, pos, c, name):
    if type(c) is not Comp:
        return False
    key = fold(str(name))
    canon = st.g.defn.classes.get(key)
    key = fold(canon[1]) if canon else key
    return key in st.g.comp_classes[c] or key in st.tags.get(c, ())


def _f_range(st, pos, a, b=_MISSING):
    if b is _MISSING:
        return list(range(1, _num(a, pos) + 1))
    return list(range(_num(a, pos), _num(b, pos) + 1))


def _f_cards(st, pos, key):
    found = st.g.cards_by_id.get(fold(str(key)))
    if not found:
        raise GameFault(f"no card with id '{key}'", pos)
    return found


def _f_distinct(st, pos, s):
    out = []
    for x in _iter(st, s, pos):
        if x not in out:
            out.append(x)
    return out


_FUNCS = {
    "count": lambda st, pos, s: len(_iter(st, s, pos)),
    "sum": lambda st, pos, s: sum(_numbers(st, pos, s)),
    "max": _f_max,
    "min": _f_min,
    "any": lambda st, pos, s: any(_iter(st, s, pos)),
    "all": lambda st, pos, s: all(_iter(st, s, pos)),
    "first": lambda st, pos, s: (lambda xs: xs[0] if xs else None)(_iter(st, s, pos)),
    "last": lambda st, pos, s: (lambda xs: xs[-1] if xs else None)(_iter(st, s, pos)),
    "top": _f_top,
    "bottom": _f_bottom,
    "abs": lambda st, pos, v: abs(_num(v, pos)),
    "next": _f_next,
    "previous": _f_previous,
    "partners": _f_partners,
    "opponents": _f_opponents,
    "team": lambda st, pos, p: st.team_of(_player(p, pos)),
    "members": _f_members,
    "seat": lambda st, pos, p: int(p) + 1 if type(p) is Team else int(_player(p, pos)) + 1,
    "node": _f_node,
    "nodes": _f_nodes,
    "neighbors": lambda st, pos, n: _neighbors(st, str(n)),
    "linked": lambda st, pos, a, b: str(b) in st.g.adj.get(str(a), ()),
    "zone_of": lambda st, pos, c: st.where[c] if type(c) is Comp else None,
    "holder": lambda st, pos, c: vm.holder(st, c),
    "owner": lambda st, pos, c: vm.owner(st, c),
    "controller": lambda st, pos, c: vm.controller(st, c),
    "option": lambda st, pos, name: st.options.get(str(name)),
    "random": _f_random,
    "sorted": _f_sorted,
    "reversed": lambda st, pos, s: list(reversed(list(_iter(st, s, pos)))),
    "distinct": _f_distinct,
    "most": _f_most,
    "tapped": lambda st, pos, c: c in st.tapped,
    "has": _f_has,
    "label": lambda st, pos, v: vm.label_of(st, v),
    "range": _f_range,
    "in_play": lambda st, pos, p=None: vm.in_play(st, p),
    "supply": lambda st, pos, name: st.counters.get("$" + str(name), 0),
    "card": lambda st, pos, key: _f_cards(st, pos, key)[0],
    "cards": lambda st, pos, key: _f_cards(st, pos, key),
    "select": None,  # compiled specially: only the chosen branch is evaluated
}

assert set(_FUNCS) == set(FUNCTIONS), set(_FUNCS) ^ set(FUNCTIONS)
