"""A table told in French: its log, its cards, the names of its zones and counters, the
question asked and its options, and what the table says of itself, in the language the table
was made in (`lang`), as `regles play --lang fr` tells the same game."""
from __future__ import annotations

import re

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")
from tables_api import client as _client
from tables_api import new_table as _new
from tables_api import view as _get

import interpreter
from interpreter.language.prose import Prose
from interpreter.play.web.tables import restore
from interpreter.view.texts import texts_of


def _key(made, seat):
    return made["seats"][seat]["key"]


def _table(c, made):
    return c.app.state.server.tables[made["id"]]


def test_an_unknown_language_is_refused_with_the_languages_there_are(tmp_path):
    with _client(tmp_path) as c:
        r = c.post("/api/tables", json={"game": "karman-swap", "players": 2, "seats": ["person", "greedy"],
                                        "lang": "de"})
        assert r.status_code == 400 and "en, fr" in r.json()["error"]


def test_a_french_table_shows_the_game_in_french(tmp_path):
    with _client(tmp_path) as c:
        fr = _new(c, game="seeders-exodus", players=3, seats=["person", "greedy", "greedy"], seed=3, lang="fr")
        en = _new(c, game="seeders-exodus", players=3, seats=["person", "greedy", "greedy"], seed=3)
        v, w = _get(c, fr, _key(fr, 0)), _get(c, en, _key(en, 0))
        program = _table(c, fr).game.program
        assert (v["lang"], w["lang"]) == ("fr", "en")
        assert [s["name"] for s in v["seats"]] == ["joueur 1", "joueur 2", "joueur 3"]
        assert [s["name"] for s in w["seats"]] == ["player 1", "player 2", "player 3"]
        # a bot told in the table's words, as the terminal and the start page tell it
        assert [s["who_said"] for s in v["seats"][1:]] == ["glouton", "glouton"]
        assert [s["who_said"] for s in w["seats"][1:]] == ["greedy", "greedy"]
        listed = _new(c, game="karman-swap", players=2, seats=["person", "greedy"], seed=3, lang="fr",
                      house={"listed": True})
        lobby = {t["id"]: t for t in c.get("/api/tables").json()["tables"]}
        assert [(s["who"], s["who_said"]) for s in lobby[listed["id"]]["seats"][1:]] == [("greedy", "glouton")]
        # the lobby told in the language of the page that asks, whatever the table's
        for lang, seat, bot in (("en", "player 2", "greedy"), ("fr", "joueur 2", "glouton")):
            told = {t["id"]: t for t in c.get(f"/api/tables?lang={lang}").json()["tables"]}[listed["id"]]
            assert (told["seats"][1]["name"], told["seats"][1]["who_said"]) == (seat, bot)
        assert c.get("/api/tables?lang=de").status_code == 400
        # the question and its options as the game's vocabulary writes them in French
        said = texts_of(program, "fr")
        assert v["decision"]["prompt"] == said(w["decision"]["prompt"]) != w["decision"]["prompt"]
        assert [o["label"] for o in v["decision"]["options"]] == [said(o["label"]) for o in w["decision"]["options"]]
        # zones and counters named by the vocabulary, in the plural where they count several
        mine = v["seats"][0]
        assert "paquet" in [z["name"] for z in mine["zones"]]
        assert "packet" in [z["name"] for z in w["seats"][0]["zones"]]
        cubes = next(k for k in mine["counters"] if k["value"] == 30)
        assert cubes["name"] == "cubes non placés"
        assert any(k["name"].endswith(" en réserve") for k in v["counters"])
        supplies = [k for k in v["counters"] if "supply" in k]  # (the page lists them under « en réserve : »)
        assert supplies and all(k["name"] == f"{k['supply']} en réserve" for k in supplies), supplies
        # the log told in French, as the terminal tells it
        assert v["log"][1].strip() == "mélange de la pioche Arche"
        assert w["log"][1].strip() == "Arche deck shuffled"
        assert any(re.search("pass(e|ent) de la pioche Arche à votre paquet", line) for line in v["log"])
        # the deal of the cards another seat holds hidden, told once with its count, as the terminal tells it
        assert any(re.fullmatch(r"\d+ cartes passent de la pioche Arche au paquet du joueur 2", line.strip())
                   for line in v["log"]), v["log"][:12]
        # the cards written in French, their attributes named so
        card_id, card = next((k, x) for k, x in v["cards"].items() if x["text"])
        defn = program.defn
        assert card["text"] == [str(t) for t in Prose(defn, program.found, "fr").face_texts(
            next(c for c in defn.cards if c.id == card_id))]
        assert card["text"] != w["cards"][card_id]["text"]
        # a text a card prints in its words: the caste's colour « rouge », "red" in English
        red = [k for k, x in w["cards"].items() if x["attributes"].get("colour") == "red"]
        assert red and all(v["cards"][k]["attributes"]["colour"] == "rouge" for k in red if k in v["cards"])
        assert v["cards"][red[0]]["names"]["colour"] == "couleur"
        # the spaces of a board, as French names them
        labels = [n["label"] for b in v["boards"] for n in b["nodes"]]
        assert any(label.startswith("emplacement de négociation ") for label in labels)


def test_a_french_table_restored_is_still_french(tmp_path):
    with _client(tmp_path) as c:
        made = _new(c, game="karman-swap", players=2, seats=["person", "greedy"], seed=5, lang="fr")
        table = _table(c, made)
        again = restore(table.to_json(), c.app.state.server.catalogue)
        assert again.lang == "fr" and again.view(_key(made, 0))["seats"][0]["name"] == "joueur 1"


def test_what_the_table_says_of_itself_is_in_its_language(tmp_path):
    with _client(tmp_path) as c:
        made = _new(c, game="karman-swap", players=2, seats=["person", "person"], seed=3, lang="fr",
                    house={"undo": "agreed"})
        table = _table(c, made)
        seat = table.state.current_player
        version = _get(c, made, _key(made, seat))["version"]
        r = c.post(f"/api/tables/{made['id']}/act", json={"key": _key(made, seat), "seat": seat + 1, "option": 0,
                                                          "version": version})
        assert r.status_code == 200, r.text
        asked = c.post(f"/api/tables/{made['id']}/undo", json={"key": _key(made, seat), "seat": seat + 1})
        assert asked.status_code == 200, asked.text
        log = _get(c, made, _key(made, 1 - seat))["log"]
        prompt = texts_of(table.game.program, "fr")(table.undos.asked["prompt"])
        assert f"-- Le joueur {seat + 1} demande à reprendre la décision 1 (« {prompt} »)." in log
        refused = c.post(f"/api/tables/{made['id']}/undo/answer", json={"key": _key(made, 1 - seat),
                                                                      "seat": 2 - seat, "agree": False})
        assert refused.status_code == 200, refused.text
        told = refused.json()["log"]
        assert f"-- Le joueur {2 - seat} refuse de reprendre la décision du joueur {seat + 1}." in told


def test_a_game_without_french_words_is_shown_as_its_rules_write_it(tmp_path):
    """A game whose vocabulary has no French: the table's own words are French, the game's names
    as the rules write them (never garbled)."""
    game = interpreter.load("tests/fixtures/nim")
    with _client(tmp_path, "tests/fixtures/nim") as c:
        made = _new(c, game=game.id, players=2, seats=["person", "greedy"], seed=1, lang="fr")
        v = _get(c, made, _key(made, 0))
        assert v["seats"][0]["name"] == "joueur 1"
        assert {z["name"] for z in v["centre"]} == {"pile"}


def test_a_replay_is_shown_in_the_language_asked_and_forks_a_table_told_in_it(tmp_path):
    import random

    from interpreter.rulings.trace import save_state_trace
    g = interpreter.load("karman-swap")
    st = g.new_state(2, 7, g.options({}), trace=True)
    rng = random.Random(7)
    while not st.is_terminal():
        st.apply(rng.randrange(len(st.legal_actions())))
    (tmp_path / "traces").mkdir()
    save_state_trace(tmp_path / "traces" / "ks.jsonl", g, st, agents=["random", "random"])
    with _client(tmp_path) as c:
        fr, en = c.get("/api/replays/ks", params={"lang": "fr"}).json(), c.get("/api/replays/ks").json()
        assert (fr["lang"], en["lang"]) == ("fr", "en") and len(fr["events"]) == len(en["events"])
        moves = [(a, b) for a, b in zip(fr["events"], en["events"], strict=True)
                 if a["type"] == "move" and " moved " in b["text"]]
        assert moves and all(" passe " in a["text"] and a["changes"] == b["changes"] for a, b in moves)
        assert any("la main du joueur 1" in part for a, _ in moves for part in a["changed"])
        assert c.get("/api/replays/ks", params={"lang": "xx"}).status_code == 400
        k = next(i for i, ev in enumerate(en["events"]) if ev["type"] == "choice" and i > 40)
        seen = c.get(f"/api/replays/ks/at/{k}", params={"lang": "fr", "seat": 1}).json()
        assert [s["name"] for s in seen["seats"]] == ["joueur 1", "joueur 2"] and seen["you"] == 0
        weighed = c.get(f"/api/replays/ks/why-bot/{k}", params={"lang": "fr"}).json()
        english = c.get(f"/api/replays/ks/why-bot/{k}").json()
        assert weighed["asked"].startswith("Le joueur ") and " doit répondre à « " in weighed["asked"]
        said = texts_of(g.program, "fr")
        assert [r["label"] for r in weighed["rows"]] == [said(r["label"]) for r in english["rows"]]
        forked = c.post("/api/replays/ks/fork", json={"event": k, "seats": ["person", "greedy"], "lang": "fr"})
        assert forked.status_code == 201, forked.text
        v = _get(c, forked.json(), forked.json()["owner_key"])
        assert v["lang"] == "fr" and v["log"][0] == f"Partie reprise de la trace ks, à l'événement {k}."
