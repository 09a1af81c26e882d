"""A game that keeps a score but that no one can win (language.check_start): a game ends when
its `game` procedure returns or a rule runs `win`, and only `win` names winners, so a game
declaring `score:` whose rules never say `win` ends every game with no winner. `regles check`
warns of it (D006), at the `score:` line; a `win` anywhere in the game's rules (a procedure,
a card) is a way to win, one in a rules test is not."""
from __future__ import annotations

import pytest

from interpreter import cli
from interpreter.rulings.check import check_paths

GAME = """\
kind: game
id: race
title: Race
players: {min: 2, max: 2}
counters:
  points: {scope: player}
score: points
procedures:
  game: |
    for each p in players:
      score 1 to p
"""

WIN = """\
    let best = max(p.points for each p in players)
    win [each p in players where p.points == best]
"""


def warnings_of(folder) -> list:
    report = check_paths([str(folder)])
    assert report.ok, [d.message for d in report.errors]
    return [d for d in report.diagnostics if d.severity == "warning"]


def write(tmp_path, game: str, **files) -> object:
    folder = tmp_path / "race"
    folder.mkdir()
    (folder / "game.yaml").write_text(game, encoding="utf-8")
    for name, text in files.items():
        (folder / f"{name}.yaml").write_text(text, encoding="utf-8")
    return folder


def test_a_score_and_no_win_is_a_warning_at_the_score_line(tmp_path, capsys, monkeypatch):
    write(tmp_path, GAME)
    monkeypatch.chdir(tmp_path)
    assert cli.main(["check", "race"]) == 0  # a warning: the check still passes
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("race/game.yaml:7:8: warning[D006]: the game keeps a score ('points') but has no way to win: "
                      "no rule says 'win', so every game ends with no winner")
    assert out[1:3] == ["    score: points", "           ^~~~~~"]
    assert out[-1] == "1 file checked: 0 errors, 1 warning"
    assert cli.main(["check", "--strict", "race"]) == 1


def test_a_win_in_the_game_procedure_is_a_way_to_win(tmp_path):
    assert warnings_of(write(tmp_path, GAME + WIN)) == []


def test_a_win_printed_on_a_card_is_a_way_to_win(tmp_path):
    game = GAME.replace("counters:", "zones:\n  deck: {scope: game, visibility: hidden}\ncounters:")
    cards = ("kind: cards\ngame: race\nstart: deck\ncards:\n  - id: crown\n    title: Crown\n"
             "    abilities:\n      - \"when played: win you\"\n")
    game = game.replace("procedures:", "events:\n  played: []\nprocedures:")
    assert warnings_of(write(tmp_path, game, cards=cards)) == []


def test_a_win_in_a_rules_test_only_is_no_way_to_win(tmp_path):
    tests = ("kind: rules-test\ngame: race\ntests:\n  - name: a ruling\n    given: |\n"
             "      win first(players)\n    then:\n      - has_won(players[1])\n")
    assert [d.code for d in warnings_of(write(tmp_path, GAME, tests=tests))] == ["D006"]


def test_a_game_without_a_score_is_not_warned(tmp_path):
    assert warnings_of(write(tmp_path, GAME.replace("score: points\n", "").replace("score 1 to p",
                                                                                     "add 1 to p.points"))) == []


@pytest.mark.parametrize("folder", ["content/seeders-exodus", "content/karman-swap", "content/etherium"])
def test_the_shipped_games_have_a_way_to_win(folder):
    from gamekit import ROOT
    report = check_paths([str(ROOT / folder)])
    assert not [d for d in report.diagnostics if d.code == "D006"]
