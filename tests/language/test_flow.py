"""The flow of locals (language.check_flow): a name read where it may have no value is a check
error at the read, never a KeyError or "cannot compile" when the game loads or plays, nor a
prompt or label that fails only when `regles play` shows it (issue 10, items 3 and 4). Content
that gives its names a value on every way runs as before."""
from __future__ import annotations

import textwrap

import pytest

import interpreter
from interpreter.rulings.ruletest import run_test

from gamekit import CARDS, make_game, source_line

NOT_YET = "is read before it is given a value"
MAYBE = "may have no value here"

# (procedures of the tiny game, the line read, what is said of it)
REFUSED = {
    "read before its let": ("""\
        game: |
          add y to ticks
          let y = 1
        """, "add y to ticks", f"'y' {NOT_YET}"),
    "let in a branch not taken": ("""\
        game: |
          if count(deck) > 100:
            let y = 1
          add y to ticks
        """, "add y to ticks", f"'y' {MAYBE}"),
    "let in one branch of two": ("""\
        game: |
          if count(deck) > 100:
            let y = 1
          elif count(deck) > 2:
            pass
          else:
            let y = 2
          add y to ticks
        """, "add y to ticks", f"'y' {MAYBE}"),
    "let in a loop that may not run": ("""\
        game: |
          for each c in pile:
            let y = 1
          add y to ticks
        """, "add y to ticks", f"'y' {MAYBE}"),
    "the variable of a loop after it": ("""\
        game: |
          for each c in pile:
            pass
          move c to deck
        """, "move c to deck", f"'c' {MAYBE}"),
    "let in a while": ("""\
        game: |
          while ticks < 0:
            let y = 1
          log "{y}"
        """, 'log "{y}"', f"in text \"{{y}}\": 'y' {MAYBE}"),
    "a break before the let": ("""\
        game: |
          repeat:
            if ticks == 0:
              break
            let y = 1
            break
          add y to ticks
        """, "add y to ticks", f"'y' {MAYBE}"),
    "the prompt of a choice reads what it picks": ("""\
        game: |
          choose c from deck by players[1] "Pick, {c}"
          move c to pile
        """, 'choose c from deck by players[1] "Pick, {c}"', f"in text \"Pick, {{c}}\": 'c' {NOT_YET}"),
    "a menu's prompt reads what an option gives": ("""\
        game: |
          choose by players[1] "Take {n}":
            option "One":
              let n = 1
            option "Two":
              let n = 2
          add n to ticks
        """, 'choose by players[1] "Take {n}":', f"in text \"Take {{n}}\": 'n' {NOT_YET}"),
    "an option's label reads what its statements give": ("""\
        game: |
          choose by players[1] "Take":
            option "One {n}":
              let n = 1
            option "Two":
              pass
        """, 'option "One {n}":', f"in text \"One {{n}}\": 'n' {NOT_YET}"),
    "the variable of an option after the menu": ("""\
        game: |
          choose by players[1] "Take":
            option "Take {c}" for each c in deck:
              pass
            option "None":
              pass
          move c to pile
        """, "move c to pile", f"'c' {MAYBE}"),
    "a name that is the game's counter and a local given a value in a branch": ("""\
        game: |
          if count(deck) > 100:
            let ticks = 1
          add ticks to players[1].points
        """, "add ticks to players[1].points", f"'ticks' {MAYBE}"),
    "a name of the game after a let that never runs": ("""\
        game: |
          if count(deck) > 100:
            return
            let ticks = 5
          add ticks to players[1].points
        """, "add ticks to players[1].points", f"'ticks' {MAYBE}"),
}


@pytest.mark.parametrize("case", REFUSED, ids=list(REFUSED))
def test_a_name_read_where_it_may_have_no_value_is_refused_at_the_read(case, tmp_path):
    procedures, line, message = REFUSED[case]
    with pytest.raises(interpreter.LoadError) as err:
        make_game(tmp_path, textwrap.dedent(procedures))
    errors = [d for d in err.value.report.diagnostics if d.severity == "error"]
    assert len(errors) == 1 and errors[0].message.startswith(message), str(err.value)
    assert source_line(errors[0].position).strip() == line


def _action_cards(ability: str) -> str:
    return CARDS.replace('"action \\"Cash in\\" during main cost tap: gain 2 coins"', ability)


@pytest.mark.parametrize("ability, message", [
    ('"action \\"Cash {n}\\" during main cost tap:\\n  let n = 2\\n  gain n coins"', "in text \"Cash {n}\": 'n'"),
    ('"action during main cost pay n coins:\\n  let n = 2\\n  gain n coins"', "'n'"),
    ('"when played if n > 1:\\n  let n = 2\\n  gain n coins"', "'n'"),
])
def test_an_ability_reads_its_label_costs_and_condition_before_its_statements(ability, message, tmp_path):
    cards = _action_cards(ability)
    assert cards != CARDS
    with pytest.raises(interpreter.LoadError) as err:
        make_game(tmp_path, "game: |\n  pass\n", cards)
    errors = [d for d in err.value.report.diagnostics if d.severity == "error"]
    assert len(errors) == 1 and errors[0].message.startswith(f"{message} {NOT_YET}"), str(err.value)
    assert errors[0].hint.endswith("are read before its statements run") or \
        errors[0].hint == "a trigger's condition is read before its statements run"


ACCEPTED = {
    "a branch that leaves": ("""\
        game: |
          if count(deck) == 0:
            return
          else:
            let y = 1
          add y to ticks
        """, 1),
    "every branch gives it": ("""\
        game: |
          if count(deck) > 100:
            let y = 1
          elif count(deck) > 2:
            let y = 2
          else:
            fail "no deck"
          add y to ticks
        """, 2),
    "given before, set in a loop": ("""\
        game: |
          let y = 0
          for each c in deck:
            set y = y + c.value
          add y to ticks
        """, 10),
    "repeat until a break that has it": ("""\
        game: |
          repeat:
            let y = 3
            if y > 2:
              break
            let z = 1
          add y to ticks
        """, 3),
    "the variable of a comprehension": ("""\
        game: |
          add count(each c in deck where c.value > 2) to ticks
          add sum(c.value for each c in deck) to ticks
        """, 2 + 10),
    "the game's counter read before a local of its name": ("""\
        game: |
          add 4 to ticks
          add ticks to ticks
          let ticks = 100
          add ticks to players[1].points
        """, 8),
    "a choice's pick after it": ("""\
        game: |
          choose c from deck where c.value == 3
          add c.value to ticks
        """, 3),
    "a local read in a later loop round, given before": ("""\
        game: |
          let y = 0
          repeat 3 times:
            add y to ticks
            set y = y + 1
        """, 3),
}


@pytest.mark.parametrize("case", ACCEPTED, ids=list(ACCEPTED))
def test_a_name_given_a_value_on_every_way_is_accepted_and_runs(case, tmp_path):
    procedures, ticks = ACCEPTED[case]
    game = make_game(tmp_path, textwrap.dedent(procedures))
    st = game.new_state(players=2, seed=3)
    assert st.counters["ticks"] == ticks


def test_a_menu_whose_options_all_give_a_name_has_it_after(tmp_path):
    game = make_game(tmp_path, textwrap.dedent("""\
        game: |
          choose by players[1] "Take":
            option "One":
              let n = 1
            option "Two":
              let n = 2
          add n to ticks
        """))
    st = game.new_state(players=2, seed=3)
    st.apply(1)
    assert st.counters["ticks"] == 2


RULES_TEST = """\
kind: rules-test
game: tiny
tests:
  - name: "a name of 'given' read in 'then'"
    given: |
      let k = 1
      if count(deck) > 100:
        let m = 2
    then:
      - "k == 1"
      - "m == 2"
"""


def test_a_rules_test_reads_in_then_what_given_and_when_surely_bound(tmp_path):
    make_game(tmp_path, "game: |\n  pass\n")
    (tmp_path / "tiny" / "tests.yaml").write_text(RULES_TEST, encoding="utf-8")
    with pytest.raises(interpreter.LoadError) as err:
        interpreter.load(str(tmp_path / "tiny"), tests=True)
    errors = [d for d in err.value.report.diagnostics if d.severity == "error"]
    assert len(errors) == 1 and errors[0].message.startswith(f"'m' {MAYBE}"), str(err.value)
    assert (errors[0].position.line, errors[0].position.column) == (11, 10)
    (tmp_path / "tiny" / "tests.yaml").write_text(RULES_TEST.replace('      - "m == 2"\n', ""), encoding="utf-8")
    game = interpreter.load(str(tmp_path / "tiny"), tests=True)
    [res] = [run_test(game, t) for t in game.program.defn.tests]
    assert res.passed, res.message


@pytest.mark.parametrize("game", ["seeders-exodus", "etherium", "karman-swap"])
def test_a_body_whose_locals_all_have_a_value_on_entry_is_not_walked_and_says_the_same(game, monkeypatch):
    """The fenced fast path of check_flow: a body whose every local is given a value on entry
    (an event's arguments, a function's parameters) is not walked (NoFlow); walking it anyway
    finds nothing more, over every text of the game, its expansions and its solo mode."""
    from interpreter.language import check_flow
    from interpreter.resources import content_dir
    from interpreter.rulings.check import check_paths
    skipped = []
    flow = check_flow.FlowChecks.flow

    def counted(self, locals_, given):
        walk = flow(self, locals_, given)
        skipped.append(walk is check_flow.NO_FLOW)
        return walk
    monkeypatch.setattr(check_flow.FlowChecks, "flow", counted)
    quick = check_paths([str(content_dir() / game)])
    assert any(skipped) and not all(skipped)
    monkeypatch.setattr(check_flow.FlowChecks, "walk_every_flow", True)
    skipped.clear()
    whole = check_paths([str(content_dir() / game)])
    assert skipped and not any(skipped)
    assert quick.diagnostics == whole.diagnostics

