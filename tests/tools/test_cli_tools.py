"""`regles test` runs a game's executable rulings; `regles explain` shows how a card is read."""
from interpreter.tools import cli


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


def test_regles_explain_shows_the_keyword_and_its_values(capsys):
    assert cli.main(["explain", "seeders-exodus", "Technopôle"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Technopôle (technopole), a card of Seeders from Sereis")
    assert "keyword 'Majorité X - Y'" in out and "with X = 3, Y = Module" in out
    assert "triggered: when scoring; when the event is about this card" in out
    assert "classes (for 'is'): architectes, module, primaire" in out


def test_regles_explain_unknown_card_suggests(capsys):
    assert cli.main(["explain", "karman-swap", "Kib"]) == 2
    assert "did you mean" in capsys.readouterr().err
