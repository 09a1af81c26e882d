"""Codes compiled when they first run (`compile.assemble`): a game just loaded has compiled
few of its codes, a stub plays exactly as the function it is replaced by (the fenced
comparison of the lazy path with the compiled one), and a code never run is never compiled.
(Every code now compiles when first run: the tests of errors and their lines in
test_compiled_code.py run through the stubs.)"""
from __future__ import annotations

import random

import pytest

import interpreter
import interpreter.compile.kept as K
from interpreter.content.folders import shipped_games


@pytest.fixture
def fresh(monkeypatch):
    """Loads that compile anew: no program kept in memory by an earlier test."""
    monkeypatch.setattr(K.KEPT, "enabled", False)


def _play(game, players: int, seed: int) -> list:
    st = game.new_state(players, seed, trace=True)
    rng = random.Random(seed)
    while not st.is_terminal() and len(st.history) < 400:
        st.apply(rng.randrange(len(st.legal_actions())))
    return st.trace


@pytest.mark.parametrize("game_id", shipped_games())
def test_stubs_play_as_the_compiled_functions(game_id, fresh):
    game = interpreter.load(game_id)
    codes = game.program.codes.values()
    pending = {c.name for c in codes if c.pending is not None}
    assert pending, "a game just loaded has codes left to compile"
    players = game.min_players
    lazy = [_play(game, players, seed) for seed in range(3)]  # each code compiled when reached
    ran = pending - {c.name for c in codes if c.pending is not None}
    assert ran, "the games compiled the codes they ran"
    for c in codes:
        c.ready()
    assert all(c.pending is None for c in codes)
    compiled = [_play(game, players, seed) for seed in range(3)]  # every code compiled before
    assert compiled == lazy and all(len(t) > 50 for t in lazy)


def test_a_code_never_run_is_never_compiled(fresh):
    game = interpreter.load("seeders-exodus")
    _play(game, 4, 1)
    left = [c for c in game.program.codes.values() if c.pending is not None]
    # a Seeders game plays a few of its cards: the abilities of the others wait
    assert any(c.name.startswith("card:") for c in left)
    for c in left:
        assert any(getattr(op, "__name__", "") == "op" for op in c.ops)  # still the stubs


def test_games_in_threads_compile_each_code_once_and_play_as_alone(fresh):
    """Games of one program run in threads (as the web server's may) reach the same stubs at once."""
    from concurrent.futures import ThreadPoolExecutor

    import interpreter.compile.assemble as A

    runs = []
    make = A._function

    def counted(filename, text, first, end, ns, store, name):
        runs.append((filename, name))
        return make(filename, text, first, end, ns, store, name)

    A._function = counted
    try:
        game = interpreter.load("karman-swap")
        with ThreadPoolExecutor(4) as pool:
            threaded = list(pool.map(lambda seed: _play(game, 4, seed), range(8)))
    finally:
        A._function = make
    assert len(runs) == len(set(runs)) > 0, "each operation compiled once"
    assert threaded == [_play(game, 4, seed) for seed in range(8)]


def test_a_code_python_refuses_is_a_fault_of_the_game_at_its_line(tmp_path, monkeypatch, fresh):
    """Were the engine to write source Python refuses, the game would stop with a fault where the
    code starts (its trace kept), as any fault of the engine, rather than with Python's error."""
    import interpreter.compile.assemble as A
    from gamekit import make_game, source_line
    from interpreter.engine.state import GameFault

    source = A._source

    def broken(code):
        text, line_pos, spans = source(code)
        for _first, end in spans.values():
            text[end - 1] += " (:"  # each function's last line, broken
        return text, line_pos, spans

    monkeypatch.setattr(A, "_source", broken)
    game = make_game(tmp_path, "game: |\n  add 1 to ticks\n")
    with pytest.raises(GameFault) as err:
        game.new_state(players=2, seed=3, trace=True)
    assert "the engine cannot compile proc:game (SyntaxError" in err.value.message
    assert source_line(err.value.pos).strip() == "add 1 to ticks"


def test_only_the_operations_the_machine_dispatches_are_compiled(tmp_path, fresh):
    """A straight run of statements is dispatched once per `MAX_RUN` of them (each function runs
    the ones after it inline): only those functions are compiled, not one per statement, so
    that a procedure of 20,000 statements compiles 1,250 functions, not 20,000 of 16 each."""
    import interpreter.compile.assemble as A
    from gamekit import make_game

    made = []
    make = A._function

    def counted(filename, text, first, end, ns, store, name):
        made.append((filename, name))
        return make(filename, text, first, end, ns, store, name)

    game = make_game(tmp_path, "game: |\n" + "  add 1 to ticks\n" * 200)
    A._function = counted
    try:
        st = game.new_state(players=2, seed=1)
    finally:
        A._function = make
    assert st.is_terminal() and st.counters["ticks"] == 200
    ran = [name for filename, name in made if filename == "<code proc:game>"]
    assert ran == [f"op_{i}" for i in range(0, 200, A.MAX_RUN)]
