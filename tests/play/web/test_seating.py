"""Who is at a web table: the lobby, seats taken from it, spectators, presence and the turn
clock, read through the JSON the server sends (as a browser receives it)."""
from __future__ import annotations

import json
import random
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")
from gamekit import FIXTURES
from tables_api import client as _client
from tables_api import new_table as _new
from tables_api import view as _get

from interpreter.engine.observe import NOBODY, may_see
from interpreter.play.web import seating


def _act(c, made, key, v, option=0):
    who = v["decision"]["player"]
    r = c.post(f"/api/tables/{made['id']}/act", json={"key": key, "seat": who + 1, "option": option,
                                                      "version": v["version"]})
    assert r.status_code == 200, r.text
    return r.json()


def _key_of(url: str) -> str:
    return url.split("key=")[1]


def _strings(data) -> set:
    if isinstance(data, dict):
        return set().union(*(_strings(v) | {str(k)} for k, v in data.items())) if data else set()
    if isinstance(data, list):
        return set().union(*(_strings(v) for v in data)) if data else set()
    return {data} if isinstance(data, str) else set()


# the lobby -------------------------------------------------------------------------------------
def test_the_lobby_lists_tables_their_makers_listed_and_hands_out_free_seats_once(tmp_path):
    with _client(tmp_path) as c:
        hidden = _new(c, game="karman-swap", players=2, seats=["person", "person"], seed=1)
        listed = _new(c, game="karman-swap", players=3, seats=["person", "person", "greedy"], seed=2,
                      house={"listed": True})
        me = listed["seats"][0]["key"]
        _get(c, listed, listed["owner_key"])  # the maker's own link takes no seat of a listed table
        _get(c, listed, me)  # the maker sits at seat 1 with its link: taken, and connected
        lobby = c.get("/api/tables").json()["tables"]
        assert [t["id"] for t in lobby] == [listed["id"]]  # an unlisted table is never shown
        entry = lobby[0]
        assert [(s["free"], s["connected"]) for s in entry["seats"]] == [(False, True), (True, False), (False, False)]
        assert entry["seats"][2]["who"] == "greedy" and entry["to_play"] == 0
        # nothing a seat sees alone: no card, counter, option, log or key of a seat
        text = json.dumps(lobby)
        for word in ("components", "counters", "options", "log", me, listed["seats"][1]["key"], listed["owner_key"]):
            assert word not in text
        taken = c.post(f"/api/tables/{listed['id']}/seats/2", json={})
        assert taken.status_code == 200 and taken.json()["key"] == listed["seats"][1]["key"]
        again = c.post(f"/api/tables/{listed['id']}/seats/2", json={})
        assert again.status_code == 409 and "taken" in again.json()["error"]
        bot = c.post(f"/api/tables/{listed['id']}/seats/3", json={})
        assert bot.status_code == 409 and "bot" in bot.json()["error"]
        assert c.post(f"/api/tables/{hidden['id']}/seats/2", json={}).status_code == 404
        assert not any(s["free"] for s in c.get("/api/tables").json()["tables"][0]["seats"])
        # the seat taken plays with the key it was given
        v = _get(c, listed, taken.json()["key"])
        assert v["opens"] == [1] and v["seats"][1]["taken"]


def test_the_maker_closes_a_table_and_its_game_goes_to_the_replays(tmp_path):
    with _client(tmp_path) as c:
        made = _new(c, game="karman-swap", players=2, seats=["person", "greedy"], seed=3, house={"listed": True})
        v = _get(c, made, made["owner_key"])
        for _ in range(3):
            v = _act(c, made, made["owner_key"], v)
            while v["decision"]["player"] != 0:
                v = _get(c, made, made["owner_key"], after=v["version"])
        refused = c.post(f"/api/tables/{made['id']}/close", json={"key": made["seats"][0]["key"]})
        assert refused.status_code == 403
        closed = c.post(f"/api/tables/{made['id']}/close", json={"key": made["owner_key"]})
        assert closed.status_code == 200, closed.text
        assert c.get("/api/tables").json()["tables"] == []
        gone = c.get(f"/api/tables/{made['id']}", params={"key": made["owner_key"]})
        assert gone.status_code == 404 and closed.json()["replay"] in gone.json()["error"]
        summary = c.get(f"/api/replays/{made['id']}").json()
        assert summary["divergence"] is None and not summary["result"]["finished"]
        recorded = [json.loads(line) for line in (tmp_path / "traces" / f"{made['id']}.jsonl").read_text().splitlines()]
        assert sum(e.get("type") == "choice" and e.get("player") == 1 and not e.get("auto") for e in recorded[1:]) >= 3


def test_a_finished_table_leaves_the_lobby(tmp_path):
    with _client(tmp_path) as c:
        made = _new(c, game="karman-swap", players=2, seats=["person", "greedy"], seed=4, house={"listed": True})
        key = made["owner_key"]
        v = _get(c, made, key)
        for _ in range(400):
            if v["over"]:
                break
            if v["decision"] and v["decision"]["player"] == 0 and "options" in v["decision"]:
                v = _act(c, made, key, v)
            else:
                v = _get(c, made, key, after=v["version"])
        assert v["over"]
        assert c.get("/api/tables").json()["tables"] == []


# spectators -------------------------------------------------------------------------------------
@pytest.mark.parametrize("game_id,players", [("seeders-exodus", 3), ("etherium", 3), ("karman-swap", 2)])
def test_a_spectator_of_nobody_is_never_sent_a_hidden_card_or_a_secret_choice(tmp_path, game_id, players):
    """Random play at a table of people; at every step, the public spectator's JSON names no
    card that some seat cannot see (unless every seat sees one of its title), no option, and
    no label of a choice made secretly, and its key acts for no seat."""
    rng = random.Random(players)
    with _client(tmp_path) as c:
        made = _new(c, game=game_id, players=players, seats=["person"] * players, seed=7)
        watch = _key_of(made["watch"]["nobody"])
        table = c.app.state.server.tables[made["id"]]
        program = table.game.program
        hidden_checked = secrets_checked = 0
        secret_labels = set()
        v = _get(c, made, made["owner_key"])
        for _ in range(60):
            if v["over"]:
                break
            seen = _get(c, made, watch)
            assert seen["opens"] == [] and seen["seat"] is None and seen["you"] is None
            assert "options" not in (seen["decision"] or {}) and "links" not in seen and "undo" not in seen
            with table.lock:
                st = table.state
                public, private = set(), set()
                for key, comps in st.zones.items():
                    zdef = program.zone_def(key)
                    everyone = all(may_see(st, zdef.visibility, program.zone_holder(key), s) for s in range(st.n))
                    (public if everyone else private).update(program.comp_card[x].title for x in comps)
            leaked = (private - public) & _strings(seen)
            assert not leaked, f"the public view names {sorted(leaked)[:3]}, hidden from some seat"
            hidden_checked += len(private - public)
            assert not secret_labels & _strings(seen["log"]), "a secret choice reached the public log"
            secrets_checked += len(secret_labels)
            d = v["decision"]
            option = rng.randrange(len(d["options"]))
            if d.get("secret"):
                secret_labels.add(d["options"][option]["label"])
            _act(c, made, made["owner_key"], v, option)
            v = _get(c, made, made["owner_key"])  # the view of the seat to play now
            refused = c.post(f"/api/tables/{made['id']}/act", json={"key": watch, "seat": v["decision"]["player"] + 1,
                                                                    "option": 0, "version": v["version"]})
            assert refused.status_code == 403
        assert hidden_checked > 0  # there were hidden cards to leak
        if game_id == "etherium":
            assert secrets_checked > 0  # the programmes are chosen secretly


def test_a_spectator_of_a_seat_sees_what_that_seat_sees_and_cannot_act(tmp_path):
    with _client(tmp_path) as c:
        made = _new(c, game="seeders-exodus", players=2, seats=["person", "person"], seed=5)
        v = _get(c, made, made["owner_key"])
        for _ in range(6):
            v = _act(c, made, made["owner_key"], v)
        seat = _get(c, made, made["seats"][1]["key"])
        watcher = _get(c, made, _key_of(made["watch"]["1"]))
        assert watcher["seat"] == 1 and watcher["opens"] == [] and watcher["you"] is None
        assert watcher["watching"] == seat["seats"][1]["name"]
        for part in ("seats", "centre", "boards", "counters", "cards", "log"):
            assert watcher[part] == seat[part], part
        r = c.post(f"/api/tables/{made['id']}/act", json={"key": _key_of(made["watch"]["1"]), "seat": 2,
                                                         "option": 0, "version": watcher["version"]})
        assert r.status_code == 403


def test_the_public_view_hides_what_any_one_seat_cannot_see():
    """observe.NOBODY sees a zone exactly when every seat sees it."""
    import interpreter

    game = interpreter.load("seeders-exodus")
    st = game.new_state(3, 2, game.options({}))
    for _ in range(30):
        st.apply(0)
    obs = st.observation(NOBODY)
    program = game.program
    for key in st.zones:
        zdef = program.zone_def(key)
        every = all(may_see(st, zdef.visibility, program.zone_holder(key), s) for s in range(st.n))
        assert isinstance(obs["zones"][key], list) == every, key
    assert any(not isinstance(z, list) for z in obs["zones"].values())
    assert any(isinstance(z, list) and z for z in obs["zones"].values())


# presence and the clock ---------------------------------------------------------------------------
def test_the_others_see_who_is_connected(tmp_path, monkeypatch):
    with _client(tmp_path) as c:
        made = _new(c, game="karman-swap", players=2, seats=["person", "person"], seed=1)
        one = _get(c, made, made["seats"][0]["key"])
        assert [s["connected"] for s in one["seats"]] == [True, False]
        assert [s["taken"] for s in one["seats"]] == [True, False]
        two = _get(c, made, made["seats"][1]["key"])
        assert [s["connected"] for s in two["seats"]] == [True, True]
        _get(c, made, _key_of(made["watch"]["nobody"]))
        assert _get(c, made, made["seats"][0]["key"])["watchers"] == 1
        hot = _new(c, game="karman-swap", players=2, seats=["person", "person"], seed=1)
        assert [s["taken"] for s in _get(c, hot, hot["owner_key"])["seats"]] == [True, True]  # one screen, both seats
        later = time.monotonic() + seating.PRESENT + 1  # seat 2 is not heard from again
        monkeypatch.setattr(seating.time, "monotonic", lambda: later)
        table = c.app.state.server.tables[made["id"]]
        assert table.presence.connected(2) == [False, False] and table.presence.watching() == 0


def test_the_clock_is_shown_and_its_bot_decides_when_it_runs_out(tmp_path):
    with _client(tmp_path) as c:
        made = _new(c, game="karman-swap", players=2, seats=["person", "person"], seed=2,
                    house={"clock": 60, "clock_bot": "greedy", "listed": True})
        key = made["owner_key"]
        assert "clock" not in _get(c, made, key)  # no one sits at the seat to play yet: its clock waits
        _get(c, made, made["seats"][_get(c, made, key)["decision"]["player"]]["key"])  # now someone does
        v = _get(c, made, key)
        assert v["clock"]["seconds"] == 60 and 55 <= v["clock"]["left"] <= 60 and v["clock"]["bot"] == "greedy"
        table = c.app.state.server.tables[made["id"]]
        assert not table.time_out(v["version"])  # time is not up
        table.posed -= 61
        assert _get(c, made, key)["clock"]["left"] == 0
        assert table.time_out(v["version"])
        after = _get(c, made, key)
        assert after["version"] == v["version"] + 1 and len(table.state.history) == 1
        assert any("time ran out" in line and "greedy" in line for line in after["log"])
        bad = c.post("/api/tables", json={"game": "karman-swap", "players": 2, "seats": ["person", "person"],
                                          "house": {"clock": 1}})
        assert bad.status_code == 400 and "clock" in bad.json()["error"]
        bad = c.post("/api/tables", json={"game": "karman-swap", "players": 2, "seats": ["person", "person"],
                                          "house": {"clock": 30, "clock_bot": "mcts:99999"}})
        assert bad.status_code == 400 and "at most" in bad.json()["error"]


def test_the_clock_of_a_table_ends_in_its_bots_decision_in_the_server(tmp_path):
    with _client(tmp_path, str(FIXTURES / "nim")) as c:
        made = _new(c, game=str(FIXTURES / "nim"), players=2, seats=["person", "person"], seed=2,
                    house={"clock": 5, "clock_bot": "random"})
        for s in (0, 1):
            _get(c, made, made["seats"][s]["key"])  # both players sit down: the clock of the one to play runs
        v = _get(c, made, made["owner_key"])
        v = _get(c, made, made["owner_key"], after=v["version"])  # long-polls until the clock's bot decides
        assert v["version"] == 1 and any("time ran out" in line for line in v["log"])


def test_two_clients_moving_at_once_on_one_table_apply_exactly_one_move(tmp_path):
    """Two browsers of one seat (or its maker and its player) send a choice on the same view at
    the same moment, through a real server: exactly one is applied, the other told why."""
    import threading
    import urllib.error
    import urllib.request

    from served import Served
    served = Served(tmp_path)
    try:
        made = served.post("/api/tables", {"game": "karman-swap", "players": 2, "seats": ["person", "person"],
                                           "seed": 1})
        key = made["owner_key"]
        v = served.get(f"/api/tables/{made['id']}?key={key}")
        body = json.dumps({"key": key, "seat": v["decision"]["player"] + 1, "option": 0,
                           "version": v["version"]}).encode()
        start = threading.Barrier(2)
        answers = []

        def send():
            req = urllib.request.Request(f"{served.base}/api/tables/{made['id']}/act", body,
                                         {"content-type": "application/json"})
            start.wait()
            try:
                with urllib.request.urlopen(req, timeout=30) as r:
                    answers.append((r.status, json.loads(r.read())))
            except urllib.error.HTTPError as e:
                answers.append((e.code, json.loads(e.read())))
        threads = [threading.Thread(target=send) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert sorted(s for s, _ in answers) == [200, 409]
        told = next(a["error"] for s, a in answers if s == 409)
        assert "changed" in told or "not seat" in told
        after = served.get(f"/api/tables/{made['id']}?key={key}")
        assert after["version"] == v["version"] + 1
        assert len(served.app.state.server.tables[made["id"]].state.history) == 1
    finally:
        served.stop()


@pytest.mark.parametrize("path,body,status,says", [
    ("seats/0", {}, 400, "no seat 0"),
    ("seats/9", {}, 400, "no seat 9"),
    ("seats/x", {}, 404, "a seat is named by its number"),
    ("seats/" + "9" * 50, {}, 404, "a seat is named by its number"),
    ("close", [], 403, "maker"),
    ("close", {"key": 7}, 403, "maker"),
    ("undo", {"seat": True}, 400, "{key, seat, to}"),
    ("undo", {"key": "K0", "seat": 1, "to": "last"}, 400, "{key, seat, to}"),
    ("undo", {"key": "K0", "seat": 9}, 403, "does not open seat 9"),
    ("undo", {"key": "K0", "seat": 1, "to": 10 ** 12}, 409, "cannot be taken back"),
    ("undo/answer", {"key": "K0", "seat": 1, "agree": "yes"}, 400, "'agree' true or false"),
    ("undo/answer", {"key": "K0", "seat": 1, "agree": True}, 409, "no one is asking"),
    ("act", {"key": "K0", "seat": 1, "option": 0, "version": 0, "since": -1}, 400, "'since'"),
])
def test_the_new_requests_refuse_what_is_wrong_with_a_4xx_and_a_sentence(tmp_path, path, body, status, says):
    with _client(tmp_path) as c:
        made = _new(c, game="karman-swap", players=2, seats=["person", "person"], seed=1,
                    house={"listed": True, "undo": "agreed"})
        if isinstance(body, dict) and body.get("key") == "K0":
            body = {**body, "key": made["seats"][0]["key"]}
        r = c.post(f"/api/tables/{made['id']}/{path}", json=body)
        assert r.status_code == status, r.text
        assert says.lower() in r.json()["error"].lower() and "Traceback" not in r.text


@pytest.mark.parametrize("house,says", [
    ([], "'house' is an object"), ({"listed": "yes"}, "true or false"), ({"undo": "always"}, "'agreed'"),
    ({"clock": True}, "seconds"), ({"clock": 10 ** 9}, "seconds"), ({"clock_bot": "greedy"}, "set 'house.clock' too"),
    ({"clock": 30, "clock_bot": "person"}, "a bot"), ({"clock": 30, "clock_bot": "wizard"}, "wizard"),
    ({"colour": "red"}, "no rule 'colour'"),
])
def test_house_rules_that_cannot_be_are_a_400(tmp_path, house, says):
    with _client(tmp_path) as c:
        r = c.post("/api/tables", json={"game": "karman-swap", "players": 2, "seats": ["person", "person"],
                                        "house": house})
        assert r.status_code == 400 and says in r.json()["error"], r.text


def test_a_saved_table_with_damaged_house_rules_or_undos_is_set_aside(tmp_path):
    with _client(tmp_path) as c:
        made = _new(c, game="karman-swap", players=2, seats=["person", "person"], seed=1, house={"undo": "agreed"})
    path = tmp_path / "tables" / f"{made['id']}.json"
    saved = json.loads(path.read_text())
    for damage in ({"spec": {**saved["spec"], "house": {"clock": -1}}}, {"taken": [True]},
                   {"undos": {"asked": {"by": "x"}}}, {"undos": {"kept": [{"number": "x"}]}},
                   {"watch_keys": {"nobody": 1}}):
        path.write_text(json.dumps({**saved, **damage}))
        with _client(tmp_path) as c:
            r = c.get(f"/api/tables/{made['id']}", params={"key": made["owner_key"]})
            assert r.status_code == 404 and "could not be restored" in r.json()["error"], (damage, r.text)


def test_a_page_waiting_for_its_table_is_answered_when_the_server_stops(tmp_path):
    """Stopping the server (Ctrl-C) with a table's page open: its long poll was cut short by
    uvicorn and logged 'Exception in ASGI application' with a traceback. It is now answered
    with the table as it is before the server stops."""
    import logging
    import threading
    import urllib.request

    from served import Served
    served = Served(tmp_path)
    made = served.post("/api/tables", {"game": "karman-swap", "players": 2, "seats": ["person", "person"],
                                       "seed": 1})
    key = made["owner_key"]
    v = served.get(f"/api/tables/{made['id']}?key={key}")
    answered, logged = [], []

    class Kept(logging.Handler):
        def emit(self, record):
            logged.append(record)

    def wait_for_a_change():
        url = f"{served.base}/api/tables/{made['id']}?key={key}&after={v['version']}"
        with urllib.request.urlopen(url, timeout=30) as r:
            answered.append((r.status, json.loads(r.read())["version"]))

    poll = threading.Thread(target=wait_for_a_change)
    poll.start()
    time.sleep(0.5)  # the poll is waiting: nothing changes at a table of two people
    assert not answered
    errors = logging.getLogger("uvicorn.error")  # uvicorn's own log, which does not reach the root
    kept = Kept(logging.ERROR)
    errors.addHandler(kept)
    try:
        served.stop()
        poll.join(10)
    finally:
        errors.removeHandler(kept)
    assert answered == [(200, v["version"])]
    assert not logged, [r.getMessage() for r in logged]
