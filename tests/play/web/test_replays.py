"""Replays in the browser: the table at any event of a trace, each event's cause, forks.

The state shown at event k must be the engine's own state between events k and k + 1:
a move's component is in the zone it went to at k and in the zone it left at k - 1, a
counter holds the value the event recorded, whichever way the trace is walked.
"""
from __future__ import annotations

import json
import random
import re

import pytest

import interpreter
from interpreter.rulings.trace import read_trace, save_state_trace

pytest.importorskip("starlette")
pytest.importorskip("httpx2")
from starlette.testclient import TestClient

from interpreter.play.web.app import make_app
from interpreter.play.web.replays import Replay

JSON = {"content-type": "application/json"}


def _trace(folder, game="karman-swap", players=2, seed=7):
    g = interpreter.load(game)
    st = g.new_state(players, seed, g.options({}), trace=True)
    rng = random.Random(seed)
    while not st.is_terminal():
        st.apply(rng.randrange(len(st.legal_actions())))
    (folder / "traces").mkdir(parents=True, exist_ok=True)
    path = folder / "traces" / f"{game}-{seed}.jsonl"
    save_state_trace(path, g, st, agents=["random"] * players)
    return path


@pytest.fixture(scope="module")
def karman(tmp_path_factory):
    folder = tmp_path_factory.mktemp("replays")
    path = _trace(folder)
    return folder, path, Replay(path)


def test_each_event_comes_with_its_narration_and_its_cause(karman):
    _, path, r = karman
    s = r.summary(path.stem)
    assert s["divergence"] is None and s["shown_up_to"] == len(s["events"])
    caused = [e for e in s["events"] if "at" in e]
    assert len(caused) > 0.9 * len(s["events"])
    for e in caused[::25]:
        file, _, line = e["at"].rpartition(":")
        assert file.startswith("karman-swap/")
        text = (r.program.root / file.split("/", 1)[1]).read_text(encoding="utf-8").splitlines()[int(line) - 1]
        assert e["line"] == text.strip()
    moves = [e for e in s["events"] if e["type"] == "move"]
    assert all(" moved " in e["text"] and e["text"].strip().startswith(e["changed"][0]) for e in moves)
    assert all(e["changed"] for e in s["events"] if e["type"] == "counter")
    # a replay tells the whole game: the rules' bookkeeping and the events signalled too, each in
    # the game's words (the class a card gains, with its article; the event as the rules name it)
    assert [e["type"] for e in s["events"] if not e["text"]] == []
    for lang, signal, tag, untag, seat in (
            ("en", "{} is played on an active planet", "{} becomes a card whose pose was used",
             "{} is no longer a card whose pose was used", "Turn seat: "),
            ("fr", "On joue {} sur une planète active", "{} devient une carte dont la pose a servi",
             "{} n'est plus une carte dont la pose a servi", "La place du joueur actif : ")):
        events = r.summary(path.stem, lang)["events"]
        told = {t: [e for e in events if e["type"] == t] for t in ("signal", "tag", "untag")}
        posed = [e for e in told["signal"] if e["line"].startswith("signal posed")]
        titles = {c.title for c in r.program.comp_card}
        assert posed and all(re.fullmatch(re.escape(signal).replace(r"\{\}", "(.+)"), e["text"]).group(1) in titles
                             for e in posed)
        assert told["tag"] and all(e["text"] == tag.format(e["changed"][0]) for e in told["tag"]
                                   if "Posed" in e["line"])
        assert told["untag"] and all(e["text"] == untag.format(e["changed"][0]) for e in told["untag"]
                                     if "Posed" in e["line"])
        turns = [e["text"] for e in events if e["type"] == "counter" and e["line"].startswith("set turn_seat")]
        assert turns and all(t.startswith(seat) for t in turns)


def test_the_table_at_an_event_is_the_state_between_it_and_the_next(karman):
    _, _, r = karman
    # (a move that loses its tags or counters records those first, the component already moved)
    moves = [(k, ev) for k, ev in enumerate(r.recorded) if ev["type"] == "move" and ev.get("from")
             and r.recorded[k - 1]["type"] not in ("untag", "counter")]
    counters = [(k, ev) for k, ev in enumerate(r.recorded) if ev["type"] == "counter"]
    assert len(moves) > 50 and len(counters) > 50
    for k, ev in moves[::7]:
        assert str(r.state_at(k).where[ev["id"]]) == ev["to"]
        assert str(r.state_at(k - 1).where[ev["id"]]) == ev["from"]
    for k, ev in counters[::7]:
        assert r.state_at(k).counters.get(ev["counter"]) == ev["value"]
        assert r.state_at(k - 1).counters.get(ev["counter"], 0) == ev["value"] - ev["change"]


def test_walking_backwards_shows_what_walking_forwards_showed(karman):
    _, _, r = karman
    picks = list(range(0, len(r.recorded), max(1, len(r.recorded) // 40)))
    forwards = {k: r.view(k, None) for k in picks}
    for k in reversed(picks):
        assert r.view(k, None) == forwards[k]


def test_a_replay_seen_by_one_seat_is_masked_as_that_seat_saw_the_game(karman):
    _, _, r = karman
    k = len(r.recorded) // 2
    everything, seat = r.view(k, None), r.view(k, 0)
    hand = next(z for z in seat["seats"][1]["zones"] if z["name"] == "hand")
    full = next(z for z in everything["seats"][1]["zones"] if z["name"] == "hand")
    assert hand.get("hidden") and full["components"] and len(full["components"]) == hand["count"]


def test_a_fork_plays_on_from_the_decision_of_an_event(karman):
    folder, path, r = karman
    choices = [k for k, ev in enumerate(r.recorded) if ev["type"] == "choice" and not ev.get("auto")]
    k = choices[len(choices) // 2]
    st = r.decision_state(k)
    header, _ = read_trace(path)
    assert st.history == header["choices"][:choices.index(k)]  # the decision event k answers, not yet taken
    assert st.pending is not None and len(st.trace) == k
    with TestClient(make_app(folder, bot_delay=0), base_url="http://127.0.0.1:8000") as c:
        r2 = c.post(f"/api/replays/{path.stem}/fork", json={"event": k, "seats": ["greedy", "random"]})
        assert r2.status_code == 201, r2.text
        made = r2.json()
        table = c.app.state.server.tables[made["id"]]
        v = c.get(f"/api/tables/{made['id']}", params={"key": made["owner_key"]}).json()
        for _ in range(400):
            if v["over"]:
                break
            v = c.get(f"/api/tables/{made['id']}", params={"key": made["owner_key"], "after": v["version"]}).json()
        assert v["over"] and table.state.is_terminal()
        assert v["log"][0] == f"Played on from the trace {path.stem}, from event {k}."
        assert table.state.history[:len(st.history)] == st.history
        summary = c.get(f"/api/replays/{made['id']}").json()  # the fork's own trace replays from the start
        assert summary["divergence"] is None and summary["events"][k]["type"] == "choice"
        assert c.get(f"/replay/{path.stem}").status_code == 200
        r3 = c.get(f"/api/replays/{path.stem}/at/{len(r.recorded)}")
        assert r3.status_code == 404 and "no event" in r3.json()["error"]


def test_an_uploaded_trace_is_checked_before_it_is_kept(karman, tmp_path):
    _, path, _ = karman
    with TestClient(make_app(tmp_path, bot_delay=0), base_url="http://127.0.0.1:8000") as c:
        r = c.post("/api/replays", content=path.read_bytes(), headers=JSON)
        assert r.status_code == 201
        name = r.json()["name"]
        assert c.get(f"/api/replays/{name}").json()["events"][0]["type"] == "start"
        lines = path.read_text(encoding="utf-8").splitlines()
        r = c.post("/api/replays", content="\n".join(lines[:-3]).encode(), headers=JSON)
        assert r.status_code == 400 and "announces" in r.json()["error"]
        assert "tmp" not in r.json()["error"]


def test_why_bot_weighs_the_decision_of_an_event(karman):
    folder, path, r = karman
    choices = [k for k, ev in enumerate(r.recorded) if ev["type"] == "choice" and not ev.get("auto")
               and ev.get("options", 0) > 1]
    k = choices[len(choices) // 3]
    with TestClient(make_app(folder, bot_delay=0), base_url="http://127.0.0.1:8000") as c:
        got = c.get(f"/api/replays/{path.stem}/why-bot/{k}")
        assert got.status_code == 200, got.text
        w = got.json()
        # the trace's bots were random: greedy is asked, over every option of that decision
        assert w["agent"] == "greedy" and w["traced"] == "random"
        assert len(w["rows"]) == r.recorded[k]["options"] and sum(x["picked"] for x in w["rows"]) == 1
        taken = [x["label"] for x in w["rows"] if x["taken"]]
        assert taken == [r.recorded[k]["label"]]  # the option the game took there
        search = c.get(f"/api/replays/{path.stem}/why-bot/{k}", params={"agent": "mcts:30"}).json()
        assert search["agent"] == "mcts:30"
        assert sum(int(x["value"].split()[0]) for x in search["rows"]) == 30  # its visits: its budget
        for bad, status in (("mcts:999999", 422), ("mcts:1000:rollout=heuristic", 422), ("oracle", 422),
                            ("random", 422), ("x" * 40, 422)):
            refused = c.get(f"/api/replays/{path.stem}/why-bot/{k}", params={"agent": bad})
            assert refused.status_code == status and "error" in refused.json(), bad
        assert c.get(f"/api/replays/{path.stem}/why-bot/{len(r.recorded) + 5}").status_code == 404


def test_a_trace_recorded_under_other_rules_is_listed_with_why_and_not_offered(karman, tmp_path):
    _, path, _ = karman
    traces = tmp_path / "traces"
    traces.mkdir()
    (traces / "now.jsonl").write_bytes(path.read_bytes())
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["fingerprint"]["content"] = "0" * len(header["fingerprint"]["content"])  # the rules before an edit
    (traces / "before.jsonl").write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    with TestClient(make_app(tmp_path, bot_delay=0), base_url="http://127.0.0.1:8000") as c:
        listed = {x["name"]: x for x in c.get("/api/replays").json()["replays"]}
        assert "stale" not in listed["now"] and listed["now"]["game"] == "karman-swap"
        stale = listed["before"]["stale"]
        assert "other rules of karman-swap" in stale and str(tmp_path) not in stale
        # the page it would open can only say the same
        assert "other rules" in c.get("/api/replays/before").json()["error"]
