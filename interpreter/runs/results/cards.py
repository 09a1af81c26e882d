"""What each card does to the game, from the (seat, card) facts of a run: the win rate of the
seats that played it against those that did not, the win rate when it was in hand at the end,
the improvement when taken and the average pick, each rate with its 95% interval. In the
spirit of 17lands' GP WR, GIH WR, IWD and ALSA for drafted cards; defined in docs/designers.md,
where the same figures are written as SQL over a results file.

A seat "wins" as in every figure of a run: its side won alone; a win shared by rival sides
is a tie, no seat's win.

The effect of playing a card is the win rate of the seats that played it less that of the
seats that did not, with an interval and a p-value clustered by game (the seats of a game
share its outcome: `statistics.clustered_difference`); over the cards of a run, the ones whose
effect is a discovery at a false discovery rate of 5% (Benjamini and Hochberg) are marked.
The HTML report reads the same figures from the results database through `played_effects`.
"""
from __future__ import annotations

from ..report_text import outcome
from ..statistics import FALSE_DISCOVERY_RATE, clustered_difference, false_discoveries, wilson

MIN_GAMES = 30  # fewer seats that played a card: too few to say anything
MAX_HALF_WIDTH = 0.15  # a wider interval of the effect: too wide to say anything


def played_effects(won: dict, played: dict, min_seats: int = MIN_GAMES) -> dict:
    """Per card, the effect of playing it: (difference, low, high, p-value, q-value). `won`
    gives each seat of the completed games, by (game, seat), 1 when it won, else 0; `played`
    each card's seats that played it, a set of (game, seat). A card is tested (a p-value, and a
    q-value by Benjamini and Hochberg over the cards tested) only when at least `min_seats`
    seats played it and as many did not: a clustered error from a handful of seats says
    nothing, and would make false discoveries."""
    seats = sorted(won)
    games = [g for g, _ in seats]
    wins = [won[k] for k in seats]
    found = {}
    for card, by in played.items():
        d, low, high, p = clustered_difference(games, [1 if k in by else 0 for k in seats], wins)
        tested = min_seats <= len(by) <= len(seats) - min_seats
        found[card] = (d, low, high, p if tested else None)
    cards = list(found)
    qs = false_discoveries([found[c][3] for c in cards])
    return {c: (*found[c], q) for c, q in zip(cards, qs)}


def effects(results: list, players: int, team_of: list) -> list:
    """Per card, over the completed games of a run (`simulate.GameResult`s with facts): the
    figures of docs/designers.md, the cards with the largest effect first. `team_of` gives
    the side of each seat (from 0)."""
    done = [r for r in results if r.error is None and r.facts is not None]
    if not done:
        return []
    seat_won = {}
    for r in done:
        kind, winners = outcome(r.winners, team_of)
        for s in range(players):
            seat_won[(r.index, s + 1)] = 1 if kind == "won" and s in winners else 0
    plays: dict = {}
    for r in done:
        for seat, card, _title, _taken, _pick, played, _rnd, _points, _held, _won in r.facts["cards"]:
            if played:
                plays.setdefault(card, set()).add((r.index, seat))
    seat_wins = [sum(seat_won[(r.index, s + 1)] for r in done) for s in range(players)]
    base = [w / len(done) for w in seat_wins]  # each seat's win rate over the run
    total_seats, total_wins = len(done) * players, sum(seat_wins)
    effect = played_effects(seat_won, plays)
    tally: dict = {}
    for r in done:
        for seat, card, title, taken, pick, played, _rnd, points, held, won in r.facts["cards"]:
            t = tally.get(card)
            if t is None:
                t = tally[card] = {"title": title, "played": [0, 0], "taken": [0, 0], "held": [0, 0],
                                   "base": 0.0, "picks": [], "points": 0.0}
            w = seat_won[(r.index, seat)]
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
        d, lo, hi, p, q = effect.get(card, (None,) * 5)
        iwd = iwd_lo = iwd_hi = None
        if nt:
            shift = t["base"] / nt
            low, high = wilson(kt, nt)
            iwd, iwd_lo, iwd_hi = kt / nt - shift, low - shift, high - shift
        rows.append({
            "card": card, "title": t["title"], "played": np_,
            "played_win_rate": _rate(kp, np_), "not_played_win_rate": _rate(total_wins - kp, total_seats - np_),
            "effect": _r(d), "effect_low": _r(lo), "effect_high": _r(hi),
            "p_value": _r(p, 6), "q_value": _r(q, 6), "discovery": q is not None and q <= FALSE_DISCOVERY_RATE,
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


def _r(x, places: int = 4):
    return None if x is None else round(x, places)
