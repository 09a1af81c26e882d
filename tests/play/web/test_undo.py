"""Taking back decisions at a web table, by agreement (house rule `undo: agreed`): the table
returns to the engine's own state before the decision, the others must agree, bots never
ask, and the trace records each undo where a replay shows it."""
from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")
from tables_api import client as _client
from tables_api import new_table as _new
from tables_api import view as _get

from interpreter.rulings.trace import read_trace, verify_trace

UNDO = {"undo": "agreed"}


def _key(made, seat):
    return made["seats"][seat]["key"]


def _play(c, made, seat, option=0):
    """Seat `seat` (from 0) answers its decision with `option`, on the view it was shown."""
    v = _get(c, made, _key(made, seat))
    assert v["decision"]["player"] == seat and "options" in v["decision"], v["decision"]
    r = c.post(f"/api/tables/{made['id']}/act", json={"key": _key(made, seat), "seat": seat + 1,
                                                      "option": option, "version": v["version"]})
    assert r.status_code == 200, r.text


def _state(c, made):
    return c.app.state.server.tables[made["id"]].state


def _same_state(a, b) -> bool:
    return json.dumps(a.to_json(), sort_keys=True, default=str) == json.dumps(b.to_json(), sort_keys=True, default=str)


def _ask(c, made, seat, to=None):
    body = {"key": _key(made, seat), "seat": seat + 1, **({"to": to} if to is not None else {})}
    return c.post(f"/api/tables/{made['id']}/undo", json=body)


def _answer(c, made, seat, agree):
    return c.post(f"/api/tables/{made['id']}/undo/answer", json={"key": _key(made, seat), "seat": seat + 1,
                                                                 "agree": agree})


def _to_seat(c, made, seat):
    """Play option 0 for the other people until seat `seat` is to decide."""
    st = _state(c, made)
    while st.current_player != seat:
        _play(c, made, st.current_player)
        st = _state(c, made)


def test_a_decision_is_taken_back_when_the_other_person_agrees(tmp_path):
    with _client(tmp_path) as c:
        made = _new(c, game="karman-swap", players=2, seats=["person", "person"], seed=3, house=UNDO)
        _to_seat(c, made, 0)
        before = _state(c, made).clone()
        events = len(_state(c, made).trace)
        options = len(before.legal_actions())
        _play(c, made, 0, option=options - 1)  # the last option: not the one the table goes on with
        _to_seat(c, made, 1)
        _play(c, made, 1)
        asked = _ask(c, made, 0, to=len(before.history) + 1)
        assert asked.status_code == 200, asked.text
        v = asked.json()
        assert v["undo"]["asked"]["by"] == 0 and v["undo"]["asked"]["waiting"] == [1]
        assert len(_state(c, made).history) > len(before.history)  # nothing is taken back yet
        theirs = _get(c, made, _key(made, 1))
        assert theirs["undo"]["asked"]["mine_to_answer"] and any("asks to take back" in x for x in theirs["log"])
        assert _answer(c, made, 0, True).status_code == 409  # the asker has nothing to answer
        agreed = _answer(c, made, 1, True)
        assert agreed.status_code == 200, agreed.text
        now = _state(c, made)
        assert _same_state(now, before)  # the engine's own state before the decision
        assert len(now.trace) == events and now.current_player == 0
        assert "asked" not in agreed.json()["undo"] and any("taken back" in x for x in agreed.json()["log"])
        _play(c, made, 0, option=0)  # the game goes on from there
        assert _state(c, made).history[len(before.history)] == 0


def test_a_refusal_withdraws_the_request_and_changes_nothing(tmp_path):
    with _client(tmp_path) as c:
        made = _new(c, game="karman-swap", players=2, seats=["person", "person"], seed=3, house=UNDO)
        _to_seat(c, made, 0)
        _play(c, made, 0)
        kept = _state(c, made).clone()
        assert _ask(c, made, 0).status_code == 200
        assert _ask(c, made, 0).status_code == 409  # one request at a time
        refused = _answer(c, made, 1, False)
        assert refused.status_code == 200 and "asked" not in refused.json()["undo"]
        assert _same_state(_state(c, made), kept)
        assert any("refuses" in x for x in _get(c, made, _key(made, 0))["log"])


def test_no_undo_without_the_house_rule_and_none_for_bots_or_others_keys(tmp_path):
    with _client(tmp_path) as c:
        plain = _new(c, game="karman-swap", players=2, seats=["person", "person"], seed=3)
        _to_seat(c, plain, 0)
        _play(c, plain, 0)
        r = _ask(c, plain, 0)
        assert r.status_code == 409 and "without undo" in r.json()["error"]
        made = _new(c, game="karman-swap", players=2, seats=["person", "person"], seed=3, house=UNDO)
        r = c.post(f"/api/tables/{made['id']}/undo", json={"key": _key(made, 1), "seat": 1})
        assert r.status_code == 403  # another seat's key
        r = _ask(c, made, 0)
        assert r.status_code == 409 and "no decision" in r.json()["error"]
        bad = c.post("/api/tables", json={"game": "karman-swap", "players": 2, "seats": ["person", "person"],
                                          "house": {"undo": "always"}})
        assert bad.status_code == 400 and "undo" in bad.json()["error"]


def test_a_persons_undo_takes_back_the_bots_decisions_after_it_at_once(tmp_path):
    """Against bots alone, no one is to agree: the undo is made at once, the bots' moves after
    the decision are taken back with it, and the bots play again from there."""
    with _client(tmp_path) as c:
        made = _new(c, game="karman-swap", players=2, seats=["person", "greedy"], seed=6, house=UNDO)
        v = _get(c, made, _key(made, 0))
        while _state(c, made).current_player != 0:
            v = _get(c, made, _key(made, 0), after=v["version"])
        before = _state(c, made).clone()
        before.trace = list(_state(c, made).trace)
        number = len(before.history) + 1
        events = len(before.trace)

        def bot_moved():
            return any(e["type"] == "choice" and e["player"] == 2 for e in _state(c, made).trace[events:])
        while not bot_moved():  # the person plays on until the bot has decided
            if _state(c, made).current_player == 0:
                _play(c, made, 0)
                v = _get(c, made, _key(made, 0))
            else:
                v = _get(c, made, _key(made, 0), after=v["version"])
        while _state(c, made).current_player != 0:
            v = _get(c, made, _key(made, 0), after=v["version"])
        r = _ask(c, made, 0, to=number)
        assert r.status_code == 200, r.text
        assert _same_state(_state(c, made), before)


def test_going_back_several_decisions_and_after_a_restart_of_the_server(tmp_path):
    with _client(tmp_path) as c:
        made = _new(c, game="karman-swap", players=2, seats=["person", "person"], seed=8, house=UNDO)
        _to_seat(c, made, 0)
        first = _state(c, made).clone()
        number = len(first.history) + 1
        for _ in range(4):
            _play(c, made, _state(c, made).current_player)
        kept = [k["number"] for k in _get(c, made, _key(made, 0))["undo"]["kept"]]
        assert number in kept and len(kept) >= 4
    with _client(tmp_path) as c:  # a new server: the copies kept in memory are gone
        assert _ask(c, made, 1, to=number).status_code == 200
        r = _answer(c, made, 0, True)
        assert r.status_code == 200, r.text
        assert _same_state(_state(c, made), first)  # the game played again reaches the very same state
        assert all(k["number"] < number for k in r.json()["undo"]["kept"])


def test_the_trace_records_each_undo_and_still_replays(tmp_path):
    with _client(tmp_path) as c:
        made = _new(c, game="karman-swap", players=2, seats=["person", "person"], seed=3, house=UNDO)
        _to_seat(c, made, 0)
        at = len(_state(c, made).trace)
        number = len(_state(c, made).history) + 1
        _play(c, made, 0, option=1)
        _ask(c, made, 0)
        _answer(c, made, 1, True)
        st = _state(c, made)
        while not st.is_terminal():
            _play(c, made, st.current_player)
            st = _state(c, made)
        path = tmp_path / "traces" / f"{made['id']}.jsonl"
        header, _ = read_trace(path)
        assert header["undos"] == [{"by": 1, "agreed": [1, 2], "to": number, "at_event": at,
                                    "undone": header["undos"][0]["undone"]}]
        assert header["undos"][0]["undone"][0]["player"] == 1
        assert verify_trace(path)["finished"]  # the game as it went on replays as recorded
        summary = c.get(f"/api/replays/{made['id']}").json()
        assert summary["divergence"] is None and summary["undos"] == header["undos"]
