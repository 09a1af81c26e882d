"""A card's face: its own text, else its keywords' printed texts bound, else prose; W002 where
neither fits; a game's rules index read from its own folder only."""
from __future__ import annotations

import shutil

import pytest

from gamekit import FIXTURES
from interpreter import read_and_check
from interpreter.content.rules_index import read_rules, rules_of
from interpreter.diagnostics import Report
from interpreter.language.prose import Prose

MORE_CARDS = '''
  - id: almanac
    title: Almanac
    type: Building
    cost: 2
    value: 1
    text: {en: "Gain a coin each round.", fr: "Gagnez une pièce à chaque manche.\\nSecond line."}
    abilities:
      - "Income 1"
  - id: ledger
    title: Ledger
    type: Building
    cost: 2
    value: 1
    abilities:
      - |
        action "Audit" during main:
          for each c in in_play(you) where c is Building and c.value >= 1 and c.cost >= 1:
            gain 1 coins
            score 1
            for each d in in_play(you) where d is Worker and d.value >= 0 and d.cost >= 1:
              gain 1 coins
              score 1
'''


@pytest.fixture()
def pack(tmp_path):
    folder = tmp_path / "docs-game"
    shutil.copytree(FIXTURES / "docs-game", folder)
    market = folder / "cards" / "market.yaml"
    market.write_text(market.read_text(encoding="utf-8") + MORE_CARDS, encoding="utf-8")
    return folder


def checked(folder):
    report = Report()
    defn, found = read_and_check(folder, report)
    return defn, found, report


def card(defn, card_id):
    return next(c for c in defn.cards if c.id == card_id)


def test_a_card_s_own_text_is_its_face_in_its_language_line_by_line(pack):
    defn, found, report = checked(pack)
    assert report.ok, report.errors
    almanac = card(defn, "almanac")
    assert Prose(defn, found, "en").face_texts(almanac) == ["Gain a coin each round."]
    assert Prose(defn, found, "fr").face_texts(almanac) == ["Gagnez une pièce à chaque manche.", "Second line."]
    assert [line.source for line in Prose(defn, found, "fr").face(almanac)] == ["card", "card"]


def test_a_keyword_s_printed_text_is_bound_to_the_card_s_values(pack):
    defn, found, _ = checked(pack)
    en = Prose(defn, found, "en")
    guild = card(defn, "guild")
    assert en.face_texts(guild)[0] == "Bonus 1 - Worker: Score 1 for each Worker card you have in play."
    assert en.face(guild)[0].source == "keyword"
    # the engine's reading of the same ability is its rules as prose, not the printed text
    assert en.reading(guild.abilities[0]).startswith("Bonus 1 - Worker: When scoring")


def test_a_keyword_with_an_effect_prints_the_effect_as_a_sentence(pack):
    defn, found, _ = checked(pack)
    face = Prose(defn, found, "en").face(card(defn, "labourer"))
    assert face[0].name == "On play" and face[0].source == "prose"
    assert face[0].text.startswith("Gain 1 coin") and face[0].text.endswith(".")


def test_a_card_without_a_face_that_fits_is_warned_w002_in_each_printed_language(pack):
    _defn, _found, report = checked(pack)
    unfit = [w for w in report.diagnostics if "has no printed face" in w.message]
    # the almanac has a text and the others fit; the ledger is warned in English (the game's language)
    assert [w.message.split("'")[1] for w in unfit] == ["ledger"]
    assert "words long" in unfit[0].message and unfit[0].severity == "warning" and unfit[0].position.line > 0
    assert report.ok  # a warning: check still passes


def test_a_card_text_silences_w002(pack):
    market = pack / "cards" / "market.yaml"
    market.write_text(market.read_text(encoding="utf-8").replace(
        "  - id: ledger\n", "  - id: ledger\n    text: \"Audit: gain coins and points for your buildings.\"\n"),
        encoding="utf-8")
    _defn, _found, report = checked(pack)
    assert not [w for w in report.diagnostics if "has no printed face" in w.message]


def test_the_rules_index_gives_each_rule_s_text_and_reads_no_file_outside_the_game(pack, tmp_path):
    (pack / "rules.md").write_text("# Rules\n\n- DG-PLY-1 Each round, every player gains coins.\n"
                                   "- **DG-PLY-2** Cards cost coins.\nprose, not a rule\n", encoding="utf-8")
    secret = tmp_path / "secret.md"
    secret.write_text("- DG-SEC-1 a secret\n", encoding="utf-8")
    game = pack / "game.yaml"
    text = game.read_text(encoding="utf-8")
    game.write_text(text.replace("\ntitle:", "\nrules_index: [rules.md]\ntitle:", 1), encoding="utf-8")
    defn, _found, report = checked(pack)
    assert report.ok, report.errors
    assert rules_of(defn) == {"DG-PLY-1": "Each round, every player gains coins.", "DG-PLY-2": "Cards cost coins."}
    defn.rules_index = ["../secret.md", str(secret), "missing.md"]
    assert rules_of(defn) == {}
    game.write_text(text.replace("\ntitle:", "\nrules_index: [missing.md]\ntitle:", 1), encoding="utf-8")
    _defn, _found, report = checked(pack)
    assert [e.message for e in report.errors] == [
        "no such file 'missing.md' in the game's folder, named by rules_index"]


def test_a_rules_index_line_is_an_id_then_its_text():
    assert read_rules("- KS-POS-5 Swap a card.\n* ET-ACT-1: Move.\n- not-an-id text\n") == {
        "KS-POS-5": "Swap a card.", "ET-ACT-1": "Move."}
