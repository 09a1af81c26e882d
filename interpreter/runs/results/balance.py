"""How balanced a game is, over the games of a run: the advantage of the seat that decides
first, ties and games with no winner, how long games are, how often the lead changes, and
how often the leader at mid-game wins. `measures` computes them from the games' facts for
the report of `simulate`; `BALANCE_VIEW` is the same as SQL, the `balance` view of a results
database. Their definitions and sources are in docs/designers.md.
"""
from __future__ import annotations

import math

from ..report_text import outcome
from ..statistics import wilson

BALANCE_VIEW = """
CREATE OR REPLACE VIEW balance AS
SELECT g.game, g.players, g.expansions, g.scenario, g.options, g.agents,
  count(*) AS games,
  any_value(g.sides) AS sides,
  count(*) FILTER (WHERE f.won) AS first_seat_wins,
  count(*) FILTER (WHERE f.won) / count(*) AS first_seat_win_rate,
  wilson_low(count(*) FILTER (WHERE f.won), count(*)) AS first_seat_low,
  wilson_high(count(*) FILTER (WHERE f.won), count(*)) AS first_seat_high,
  1.0 / any_value(g.sides) AS even_share,
  avg(g.draw::INTEGER) AS tie_rate,
  avg((len(g.winners) = 0)::INTEGER) AS no_winner_rate,
  avg(g.decisions) AS decisions_mean,
  quantile_cont(g.decisions, 0.5) AS decisions_median,
  quantile_cont(g.decisions, 0.1) AS decisions_p10,
  quantile_cont(g.decisions, 0.9) AS decisions_p90,
  avg(g.rounds) AS rounds_mean,
  quantile_cont(g.rounds, 0.5) AS rounds_median,
  quantile_cont(g.rounds, 0.1) AS rounds_p10,
  quantile_cont(g.rounds, 0.9) AS rounds_p90,
  avg(g.lead_changes) AS lead_changes_mean,
  quantile_cont(g.lead_changes, 0.9) AS lead_changes_p90,
  count(g.midgame_leader_won) AS midgame_leader_games,
  avg(g.midgame_leader_won::INTEGER) AS midgame_leader_win_rate,
  wilson_low(count(*) FILTER (WHERE g.midgame_leader_won), count(g.midgame_leader_won)) AS midgame_leader_low,
  wilson_high(count(*) FILTER (WHERE g.midgame_leader_won), count(g.midgame_leader_won)) AS midgame_leader_high
FROM games g
LEFT JOIN seats f ON f.run_id = g.run_id AND f.game_index = g.game_index AND f.seat = g.first_seat
WHERE g.error IS NULL
GROUP BY g.game, g.players, g.expansions, g.scenario, g.options, g.agents;
"""


def quantile(xs: list, q: float):
    """The q-quantile of `xs`, interpolated between the two nearest values (as SQL's
    quantile_cont); None for no value."""
    xs = sorted(x for x in xs if x is not None)
    if not xs:
        return None
    pos = q * (len(xs) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def spread(xs: list) -> dict | None:
    """Mean, median, 10th and 90th percentiles of the values (None dropped); None when none."""
    xs = [x for x in xs if x is not None]
    if not xs:
        return None
    return {"mean": round(sum(xs) / len(xs), 4), "median": quantile(xs, 0.5),
            "p10": quantile(xs, 0.1), "p90": quantile(xs, 0.9)}


def rate(k: int, n: int) -> dict:
    low, high = wilson(k, n)
    return {"k": k, "n": n, "rate": round(k / n, 4) if n else None, "low": round(low, 4), "high": round(high, 4)}


def measures(results: list, team_of: list) -> dict:
    """The balance of the completed games of a run (`simulate.GameResult`s with facts);
    `team_of` gives the side of each seat (from 0)."""
    done = [r for r in results if r.error is None and r.facts is not None]
    sides = len(set(team_of))
    ends = [outcome(r.winners, team_of) for r in done]  # a win shared by rival sides is a tie, no seat's win
    won_first = sum(1 for r, (kind, seats) in zip(done, ends)
                    if kind == "won" and r.facts["first_seat"] is not None and r.facts["first_seat"] - 1 in seats)
    ties = sum(1 for kind, _ in ends if kind == "tied")
    none = sum(1 for r in done if not r.winners)
    mid = [r.facts["midgame_leader_won"] for r in done if r.facts["midgame_leader_won"] is not None]
    return {
        "games": len(done),
        "sides": sides,
        "even_share": round(1 / sides, 4),
        "first_seat": rate(won_first, len(done)),
        "ties": rate(ties, len(done)),
        "no_winner": rate(none, len(done)),
        "decisions": spread([r.decisions for r in done]),
        "rounds": spread([r.facts["rounds"] for r in done]),
        "lead_changes": spread([r.facts["lead_changes"] for r in done]),
        "midgame_leader": rate(sum(mid), len(mid)),
    }
