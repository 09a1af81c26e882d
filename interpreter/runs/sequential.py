"""A comparison that stops when its answer is clear (`regles compare --until-decided`).

The pairs of games of `compare` (the same seed with and without the change) are played in
batches; after each batch, a sequential probability ratio test on each seat's win rate, and
on the share of games won by a seat of each value of the game's seat label (a people, a
power: `report_seats_by`), says whether the change moves it by the smallest difference that
matters (`--points D`, or `--elo E` at two players), does not, or cannot tell yet. In a game
whose seats are alike and whose cards are shuffled, a card changes no seat's win rate; what
it changes is the label's (the people that plays it, the power it helps). It is the test the chess engine
testing servers run on pairs of games (the generalized SPRT of Fishtest on pentanomial pair
outcomes), on the pairs of `compare`: each pair gives a seat -1 (it won as is only), 0 (the
same in both games) or +1 (it won changed only), a trinomial.

For each seat, two one-sided tests run side by side, H0 "no change" against H+ "the win
rate rises by D" and against H- "it falls by D", each with the log-likelihood ratio of the
generalized SPRT in its normal form (the mean and variance of the pair outcomes estimated
from the pairs so far, half a pair of each sign added so that a run of agreeing pairs is
not taken for certainty):

    LLR = N (theta1 - theta0) (2 mean - theta0 - theta1) / (2 variance)

and Wald's bounds log(beta / (1 - alpha)) and log((1 - beta) / alpha). The false alarm rate
alpha is shared out between the two directions and the seats and labels (Bonferroni), so
that the chance that a change which does nothing is called a change stays at most alpha over
the whole run; beta is the chance of missing a change of D in a given seat or label. The run
stops as "changed" as soon as one test accepts its H+ or H-, as "no change of D or more" when
every test has accepted H0, and as "undecided" at the largest number of games.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

CHANGED, UNCHANGED, UNDECIDED = "changed", "no change", "undecided"
PSEUDO = 0.5  # pairs of each sign added to the counts: no certainty from a run of agreeing pairs


@dataclass
class Design:
    """What a sequential comparison tests and how sure it must be."""
    delta: float  # the smallest change of a win rate that matters (0.05: 5 points)
    alpha: float = 0.05  # the chance of calling a change that does nothing a change (whole run)
    beta: float = 0.05  # the chance of missing a change of delta (each seat)
    batch: int = 100  # pairs played between two looks
    max_pairs: int = 10_000

    def bounds(self, tests: int) -> tuple[float, float]:
        """Wald's (lower, upper) bounds of each of `tests` one-sided tests."""
        a = self.alpha / tests
        return math.log(self.beta / (1 - a)), math.log((1 - self.beta) / a)


@dataclass
class Unit:
    """A figure tested: a seat's win rate, or the share of games won by a seat of a label."""
    name: str  # "seat 1", or the label's value
    counts: list = field(default_factory=lambda: [0, 0, 0])  # pairs with -1, 0, +1
    up: float = 0.0  # LLR of "rises by delta" against "no change"
    down: float = 0.0  # LLR of "falls by delta" against "no change"


def llr(counts: list, theta0: float, theta1: float) -> float:
    """The generalized SPRT's log-likelihood ratio of mean theta1 against theta0, from the
    counts of pair outcomes -1, 0 and +1 (normal form, half a pair of each sign added)."""
    minus, same, plus = counts[0] + PSEUDO, counts[1], counts[2] + PSEUDO
    n = minus + same + plus
    mean = (plus - minus) / n
    variance = (plus + minus) / n - mean * mean
    return (n - 2 * PSEUDO) * (theta1 - theta0) * (2 * mean - theta0 - theta1) / (2 * variance)


def update(units: dict, design: Design, outcomes: list, pairs_before: int) -> None:
    """Add the outcomes of a batch (per pair, a dict of unit name -> -1, 0 or +1; a unit not
    named in a pair is 0) to `units` (name -> Unit, a unit seen for the first time counted 0
    in the `pairs_before` pairs before), and recompute each unit's LLRs."""
    for pair in outcomes:
        for name in pair:
            if name not in units:
                units[name] = Unit(name, [0, pairs_before, 0])
    for pair in outcomes:
        for name, u in units.items():
            u.counts[pair.get(name, 0) + 1] += 1
    for u in units.values():
        u.up = llr(u.counts, 0.0, design.delta)
        u.down = llr(u.counts, 0.0, -design.delta)


def decision(units: dict, design: Design, pairs: int) -> tuple[str, list]:
    """(CHANGED, UNCHANGED, UNDECIDED or "" to go on, the units whose test accepted a change,
    each (name, +1 or -1))."""
    lower, upper = design.bounds(2 * len(units))
    moved = [(u.name, +1 if u.up >= upper else -1) for u in units.values() if u.up >= upper or u.down >= upper]
    if moved:
        return CHANGED, moved
    if all(u.up <= lower and u.down <= lower for u in units.values()):
        return UNCHANGED, []
    return (UNDECIDED if pairs >= design.max_pairs else ""), []


def said(verdict: dict) -> str:
    """What a test's verdict (as `compare --until-decided` keeps it) decided, in words."""
    points = f"{verdict['points']:g} points"
    if verdict["decision"] == CHANGED:
        moved = ", ".join(f"{m['figure']} {m['direction']}" for m in verdict["moved"])
        return f"the change moves a win rate by {points} or more ({moved})"
    if verdict["decision"] == UNCHANGED:
        return f"the change moves no win rate (of a seat, or of a seat label) by {points} or more"
    if verdict["decision"] == UNDECIDED:
        return f"undecided after the largest number of pairs ({verdict['max_pairs']}): a change near {points}, or smaller"
    return "interrupted before the test decided"


def elo_points(elo: float) -> float:
    """The change of a two-player win rate from 50% that a difference of `elo` Elo makes."""
    return 1 / (1 + 10 ** (-elo / 400)) - 0.5
