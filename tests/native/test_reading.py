"""A native state read as the Python backend's (`NativeState.as_python_state`): at every decision
of random games, the same zones, places, counters, taps, tags, attributes, winners and decision
(its seat, kind, place and options, each of its kind and value) as the state the Python backend
reaches with the same choices; and so the same observation vector and numbers of options for
every seat (`rl.encoding`, `rl.actions`)."""
from __future__ import annotations

import random

import pytest

import interpreter
from gamekit import FIXTURES
from interpreter.engine.state import GameFault

native = pytest.importorskip("interpreter.native")
pytest.importorskip("cffi")
if native.compiler() is None:
    pytest.skip("no C compiler on this machine: the Python backend runs every game", allow_module_level=True)

GAMES = ["karman-swap", "etherium", "seeders-exodus"] + \
    [str(FIXTURES / name) for name in ("nim", "bids", "envoys", "robots", "workshop")]


def _data(st) -> dict:
    """What a reader of a state's data reads of it, in plain values with their kinds."""
    d = st.pending
    decision = None
    if d is not None:
        decision = (int(d.player), d.kind, str(d.pos), [(type(e).__name__, [(type(v).__name__, v) for v in e])
                                                          for e in d.entries])
    return {"zones": [(str(k), [int(c) for c in v]) for k, v in st.zones.items()],
            "where": [None if z is None else str(z) for z in st.where],
            "counters": dict(st.counters), "tapped": sorted(int(c) for c in st.tapped),
            "tags": {int(c): t for c, t in st.tags.items()},
            "over": {(int(c), n): (type(v).__name__, v) for (c, n), v in st.over.items()},
            "winners": st.winners, "decision": decision}


def read_alike(game, compiled, players: int, seed: int, vectors=None) -> int:
    """One random game on both backends, the native state read at every decision and compared
    with the Python backend's; the decisions compared. `vectors`: (Encoding, ActionMap) of the
    game, whose vectors and numbers are compared too."""
    a = game.new_state(players=players, seed=seed)
    b = compiled.new_state(players=players, seed=seed)
    rng = random.Random(seed)
    decisions = 0
    while True:
        read = b.as_python_state()
        assert _data(read) == _data(a), f"seed {seed}, decision {decisions}"
        if vectors is not None:
            enc, actions = vectors
            for seat in range(players):
                assert enc.encode(read, seat).tolist() == enc.encode(a, seat).tolist(), (seed, decisions, seat)
            assert actions.numbers(read) == actions.numbers(a)
        if a.is_terminal():
            assert b.is_terminal()
            return decisions
        pick = rng.randrange(len(a.legal_actions()))
        a.apply(pick)
        b.apply(pick)
        decisions += 1


def _vectors(game, players: int):
    pytest.importorskip("numpy")
    from interpreter.rl import ActionMap, Encoding
    return Encoding(game.program, players), ActionMap(game.program, players)


@pytest.mark.parametrize("where", GAMES)
def test_a_native_state_reads_as_the_python_backends_at_every_decision(where):
    game = interpreter.load(where)
    compiled = native.NativeGame(game)
    shipped = "/" not in where
    decisions = 0
    for players in range(game.min_players, min(game.max_players, 4) + 1):
        vectors = _vectors(game, players) if shipped else None
        for seed in range(2 if shipped else 5):
            decisions += read_alike(game, compiled, players, seed, vectors)
    assert decisions > 20


@pytest.mark.parametrize("layers", [(["solo"], None), (["tais"], None), (["hanks"], None)],
                         ids=["solo", "tais", "hanks"])
def test_a_native_state_of_a_layered_game_reads_as_the_python_backends(layers):
    """Seeders with its solo mode (an automaton, a seat of its own) and with expansions that add
    zones, counters and cards that change hands."""
    game = interpreter.load("seeders-exodus").with_layers(layers[0], layers[1], None)
    compiled = native.NativeGame(game)
    players = max(game.min_players, 2)
    for seed in range(2):
        assert read_alike(game, compiled, players, seed, _vectors(game, players)) > 20


def test_a_read_decision_has_no_labels_and_says_where_to_find_them():
    """The prompt and labels of a decision are rendered by the Python backend's frames, which a
    native state does not have: asking for them says so rather than inventing them."""
    game = interpreter.load("karman-swap")
    st = native.NativeGame(game).new_state(players=2, seed=3).as_python_state()
    assert st.pending.entries
    with pytest.raises(GameFault, match="rendered by the Python backend's frames"):
        st.pending.labels_for(st)


def test_a_counter_changed_and_back_to_its_start_is_still_held():
    """The Python backend's state holds a counter from its first change on, even once it is back
    at its initial value; the native state remembers which counters changed, so its reading
    holds the same keys (an observation lists the counters held)."""
    game = interpreter.load("karman-swap")
    compiled = native.NativeGame(game)
    a = game.new_state(players=3, seed=5)
    b = compiled.new_state(players=3, seed=5)
    rng = random.Random(5)
    back = set()
    start = dict(a.counters)
    seen: dict = {}
    while not a.is_terminal():
        pick = rng.randrange(len(a.legal_actions()))
        a.apply(pick)
        b.apply(pick)
        for key, v in a.counters.items():
            if key not in start and v != 0:
                seen[key] = v
            elif key in seen and v == 0:
                back.add(key)
        assert set(b.as_python_state().counters) == set(a.counters)
    assert back  # the game has such counters, so the test tells something


@pytest.mark.parametrize("where", ["karman-swap", "etherium", "seeders-exodus"])
def test_a_native_state_saves_and_is_observed_as_the_python_backends(where, tmp_path):
    """Its observation (with the prompt and labels of the decision), its JSON and its save are
    the Python backend's, whose history is this game's: a save of a native game loads into the
    Python backend at the same state."""
    game = interpreter.load(where)
    compiled = native.NativeGame(game)
    a = game.new_state(players=3, seed=4)
    b = compiled.new_state(players=3, seed=4)
    rng = random.Random(4)
    for step in range(45):
        if a.is_terminal():
            break
        if step % 15 == 0:
            assert b.to_json() == a.to_json()
            assert [b.observation(s) for s in range(3)] == [a.observation(s) for s in range(3)]
            copy = b.clone()
        pick = rng.randrange(len(a.legal_actions()))
        a.apply(pick)
        b.apply(pick)
    b.save(tmp_path / "native.json")
    loaded = game.load_state(tmp_path / "native.json")
    assert loaded.to_json() == a.to_json() and loaded.history == a.history
    # a copy made earlier keeps its own history, and its own reference
    assert copy.to_json()["history"] == a.history[:len(copy.history)] and len(copy.history) < len(a.history)


def test_a_game_played_on_in_c_has_no_reference_and_says_why():
    """`random_play` picks in C and keeps no history: no state of the Python backend is claimed
    for the game it played."""
    compiled = native.NativeGame(interpreter.load("karman-swap"))
    st = compiled.new_state(players=2, seed=9)
    st.random_play([1, 2])
    with pytest.raises(GameFault, match=r"random_play\), whose picks are not kept: 0 of its \d+ decisions"):
        st.to_json()
