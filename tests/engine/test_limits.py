"""The bounds of interpreter.limits: content that would hang the engine or fill the memory stops
the game with an error naming its line, whatever form the work takes (issue 10, item 1)."""
from __future__ import annotations

import textwrap

import pytest

from interpreter.engine.state import GameFault

from gamekit import make_game, source_line

BUDGET = 20_000  # smaller than the default, so that each test runs in a blink; the guard is the same


def fault(tmp_path, procedures: str, budget: int | None = BUDGET, functions: str = "") -> GameFault:
    """The fault that stops a game whose `game` procedure is `procedures`."""
    game = make_game(tmp_path, procedures, functions=functions)
    if budget is not None:
        game.program.step_budget = budget
    with pytest.raises(GameFault) as err:
        game.new_state(players=2)
    return err.value


def test_nested_loops_share_one_budget(tmp_path):
    # each loop alone stays far below the budget (100 rounds, then 1,000): only a budget that the
    # inner loop does not restart on each entry stops the 100,000 rounds of the whole
    err = fault(tmp_path, textwrap.dedent("""\
        game: |
          let i = 0
          while i < 100:
            set i = i + 1
            let j = 0
            while j < 1000:
              set j = j + 1
        """))
    assert "runaway rules" in err.message
    assert source_line(err.pos).strip() in ("while j < 1000:", "set j = j + 1")


def test_counted_repeat_is_taken_from_the_budget_before_it_runs(tmp_path):
    err = fault(tmp_path, "game: |\n  repeat 100000000000 times:\n    add 1 to ticks\n", budget=None)
    assert "runaway rules" in err.message
    assert source_line(err.pos).strip() == "repeat 100000000000 times:"


def test_nested_comprehensions_are_counted(tmp_path):
    err = fault(tmp_path, "game: |\n  let n = count(each a in range(1, 1000) where "
                          "count(each b in range(1, 1000) where b > a) > 0)\n")
    assert "runaway rules" in err.message
    line = source_line(err.pos)
    assert line.strip().startswith("let n = count(")
    assert err.pos.column > line.rindex("count(")  # the inner comprehension, which ran the budget out


def test_a_sum_over_a_kept_list_in_a_waiting_loop_is_counted(tmp_path):
    # the loop is run by the machine (it signals an event), one operation per round; the sum
    # walks 10,000 numbers each round: its work counts, not one step
    err = fault(tmp_path, "game: |\n  let l = range(1, 10000)\n  while true:\n    let s = sum(l)\n    signal tick\n")
    assert "runaway rules" in err.message


def test_a_function_calling_itself_twice_is_counted(tmp_path):
    err = fault(tmp_path, "game: |\n  let x = f(60)\n",
                functions='functions:\n  f:\n    params: [n]\n    body: "select(n > 0, f(n - 1) + f(n - 1) + random([0]), 1)"\n')
    assert "runaway rules" in err.message


def test_a_number_squared_over_and_over_stops_the_game(tmp_path):
    err = fault(tmp_path, "game: |\n  let x = 2\n  while true:\n    set x = x * x\n", budget=None)
    assert "number too large" in err.message
    assert source_line(err.pos).strip() == "set x = x * x"


def test_a_counter_squared_over_and_over_stops_the_game(tmp_path):
    err = fault(tmp_path, "game: |\n  set ticks = 2\n  while true:\n    set ticks = ticks * ticks\n", budget=None)
    assert "counter 'ticks' would go past" in err.message
    assert source_line(err.pos).strip() == "set ticks = ticks * ticks"


def test_a_list_doubled_over_and_over_stops_the_game(tmp_path):
    err = fault(tmp_path, "game: |\n  let l = [1]\n  while true:\n    set l = l + l\n", budget=None)
    assert "list too long" in err.message


def test_a_huge_range_is_refused_before_it_is_made(tmp_path):
    err = fault(tmp_path, "game: |\n  let l = range(1, 1000000000000)\n", budget=None)
    assert "range() of 1,000,000,000,000 numbers" in err.message
    assert source_line(err.pos).strip() == "let l = range(1, 1000000000000)"


def test_work_within_the_budget_runs(tmp_path):
    # the same shapes, small enough: the budget counts work, it does not forbid loops
    game = make_game(tmp_path, textwrap.dedent("""\
        game: |
          let i = 0
          while i < 10:
            set i = i + 1
            repeat 10 times:
              add 1 to ticks
          set ticks = ticks + count(each a in range(1, 50) where count(each b in range(1, 50) where b > a) > 0)
        """))
    game.program.step_budget = BUDGET
    st = game.new_state(players=2)
    assert st.counters["ticks"] == 100 + 49


def test_a_traced_runaway_keeps_a_bounded_trace(tmp_path):
    from interpreter.limits import MAX_TRACE_EVENTS
    game = make_game(tmp_path, "game: |\n  let l = range(1, 1000)\n  while true:\n    log \"{l}\"\n")
    with pytest.raises(GameFault) as err:
        game.new_state(players=2, trace=True)
    trace = err.value.state.trace
    assert "runaway rules" in err.value.message
    assert len(trace) <= MAX_TRACE_EVENTS + 2  # the start, the events kept, one that says what was left out
    assert trace[-1]["type"] == "cut" and trace[-1]["left_out"] > 0
    assert trace[-2]["type"] == "log" and trace[-2]["text"].endswith("... (1,000 in all)")


def test_a_text_read_only_when_traced_never_changes_the_game(tmp_path):
    # the log's expression would run the game's budget out; rendered with a budget of its own, it
    # shows as written, and traced and untraced games end alike
    procs = ("game: |\n  log \"{count(each a in range(1, 1000) where count(each b in range(1, 1000) where b > a) > 0)}\"\n"
             "  add 1 to ticks\n  win players[1]\n")
    game = make_game(tmp_path, procs)
    game.program.step_budget = BUDGET
    traced, untraced = game.new_state(players=2, trace=True), game.new_state(players=2)
    assert traced.returns() == untraced.returns() == [1, -1]
    logs = [e["text"] for e in traced.trace if e["type"] == "log"]
    assert logs == ["{count(each a in range(1, 1000) where count(each b in range(1, 1000) where b > a) > 0)}"]


def test_a_shuffle_walks_its_zone_and_counts_as_much(tmp_path):
    game = make_game(tmp_path, "game: |\n  while count(deck) >= 0:\n    shuffle deck\n")
    game.program.step_budget = BUDGET
    with pytest.raises(GameFault) as err:
        game.new_state(players=2, trace=True)
    assert "runaway rules" in err.value.message
    shuffles = sum(1 for e in err.value.state.trace if e["type"] == "shuffle")
    # each shuffle of the 4 cards is 4 units of work, besides the loop's round: not one
    assert BUDGET // 6 <= shuffles <= BUDGET // 5


def test_a_players_zone_asked_of_a_component_is_an_error(tmp_path):
    # 'hand' is kept per player: a component has none (it made a key no state may hold)
    err = fault(tmp_path, "game: |\n  move top(deck) to top(deck).hand\n", budget=None)
    assert err.message.startswith("zone 'hand' is kept per player, not by")
    assert source_line(err.pos).strip() == "move top(deck) to top(deck).hand"
