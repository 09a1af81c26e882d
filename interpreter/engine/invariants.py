"""Generic invariants of any game, checked after every step with `--check`.

- every component placed at the start is in exactly one zone, and the
  state's index of where each component lies agrees with the zones;
- no counter below its floor (`min`, default 0) or above its ceiling (`max`);
- limited supplies never negative, and conserved: for a counter with a
  numeric `supply`, the counters drawing on it (itself and those naming it
  as their `supply`) plus what is left in the supply always add up to what
  they added up to when the game began;
- the game ends within a bound of decisions (`did not end`).

    checker = Invariants(state)      # right after new_state
    checker.check(state)             # after each apply; raises InvariantError
"""
from __future__ import annotations

from . import keys
from .state import Frame

MAX_DECISIONS = 20_000


class InvariantError(Exception):
    """A state broke an invariant of every game."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def check_bound(state, max_decisions: int) -> None:
    """The game must end within a bound of decisions."""
    if len(state.history) > max_decisions:
        raise InvariantError(f"did not end: more than {max_decisions} decisions")


class Invariants:
    def __init__(self, state, max_decisions: int = MAX_DECISIONS):
        program = state.program
        self.max_decisions = max_decisions
        self.placed = [c for c, z in enumerate(state.where) if z is not None]
        self._info: dict = {}
        self.n_comps = len(program.comps)
        counters = program.counters
        # supply name -> (counter names drawing on it)
        self.supplies: dict[str, list] = {}
        for name, cdef in counters.items():
            if cdef.supply is None:
                continue
            root = cdef.supply if isinstance(cdef.supply, str) else name
            self.supplies.setdefault(root, []).append(name)
        self.supplies = {k: v for k, v in self.supplies.items()
                         if k in counters and isinstance(counters[k].supply, int)}
        self.totals = {root: self._total(state, root, names) for root, names in self.supplies.items()}
        self.notes = []  # not errors: facts of the start worth telling a designer
        for root, total in self.totals.items():
            if total != counters[root].supply:
                self.notes.append(f"the supply of {root} is {counters[root].supply}, but {total} exist at the "
                                  f"start (initial values are not taken from the supply)")
        self.check(state)

    @staticmethod
    def _total(state, root, names) -> int:
        names = set(names)
        total = state.counters.get(keys.supply_key(root), 0)
        for key, v in state.counters.items():
            if not keys.is_supply(key) and keys.name_of(key) in names:
                total += v
        return total

    def check(self, state) -> None:
        self.check_components(state)
        self.check_counters(state)
        self.check_declared(state)
        check_bound(state, self.max_decisions)

    def check_declared(self, state) -> None:
        """The invariants the game file declares (`invariants:`), as conditions."""
        for text, test in state.program.invariants:
            if not test(state, Frame(None, 0, {}, None, None)):
                where = getattr(text, "pos", None)
                raise InvariantError(f"the game's invariant '{text}'" + (f" ({where})" if where else "")
                                     + " does not hold")

    def check_components(self, state) -> None:
        # fast path: each component listed in a zone is indexed there, and there are as many
        # listings as indexed components (a copy or a loss breaks one or the other)
        where = state.where
        total = 0
        try:
            for key, comps in state.zones.items():
                for c in comps:
                    if where[c] != key:
                        break
                else:
                    total += len(comps)
                    continue
                break
            else:
                if total == len(where) - where.count(None) and all(where[c] is not None for c in self.placed):
                    return
        except (IndexError, TypeError):
            pass
        self._explain_components(state)
        raise InvariantError("the components are not where the state says they are")

    def _explain_components(self, state) -> None:
        where = state.where
        seen: dict[int, str] = {}
        for key, comps in state.zones.items():
            for c in comps:
                c = int(c)
                if not 0 <= c < self.n_comps:
                    raise InvariantError(f"zone {key} holds {c}, which is no component")
                if c in seen:
                    other = seen[c]
                    raise InvariantError(f"component {c} ({state.program.comp_card[c].id}) is in two places: "
                                         + (f"zone {key} twice" if other == key else f"zones {other} and {key}"))
                seen[c] = key
                if where[c] != key:
                    raise InvariantError(f"component {c} ({state.program.comp_card[c].id}) lies in zone {key} "
                                         f"but the state says it is in {where[c] or 'no zone'}")
        for c in self.placed:
            if c not in seen:
                raise InvariantError(f"component {c} ({state.program.comp_card[c].id}) is in no zone "
                                     f"(the state says {where[c] or 'no zone'})")
        for c, z in enumerate(where):
            if z is not None and c not in seen:
                raise InvariantError(f"component {c} ({state.program.comp_card[c].id}) is said to be in {z} "
                                     f"but is not there")

    def _key_info(self, state, key):
        """(floor, ceiling, supply root or None) of a counter key; None for a supply key."""
        if keys.is_supply(key):
            return None
        cdef = state.program.counters.get(keys.name_of(key))
        if cdef is None:
            raise InvariantError(f"counter {key} is of no declared counter")
        root = None
        for r, names in self.supplies.items():
            if cdef.name in names:
                root = r
        info = (cdef.minimum if cdef.minimum is not None else 0, cdef.maximum, root)
        self._info[key] = info
        return info

    def check_counters(self, state) -> None:
        totals = dict.fromkeys(self.supplies, 0)
        info_of = self._info
        for key, v in state.counters.items():
            info = info_of.get(key)
            if info is None:
                info = self._key_info(state, key)
                if info is None:  # what is left of a supply
                    if v < 0:
                        raise InvariantError(f"the supply of {keys.supply_of(key)} is negative: {v}")
                    if keys.supply_of(key) in totals:
                        totals[keys.supply_of(key)] += v
                    continue
            floor, ceiling, root = info
            if type(v) is not int:
                raise InvariantError(f"counter {key} holds {v!r}, not a whole number")
            if v < floor:
                raise InvariantError(f"counter {key} is {v}, below its floor {floor}")
            if ceiling is not None and v > ceiling:
                raise InvariantError(f"counter {key} is {v}, above its ceiling {ceiling}")
            if root is not None:
                totals[root] += v
        for root, total in totals.items():
            if total != self.totals[root]:
                drawn = " and ".join(sorted(self.supplies[root]))
                raise InvariantError(f"the supply of {root} is not conserved: {drawn} with what is left "
                                     f"add up to {total}, not {self.totals[root]}")
