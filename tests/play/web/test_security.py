"""The web server against a hostile client: no file outside the game's content is read because
of what a request sends, every request is bounded, and every malformed one gets a 4xx.

Each attack is sent as a client would send it; each test asserts the refusal and, for the
attacks on files, that no byte of the file aimed at appears in any answer of the server.
"""
from __future__ import annotations

import json
import random
import socket
import time

import pytest

import interpreter

pytest.importorskip("starlette")
pytest.importorskip("httpx2")
pytest.importorskip("uvicorn")
from gamekit import FIXTURES
from served import Served
from starlette.testclient import TestClient

from interpreter.rulings.trace import save_state_trace
from interpreter.play.web import app as web_app
from interpreter.play.web import guard
from interpreter.play.web.app import make_app

NIM = str(FIXTURES / "nim")
JSON = {"content-type": "application/json"}
BASE = "http://127.0.0.1:8000"
SECRET = "SECRET-LINE-3f9d1c-not-for-any-client"


def _client(folder, game=NIM, **kw):
    return TestClient(make_app(folder, game, bot_delay=0), base_url=BASE, **kw)


@pytest.fixture(scope="module")
def trace(tmp_path_factory):
    """A finished game of Nim as its trace's header and event lines (text)."""
    folder = tmp_path_factory.mktemp("trace")
    g = interpreter.load(NIM)
    st = g.new_state(2, 5, g.options({}), trace=True)
    rng = random.Random(5)
    while not st.is_terminal():
        st.apply(rng.randrange(len(st.legal_actions())))
    path = save_state_trace(folder / "nim.jsonl", g, st, agents=["random", "random"])
    lines = path.read_text(encoding="utf-8").splitlines()
    return json.loads(lines[0]), [json.loads(x) for x in lines[1:]]


def _text(header, events) -> bytes:
    return ("\n".join(json.dumps(x) for x in [header, *events]) + "\n").encode()


def _everything(c, name: str) -> str:
    """Every answer the server gives about trace `name`: the list, the summary, each event."""
    out = [c.get("/api/replays").text]
    r = c.get(f"/api/replays/{name}")
    out.append(r.text)
    if r.status_code == 200:
        for k in range(len(r.json()["events"])):
            out.append(c.get(f"/api/replays/{name}/at/{k}").text)
    return "\n".join(out)


def _private(tmp_path):
    secret = tmp_path / "private" / "notes.txt"
    secret.parent.mkdir()
    secret.write_text(f"{SECRET}\nsecond line\n", encoding="utf-8")
    return secret


def _first_line(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as f:
            return f.readline().strip() or None
    except OSError:
        return None


@pytest.mark.parametrize("place", ["/etc/passwd", "private", "../../../private/notes.txt", "/dev/zero"])
def test_a_source_line_is_never_read_from_a_path_a_trace_names(tmp_path, trace, place):
    secret = _private(tmp_path)
    place = str(secret) if place == "private" else place
    header, events = trace
    forged = [{**ev, "at": f"{place}:1"} if "at" in ev else ev for ev in events]
    data = tmp_path / "data"
    with _client(data) as c:
        r = c.post("/api/replays", content=_text(header, forged), headers=JSON)
        assert r.status_code == 422 and "does not replay as recorded" in r.json()["error"]
        assert not list((data / "traces").glob("upload-*"))
        # the same trace put in the folder by other means: shown, but no line read from that path
        (data / "traces" / "forged.jsonl").write_bytes(_text(header, forged))
        answers = _everything(c, "forged")
    assert SECRET not in answers
    first = _first_line("/etc/passwd")
    assert first is None or first not in answers
    summary = json.loads(answers.split("\n")[1])
    assert all("line" not in e for e in summary["events"] if e.get("at", "").startswith(place))


def test_the_lines_shown_are_the_lines_of_the_game_loaded(tmp_path, trace):
    header, events = trace
    with _client(tmp_path) as c:
        r = c.post("/api/replays", content=_text(header, events), headers=JSON)
        assert r.status_code == 201, r.text
        summary = c.get(f"/api/replays/{r.json()['name']}").json()
    game = (FIXTURES / "nim" / "game.yaml").read_text(encoding="utf-8").splitlines()
    shown = [e for e in summary["events"] if "line" in e]
    assert len(shown) > len(summary["events"]) // 2
    for e in shown:
        assert e["line"] == game[int(e["at"].rpartition(":")[2]) - 1].strip()


def test_a_trace_names_only_the_games_and_mods_the_server_offers(tmp_path, trace):
    header, events = trace
    private_game = tmp_path / "private-game"
    private_game.mkdir()
    (private_game / "game.yaml").write_text(f"kind: game\nid: nim\ntitle: {SECRET}\n", encoding="utf-8")
    secret = _private(tmp_path)
    cases = [
        ({**header, "game": "other-game", "source": str(private_game)}, "does not offer"),
        ({**header, "source": str(private_game)}, None),  # the folder named is never read: the game is the server's
        ({**header, "layers": {"expansions": [], "scenario": None, "mods": [str(secret)]}}, "mods"),
        ({**header, "layers": {"expansions": [], "scenario": None, "mods": ["/etc/shadow"]}}, "mods"),
        ({**header, "layers": {"expansions": ["../../private"], "scenario": None, "mods": []}}, "expansion"),
    ]
    with _client(tmp_path / "data") as c:
        for forged, says in cases:
            r = c.post("/api/replays", content=_text(forged, events), headers=JSON)
            assert SECRET not in r.text and "shadow:" not in r.text
            if says is None:
                assert r.status_code == 201, r.text
                assert c.get(f"/api/replays/{r.json()['name']}").json()["title"] == "Nim"
            else:
                assert r.status_code == 422 and says in r.json()["error"], r.text


def test_a_forged_result_is_refused_and_the_list_shows_the_replayed_one(tmp_path, trace):
    header, events = trace
    true = header["result"]
    forged = {**header, "result": {**true, "winners": [3 - w for w in true["winners"]]}}
    data = tmp_path / "data"
    with _client(data) as c:
        r = c.post("/api/replays", content=_text(forged, events), headers=JSON)
        assert r.status_code == 422 and "winners" in r.json()["error"]
        (data / "traces" / "forged.jsonl").write_bytes(_text(forged, events))
        listed = {x["name"]: x for x in c.get("/api/replays").json()["replays"]}
        assert listed["forged"]["result"] is None  # not replayed yet: its own word is not shown
        summary = c.get("/api/replays/forged").json()
        assert summary["result"] == true and summary["recorded_result"] == forged["result"]
        assert "winners" in summary["divergence"]
        listed = {x["name"]: x for x in c.get("/api/replays").json()["replays"]}
        assert listed["forged"]["result"] == true


@pytest.mark.parametrize("body,says", [
    (b'{"game": ' + b"7" * 5000 + b"}", "not readable"),
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    (b'{"game": NaN}', "no number"),
    (b"\xff\xfe", "UTF-8"),
])
def test_malformed_json_is_a_400(tmp_path, body, says):
    with _client(tmp_path) as c:
        for url in ("/api/tables", "/api/replays"):
            r = c.post(url, content=body, headers=JSON)
            assert r.status_code in (400, 413), r.text
            assert r.status_code == 413 or says in r.json()["error"]
            assert str(tmp_path) not in r.text


def test_numbers_and_names_out_of_bounds_are_a_4xx(tmp_path):
    with _client(tmp_path) as c:
        made = c.post("/api/tables", json={"game": "nim", "players": 2, "seats": ["person", "person"]}).json()
        at = f"/api/tables/{made['id']}?key={made['owner_key']}"
        for url in (at + "&seat=" + "9" * 5000, at + "&since=" + "9" * 5000, at + "&after=-" + "9" * 50,
                    "/api/replays/x/at/" + "9" * 5000, "/api/replays/x/at/-1"):
            r = c.get(url)
            assert r.status_code in (400, 404), (url[:60], r.text)
        base = {"game": "nim", "players": 2, "seats": ["person", "person"]}
        for asked, says in (({**base, "seed": 10 ** 4000}, "seed"), ({**base, "seed": -1}, "seed"),
                            ({**base, "seats": ["mcts:1000000", "person"]}, "at most"),
                            ({**base, "seats": ["mcts:600s", "person"]}, "at most"),
                            # rollouts ten times as long, or guided: each iteration costs as several
                            ({**base, "seats": ["mcts:1500:depth=200", "person"]}, "at most"),
                            ({**base, "seats": ["mcts:1000:rollout=heuristic", "person"]}, "at most"),
                            ({**base, "seats": ["mcts:100:batch=99", "person"]}, "batch"),
                            ({**base, "scenario": "../../../etc/passwd"}, "no scenario")):
            r = c.post("/api/tables", json=asked)
            assert r.status_code == 400 and says in r.json()["error"], r.text
        kept = c.post("/api/tables", json={**base, "seats": ["mcts:500:reuse:depth=10", "person"]})
        assert kept.status_code in (200, 201), kept.text  # options within the bound are welcome
        games = c.get("/api/games").text
    assert str(FIXTURES) not in games and '"nim"' in games  # a game served from a folder is named by its id


def test_requests_from_other_sites_and_other_names_are_refused(tmp_path):
    asked = {"game": NIM, "players": 2, "seats": ["person", "person"]}
    with _client(tmp_path) as c:
        r = c.post("/api/tables", content=json.dumps(asked), headers={"content-type": "text/plain"})
        assert r.status_code == 415 and "JSON" in r.json()["error"]
        r = c.post("/api/tables", json=asked, headers={"origin": "http://evil.example"})
        assert r.status_code == 403 and "another site" in r.json()["error"]
        r = c.post("/api/tables", json=asked, headers={"origin": "null"})
        assert r.status_code == 403
        r = c.post("/api/tables", json=asked, headers={"sec-fetch-site": "cross-site"})
        assert r.status_code == 403
        r = c.get("/api/tables", headers={"host": "rebound.evil.example:8000"})
        assert r.status_code == 403 and "--allow-host" in r.json()["error"]
        r = c.post("/api/tables", json=asked, headers={"origin": BASE})
        assert r.status_code == 201, r.text
        assert c.get("/api/tables", headers={"host": "localhost:8000"}).status_code == 200
    assert not (tmp_path / "tables").exists() or len(list((tmp_path / "tables").glob("*.json"))) == 1
    open_app = TestClient(make_app(tmp_path / "any", NIM, bot_delay=0, hosts=None), base_url="http://anything")
    with open_app as c:
        assert c.get("/api/tables").status_code == 200


def test_an_act_needs_the_version_it_was_chosen_on_and_applies_once(tmp_path):
    with _client(tmp_path) as c:
        made = c.post("/api/tables", json={"game": NIM, "players": 2, "seats": ["person", "person"],
                                           "seed": 1}).json()
        key = made["owner_key"]
        v = c.get(f"/api/tables/{made['id']}", params={"key": key}).json()
        seat = v["decision"]["player"] + 1
        r = c.post(f"/api/tables/{made['id']}/act", json={"key": key, "seat": seat, "option": 0})
        assert r.status_code == 400 and "version" in r.json()["error"]
        acts = [c.post(f"/api/tables/{made['id']}/act", json={"key": key, "seat": seat, "option": 0,
                                                               "version": v["version"]}) for _ in range(2)]
        assert [a.status_code for a in acts] == [200, 409]
        assert len(c.get(f"/api/tables/{made['id']}", params={"key": key}).json()["log"]) > len(v["log"])


def test_a_table_is_made_only_with_options_of_their_declared_kinds(tmp_path):
    with _client(tmp_path) as c:
        for options in ({"misere": {"a": 1}}, {"misere": [1]}, {"most": None}, {"most": 7}):
            r = c.post("/api/tables", json={"game": NIM, "players": 2, "seats": ["random", "random"],
                                            "options": options})
            assert r.status_code == 400 and "option" in r.json()["error"].lower(), (options, r.text)
        assert not list((tmp_path / "tables").glob("*.json"))


def test_a_bad_table_file_is_set_aside_and_the_server_starts(tmp_path):
    tables = tmp_path / "tables"
    tables.mkdir()
    (tables / "deep00.json").write_text("[" * 3000 + "]" * 3000)
    (tables / "wrong1.json").write_text(json.dumps({"regles_table": 1, "id": "wrong1", "spec": [1]}))
    (tables / "nanval.json").write_text('{"regles_table": NaN}')
    with _client(tmp_path) as c:
        assert c.get("/api/tables").json()["tables"] == []
        r = c.get("/api/tables/deep00", params={"key": "x"})
        assert r.status_code == 404 and "could not be restored" in r.json()["error"]
        assert str(tmp_path) not in r.text


def test_what_the_server_keeps_is_bounded(tmp_path, trace, monkeypatch):
    monkeypatch.setattr(web_app, "UPLOADS_KEPT", 2)
    monkeypatch.setattr(web_app, "TABLES_KEPT", 3)
    header, events = trace
    with _client(tmp_path) as c:
        names = [c.post("/api/replays", content=_text(header, events), headers=JSON).json()["name"]
                 for _ in range(3)]
        kept = sorted(p.stem for p in (tmp_path / "traces").glob("upload-*.jsonl"))
        assert kept == sorted(names[1:])
        person = {"game": NIM, "players": 2, "seats": ["person", "person"]}
        bots = {"game": NIM, "players": 2, "seats": ["random", "random"]}
        first = c.post("/api/tables", json=bots).json()
        for _ in range(100):  # the bots finish the first table
            if c.get(f"/api/tables/{first['id']}", params={"key": first["owner_key"]}).json()["over"]:
                break
            time.sleep(0.05)
        playing = [c.post("/api/tables", json=person).json()["id"] for _ in range(2)]
        fourth = c.post("/api/tables", json=person)
        assert fourth.status_code == 201  # the finished table made room
        ids = set(c.app.state.server.tables)
        assert ids == {*playing, fourth.json()["id"]}
        assert (tmp_path / "traces" / f"{first['id']}.jsonl").is_file()  # its replay stays
        r = c.post("/api/tables", json=person)
        assert r.status_code == 503 and "tables in play" in r.json()["error"]


def test_a_missing_name_says_so_without_the_servers_folders(tmp_path):
    with _client(tmp_path) as c:
        for url in ("/api/replays/nothing-here", "/replay/nothing", "/api/tables/abcdef123456",
                    "/api/replays/nothing/at/0"):
            r = c.get(url)
            assert r.status_code == 404 and str(tmp_path) not in r.text and "/tmp" not in r.text


class _Served(Served):
    def get(self, path: str) -> bytes:
        with self.connect() as s:
            s.sendall(f"GET {path} HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n".encode())
            return _read_all(s)


def _read_all(s: socket.socket) -> bytes:
    out = b""
    while True:
        try:
            got = s.recv(65536)
        except (ConnectionResetError, TimeoutError):
            return out
        if not got:
            return out
        out += got


def test_a_slow_or_half_sent_request_is_cut_and_connections_are_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(guard, "REQUEST_SECONDS", 0.5)
    monkeypatch.setattr(guard, "MAX_CONNECTIONS", 8)
    served = _Served(tmp_path, NIM)
    try:
        half = [served.connect() for _ in range(8)]
        for s in half:
            s.sendall(b"GET /api/tables HTTP/1.1\r\nhost: 127.0.0.1\r\n")  # the headers never end
        extra = served.connect()
        assert extra.recv(4096).startswith(b"HTTP/1.1 503")  # one connection beyond the bound
        extra.close()
        time.sleep(1.5)
        for s in half:  # each cut when its time ran out
            assert _read_all(s) == b""
            s.close()
        assert b"200 OK" in served.get("/api/tables").split(b"\r\n", 1)[0]  # and the server answers
    finally:
        served.stop()


def test_a_fault_is_told_without_the_servers_paths_and_its_table_survives_a_restart(tmp_path):
    game = str(FIXTURES / "broken")
    with TestClient(make_app(tmp_path, game, bot_delay=0), base_url=BASE) as c:
        made = c.post("/api/tables", json={"game": "broken", "players": 2, "seats": ["person", "person"],
                                           "seed": 1, "options": {"mode": "fault"}}).json()
        v = c.get(f"/api/tables/{made['id']}", params={"key": made["owner_key"], "seat": 1}).json()
        explode = next(o["index"] for o in v["decision"]["options"] if o["label"] == "Explode")
        r = c.post(f"/api/tables/{made['id']}/act", json={"key": made["owner_key"], "seat": 1, "option": explode,
                                                          "version": v["version"]})
        assert "exploded in turn 1" in r.json()["fault"] and "broken/game.yaml:" in r.json()["fault"]
        assert str(FIXTURES) not in r.text
        before = c.get(f"/api/tables/{made['id']}", params={"key": made["owner_key"], "seat": 1}).json()
    with TestClient(make_app(tmp_path, game, bot_delay=0), base_url=BASE) as c:  # a restart: the table stays stopped
        after = c.get(f"/api/tables/{made['id']}", params={"key": made["owner_key"], "seat": 1}).json()
        assert after == before and "exploded in turn 1" in after["fault"]
        r = c.post(f"/api/tables/{made['id']}/act", json={"key": made["owner_key"], "seat": 1, "option": 0,
                                                          "version": after["version"]})
        assert r.status_code == 409 and "stopped on an error of its rules" in r.json()["error"]
