"""The statistics of runs: rates and differences of rates with their 95% intervals, paired and
clustered, and the control of false discoveries when many cards are tested at once.

Each method is the one a statistician would sign for the data a run gives:

- a rate (a seat's wins over its games): Wilson's score interval;
- two rates of separate seats (the seats that played a card, and those that did not):
  Newcombe's hybrid score interval (1998, method 10), from both Wilson intervals;
- the same seat in the two arms of a comparison (`compare`: each game played with and
  without the change, from the same seed): Newcombe's square-and-add interval for paired
  proportions (1998, method 10 of the paired paper), which corrects for the pairs' correlation;
- a card's effect on its seats' win rate, over the seats of the same games: the seats of one
  game are not independent (only one side can win), so the interval is clustered by game (a
  linear probability model with cluster-robust errors, statsmodels), and its p-value with it;
- a table of many cards, each tested: Benjamini and Hochberg's control of the false
  discovery rate (scipy), so that at most that share of the cards said to matter do by chance.

statsmodels and scipy are in the `report` and `data` extras: the clustered effects and the
control of false discoveries need one of them; the rest is plain arithmetic.
"""
from __future__ import annotations

import math

Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval
FALSE_DISCOVERY_RATE = 0.05  # the share of false discoveries allowed among the cards said to matter
EXTRA = "regles[report]"  # the extra that installs statsmodels and scipy


class StatisticsMissing(RuntimeError):
    """The libraries a method needs are not installed."""


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion k/n (95% by default); (0, 1) for no trial."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def difference(k1: int, n1: int, k2: int, n2: int) -> tuple:
    """k1/n1 - k2/n2 of two independent groups and its 95% interval by Newcombe's hybrid
    score method; (None, None, None) when a group is empty."""
    if not n1 or not n2:
        return None, None, None
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1)
    l2, u2 = wilson(k2, n2)
    d = p1 - p2
    return d, d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)


def mean_interval(xs: list, z: float = Z95) -> tuple:
    """The mean of `xs` and its interval by the normal approximation (95% by default):
    (mean, low, high); (None, None, None) for no value, no interval for a single one."""
    n = len(xs)
    if n == 0:
        return None, None, None
    m = sum(xs) / n
    if n < 2:
        return m, None, None
    half = z * math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) / math.sqrt(n)
    return m, m - half, m + half


def paired_cells(first: list, second: list) -> tuple:
    """(both, first only, second only, neither): how many pairs of 0/1 outcomes succeed in
    both arms, in one alone, in neither, as `paired_difference` takes them."""
    cells = [0, 0, 0, 0]
    for a, b in zip(first, second):
        cells[(0 if b else 1) if a else (2 if b else 3)] += 1
    return tuple(cells)


def paired_difference(both: int, first_only: int, second_only: int, neither: int, z: float = Z95) -> tuple:
    """The second rate less the first over the same pairs, and its 95% interval by Newcombe's
    square-and-add method for paired proportions: `both` pairs succeed in both arms,
    `first_only` only in the first, `second_only` only in the second. (None, None, None) for
    no pair. The correlation of the pairs (phi, shrunk towards 0 as Newcombe does) narrows
    the interval when the arms mostly agree, as two games from one seed do. `z`: the normal
    quantile of the interval's level (95% by default)."""
    n = both + first_only + second_only + neither
    if n == 0:
        return None, None, None
    k1, k2 = both + first_only, both + second_only
    p1, p2 = k1 / n, k2 / n
    l1, u1 = wilson(k1, n, z)
    l2, u2 = wilson(k2, n, z)
    margins = k1 * (n - k1) * k2 * (n - k2)
    phi = 0.0
    if margins > 0:
        cross = both * neither - first_only * second_only
        shrunk = cross - n / 2 if cross > n / 2 else (cross if cross < 0 else 0.0)
        phi = shrunk / math.sqrt(margins)
    d = p2 - p1
    dl2, du2, dl1, du1 = p2 - l2, u2 - p2, p1 - l1, u1 - p1
    low = d - math.sqrt(max(0.0, dl2 ** 2 - 2 * phi * dl2 * du1 + du1 ** 2))
    high = d + math.sqrt(max(0.0, du2 ** 2 - 2 * phi * du2 * dl1 + dl1 ** 2))
    return d, max(-1.0, low), min(1.0, high)


def clustered_difference(games: list, played: list, won: list) -> tuple:
    """The win rate of the seats that played a card less that of the seats that did not, with
    a 95% interval and a p-value clustered by game: one entry per seat of a game (`games` the
    game of each, `played` and `won` 0 or 1). (None, None, None, None) when either group is
    empty. The seats of one game share its outcome (only one side wins), which an interval
    over independent seats would ignore."""
    n1 = sum(played)
    if n1 == 0 or n1 == len(played):
        return None, None, None, None
    np, sm = _libraries()
    y = np.asarray(won, dtype=float)
    x = sm.add_constant(np.asarray(played, dtype=float), has_constant="add")
    groups = np.unique(np.asarray(games), return_inverse=True)[1]
    if len(set(groups.tolist())) < 2:
        return None, None, None, None
    with np.errstate(invalid="ignore", divide="ignore"):  # no variance at all: said as no interval
        fit = sm.OLS(y, x).fit(cov_type="cluster", cov_kwds={"groups": groups}, use_t=False)
        d = float(fit.params[1])
        se = float(fit.bse[1])
    if not math.isfinite(se) or se == 0.0:
        return d, None, None, None
    low, high = (float(v) for v in fit.conf_int(alpha=0.05)[1])
    return d, low, high, float(fit.pvalues[1])


def false_discoveries(pvalues: list, rate: float = FALSE_DISCOVERY_RATE) -> list:
    """Benjamini and Hochberg's adjusted p-values (q-values) of `pvalues`, in their order: the
    tests with a q-value at most `rate` are the discoveries, among which the expected share of
    false ones is at most `rate`. None stays None (a test not made)."""
    made = [p for p in pvalues if p is not None]
    if not made:
        return [None] * len(pvalues)
    try:
        from scipy.stats import false_discovery_control
    except ImportError:
        raise StatisticsMissing(f"the control of false discoveries needs scipy: pip install '{EXTRA}'") from None
    adjusted = iter(false_discovery_control(made, method="bh").tolist())
    return [None if p is None else next(adjusted) for p in pvalues]


def missing() -> str | None:
    """Why the clustered effects and the control of false discoveries cannot be computed here
    (their libraries are not installed), or None."""
    try:
        _libraries()
        import scipy.stats  # noqa: F401
    except (StatisticsMissing, ImportError):
        return f"the effects of cards need statsmodels and scipy: pip install '{EXTRA}'"
    return None


def _libraries():
    try:
        import numpy
        import statsmodels.api as sm
    except ImportError:
        raise StatisticsMissing(f"intervals clustered by game need statsmodels: pip install '{EXTRA}'") from None
    return numpy, sm
