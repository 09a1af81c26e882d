"""`--solo LEVEL`: a game's solo mode, one player against the automaton of the expansion that
declares `solo:` (tests/fixtures/robots: Bot plays its worst card at the easy level, its best
at the hard one)."""
from __future__ import annotations

import io
import json
import re
import sys

import pytest

from interpreter.cli import main

from gamekit import FIXTURES

ROBOTS = FIXTURES / "robots"


def simulate(tmp_path, *args) -> dict:
    out = tmp_path / "run.json"
    assert main(["simulate", str(ROBOTS), "-q", "--json", str(out), *args]) == 0
    return json.loads(out.read_text(encoding="utf-8"))


def test_simulate_solo_reports_the_player_against_the_automaton(tmp_path, capsys):
    run = simulate(tmp_path, "--solo", "hard", "--games", "60")
    assert run["players"] == 2 and run["options"]["level"] == "hard"
    assert run["agents"] == ["random", "Bot (automaton)"]
    [row] = run["against_automata"]
    assert (row["seat"], row["automaton"], row["games"]) == (1, "Bot", 60)
    # the figures are the seat's own: its wins and its mean score gap over Bot
    assert row["win_rate"]["rate"] == run["win_rates"][0]["rate"]
    gap = row["score_gap"]
    assert gap["mean"] == pytest.approx(run["mean_scores"][0] - run["mean_scores"][1], abs=1e-3)
    assert gap["low"] < gap["mean"] < gap["high"]
    out = capsys.readouterr().out
    assert "seat 1 (random) against Bot" in out and "level=hard" in out


def test_the_levels_are_ordered(tmp_path):
    easy = simulate(tmp_path, "--solo", "easy", "--games", "150")["against_automata"][0]
    hard = simulate(tmp_path, "--solo", "hard", "--games", "150")["against_automata"][0]
    # the same player wins more often against the easy Bot, beyond the intervals' overlap
    assert easy["win_rate"]["low"] > hard["win_rate"]["high"]
    assert easy["score_gap"]["mean"] > 0 > hard["score_gap"]["mean"]


@pytest.mark.parametrize("args, message", [
    ([str(FIXTURES / "nim"), "--solo", "easy"], "has no solo mode"),
    ([str(ROBOTS), "--solo", "easy", "-n", "3"], "is for 2 players in its solo mode, not 3"),
    ([str(ROBOTS), "--solo", "medium"], "option 'level' is one of easy, hard, not 'medium'"),
    ([str(ROBOTS), "--solo", "hard", "-o", "level=easy"], "disagree"),
])
def test_solo_usage_errors(capsys, args, message):
    assert main(["simulate", "-q", "--games", "1", *args]) == 2
    assert message in capsys.readouterr().err


def test_play_solo_shows_each_decision_of_the_automaton_and_its_rule(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n1\n"))
    assert main(["play", str(ROBOTS), "--solo", "hard", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "against Bot (seat 2, played by its rules)" in out
    # two questions for the person, none for Bot
    assert len(re.findall(r"your choice", out)) == 2
    decided = re.search(r"Bot decides 'Card to play': (\w+)  \[by its rule 1: (.*)  \((.*):(\d+)\)\]", out)
    assert decided, out
    card, rule, path, line = decided.groups()
    assert rule == 'prefer best(p) if options.level == "hard"'
    assert (ROBOTS / "expansions" / "solo" / "expansion.yaml").read_text(encoding="utf-8").splitlines()[
        int(line) - 1].strip() == rule
    assert "Bot decides 'Card to discard'" in out and "by its preference" in out
    scores = re.search(r"Scores: you (\d+), Bot (\d+)", out)
    assert scores and int(scores.group(2)) == {"Eight": 8, "Nine": 9, "Seven": 7}.get(card, -1)


def test_check_lays_a_solo_mode_apart_from_the_other_expansions(capsys):
    # the game's own rulings at three players are not checked against the solo mode's two
    assert main(["check", str(ROBOTS)]) == 0
    assert main(["test", str(ROBOTS / "expansions" / "solo")]) == 0
    assert "1 passed" in capsys.readouterr().out


def test_simulate_reports_seats_by_the_game_s_label(tmp_path, capsys):
    # Robots reports each seat by the card it played: the highest card always wins
    run = simulate(tmp_path, "--games", "80", "-n", "3")
    rows = {row["value"]: row for row in run["seats_by"]["rows"]}
    assert run["seats_by"]["title"] == "card played"
    assert sum(row["seats"] for row in rows.values()) == 80 * 3
    assert rows["Nine"]["win_rate"]["rate"] == 1.0 and rows["Nine"]["mean_score"] == 9
    assert rows["One"]["win_rate"]["rate"] == 0.0
    # the mean final value of each counter named: the points of a seat are the card it played
    assert run["seats_by"]["counters"] == ["points"]
    assert all(row["means"] == [{"One": 1, "Two": 2, "Three": 3, "Four": 4, "Five": 5, "Six": 6, "Seven": 7,
                                 "Eight": 8, "Nine": 9}[value]] for value, row in rows.items())
    assert "seats by card played" in capsys.readouterr().out
