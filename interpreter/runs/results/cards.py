"""What each card does to the game, from the (seat, card) facts of a run: the win rate of the
seats that played it against those that did not, the win rate when it was in hand at the end,
the improvement when taken and the average pick, each rate with its 95% interval. In the
spirit of 17lands' GP WR, GIH WR, IWD and ALSA for drafted cards; defined in docs/designers.md,
where the same figures are written as SQL over a results file.

A seat "wins" as in the seats table: its side won, alone or sharing the win.
"""
from __future__ import annotations

import math

from ..report_text import wilson

MIN_GAMES = 30  # fewer seats that played a card: too few to say anything
MAX_HALF_WIDTH = 0.15  # a wider interval of the effect: too wide to say anything


def difference(k1: int, n1: int, k2: int, n2: int) -> tuple:
    """p1 - p2 and its 95% interval by Newcombe's hybrid score method (1998), from the
    Wilson intervals of both rates; (None, None, None) when a group is empty."""
    if not n1 or not n2:
        return None, None, None
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1)
    l2, u2 = wilson(k2, n2)
    d = p1 - p2
    return d, d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)


def effects(results: list, players: int) -> list:
    """Per card, over the completed games of a run (`simulate.GameResult`s with facts): the
    figures of docs/designers.md, the cards with the largest effect first."""
    done = [r for r in results if r.error is None and r.facts is not None]
    if not done:
        return []
    seat_wins = [sum(1 for r in done if r.winners and s in r.winners) for s in range(players)]
    base = [w / len(done) for w in seat_wins]  # each seat's win rate over the run
    total_seats, total_wins = len(done) * players, sum(seat_wins)
    tally: dict = {}
    for r in done:
        for seat, card, title, taken, pick, played, _rnd, points, held, won in r.facts["cards"]:
            t = tally.get(card)
            if t is None:
                t = tally[card] = {"title": title, "played": [0, 0], "taken": [0, 0], "held": [0, 0],
                                   "base": 0.0, "picks": [], "points": 0.0}
            w = 1 if won else 0
            if played:
                t["played"][0] += w
                t["played"][1] += 1
            if taken:
                t["taken"][0] += w
                t["taken"][1] += 1
                t["base"] += base[seat - 1]
                if pick is not None:
                    t["picks"].append(pick)
            if held:
                t["held"][0] += w
                t["held"][1] += 1
            t["points"] += points
    rows = []
    for card, t in tally.items():
        (kp, np_), (kt, nt), (kh, nh) = t["played"], t["taken"], t["held"]
        d, lo, hi = difference(kp, np_, total_wins - kp, total_seats - np_)
        iwd = iwd_lo = iwd_hi = None
        if nt:
            shift = t["base"] / nt
            low, high = wilson(kt, nt)
            iwd, iwd_lo, iwd_hi = kt / nt - shift, low - shift, high - shift
        rows.append({
            "card": card, "title": t["title"], "played": np_,
            "played_win_rate": _rate(kp, np_), "not_played_win_rate": _rate(total_wins - kp, total_seats - np_),
            "effect": _r(d), "effect_low": _r(lo), "effect_high": _r(hi),
            "held_at_end": nh, "in_hand_win_rate": _rate(kh, nh),
            "taken": nt, "taken_win_rate": _rate(kt, nt), "improvement_when_taken": _r(iwd),
            "improvement_low": _r(iwd_lo), "improvement_high": _r(iwd_hi),
            "average_pick": round(sum(t["picks"]) / len(t["picks"]), 3) if t["picks"] else None,
            "points_per_game": round(t["points"] / len(done), 4),
            "too_wide": too_wide(np_, lo, hi),
        })
    rows.sort(key=lambda row: (row["effect"] is None, -(row["effect"] or 0.0), row["card"]))
    return rows


def too_wide(games: int, low, high) -> bool:
    """Whether an effect says nothing: too few games, or an interval too wide."""
    return games < MIN_GAMES or low is None or (high - low) / 2 > MAX_HALF_WIDTH


def _rate(k: int, n: int) -> dict:
    low, high = wilson(k, n)
    return {"k": k, "n": n, "rate": round(k / n, 4) if n else None, "low": round(low, 4), "high": round(high, 4)}


def _r(x):
    return None if x is None else round(x, 4)
