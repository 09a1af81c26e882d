"""Rules tests: `offered` checks the options of the choice the actions stop at."""
from __future__ import annotations

import textwrap

import interpreter
from interpreter.tools.ruletest import run_test

from gamekit import make_game

PROCEDURES = """\
game: |
  call turn(first(players))
turn:
  params: [player]
  acting: player
  body: |
    choose by you "Your turn":
      option "Play {c}" for each c in you.hand if c.value > 1:
        move c to you.table
      option "Pass":
        pass
"""

TESTS = """\
kind: rules-test
game: tiny
tests:
  - name: "cards of value 1 cannot be played"
    given: |
      move card("one") to players[1].hand
      move card("two") to players[1].hand
      move card("three") to players[1].hand
    when: |
      call turn(players[1])
    offered: {offered}
    then:
      - "count(players[1].table) == 0"
"""


def results(tmp_path, offered: str, choices: str = ""):
    make_game(tmp_path, PROCEDURES)
    test = TESTS.format(offered=offered)
    if choices:
        test = test.replace("    offered:", f"    choices: {choices}\n    offered:")
    (tmp_path / "tiny" / "tests.yaml").write_text(textwrap.dedent(test), encoding="utf-8")
    game = interpreter.load(str(tmp_path / "tiny"))
    return [run_test(game, t) for t in game.program.defn.tests]


def test_offered_passes_when_the_choice_offers_exactly_these_options(tmp_path):
    [res] = results(tmp_path, '["Play Two", "Play Three", "Pass"]')
    assert res.passed, res.message


def test_offered_fails_on_an_option_too_many_or_missing(tmp_path):
    [res] = results(tmp_path, '["Play Three", "Pass"]')
    assert not res.passed
    assert "offers ['Play Two', 'Play Three', 'Pass'], not ['Play Three', 'Pass']" in res.message


def test_offered_fails_when_no_choice_is_left(tmp_path):
    [res] = results(tmp_path, '["Play Two", "Pass"]', choices='["Pass"]')
    assert not res.passed
    assert "no choice is left to ask" in res.message


def ruling(tmp_path, key: str, labels: str):
    tmp_path.mkdir()
    make_game(tmp_path, PROCEDURES)
    test = TESTS.format(offered=labels).replace("    offered:", f"    {key}:")
    (tmp_path / "tiny" / "tests.yaml").write_text(textwrap.dedent(test), encoding="utf-8")
    game = interpreter.load(str(tmp_path / "tiny"))
    [res] = [run_test(game, t) for t in game.program.defn.tests]
    return res


def test_a_ruling_that_a_move_is_not_offered(tmp_path):
    # a card of value 1 cannot be played: the ruling passes
    assert ruling(tmp_path / "a", "not_offered", '["Play One"]').passed
    # and one that says a legal move is not offered fails, naming it
    res = ruling(tmp_path / "b", "not_offered", '["Play One", "Play Two"]')
    assert not res.passed
    assert "offers ['Play Two'], which the ruling says it does not" in res.message


def test_a_ruling_that_moves_are_offered_among_others(tmp_path):
    assert ruling(tmp_path / "a", "offered_at_least", '["Pass", "Play Three"]').passed
    res = ruling(tmp_path / "b", "offered_at_least", '["Pass", "Play One"]')
    assert not res.passed and "does not offer ['Play One']" in res.message


def test_a_false_then_shows_the_values_involved(tmp_path):
    make_game(tmp_path, PROCEDURES)
    test = TESTS.format(offered='["Play Two", "Play Three", "Pass"]').replace(
        '- "count(players[1].table) == 0"',
        '- "count(players[1].hand) == 3 and count(players[1].table) == 1"\n      - "players[1].coins == count(players[1].hand)"')
    (tmp_path / "tiny" / "tests.yaml").write_text(textwrap.dedent(test), encoding="utf-8")
    game = interpreter.load(str(tmp_path / "tiny"))
    [res] = [run_test(game, t) for t in game.program.defn.tests]
    assert not res.passed
    # through 'and', the first false part, and the value of each side that is not a literal
    assert "is false: count(players[1].table) is 0" in res.message
    assert "is false: players[1].coins is 0, count(players[1].hand) is 3" in res.message


def test_a_then_that_gives_no_truth_fails_naming_what_it_gave(tmp_path):
    """A 'then' whose type the checker cannot tell (a local, `top(...)`) and that gives a component
    fails, rather than passing or failing by the component's number (issue 10)."""
    make_game(tmp_path, "game: |\n  pass\n")
    (tmp_path / "tiny" / "tests.yaml").write_text(textwrap.dedent("""\
        kind: rules-test
        game: tiny
        tests:
          - name: "what is on the pile"
            given: |
              move card("two") to pile
              let done = count(pile) == 1
            then:
              - "top(pile)"
              - "done"
        """), encoding="utf-8")
    game = interpreter.load(str(tmp_path / "tiny"))
    [res] = [run_test(game, t) for t in game.program.defn.tests]
    assert not res.passed
    assert res.message.endswith("then 'top(pile)' is Two, not true or false"), res.message
    assert "done" not in res.message
