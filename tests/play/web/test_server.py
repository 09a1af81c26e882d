"""The web table's server, through the JSON it sends: whole games, masking, secret choices,
errors, and tables surviving a restart.

The pages put whatever they are sent on screen, so what a seat may see is decided here,
in the JSON: these tests read it as a browser would receive it.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import interpreter

pytest.importorskip("starlette")
pytest.importorskip("httpx2")
from starlette.testclient import TestClient  # noqa: E402

from interpreter.play.web.app import make_app  # noqa: E402
from interpreter.play.web.layout import TableLayout  # noqa: E402
from interpreter.play.web.views import CardTexts, TableView  # noqa: E402

from gamekit import FIXTURES  # noqa: E402


def _client(folder, game=None, mods=(), **kw):
    return TestClient(make_app(folder, game, mods, bot_delay=0), base_url="http://127.0.0.1:8000", **kw)


def _new(c, **asked):
    r = c.post("/api/tables", json=asked)
    assert r.status_code == 201, r.text
    return r.json()


def _view(c, made, seat=None, key=None, **params):
    key = key or (made["seats"][seat]["key"] if seat is not None else made["owner_key"])
    q = {"key": key, **({"seat": seat + 1} if seat is not None else {}), **params}
    r = c.get(f"/api/tables/{made['id']}", params=q)
    assert r.status_code == 200, r.text
    return r.json()


def _settled(c, made, seat):
    """The view of `seat` once the bots have played up to a person's decision or the end."""
    v = _view(c, made, seat)
    for _ in range(200):
        d = v["decision"]
        if v["over"] or v["fault"] or (d and d["player"] in v["opens"]):
            return v
        v = _view(c, made, seat, after=v["version"])
    raise AssertionError("the bots never stopped")


def _play_to_end(c, made, seat, pick=lambda v: 0):
    v = _settled(c, made, seat)
    moves = 0
    while not v["over"]:
        assert v["fault"] is None, v["fault"]
        r = c.post(f"/api/tables/{made['id']}/act", json={"key": made["seats"][seat]["key"], "seat": seat + 1,
                                                          "option": pick(v), "version": v["version"]})
        assert r.status_code == 200, r.text
        moves += 1
        v = _settled(c, made, seat)
    return v, moves


def _lasting(v: dict) -> dict:
    """A view without who is connected now (which a restart of the server forgets)."""
    return {**v, "watchers": None, "seats": [{k: x for k, x in s.items() if k != "connected"} for s in v["seats"]]}


def _strings(data) -> set:
    out = set()
    if isinstance(data, dict):
        for k, v in data.items():
            out.add(str(k))
            out |= _strings(v)
    elif isinstance(data, list):
        for v in data:
            out |= _strings(v)
    elif isinstance(data, str):
        out.add(data)
    return out


def test_a_person_plays_a_whole_game_against_a_bot_and_its_trace_replays(tmp_path):
    with _client(tmp_path) as c:
        made = _new(c, game="karman-swap", players=2, seats=["person", "greedy"], seed=5)
        assert made["seats"][1]["key"] is None  # a bot's seat opens to nobody
        v, moves = _play_to_end(c, made, 0)
        assert moves > 10
        assert v["winners"] and set(v["winners"]) <= {0, 1}
        assert v["standing"] == "Rounds won"  # the game is won by rounds: its end shows them
        assert max(s["standing"] for s in v["seats"]) == 2 and v["seats"][v["winners"][0]]["standing"] == 2
        assert v["log"][-1].startswith("==") and "win" in v["log"][-1]
        listed = c.get("/api/replays").json()["replays"]
        assert [r["name"] for r in listed] == [made["id"]]
        summary = c.get(f"/api/replays/{made['id']}").json()
        assert summary["divergence"] is None
        assert summary["result"]["finished"] and summary["agents"] == ["person", "greedy"]
        assert (tmp_path / "traces" / f"{made['id']}.jsonl").is_file()


def test_a_seat_is_sent_only_what_it_may_see(tmp_path):
    """Two people at one Seeders table: neither's JSON names a card the other holds hidden."""
    with _client(tmp_path) as c:
        made = _new(c, game="seeders-exodus", players=2, seats=["person", "person"], seed=3)
        table = c.app.state.server.tables[made["id"]]
        program = table.game.program
        checked = 0
        for _ in range(30):
            views = [_view(c, made, s) for s in (0, 1)]
            for s in (0, 1):
                other = 1 - s
                hand = next(z for z in views[s]["seats"][other]["zones"] if z["name"] == "hand")
                assert hand.get("hidden") and "components" not in hand
                with table.lock:
                    obs = table.state.observation(s)["zones"]
                    seen = {program.comp_card[x].title for key, comps in table.state.zones.items()
                            if isinstance(obs.get(key), list) for x in comps}
                    hidden = {program.comp_card[x].title for key, comps in table.state.zones.items()
                              if key.endswith(f"#{other}") and not isinstance(obs.get(key), list) for x in comps}
                theirs = hidden - seen
                checked += len(theirs)
                assert not theirs & _strings(views[s]), f"seat {s + 1} was sent a card seat {other + 1} hides"
                d = views[s]["decision"]
                assert ("options" in d) == (d["player"] == s)  # only the seat deciding is sent its options
            who = views[0]["decision"]["player"]
            r = c.post(f"/api/tables/{made['id']}/act", json={"key": made["seats"][who]["key"], "seat": who + 1,
                                                              "option": 0, "version": views[who]["version"]})
            assert r.status_code == 200, r.text
        assert checked > 20  # hidden cards whose titles this seat sees nowhere were there to leak


def test_a_secret_choice_reaches_no_other_page_before_the_reveal(tmp_path):
    """Two tables, same seed: seat 1 stakes 1 at one and 2 at the other, secretly. Until the
    rules reveal it, seat 2 is sent the very same JSON at both."""
    game = str(FIXTURES / "bids")
    with _client(tmp_path, game) as c:
        sent = []
        for stake in (0, 1):
            made = _new(c, game=game, players=2, seats=["person", "person"], seed=9)
            v = _view(c, made, 0)
            assert v["decision"]["secret"]
            for option in (0, stake):  # the sealed bid (the same card), then the stake
                r = c.post(f"/api/tables/{made['id']}/act", json={"key": made["seats"][0]["key"], "seat": 1,
                                                                  "option": option, "version": v["version"]})
                assert r.status_code == 200, r.text
                v = r.json()
            chosen = "\n".join(v["log"])
            seen = _view(c, made, 1)
            assert seen["decision"]["player"] == 1 and seen["decision"]["secret"]
            assert "Stake" not in json.dumps(seen["log"])  # told that seat 1 chose, not what
            sent.append({k: x for k, x in seen.items() if k != "table"})
            assert ("Stake 2" if stake else "Stake 1") in chosen  # seat 1's own page is told its choice
        assert sent[0] == sent[1]
        assert "Stake 2" not in json.dumps(sent[1])


def test_keys_open_only_their_seats_and_the_makers_key_opens_every_person(tmp_path):
    with _client(tmp_path) as c:
        made = _new(c, game="karman-swap", players=2, seats=["person", "person"], seed=1)
        one, two = made["seats"][0]["key"], made["seats"][1]["key"]
        assert _view(c, made, key=one)["opens"] == [0]
        assert _view(c, made, key=made["owner_key"])["opens"] == [0, 1]
        r = c.get(f"/api/tables/{made['id']}", params={"key": one, "seat": 2})
        assert r.status_code == 403 and "seat 2" in r.json()["error"]
        for guess in ("guess", "clé-é", ""):
            r = c.get(f"/api/tables/{made['id']}", params={"key": guess})
            assert r.status_code == 403
        r = c.post(f"/api/tables/{made['id']}/act", json={"key": 12, "seat": 1, "option": 0, "version": 0})
        assert r.status_code == 403
        v = _view(c, made, key=one)
        who = v["decision"]["player"]
        r = c.post(f"/api/tables/{made['id']}/act", json={"key": [two, one][who], "seat": who + 1, "option": 0,
                                                          "version": v["version"]})
        assert r.status_code == 403


@pytest.mark.parametrize("method,url,body,status,says", [
    ("GET", "/api/tables/nosuchtable", None, 404, "no table"),
    ("GET", "/api/games/chess", None, 404, "no game 'chess'"),
    ("GET", "/api/games?lang=de", None, 400, "'lang' is the language the table is told in: one of en, fr"),
    ("POST", "/api/tables", b"{not json", 400, "not valid JSON"),
    ("POST", "/api/tables", [], 400, "JSON object"),
    ("POST", "/api/tables", {"game": "karman-swap", "players": 9, "seats": []}, 400, "2 to 4 players"),
    ("POST", "/api/tables", {"game": "karman-swap", "players": 2, "seats": ["person", "wizard"]}, 400, "wizard"),
    ("POST", "/api/tables", {"game": "karman-swap", "players": "two", "seats": []}, 400, "whole number"),
    ("POST", "/api/tables", {"game": "karman-swap", "seats": ["person"] * 2, "options": {"x": 1}}, 400, "option"),
    ("GET", "/replay/..%2Fetc%2Fpasswd", None, 404, "no page"),
    ("GET", "/replay/.hidden", None, 404, "no trace"),
    ("GET", "/api/replays/nothing-here", None, 404, "no trace"),
    ("POST", "/api/replays", b"not a trace", 400, "not a trace"),
    ("POST", "/api/replays", b"x" * (8 * 1024 * 1024 + 1), 413, "larger than 8 MB"),
    ("POST", "/api/tables", b"x" * (64 * 1024 + 1), 413, "larger than 64 KB"),
    ("GET", "/no/such/page", None, 404, "no page or resource at /no/such/page"),
    ("DELETE", "/api/tables", None, 405, "DELETE is not allowed at /api/tables"),
])
def test_bad_requests_get_a_4xx_and_a_clear_message(tmp_path, method, url, body, status, says):
    with _client(tmp_path) as c:
        kw = ({"content": body, "headers": {"content-type": "application/json"}} if isinstance(body, bytes)
              else {"json": body} if body is not None else {})
        r = c.request(method, url, **kw)
        assert r.status_code == status, r.text
        assert says.lower() in r.json()["error"].lower()
        assert "Traceback" not in r.text


def test_stale_and_illegal_actions_are_refused(tmp_path):
    with _client(tmp_path) as c:
        made = _new(c, game="karman-swap", players=2, seats=["person", "person"], seed=2)
        v = _view(c, made, key=made["owner_key"])
        who = v["decision"]["player"]
        act = f"/api/tables/{made['id']}/act"
        r = c.post(act, json={"key": made["owner_key"], "seat": who + 1, "option": 99, "version": v["version"]})
        assert r.status_code == 400 and "no option 99" in r.json()["error"]
        r = c.post(act, json={"key": made["owner_key"], "seat": who + 1, "option": 0, "version": v["version"] + 5})
        assert r.status_code == 409 and "changed" in r.json()["error"]
        r = c.post(act, json={"key": made["owner_key"], "seat": 2 - who, "option": 0, "version": v["version"]})
        assert r.status_code == 409 and "not seat" in r.json()["error"]


def test_a_fault_of_the_server_is_a_500_without_a_traceback(tmp_path, monkeypatch):
    from interpreter.play.web import tables
    with _client(tmp_path, raise_server_exceptions=False) as c:
        made = _new(c, game="karman-swap", players=2, seats=["person", "greedy"], seed=1)

        def broken(*a, **k):
            raise RuntimeError("secret internals")
        monkeypatch.setattr(tables.TableView, "data", broken)
        r = c.get(f"/api/tables/{made['id']}", params={"key": made["owner_key"]})
        assert r.status_code == 500
        assert r.json() == {"error": "the server failed on this request; its log says why"}


def test_a_table_survives_a_restart_of_the_server(tmp_path):
    with _client(tmp_path) as c:
        made = _new(c, game="karman-swap", players=2, seats=["person", "person"], seed=4)
        for _ in range(6):
            v = _view(c, made, key=made["owner_key"])
            r = c.post(f"/api/tables/{made['id']}/act", json={"key": made["owner_key"], "version": v["version"],
                                                              "seat": v["decision"]["player"] + 1, "option": 0})
            assert r.status_code == 200
        before = [_view(c, made, s) for s in (0, 1)]
    saved = json.loads((tmp_path / "tables" / f"{made['id']}.json").read_text())
    assert len(saved["state"]["history"]) >= 6  # the engine's own JSON of the state
    with _client(tmp_path) as c:  # a new server over the same folder
        after = [_view(c, made, s) for s in (0, 1)]
        assert [_lasting(v) for v in after] == [_lasting(v) for v in before]
        who = after[0]["decision"]["player"]
        r = c.post(f"/api/tables/{made['id']}/act", json={"key": made["owner_key"], "seat": who + 1, "option": 0,
                                                          "version": after[0]["version"]})
        assert r.status_code == 200 and r.json()["version"] == after[0]["version"] + 1
        before = [_view(c, made, s) for s in (0, 1)]
    (tmp_path / "tables" / "broken00.json").write_text("{")
    with _client(tmp_path) as c:  # a file that cannot be read is set aside, with the reason
        r = c.get("/api/tables/broken00")
        assert r.status_code == 404 and "could not be restored" in r.json()["error"]
        assert _lasting(_view(c, made, 0)) == _lasting(before[0])


def test_pages_are_served_with_a_policy_that_runs_only_their_own_scripts(tmp_path):
    with _client(tmp_path) as c:
        made = _new(c, game="karman-swap", players=2, seats=["person", "greedy"], seed=1)
        for url in ("/", f"/table/{made['id']}"):
            r = c.get(url)
            assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
            assert "script-src 'self'" in r.headers["content-security-policy"]
        r = c.get("/table/nosuchtable")
        assert r.status_code == 404


def test_the_pages_never_write_markup_from_data():
    static = Path(__file__).resolve().parents[3] / "interpreter" / "play" / "web" / "static"
    for js in static.glob("*.js"):
        text = js.read_text(encoding="utf-8")
        code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"):
            assert sink not in code, f"{js.name} uses {sink}"


def test_the_start_page_is_offered_what_the_content_declares(tmp_path):
    with _client(tmp_path) as c:
        games = {g["name"]: g for g in c.get("/api/games").json()["games"]}
        assert set(games) == {"karman-swap", "seeders-exodus", "etherium"}
        seeders = games["seeders-exodus"]
        assert {"tais", "etho", "hanks"} <= {x["id"] for x in seeders["expansions"]}
        solo = seeders["solo"][0]
        assert solo["levels"] == ["easy", "normal", "hard"]
        three = c.get("/api/games/seeders-exodus", params={"scenario": "etho-3j"}).json()
        assert three["player_counts"] == [3]  # the scenario's sheet is for 3 players
        # the scenarios titled in the page's language (English unless it asks for another)
        titles = {s["id"]: s["title"] for s in seeders["scenarios"]}
        assert titles["etho-2j"] == "The Conclave" and titles["tais-2j"] == "Smuggling in the Hold"
        french = {g["name"]: g for g in c.get("/api/games", params={"lang": "fr"}).json()["games"]}
        titles = {s["id"]: s["title"] for s in french["seeders-exodus"]["scenarios"]}
        assert titles["etho-2j"] == "Le Conclave" and titles["tais-2j"] == "Contrebande dans la Soute"
        laid = c.get("/api/games/seeders-exodus", params={"scenario": "etho-3j", "lang": "fr"}).json()
        assert {s["id"]: s["title"] for s in laid["scenarios"]}["etho-3j"] == "La Dîme de Xzhüü"
        # the expansions, the options and their values, the solo mode's levels: in the page's language
        # by the game's words (the values themselves are what a table is made with)
        english = {x["id"]: x["title"] for x in games["etherium"]["expansions"]}
        assert english == {"mauhea-meinas": "Mauhéa and Meinas: Etherium for 5 and 6"}
        assert {x["id"]: x["title"] for x in french["etherium"]["expansions"]} == {
            "mauhea-meinas": "Mauhéa et Meinas : Etherium à 5 et 6"}
        layout = c.get("/api/games/etherium", params={"lang": "fr"}).json()["options"]
        assert layout == [{"name": "layout", "title": "plateau", "type": "text",
                           "values": ["first-game", "experienced"],
                           "labels": ["première partie", "joueurs expérimentés"], "default": "first-game"}]
        assert games["etherium"]["options"][0]["title"] == "board"
        assert games["etherium"]["options"][0]["labels"] == ["first game", "experienced players"]
        tais = c.get("/api/games/seeders-exodus", params={"expansions": "tais", "lang": "fr"}).json()["options"]
        muta = next(o for o in tais if o["name"] == "muta_pp")
        assert muta["title"] == "PP par Muta-Vecteur" and muta["labels"] == ["1", "2", "3"]  # numbers: as written
        assert french["seeders-exodus"]["solo"][0]["level_labels"] == ["facile", "normal", "difficile"]
        # the bots as the terminal says them, in the page's language (the ids are what a seat is made with)
        assert french["etherium"]["bots"] == games["etherium"]["bots"] == ["random", "greedy", "mcts:100", "mcts:400"]
        assert french["etherium"]["bot_labels"] == ["coups au hasard", "glouton", "recherche, 100 itérations",
                                                    "recherche, 400 itérations"]
        assert games["etherium"]["bot_labels"] == ["random", "greedy", "search, 100 iterations",
                                                   "search, 400 iterations"]
        assert french["seeders-exodus"]["solo"][0]["title"] == "Mode solo contre KB12"
        assert solo["title"] == "Solo mode against KB12"
        alone = c.get("/api/games/seeders-exodus", params={"expansions": solo["id"]}).json()
        assert alone["automata"] == {"2": "KB12"}
        made = _new(c, game="seeders-exodus", solo="hard", players=2, seats=["person", "greedy"], seed=1)
        v = _view(c, made, 0)
        assert [s["who"] for s in v["seats"]] == ["person", "KB12"]
        table = c.app.state.server.tables[made["id"]]
        assert table.state.options[solo["option"]] == "hard"
        five = _new(c, game="etherium", expansions=["mauhea-meinas"], players=5, seats=["greedy"] * 5, seed=1)
        assert len(_view(c, five, key=five["owner_key"])["seats"]) == 5


def test_a_fault_of_the_rules_stops_the_table_and_saves_the_trace_so_far(tmp_path):
    game = str(FIXTURES / "broken")
    with _client(tmp_path, game) as c:
        made = _new(c, game=game, players=2, seats=["person", "person"], seed=1, options={"mode": "fault"})
        v = _view(c, made, 0)
        explode = next(o["index"] for o in v["decision"]["options"] if o["label"] == "Explode")
        r = c.post(f"/api/tables/{made['id']}/act", json={"key": made["owner_key"], "seat": 1, "option": explode,
                                                          "version": v["version"]})
        assert r.status_code == 200
        v = r.json()
        assert "exploded in turn 1" in v["fault"]
        r = c.post(f"/api/tables/{made['id']}/act", json={"key": made["owner_key"], "seat": 1, "option": 0,
                                                          "version": v["version"]})
        assert r.status_code == 409 and "stopped on an error of its rules" in r.json()["error"]
        summary = c.get(f"/api/replays/{made['id']}").json()
        assert "exploded in turn 1" in summary["error"]["message"]
        assert summary["divergence"] is None  # the trace so far replays, failing as it failed


def test_a_score_kept_hidden_is_not_sent_to_the_other_seats(tmp_path):
    game = tmp_path / "secret-score"
    game.mkdir()
    (game / "game.yaml").write_text(
        "kind: game\nid: secret-score\ntitle: Secret score\nplayers: {min: 2, max: 2}\n"
        "counters:\n  pp: {scope: player, visibility: owner}\nscore: pp\n"
        "procedures:\n  game: |\n    for each p in players:\n      choose by p \"Points\":\n"
        "        option \"Seven\":\n          score 7 to p\n        option \"One\":\n          score 1 to p\n"
        "    win first(players)\n", encoding="utf-8")
    with _client(tmp_path / "data", str(game)) as c:
        made = _new(c, game=str(game), players=2, seats=["person", "person"], seed=1)
        v = _view(c, made, 0)
        r = c.post(f"/api/tables/{made['id']}/act", json={"key": made["owner_key"], "seat": 1, "option": 0,
                                                          "version": v["version"]})
        assert r.status_code == 200
        mine, theirs = _view(c, made, 0), _view(c, made, 1)
        assert mine["seats"][0]["score"] == 7 and theirs["seats"][0]["score"] is None
        assert {"name": "pp", "hidden": True} in theirs["seats"][0]["counters"]
        assert 7 not in [s.get("value") for s in theirs["seats"][0]["counters"]]


@pytest.mark.parametrize("game_id", ["karman-swap", "seeders-exodus", "etherium"])
def test_what_a_seat_may_not_see_changes_nothing_it_is_sent(game_id):
    """Two states that differ only in two components the seat cannot see (swapped between
    zones hidden from it) give that seat the very same view."""
    game = interpreter.load(game_id)
    layout, texts = TableLayout(game.program), CardTexts(game.program)
    st = game.new_state(game.max_players, 4, game.options({}))
    rng = random.Random(4)
    swapped = 0
    for step in range(160):
        if st.is_terminal():
            break
        st.apply(rng.randrange(len(st.legal_actions())))
        if step % 20:
            continue
        for seat in range(st.n):
            obs = st.observation(seat)["zones"]
            hidden = [k for k, v in obs.items() if isinstance(v, dict) and st.zones.get(k)]
            pairs = [(a, b) for i, a in enumerate(hidden) for b in hidden[i + 1:]
                     if game.program.comp_card[st.zones[a][-1]].id != game.program.comp_card[st.zones[b][-1]].id]
            if not pairs:
                continue
            ka, kb = pairs[0]
            twin = st.clone()
            a, b = twin.zones[ka][-1], twin.zones[kb][-1]
            twin.zones[ka][-1], twin.zones[kb][-1] = b, a
            twin.where[a], twin.where[b] = twin.where[b], twin.where[a]
            who = ["person"] * st.n
            assert TableView(twin, layout, texts, seat).data(who) == TableView(st, layout, texts, seat).data(who)
            assert TableView(twin, layout, texts, None).data(who) != TableView(st, layout, texts, None).data(who)
            swapped += 1
    assert swapped >= 3


def test_the_log_marks_what_is_new_since_the_seats_last_decision(tmp_path):
    with _client(tmp_path) as c:
        made = _new(c, game="karman-swap", players=2, seats=["person", "greedy"], seed=5)
        v = _settled(c, made, 0)
        assert v["log_mark"] is None  # no decision yet
        for _ in range(60):
            r = c.post(f"/api/tables/{made['id']}/act", json={"key": made["seats"][0]["key"], "seat": 1,
                                                              "option": 0, "version": v["version"]})
            assert r.status_code == 200
            done = r.json()
            # the mark is where the seat's decision ended; the bot, in its own thread, may already
            # have moved since, so the lines after the mark are the others' only
            assert done["log_mark"] is not None and 0 < done["log_mark"] <= done["log_length"]
            assert not any(line.startswith("You chose") for line in done["log"][done["log_mark"]:])
            v = _settled(c, made, 0)
            if v["over"]:
                break
            told = v["log"][v["log_mark"]:]
            if any(line.startswith("Player 2 chose") for line in told):
                break
        assert any(line.startswith("Player 2 chose") for line in v["log"][v["log_mark"]:])
        assert v["log_from"] == 0 and len(v["log"]) == v["log_length"]  # the whole log, bots' moves kept
