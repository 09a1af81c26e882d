"""A load to play reads no rules test: `interpreter.load` without `tests` leaves out the files
whose first key is `kind: rules-test`, and plays every game as a load with them does."""
from __future__ import annotations

import textwrap

import pytest

import interpreter
from interpreter.cli import main
from interpreter.content.source import is_rules_test_file

from gamekit import make_game, random_trace

BROKEN_TEST = """\
# yaml-language-server: $schema=../../schemas/rules-test.schema.json
kind: rules-test
game: tiny
tests:
  - name: "reads a counter no game has"
    then:
      - "nowhere == 1"
"""

GAME = """\
game: |
  let p = first(players)
  while count(deck) > 0:
    choose c from deck by p "Take a card"
    move c to p.hand
    add c.value to p.points
    set p = next(p)
"""

SETS_A_VALUE = """\
kind: rules-test
game: tiny
tests:
  - name: "a card's value set by a test"
    given: |
      set card("one").value = 7
    then:
      - "card(\\"one\\").value == 7"
"""


def _tiny(tmp_path):
    make_game(tmp_path, GAME)
    return tmp_path / "tiny"


def test_a_load_to_play_neither_reads_nor_keeps_the_rules_tests(tmp_path):
    folder = _tiny(tmp_path)
    (folder / "tests").mkdir()
    (folder / "tests" / "broken.yaml").write_text(BROKEN_TEST, encoding="utf-8")
    game = interpreter.load(str(folder))
    assert game.program.defn.tests == []
    assert not any("broken.yaml" in path for path in game.report.checked)  # not even read
    with pytest.raises(interpreter.LoadError) as err:  # read, it is an error, as `regles check` says
        interpreter.load(str(folder), tests=True)
    assert "broken.yaml" in str(err.value) and "nowhere" in str(err.value)
    assert main(["check", str(folder)]) == 1


def test_a_rules_test_known_only_once_read_is_read_but_not_kept(tmp_path):
    """A file whose first key is not its kind is read as any file (its errors are the load's), and
    its tests are not kept."""
    folder = _tiny(tmp_path)
    late = SETS_A_VALUE.replace("kind: rules-test\ngame: tiny\n", "game: tiny\nkind: rules-test\n")
    (folder / "late.yaml").write_text(late, encoding="utf-8")
    assert not is_rules_test_file(str(folder / "late.yaml"))
    game = interpreter.load(str(folder))
    assert game.program.defn.tests == []
    assert any("late.yaml" in path for path in game.report.checked)
    assert len(interpreter.load(str(folder), tests=True).program.defn.tests) == 1


@pytest.mark.parametrize("head, is_test", [
    ("kind: rules-test\n", True),
    ("\ufeff# a comment\n\n---\nkind: 'rules-test'   # the kind\n", True),
    ('%YAML 1.2\n---\nkind: "rules-test"\n', True),
    ("kind: cards\n", False),
    ("kind: rules-tests\n", False),
    ("game: tiny\nkind: rules-test\n", False),  # the first key is not the kind: read to know
    ("  kind: rules-test\n", False),
    ("{kind: rules-test, game: tiny}\n", False),
    ("kind: rules-test extra\n", False),
    ("", False),
])
def test_a_rules_test_is_known_by_its_first_key(tmp_path, head, is_test):
    path = tmp_path / "f.yaml"
    path.write_text(head + "tests: []\n", encoding="utf-8")
    assert is_rules_test_file(str(path)) is is_test


def test_the_games_of_a_load_to_play_are_those_of_a_load_with_the_tests(tmp_path):
    """A test that sets an attribute makes the compiled code read the values rules set; without
    the tests, the code reads the printed ones: the same game either way."""
    folder = _tiny(tmp_path)
    (folder / "tests.yaml").write_text(SETS_A_VALUE, encoding="utf-8")
    played, tested = interpreter.load(str(folder)), interpreter.load(str(folder), tests=True)
    assert played.program is not tested.program and len(tested.program.defn.tests) == 1
    assert played.program.defn.tests == []
    for seed in range(3):
        assert random_trace(played, 2, seed) == random_trace(tested, 2, seed)


@pytest.mark.parametrize("game_id", ["karman-swap", "etherium"])
def test_a_shipped_game_plays_the_same_without_its_rules_tests(game_id):
    played, tested = interpreter.load(game_id), interpreter.load(game_id, tests=True)
    assert played.program.defn.tests == [] and tested.program.defn.tests
    assert played.program.content_fingerprint() == tested.program.content_fingerprint()
    assert random_trace(played, 3, 11) == random_trace(tested, 3, 11)


def test_regles_test_reads_the_rules_tests(tmp_path, capsys):
    folder = _tiny(tmp_path)
    (folder / "tests.yaml").write_text(textwrap.dedent(SETS_A_VALUE), encoding="utf-8")
    assert main(["test", str(folder)]) == 0
    assert "1 passed" in capsys.readouterr().out
