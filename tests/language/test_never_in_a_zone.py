"""Cards that never enter a zone (language.check_start): a modder's file without `start:`
checked clean, and its cards were then in no game. It is a warning now, with the line to add;
cards a rule names, or a seat's power, are reached another way and are not warned of."""
from __future__ import annotations

import shutil
import textwrap

import pytest

import interpreter
from interpreter import cli
from interpreter.rulings.check import check_paths

from gamekit import FIXTURES

HINT = ("    hint: add 'start: deck' to the file, beside 'kind: cards'; the zones: deck, market, discard, reserve, "
        "hand (each player's), tableau (each player's)")

MOD = """\
kind: cards
game: ../docs-game
cards:
  - id: castle
    title: Castle
    type: Building
    cost: 5
  - id: tower
    title: Tower
    type: Building
    cost: 3
"""


@pytest.fixture
def folders(tmp_path):
    shutil.copytree(FIXTURES / "docs-game", tmp_path / "docs-game")
    (tmp_path / "mod").mkdir()
    return tmp_path


def warnings_of(paths) -> list:
    report = check_paths([str(p) for p in paths])
    assert report.ok, [d.message for d in report.errors]
    return [(d.position.line, d.message) for d in report.diagnostics if d.severity == "warning"]


def test_a_mods_cards_without_start_are_a_warning_with_the_line_to_add(folders, capsys, monkeypatch):
    (folders / "mod" / "castles.yaml").write_text(MOD, encoding="utf-8")
    monkeypatch.chdir(folders)
    assert cli.main(["check", "mod/castles.yaml"]) == 0  # a warning: the check still passes
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("mod/castles.yaml:4:5: warning[D005]: 2 cards of this file never enter a zone (castle, tower): "
                      "it has no 'start:', and no rule moves them")
    assert out[1:4] == ["      - id: castle", "        ^", HINT]
    assert out[-1] == "6 files checked: 0 errors, 1 warning"
    assert cli.main(["check", "--strict", "mod/castles.yaml"]) == 1
    # and indeed: with the mod laid, no game ever has them anywhere
    game = interpreter.load(str(folders / "docs-game"), mods=[str(folders / "mod")])
    st = game.new_state(2, seed=1)
    castle = next(i for i, c in enumerate(game.program.comp_card) if c.id == "castle")
    assert st.where[castle] is None


def test_one_card_is_named(folders):
    (folders / "mod" / "castle.yaml").write_text(MOD.split("  - id: tower")[0], encoding="utf-8")
    assert warnings_of([folders / "mod" / "castle.yaml"]) == [
        (4, "card 'castle' never enters a zone: its file has no 'start:', and no rule moves it")]


@pytest.mark.parametrize("where, warned", [
    ("start: deck\n", []),                                  # a start zone
    ("", ["castle"]),                                       # a rule names tower: only castle is lost
])
def test_a_card_a_rule_names_is_reached(folders, where, warned):
    (folders / "mod" / "castles.yaml").write_text(MOD.replace("cards:\n", where + "cards:\n", 1), encoding="utf-8")
    game = folders / "docs-game" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace(
        "  setup: |\n", '  setup: |\n    move card("tower") to market\n'), encoding="utf-8")
    found = warnings_of([folders / "mod" / "castles.yaml"])
    assert [m.split("'")[1] for _, m in found] == warned


def test_a_card_named_by_a_computed_id_or_given_as_a_power_is_not_warned_of(folders):
    (folders / "mod" / "castles.yaml").write_text(MOD, encoding="utf-8")
    game = folders / "docs-game" / "game.yaml"
    text = game.read_text(encoding="utf-8")
    computed = text.replace("  setup: |\n", '  setup: |\n    for each id in ["castle"]:\n      move card(id) to market\n')
    game.write_text(computed, encoding="utf-8")
    assert warnings_of([folders / "mod" / "castles.yaml"]) == []
    powers = text.replace("score: points\n", "score: points\npowers: {zone: tableau, component: card}\n")
    game.write_text(powers, encoding="utf-8")
    assert warnings_of([folders / "mod" / "castles.yaml"]) == []


def test_a_rules_test_naming_the_card_does_not_put_it_in_a_game(folders):
    (folders / "mod" / "castles.yaml").write_text(MOD, encoding="utf-8")
    (folders / "mod" / "rulings.yaml").write_text(textwrap.dedent("""\
        kind: rules-test
        game: ../docs-game
        tests:
          - name: a castle on the market
            given: |
              move card("castle") to market
            then:
              - "card(\\"castle\\") in market"
        """), encoding="utf-8")
    found = warnings_of([folders / "mod" / "castles.yaml", folders / "mod" / "rulings.yaml"])
    assert [m.split(" (")[0] for _, m in found] == ["2 cards of this file never enter a zone"]


def test_no_shipped_game_is_warned_of():
    report = check_paths([str(p) for p in (FIXTURES.parent.parent / "content").iterdir() if p.is_dir()])
    assert report.ok and not [d for d in report.diagnostics if "never enter" in d.message]
