"""`regles why-bot`: what a bot weighed at a decision of a saved trace."""
from __future__ import annotations

import json
import re

import pytest

import interpreter
from interpreter.cli import main
from interpreter.rulings.trace import save_state_trace
from interpreter.runs.simulate import play_game


@pytest.fixture(scope="module")
def trace(tmp_path_factory):
    """A 2-player Karman Swap game between two greedy bots, saved."""
    game = interpreter.load("karman-swap")
    state, error, _ = play_game(game, 2, 5, game.options({}), ["greedy", "greedy"], trace=True)
    assert error is None
    path = tmp_path_factory.mktemp("why-bot") / "game.jsonl"
    save_state_trace(path, game, state, agents=["greedy", "greedy"])
    return path


def _choices(path) -> list:
    """(event number, the event) of each choice a bot made among several options."""
    lines = path.read_text(encoding="utf-8").splitlines()[1:]
    events = [json.loads(line) for line in lines]
    return [(e["n"], e) for e in events if e.get("type") == "choice" and e.get("options", 0) > 1 and not e.get("auto")]


def _rows(out: str) -> list:
    """(picked now, taken in the trace, label, value text) of each option line."""
    rows = []
    for line in out.splitlines():
        m = re.match(r"^([* ])([> ]) (.*?)\s{2,}(\S.*)$", line)
        if m and not line.startswith("* the option"):
            rows.append((m.group(1) == "*", m.group(2) == ">", m.group(3), m.group(4)))
    return rows


def test_greedy_weighs_each_option_and_picks_the_best_again(trace, capsys):
    agree = 0
    choices = _choices(trace)[:12]
    assert len(choices) >= 6
    for n, event in choices:
        assert main(["why-bot", str(trace), "--at", str(n)]) == 0
        out = capsys.readouterr().out
        rows = _rows(out)
        assert len(rows) == event["options"], out  # every option, once
        taken = [r for r in rows if r[1]]
        assert len(taken) == 1 and taken[0][2] == event["label"]  # the trace's answer, marked
        values = [float(r[3].split()[0]) for r in rows]
        picked = [v for r, v in zip(rows, values) if r[0]]
        assert len(picked) == 1 and picked[0] == max(values)
        # the bot of the trace took one of the options it values best, asked again
        assert [v for r, v in zip(rows, values) if r[1]] == [max(values)]
        ties = values.count(max(values))
        assert (f"{ties} options tie at the best value" in out) == (ties > 1)
        agree += ties > 1 or rows[[r[0] for r in rows].index(True)][1]
    assert agree == len(choices)


def test_a_search_agent_gives_visits_and_values(trace, capsys):
    n, event = _choices(trace)[3]
    assert main(["why-bot", str(trace), "--at", str(n), "--agent", "mcts:40"]) == 0
    out = capsys.readouterr().out
    rows = _rows(out)
    visits = [int(r[3].split()[0]) for r in rows]
    assert sum(visits) == 40 and len(rows) == event["options"]
    assert max(visits) == visits[[r[0] for r in rows].index(True)]  # the most visited is the one picked
    assert "another search of the same budget may weigh the options otherwise" in out


@pytest.mark.parametrize("args,message", [
    (["--at", "999999"], "no event 999999"),
    (["--at", "3", "--agent", "random"], "only greedy and mcts:N weigh their options"),
    (["--at", "3", "--agent", "nobody"], "nobody"),
])
def test_usage_errors(trace, capsys, args, message):
    assert main(["why-bot", str(trace), *args]) == 2
    assert message in capsys.readouterr().err
