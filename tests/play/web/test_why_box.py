"""Why not? at the web table: a seat asks why a move is not offered and is answered as
`regles why` answers, in the table's language, with the rules' line named from the game's
folder; a spectator or another seat's key is refused, and no answer names a card the seat
may not see."""
from __future__ import annotations

import pytest

import interpreter

pytest.importorskip("starlette")
pytest.importorskip("httpx2")
from starlette.testclient import TestClient  # noqa: E402

from interpreter.engine.phrases import Phrase, Value  # noqa: E402
from interpreter.play.web.app import make_app  # noqa: E402
from interpreter.view.texts import texts_of  # noqa: E402
from interpreter.view.why import Saying  # noqa: E402


def _client(folder):
    return TestClient(make_app(folder, None, (), bot_delay=0), base_url="http://127.0.0.1:8000")


def _why(c, made, seat, move, key=None):
    key = key or made["seats"][seat]["key"]
    return c.post(f"/api/tables/{made['id']}/why", json={"key": key, "seat": seat + 1, "move": move})


def _strings(data) -> list:
    if isinstance(data, dict):
        return [s for v in data.values() for s in _strings(v)]
    if isinstance(data, list):
        return [s for v in data for s in _strings(v)]
    return [data] if isinstance(data, str) else []


def test_a_seat_asks_why_and_is_answered_in_the_table_s_language(tmp_path):
    with _client(tmp_path) as c:
        made = c.post("/api/tables", json={"game": "karman-swap", "players": 2, "seats": ["person", "person"],
                                           "seed": 4, "lang": "fr"}).json()
        table = c.app.state.server.tables[made["id"]]
        fr = texts_of(table.game.program, "fr")
        with table.lock:
            now = table.state.current_player
            first = table.state.pending.labels_for(table.state)[0]
        other = 1 - now

        offered = _why(c, made, now, fr(first)).json()  # named as the page shows it
        assert offered["legal"] and offered["answer"].startswith(f"« {fr(first)} » est proposé maintenant : option 1")
        assert offered["asked"].startswith("Vous devez répondre à « ")
        assert offered["where"] is None and offered["version"] == table.version

        theirs = _why(c, made, other, fr(first)).json()
        assert not theirs["legal"] and theirs["answer"].startswith(f"c'est au joueur {now + 1} de décider")
        assert theirs["asked"].startswith(f"Le joueur {now + 1} doit répondre à « ")

        unknown = _why(c, made, now, "Attaquer la lune").json()
        assert not unknown["legal"]
        assert unknown["answer"].startswith("aucune option, carte ni action « Attaquer la lune »")
        assert unknown["where"].startswith("karman-swap/") and str(tmp_path) not in str(unknown)
        line, caret = unknown["excerpt"]
        assert caret.strip().startswith("^") and line.strip()
        assert unknown["rules"].startswith("règles de la procédure ")


@pytest.mark.parametrize("who, body, status, says", [
    ("other", {"move": "Pass"}, 403, "does not open seat 1"),
    ("watcher", {"move": "Pass"}, 403, "does not open seat 1"),
    ("nobody", {"move": "Pass"}, 403, "does not open seat 1"),
    ("seat", {"move": ""}, 400, "the text of a move"),
    ("seat", {"move": "x" * 201}, 400, "at most 200 characters"),
    ("seat", {"move": 5}, 400, "the text of a move"),
    ("seat", {"move": "Pass", "seat": "one"}, 400, "'seat' is a whole number"),
])
def test_a_question_from_a_key_that_does_not_open_the_seat_or_without_a_move_is_refused(tmp_path, who, body,
                                                                                       status, says):
    with _client(tmp_path) as c:
        made = c.post("/api/tables", json={"game": "karman-swap", "players": 2, "seats": ["person", "person"],
                                           "seed": 4}).json()
        table = c.app.state.server.tables[made["id"]]
        key = {"seat": made["seats"][0]["key"], "other": made["seats"][1]["key"], "nobody": "not-a-key",
               "watcher": table.watch_keys["nobody"]}[who]
        r = c.post(f"/api/tables/{made['id']}/why", json={"key": key, "seat": 1, **body})
        assert r.status_code == status, r.text
        assert says in r.json()["error"] and "Traceback" not in r.text


def test_no_answer_names_a_card_the_seat_may_not_see(tmp_path):
    """Two people at a Seeders table: each asks about every card the other holds hidden, as a
    card, as 'use CARD' and as an option's label; no answer names another hidden card, nor
    where the one asked about lies."""
    with _client(tmp_path) as c:
        made = c.post("/api/tables", json={"game": "seeders-exodus", "players": 2, "seats": ["person", "person"],
                                           "seed": 3}).json()
        table = c.app.state.server.tables[made["id"]]
        program = table.game.program
        asked = 0
        for s in (0, 1):
            with table.lock:
                obs = table.state.observation(s)["zones"]
                seen = {program.comp_card[x].title for key, comps in table.state.zones.items()
                        if isinstance(obs.get(key), list) for x in comps}
                hidden = {program.comp_card[x].title for key, comps in table.state.zones.items()
                          if not isinstance(obs.get(key), list) for x in comps} - seen
            assert hidden
            for title in sorted(hidden)[:12]:
                for move in (title, f"use {title}", f"Place your {title}"):
                    said = " ".join(_strings(_why(c, made, s, move).json()))
                    asked += 1
                    assert not {t for t in hidden - {title} if t in said}, (s, move, said)
                    assert " is in " not in said and "deck" not in said, (s, move, said)
        assert asked >= 36


@pytest.mark.parametrize("lang, said", [("en", "c is a card; hand is {0}, a card"),
                                        ("fr", "c = une carte; hand = {0}, une carte")])
def test_a_value_the_seat_may_not_see_is_said_a_card(lang, said):
    program = interpreter.load("karman-swap").program
    shown, hidden = program.comps[:2]
    name = program.comp_card[hidden].title
    parts = [Phrase("is", "c", Value(hidden, name)), "; ",
             Phrase("is", "hand", Value([shown, hidden], f"{program.comp_card[shown].title}, {name}"))]
    assert Saying(program, lang, 0, frozenset({hidden})).all(parts) == said.format(program.comp_card[shown].title)
    assert Saying(program, lang, 0).all(parts).count(name) == 2  # what the seat may see is named


def test_a_seat_asking_without_end_is_told_to_wait(tmp_path, monkeypatch):
    """Each question runs the rules' conditions under the table's lock: a seat may ask a few a
    minute (WHY_PER_MINUTE), then gets a 429 until a minute has passed; another seat still may."""
    from interpreter.play.web import tables
    monkeypatch.setattr(tables, "WHY_PER_MINUTE", 3)
    clock = [1000.0]
    monkeypatch.setattr(tables, "_now", lambda: clock[0])
    with _client(tmp_path) as c:
        made = c.post("/api/tables", json={"game": "karman-swap", "players": 2, "seats": ["person", "person"],
                                           "seed": 4}).json()
        assert [_why(c, made, 0, "Pass").status_code for _ in range(4)] == [200, 200, 200, 429]
        refused = _why(c, made, 0, "Pass").json()["error"]
        assert refused.startswith("seat 1 has asked 3 questions in the last minute")
        assert _why(c, made, 1, "Pass").status_code == 200  # each seat its own
        clock[0] += 61
        assert _why(c, made, 0, "Pass").status_code == 200


def test_a_replay_answers_why_not_at_a_decision_as_regles_why_does(tmp_path):
    with _client(tmp_path) as c:
        made = c.post("/api/tables", json={"game": "karman-swap", "players": 2, "seats": ["person", "greedy"],
                                           "seed": 3}).json()
        key, url = made["seats"][0]["key"], f"/api/tables/{made['id']}"
        v = c.get(url, params={"key": key, "seat": 1}).json()
        for _ in range(400):  # the person takes the first option each time, the bot plays its own
            if v["over"]:
                break
            if v["decision"] and v["decision"]["player"] == 0 and "options" in v["decision"]:
                v = c.post(f"{url}/act", json={"key": key, "seat": 1, "option": 0, "version": v["version"]}).json()
            else:
                v = c.get(url, params={"key": key, "seat": 1, "after": v["version"]}).json()
        assert v["over"]
        replay = c.get(f"/api/replays/{made['id']}").json()
        k = replay["steps"][3]  # a decision of the game
        whole = c.get(f"/api/replays/{made['id']}/why/{k}", params={"move": "Attaquer la lune"}).json()
        assert not whole["legal"] and whole["event"] == k
        assert whole["answer"] == "no option, card or action 'Attaquer la lune' is known here"
        assert whole["where"].startswith("karman-swap/") and whole["asked"].startswith("player ")
        asker = int(whole["asked"].split()[1])
        as_seat = c.get(f"/api/replays/{made['id']}/why/{k}", params={"move": "Pass", "seat": asker,
                                                                       "lang": "fr"}).json()
        assert as_seat["asked"].startswith("Vous devez répondre à « ")
        for params, status in (({"move": "x" * 201}, 400), ({}, 400), ({"move": "Pass", "seat": 9}, 400)):
            r = c.get(f"/api/replays/{made['id']}/why/{k}", params=params)
            assert r.status_code == status, r.text
        assert c.get(f"/api/replays/{made['id']}/why/99999", params={"move": "Pass"}).status_code == 404
