"""Traces as JSON lines: a game is replayed from its content, seed and choices,
event for event, and any difference fails loudly (exit status 1)."""
from __future__ import annotations

import json
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest

import interpreter
from interpreter.tools.agents import RandomAgent, SeatView
from interpreter.tools.cli import main
from interpreter.tools.trace import read_trace, replay, save_state_trace, source_of

from gamekit import FIXTURES


@lru_cache(maxsize=None)
def game(name: str):
    return interpreter.load(str(FIXTURES / name))


def played(name, players, seed, options=None):
    g = game(name)
    st = g.new_state(players=players, seed=seed, options=options, trace=True)
    agents = [RandomAgent(seed * 10 + i) for i in range(players)]
    while not st.is_terminal():
        st.apply(agents[st.current_player].act(SeatView(st, st.current_player)))
    return g, st


def saved(tmp_path, name="envoys", players=4, seed=3, options=None):
    g, st = played(name, players, seed, options)
    path = save_state_trace(tmp_path / "game.jsonl", g, st, agents=["random"] * players, source=source_of(g))
    return path, st


def rewrite(path, header=None, event=None):
    lines = Path(path).read_text().splitlines()
    if header:
        h = json.loads(lines[0])
        header(h)
        lines[0] = json.dumps(h)
    if event:
        k, change = event
        ev = json.loads(lines[1 + k])
        change(ev)
        lines[1 + k] = json.dumps(ev)
    Path(path).write_text("\n".join(lines) + "\n")


def run_replay(path, capsys):
    status = replay(path)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


def test_trace_format(tmp_path):
    path, st = saved(tmp_path)
    header, events = read_trace(path)
    assert header["regles_trace"] == 1 and header["game"] == "envoys" and header["players"] == 4
    assert header["seed"] == 3 and header["options"] == {"hand_size": 3}
    assert header["choices"] == st.history and header["agents"] == ["random"] * 4
    assert header["result"]["finished"] is True and header["events"] == len(events) == len(st.trace)
    assert [e["n"] for e in events] == list(range(len(events)))
    kinds = {e["type"] for e in events}
    assert {"start", "move", "counter", "choice", "shuffle"} <= kinds
    for e in events:
        if e["type"] != "start":
            assert e["at"].startswith("envoys/") and e["at"].rsplit(":", 1)[1].isdigit(), e


def test_auto_choices_are_in_the_trace_not_in_the_choices(tmp_path):
    path, st = saved(tmp_path, "nim", 2, 5)
    header, events = read_trace(path)
    choices = [e for e in events if e["type"] == "choice"]
    auto = [e for e in choices if e["auto"]]
    assert len(header["choices"]) == len(choices) - len(auto)


@pytest.mark.parametrize("name,players,seed", [("envoys", 4, 3), ("envoys", 2, 8), ("nim", 2, 5),
                                               ("docs-game", 3, 2)])
def test_replay_is_identical(tmp_path, capsys, name, players, seed):
    path, st = saved(tmp_path, name, players, seed)
    status, out, err = run_replay(path, capsys)
    assert status == 0, err
    assert out.strip() == f"replayed {len(st.trace)} events, identical"


def test_replay_from_another_directory(tmp_path, capsys, monkeypatch):
    path, st = saved(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    status, out, err = run_replay(path, capsys)
    assert status == 0, err


def test_a_changed_event_fails_loudly(tmp_path, capsys):
    path, st = saved(tmp_path)
    k = next(i for i, e in enumerate(st.trace) if e["type"] == "counter")
    rewrite(path, event=(k, lambda e: e.update(value=e["value"] + 1)))
    status, out, err = run_replay(path, capsys)
    assert status == 1
    assert f"event {k} differs" in err and "expected:" in err and "got:" in err


def test_a_changed_choice_fails_loudly(tmp_path, capsys):
    path, st = saved(tmp_path)
    header, events = read_trace(path)
    i = next(i for i, c in enumerate(header["choices"]) if c > 0)

    def change(h):
        h["choices"][i] = 0
    rewrite(path, header=change)
    status, out, err = run_replay(path, capsys)
    assert status == 1 and "differs" in err


def test_a_changed_seed_fails_loudly(tmp_path, capsys):
    path, st = saved(tmp_path)
    rewrite(path, header=lambda h: h.update(seed=h["seed"] + 1))
    status, out, err = run_replay(path, capsys)
    assert status == 1 and "event 0 differs" in err


def test_missing_and_extra_events(tmp_path, capsys):
    path, st = saved(tmp_path)
    lines = Path(path).read_text().splitlines()
    Path(path).write_text("\n".join(lines[:-1]) + "\n")
    status, out, err = run_replay(path, capsys)
    assert status == 1 and f"event {len(lines) - 2} differs" in err and "nothing (the trace ends here)" in err
    Path(path).write_text("\n".join(lines + [lines[-1]]) + "\n")
    status, out, err = run_replay(path, capsys)
    assert status == 1 and "the replayed game produced no more events" in err


def test_an_impossible_choice_fails_loudly(tmp_path, capsys):
    path, st = saved(tmp_path)
    rewrite(path, header=lambda h: h.update(choices=h["choices"][:1] + [99] + h["choices"][2:]))
    status, out, err = run_replay(path, capsys)
    assert status == 1 and "choice 2 of" in err and "is not an option here" in err


@pytest.mark.parametrize("text,message", [("", "empty file"), ("{]\n", "not a trace header"),
                                          ('{"a": 1}\n', "not a regles trace"),
                                          ('{"regles_trace": 1, "game": "nim"}\n', "no valid \"players\"")])
def test_not_a_trace(tmp_path, capsys, text, message):
    p = tmp_path / "t.jsonl"
    p.write_text(text)
    status, out, err = run_replay(p, capsys)
    assert status == 1 and message in err


def test_replay_of_a_failed_game_reproduces_the_fault(tmp_path, capsys):
    from interpreter.tools import simulate as S
    g = game("broken")
    sp = S.RunSpec(str(FIXTURES / "broken"), 2, 4, 3, ["random", "random"], g.options({"mode": "fault"}),
                   trace_dir=str(tmp_path))
    results, _ = S.run(g, sp)
    traces = [r.error["trace"] for r in results if r.error]
    assert traces
    status, out, err = run_replay(traces[0], capsys)
    assert status == 0, err
    assert "identical; the game fails as recorded:" in out and "exploded in turn" in out
    rewrite(traces[0], header=lambda h: h["error"].update(message="broken/game.yaml:1:1: something else"))
    status, out, err = run_replay(traces[0], capsys)
    assert status == 1 and "fails differently" in err


def test_replay_command(tmp_path):
    path, st = saved(tmp_path, "nim", 2, 4)
    ok = subprocess.run([sys.executable, "-m", "interpreter", "replay", str(path)], capture_output=True,
                        text=True, cwd=tmp_path)
    assert ok.returncode == 0 and "identical" in ok.stdout, ok.stderr
    rewrite(path, event=(2, lambda e: e.update(type="tampered")))
    bad = subprocess.run([sys.executable, "-m", "interpreter", "replay", str(path)], capture_output=True,
                         text=True, cwd=tmp_path)
    assert bad.returncode == 1 and "event 2 differs" in bad.stderr and "Traceback" not in bad.stderr


def test_replay_command_usage(capsys, tmp_path):
    assert main(["replay", str(tmp_path / "missing.jsonl")]) == 2
    assert "no such trace file" in capsys.readouterr().err
