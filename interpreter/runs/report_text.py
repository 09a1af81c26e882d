"""The report of a run of `simulate`: its figures, and their tables at the terminal.

`summarise` turns the results of the games into plain data (the JSON of
`--json`): win rates with their Wilson intervals, ties and games with no
winner apart, mean scores, the points by attribute and by card, the seats by
power or by the game's label, the seats against an automaton; `render`
prints them as tables, every string of content shown as text.
"""
from __future__ import annotations

from rich.table import Table

from ..diagnostics import plural
from ..view.narrate import counter_noun
from ..view.shown import WordTable, text
from .statistics import mean_interval, wilson

TIMING_KEYS = ("elapsed", "games_per_second", "decisions_per_second")


# statistics -----------------------------------------------------------------------------

def outcome(winners, team_of: list) -> tuple[str, frozenset]:
    """('won', the winning seats) when one side (a player, or a team) won alone; ('tied', the
    seats sharing the win) when rival sides share it; ('none', nothing) when nobody won."""
    if not winners:
        return "none", frozenset()
    sides = {team_of[s] for s in winners}
    return ("won" if len(sides) == 1 else "tied"), frozenset(winners)


def summarise(game, spec, results: list, seconds: float, interrupted: bool = False) -> dict:
    """The figures of a run. A game is won by one side (a player, or a team at a game played
    in teams), tied when rival sides share the win, or ends with no winner: a tie is counted
    apart, never as a win of each side, and a team's win once per team. `spec` is the run's
    `simulate.RunSpec`."""
    n = spec.players
    done = [r for r in results if r.error is None]
    c = len(done)
    team_of = game.program.team_of(n)
    ends = [outcome(r.winners, team_of) for r in done]
    wins = [sum(1 for kind, seats in ends if kind == "won" and s in seats) for s in range(n)]
    tied = [sum(1 for kind, seats in ends if kind == "tied" and s in seats) for s in range(n)]
    total_decisions = sum(r.decisions for r in results)
    out = {
        "game": game.id, "players": n, "seed": spec.seed, "options": spec.options, "agents": spec.agents,
        "check": spec.check, "games": spec.games, "played": len(results), "completed": c,
        "chosen_options": {k: v for k, v in spec.options.items() if k in spec.named or (
            k in game.program.defn.options and v != game.program.defn.options[k].default)},
        "won": sum(1 for kind, _ in ends if kind == "won"),
        "ties": sum(1 for kind, _ in ends if kind == "tied"),
        "draws": sum(1 for kind, _ in ends if kind == "none"),
        "errors": [r.error for r in results if r.error is not None],
        "wins": wins,
        "tied": tied,
        "win_rates": [_rate(k, c) for k in wins],
        "mean_scores": [round(sum(r.scores[s] for r in done) / c, 4) if c else None for s in range(n)],
        **({"standing": counter_noun(game.program, game.program.standing).lower(),
            "mean_standings": [round(sum(r.standings[s] for r in done) / c, 4) if c else None for s in range(n)]}
           if game.program.standing else {}),
        "decisions_per_game": round(sum(r.decisions for r in done) / c, 4) if c else None,
        "elapsed": round(seconds, 4),
        "games_per_second": round(len(results) / seconds, 2) if seconds > 0 else None,
        "decisions_per_second": round(total_decisions / seconds, 1) if seconds > 0 else None,
    }
    if interrupted:
        out["interrupted"] = True
    teams = game.program.teams_for(n)
    if any(len(t) > 1 for t in teams):
        out["teams"] = [[s + 1 for s in t] for t in teams]
        tw = [sum(1 for kind, seats in ends if kind == "won" and any(s in seats for s in t)) for t in teams]
        out["team_wins"] = tw
        out["team_tied"] = [sum(1 for kind, seats in ends if kind == "tied" and any(s in seats for s in t))
                            for t in teams]
        out["team_win_rates"] = [_rate(k, c) for k in tw]
    automata = game.program.automata
    if automata:
        out["agents"] = [f"{automata[s].title} (automaton)" if s in automata else a for s, a in enumerate(spec.agents)]
        out["against_automata"] = _against_automata(automata, done, ends, n)
    if any(r.powers for r in done):
        out["powers"] = _by_power(done, ends)
    if game.program.seat_label is not None:
        out["seats_by"] = {"title": game.program.defn.seat_report[0], "counters": list(game.program.defn.seat_report[3]),
                           "rows": _by_label(done, ends)}
    if game.program.defn.layers:
        out["layers"] = game.layers_json()
    by = spec.by or list(game.program.defn.report_by)
    if by:
        won = [seats if kind == "won" else frozenset() for kind, seats in ends]
        out["by"] = {a: _by_attribute(game, done, won, a) for a in by}
        out["cards"] = _by_card(game, done, won)
    notes = []
    for r in results:
        for note in r.notes:
            if note not in notes:
                notes.append(note)
    if notes:
        out["notes"] = notes
    return out


def _card_attr(game, card_id: str, attribute: str):
    card = next(c for c in game.program.defn.cards if c.id == card_id)
    value = card.attrs.get(attribute, game.program.defn.attributes[attribute].default)
    return str(value) if value is not None else "–"


def _by_attribute(game, done: list, won: list, attribute: str) -> list:
    """Per value of `attribute`: mean points per game its cards brought their owners,
    and the win rate of a seat in the games where they brought it the most points
    (`won[i]`: the seats that won game done[i], empty when it was tied or nobody won)."""
    points: dict = {}
    games_with: dict = {}
    for r, winners in zip(done, won):
        per_seat: dict = {}
        for card, seat, p in r.credits:
            v = _card_attr(game, card, attribute)
            points[v] = points.get(v, 0) + p
            per_seat.setdefault(v, {}).setdefault(seat, 0)
            per_seat[v][seat] += p
        for v, seats in per_seat.items():
            best = max(seats, key=lambda s: (seats[s], -s))
            w, n = games_with.get(v, (0, 0))
            games_with[v] = (w + (1 if best in winners else 0), n + 1)
    total = sum(points.values()) or 1
    c = len(done) or 1
    rows = []
    for v in sorted(points, key=lambda v: -points[v]):
        w, n = games_with.get(v, (0, 0))
        rows.append({"value": v, "points_per_game": round(points[v] / c, 3), "share": round(points[v] / total, 4),
                     "lead_win_rate": _rate(w, n)})
    return rows


def _by_card(game, done: list, won: list) -> list:
    """Per card: mean points it brought per game, and the win rate of the seats it scored for."""
    points: dict = {}
    wins: dict = {}
    for r, winners in zip(done, won):
        for card, seat, p in r.credits:
            points[card] = points.get(card, 0) + p
            w, n = wins.get(card, (0, 0))
            wins[card] = (w + (1 if seat in winners else 0), n + 1)
    c = len(done) or 1
    titles = {d.id: d.title for d in game.program.defn.cards}
    return [{"card": card, "title": titles.get(card, card), "points_per_game": round(points[card] / c, 3),
             "owner_win_rate": _rate(*wins[card])}
            for card in sorted(points, key=lambda k: -points[k])]


def _by_power(done: list, ends: list) -> list:
    """Per power: the games a seat played with it, and that seat's win rate (a tie is no win)."""
    tally: dict = {}
    for r, (kind, seats) in zip(done, ends):
        for seat, power in r.powers.items():
            w, n = tally.get(power, (0, 0))
            tally[power] = (w + (1 if kind == "won" and int(seat) - 1 in seats else 0), n + 1)
    return [{"power": p, "games": n, "win_rate": _rate(w, n)} for p, (w, n) in sorted(tally.items())]


def _against_automata(automata: dict, done: list, ends: list, n: int) -> list:
    """For each seat played by an agent and each automaton: the seat's win rate (a win it
    shares with the automaton is no win) and its mean score gap over the automaton, each with
    its 95% interval (Wilson's for the rate, the normal one for the mean gap)."""
    rows = []
    for s in range(n):
        if s in automata:
            continue
        for a, auto in sorted(automata.items()):
            if a >= n:
                continue
            won = sum(1 for kind, seats in ends if kind == "won" and s in seats)
            gaps = [r.scores[s] - r.scores[a] for r in done]
            rows.append({"seat": s + 1, "automaton": auto.title, "automaton_seat": a + 1, "games": len(done),
                         "win_rate": _rate(won, len(done)), "score_gap": _mean_interval(gaps)})
    return rows


def _mean_interval(xs: list) -> dict:
    """The mean of `xs` and its 95% interval (normal approximation), rounded."""
    return dict(zip(("mean", "low", "high"), (None if x is None else round(x, 4) for x in mean_interval(xs))))


def _by_label(done: list, ends: list) -> list:
    """Per value of the game's seat label (a people played...): the seats that had it, their
    win rate (a tie is no win) and their mean score, most played first."""
    tally: dict = {}
    for r, (kind, seats) in zip(done, ends):
        for s, label in enumerate(r.labels):
            w, n, total, sums = tally.get(label, (0, 0, 0, None))
            values = r.tallies[s] if r.tallies else []
            sums = [a + b for a, b in zip(sums, values)] if sums is not None else list(values)
            tally[label] = (w + (1 if kind == "won" and s in seats else 0), n + 1, total + r.scores[s], sums)
    rows = [{"value": v, "seats": n, "win_rate": _rate(w, n), "mean_score": round(total / n, 4),
             "means": [round(x / n, 4) for x in sums]}
            for v, (w, n, total, sums) in tally.items()]
    return sorted(rows, key=lambda row: (-row["seats"], str(row["value"])))


def _rate(k: int, n: int) -> dict:
    low, high = wilson(k, n)
    return {"rate": round(k / n, 4) if n else None, "low": round(low, 4), "high": round(high, 4)}


def comparable(summary: dict) -> dict:
    """The summary without its timing fields (which differ from run to run)."""
    return {k: v for k, v in summary.items() if k not in TIMING_KEYS}


# showing --------------------------------------------------------------------------------

def render(summary: dict, console) -> None:
    """The report of a run as tables. Every string in it goes through `shown.text`: content
    (attribute values, messages) is shown as text, never as markup or control sequences."""
    c = summary["completed"]
    teams = summary.get("teams")
    ties = summary.get("ties", 0)
    laid = summary.get("layers") or {}
    chosen = summary.get("chosen_options") or {}
    title = (f"{summary['game']}: {summary['games']} games, {summary['players']} players, "
             f"seed {summary['seed']}" + (", checked" if summary["check"] else "")
             + "".join(f", {k}={v}" for k, v in chosen.items())
             + "".join(f", {what} {', '.join(v) if isinstance(v, list) else v}"
                       for what, v in (("expansions", laid.get("expansions")), ("scenario", laid.get("scenario")),
                                       ("mods", laid.get("mods"))) if v))
    t = _table(title, [("seat", "right"), ("agent", "left")]
               + ([("team", "right")] if teams else [("wins", "right")] + ([("ties", "right")] if ties else [])
                  + [("win rate", "right"), ("95% CI", "right")])
               + [("mean score", "right")]
               + ([(f"mean {summary['standing']}", "right")] if summary.get("standing") else []))
    team_of = {s: i for i, members in enumerate(teams or []) for s in members}
    for s in range(summary["players"]):
        r = summary["win_rates"][s]
        ms = summary["mean_scores"][s]
        row = [str(s + 1), summary["agents"][s]]
        if teams:
            row.append(str(team_of.get(s + 1, 0) + 1))
        else:
            row.append(str(summary["wins"][s]))
            if ties:
                row.append(str(summary["tied"][s]))
            row += [_pct(r["rate"]), _ci(r)]
        row.append("–" if ms is None else f"{ms:.2f}")
        if summary.get("standing"):  # what the game's end shows, beside the points it scored
            st = summary["mean_standings"][s]
            row.append("–" if st is None else f"{st:.2f}")
        t.add_row(*map(text, row))
    console.print(t)
    if teams:
        tt = _table("teams", [("team", "right"), ("seats", "left"), ("wins", "right")]
                    + ([("ties", "right")] if ties else []) + [("win rate", "right"), ("95% CI", "right")])
        for i, members in enumerate(teams):
            r = summary["team_win_rates"][i]
            row = [str(i + 1), ", ".join(f"{m} ({summary['agents'][m - 1]})" for m in members),
                   str(summary["team_wins"][i])]
            if ties:
                row.append(str(summary["team_tied"][i]))
            tt.add_row(*map(text, row + [_pct(r["rate"]), _ci(r)]))
        console.print(tt)
    for row in summary.get("against_automata", []):
        r, g = row["win_rate"], row["score_gap"]
        at = _table(f"seat {row['seat']} ({summary['agents'][row['seat'] - 1]}) against {row['automaton']}",
                    [("games", "right"), ("win rate", "right"), ("95% CI", "right"),
                     ("mean score gap", "right"), ("95% CI", "right")])
        gap = "–" if g["mean"] is None else f"{g['mean']:+.2f}"
        gci = "–" if g["low"] is None else f"{g['low']:+.2f} – {g['high']:+.2f}"
        at.add_row(*map(text, [str(row["games"]), _pct(r["rate"]), _ci(r), gap, gci]))
        console.print(at)
    if summary.get("seats_by"):
        by = summary["seats_by"]
        st_ = _table(f"seats by {by['title']}", [(by["title"], "left"), ("seats", "right"), ("win rate", "right"),
                     ("95% CI", "right"), ("mean score", "right")] + [(c.replace("_", " "), "right")
                                                                     for c in by.get("counters", [])])
        for row in by["rows"]:
            r = row["win_rate"]
            st_.add_row(*map(text, [row["value"], str(row["seats"]), _pct(r["rate"]), _ci(r),
                                    f"{row['mean_score']:.2f}"] + [f"{x:.2f}" for x in row.get("means", [])]))
        console.print(st_)
    if summary.get("powers"):
        pt = _table("win rate of the seat that played each power", [("power", "left"), ("games", "right"),
                    ("win rate", "right"), ("95% CI", "right")])
        for row in summary["powers"]:
            r = row["win_rate"]
            pt.add_row(*map(text, [row["power"], str(row["games"]), _pct(r["rate"]), _ci(r)]))
        console.print(pt)
    for attribute, rows in summary.get("by", {}).items():
        bt = _table(f"points brought, by {attribute}", [(attribute, "left"), ("points per game", "right"),
                    ("share", "right"), ("win rate of its top seat", "right"), ("95% CI", "right")])
        for row in rows:
            r = row["lead_win_rate"]
            bt.add_row(*map(text, [row["value"], f"{row['points_per_game']:.2f}", _pct(row["share"]),
                                   _pct(r["rate"]), _ci(r)]))
        console.print(bt)
    if summary.get("cards"):
        cards = summary["cards"]
        ct = _table(f"cards bringing the most and the fewest points ({len(cards)} scored)",
                    [("card", "left"), ("points per game", "right"),
                     ("win rate of the seats it scored for", "right")])
        shown = cards if len(cards) <= 10 else cards[:5] + cards[-5:]
        titled = {}  # each card by its title, as the other tables name cards; its id too where titles repeat
        for row in cards:
            titled.setdefault(row.get("title", row["card"]), set()).add(row["card"])
        for row in shown:
            r = row["owner_win_rate"]
            name = row.get("title", row["card"])
            name = name if len(titled[name]) == 1 else f"{name} ({row['card']})"
            ct.add_row(*map(text, [name, f"{row['points_per_game']:.2f}", f"{_pct(r['rate'])} ({_ci(r)})"]))
        console.print(ct)
    if summary.get("balance") and summary["balance"]["games"]:
        _render_balance(summary["balance"], console)
    if summary.get("card_effects") is not None:
        _render_card_effects(summary["card_effects"], console)
    dpg = summary["decisions_per_game"]
    gps, dps = summary["games_per_second"], summary["decisions_per_second"]
    errors = summary["errors"]
    played = summary.get("played", summary["games"])
    lines = []
    if summary.get("interrupted"):
        lines.append(f"interrupted: {played} of {plural(summary['games'], 'game')} played, "
                     f"and the figures above are theirs")
        of = f"{plural(played, 'game')} played"
    else:
        of = plural(summary["games"], "game")
    won = summary.get("won", c - ties - summary["draws"])
    sides = "teams" if teams else "players"
    lines.append(f"completed {c} of {of}: {won} won, {ties} tied"
                 + (f" (the win shared by rival {sides})" if ties else "")
                 + f", {summary['draws']} with no winner; {plural(len(errors), 'error')}")
    lines.append(f"decisions per game {'–' if dpg is None else f'{dpg:.1f}'}; "
                 f"{'–' if gps is None else f'{gps:.1f}'} games/s; "
                 f"{'–' if dps is None else f'{dps:.0f}'} decisions/s"
                 + (f"; played by the {summary['backend']}" if summary.get("backend") else ""))
    lines += [f"note: {note}" for note in summary.get("notes", [])]
    for e in errors[:10]:
        lines.append(f"error in game {e['index']} (seed {e['seed']}): {e['message']}")
        if e.get("trace"):
            lines.append(f"  trace: {e['trace']}")
    if len(errors) > 10:
        lines.append(f"... and {len(errors) - 10} more errors (see --json)")
    for line in lines:
        console.print(text(line), soft_wrap=True)


def _render_balance(b: dict, console) -> None:
    """The balance measures of a run (results.balance.measures) as one table."""
    even = f"{_pct(b['even_share'])} (1 in {b['sides']})"
    t = _table(f"balance ({plural(b['games'], 'game')} completed)", [("measure", "left"), ("value", "right"),
               ("95% CI, or 10th – 90th pct", "right"), ("even", "right")])
    r = b["first_seat"]
    t.add_row(*map(text, ["first seat to decide wins", _pct(r["rate"]), _ci(r), even]))
    r = b["midgame_leader"]
    t.add_row(*map(text, [f"mid-game leader wins ({r['n']} games)", _pct(r["rate"]), _ci(r), even]))
    for key, what in (("ties", "rival sides share the win"), ("no_winner", "no winner")):
        r = b[key]
        t.add_row(*map(text, [what, _pct(r["rate"]), _ci(r), ""]))
    for key, what in (("decisions", "decisions"), ("rounds", "rounds"), ("lead_changes", "lead changes")):
        x = b[key]
        if x is not None:
            t.add_row(*map(text, [f"{what}: mean (median)", f"{x['mean']:.1f} ({_num(x['median'])})",
                                  f"{_num(x['p10'])} – {_num(x['p90'])}", ""]))
    console.print(t)


def _render_card_effects(rows: list, console) -> None:
    """What each card does (results.cards.effects): the five largest effects and the five
    smallest, among the cards with enough games to say anything; then the cards whose effect is
    a discovery at a false discovery rate of 5%."""
    sure = [r for r in rows if not r["too_wide"]]
    left = len(rows) - len(sure)
    if sure:
        shown = sure if len(sure) <= 10 else sure[:5] + sure[-5:]
        title = ("what cards do" + (": the 5 largest effects and the 5 smallest" if len(sure) > 10 else ""))
        t = _table(title, [("card", "left"), ("played", "right"), ("won", "right"), ("effect", "right"),
                           ("95% CI", "right"), ("q", "right"), ("held", "right"), ("taken, +", "right"),
                           ("pick", "right")])
        for r in shown:
            t.add_row(*map(text, [r["title"] + (" *" if r.get("discovery") else ""), str(r["played"]),
                                  _pct(r["played_win_rate"]["rate"]),
                                  _signed(r["effect"]), f"{_signed(r['effect_low'], 0)}…{_signed(r['effect_high'], 0)}",
                                  _q(r.get("q_value")), _pct(r["in_hand_win_rate"]["rate"]),
                                  _signed(r["improvement_when_taken"]),
                                  "–" if r["average_pick"] is None else f"{r['average_pick']:.1f}"]))
        console.print(t)
        console.print(text("played: seats that played the card; won: their win rate; effect: that rate less "
                           "the rate of the seats that did not play it, in points, its interval clustered by "
                           "game; q: Benjamini-Hochberg's adjusted p-value over every card; held: the win rate "
                           "of the seats holding it at the end; taken, +: the win rate of the seats that took "
                           "it less their usual rate; pick: which of its seat's decisions took it, on average; "
                           "a win shared by rival sides is a tie, no seat's win"),
                      soft_wrap=True)
    tested = [r for r in rows if r.get("q_value") is not None]
    if tested:
        found = [r for r in tested if r.get("discovery")]
        names = ", ".join(f"{r['title']} ({_signed(r['effect'])})" for r in found[:12])
        more = f" and {len(found) - 12} more" if len(found) > 12 else ""
        console.print(text(f"cards that change the win rate, at a false discovery rate of 5% (Benjamini-Hochberg, "
                           f"over {plural(len(tested), 'card')} tested): "
                           + (f"{len(found)}, marked *: {names}{more}" if found else "none")), soft_wrap=True)
    if left:
        console.print(text(f"what cards do: {left} of {plural(len(rows), 'card')} "
                           f"{'is' if left == 1 else 'are'} left out, played by fewer than 30 seats or with an "
                           f"interval of the effect wider than ±15 points: more games narrow them"), soft_wrap=True)


def _q(x) -> str:
    return "–" if x is None else ("<0.001" if x < 0.001 else f"{x:.3f}")


def _signed(x, digits: int = 1) -> str:
    """A difference of rates in points, signed."""
    if x is None:
        return "–"
    shown = f"{100 * x:+.{digits}f}"
    return shown.replace("-", "+") if float(shown) == 0 else shown


def _num(x) -> str:
    return "–" if x is None else (f"{x:.0f}" if float(x).is_integer() else f"{x:.1f}")


def _table(title: str, columns: list) -> Table:
    t = WordTable(title=text(title), title_justify="left")
    for name, justify in columns:
        # a long value (content) wraps between words rather than loses its end
        t.add_column(text(name), justify=justify, overflow="fold")
    return t


def _ci(r: dict) -> str:
    # a range of percentages closed up around its dash ('30.7%–60.2%'), as ranges are set: one
    # word, which a table at 80 columns keeps on one line
    return f"{_pct(r['low'])}\u2013{_pct(r['high'])}"


def _pct(x) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"

