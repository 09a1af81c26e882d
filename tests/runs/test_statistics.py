"""The statistics of runs (runs.statistics), each against a textbook's value or a simulation
whose truth is known."""
from __future__ import annotations

import random

import pytest

from interpreter.runs import statistics as S


def test_newcombe_interval_of_two_independent_rates():
    # Newcombe (1998), Statistics in Medicine 17:873, Table II, example (a): 56/70 - 48/80, method 10
    d, low, high = S.difference(56, 70, 48, 80)
    assert (round(d, 4), round(low, 4), round(high, 4)) == (0.2, 0.0524, 0.3339)


def test_newcombe_interval_of_paired_rates():
    # Fagerland, Lydersen and Laake (2017), Statistical Analysis of Contingency Tables, chapter 8:
    # complete response before and after consolidation therapy (Cavo et al., 2012), the table
    # [[59, 6], [16, 80]]; Newcombe's square-and-add interval: -0.0621 (-0.1186 to -0.0046)
    d, low, high = S.paired_difference(both=59, first_only=16, second_only=6, neither=80)
    assert (round(d, 4), round(low, 4), round(high, 4)) == (-0.0621, -0.1186, -0.0046)
    # the arms swapped: the same interval, mirrored
    d2, low2, high2 = S.paired_difference(59, 6, 16, 80)
    assert (d2, low2, high2) == pytest.approx((-d, -high, -low))
    assert S.paired_difference(0, 0, 0, 0) == (None, None, None)


def test_pairs_that_agree_give_a_narrower_interval_than_separate_groups():
    """The reason for pairing: the same 60-to-50 wins out of 100, agreeing in 90 pairs."""
    _, low, high = S.paired_difference(both=50, first_only=0, second_only=10, neither=40)
    _, ind_low, ind_high = S.difference(60, 100, 50, 100)
    assert high - low < (ind_high - ind_low) / 2 and low > 0 > ind_low


def test_benjamini_hochberg_on_their_own_example():
    # Benjamini and Hochberg (1995), JRSS B 57:289, section 4: 15 p-values, q = 0.05 rejects 4
    p = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.3240, 0.4262,
         0.5719, 0.6528, 0.7590, 1.000]
    q = S.false_discoveries(p)
    assert [x <= 0.05 for x in q] == [True] * 4 + [False] * 11
    assert q[3] == pytest.approx(0.0095 * 15 / 4)
    assert S.false_discoveries([None, 0.01]) == [None, pytest.approx(0.01)]


def _game_of_four(rng, effect: float):
    """Four seats, one winner; each seat plays the card with probability 1/2, and a seat that
    played it is (1 + effect) times as likely to win as one that did not."""
    played = [1 if rng.random() < 0.5 else 0 for _ in range(4)]
    weights = [1 + effect * x for x in played]
    winner = rng.choices(range(4), weights)[0]
    return played, [1 if s == winner else 0 for s in range(4)]


def _true_effect(effect: float) -> float:
    """P(win | played) - P(win | not played) in `_game_of_four`, by enumeration."""
    won = {1: [0.0, 0.0], 0: [0.0, 0.0]}  # played -> [probability of winning and playing, of playing]
    for mask in range(16):
        played = [(mask >> s) & 1 for s in range(4)]
        total = sum(1 + effect * x for x in played)
        for s in range(4):
            won[played[s]][0] += (1 + effect * played[s]) / total / 16
            won[played[s]][1] += 1 / 16
    return won[1][0] / won[1][1] - won[0][0] / won[0][1]


@pytest.mark.parametrize("effect", [0.0, 1.0])
def test_the_clustered_interval_covers_the_true_effect_as_often_as_it_says(effect):
    """400 runs of 200 games each: the 95% interval clustered by game holds the true effect in
    about 95% of them (a binomial 95% band around 380 of 400), and its p-value is below 0.05
    about 5% of the time when the card does nothing."""
    truth = _true_effect(effect)
    rng = random.Random(7)
    held = small_p = 0
    for _ in range(400):
        games, played, won = [], [], []
        for g in range(200):
            p, w = _game_of_four(rng, effect)
            games += [g] * 4
            played += p
            won += w
        d, low, high, pvalue = S.clustered_difference(games, played, won)
        held += low <= truth <= high
        small_p += pvalue < 0.05
    assert 371 <= held <= 389, held
    if effect == 0.0:
        assert 11 <= small_p <= 29, small_p


def test_false_discoveries_are_controlled_among_many_cards():
    """200 cards that do nothing and 10 that each double a seat's chance, tested in the same 400 games: the cards
    marked at a rate of 5% are mostly the real ones, and the null cards marked stay few."""
    rng = random.Random(3)
    n_games, cards = 400, 210
    real = set(range(10))
    games, wins = [], []
    plays = [[] for _ in range(cards)]
    for g in range(n_games):
        per_seat = [[rng.random() < 0.5 for _ in range(cards)] for _ in range(4)]
        strength = [2.0 ** sum(1 for c in real if per_seat[s][c]) for s in range(4)]
        winner = rng.choices(range(4), strength)[0]
        for s in range(4):
            games.append(g)
            wins.append(1 if s == winner else 0)
            for c in range(cards):
                plays[c].append(1 if per_seat[s][c] else 0)
    p = [S.clustered_difference(games, plays[c], wins)[3] for c in range(cards)]
    q = S.false_discoveries(p)
    marked = {c for c in range(cards) if q[c] <= S.FALSE_DISCOVERY_RATE}
    unmarked_raw = {c for c in range(cards) if p[c] < 0.05} - real
    assert len(marked & real) >= 6
    assert len(marked - real) <= 2 < len(unmarked_raw)  # uncorrected, the null cards would be many


def test_without_the_libraries_the_effects_say_what_to_install(monkeypatch):
    import builtins
    real_import = builtins.__import__

    def no_statsmodels(name, *args, **kwargs):
        if name.startswith("statsmodels"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_statsmodels)
    assert "pip install 'regles[report]'" in S.missing()
    with pytest.raises(S.StatisticsMissing, match="statsmodels"):
        S.clustered_difference([0, 0, 1, 1], [1, 0, 1, 0], [1, 0, 0, 1])
