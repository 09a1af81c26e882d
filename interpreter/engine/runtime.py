"""The run-time helpers the generated code names (`R_zone`, `R_move`...), and the
namespace it runs in: the general cases of reads and statements that `pygen`
and `compiler` write inline for the common ones, with the errors they raise.
"""
from __future__ import annotations

from . import machine as vm
from ..names import fold
from .state import Frame, GameFault, describe
from .values import Comp, CounterMap, NodeRef, Seat, Team, ZoneRef, owner_key


def _zone(st, o, name, team_scoped, pos):
    if not team_scoped:
        z = st.g.zone_refs.get((name, type(o), o))
        if z is not None:
            return z
    if o is None:
        raise GameFault(f"'{name}' of none", pos)
    if team_scoped and type(o) is Seat:
        o = st.team_of(o)
    z = ZoneRef(f"{name}#{owner_key(o)}")
    if not team_scoped:
        st.g.zone_refs[(name, type(o), o)] = z  # keys of player, node and component zones, made once
    return z


def _ckey(st, o, name, team_scoped, pos):
    if team_scoped and type(o) is Seat:
        o = st.team_of(o)
    t = type(o)
    k = st.g.counter_keys.get((name, t, o))
    if k is None:
        if o is None:
            raise GameFault(f"counter '{name}' of none", pos)
        k = f"{name}#{owner_key(o)}"
        if t is Comp or t is Seat or t is Team or t is NodeRef:
            st.g.counter_keys[(name, t, o)] = k  # keys of the owners of a game, made once
    return k


_MISSING = object()


def _attr(st, o, name, values, pos):
    t = type(o)
    if t is Comp:
        if st.over:
            v = st.over.get((o, name), _MISSING)
            if v is not _MISSING:
                return v
        return values[o]
    if t is NodeRef:
        return st.g.nodes[o].get(name)
    if o is None:
        return None
    raise GameFault(f"{describe(o)} has no attribute '{name}'", pos)


def _node_attr(st, o, name, pos):
    if type(o) is NodeRef:
        return st.g.nodes[o].get(name)
    raise GameFault(f"{describe(o)} has no attribute '{name}'", pos)


def _is(st, x, cls):
    if type(x) is not Comp:
        return False
    return cls in st.g.comp_classes[x] or cls in st.tags.get(x, ())


def _pair(st, name, first, second, initial):
    return st.counters.get(_pkey(name, first, second), initial)


_PAIR_KEYS: dict = {}  # (name, owners and their types) -> key: made once per pair of owners


def _pkey(name, first, second):
    k = (name, type(first), first, type(second), second)
    try:
        return _PAIR_KEYS[k]
    except KeyError:
        pass
    except TypeError:  # an owner that is no key (a list): not kept
        return f"{name}#{owner_key(first)}#{owner_key(second)}"
    key = _PAIR_KEYS[k] = f"{name}#{owner_key(first)}#{owner_key(second)}"
    if len(_PAIR_KEYS) > 100_000:
        _PAIR_KEYS.clear()
    return key


def _move(st, w, z, bottom, pos):
    """Move a list or zone of components (one component is moved by st.move itself)."""
    if isinstance(w, (list, tuple)) or type(w) is ZoneRef:
        from .library import iterate
        st.move_many(list(iterate(st, w)), z, bottom, pos)
    else:
        st.move(w, z, bottom, pos)


def _cannot_pay(st, fr, key, cdef, n, pos):
    vm.fail(st, fr, f"cannot pay {n} {cdef.name}: only {st.counters.get(key, cdef.initial)}", pos)


def _score(st, key, cdef, amount, pos, c):
    given = st.add(key, cdef, amount, pos, "score")
    if given and type(c) is Comp:
        # who brought the points to whom: designers read these per card, per caste...
        st.credit[(c, key)] = st.credit.get((c, key), 0) + given


def _set_attr(st, o, name, v, canon, pos):
    if type(o) is not Comp:
        raise GameFault(f"cannot set '{name}' of {describe(o)}", pos)
    if canon == "number":
        from .library import _num
        v = _num(v, pos)  # a number attribute stays a number
    elif canon is not None and type(v) is str:
        v = canon.get(fold(v), v)  # a class keeps its declared spelling
    st.over[(o, name)] = v
    st.vo += 1
    st.emit("set", pos, card=st.g.comp_card[o].id, id=o, attribute=name, value=vm.plain(v))


def _too_deep(pos):
    raise GameFault(f"procedures call each other too deeply (more than {vm.MAX_DEPTH} levels)", pos)


def _runaway(pos):
    raise GameFault("runaway rules: a loop ran more than the step budget without a decision "
                    "(an endless loop?)", pos)


def _roll(st, n, k, pos):
    if k < 1:
        raise GameFault("dice need at least one side", pos)
    result = tuple(1 + st.rng.below(k) for _ in range(max(0, n)))
    st.emit("roll", pos, dice=list(result))
    return result


def _member(st, x, s, pos):
    if s is None:
        return False
    from .library import iterate
    try:
        return x in iterate(st, s)
    except TypeError as exc:
        raise GameFault(str(exc), pos) from None


_SEQUENCES = (list, tuple, ZoneRef)


def _plus(st, a, b, pos):
    """Numbers add up; lists and zones join into one list."""
    if type(a) is int and type(b) is int:
        return a + b
    if isinstance(a, _SEQUENCES) and isinstance(b, _SEQUENCES):
        from .library import iterate
        return list(iterate(st, a)) + list(iterate(st, b))
    from .library import _num
    return _num(a, pos) + _num(b, pos)


def _div(a, b, floor, pos):
    if b == 0:
        raise GameFault("division by zero", pos)
    return a // b if floor else a % b


def _teams(st):
    return tuple(Team(i) for i in range(len(st.g.teams_for(st.n))))


def base_namespace() -> dict:
    from .library import _iter, _num, _same
    return {
        "__builtins__": {"len": len, "bool": bool, "tuple": tuple, "list": list, "type": type,
                         "KeyError": KeyError, "TypeError": TypeError, "range": range,
                         "any": any, "all": all, "next": next, "sum": sum, "str": str},
        "R_it": _iter, "R_num": _num, "R_same": _same, "R_zone": _zone, "R_ckey": _ckey, "R_attr": _attr,
        "R_node_attr": _node_attr, "R_is": _is, "R_member": _member, "R_plus": _plus, "R_div": _div,
        "R_teams": _teams, "R_pair": _pair, "R_pkey": _pkey, "R_move": _move, "R_cannot_pay": _cannot_pay,
        "R_score": _score, "R_set_attr": _set_attr, "R_roll": _roll, "R_runaway": _runaway, "R_too_deep": _too_deep, "Frame": Frame, "Comp": Comp, "Seat": Seat, "Team": Team, "NodeRef": NodeRef, "R_cmap": CounterMap, "R_index": None, "vm": vm,
    }
