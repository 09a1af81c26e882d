"""A controlled comparison (`regles compare`): the same games with and without a change.

Both arms play the same run: game i of each uses the seed `seed_for(S, i)`
and its agents are seeded from it (common random numbers), so that the two
games of a pair differ only by the change and by what it sets off. The
change is cards left out of the game (`--without`) or a mod laid over it
(`--variant`). The figures are differences between the arms, each with a 95%
interval over the pairs: for each seat (and team, and label of the game's
seat report) the win rate, by Newcombe's interval for paired proportions
(`statistics.paired_difference`), and the mean score; for the whole run the
game length in decisions, these two by the normal approximation on the
paired per-game differences. A win is a side's win alone: a win shared by
rival sides is a tie, no seat's win. A pair counts when both of its games
completed without error.
"""
from __future__ import annotations

import re
from pathlib import Path

from rich.table import Table

from ..diagnostics import LoadError, plural
from ..names import fold
from ..view.shown import WordTable, text
from . import sequential
from .report_text import outcome
from .statistics import mean_interval, paired_cells, paired_difference

_NAMED = re.compile(r"no card with id '(.*)'")


# the changed game -------------------------------------------------------------------------

def changed_game(game, without=(), variant: str | None = None, settings=()):
    """`game` with the cards `without` left out (every copy), with the mod `variant` laid over
    it, or with the values `settings` set ((card, attribute, value) each). ValueError (a usage
    error) names an unknown card or attribute, a missing variant, or the places where the rules
    name a card left out; LoadError gives the variant's content errors."""
    if variant is not None:
        if not Path(variant).exists():
            raise ValueError(f"--variant {variant}: no such file or folder")
        return game.with_layers(mods=list(game.chosen.mods) + [variant])
    if settings:
        return game.with_layers(settings=list(game.chosen.settings) + list(settings))
    gone = {fold(c) for c in without}
    try:
        return game.with_layers(without=list(game.chosen.without) + list(without))
    except LoadError as exc:
        named = [(m.group(1), d.position) for d in exc.report.diagnostics
                 if (m := _NAMED.match(d.message)) is not None and fold(m.group(1)) in gone]
        if not named:
            raise
        cards = sorted({card for card, _ in named})
        first = named[0][1]
        more = len(named) - 1
        raise ValueError(f"--without {', '.join(cards)}: the rules name {'this card' if len(cards) == 1 else 'these cards'}"
                         f" by id, so the game cannot be played without {'it' if len(cards) == 1 else 'them'}: "
                         f"{first.path}:{first.line}:{first.column}"
                         + (f" (and {plural(more, 'other place')})" if more else "")) from None


# statistics -------------------------------------------------------------------------------

def paired(diffs: list) -> dict:
    """The mean of paired differences and its 95% interval (normal approximation); no
    interval with fewer than two pairs."""
    m, low, high = mean_interval(diffs)
    return {"mean": _round(m), "low": _round(low), "high": _round(high), "pairs": len(diffs)}


def _figure(base: list, changed: list) -> dict:
    """Means of one measure in each arm over the same pairs, and their paired difference."""
    n = len(base)
    return {"base": round(sum(base) / n, 4) if n else None, "changed": round(sum(changed) / n, 4) if n else None,
            "difference": paired([b - a for a, b in zip(base, changed)])}


def _rate(base: list, changed: list) -> dict:
    """A rate (wins, 0 or 1 a game) in each arm over the same pairs, and its paired difference
    with Newcombe's interval for paired proportions."""
    n = len(base)
    both, first, second, neither = paired_cells(base, changed)
    d, low, high = paired_difference(both, first, second, neither)
    return {"base": _round((both + first) / n) if n else None, "changed": _round((both + second) / n) if n else None,
            "difference": {"mean": _round(d), "low": _round(low), "high": _round(high), "pairs": n}}


def _round(x):
    return None if x is None else round(x, 4)


def summarise(base_game, changed_game_, spec, change: dict, base: list, changed: list, seconds: float,
              interrupted: bool = False) -> dict:
    """The figures of a comparison: `base` and `changed` the results of each arm (the
    `simulate.GameResult` of each game), `spec` the base arm's `simulate.RunSpec`, `change`
    what differs (`{"without": [...]}` or `{"variant": PATH}`)."""
    n = spec.players
    pairs = paired_games(base, changed)
    team_of = base_game.program.team_of(n)
    ends = [(outcome(a.winners, team_of), outcome(b.winners, team_of)) for a, b in pairs]

    automata = base_game.program.automata
    agents = [f"{automata[s].title} (automaton)" if s in automata else a for s, a in enumerate(spec.agents)]
    out = {
        "game": base_game.id, "players": n, "seed": spec.seed, "games": spec.games, "agents": agents,
        "options": spec.options, "change": change, "pairs": len(pairs),
        "played": {"base": len(base), "changed": len(changed)},
        "errors": {"base": [r.error for r in base if r.error is not None],
                   "changed": [r.error for r in changed if r.error is not None]},
        "seats": [{"seat": s + 1, "agent": agents[s],
                   "win_rate": _rate([won(ea, [s]) for ea, _ in ends], [won(eb, [s]) for _, eb in ends]),
                   "mean_score": _figure([a.scores[s] for a, _ in pairs], [b.scores[s] for _, b in pairs])}
                  for s in range(n)],
        "decisions_per_game": _figure([a.decisions for a, _ in pairs], [b.decisions for _, b in pairs]),
        "elapsed": round(seconds, 4),
    }
    if interrupted:
        out["interrupted"] = True
    if base_game.program.defn.layers or base_game.program.defn.without:
        out["layers"] = base_game.layers_json()
    teams = base_game.program.teams_for(n)
    if any(len(t) > 1 for t in teams):
        out["teams"] = [{"team": i + 1, "seats": [s + 1 for s in t],
                         "win_rate": _rate([won(ea, t) for ea, _ in ends], [won(eb, t) for _, eb in ends])}
                        for i, t in enumerate(teams)]
    if base_game.program.seat_label is not None and changed_game_.program.seat_label is not None:
        out["labels"] = {"title": base_game.program.defn.seat_report[0], "rows": _by_label(pairs, ends)}
    return out


def paired_games(base: list, changed: list) -> list:
    """The pairs (as is, changed) of games with the same index that both completed, in order."""
    by_index = {r.index: r for r in changed}
    return [(a, by_index[a.index]) for a in sorted(base, key=lambda r: r.index)
            if a.index in by_index and a.error is None and by_index[a.index].error is None]


def won(end, seats) -> int:
    """1 when one of `seats` won a game that ended as `end` (report_text.outcome), else 0."""
    kind, winners = end
    return 1 if kind == "won" and any(s in winners for s in seats) else 0


def figures_won(base_game, players: int, r) -> dict:
    """What game `r` gave each figure a comparison tests: 1 when it won, else 0, for each seat
    ("seat N", its side alone) and each value of the game's seat label that a seat had."""
    e = outcome(r.winners, base_game.program.team_of(players))
    found = {f"seat {s + 1}": won(e, [s]) for s in range(players)}
    for label in dict.fromkeys(r.labels):
        if label is not None:
            found[str(label)] = _label_won(r, e, label)
    return found


def pair_outcomes(base_game, players: int, base: list, changed: list) -> list:
    """Per pair of completed games, the outcome of each seat ("seat N")
    and of each value of the game's seat label: +1 when it won only the changed game, -1 only
    the game as it is; the labels of neither game are left out (0)."""
    out = []
    for a, b in paired_games(base, changed):
        wa, wb = figures_won(base_game, players, a), figures_won(base_game, players, b)
        out.append({name: wb.get(name, 0) - wa.get(name, 0) for name in dict.fromkeys([*wa, *wb])})
    return out


def _by_label(pairs: list, ends: list) -> list:
    """Per value of the game's seat label: the share of games a seat with it won (over every
    pair: a game where no seat has it is no win), and the mean score of the seats with it
    (over the pairs where a seat has it in both games)."""
    labels = []
    for a, b in pairs:
        for label in list(a.labels) + list(b.labels):
            if label not in labels:
                labels.append(label)
    rows = []
    for label in labels:
        wins_a, wins_b, score_a, score_b = [], [], [], []
        for (a, b), (ea, eb) in zip(pairs, ends):
            wins_a.append(_label_won(a, ea, label))
            wins_b.append(_label_won(b, eb, label))
            sa = [a.scores[s] for s, x in enumerate(a.labels) if x == label]
            sb = [b.scores[s] for s, x in enumerate(b.labels) if x == label]
            if sa and sb:
                score_a.append(sum(sa) / len(sa))
                score_b.append(sum(sb) / len(sb))
        rows.append({"value": label, "games_won": _rate(wins_a, wins_b), "mean_score": _figure(score_a, score_b)})
    return sorted(rows, key=lambda row: (-row["mean_score"]["difference"]["pairs"], str(row["value"])))


def _label_won(r, end, label) -> int:
    kind, winners = end
    return 1 if kind == "won" and any(r.labels[s] == label for s in winners if s < len(r.labels)) else 0


# showing ----------------------------------------------------------------------------------

def change_text(change: dict) -> str:
    """The change compared, in words: the cards left out by title (and id, when it differs), or
    the variant laid."""
    if "without" in change:
        titles = change.get("titles") or change["without"]
        return "without " + ", ".join(t if fold(t) == fold(c) else f"{t} ({c})"
                                      for c, t in zip(change["without"], titles))
    if "set" in change:
        return "with " + ", ".join(f"{c}.{a} = {v}" for c, a, v in change["set"])
    return "with " + str(change["variant"])


def render(summary: dict, console) -> None:
    """The comparison as tables; every string of content goes through `shown.text`."""
    what = change_text(summary["change"])
    console.print(text(f"{summary['game']}: {what} ('changed') against the game as it is ('as is'); "
                       f"{summary['players']} players, {plural(summary['pairs'], 'pair')} of games with the same "
                       f"seeds, seed {summary['seed']}"), soft_wrap=True)
    heads = [("as is", "right"), ("changed", "right"), ("difference", "right"), ("95% CI", "right")]
    for key, title, value, diff in (("win_rate", "win rate", _pct, _pp), ("mean_score", "mean score", _num, _signed)):
        t = _table(title, [("seat", "right"), ("agent", "left")] + heads)
        for row in summary["seats"]:
            f = row[key]
            t.add_row(*map(text, [str(row["seat"]), row["agent"], value(f["base"]), value(f["changed"]),
                                  diff(f["difference"]["mean"]), _ci(f["difference"], diff)]))
        console.print(t)
    if summary.get("teams"):
        tt = _table("win rate of each team", [("team", "right"), ("seats", "left")] + heads)
        for row in summary["teams"]:
            w = row["win_rate"]
            tt.add_row(*map(text, [str(row["team"]), ", ".join(map(str, row["seats"])), _pct(w["base"]),
                                   _pct(w["changed"]), _pp(w["difference"]["mean"]), _ci(w["difference"], _pp)]))
        console.print(tt)
    if summary.get("labels"):
        by = summary["labels"]
        lt = _table(f"games won by a seat of each {by['title']}, and the mean score of its seats",
                    [(by["title"], "left")] + heads + [("score difference", "right"), ("95% CI", "right"),
                                                       ("pairs", "right")])
        for row in by["rows"]:
            w, m = row["games_won"], row["mean_score"]
            lt.add_row(*map(text, [row["value"], _pct(w["base"]), _pct(w["changed"]), _pp(w["difference"]["mean"]),
                                   _ci(w["difference"], _pp), _signed(m["difference"]["mean"]),
                                   _ci(m["difference"], _signed), str(m["difference"]["pairs"])]))
        console.print(lt)
    d = summary["decisions_per_game"]
    lines = _verdict_lines(summary.get("sequential")) + [f"decisions per game: {_num(d['base'], 1)} as is, {_num(d['changed'], 1)} changed; difference "
             f"{_signed(d['difference']['mean'], 1)} (95% CI {_ci(d['difference'], lambda x: _signed(x, 1))})",
             "differences: changed minus as is, over the pairs of games played with the same seeds; "
             "intervals: Newcombe's for paired proportions (win rates), the normal approximation on the paired "
             "per-game differences (scores, decisions); a win shared by rival sides is a tie, no seat's win"]
    if summary.get("interrupted"):
        lines.insert(0, f"interrupted: {plural(summary['pairs'], 'pair')} of games played, and the figures above "
                        "are theirs")
    for arm, name in (("base", "as is"), ("changed", "changed")):
        errors = summary["errors"][arm]
        if errors:
            lines.append(f"{plural(len(errors), 'error')} {name} (their pairs left out):")
            for e in errors[:5]:
                lines.append(f"  game {e['index']} (seed {e['seed']}): {e['message']}"
                             + (f"; trace: {e['trace']}" if e.get("trace") else ""))
            if len(errors) > 5:
                lines.append(f"  ... and {len(errors) - 5} more (see --json)")
    for line in lines:
        console.print(text(line), soft_wrap=True)


def _verdict_lines(v: dict | None) -> list:
    """What the sequential test decided (`--until-decided`), in words."""
    if v is None:
        return []
    return [f"decided after {plural(v['pairs'], 'pair')} of games: {sequential.said(v)}; sequential probability "
            f"ratio test on each seat's win rate and each label's, false alarms at most {v['alpha']:g} over all of "
            f"them, a change of {v['points']:g} points missed at most {v['beta']:g} of the time in each "
            f"(log-likelihood ratio bounds {v['bounds'][0]:.2f} and {v['bounds'][1]:.2f}; its path in --json)"]


def _table(title: str, columns: list) -> Table:
    t = WordTable(title=text(title), title_justify="left")
    for name, justify in columns:
        t.add_column(text(name), justify=justify, overflow="fold")
    return t


def _ci(d: dict, form) -> str:
    if d["low"] is None:
        return "–"
    low, high = form(d["low"]), form(d["high"])
    unit = " pts" if high.endswith(" pts") else ""
    return f"{low.removesuffix(unit)} – {high}"


def _pct(x) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _pp(x) -> str:
    """A difference of rates, in percentage points."""
    return "–" if x is None else f"{100 * x:+.1f} pts"


def _num(x, places: int = 2) -> str:
    return "–" if x is None else f"{x:.{places}f}"


def _signed(x, places: int = 2) -> str:
    return "–" if x is None else f"{x:+.{places}f}"
