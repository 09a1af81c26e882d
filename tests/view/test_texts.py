"""What content wrote, shown in the reader's language (view/texts.py): a prompt, a label or a log
line finished by the engine is matched back to its template and written with the words the
game's vocabulary gives it (`label:TEXT`), around the same values; the checker asks for the
words of every text and refuses words that fill in other values (V001, W004)."""
from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pytest

import interpreter
from interpreter.content.folders import shipped_game
from interpreter.engine.events import CHOICE, LOG
from interpreter.language.prose.vocabulary import Vocabulary
from interpreter.play.agents import GreedyAgent, HumanAgent, SeatView
from interpreter.play.terminal import play_at_terminal
from interpreter.rulings.check import check_paths
from interpreter.view.narrate import Narrator
from interpreter.view.texts import Template, Texts

NIM = Path(__file__).parent.parent / "fixtures" / "nim"

WORDS = """
vocabulary:
  fr:
    "label:Take stones": "Prenez des pierres"
    "label:Take {k}": "Prendre {k}"
"""


def nim_with(tmp_path, words: str) -> Path:
    folder = tmp_path / "nim"
    shutil.copytree(NIM, folder)
    game = folder / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + words, encoding="utf-8")
    return folder


def test_a_template_matches_the_finished_text_and_fills_the_same_values_in():
    t = Template("Play {s} around {contest}", "Jouer {s} autour de {contest}")
    assert t.fill("Play Barge 4 around Mirelle", str) == "Jouer Barge 4 autour de Mirelle"
    assert t.fill("Play Barge 4", str) is None
    twice = Template("{a} swaps with {a}", "{a} s'échange avec {a}")
    assert twice.fill("Lynx swaps with Lynx", str) == "Lynx s'échange avec Lynx"
    assert twice.fill("Lynx swaps with Orca", str) is None  # one expression, one value
    moved = Template("{b} then {a}", "{a} puis {b}")  # the words may put the values in another order
    assert moved.fill("one then two", str) == "two puis one"



def test_a_value_given_as_a_noun_takes_its_plural_after_a_number_other_than_one(tmp_path):
    g = interpreter.load(str(nim_with(tmp_path, """
vocabulary:
  fr:
    "label:Take stones": "Prenez des pierres"
    "label:Take {k}": "Prendre {k}"
    "label:{n} {what} taken": "{n} {what} pris"
    "label:{what} is {n}": "{what} vaut {n}"
    "value:stone": [pierre, pierres, f]
    "value:heap": tas
""")))
    said = Texts(g.program, "fr")
    assert said("2 stone taken") == "2 pierres pris"
    assert said("1 stone taken") == "1 pierre pris"
    assert said("-3 stone taken") == "-3 pierres pris"
    assert said("2 heap taken") == "2 tas pris"  # one word: the same after any number
    assert said("stone is 2") == "pierre vaut 2"  # a number after the value does not count it
    assert said("many stone taken") == "many pierre pris"  # a word before it is no number
    # the words check: a value's words are a text or a noun, nothing else
    assert check_paths([str(nim_with(tmp_path / "ok", """
vocabulary:
  fr:
    "label:Take stones": "Prenez des pierres"
    "label:Take {k}": "Prendre {k}"
    "value:stone": [pierre, pierres, f]
"""))]).diagnostics == []
    report = check_paths([str(nim_with(tmp_path / "bad", """
vocabulary:
  fr:
    "label:Take stones": "Prenez des pierres"
    "label:Take {k}": "Prendre {k}"
    "value:stone": [pierre, pierres, x]
    "label:Take all": [Tout, prendre]
"""))])
    found = sorted((d.code, d.message) for d in report.diagnostics)
    assert found == [("T003", "vocabulary (fr) for label 'Take all' must be a text"),
                     ("T003", "vocabulary (fr) for value 'stone' must be a text or a noun")], found

def test_a_game_told_in_french_shows_the_words_of_its_texts(tmp_path):
    g = interpreter.load(str(nim_with(tmp_path, WORDS)))
    said = Texts(g.program, "fr")
    assert said("Take stones") == "Prenez des pierres"
    assert said("Take 2") == "Prendre 2"
    assert said("Give 2") == "Give 2"  # no words: as the rules wrote it
    assert said("player 2 and player 1") == "player 2 and player 1"
    assert said("yes") == "oui" and Texts(g.program, "en")("yes") == "yes"
    # a choice among players: its options are seats
    assert said("player 1") == "joueur 1" and said("player 2, player 3") == "joueur 2, joueur 3"
    assert Texts(g.program, "en")("player 1") == "player 1"
    assert Texts(g.program, "en")("Take 2") == "Take 2"  # the language the rules are written in
    out = io.StringIO()
    human = HumanAgent(io.StringIO("1\n" * 20), out, lang="fr")
    assert play_at_terminal(g, 2, 1, g.options({}), ["greedy"], seat=0, human=human, out=out, lang="fr") == 0
    text = out.getvalue()
    assert "Prenez des pierres :\n   1. Prendre 1\n" in text
    assert "a choisi : « Prendre " in text and "[à la question « Prenez des pierres »]" in text  # the other seat's, narrated
    assert "Take" not in text


def test_the_checker_asks_for_the_words_of_every_text_and_refuses_other_values(tmp_path):
    assert check_paths([str(nim_with(tmp_path / "a", WORDS))]).diagnostics == []
    report = check_paths([str(nim_with(tmp_path / "b", """
vocabulary:
  fr:
    "label:Take {k}": "Prendre {n}"
"""))])
    codes = sorted((d.code, d.position.line) for d in report.diagnostics)
    assert [c for c, _ in codes] == ["V001", "W004"], report.diagnostics
    v001 = next(d for d in report.diagnostics if d.code == "V001")
    assert "fills in {n}, which the text does not" in v001.message
    w004 = next(d for d in report.diagnostics if d.code == "W004")
    assert '"Take stones"' in w004.message and w004.position.line == 56  # where the rules write it
    # a game that gives no text words in a language is not asked for them
    assert check_paths([str(nim_with(tmp_path / "c", ""))]).diagnostics == []


def test_a_zone_or_counter_without_words_in_a_language_that_names_others_is_a_warning(tmp_path):
    # French gives the pile words but not the stones taken: the table would say « Votre taken »
    report = check_paths([str(nim_with(tmp_path / "a", """
vocabulary:
  fr:
    pile: [tas, tas]
    points: [point, points]
    chips: [jeton, jetons]
    turns: [tour, tours]
"""))])
    found = sorted((d.code, d.message) for d in report.diagnostics)
    assert found == [("W005", "zone 'taken' has no words in 'fr', although the vocabulary gives other zones words in it")]
    assert report.diagnostics[0].position.line == 29  # where the zone is declared
    # English is the language identifiers are read in ('taken' says "taken"): no words asked there,
    # and a language that names no zone is not asked for the others' words
    assert check_paths([str(nim_with(tmp_path / "b", """
vocabulary:
  en:
    pile: [heap, heaps]
  fr:
    points: [point, points]
    chips: [jeton, jetons]
    turns: [tour, tours]
"""))]).diagnostics == []


def test_the_question_before_an_optional_ability_says_what_happened():
    g = interpreter.load("karman-swap")
    en, fr = Texts(g.program, "en"), Texts(g.program, "fr")
    assert en("use Sylvore (posed)?") == "Sylvore is played on an active planet: use it?"
    assert fr("use Sylvore (posed)?") == "On joue Sylvore sur une planète active : l'utiliser ?"
    assert fr("use Sylvore (unheard_of)?") == "Utiliser Sylvore ?"  # an event without words


# the shipped games whose texts have their words in French (every shipped game, once written)
IN_FRENCH = ["karman-swap", "etherium", "seeders-exodus"]


@pytest.mark.parametrize("game", IN_FRENCH)
def test_every_text_a_shipped_game_shows_has_its_words_in_french(game):
    """Every prompt, label, action name, log line and failure of a shipped game, of each of its
    expansions and of each scenario has French words (which fill in the same values: V001)."""
    missing, shown = set(), 0
    for g in _every_layer(game):
        vocab = Vocabulary(g.program.defn, "fr")
        texts = {str(text) for text, _ in g.program.found.labels}
        shown = max(shown, len(texts))
        missing |= {t for t in texts if vocab.entries.get(f"label:{t}") is None}
    assert shown > 20
    assert sorted(missing) == [], sorted(missing)


def _every_layer(game: str):
    """The game alone, with each of its expansions, and in each of their scenarios."""
    yield interpreter.load(game)
    folder = shipped_game(game) / "expansions"
    for exp in sorted(p.name for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else []:
        g = interpreter.load(game, expansions=[exp])
        yield g
        for sc in g.program.defn.scenarios:
            yield interpreter.load(game, scenario=sc.id)


@pytest.mark.parametrize("game", IN_FRENCH)
def test_a_french_game_at_the_table_shows_no_text_of_the_rules_in_english(game):
    g = interpreter.load(game)
    st = g.new_state(players=2, seed=3, trace=True)
    narrator = Narrator(st, 0, io.StringIO(), lang="fr")
    said = Texts(g.program, "fr")
    agents = [GreedyAgent(1), GreedyAgent(2)]
    seen = 0
    for _ in range(60):
        if st.is_terminal():
            break
        view = SeatView(st, st.current_player)
        for label in view.labels():
            assert said(label) != label or not any(ch.isalpha() for ch in label) or label in _titles(g), label
        narrator.before(st)
        st.apply(agents[st.current_player].act(view))
        for ev in st.trace[seen:]:
            if ev.get("type") == LOG:
                assert said(ev["text"]) != ev["text"], ev["text"]
            if ev.get("type") == CHOICE and ev.get("prompt"):
                assert said(ev["prompt"]) != ev["prompt"], ev["prompt"]
        seen = len(st.trace)


def _titles(g) -> set:
    """Labels that are a card's title or a node's name (a choice among cards): no words to give."""
    return {c.title for c in g.program.comp_card} | {str(n.get("name", k)) for k, n in g.program.nodes.items()} \
        | {str(k) for k in g.program.nodes}


def test_a_place_named_after_its_kind_and_an_action_without_a_name_are_said_in_the_language():
    g = interpreter.load("seeders-exodus")
    fr, en = Texts(g.program, "fr"), Texts(g.program, "en")
    assert fr("chamber 8") == "chambre 8" and en("chamber 8") == "chamber 8"
    assert fr("Chambre pour chamber 8") == "Chambre pour chamber 8"  # a name inside another text is a value
    assert fr.value("chamber 8") == "la chambre 8" and en.value("chamber 8") == "chamber 8"  # in a sentence
    # a place filled into a sentence takes its article, as French writes it ('vers la case 6')
    eth = Texts(interpreter.load("etherium").program, "fr")
    assert eth("player 1 moves Armée to space 6") == "le joueur 1 déplace l'unité Armée vers la case 6"
    assert eth("Unit to move to space 4") == "Unité à déplacer vers la case 4"
    assert eth("space 4") == "case 4"  # a place as the whole text (an option, a board's label): no article
    # an action a card prints without a name: its card's title, then its face, never the rules' text
    unnamed = next(label for label in en.actions() if label.startswith("Pouponnière clonale: Activation"))
    assert "call draw(you.hand)" in unnamed  # the rules' text, which the engine labels the action with
    assert "call " not in en(unnamed) and "(" not in en(unnamed).split(":", 1)[1], en(unnamed)
    card, _ = en.actions()[unnamed]
    assert en(unnamed).startswith(f"{card.title}: ") and fr(unnamed).startswith(f"{card.title} : ")
    assert "Piochez" in fr(unnamed) or "piochez" in fr(unnamed), fr(unnamed)


@pytest.mark.parametrize("game", IN_FRENCH)
def test_a_player_filled_into_a_french_text_takes_its_article_once(game):
    """A seat said in a sentence brings its article ('le joueur 2'), contracted after 'de' or 'à'
    ('du joueur 2'): the words of a text write 'de {q}', never 'du {q}' ('du le joueur 2')."""
    wrong = []
    for g in _every_layer(game):
        said = Texts(g.program, "fr")
        for text, _ in g.program.found.labels:
            if "{" not in str(text):
                continue
            finished = re.sub(r"\{[^{}]*\}", "player 2", str(text))
            shown = said(finished)
            if re.search(r"\b(du|des|au|aux|de|à) (le|la|les) joueur", shown):
                wrong.append(shown)
    assert sorted(set(wrong)) == []
