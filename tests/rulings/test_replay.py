"""Traces as JSON lines: a game is replayed from its content, seed and choices,
event for event, and any difference fails loudly (exit status 1)."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest

import interpreter
from interpreter.play.agents import RandomAgent, SeatView
from interpreter.cli import main
from interpreter.engine.savefile import SaveError
from interpreter.rulings.trace import (TraceDiffers, TraceError, read_trace, replay, save_state_trace, source_of,
                                     verify_trace)

from gamekit import FIXTURES, ROOT


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
    assert header["regles_trace"] == 2 and header["game"] == "envoys" and header["players"] == 4
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


def test_a_game_with_an_expansion_replays_from_another_directory(tmp_path, capsys, monkeypatch):
    # the expansion's folder was given relative to where the game was played
    monkeypatch.chdir(ROOT)
    g = interpreter.load("seeders-exodus", expansions=["solo"])
    st = g.new_state(2, seed=4, options=g.options({"level": "hard"}), trace=True)
    agent = RandomAgent(4)
    while not st.is_terminal():
        st.apply(agent.act(SeatView(st, st.current_player)))
    path = save_state_trace(tmp_path / "solo.jsonl", g, st, agents=["random"], source=source_of(g, "seeders-exodus"))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    status, out, err = run_replay(path, capsys)
    assert status == 0, err
    assert "identical" in out


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
    n = len(lines) - 1
    Path(path).write_text("\n".join(lines[:-1]) + "\n")  # cut short: the header says how many there were
    status, out, err = run_replay(path, capsys)
    assert status == 1
    assert f":1: events: the header announces {n} events, the file holds {n - 1} (is it cut short?)" in err
    rewrite(path, header=lambda h: h.update(events=n - 1))  # the count mended: the events are compared
    status, out, err = run_replay(path, capsys)
    assert status == 1 and f"event {n - 1} differs" in err and "nothing (the trace ends here)" in err
    Path(path).write_text("\n".join(lines + [lines[-1]]) + "\n")
    rewrite(path, header=lambda h: h.update(events=n + 1))
    status, out, err = run_replay(path, capsys)
    assert status == 1 and "the replayed game produced no more events" in err


def test_an_impossible_choice_fails_loudly(tmp_path, capsys):
    path, st = saved(tmp_path)
    rewrite(path, header=lambda h: h.update(choices=h["choices"][:1] + [99] + h["choices"][2:]))
    status, out, err = run_replay(path, capsys)
    assert status == 1 and "choice 2 of" in err and "is not an option here" in err


@pytest.mark.parametrize("text,message", [("", "empty file"), ("{]\n", "not a trace header"),
                                          ('{"a": 1}\n', "not a regles trace"),
                                          ('{"regles_trace": 1, "game": "nim"}\n', "regles_trace: is 1: this version of "
                                           "regles replays traces of format 2 only"),
                                          ('{"regles_trace": 2, "game": "nim"}\n', ":1: regles: is missing")])
def test_not_a_trace(tmp_path, capsys, text, message):
    p = tmp_path / "t.jsonl"
    p.write_text(text)
    status, out, err = run_replay(p, capsys)
    assert status == 1 and message in err


def test_replay_of_a_failed_game_reproduces_the_fault(tmp_path, capsys):
    from interpreter.runs import simulate as S
    g = game("broken")
    sp = S.RunSpec(str(FIXTURES / "broken"), 2, 4, 3, ["random", "random"], g.options({"mode": "fault"}),
                   trace_dir=str(tmp_path))
    results, _ = S.run(g, sp)
    traces = [r.error["trace"] for r in results if r.error]
    assert traces
    status, out, err = run_replay(traces[0], capsys)
    assert status == 0, err
    assert "identical; the game fails as recorded:" in out and "exploded in turn" in out
    recorded = read_trace(traces[0])[0]["result"]
    assert verify_trace(traces[0]) == recorded and recorded["finished"] is False
    rewrite(traces[0], header=lambda h: h["error"].update(message="broken/game.yaml:1:1: something else"))
    status, out, err = run_replay(traces[0], capsys)
    assert status == 1 and "fails differently" in err


# the recorded result: checked, never trusted ------------------------------------------------

@pytest.mark.parametrize("change,message", [
    (lambda r: r.update(winners=[1, 3]), "recorded winners [1, 3], replayed [2, 4]"),
    (lambda r: r.update(winners=None), "recorded winners null, replayed [2, 4]"),
    (lambda r: r.update(scores=[7, 14, 7, 15]), "recorded scores [7, 14, 7, 15], replayed [7, 14, 7, 14]"),
    (lambda r: r.update(scores=[7, 14, 7]), "recorded scores [7, 14, 7], replayed [7, 14, 7, 14]"),
    (lambda r: r.update(finished=False), "recorded finished false, replayed true"),
    (lambda r: r.update(winners=[1, 3], scores=[14, 7, 14, 7]),
     "recorded winners [1, 3], replayed [2, 4]; recorded scores [14, 7, 14, 7], replayed [7, 14, 7, 14]"),
], ids=["other winners", "no winners", "a score", "a score left out", "not finished", "winners and scores"])
def test_a_rewritten_result_fails_naming_what_differs(tmp_path, capsys, change, message):
    """Every event may be as recorded and the result rewritten: the replayed result is
    compared with the recorded one, and the difference said in one line."""
    path, st = saved(tmp_path)
    assert read_trace(path)[0]["result"] == {"finished": True, "winners": [2, 4], "scores": [7, 14, 7, 14]}
    rewrite(path, header=lambda h: change(h["result"]))
    status, out, err = run_replay(path, capsys)
    assert status == 1 and out == ""
    assert err == f"regles replay: {path}:1: result: {message}\n"


def test_a_rewritten_result_fails_from_the_command(tmp_path):
    path, st = saved(tmp_path, "nim", 2, 5)
    rewrite(path, header=lambda h: h["result"].update(winners=[2], scores=[4, 6]))
    bad = regles("replay", str(path), cwd=tmp_path)
    assert bad.returncode == 1 and bad.stdout == ""
    assert bad.stderr.strip() == (f"regles replay: {path}:1: result: recorded winners [2], replayed [1]; "
                                  f"recorded scores [4, 6], replayed [6, 4]")


def test_verify_trace_gives_the_replayed_result_and_prints_nothing(tmp_path, capsys):
    path, st = saved(tmp_path)
    assert verify_trace(path) == {"finished": True, "winners": [2, 4], "scores": [7, 14, 7, 14]}
    assert capsys.readouterr() == ("", "")


@pytest.mark.parametrize("rewriting,kind,field,message", [
    (lambda p: rewrite(p, header=lambda h: h["result"].update(winners=[1])), TraceDiffers, "result",
     "recorded winners [1], replayed [2, 4]"),
    (lambda p: rewrite(p, event=(3, lambda e: e.update(at="tampered.yaml:1"))), TraceDiffers, None, "event 3 differs"),
    (lambda p: rewrite(p, header=lambda h: h.update(choices=h["choices"][:-1])), TraceDiffers, None,
     "event "),
    (lambda p: rewrite(p, header=lambda h: h.update(players="four")), TraceError, "players",
     "must be a whole number, not a text"),
    (lambda p: rewrite(p, header=lambda h: h["options"].update(hand_size=7)), TraceError, "options.hand_size",
     "is 7: it must be one of 2, 3"),
    (lambda p: p.write_text("not a trace\n"), TraceError, None, "not a trace header"),
    (lambda p: rewrite(p, header=lambda h: h.update(game="nowhere", source=None)), TraceError, "game",
     "cannot be loaded: nowhere:1:1: error[F001]: no such game"),
], ids=["result", "an event", "a choice left out", "a header field", "an option", "no trace", "no such game"])
def test_verify_trace_raises_saying_why(tmp_path, capsys, rewriting, kind, field, message):
    path, st = saved(tmp_path)
    rewriting(path)
    with pytest.raises(TraceError) as err:
        verify_trace(path)
    assert type(err.value) is kind and err.value.field == field and message in err.value.message
    assert str(err.value).startswith(str(path)) and "\n" not in str(err.value)
    assert capsys.readouterr() == ("", "")


def test_verify_trace_finds_the_game_as_it_is_told(tmp_path):
    """The web server finds a trace's game among those it serves, never at a path a file names."""
    path, st = saved(tmp_path)
    asked = []

    def served_only(header):
        asked.append(header["game"])
        raise ValueError(f"no game '{header['game']}' is served here")
    with pytest.raises(TraceError) as err:
        verify_trace(path, game_of=served_only)
    assert asked == ["envoys"] and err.value.field == "game"
    assert str(err.value) == f"{path}:1: game: cannot be loaded: no game 'envoys' is served here"
    assert verify_trace(path, game_of=lambda header: game("envoys"))["winners"] == [2, 4]


def regles(*args, cwd):
    """The regles command of this checkout, run in folder `cwd`."""
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-m", "interpreter", *args], capture_output=True, text=True, cwd=cwd,
                          env=env)


def test_replay_command(tmp_path):
    path, st = saved(tmp_path, "nim", 2, 4)
    ok = regles("replay", str(path), cwd=tmp_path)
    assert ok.returncode == 0 and "identical" in ok.stdout, ok.stderr
    rewrite(path, event=(2, lambda e: e.update(at="tampered.yaml:1")))
    bad = regles("replay", str(path), cwd=tmp_path)
    assert bad.returncode == 1 and "event 2 differs" in bad.stderr and "Traceback" not in bad.stderr


def test_replay_command_usage(capsys, tmp_path):
    assert main(["replay", str(tmp_path / "missing.jsonl")]) == 2
    assert "no such trace file" in capsys.readouterr().err


# corrupt traces: refused with the file, the line and the field, exit status 1 -----------------

def replay_command(path, capsys):
    """`regles replay PATH` run in this process: its status and what it said on stderr."""
    status = main(["replay", str(path)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and "internal error" not in out + err
    return status, err


def _setter(path, value):
    def change(h):
        *head, last = path
        for k in head:
            h = h[k]
        h[last] = value
    return change


def _deleter(key):
    return lambda h: h.pop(key)


HEADER_CORRUPTIONS = [
    ("format as text", _setter(["regles_trace"], "2"), "regles_trace: is '2': this version of regles replays traces"),
    ("game as number", _setter(["game"], 3), "game: must be a text, not a whole number"),
    ("other game", _setter(["game"], "nowhere"), "game: is 'nowhere', but the game found is envoys"),
    ("no such game", lambda h: h.update(game="nowhere", source=None), None),  # the loader says so
    ("no players", _deleter("players"), "players: is missing"),
    ("players as text", _setter(["players"], "4"), "players: must be a whole number, not a text"),
    ("players as bool", _setter(["players"], True), "players: must be a whole number, not true or false"),
    ("players out of range", _setter(["players"], 9), "players: is 9: it must be from 2 to 4 (players of envoys)"),
    ("huge players", _setter(["players"], 10 ** 50), "players: is a number of about 51 digits"),
    ("seed as fraction", _setter(["seed"], 3.5), "seed: must be a whole number, not a number with a fraction"),
    ("options as list", _setter(["options"], [3]), "options: must be a mapping, not a list"),
    ("unknown option", _setter(["options", "speed"], 2), "options.speed: is no field of it"),
    ("option out of values", _setter(["options", "hand_size"], 7), "options.hand_size: is 7: it must be one of 2, 3"),
    ("agents as text", _setter(["agents"], "random"), "agents: must be a list, not a text"),
    ("check as text", _setter(["check"], "yes"), "check: must be true or false, not a text"),
    ("choices as object", _setter(["choices"], {}), "choices: must be a list, not a mapping"),
    ("negative choice", _setter(["choices", 0], -1), "choices[0]: is -1: it must be at least 0"),
    ("choice as text", _setter(["choices", 1], "2"), "choices[1]: must be a whole number (an option's number)"),
    ("events as text", _setter(["events"], "many"), "events: must be a whole number, not a text"),
    ("no fingerprint", _deleter("fingerprint"), "fingerprint: is missing"),
    ("fingerprint as text", _setter(["fingerprint"], "abc"), "fingerprint: must be a mapping, not a text"),
    ("other content", _setter(["fingerprint", "content"], "0" * 64),
     "fingerprint.content: this trace was recorded under other rules of envoys"),
    ("result as text", _setter(["result"], "won"), "result: must be a mapping, not a text"),
    ("result without scores", lambda h: h["result"].pop("scores"), "result.scores: is missing"),
    ("winners as text", _setter(["result", "winners"], "1"), "result.winners: must be a list, not a text"),
    ("error as list", _setter(["error"], ["boom"]), "error: must be a mapping, not a list"),
    ("error without message", _setter(["error"], {"type": "GameFault"}), "error.message: is missing"),
    ("bound of zero", _setter(["max_decisions"], 0), "max_decisions: is 0: it must be at least 1"),
    ("source as number", _setter(["source"], 5), "source: must be a text, not a whole number"),
    ("extra field", _setter(["cheat"], True), "cheat: is no field of it"),
]


@pytest.mark.parametrize("name,change,message", HEADER_CORRUPTIONS, ids=[c[0] for c in HEADER_CORRUPTIONS])
def test_a_corrupt_header_is_refused_naming_the_field(tmp_path, capsys, name, change, message):
    path, st = saved(tmp_path)
    rewrite(path, header=change)
    status, err = replay_command(path, capsys)
    assert status == 1
    if message is None:
        assert "nowhere:1:1: error[F001]: no such game" in err
    else:
        assert f"regles replay: error: {path}:1: {message}" in err


EVENT_CORRUPTIONS = [
    ("not a mapping", lambda line: "[1, 2]", "an event must be a mapping, not a list"),
    ("n as text", lambda line: line.replace('"n": 3', '"n": "3"'), "n: must be a whole number, not a text"),
    ("type as number", lambda line: line.replace('"type": "', '"type": 5, "x": "'), "type: must be a text"),
    ("at as list", lambda line: line[:-1] + ', "at": [1]}', "at: must be a text, not a list"),
    ("no such type", lambda line: re.sub(r'"type": "\w+"', '"type": "teleport"', line),
     "type: is 'teleport': no kind of event (kinds: start, move,"),
    ("a field of no event", lambda line: line[:-1] + ', "cheat": 1}', "cheat: is no field of "),
    ("a field left out", lambda line: json.dumps({"n": 3, "type": "roll"}), "dice: is missing: 'roll' events have it"),
    ("truncated", lambda line: line[: len(line) // 2], "not a JSON event: not valid JSON"),
    ("deeply nested", lambda line: "[" * 50_000 + "]" * 50_000,
     "not a JSON event: not readable: JSON nested too deeply"),
    ("huge number", lambda line: '{"n": ' + "9" * 5000 + "}", "not a JSON event: not readable: Exceeds the limit"),
    ("infinity", lambda line: '{"n": 3, "type": "move", "x": Infinity}',
     "not a JSON event: not readable: Infinity is no number"),
]


@pytest.mark.parametrize("name,change,message", EVENT_CORRUPTIONS, ids=[c[0] for c in EVENT_CORRUPTIONS])
def test_a_corrupt_event_is_refused_naming_its_line(tmp_path, capsys, name, change, message):
    path, st = saved(tmp_path)
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[4])["n"] == 3
    lines[4] = change(lines[4])
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
    status, err = replay_command(path, capsys)
    assert status == 1 and f"regles replay: error: {path}:5: {message}" in err


@pytest.mark.parametrize("name,raw,message", [
    ("not UTF-8", b'{"regles_trace": 2, "game": "env\xffoys"}\n', ": not a trace: not UTF-8 text (byte 33 "),
    ("deeply nested header", b"[" * 100_000 + b"]" * 100_000 + b"\n",
     ":1: not a trace header: not readable: JSON nested too deeply"),
    ("huge number in the header", b'{"regles_trace": ' + b"1" * 5000 + b"}\n", ":1: not a trace header: not "
                                                                                "readable: Exceeds the limit"),
    ("a header cut short", b'{"regles_trace": 2, "ga', ":1: not a trace header: not valid JSON"),
    ("a header that is a list", b"[2]\n", ":1: not a regles trace"),
])
def test_a_file_that_is_no_trace_is_refused(tmp_path, capsys, name, raw, message):
    path = tmp_path / "t.jsonl"
    path.write_bytes(raw)
    status, err = replay_command(path, capsys)
    assert status == 1 and f"regles replay: error: {path}{message}" in err


def _copy_of(tmp_path, name):
    folder = tmp_path / name
    shutil.copytree(FIXTURES / name, folder)
    return folder


def _edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _recorded(tmp_path, folder):
    g = interpreter.load(str(folder))
    st = g.new_state(players=2, seed=6, trace=True)
    agents = [RandomAgent(60 + i) for i in range(2)]
    while not st.is_terminal():
        st.apply(agents[st.current_player].act(SeatView(st, st.current_player)))
    return save_state_trace(tmp_path / "t.jsonl", g, st, source=source_of(g, str(folder)))


def test_a_trace_of_swapped_card_ids_is_refused(tmp_path, capsys):
    folder = _copy_of(tmp_path, "envoys")
    path = _recorded(tmp_path, folder)
    assert replay_command(path, capsys)[0] == 0
    cards = folder / "cards" / "envoys.yaml"
    _edit(cards, "id: herald", "id: HERALD")
    _edit(cards, "id: scout", "id: herald")
    _edit(cards, "id: HERALD", "id: scout")
    status, err = replay_command(path, capsys)
    assert status == 1 and f"{path}:1: fingerprint.content: this trace was recorded under other rules of envoys" in err


def test_a_trace_of_an_edited_procedure_is_refused(tmp_path, capsys):
    folder = _copy_of(tmp_path, "envoys")
    path = _recorded(tmp_path, folder)
    _edit(folder / "game.yaml", "gain 1 favor to p", "gain 2 favor to p")
    status, err = replay_command(path, capsys)
    assert status == 1 and "fingerprint.content: this trace was recorded under other rules" in err


def test_a_trace_of_another_engine_is_replayed_and_says_so(tmp_path, capsys):
    """A trace recorded by another version of regles is replayed (that is what replays are
    for: to see whether a new engine plays the same games); a difference says where it came from."""
    path, st = saved(tmp_path)
    rewrite(path, header=lambda h: h["fingerprint"].update(engine="0" * 64))
    status, out, err = run_replay(path, capsys)
    assert status == 0 and "identical" in out
    rewrite(path, event=(3, lambda e: e.update(at="tampered.yaml:1")))
    status, out, err = run_replay(path, capsys)
    assert status == 1 and "event 3 differs (the trace was recorded by another version of regles)" in err


def test_a_corrupt_trace_exits_1_from_the_command(tmp_path):
    path, st = saved(tmp_path)
    rewrite(path, header=lambda h: h.update(players="four"))
    bad = regles("replay", str(path), cwd=tmp_path)
    assert bad.returncode == 1 and "Traceback" not in bad.stderr
    assert bad.stderr.strip() == f"regles replay: error: {path}:1: players: must be a whole number, not a text"


def test_read_trace_raises_a_documented_error(tmp_path):
    path, st = saved(tmp_path)
    rewrite(path, header=lambda h: h["choices"].__setitem__(0, None))
    with pytest.raises(TraceError) as err:
        read_trace(path)
    assert isinstance(err.value, SaveError) and err.value.field == "choices[0]" and err.value.line == 1


def test_no_wrong_type_in_a_header_passes_or_breaks(tmp_path, capsys):
    """Every field of a real header, replaced in turn by a value of another kind, is refused
    naming that field, with exit status 1: never an internal error, never accepted (but a
    missing source, which sends the replay to the game's id, and a result without winners)."""
    path, st = saved(tmp_path)
    header = json.loads(Path(path).read_text(encoding="utf-8").splitlines()[0])
    tried = 0
    for where, original in _fields(header):
        if where[0] == "choices" and len(where) > 1 and where[1] >= 2:
            continue  # the first choices stand for all
        for wrong in ("x", 7, 2.5, None, True, [], {}):
            if _kind(wrong) == _kind(original) or (where in (["source"], ["result", "winners"]) and wrong is None):
                continue
            rewrite(path, header=lambda h: _setter(where, wrong)(h))
            status, err = replay_command(path, capsys)
            assert status == 1 and f"{path}:1: {where[0]}" in err, (where, wrong, err)
            Path(path).write_text("\n".join([json.dumps(header)] + Path(path).read_text().splitlines()[1:]) + "\n")
            tried += 1
    assert tried > 60


def _fields(v, where=()):
    if where:
        yield list(where), v
    if isinstance(v, dict):
        for k, x in v.items():
            yield from _fields(x, where + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _fields(x, where + (i,))


def _kind(v):
    return "bool" if isinstance(v, bool) else "number" if isinstance(v, (int, float)) else type(v).__name__


def test_a_trace_naming_a_file_that_is_no_content_as_its_mod_is_refused_without_reading_it(tmp_path, capsys):
    secret = tmp_path / "notes.txt"
    secret.write_text("SECRET-7c1e: not content\n", encoding="utf-8")
    path, _ = saved(tmp_path, "nim", 2, 4)
    for mod in (str(secret), "/etc/passwd", "/dev/zero"):
        rewrite(path, header=lambda h, mod=mod: h.update(layers={"expansions": [], "scenario": None, "mods": [mod]}))
        assert main(["replay", str(path)]) == 1
        out, err = capsys.readouterr()
        assert "a mod is a folder or a .yaml file" in err or "no such file" in err
        assert "SECRET-7c1e" not in out + err and "root:" not in out + err
