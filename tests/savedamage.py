"""Saves of real games damaged at random, and what becomes of each damaged save.

The tester's way of finding what a loader lets through: take saves of the
shipped games part-way through (`real_saves`), damage one at a time as a file
edited carelessly or on purpose would be (`damage`: a number changed, two
values swapped, a list item deleted or duplicated, a value of another type),
and load each (`fate`). A damaged save may be refused (with a SaveError whose
message is plain words), or load; one that loads must play on to its end with
no exception but a GameFault that says where. One that loads into a state
other than the saved one is *accepted with a different state*: what the
tests count, and `bench/save_damage.py` measures over thousands.
"""
from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass, field

import interpreter
from interpreter.content.folders import shipped_games
from interpreter.engine.savefile import SaveError
from interpreter.engine.state import GameFault

# words of Python, not of a message for people: none may reach one
PYTHON_WORDS = ("Traceback", "KeyError", "TypeError", "IndexError", "AttributeError", "ValueError",
                "RecursionError", "NoneType", "object has no attribute", "not subscriptable", "unhashable",
                "object is not", "internal error", "Error(")
MAX_PLAY_ON = 3000  # decisions a loaded damaged save is played on for, at most


@dataclass
class Saved:
    """A save of a real game: its game, its JSON data, and where it came from."""
    game: object
    data: dict
    name: str


def real_saves(seeds=(1, 2), games=None) -> list[Saved]:
    """Saves of each shipped game (or of `games`), at its fewest and most players, for each
    seed, taken part-way through a game of random choices (from a third to two thirds in)."""
    out = []
    for name in games or shipped_games():
        g = interpreter.load(name)
        for players in sorted({g.min_players, g.max_players}):
            for seed in seeds:
                length = _length(g, players, seed)
                rnd = random.Random(seed)
                st = g.new_state(players=players, seed=seed)
                stop = rnd.randint(length // 3, max(length // 3, 2 * length // 3))
                for _ in range(stop):
                    st.apply(rnd.randrange(len(st.legal_actions())))
                out.append(Saved(g, json.loads(json.dumps(st.to_json())), f"{name}/{players}p/seed {seed}"))
    return out


def _length(g, players: int, seed: int) -> int:
    """How many decisions the game of random choices seeded `seed` lasts."""
    rnd = random.Random(seed)
    st = g.new_state(players=players, seed=seed)
    n = 0
    while not st.is_terminal():
        st.apply(rnd.randrange(len(st.legal_actions())))
        n += 1
    return n


# damages ----------------------------------------------------------------------------------

def _places(v, path=()):
    """(path, value) of every value within `v`, `v` itself aside."""
    if path:
        yield path, v
    if isinstance(v, dict):
        for k, x in v.items():
            yield from _places(x, path + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _places(x, path + (i,))


def _get(data, path):
    for k in path:
        data = data[k]
    return data


def _put(data, path, value) -> None:
    _get(data, path[:-1])[path[-1]] = value


def _other_number(rnd, n):
    return rnd.choice([n + 1, n - 1, 0, -n, n * 2 + 1, rnd.randint(-5, 50), rnd.randint(0, 1 << 64), n + 0.5])


OTHER_TYPES = ("x", 7, 2.5, None, True, [], {})


def damage(data: dict, rnd: random.Random) -> tuple[dict, str]:
    """A copy of `data` with one random damage, and what the damage was (for a failure's message)."""
    d = copy.deepcopy(data)
    places = list(_places(d))
    kind = rnd.choice(("number", "swap", "delete", "duplicate", "type"))
    if kind == "number":
        numbers = [(p, v) for p, v in places if isinstance(v, (int, float)) and not isinstance(v, bool)]
        path, v = rnd.choice(numbers)
        new = _other_number(rnd, v)
        _put(d, path, new)
        return d, f"{_shown(path)}: {v} -> {new}"
    if kind == "swap":
        leaves = [(p, v) for p, v in places if not isinstance(v, (dict, list))]
        (p1, v1), (p2, v2) = rnd.sample(leaves, 2)
        _put(d, p1, v2)
        _put(d, p2, v1)
        return d, f"swapped {_shown(p1)} ({v1!r}) and {_shown(p2)} ({v2!r})"
    lists = [(p, v) for p, v in places if isinstance(v, list) and v]
    if kind in ("delete", "duplicate") and lists:
        path, v = rnd.choice(lists)
        i = rnd.randrange(len(v))
        if kind == "delete":
            del v[i]
            return d, f"deleted {_shown(path + (i,))}"
        v.insert(rnd.randrange(len(v) + 1), copy.deepcopy(v[i]))
        return d, f"duplicated {_shown(path + (i,))}"
    path, v = rnd.choice(places)
    new = rnd.choice([t for t in OTHER_TYPES if type(t) is not type(v)])
    _put(d, path, copy.deepcopy(new))
    return d, f"{_shown(path)}: {type(v).__name__} -> {new!r}"


def _shown(path) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


# fates --------------------------------------------------------------------------------------

@dataclass
class Fates:
    """How many damaged saves came to each fate, and the failures (what no save may do)."""
    unchanged: int = 0  # the damage changed nothing (two equal values swapped...)
    refused: int = 0
    same: int = 0  # loaded into the very state that was saved
    different: int = 0  # loaded into another state: accepted with a different state
    failures: list = field(default_factory=list)
    # those accepted with a different state: (what was damaged, the state loaded and the one
    # saved, as JSON)
    loaded_different: list = field(default_factory=list)

    def tried(self) -> int:
        return self.refused + self.same + self.different


def fate(saved: Saved, damaged: dict, what: str, fates: Fates, rnd: random.Random) -> None:
    """Load `damaged` (a damaged copy of `saved.data`), play it on if it loads, and count it."""
    if damaged == saved.data:
        fates.unchanged += 1
        return
    where = f"{saved.name}, {what}"
    try:
        st = saved.game.state_from_json(damaged)
    except SaveError as exc:
        message = str(exc)
        if exc.field is None or any(w in message for w in PYTHON_WORDS):
            fates.failures.append(f"{where}: refused with an unclear message: {message}")
        fates.refused += 1
        return
    except Exception as exc:  # noqa: BLE001 - what is under test: nothing else may come out
        fates.failures.append(f"{where}: loading raised {type(exc).__name__}: {exc}")
        return
    try:
        loaded = st.to_json()
    except Exception as exc:  # noqa: BLE001
        fates.failures.append(f"{where}: a loaded state cannot be saved again: {type(exc).__name__}: {exc}")
        return
    if loaded == saved.data:
        fates.same += 1
    else:
        fates.different += 1
        fates.loaded_different.append((where, loaded, saved.data))
    problem = play_on(st, rnd)
    if problem:
        fates.failures.append(f"{where}: loaded, then {problem}")


def play_on(st, rnd: random.Random) -> str | None:
    """Play a loaded state on to its end with random choices: None, or what went wrong."""
    try:
        for _ in range(MAX_PLAY_ON):
            if st.is_terminal():
                st.returns()
                st.scores()
                return None
            st.labels()
            for seat in range(st.n):
                st.observation(seat)
            st.apply(rnd.randrange(len(st.legal_actions())))
        return None
    except GameFault as exc:
        if exc.pos is None or any(w in str(exc) for w in PYTHON_WORDS):
            return f"failed with an unlocated or unclear fault: {exc}"
        return None
    except Exception as exc:  # noqa: BLE001 - what is under test
        return f"raised {type(exc).__name__}: {exc}"


def run(saves: list[Saved], count: int, seed: int) -> Fates:
    """`count` damaged saves, each a random one of `saves` with one random damage, drawn from `seed`."""
    rnd = random.Random(seed)
    fates = Fates()
    for _ in range(count):
        saved = rnd.choice(saves)
        damaged, what = damage(saved.data, rnd)
        fate(saved, damaged, what, fates, rnd)
    return fates
