"""Rules tests: `offered` checks the options of the choice the actions stop at."""
from __future__ import annotations

import textwrap

import pytest

import interpreter
from interpreter.rulings.ruletest import run_test

from gamekit import FIXTURES, make_game

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
    game = interpreter.load(str(tmp_path / "tiny"), tests=True)
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


def ruling(tmp_path, key: str, labels: str, then: bool = True):
    tmp_path.mkdir()
    make_game(tmp_path, PROCEDURES)
    test = TESTS.format(offered=labels).replace("    offered:", f"    {key}:")
    if not then:  # a ruling of what is offered needs no outcome besides
        test = test.replace('    then:\n      - "count(players[1].table) == 0"\n', "")
        assert "then:" not in test
    (tmp_path / "tiny" / "tests.yaml").write_text(textwrap.dedent(test), encoding="utf-8")
    game = interpreter.load(str(tmp_path / "tiny"), tests=True)
    [res] = [run_test(game, t) for t in game.program.defn.tests]
    return res


def test_a_ruling_that_a_move_is_not_offered(tmp_path):
    # a card of value 1 cannot be played: the ruling passes
    assert ruling(tmp_path / "a", "not_offered", '["Play One"]').passed
    # and one that says a legal move is not offered fails, naming it
    res = ruling(tmp_path / "b", "not_offered", '["Play One", "Play Two"]')
    assert not res.passed
    assert "offers ['Play Two'], which the ruling says it does not" in res.message
    # a ruling of what is offered alone, with no 'then'
    assert ruling(tmp_path / "c", "not_offered", '["Play One"]', then=False).passed
    assert not ruling(tmp_path / "d", "not_offered", '["Play Two"]', then=False).passed


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
    game = interpreter.load(str(tmp_path / "tiny"), tests=True)
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
    game = interpreter.load(str(tmp_path / "tiny"), tests=True)
    [res] = [run_test(game, t) for t in game.program.defn.tests]
    assert not res.passed
    assert res.message.endswith("then 'top(pile)' is Two, not true or false"), res.message
    assert "done" not in res.message


CARD_TESTS = """\
kind: rules-test
game: tiny
tests:
  - name: "a card written for the test is played like a shipped one"
    cards:
      - id: nine
        title: Nine
        value: 9
        start: pile
        abilities: ["action \\"Cash in\\" during main cost tap: gain 3 coins"]
    given: |
      move card("nine") to players[1].table
    when: |
      use card("nine") by players[1]
    then:
      - "count(pile) == 0"
      - "players[1].coins == 3"
  - name: "the game of another test has no such card"
    then:
      - "count(pile) == 0"
"""


def test_a_ruling_adds_cards_of_its_own_that_only_its_game_has(tmp_path):
    make_game(tmp_path, PROCEDURES)
    (tmp_path / "tiny" / "tests.yaml").write_text(CARD_TESTS, encoding="utf-8")
    game = interpreter.load(str(tmp_path / "tiny"), tests=True)
    assert [c.id for c in game.program.defn.cards] == ["one", "two", "three", "four"]
    first, second = [run_test(game, t) for t in game.program.defn.tests]
    assert first.passed, first.message
    assert second.passed, second.message


def test_check_reports_the_errors_of_a_test_card_and_of_the_parts_that_name_it(tmp_path, capsys):
    from interpreter.cli import main
    make_game(tmp_path, PROCEDURES)
    wrong = CARD_TESTS.replace("gain 3 coins", "gain 3 coinz").replace(
        '      - "players[1].coins == 3"\n', '      - "players[1].coins == 3"\n      - "card(\\"ten\\") in pile"\n')
    (tmp_path / "tiny" / "tests.yaml").write_text(wrong, encoding="utf-8")
    assert main(["check", str(tmp_path / "tiny")]) == 1
    out = capsys.readouterr().out
    assert "tests.yaml:10:70: error[N002]: unknown counter 'coinz'" in out
    assert "tests.yaml:18:15: error[N018]: no card with id 'ten'" in out
    assert "2 errors" in out  # each said once, though the test's pack is checked besides the game's


# `regles test -v`: every question, who was asked, the options and the answer ----------------

TWO_QUESTIONS = """\
game: |
  call turn(first(players))
turn:
  params: [player]
  acting: player
  body: |
    choose by you "Pick a card":
      option "Take {c}" for each c in deck if c.value > 2:
        move c to you.hand
    choose by you "Your turn":
      option "Play {c}" for each c in you.hand if c.value > 1:
        move c to you.table
      option "Pass":
        pass
"""

ASKED = """\
kind: rules-test
game: tiny
tests:
  - name: "take four and play it"
    given: |
      move card("one") to pile
      move card("two") to pile
      move card("three") to pile
    when: |
      call turn(players[1])
    choices: {choices}
    then:
      - "count(players[1].table) == 1"
"""


def asked(tmp_path, choices: str):
    make_game(tmp_path, TWO_QUESTIONS)
    (tmp_path / "tiny" / "tests.yaml").write_text(ASKED.format(choices=choices), encoding="utf-8")
    game = interpreter.load(str(tmp_path / "tiny"), tests=True)
    [res] = [run_test(game, t) for t in game.program.defn.tests]
    return res


def test_every_question_is_kept_with_its_options_and_what_answered_it(tmp_path):
    res = asked(tmp_path, '["Play Four"]')
    assert res.passed, res.message
    assert [q.line() for q in res.asked] == [
        "player 1, 'Pick a card': [Take Four] -> Take Four (its only option: no answer of 'choices' used)",
        "player 1, 'Your turn': [Play Four; Pass] -> Play Four (choices[0])",
    ]


def test_an_answer_written_for_a_question_that_answered_itself_is_named(tmp_path):
    res = asked(tmp_path, '["Take Four", "Play Four"]')
    assert not res.passed
    assert ("choices[0] 'Take Four' answers 'Your turn' (player 1): no option 'Take Four' here; "
            "options: Play Four; Pass; a question with one option answers itself and takes no answer of "
            "'choices': 'Pick a card' (player 1) -> Take Four") in res.message
    assert res.asked[-1].by == "choices[0] 'Take Four' is none of its options"


def test_answers_left_over_name_the_questions_that_answered_themselves(tmp_path):
    res = asked(tmp_path, '[0, "Pass"]')
    assert not res.passed
    assert res.message.startswith("1 answer(s) in 'choices' were never asked for: ['Pass']; "
                                  "a question with one option answers itself")


def test_a_false_then_shows_what_a_zone_holds_and_each_side_of_an_or(tmp_path):
    make_game(tmp_path, TWO_QUESTIONS)
    (tmp_path / "tiny" / "tests.yaml").write_text("""\
kind: rules-test
game: tiny
tests:
  - name: "hands"
    given: |
      move card("one") to players[1].hand
      move card("two") to players[1].hand
    then:
      - "players[1].hand == players[2].hand"
      - "count(players[1].hand) == 0 or count(players[2].hand) == 1"
""", encoding="utf-8")
    game = interpreter.load(str(tmp_path / "tiny"), tests=True)
    [res] = [run_test(game, t) for t in game.program.defn.tests]
    first, second = res.message.split("\n")
    assert first.endswith("is false: players[1].hand holds One, Two, players[2].hand is empty")
    assert "hand#" not in res.message
    assert second.endswith("is false: count(players[1].hand) is 2, count(players[2].hand) is 0")


def test_regles_test_verbose_prints_the_questions(tmp_path, capsys):
    from interpreter.cli import main
    make_game(tmp_path, TWO_QUESTIONS)
    (tmp_path / "tiny" / "tests.yaml").write_text(ASKED.format(choices='["Play Four"]'), encoding="utf-8")
    assert main(["test", str(tmp_path / "tiny"), "-v"]) == 0
    out = capsys.readouterr().out
    assert "        asked player 1, 'Your turn': [Play Four; Pass] -> Play Four (choices[0])" in out
    assert main(["test", str(tmp_path / "tiny")]) == 0
    assert "asked" not in capsys.readouterr().out


# `regles test GAME FILE... -x EXP`: arguments in any order, one's own rulings in a solo mode ------

ROBOTS = FIXTURES / "robots"


def own_rulings(tmp_path):
    """A rulings file of one's own: the robots' solo ruling, kept outside the game's folder."""
    mine = tmp_path / "my-rulings.yaml"
    mine.write_text((ROBOTS / "expansions" / "solo" / "tests.yaml").read_text(encoding="utf-8")
                    .replace("at the hard level Bot plays its best card", "my ruling, Bot plays its best"),
                    encoding="utf-8")
    return str(mine)


@pytest.mark.parametrize("order", [
    ["GAME", "FILE", "-x", "solo"],
    ["GAME", "-x", "solo", "FILE"],
    ["-x", "solo", "GAME", "FILE", "-v"],
    ["-v", "GAME", "-x", "solo", "FILE"],
])
def test_own_rulings_run_with_the_solo_mode_laid_whatever_the_order(tmp_path, capsys, order):
    from interpreter.cli import main
    mine = own_rulings(tmp_path)
    argv = [{"GAME": str(ROBOTS), "FILE": mine}.get(a, a) for a in order]
    assert main(["test", *argv]) == 0, capsys.readouterr()
    out = capsys.readouterr().out
    assert "ok      my ruling, Bot plays its best" in out
    assert "at the hard level" not in out  # only the file's tests
    assert out.rstrip().endswith("1 passed, 0 failed")


def test_a_solo_mode_still_leaves_out_the_rulings_of_the_game_and_a_usage_error_stays_one(tmp_path, capsys):
    from interpreter.cli import main
    assert main(["test", str(ROBOTS), "-x", "solo"]) == 0
    out = capsys.readouterr().out
    assert "at the hard level Bot plays its best card" in out
    game_tests = [t.name for t in interpreter.load(str(ROBOTS), tests=True).program.defn.tests]
    assert game_tests and not any(f"ok      {name}" in out for name in game_tests)
    assert main(["test", str(ROBOTS), str(tmp_path / "none.yaml"), "-x", "solo"]) == 2
    assert "no such rulings file" in capsys.readouterr().err


# `expansions:` of a rules test: the expansions laid for it, [] for the game alone ----------------

def test_a_rule_of_the_printed_board_holds_in_the_game_alone_whatever_expansion_the_run_lays():
    import dataclasses
    game = interpreter.load("etherium", expansions=["mauhea-meinas"], tests=True)
    board = next(t for t in game.program.defn.tests if t.name.startswith("The first-game board"))
    assert board.data["expansions"] == []
    assert run_test(game, board).passed
    # the same test without its `expansions: []`: the expansion's larger board breaks it
    laid = dataclasses.replace(board, data={k: v for k, v in board.data.items() if k != "expansions"})
    result = run_test(game, laid)
    assert not result.passed and "count(nodes(\"city\")) is 6" in result.message


def test_a_test_of_an_expansion_run_without_it_says_so():
    import dataclasses
    game = interpreter.load(str(ROBOTS), expansions=["solo"], tests=True)
    mine = next(t for t in game.program.defn.tests if t.layer == "solo")
    alone = dataclasses.replace(mine, data={**mine.data, "expansions": []})
    result = run_test(game, alone)
    assert not result.passed
    assert "its file belongs to an expansion its 'expansions' leaves out" in result.message
