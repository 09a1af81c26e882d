"""`prints(C, NAME)`: whether a card prints a keyword, by the keyword's first words, so that
an expansion can ask it of cards it does not know (a vault of another expansion)."""
import shutil

from interpreter import cli
from gamekit import FIXTURES


def test_prints_tells_the_cards_that_print_a_keyword_and_the_checker_knows_the_names(tmp_path, capsys):
    root = tmp_path / "docs-game"
    shutil.copytree(FIXTURES / "docs-game", root)
    (root / "tests").mkdir(exist_ok=True)
    (root / "tests" / "prints.yaml").write_text("""\
kind: rules-test
game: docs-game
tests:
  - name: the farm prints Income, the pawn prints nothing
    players: 2
    then:
      - prints(card("farm"), "Income")
      - prints(card("farm"), "income")
      - not prints(card("farm"), "Sturdy")
      - not prints(card("pawn"), "Income")
      - not prints(first(players), "Income")
""", encoding="utf-8")
    assert cli.main(["test", str(root)]) == 0
    assert "ok      the farm prints Income" in capsys.readouterr().out
    (root / "tests" / "prints.yaml").write_text((root / "tests" / "prints.yaml").read_text()
                                               .replace('"Sturdy"', '"Sturdi"'), encoding="utf-8")
    assert cli.main(["check", str(root)]) == 1
    out = capsys.readouterr().out
    assert "error[N018]: no keyword 'Sturdi'" in out and "did you mean 'sturdy'?" in out
