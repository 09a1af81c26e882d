"""`regles tune`: the targets read, the noisy bisection's search, the figures of a run, and the
command finding the value of a card that evens a game whose balance is known."""
from __future__ import annotations

import json
import math

import pytest

from interpreter.runs import tune as T
from interpreter.runs.simulate import GameResult

from test_compare import run_cli

# Seat 1 scores a d20 + 5, seat 2 a d20 + the edge's value; seat 1 wins ties. Seat 2 wins with
# probability P(d2 - d1 > 5 - value): 47.5% at 5, 52.5% at 6, 26.25% at 0, 38.25% at 3.
RACE = """\
kind: game
id: race
title: Race
players: {min: 2, max: 2}
attributes:
  value: {type: number, default: 0}
zones:
  shelf: {scope: game, visibility: public}
counters:
  points: {scope: player}
score: points
procedures:
  game: |
    let a = players[1]
    let b = players[2]
    for each p in players:
      choose by p "Ready?":
        option "Ready":
          score 0 to p
        option "Go":
          score 0 to p
    roll da = 1 dice of 20
    roll db = 1 dice of 20
    score first(da) + 5 to a
    score first(db) + sum(c.value for each c in shelf) to b
    if a.points >= b.points:
      win a
    else:
      win b
"""


def p_seat2(value: int) -> float:
    return sum(1 for d1 in range(1, 21) for d2 in range(1, 21) if d2 + value > d1 + 5) / 400


@pytest.fixture(scope="module")
def race(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tune") / "race"
    folder.mkdir()
    (folder / "game.yaml").write_text(RACE, encoding="utf-8")
    (folder / "cards.yaml").write_text("kind: cards\ngame: race\nstart: shelf\ncards:\n"
                                       "  - {id: edge, title: Edge, value: 0}\n", encoding="utf-8")
    return str(folder)


@pytest.mark.parametrize("text,aim,fields", [
    ("seat win rates within 2 points of even", T.Aim.SEATS, {"points": 2.0}),
    ("  People win rates within 5 points of even ", T.Aim.LABELS, {"points": 5.0}),
    ("power win rates within 4.5 points of even", T.Aim.POWERS, {"points": 4.5}),
    ("card effect within [-2, 2]", T.Aim.EFFECT, {"low": -2.0, "high": 2.0, "card": None}),
    ("effect of pyrax within [-1.5, 3]", T.Aim.EFFECT, {"low": -1.5, "high": 3.0, "card": "pyrax"}),
    ("mean length 40 to 60 decisions", T.Aim.LENGTH, {"low": 40.0, "high": 60.0}),
])
def test_a_target_reads(text, aim, fields):
    t = T.parse_target(text, "people")
    assert t.aim is aim and all(getattr(t, k) == v for k, v in fields.items())


@pytest.mark.parametrize("text,label,message", [
    ("people win rates within 5 points of even", None, "this game reports seats by nothing but their seat"),
    ("people win rates within 5 points of even", "faction", "say 'seat win rates' or 'faction win rates'"),
    ("card effect within [2, -2]", None, "is empty"),
    ("mean length 60 to 40", None, "is empty"),
    ("seats balanced", None, "does not read; write one of"),
])
def test_a_target_that_does_not_read_is_said_so(text, label, message):
    with pytest.raises(T.TargetError, match=message.replace("[", r"\[")):
        T.parse_target(text, label)


@pytest.mark.parametrize("text,expected", [("psolos.start_guide=0..3", ("psolos", "start_guide", 0, 3)),
                                           ("a.b.c=-2..2", ("a.b", "c", -2, 2))])
def test_a_range_reads(text, expected):
    assert T.parse_range(text) == expected


@pytest.mark.parametrize("text", ["psolos.start_guide=3..0", "psolos.start_guide=1", "start_guide=0..3",
                                  "psolos.start_guide=0..99999999"])
def test_a_range_that_does_not_read_is_said_so(text):
    with pytest.raises(ValueError, match="--set"):
        T.parse_range(text)


def _trial(value: int, miss: float) -> T.Trial:
    return T.Trial(value, 1, miss, miss, miss, miss, miss < 1, False)


@pytest.mark.parametrize("low,high,valley", [(0, 10, 6), (0, 10, 0), (0, 10, 10), (-5, 5, -2), (0, 1, 1), (0, 200, 137)])
def test_the_bisection_finds_the_valley_playing_each_value_once(low, high, valley):
    played = []

    def play(v):
        played.append(v)
        return _trial(v, abs(v - valley) + 0.5)

    trials, best = T.search(low, high, play)
    assert best.value == valley
    assert len(played) == len(set(played)) == len(trials)
    assert len(played) <= 2 * math.ceil(math.log2(high - low + 1)) + 1  # not every value of the range


def _game(index: int, winners, labels=()) -> GameResult:
    return GameResult(index, index, winners, [0, 0], 10, labels=list(labels))


def test_a_win_rate_target_reads_the_seat_farthest_from_even_and_a_tie_is_no_win():
    results = [_game(i, [0]) for i in range(60)] + [_game(60 + i, [1]) for i in range(36)] + \
        [_game(96 + i, [0, 1]) for i in range(4)]  # seat 1 60%, seat 2 36%, 4 ties
    t = T.measure(T.Target(T.Aim.SEATS, "", points=12), results, 2, [0, 1], 3, "edge")
    assert t.figure == pytest.approx(14.0)  # seat 2: 36%, 14 points under even
    assert not t.meets and not t.surely and t.even == 0.5
    wide = T.measure(T.Target(T.Aim.SEATS, "", points=30), results, 2, [0, 1], 3, "edge")
    assert wide.meets and wide.surely  # both intervals within 30 points of 50%


def test_a_label_target_reads_the_rate_of_the_seats_with_each_label():
    results = [_game(i, [0], ["red", "blue"]) for i in range(50)] + [_game(50 + i, [0], ["blue", "red"]) for i in range(50)]
    t = T.measure(T.Target(T.Aim.LABELS, "", points=5), results, 2, [0, 1], 0, "edge")
    assert {name: rate for name, rate, _, _ in t.detail} == {"blue": 0.5, "red": 0.5}
    assert t.figure == 0 and t.meets


def test_tune_finds_the_value_that_evens_the_race(race, tmp_path, capsys):
    out = tmp_path / "tune.json"
    status, text, err = run_cli(capsys, "tune", race, "--set", "edge.value=0..10", "--target",
                                "seat win rates within 4 points of even", "--games", "600", "--json", str(out))
    assert status == 0, err
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["chosen"] in (5, 6) and data["meets"]  # the two values within 2.5 points of even in truth
    tried = {t["value"]: t for t in data["trials"]}
    assert len(tried) < 11  # a search, not a sweep
    for value, t in tried.items():  # each value's figure near its truth: the value was set in the games
        seat2 = next(r["rate"] for r in t["rates"] if r["name"] == "seat 2")
        assert abs(seat2 - p_seat2(value)) < 0.07, (value, seat2)
    assert f"chosen: value = {data['chosen']}" in text


def test_tune_says_when_no_value_meets_the_target(race, tmp_path, capsys):
    status, text, err = run_cli(capsys, "tune", race, "--set", "edge.value=0..3", "--target",
                                "seat win rates within 3 points of even", "--games", "300", "-q")
    assert status == 1
    assert "no value tried meets the target; the closest is 3" in text


@pytest.mark.parametrize("args,message", [
    (["--set", "edge.value=2", "--target", "seat win rates within 3 points of even"], "one --set CARD.ATTRIBUTE=LO..HI"),
    (["--set", "edge.valu=0..3", "--target", "seat win rates within 3 points of even"], "did you mean 'value'"),
    (["--set", "edge.value=0..3", "--target", "people win rates within 3 points of even"], "reports seats by nothing"),
    (["--set", "edge.value=0..3", "--target", "power win rates within 3 points of even"], "need --power random"),
    (["--set", "edge.value=0..3", "--target", "effect of edgy within [0, 1]"], "no card 'edgy'"),
])
def test_tune_usage_errors(race, capsys, args, message):
    status, text, err = run_cli(capsys, "tune", race, *args, "-q")
    assert status == 2 and message in err


def test_compare_changes_a_value_against_the_game_as_printed(race, tmp_path, capsys):
    out = tmp_path / "cmp.json"
    status, text, err = run_cli(capsys, "compare", race, "--change", "edge.value=6", "--games", "600", "-q",
                                "--json", str(out))
    assert status == 0, err
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["change"] == {"set": [["edge", "value", 6]]} and "with edge.value = 6" in text
    seat2 = next(s for s in data["seats"] if s["seat"] == 2)["win_rate"]["difference"]
    truth = p_seat2(6) - p_seat2(0)  # 52.5% - 26.25%
    assert seat2["low"] <= truth <= seat2["high"] and seat2["low"] > 0.15
    status, text, err = run_cli(capsys, "compare", race, "--change", "edge.valeu=6", "-q")
    assert status == 2 and "did you mean 'value'" in err


def test_a_length_target_reads_the_mean_decisions_and_its_interval():
    results = [GameResult(i, i, [0], [0, 0], 45 + (i % 11), labels=[]) for i in range(400)]  # 45..55, mean 50
    met = T.measure(T.parse_target("mean length 40 to 60 decisions", None), results, 2, [0, 1], 7, "edge")
    assert met.figure == pytest.approx(sum(45 + (i % 11) for i in range(400)) / 400)
    assert met.low < met.figure < met.high and met.meets and met.surely
    missed = T.measure(T.parse_target("mean length 20 to 30 decisions", None), results, 2, [0, 1], 7, "edge")
    assert not missed.meets and missed.miss == pytest.approx(abs(met.figure - 25))
