"""The prose corpus (docs/prose.md, docs/gen_prose_corpus.py): every ability of every shipped card and
keyword as the renderers write it, in English and French. It is current, it shows no leak, and the scan
for leaks finds what a reader must never see."""
import importlib.util
import sys

import pytest

from gamekit import ROOT
from interpreter.language.prose.leaks import leaks

PAGE = ROOT / "docs" / "prose.md"


def _gen():
    spec = importlib.util.spec_from_file_location("gen_prose_corpus_under_test", ROOT / "docs" / "gen_prose_corpus.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def gen():
    return _gen()


@pytest.fixture(scope="module")
def corpus(gen):
    return gen.corpus()  # the shipped games read once for the module's tests


def test_the_corpus_page_is_regenerated_when_the_renderers_change(gen, corpus):
    assert gen.page(corpus) == PAGE.read_text(encoding="utf-8"), \
        "docs/prose.md is out of date: run 'python docs/gen_prose_corpus.py' and read what changed"


def test_the_corpus_holds_every_ability_of_every_shipped_game_in_both_languages(corpus):
    games = {folder for _, folder, _ in corpus}
    assert games == {"etherium", "karman-swap", "seeders-exodus"}
    entries = [e for _, _, entries in corpus for e in entries]
    assert len(entries) > 300
    assert all(set(e.texts) == {"en", "fr"} and all(t.strip() for t in e.texts.values()) for e in entries)
    wheres = {e.where for e in entries}
    assert any(w.startswith("keyword Troc") for w in wheres)  # keywords, with the expansions' cards
    assert any("(tais-kessra)" in w for w in wheres)


def test_the_corpus_shows_no_leak_in_either_language(corpus):
    found = [(e.game, e.where, lang, str(leak)) for _, _, entries in corpus for e in entries
             for lang, ls in e.leaks.items() for leak in ls]
    assert not found, f"{len(found)} leaks in the prose of the shipped games, the first: {found[:5]}"


@pytest.mark.parametrize("lang, text, kind", [
    ("en", "Set cards_left to 1.", "identifier"),
    ("en", "Move it to you.hand.", "identifier"),
    ("en", "Cannot move a unit to {dest}.", "brace"),
    ("en", "Score the rule “score 2”.", "fallback"),
    ("fr", "Marquez la règle « score 2 ».", "fallback"),
    ("en", "Let the item be what holds it. Remove that item Mutant tokens.", "placeholder noun"),
    ("fr", "Si le premier élément est actif, redressez-le.", "placeholder noun"),
    ("fr", "Choisissez : « Play la deuxième carte » ; ou « Use neither ».", "other language"),
    ("en", "Choose a card among les cartes du Marché.", "other language"),
    ("en", "You may pay 1 resources.", "agreement"),
    ("en", "If there is no such a module, this cannot be done.", "agreement"),
    ("fr", "Choisissez un module tel que ce module est inclinée.", "agreement"),
    ("fr", "Si le premier emplacement est active, utilisez sa pose.", "agreement"),
])
def test_the_leak_scan_finds_what_a_reader_must_never_see(lang, text, kind):
    assert kind in {leak.kind for leak in leaks(text, lang)}, leaks(text, lang)


def test_the_leak_scan_finds_a_games_names_and_its_bookkeeping():
    assert [str(x) for x in leaks("Quand scoring, marquez 2 points.", "fr", names={"scoring"})] == \
        ["identifier: scoring"]
    said = leaks("Set your highest die value rolled again to 2.", "en", internal={"highest die value rolled again"})
    assert [x.kind for x in said] == ["internal name"]
    assert not leaks("Add 2 to the roll being resolved.", "en", internal={"roll being resolved"})  # read, not set


@pytest.mark.parametrize("text, lang", [
    ("When this card is played as a Flash, roll again your dice showing 2 or less.", "en"),
    ("Quand cette carte est jouée en Flash, choisissez l'un de vos modules qui est incliné.", "fr"),
    ("Si le premier emplacement est actif et que la planète est active, utilisez sa pose.", "fr"),
    ("Troc: swap a card on a planet with a card in the Market.", "en"),  # a card's name is no leak
    ("Nacrelle, Cendreux, Kessra, lame de l'ombre.", "fr"),
])
def test_the_leak_scan_leaves_good_prose_alone(text, lang):
    assert leaks(text, lang) == []
