"""`regles simulate` on the native backend: the same results as the Python backend, whichever
plays, with any number of workers; the report says which backend played, and why not the
native one when it could not."""
from __future__ import annotations

import sys

import pytest

import interpreter
from gamekit import FIXTURES, game_folder
from interpreter.cli import main
from interpreter.runs import simulate as S

native = pytest.importorskip("interpreter.native")
pytest.importorskip("cffi")
if native.compiler() is None:
    pytest.skip("no C compiler on this machine: the Python backend runs every game", allow_module_level=True)


@pytest.fixture(scope="module")
def karman():
    return interpreter.load("karman-swap")


def _spec(game, backend, players=4, games=40, agents=None, **kw):
    return S.RunSpec("karman-swap", players, 11, games, agents or ["random"] * players, {}, backend=backend, **kw)


def _results(run) -> list:
    return [(r.index, r.seed, r.winners, r.scores, r.decisions, r.standings, r.error) for r in run.results]


@pytest.mark.parametrize("players", [2, 4])
def test_a_run_on_the_native_backend_gives_the_python_backends_results(karman, players):
    python = S.run(karman, _spec(karman, "python", players))
    compiled = S.run(karman, _spec(karman, "native", players))
    assert S.backend_for(karman, _spec(karman, "native", players))[0] is not None
    assert _results(compiled) == _results(python)
    assert len({tuple(r.scores) for r in compiled.results}) > 5  # games that differ, not one game forty times


@pytest.mark.parametrize("gid,layers,players,options", [
    ("karman-swap", None, 3, {}), ("seeders-exodus", None, 4, {}), ("etherium", None, 4, {}),
    ("seeders-exodus", ["solo"], 2, {"level": "hard"})], ids=["karman-swap", "seeders", "etherium", "solo"])
def test_the_facts_of_results_and_cards_are_those_of_the_python_backend(gid, layers, players, options):
    """--results and --cards play natively: the C tells the recorder what each decision picked
    and moved, and the seats' scores, and the facts of each game are the Python backend's."""
    game = interpreter.load(gid)
    if layers:
        game = game.with_layers(layers, None, None)
    runs = {}
    for backend in ("python", "native"):
        spec = S.RunSpec(gid, players, 5, 8, ["random"] * players, options, backend=backend, record=True)
        runs[backend] = [(r.winners, r.scores, r.decisions, r.credits, r.facts, r.error, r.in_python)
                         for r in S.run(game, spec).results]
    assert S.backend_for(game, spec)[0] is not None
    assert runs["native"] == runs["python"]
    rows = [row for r in runs["native"] for row in r[4]["cards"]]
    assert any(row[3] for row in rows) and any(row[5] or row[8] for row in rows)  # taken; played or kept in hand
    assert all(r[4]["first_seat"] is not None for r in runs["native"])


def test_workers_do_not_change_a_native_run(karman):
    one = S.run(karman, _spec(karman, "native"))
    two = S.run(karman, _spec(karman, "native"), workers=2)
    assert _results(two) == _results(one)


def test_what_the_native_backend_does_not_play_goes_to_python_and_the_report_says_why(karman):
    native_game, words = S.backend_for(karman, _spec(karman, "auto", agents=["greedy", "random", "random", "random"]))
    assert native_game is None and words == "Python backend (the native backend plays random agents only)"
    native_game, words = S.backend_for(karman, _spec(karman, "python"))
    assert native_game is None and "--backend python" in words
    native_game, words = S.backend_for(karman, _spec(karman, "auto", check=True))
    assert native_game is None and "--check" in words
    native_game, words = S.backend_for(karman, _spec(karman, "auto"))
    assert native_game is not None and words.startswith("native backend")


def test_the_report_names_the_backend_and_native_alone_is_refused_when_it_cannot_play(capsys):
    assert main(["simulate", "karman-swap", "--players", "2", "--games", "5", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "played by the native backend (the rules in C" in out
    status = main(["simulate", "karman-swap", "--players", "2", "--games", "5", "--agents", "greedy",
                   "--backend", "native", "--quiet"])
    err = capsys.readouterr().err
    assert status == 2
    assert "--backend native: the games would be played by the Python backend (the native backend plays random" in err


def test_a_first_run_says_that_it_compiles_the_rules_and_a_later_one_does_not(tmp_path, monkeypatch, capsys):
    from interpreter.native import build
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # nothing kept from an earlier build
    monkeypatch.setattr(build, "_LOADED", {})
    monkeypatch.setattr(S, "_NATIVE", {})
    said = []
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # said to a person at a terminal, as the progress bar
    for _ in range(2):
        assert main(["simulate", str(FIXTURES / "nim"), "--players", "2", "--games", "3"]) == 0
        said.append(capsys.readouterr().err)
    assert "compiling the rules of nim to C for the native backend (once: the library is kept)" in said[0]
    assert "compiling" not in said[1] and "playing 3 games of nim" in said[1]
    assert list((tmp_path / "regles" / "native").glob("game-*.so"))
    # balance, compare and tune play through the same run, and say it the same way
    monkeypatch.setattr(build, "_LOADED", {})
    monkeypatch.setattr(S, "_NATIVE", {})
    for lib in (tmp_path / "regles" / "native").glob("game-*.so"):
        lib.unlink()
    main(["balance", str(FIXTURES / "nim"), "--players", "2", "--games", "3", "--write-baseline",
          str(tmp_path / "base.json")])
    assert "compiling the rules of nim to C" in capsys.readouterr().err


def test_a_failed_native_game_is_recorded_as_the_python_backend_records_it(tmp_path):
    folder = game_folder(tmp_path, "loops", game_yaml="""\
kind: game
id: loops
title: Loops
players: {min: 2, max: 2}
counters:
  ticks: {scope: game}
procedures:
  game: |
    choose by first(players) "Now?":
      option "Wait":
        pass
      option "Loop":
        repeat:
          choose by next(first(players)) "Again?":
            option "Again":
              add 1 to ticks
            option "Once more":
              add 2 to ticks
    win first(players)
""")
    game = interpreter.load(str(folder))
    runs = {}
    for backend in ("native", "python"):
        spec = S.RunSpec(str(folder), 2, 3, 12, ["random", "random"], {}, max_decisions=30,
                         trace_dir=str(tmp_path / backend), backend=backend)
        runs[backend] = S.run(game, spec)
    assert S.backend_for(game, spec)[0] is None  # the spec above asked for python last
    faulty = [r for r in runs["native"].results if r.error is not None]
    assert 0 < len(faulty) < 12
    for a, b in zip(runs["native"].results, runs["python"].results, strict=True):
        assert (a.error is None) == (b.error is None)
        if a.error is None:
            assert (a.winners, a.scores, a.decisions) == (b.winners, b.scores, b.decisions)
        else:
            assert a.error["message"] == b.error["message"] == "did not end: more than 30 decisions"
            assert a.error["trace"] is not None and open(a.error["trace"], encoding="utf-8").read() == \
                open(b.error["trace"], encoding="utf-8").read()
