"""`regles compare --until-decided`: the sequential test's error rates, checked by simulation
where the truth is known, and the command stopping early on a change that matters and on one
that does nothing."""
from __future__ import annotations

import json
import random

import pytest

from interpreter.runs import sequential as Q

from test_compare import duel, run_cli, spare_mod  # noqa: F401 - fixtures


def _run(rng, design: Q.Design, p_minus: float, p_plus: float, seats: int = 1) -> tuple[str, int]:
    """One sequential comparison of pairs whose outcomes for every seat are -1 with
    probability p_minus and +1 with p_plus: (decision, pairs used)."""
    state: dict = {}
    pairs = 0
    while True:
        batch = []
        for _ in range(design.batch):
            row = {}
            for s in range(seats):
                u = rng.random()
                row[f"seat {s + 1}"] = -1 if u < p_minus else (1 if u < p_minus + p_plus else 0)
            batch.append(row)
        Q.update(state, design, batch, pairs)
        pairs += design.batch
        decided, _ = Q.decision(state, design, pairs)
        if decided:
            return decided, pairs


def test_a_change_that_does_nothing_is_seldom_called_one():
    """Under no change (each seat wins one game of a pair only, either way, 20% of the time),
    false alarms stay near alpha = 0.05 or below over 300 runs, and the test stops long before
    the largest number of pairs."""
    rng = random.Random(1)
    design = Q.Design(delta=0.05, batch=50, max_pairs=20_000)
    runs = [_run(rng, design, 0.10, 0.10, seats=2) for _ in range(300)]
    alarms = sum(1 for d, _ in runs if d == Q.CHANGED)
    assert alarms <= 27  # 5% of 300 is 15; a binomial 99% band reaches 25
    assert all(d != Q.UNDECIDED for d, _ in runs)
    assert sorted(p for _, p in runs)[150] < 2_000  # the median run


def test_a_change_of_the_size_that_matters_is_found():
    """The win rate rises by delta (+1 in 15% of pairs, -1 in 10%): found in at least
    1 - beta of the runs, in the right direction."""
    rng = random.Random(2)
    design = Q.Design(delta=0.05, batch=50, max_pairs=20_000)
    runs = [_run(rng, design, 0.10, 0.15) for _ in range(300)]
    found = sum(1 for d, _ in runs if d == Q.CHANGED)
    assert found >= 270  # 95% of 300 is 285; a binomial 99% band reaches 274


def test_a_large_change_is_decided_in_few_pairs_and_a_null_one_in_more():
    rng = random.Random(3)
    design = Q.Design(delta=0.05, batch=20)
    large = [_run(rng, design, 0.02, 0.30)[1] for _ in range(50)]
    null = [_run(rng, design, 0.10, 0.10)[1] for _ in range(50)]
    assert max(large) <= 100 < sorted(null)[25]


def test_a_label_seen_late_counts_as_unchanged_in_the_pairs_before():
    units: dict = {}
    design = Q.Design(delta=0.1)
    Q.update(units, design, [{"seat 1": 0}] * 10, 0)
    Q.update(units, design, [{"seat 1": 1, "Reces": 1}] * 5, 10)
    assert units["Reces"].counts == [0, 10, 5] and units["seat 1"].counts == [0, 10, 5]


def test_the_log_likelihood_ratio_is_that_of_the_normal_form():
    # 60 pairs +1, 30 pairs -1, 110 alike, half a pair of each sign added: mean 30/201,
    # variance 91/201 - mean^2; LLR of 0.1 against 0 = 200 * 0.1 * (2 mean - 0.1) / (2 variance)
    n, mean = 201, 30 / 201
    variance = 91 / 201 - mean ** 2
    assert Q.llr([30, 110, 60], 0.0, 0.1) == pytest.approx(200 * 0.1 * (2 * mean - 0.1) / (2 * variance))
    assert Q.elo_points(0) == 0 and Q.elo_points(400) == pytest.approx(10 / 11 - 0.5)


def test_compare_until_decided_stops_early_on_the_strong_card(duel, tmp_path, capsys):  # noqa: F811
    out_json, page = tmp_path / "seq.json", tmp_path / "seq.html"
    status, out, err = run_cli(capsys, "compare", duel, "--without", "crown", "--until-decided", "--points", "10",
                               "--batch", "20", "--json", str(out_json), "--html", str(page))
    assert status == 0, err
    v = json.loads(out_json.read_text(encoding="utf-8"))["sequential"]
    assert v["decision"] == "changed" and v["pairs"] <= 100
    assert {"figure": "seat 1", "direction": "up"} in v["moved"]
    assert v["path"][-1]["pairs"] == v["pairs"] and v["path"][-1]["llr"]["seat 1"][0] >= v["bounds"][1]
    assert "the change moves a win rate by 10 points or more (seat 1 up" in out
    assert "20 pairs, log-likelihood ratios up and down" in err and "seat 1 " in err
    html = page.read_text(encoding="utf-8")
    assert "<svg" in html and "moves a win rate by 10 points or more (seat 1 up" in html
    assert f"Decided after {v['pairs']} pairs of games" in html and "<script" not in html


def test_compare_until_decided_says_no_change_of_a_change_that_does_nothing(duel, spare_mod, tmp_path,  # noqa: F811
                                                                             capsys):
    out_json = tmp_path / "same.json"
    status, out, err = run_cli(capsys, "compare", duel, "--variant", spare_mod, "--until-decided", "--points", "10",
                               "--json", str(out_json), "-q")
    assert status == 0, err
    d = json.loads(out_json.read_text(encoding="utf-8"))
    assert d["sequential"]["decision"] == "no change" and d["pairs"] == d["sequential"]["pairs"] <= 1_000
    assert all(c["as_is_only"] == c["changed_only"] == 0 for c in d["sequential"]["counts"])
    assert "moves no win rate (of a seat, or of a seat label) by 10 points or more" in out


@pytest.mark.parametrize("args,message", [
    (["--elo", "-20"], "--elo above 0"),
    (["--points", "0"], "--points must be between 0 and 100"),
    (["--alpha", "0.7"], "--alpha must be between 0 and 0.5"),
    (["--batch", "50", "--max-games", "10"], "--max-games at least --batch"),
    (["--points", "5", "--elo", "10"], "not allowed with argument"),
    (["--html", "x.html", "--until-decided"], None),
])
def test_usage_errors_of_until_decided(duel, capsys, args, message):  # noqa: F811
    if message is None:  # --html alone, without --until-decided
        status, _, err = run_cli(capsys, "compare", duel, "--without", "crown", "--html", "x.html")
        assert status == 2 and "--html draws the path of --until-decided" in err
        return
    status, _, err = run_cli(capsys, "compare", duel, "--without", "crown", "--until-decided", *args)
    assert status == 2
    assert message in err
