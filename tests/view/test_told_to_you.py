"""A text of the rules told to the seat it names (view/texts.py, `you:TEXT` in a vocabulary):
"player 1 starts the colonisation of Mirelle" is told to player 1 as "you start the
colonisation of Mirelle", wherever that seat reads it (the narration, its prompt, the quoted
question of another seat), and to every other seat as the rules wrote it. The checker refuses
words that fill in a value the text does not, or leave out none (V001)."""
from __future__ import annotations

import io
import random
import shutil
from pathlib import Path

import interpreter
from interpreter.rulings.check import check_paths
from interpreter.view.narrate import Narrator
from interpreter.view.texts import Template, Texts

NIM = Path(__file__).parent.parent / "fixtures" / "nim"

WORDS = """
vocabulary:
  en:
    "you:{p} takes {k}": "you take {k}"
    "you:{p} and {q}": "you and {q}"
  fr:
    "label:Stones {p} takes": "Pierres que prend {p}"
    "you:Stones {p} takes": "Pierres que vous prenez"
    "label:Take {k}": "Prendre {k}"
    "label:{p} takes {k}": "{p} prend {k}"
    "label:{p} and {q}": "{p} et {q}"
    "you:{p} takes {k}": "vous prenez {k}"
"""


def nim_with(tmp_path, edits: dict, words: str) -> Path:
    """A copy of Nim in `tmp_path`, its rules with each text of `edits` replaced (once), `words`
    added."""
    folder = tmp_path / "nim"
    shutil.copytree(NIM, folder)
    game = folder / "game.yaml"
    text = game.read_text(encoding="utf-8")
    for old, new in edits.items():
        text = text.replace(old, new, 1)
    game.write_text(text + words, encoding="utf-8")
    return folder


def nim_telling(tmp_path, words: str = WORDS) -> Path:
    """Nim, whose turn logs who takes how many ('player 1 takes 2'), with `words`."""
    return nim_with(tmp_path, {'choose by p "Take stones":': 'choose by p "Stones {p} takes":',
                               "          repeat k times:\n": ("          let q = next(p)\n"
                                                              "          log \"{p} takes {k}\"\n"
                                                              "          log \"{p} and {q}\"\n"
                                                              "          repeat k times:\n")}, words)


def test_the_words_for_the_reader_are_used_only_when_what_they_leave_out_names_the_reader():
    t = Template("{p} takes {k}", "you take {k}")
    assert t.fill("player 1 takes 2", str, "player 1") == "you take 2"
    assert t.fill("player 2 takes 2", str, "player 1") is None  # another seat took them
    assert t.fill("player 1, player 3 takes 2", str, "player 1") is None  # a team, not the reader alone
    assert Template("{p} and {q}", "you and {q}").fill("player 2 and player 2", str, "player 2") == "you and player 2"


def test_a_seat_is_told_what_names_it_in_its_words_and_others_as_the_rules_wrote_it(tmp_path):
    g = interpreter.load(str(nim_telling(tmp_path)))
    en, fr = Texts(g.program, "en"), Texts(g.program, "fr")
    assert en("player 1 takes 2", 0) == "you take 2"
    assert en("player 1 takes 2", 1) == "player 1 takes 2"
    assert en("player 1 takes 2") == "player 1 takes 2"  # told to no seat: the rules' words
    assert fr("player 1 takes 2", 0) == "vous prenez 2"
    assert fr("player 1 takes 2", 1) == "le joueur 1 prend 2"
    assert en("player 1 and player 2", 0) == "you and player 2"
    assert en("player 1 and player 2", 1) == "player 1 and player 2"  # the words leave out {p}, not {q}
    assert fr("player 1 and player 2", 0) == "le joueur 1 et le joueur 2"  # no words for the reader in French
    told = en.to(0)
    assert told("player 1 takes 3") == "you take 3" and told("Take 3") == "Take 3"


def test_the_narration_tells_each_seat_its_own_lines_as_to_it(tmp_path):
    g = interpreter.load(str(nim_telling(tmp_path)))
    st = g.new_state(players=2, seed=4, trace=True)
    r = random.Random(4)
    while not st.is_terminal():
        st.apply(r.randrange(len(st.legal_actions())))
    for lang, mine in (("en", "you take"), ("fr", "vous prenez")):
        told = {}
        for seat in (0, 1, None):
            out = io.StringIO()
            narrator = Narrator(g.new_state(players=2, seed=4), seat, out, lang=lang)
            told[seat] = [narrator.tell(e) or "" for e in st.trace]
        # each seat is told its own takes as to it, the other's as the rules wrote them
        takes = [e for e in st.trace if e["type"] == "log" and " takes " in e["text"]]
        assert {e["text"].split()[1] for e in takes} == {"1", "2"}
        for i, e in enumerate(st.trace):
            if e in takes:
                who = int(e["text"].split()[1]) - 1
                assert mine in told[who][i] and mine not in told[1 - who][i], (lang, told[who][i], told[1 - who][i])
                assert mine not in told[None][i]


def test_the_checker_refuses_words_for_the_reader_that_fill_in_another_value_or_leave_none_out(tmp_path):
    assert check_paths([str(nim_telling(tmp_path / "ok"))]).diagnostics == []
    report = check_paths([str(nim_telling(tmp_path / "bad", """
vocabulary:
  en:
    "you:{p} takes {k}": "you take {k} of {n}"
    "you:{p} and {q}": "{p} and {q}"
    "you:{p} gives {k}": "you give {k}"
"""))])
    found = sorted((d.code, d.message) for d in report.diagnostics)
    assert found == [
        ("V001", 'vocabulary (en) for "you:{p} and {q}" leaves out no {expression}: they would never be told'),
        ("V001", 'vocabulary (en) for "you:{p} gives {k}", which is no text the rules show'),
        ("V001", 'vocabulary (en) for "you:{p} takes {k}" fills in {n}, which the text does not'),
    ], found
    gives = next(d for d in report.diagnostics if "gives" in d.message)
    assert "{p} takes {k}" in (gives.hint or "")  # the text it was likely meant for


def test_a_text_naming_two_seats_is_told_to_each_in_its_own_form(tmp_path):
    """`you:` with a list: a form for each seat the text names, each told to the seat it leaves out."""
    g = interpreter.load(str(nim_telling(tmp_path, WORDS.replace(
        '"you:{p} and {q}": "you and {q}"', '"you:{p} and {q}": ["you and {q}", "{p} and you"]'))))
    en = Texts(g.program, "en")
    assert en("player 1 and player 2", 0) == "you and player 2"
    assert en("player 1 and player 2", 1) == "player 1 and you"
    assert en("player 1 and player 2") == "player 1 and player 2"
    # a shipped game: the pillaged seat is told its collector was pillaged
    et = interpreter.load("etherium")
    line = "player 2 pillages the collector of player 1 on space 3"
    for lang, to_one, to_two, to_three in (
            ("en", "player 2 pillages your collector on space 3", "you pillage the collector of player 1 on space 3",
             line),
            ("fr", "le joueur 2 pille votre collecteur sur la case 3",
             "vous pillez le collecteur du joueur 1 sur la case 3",
             "le joueur 2 pille le collecteur du joueur 1 sur la case 3")):
        said = Texts(et.program, lang)
        assert [said(line, seat) for seat in (0, 1, 2)] == [to_one, to_two, to_three], lang


def test_the_checker_refuses_two_forms_for_the_same_seat(tmp_path):
    report = check_paths([str(nim_telling(tmp_path, WORDS.replace(
        '"you:{p} and {q}": "you and {q}"', '"you:{p} and {q}": ["you and {q}", "yourself and {q}"]')))])
    found = [(d.code, d.message) for d in report.diagnostics]
    assert found == [("V001", 'vocabulary (en) for "you:{p} and {q}" has two forms that leave out {p}: the second '
                              'would never be told')], found


def test_a_form_that_is_no_text_is_one_error_where_it_is_not_two(tmp_path):
    """A list of forms holding a number: the schema names the number (S003); the vocabulary's
    check said the whole list was no text as well (T003), two errors for one slip."""
    report = check_paths([str(nim_telling(tmp_path, WORDS.replace(
        '"you:{p} and {q}": "you and {q}"', '"you:{p} and {q}": ["you and {q}", 3]')))])
    found = [(d.code, d.position.line, d.position.column) for d in report.diagnostics]
    assert [code for code, _, _ in found] == ["S003"], found
    line = (tmp_path / "nim" / "game.yaml").read_text(encoding="utf-8").splitlines()[found[0][1] - 1]
    assert line[found[0][2] - 1] == "3", line


def test_a_shipped_game_tells_the_seat_its_colonisations_and_its_rounds(tmp_path):
    g = interpreter.load("karman-swap")
    st = g.new_state(players=2, seed=1, trace=True)
    r = random.Random(1)
    while not st.is_terminal():
        st.apply(r.randrange(len(st.legal_actions())))
    out = io.StringIO()
    narrator = Narrator(g.new_state(players=2, seed=1), 0, out)
    lines = [narrator.tell(e) or "" for e in st.trace]
    logs = [(e["text"], line) for e, line in zip(st.trace, lines, strict=True) if e["type"] == "log"]
    mine = [(text, line) for text, line in logs if "player 1" in text]
    assert mine, "player 1 is named in the game's log"
    for text, line in mine:
        assert "player 1" not in line and "you" in line, (text, line)
    assert any("player 2" in line for _, line in logs)  # the other seat, as the rules name it


def test_why_not_quotes_the_question_as_the_seat_told_reads_it(tmp_path):
    from interpreter.view.why import asked
    g = interpreter.load(str(nim_telling(tmp_path)))
    st = g.new_state(players=2, seed=4)
    assert int(st.pending.player) == 0
    assert asked(st, lang="fr", seat=0).startswith("Vous devez répondre à « Pierres que vous prenez »")
    assert asked(st, lang="fr", seat=1).startswith("Le joueur 1 doit répondre à « Pierres que prend le joueur 1 »")


def test_seats_filled_into_a_sentence_are_listed_as_a_sentence_lists_them():
    """A team's members filled into a text: « le joueur 1 et le joueur 3 », not « le joueur 1, le
    joueur 3 », in English too when no words are given for the text; told to one of them, that one
    is « vous » in the list (the words for the seat alone are not used: it is not alone)."""
    program = interpreter.load("karman-swap").program
    fr, en = Texts(program, "fr"), Texts(program, "en")
    assert fr("Oskaar is colonised by player 1, player 3") == "Oskaar est colonisée par le joueur 1 et le joueur 3"
    assert fr("Oskaar is colonised by player 1, player 2, player 4", 0) == \
        "Oskaar est colonisée par vous, le joueur 2 et le joueur 4"
    assert fr("Oskaar is colonised by player 1, player 3", 1) == "Oskaar est colonisée par le joueur 1 et le joueur 3"
    assert fr("Oskaar is colonised by player 1", 0) == "Oskaar est colonisée par vous"
    assert en("Oskaar is colonised by player 1, player 3") == "Oskaar is colonised by player 1 and player 3"
    assert en("round 2 is won by player 2, player 4", 3) == "round 2 is won by player 2 and you"
    assert en("player 1, player 3") == "player 1, player 3"  # a team as an option of a choice: as written


THEIR_WORDS = """
vocabulary:
  en:
    "they:Stones you take": "Stones they take"
    "they:Take {k} into your pile": "Take {k} into their pile"
  fr:
    "label:Stones you take": "Pierres que vous prenez"
    "they:Stones you take": "Pierres qu'il prend"
    "label:Take {k} into your pile": "Prendre {k} dans votre tas"
    "they:Take {k} into your pile": "Prendre {k} dans son tas"
"""


def nim_addressed(tmp_path, words: str = THEIR_WORDS) -> Path:
    """Nim, whose question and options speak to the seat deciding ('Take 2 into your pile')."""
    return nim_with(tmp_path, {'choose by p "Take stones":': 'choose by p "Stones you take":',
                               'option "Take {k}"': 'option "Take {k} into your pile"'}, words)


def test_another_seat_s_choice_is_told_in_the_words_the_game_gives_the_others(tmp_path):
    """'Player 2 chose: 'Take 2 into your pile'' said 'your' of player 2's pile to player 1. The
    game's `they:` words tell the others 'Take 2 into their pile' [asked: 'Stones they take'];
    the seat that chose is still told its own words, and a trace keeps the rules' text."""
    g = interpreter.load(str(nim_addressed(tmp_path)))
    st = g.new_state(players=2, seed=4, trace=True)
    r = random.Random(4)
    while not st.is_terminal():
        st.apply(r.randrange(len(st.legal_actions())))
    choices = [e for e in st.trace if e["type"] == "choice" and not e.get("auto")]
    assert {e["player"] for e in choices} == {1, 2}
    assert all(e["label"].endswith(" into your pile") and e["prompt"] == "Stones you take" for e in choices)
    for lang, theirs, mine in (("en", "chose: 'Take {} into their pile'  [asked: 'Stones they take']",
                                "You chose: Take {} into your pile"),
                               ("fr", "a choisi : « Prendre {} dans son tas »  [à la question « Pierres qu'il prend »]",
                                "Vous avez choisi : Prendre {} dans votre tas")):
        out = io.StringIO()
        narrator = Narrator(g.new_state(players=2, seed=4), 0, out, lang=lang)
        for e in choices:
            k = e["label"].split()[1]
            told = narrator.tell(e)
            if e["player"] == 2:
                assert theirs.format(k) in told, told
            else:
                assert mine.format(k) in told, told


def test_the_checker_refuses_words_for_the_others_of_no_text_or_of_other_values(tmp_path):
    assert check_paths([str(nim_addressed(tmp_path / "ok"))]).diagnostics == []
    words = THEIR_WORDS.replace('    "they:Take {k} into your pile": "Prendre {k} dans son tas"\n', "") + """\
    "they:Stones you took": "Pierres qu'il a prises"
    "they:Take {k} into your pile": "Prendre {n} dans son tas"
"""
    report = check_paths([str(nim_addressed(tmp_path / "bad", words))])
    found = sorted((d.code, d.message) for d in report.diagnostics)
    assert found == [
        ("V001", 'vocabulary (fr) for "they:Stones you took", which is no text the rules show'),
        ("V001", 'vocabulary (fr) for "they:Take {k} into your pile" fills in {n}, which the text does not'),
    ], found
    took = next(d for d in report.diagnostics if "took" in d.message)
    assert "Stones you take" in (took.hint or "")


def test_a_question_naming_the_seat_told_is_told_it_in_its_own_words_not_the_others():
    """Etherium asks the attacker 'Your army took the city of {q}'. The others read it in the
    third person (« Son armée a pris la cité du joueur 3 »); the seat it names, {q}, its own
    words (« Une armée a pris votre cité »), not 'the city of player 3' about itself."""
    g = interpreter.load("etherium")
    fr = Texts(g.program, "fr")
    text = "Your army took the city of player 3"
    assert fr.of_another(text, 0) == "Son armée a pris la cité du joueur 3"
    assert fr.of_another(text, 2) is None and fr(text, 2) == "Une armée a pris votre cité"
    assert Texts(g.program, "en").of_another(text, 0) == "Their army took the city of player 3"


def test_words_for_the_reader_of_no_text_after_good_ones_are_an_error_not_a_crash(tmp_path):
    """A good `you:` entry, then one of no text: the check said V001 for the first alone when it
    came first, and failed inside (a name of the loop shadowed a function) when it came after."""
    report = check_paths([str(nim_telling(tmp_path, WORDS + """\
    "you:{p} gives {k}": "vous donnez {k}"
"""))])
    assert [(d.code, d.message) for d in report.diagnostics] == [
        ("V001", 'vocabulary (fr) for "you:{p} gives {k}", which is no text the rules show')]
