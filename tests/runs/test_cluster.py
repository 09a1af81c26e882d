"""`simulate --cluster` and `compare --cluster`: the games played by the workers of a Dask
cluster give the same results as in one process; a missing Dask or an unreachable scheduler
is said in one line."""
from __future__ import annotations

import json
import sys

import pytest

import interpreter
from interpreter.runs import cluster
from interpreter.runs import simulate as S
from interpreter.cli import main
from interpreter.runs.report_text import comparable

from gamekit import FIXTURES

pytest.importorskip("distributed")


def run_cli(capsys, *args):
    status = main(list(args))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


def test_the_games_come_back_in_game_order_as_one_process_plays_them(tmp_path):
    game = interpreter.load(str(FIXTURES / "envoys"))
    spec = S.RunSpec(str(FIXTURES / "envoys"), 3, 11, 30, ["greedy", "random", "random"], game.options(),
                     check=True, trace_dir=str(tmp_path))
    alone = S.run(game, spec).results
    with cluster.connect("local", 2) as c:
        assert c.workers() == 2
        done = []
        on_dask = S.run(game, spec, cluster=c, progress=done.append)
    assert not on_dask.interrupted and sum(done) == 30
    assert [r.index for r in on_dask.results] == list(range(30))
    assert on_dask.results == alone  # every field of every game: seeds, winners, scores, decisions, credits
    assert len({tuple(r.scores) for r in alone}) > 1


def test_a_local_cluster_gives_the_results_of_one_process(tmp_path, capsys):
    envoys = str(FIXTURES / "envoys")
    common = ["simulate", envoys, "-n", "3", "--games", "24", "--seed", "5", "--agents", "greedy,random,random",
              "--check", "-q", "--trace-dir", str(tmp_path / "traces")]
    status, _, err = run_cli(capsys, *common, "--json", str(tmp_path / "one.json"))
    assert status == 0, err
    status, _, err = run_cli(capsys, *common, "--json", str(tmp_path / "dask.json"), "--cluster", "local",
                             "--workers", "2")
    assert status == 0, err
    one = json.loads((tmp_path / "one.json").read_text(encoding="utf-8"))
    on_dask = json.loads((tmp_path / "dask.json").read_text(encoding="utf-8"))
    assert one["completed"] == 24 and one["wins"] != [0, 0, 0]
    assert comparable(on_dask) == comparable(one)


def test_compare_on_a_local_cluster_pairs_the_same_games(tmp_path, capsys):
    nim = str(FIXTURES / "nim")
    common = ["compare", nim, "--without", "gold-stone", "--games", "16", "--agents", "greedy,random", "-q"]
    status, _, err = run_cli(capsys, *common, "--json", str(tmp_path / "one.json"))
    assert status == 0, err
    status, _, err = run_cli(capsys, *common, "--json", str(tmp_path / "dask.json"), "--cluster", "local",
                             "--workers", "2")
    assert status == 0, err
    one = json.loads((tmp_path / "one.json").read_text(encoding="utf-8"))
    on_dask = json.loads((tmp_path / "dask.json").read_text(encoding="utf-8"))
    assert one["pairs"] == 16
    one.pop("elapsed"), on_dask.pop("elapsed")
    assert on_dask == one


def test_an_unreachable_scheduler_is_said_in_a_line():
    with pytest.raises(cluster.ClusterError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9: ") as e:
        cluster.connect("tcp://127.0.0.1:9", timeout=0.5)
    assert not e.value.usage
    assert "dask worker tcp://127.0.0.1:9" in str(e.value)


def test_an_address_that_is_none_is_a_usage_error(capsys):
    status, _, err = run_cli(capsys, "simulate", str(FIXTURES / "nim"), "--games", "2", "--cluster", "ftp://x")
    assert status == 2
    assert "--cluster ftp://x: unknown address scheme 'ftp'" in err


def test_without_dask_the_extra_is_named(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` fails as if not installed
    status, _, err = run_cli(capsys, "simulate", str(FIXTURES / "nim"), "--games", "2", "--cluster", "local")
    assert status == 2
    assert "--cluster needs Dask's distributed scheduler: pip install 'regles[cluster]'" in err
