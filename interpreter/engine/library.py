"""The run-time library: what compiled code calls while a game is played.

Value helpers (iteration, numbers, equality, indexing) and the general cases
of reads and statements that the code generator writes inline for the common
ones (`R_zone`, `R_move`...), with the errors they raise. `EXPORTED` is the
one list of what generated code may name, as Jinja's `runtime.exported`: the
namespace every compiled function of a game runs in. The built-in functions
of the language are implemented with their records, in `language.builtins`.
"""
from __future__ import annotations

from ..names import fold
from ..scopes import OwnerKind
from . import machine as vm
from .state import Frame, GameFault, describe
from . import keys
from .events import LOG, REVEAL, ROLL, SET
from ..limits import MAX_LIST, MAX_NUMBER, runaway_message
from .values import Comp, CounterMap, NodeRef, Seat, Team, ZoneRef


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
    raise TypeError(f"{describe(v, st.program)} is not a set of things")


def number(v, pos, said: str | None = None):
    """A value as a whole number; a GameFault at `pos` when it is not one, in the rules' words:
    `said` is the expression as content wrote it, when the compiler knows it. None is no number:
    arithmetic on it stops the game where it is done rather than counting it as 0 unseen."""
    if type(v) is int or type(v) is bool:
        return int(v)
    if isinstance(v, (int, float)) and type(v) not in (Comp, Seat, Team):
        return int(v)
    if said is not None:
        raise GameFault(f"`{said}` is {describe(v)} here, not a number", pos)
    raise GameFault(f"expected a number, got {describe(v)}", pos)


_REFERENCES = (Comp, Seat, Team)


def same(a, b) -> bool:
    """Equality in the rules language: names accent- and case-blind, a component never
    equal to a player or a number, lists equal member by member."""
    ta, tb = type(a), type(b)
    if ta is tb:
        if ta is str:
            return a == b or fold(a) == fold(b)
        if ta is list or ta is tuple:
            return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
        return a == b
    if isinstance(a, str) and isinstance(b, str):
        return a == b or fold(a) == fold(b)
    if ta in _REFERENCES or tb in _REFERENCES or ta is bool or tb is bool:
        return False
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return False


def truth(v) -> bool:
    """A value's truth in the rules: none and false are false, a number is true when it is not
    0, a text or a list when it is not empty, and a player, team, component or node is true
    (a member is a member, whatever its index: player 1 is seat 0, Python's false)."""
    return True if type(v) in _REFERENCES else bool(v)


def index(st, o, k, pos):
    """`o[k]`: a list from 1, a data table by key, a counter kept per pair by its second owner."""
    if type(o) is CounterMap:
        cdef = st.program.counters[o.name]
        return st.counters.get(keys.pair_key(o.name, o.first, k), cdef.initial)
    try:
        if isinstance(o, (list, tuple)):
            return o[k - 1] if isinstance(k, int) and k >= 1 else None
        if isinstance(o, dict):
            return o.get(k, o.get(str(k)))
    except (IndexError, TypeError):
        return None
    raise GameFault(f"cannot index {describe(o, st.program)}", pos)


def iterate_at(st, v, pos):
    """The members of a set-like value, their number taken from the budget of work; a
    GameFault at `pos` when it is not a set, or when the budget runs out."""
    t = type(v)
    if t is list or t is tuple:  # the common cases first, without a further call
        found = v
    elif t is ZoneRef:
        found = st.zones.get(v, ())
    else:
        try:
            found = iterate(st, v)
        except TypeError as exc:
            raise GameFault(str(exc), pos) from None
    st.fuel -= len(found)
    if st.fuel < 0:
        runaway(st, pos)
    return found


def iterate_zone(st, z, pos):
    """`iterate_at` of a value the compiler knows to be a zone (a zone's key): its list, with
    no test of what the value is."""
    found = st.zones.get(z, ())
    st.fuel -= len(found)
    if st.fuel < 0:
        runaway(st, pos)
    return found


def spend(st, work, pos) -> None:
    """Take `work` units from the budget of work (a loop's round, a list being made)."""
    st.fuel -= work
    if st.fuel < 0:
        runaway(st, pos)


def rounds(st, n, pos):
    """The rounds of `repeat N times` run in one go: all of them taken from the budget first."""
    n = number(n, pos)
    if n > 0:
        spend(st, n, pos)
    return range(n)


def bounded(v, pos):
    """A number computed by the rules, refused past the largest a game may keep (interpreter.limits)."""
    if type(v) is int and not -MAX_NUMBER <= v <= MAX_NUMBER:
        raise GameFault(f"a number too large: more than {MAX_NUMBER:,} (a number squared over and over?)", pos)
    return v


def make_list(st, items, pos) -> list:
    """A list the rules make, refused past MAX_LIST members; its size taken from the budget."""
    if len(items) > MAX_LIST:
        raise GameFault(f"a list too long: more than {MAX_LIST:,} members", pos)
    spend(st, len(items), pos)
    return items


def zone_key(st, o, name, team_scoped, pos, said: str | None = None):
    """The zone `name` of owner `o` (`said`: the owner as content wrote it)."""
    if not team_scoped and hashable(o):
        z = st.program.zone_refs.get((name, type(o), o))
        if z is not None:
            return z
    if o is None:
        raise GameFault(f"`{said}` is none here: it has no zone '{name}'" if said else f"'{name}' of none", pos)
    if team_scoped and type(o) is Seat:
        o = st.team_of(o)
    owned_as_declared(st.program.zones[name], "zone", o, pos)
    z = ZoneRef(keys.key(name, o))
    if not team_scoped and hashable(o):
        st.program.zone_refs[(name, type(o), o)] = z  # keys of player, node and component zones, made once
    return z


_OWNER_TYPES = {OwnerKind.PLAYER: Seat, OwnerKind.TEAM: Team, OwnerKind.NODE: NodeRef}  # any other scope: a kind of component
_UNHASHABLE = (list, dict, set)


def hashable(v) -> bool:
    """Whether `v` may be a key of the tables the engine keeps per owner: a list is not (it is
    refused as an owner with the words of the rules, never with Python's)."""
    return not isinstance(v, _UNHASHABLE) and not (type(v) is tuple and not all(map(hashable, v)))


def owned_as_declared(d, what: str, o, pos) -> None:
    """A zone or counter asked of an owner its scope does not have (a player's zone asked of
    a component) is an error, not a new key that no state may hold."""
    if not any(type(o) is _OWNER_TYPES.get(half.kind, Comp) for half in d.scope.halves if not half.is_game):
        raise GameFault(f"{what} '{d.name}' is kept per {' or '.join(d.scope)}, not by {describe(o)}", pos)


def counter_key(st, o, name, team_scoped, pos, said: str | None = None):
    """The key of counter `name` of owner `o` (`said`: the owner as content wrote it)."""
    if team_scoped and type(o) is Seat:
        o = st.team_of(o)
    t = type(o)
    try:
        k = st.program.counter_keys.get((name, t, o))
    except TypeError:  # an owner that cannot be a key (a list): refused below, in the rules' words
        k = None
    if k is None:
        if o is None:
            raise GameFault(f"`{said}` is none here: it has no counter '{name}'" if said else f"counter '{name}' of none",
                            pos)
        owned_as_declared(st.program.counters[name], "counter", o, pos)
        k = keys.key(name, o)
        if t is Comp or t is Seat or t is Team or t is NodeRef:
            st.program.counter_keys[(name, t, o)] = k  # keys of the owners of a game, made once
    return k


_MISSING = object()


def attribute(st, o, name, values, pos, said: str | None = None, promised: bool = False):
    """Attribute `name` of `o` (`said`: the owner as content wrote it). None has no attributes;
    a node lacking one has none, unless the checker promised the compiled code a value of its
    type (a number attribute with a default, which no node of the board has)."""
    t = type(o)
    if t is Comp:
        if st.over:
            v = st.over.get((o, name), _MISSING)
            if v is not _MISSING:
                return v
        return values[o]
    if t is NodeRef:
        v = st.program.nodes[o].get(name)
        if v is None and promised:
            raise GameFault(f"{describe(o, st.program)} has no '{name}': only components have it", pos)
        return v
    if o is None and said is not None:
        raise GameFault(f"`{said}` is none here: it has no '{name}'", pos)
    raise GameFault(f"{describe(o, st.program)} has no attribute '{name}'", pos)


def node_attribute(st, o, name, pos):
    if type(o) is NodeRef:
        return st.program.nodes[o].get(name)
    raise GameFault(f"{describe(o, st.program)} has no attribute '{name}'", pos)


def is_class(st, x, cls):
    if type(x) is not Comp:
        return False
    return cls in st.program.comp_classes[x] or cls in st.tags.get(x, ())


_PAIR_KEYS: dict = {}  # (name, owners and their types) -> key: made once per pair of owners


def pair_key(name, first, second):
    k = (name, type(first), first, type(second), second)
    try:
        return _PAIR_KEYS[k]
    except KeyError:
        pass
    except TypeError:  # an owner that is no key (a list): not kept
        return keys.pair_key(name, first, second)
    made = _PAIR_KEYS[k] = keys.pair_key(name, first, second)
    if len(_PAIR_KEYS) > 100_000:
        _PAIR_KEYS.clear()
    return made


def owners_at(members) -> dict:
    """The owner part of a key (keys.owner_key) -> the indexes of `members` it names: where a
    list kept member by member (compile.kept_lists) finds the members a change marks."""
    at: dict = {}
    for i, x in enumerate(members):
        try:
            at.setdefault(keys.owner_key(x), []).append(i)
        except TypeError:
            continue  # a value that is no key owns no zone or counter
    return at


def move_all(st, w, z, bottom, pos):
    """Move a list or zone of components (one component is moved by st.move itself)."""
    if isinstance(w, (list, tuple)) or type(w) is ZoneRef:
        st.move_many(list(iterate(st, w)), z, bottom, pos)
    else:
        st.move(w, z, bottom, pos)


def cannot_pay(st, fr, key, cdef, n, pos):
    vm.fail(st, fr, f"cannot pay {n} {cdef.name}: only {st.counters.get(key, cdef.initial)}", pos)


def score(st, key, cdef, amount, pos, c):
    given = st.add(key, cdef, amount, pos, "score")
    if given and type(c) is Comp:
        # who brought the points to whom: designers read these per card, per family of cards...
        st.credit[(c, key)] = st.credit.get((c, key), 0) + given


def set_attribute(st, o, name, v, canon, pos):
    if type(o) is not Comp:
        raise GameFault(f"cannot set '{name}' of {describe(o, st.program)}", pos)
    if canon == "number":
        v = bounded(number(v, pos), pos)  # a number attribute stays a number
    elif canon is not None and type(v) is str:
        v = canon.get(fold(v), v)  # a class keeps its declared spelling
    st.over[(o, name)] = v
    st.vo += 1
    if st.mark_log is not None:
        st.mark_log.append(o)
    st.emit(SET, pos, card=st.program.comp_card[o].id, id=o, attribute=name, value=vm.plain(v))


def too_deep(pos):
    raise GameFault(f"procedures call each other too deeply (more than {vm.MAX_DEPTH} levels)", pos)


def runaway(st, pos):
    raise GameFault(runaway_message(st.program.step_budget), pos)


def roll(st, n, k, pos):
    if k < 1:
        raise GameFault("dice need at least one side", pos)
    if n > MAX_LIST:
        raise GameFault(f"too many dice: {n:,} (at most {MAX_LIST:,})", pos)
    spend(st, max(0, n), pos)
    result = tuple(1 + st.rng.below(k) for _ in range(max(0, n)))
    st.emit(ROLL, pos, dice=list(result))
    return result


def member(st, x, s, pos):
    if s is None:
        return False
    try:
        return x in iterate(st, s)
    except TypeError as exc:
        raise GameFault(str(exc), pos) from None


_SEQUENCES = (list, tuple, ZoneRef)


def plus(st, a, b, pos, left: str | None = None, right: str | None = None):
    """Numbers add up; lists and zones join into one list. `left` and `right` are the two
    sides as content wrote them, for the message when one is not a number."""
    if type(a) is int and type(b) is int:
        return a + b
    if isinstance(a, _SEQUENCES) and isinstance(b, _SEQUENCES):
        first, second = iterate(st, a), iterate(st, b)
        if len(first) + len(second) > MAX_LIST:
            raise GameFault(f"a list too long: more than {MAX_LIST:,} members", pos)
        spend(st, len(first) + len(second), pos)
        return list(first) + list(second)
    return number(a, pos, left) + number(b, pos, right)


def divide(a, b, floor, pos):
    if b == 0:
        raise GameFault("division by zero", pos)
    return a // b if floor else a % b


def teams(st):
    return tuple(Team(i) for i in range(len(st.program.teams_for(st.n))))


# What generated code may name, besides the constants each game adds (see compile.expressions).
EXPORTED = {
    "__builtins__": {"len": len, "bool": bool, "tuple": tuple, "list": list, "type": type,
                     "KeyError": KeyError, "TypeError": TypeError, "range": range,
                     "any": any, "all": all, "next": next, "sum": sum, "str": str, "set": set, "zip": zip, "int": int},
    "R_it": iterate_at, "R_itz": iterate_zone,
    "R_num": number, "R_same": same, "R_index": index, "R_zone": zone_key, "R_ckey": counter_key,
    "R_attr": attribute, "R_node_attr": node_attribute, "R_is": is_class, "R_member": member, "R_plus": plus,
    "R_div": divide, "R_teams": teams, "R_pkey": pair_key, "R_owners": owners_at, "R_move": move_all,
    "R_cannot_pay": cannot_pay, "R_score": score, "R_set_attr": set_attribute, "R_roll": roll,
    "R_truth": truth, "R_runaway": runaway, "R_spend": spend, "R_rounds": rounds, "R_big": bounded, "R_too_deep": too_deep, "R_cmap": CounterMap,
    "Frame": Frame, "Comp": Comp, "Seat": Seat, "Team": Team, "NodeRef": NodeRef, "vm": vm,
    "EV_REVEAL": REVEAL, "EV_LOG": LOG,  # the events generated code emits (engine.events)
}
