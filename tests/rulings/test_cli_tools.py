"""`regles test` runs a game's executable rulings; `regles explain` shows how a card is read."""
import json
import shutil

import pytest
import yaml

from interpreter.content.folders import shipped_games
from interpreter.resources import content_dir
from interpreter import cli

from gamekit import FIXTURES


def test_regles_test_runs_the_rulings_of_one_rule(capsys):
    status = cli.main(["test", "karman-swap", "--rule", "KS-COL-1"])
    out = capsys.readouterr().out
    assert status == 0
    assert "ok      Colonisation of Juhel worth 27 PP" in out
    last = out.strip().splitlines()[-1]
    passed = int(last.split()[0])
    assert last == f"{passed} passed, 0 failed" and passed >= 2


def test_regles_test_usage_errors(capsys):
    assert cli.main(["test", "karman-swap", "-k", "no test is called this"]) == 2
    assert "no rules test matches" in capsys.readouterr().err
    assert cli.main(["test", "no-such-game"]) == 2


RULINGS = """\
kind: rules-test
game: karman-swap
tests:
  - name: a new player has an empty hand
    players: 2
    then: ["count(players[1].hand) == 0"]
  - name: a ruling that does not hold
    players: 2
    then: ["count(players[1].hand) == 1"]
"""


def test_regles_test_runs_rulings_kept_outside_the_game_folder(tmp_path, capsys):
    rulings = tmp_path / "my-rulings.yaml"
    rulings.write_text(RULINGS, encoding="utf-8")
    assert cli.main(["test", "karman-swap", str(rulings)]) == 1
    out = capsys.readouterr().out
    assert "ok      a new player has an empty hand" in out
    assert "FAILED  a ruling that does not hold" in out
    assert "is false: count(players[1].hand) is 0" in out
    assert out.strip().endswith("1 passed, 1 failed")  # only the file's tests, not the game's own
    assert cli.main(["test", "karman-swap", str(tmp_path / "missing.yaml")]) == 2
    assert "no such rulings file" in capsys.readouterr().err


def test_regles_test_takes_the_rulings_file_first_and_its_game_from_it(tmp_path, capsys):
    """'regles test my.yaml karman-swap' as 'regles test karman-swap my.yaml'; 'regles test
    my.yaml' reads the game from the file's 'game:'."""
    rulings = tmp_path / "my-rulings.yaml"
    rulings.write_text(RULINGS, encoding="utf-8")
    for argv in (["test", str(rulings), "karman-swap"], ["test", str(rulings)]):
        assert cli.main(argv) == 1
        assert capsys.readouterr().out.strip().endswith("1 passed, 1 failed")
    nameless = tmp_path / "nameless.yaml"
    nameless.write_text(RULINGS.replace("game: karman-swap\n", ""), encoding="utf-8")
    assert cli.main(["test", str(nameless)]) == 2
    assert "names no game" in capsys.readouterr().err
    assert cli.main(["test", str(rulings), "karman-swap", "etherium"]) == 2
    assert "give one game" in capsys.readouterr().err
    # a game folder named by its path, from the file's folder
    shutil.copytree(content_dir() / "karman-swap", tmp_path / "ks")
    (tmp_path / "mine").mkdir()
    pathed = tmp_path / "mine" / "rulings.yaml"
    pathed.write_text(RULINGS.replace("game: karman-swap", "game: ../ks  # my copy"), encoding="utf-8")
    assert cli.main(["test", str(pathed)]) == 1
    assert capsys.readouterr().out.strip().endswith("1 passed, 1 failed")


def test_regles_explain_shows_the_keyword_and_its_values(capsys):
    assert cli.main(["explain", "seeders-exodus", "Technopôle"]) == 0
    out = capsys.readouterr().out
    assert "\nTechnopôle (technopole), a card of Seeders from Sereis" in out
    assert "keyword 'Majorité X - Y'" in out and "with X = 3, Y = Module" in out
    assert "triggered: when scoring; when the event is about this card" in out
    assert "classes (for 'is'): architectes, module, primaire" in out


def test_regles_explain_a_scenario_shows_its_common_sheet_then_the_sheet_of_each_character(capsys):
    assert cli.main(["explain", "seeders-exodus", "hanks-2j"]) == 0  # its expansion laid with it
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("Hank's Scrapyard \u00b7 scenario of ")
    assert "The common sheet (read aloud by the first player):" in lines
    assert "  Special conditions:" in lines
    assert "The sheet of each character (each player takes the sheet of the character they play):" in lines
    assert "  Moor, the keeper of the Ethernium [Moor] (authored)" in lines
    assert "Personal condition: if Hank's inheritance" in out
    assert lines.index("  Kessra, the eye of the scrapyard [Kessra] (authored)") < lines.index(
        "  Moor, the keeper of the Ethernium [Moor] (authored)")
    assert cli.main(["explain", "seeders-exodus", "no-such-thing"]) == 2
    assert "no card or scenario 'no-such-thing'" in capsys.readouterr().err
    # its headings and its sheets in the language asked, the character named by the game's words
    assert cli.main(["explain", "seeders-exodus", "hanks-2j", "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "La Casse de Hank \u00b7 scénario de Seeders from Sereis, Episode I: Exodus"
    assert "La fiche commune (lue à voix haute par le premier joueur) :" in lines
    assert "  Conditions particulières :" in lines
    assert "La fiche de chaque personnage (chaque joueur prend la sienne) :" in lines
    assert "  Moor, le gardien de l'Ethernium [Moor] (écrite pour le jeu)" in lines
    assert "Condition personnelle : si l'héritage de Hank" in out
    assert "Comment le moteur le lit :" in lines and not any(" of Seeders" in x or "sheet" in x for x in lines)
    assert "La Casse de Hank (hanks-2j): " in out  # the title the modder reads too


def _shipped_scenario(scenario: str) -> dict:
    """A shipped scenario's file, read."""
    path = next(content_dir().glob(f"seeders-exodus/expansions/*/scenarios/{scenario}.yaml"))
    return yaml.safe_load(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("scenario", ["etho-2j", "tais-2j"])
def test_regles_explain_prints_a_scenarios_whole_sheet_in_the_language_asked(capsys, scenario):
    """Its title, common sheet and every character's sheet in the language asked, and not one
    sentence of the other language's (Etho's common sheet was once English, Tais' French)."""
    data = _shipped_scenario(scenario)
    for lang, other, heading, not_heading in (("en", "fr", "Special conditions", "Conditions particulières"),
                                              ("fr", "en", "Conditions particulières", "Special conditions")):
        assert cli.main(["explain", "seeders-exodus", scenario, "--lang", lang]) == 0
        out = capsys.readouterr().out
        lines = [line.strip() for line in out.splitlines()]
        assert out.startswith(data["title"][lang] + " \u00b7 ")
        assert any(x.startswith(heading) for x in lines) and not any(x.startswith(not_heading) for x in lines)
        written = [x.strip() for x in data["text"][lang].splitlines() if x.strip()]
        assert all(x in lines for x in written)
        assert not [x.strip() for x in data["text"][other].splitlines() if x.strip() and x.strip() in lines]
        flat = " ".join(out.split())  # the characters' sheets are wrapped to the terminal
        for name, sheet in data["characters"].items():
            assert any(x.startswith(f"{sheet['title'][lang]} [{name}]") for x in lines), (lang, name)
            assert " ".join(sheet["text"][lang].split()) in flat, (lang, name)
            assert " ".join(sheet["text"][other].split()) not in flat and sheet["title"][other] not in flat


def test_a_scenario_written_in_one_language_is_shown_as_written_whatever_the_language(tmp_path, capsys):
    """A mod's scenario in one language: its title and common sheet plain texts, its characters'
    sheets given in French only ({fr: ...}); shown in French in English as in French."""
    game = tmp_path / "seeders-exodus"
    shutil.copytree(content_dir() / "seeders-exodus", game)
    path = game / "expansions" / "tais" / "scenarios" / "tais-2j.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["title"], data["text"] = data["title"]["fr"], data["text"]["fr"]
    for sheet in data["characters"].values():
        sheet["title"], sheet["text"] = sheet["title"]["fr"], {"fr": sheet["text"]["fr"]}
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    for lang in ("en", "fr"):
        assert cli.main(["explain", str(game), "tais-2j", "--lang", lang]) == 0
        out = capsys.readouterr().out
        lines = out.splitlines()
        assert lines[0].startswith("Contrebande dans la Soute \u00b7 ")
        assert "  Conditions particulières :" in lines
        assert "  Aldée, la receleuse [Aldée] " + ("(authored)" if lang == "en" else "(écrite pour le jeu)") in lines
        assert "Condition personnelle : vous commencez la partie avec 1 Muta-Vecteur de plus" in out


def test_regles_play_with_a_scenario_shows_each_seats_character_sheet(capsys, monkeypatch):
    import io
    import sys
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert cli.main(["play", "seeders-exodus", "-n", "2", "--scenario", "etho-2j", "--power", "1=etho-bruck"]) == 0
    out = capsys.readouterr().out
    assert "Scenario: The Conclave.\n  The High Priest of Xzhüü is dead" in out
    assert "player 1 plays Brück: their sheet, Brück, the preacher.\n    Your voice carries" in out
    # the other seat's character is the content's to compute: every other sheet is shown
    assert "Each other player takes the sheet of the character they play:" in out
    assert "  Ilvane, the ordaining cardinal [Ilvane]\n    You ordained" in out
    assert "  Brück, the preacher [Brück]" not in out
    assert "Le Conclave" not in out and "Votre voix" not in out
    # in French, the whole sheet in French
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert cli.main(["play", "seeders-exodus", "-n", "2", "--scenario", "etho-2j", "--power", "1=etho-bruck",
                     "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    assert "Scénario : Le Conclave.\n  Le Grand Prêtre de Xzhüü est mort" in out
    assert "\n  Conditions particulières (pour tous les joueurs) :\n" in out
    assert "Joueur 1 joue Brück : sa fiche, Brück, le prédicateur.\n    Votre voix porte" in out
    assert "  Ilvane, la cardinale ordonnatrice [Ilvane]\n    Vous avez ordonné" in out
    assert "The Conclave" not in out and "Special conditions" not in out and "You ordained" not in out
    # what is laid over the game, and what the sheets are by, in French too
    assert "Extensions : Personnages et pouvoirs personnels, Le jeu à 5 joueurs, Etho.\n" in out
    assert "Chaque autre joueur prend la fiche du personnage qu'il joue :" in out and "character" not in out


def test_regles_explain_unknown_card_suggests(capsys):
    assert cli.main(["explain", "karman-swap", "Kib"]) == 2
    assert "did you mean" in capsys.readouterr().err


# regles check without a path ----------------------------------------------------------------

def test_check_without_a_path_says_it_checks_the_shipped_games(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # no content folder here or above
    assert cli.main(["check"]) == 0
    out = capsys.readouterr().out
    first, last = out.splitlines()[0], out.splitlines()[-1]
    files = int(last.split()[0])
    games = len(shipped_games())
    assert first == f"checking the shipped games in {content_dir()} ({games} games, {files} files)"
    assert games >= 2 and files > games


def test_check_without_a_path_in_a_clone_checks_the_content_being_edited(capsys, monkeypatch, tmp_path):
    # a modder's clone: content/ holds a game, edited with a mistake; they run the command inside it
    game = tmp_path / "clone" / "content" / "nim"
    shutil.copytree(FIXTURES / "nim", game)
    (game / "game.yaml").write_text((game / "game.yaml").read_text().replace("score 1 to p", "scroe 1 to p"))
    monkeypatch.chdir(game)
    assert cli.main(["check"]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"checking the games in {tmp_path / 'clone' / 'content'} (1 game, 2 files)\n")
    assert "game.yaml:" in out and "scroe" in out
    monkeypatch.chdir(tmp_path / "clone")
    assert cli.main(["check", "--format", "json"]) == 1
    assert json.loads(capsys.readouterr().out)["errors"] >= 1  # JSON alone: no line before it


def test_regles_explain_starts_with_the_card_as_printed_in_the_language_asked(capsys):
    assert cli.main(["explain", "karman-swap", "cendreux"]) == 0  # English unless asked
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "Cendreux \u00b7 Karman Swap"
    assert "value: 3" in lines[1]
    # its face: the pose's printed text, not the engine's reading of it
    assert lines[2] == "  Troc: Swap a card on a planet with a card in the Market."
    # then the ability: its rule, with the rule's text from the game's rules index
    assert "Ability 1: Troc" in lines
    assert any(line.startswith("    KS-POS-5  ") and "Market" in line for line in lines)
    # the ruling of the game that names the pose, and only rulings that name it or cite its rules
    assert any("swaps and moves (Troc, Transfert)" in line for line in lines)
    assert not any("pose ability is used at most once per turn" in line for line in lines)
    # the engine's reading as prose; then for modders
    assert any(line.startswith("  the engine reads it: Troc: When this card is played") for line in lines)
    assert "How the engine reads it:" in lines
    assert cli.main(["explain", "karman-swap", "Cendreux", "--lang", "fr"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2] == "  Troc : Échangez une carte d'une Planète avec une carte du Marché."
    # its headings in French too, not only its texts
    assert "Capacité 1 : Troc" in lines and "Ability 1: Troc" not in lines
    assert any(line.startswith("  imprimé (Troc) : Échangez") for line in lines)
    assert any(line.startswith("  le moteur la lit : Troc : Quand on joue cette carte") for line in lines)
    # and the lines for modders under them
    assert any(line.startswith("Cendreux (cendreux), composant « card » de ") for line in lines)
    # a game whose title begins with a vowel: « d'Etherium », as French writes it
    assert cli.main(["explain", "etherium", "sentier", "--lang", "fr"]) == 0
    told = capsys.readouterr().out.splitlines()
    assert any(line.startswith("Sentier (sentier), composant « flash_card » d'Etherium : ") for line in told), told
    assert any(line.startswith("  capacité 1 (") for line in lines) and not any("  ability 1 (" in x for x in lines)
    assert any(line.startswith("    mot-clé 'Troc' (") for line in lines)  # the keyword and what the engine makes of it
    assert any(line.startswith("    - déclenchée : à l'événement « posed » (facultative") for line in lines)
    assert not any("keyword '" in x or "triggered:" in x for x in lines)


def test_regles_explain_prints_a_rules_text_of_several_lines_as_lines(capsys):
    assert cli.main(["explain", "etherium", "bucheron"]) == 0
    out = capsys.readouterr().out
    assert "\\x0a" not in out
    assert "      when flash_played:\n        gain 3 wood" in out


def test_regles_explain_lang_is_a_known_language(capsys):
    assert cli.main(["explain", "seeders-exodus", "conspirateur", "--lang", "de"]) == 2
    assert "invalid choice: 'de'" in capsys.readouterr().err


def test_the_check_counts_the_errors_it_lists(tmp_path):
    """A base card's unknown key is said in the game's pack and again with its expansions laid
    over it, each with its pack's own keys as the hint: listed once, counted once, in the text
    and in the JSON."""
    import json
    import shutil

    from interpreter.diagnostics import render_json, render_text
    from interpreter.resources import content_dir
    from interpreter.rulings.check import check_paths
    root = tmp_path / "seeders-exodus"
    shutil.copytree(content_dir() / "seeders-exodus", root)
    cards = root / "cards" / "noyau.yaml"
    text = cards.read_text(encoding="utf-8")
    card = text.index("  - id: cohorte-solidaire")
    at = text.index("    cost: 2\n", card)
    cards.write_text(text[:at] + "    power: 3\n" + text[at:], encoding="utf-8")
    report = check_paths([str(root)])
    said = [d for d in report.errors if "unknown key 'power'" in d.message]
    assert len(said) == 2 and said[0].hint != said[1].hint  # the game's keys, then the expansions'
    listing = render_text(report)
    assert listing.count("error[S001]") == 1 and listing.splitlines()[-1].endswith(" checked: 1 error")
    data = json.loads(render_json(report))
    assert data["errors"] == 1 == len([d for d in data["diagnostics"] if d["severity"] == "error"])
