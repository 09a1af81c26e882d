"""Every shipped card prints a face a player can read, in English and in French: not empty,
no brace, no name of the rules language, nothing left in the other language; and no shipped
card needs a W002 (a face that is prose too long or unwritable)."""
from __future__ import annotations

import re

import pytest

from interpreter import read_and_check
from interpreter.content.folders import shipped_game, shipped_games
from interpreter.content.layers import Chosen, available_expansions, plan
from interpreter.diagnostics import Report
from interpreter.language.prose import LANGS, Prose

IDENTIFIER = re.compile(r"[{}]|\b[A-Za-z]\w*_\w+\b|\b[a-z]\w*\.[a-z]\w+\b")
# words of one language that a text of the other never holds (titles and class names aside)
OTHER_TONGUE = {
    "en": re.compile(r"\b(vous|votre|vos|les|des|une|est|chaque|carte|cartes)\b"),
    "fr": re.compile(r"\b(the|your|you|and|with|each|card|cards|when|gain)\b", re.IGNORECASE),
}


def every_pack():
    out = []
    for game in shipped_games():
        root = shipped_game(game)
        expansions = tuple(sorted(name for name, layer in available_expansions(root).items() if not layer.solo))
        out.append((root, expansions))
    return out


@pytest.fixture(scope="module", params=every_pack(), ids=lambda p: p[0].name)
def pack(request):
    root, expansions = request.param
    report = Report()
    defn, found = read_and_check(root, report, (), plan(root, Chosen(expansions=expansions)))
    assert report.ok, report.errors[:3]
    return defn, found, report


@pytest.mark.parametrize("lang", LANGS)
def test_every_shipped_card_with_abilities_prints_a_readable_face(pack, lang):
    defn, found, _report = pack
    prose = Prose(defn, found, lang)
    titles = {c.title for c in defn.cards}
    checked = 0
    for card in defn.cards:
        if not card.abilities:
            continue
        face = prose.face(card)
        assert face and all(line.text.strip() for line in face), (card.id, lang)
        for line in face:
            text = line.text
            for title in titles:  # a card named in a text is named by its printed title
                text = text.replace(title, "")
            assert not IDENTIFIER.search(text), (card.id, lang, line.text)
            assert not OTHER_TONGUE[lang].search(text), (card.id, lang, line.text)
        checked += 1
    assert checked > 0


def test_no_shipped_card_is_warned_for_its_face(pack):
    _defn, _found, report = pack
    assert [d.message for d in report.diagnostics if "has no printed face" in d.message] == []
