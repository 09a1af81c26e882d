"""The HTML report as one self-contained page: its charts inline as SVG, its style in it.

`build` lays out one run's `queries.Figures`: the run, the seats' win rates and scores, the
length of the games, the balance figures, the cards and the seat labels, each chart with
a table of the figures it draws (every number of a table cell also in its `data-value`,
unrounded). Every string of content (titles, labels, agents, messages) is escaped: it
shows as text, never as markup. The page loads nothing: no script, no font, no image
from elsewhere, so it opens offline, mails as one file and prints as it shows.
"""
from __future__ import annotations

import html
import json

from ... import __version__
from ...diagnostics import plural, printable
from .. import sequential as sprt
from ..compare import change_text
from . import charts
from .queries import Difference, Figures, Rate


def build(f: Figures, top: int = 10, min_plays: int = 30, title: str | None = None) -> str:
    """The page of the figures of a run; `top`: how many cards of each end are drawn; `title`,
    the game's (else the page is titled by the name of the game the run played)."""
    sections = [_seats(f), _scores(f), _length(f), _balance(f), _cards(f, top, min_plays), _offers(f, top),
                _labels(f), _errors(f), _runs(f)]
    sections = [s for s in sections if s]
    game = _text(title or f.run.get("game") or "?")
    nav = "".join(f'<li><a href="#{anchor}">{_text(title)}</a></li>' for anchor, title, _ in sections)
    body = "\n".join(f'<section id="{anchor}">\n<h2>{_text(title)}</h2>\n{content}\n</section>'
                     for anchor, title, content in sections)
    return _page(f"{game}: simulation report", f"""<h1>{game}: simulation report</h1>
{_run(f)}
<nav><ol>{nav}</ol></nav>""", body, f"""Made by regles {_text(__version__)} from the results of run {_text(f.run.get("run_id"))}.
Intervals are 95% intervals: Wilson's for a rate, Newcombe's for a difference of rates.""")


def _page(title: str, header: str, main: str, footer: str) -> str:
    """A whole page: its title (HTML text), and the HTML of its header, main part and footer."""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="regles {_text(__version__)}">
<title>{title}</title>
<style>{STYLE}</style>
</head>
<body>
<header>
{header}
</header>
<main>
{main}
</main>
<footer>{footer}</footer>
</body>
</html>
"""


def sequential(summary: dict) -> str:
    """The page of `compare --until-decided`: the change, the decision, and the path of the
    log-likelihood ratios of each figure tested (the ratio of "rises" and of "falls" against
    "no change", the larger of the two drawn), with the bounds where the test stops."""
    v = summary["sequential"]
    game = _text(summary["game"])
    change = _text(change_text(summary["change"]))
    names = list(dict.fromkeys(name for step in v["path"] for name in step["llr"]))
    series = [(name, [(step["pairs"], max(step["llr"][name])) for step in v["path"] if name in step["llr"]])
              for name in names]
    chart = charts.paths("llr", series, tuple(v["bounds"]), "pairs of games played",
                         "log-likelihood ratio, up or down")
    said = sprt.said(v)
    rows = [[c["figure"], c["as_is_only"], c["alike"], c["changed_only"]] for c in v["counts"]]
    table = _table(["figure", "won as is only", "alike", "won changed only"], rows, "counts")
    return _page(f"{game}: {change}, until decided", f"""<h1>{game}: {change}</h1>
<p>Decided after {_text(plural(v['pairs'], 'pair'))} of games ({summary['players']} players, seed
{_text(summary['seed'])}): <strong>{_text(said)}</strong>.</p>""", f"""<section id="path">
{_figure("path", "The test's path", chart,
         f"Each figure's log-likelihood ratio after each batch of {v['batch']} pairs: above the upper bound "
         f"({v['bounds'][1]:.2f}) the change moves it by {v['points']:g} points or more, below the lower bound "
         f"({v['bounds'][0]:.2f}) it does not; false alarms at most {v['alpha']:g} over all figures, a change "
         f"missed at most {v['beta']:g} of the time in each.")}
{table}
</section>""", f"""Made by regles {_text(__version__)}. The generalized sequential probability ratio test on the
outcomes of pairs of games played with the same seeds, as is and changed.""")


# the sections: (anchor, title, HTML) each, or None when the run has nothing to show there --

def _run(f: Figures) -> str:
    r = f.run
    rows = [("run", r.get("run_id")), ("game", r.get("game")), ("expansions", _listed(r.get("expansions"))),
            ("scenario", r.get("scenario")), ("options", _options(r.get("options"))),
            ("players", r.get("players")), ("agents", _listed(r.get("agents"))), ("seed", r.get("seed")),
            ("games", f"{f.played} played, {f.completed} completed"
                      + (f", {plural(f.error_count, 'error')}" if f.error_count else "")),
            ("started", _when(r.get("started_at"))), ("regles", r.get("regles_version")), ("command", r.get("command"))]
    cells = "".join(f"<tr><th>{_text(k)}</th><td>{_text(v)}</td></tr>" for k, v in rows if v not in (None, ""))
    return f'<table class="run">{cells}</table>'


def _seats(f: Figures):
    if not f.seats:
        return None
    names = [f"seat {s.seat}" + (f" ({s.agent})" if s.agent else "") for s in f.seats]
    chart = charts.rates("win-rate", [(n, *_ci(s.wins)) for n, s in zip(names, f.seats)],
                         f.average_seat.rate, "average seat")
    table = _table(["seat", "agent", "games", "wins", "ties", "win rate", "95% interval"],
                   [[s.seat, s.agent, s.wins.n, s.wins.k, s.ties, _pct(s.wins.rate), _interval(s.wins)]
                    for s in f.seats], "win-rates")
    note = ("<p>A win is a seat's side winning alone; a win that rival sides share is counted as a tie. "
            "The dashed line is the average seat's win rate.</p>")
    return "seats", "Seats", _figure("win-rate", "Win rate by seat", chart) + note + table


def _scores(f: Figures):
    if not f.seats or not any(s.scores.count for s in f.seats):
        return None
    names = [f"seat {s.seat}" for s in f.seats]
    box = charts.boxes("scores", [(n, s.scores) for n, s in zip(names, f.seats) if s.scores.count], "final score")
    hist = charts.histogram("score-histogram", [(n, s.histogram) for n, s in zip(names, f.seats)],
                            "final score", "seats")
    table = _table(["seat", "mean", "5%", "25%", "median", "75%", "95%", "min", "max"],
                   [[s.seat] + [_num(x) for x in (s.scores.mean, s.scores.low, s.scores.q1, s.scores.median,
                                                  s.scores.q3, s.scores.high, s.scores.minimum, s.scores.maximum)]
                    for s in f.seats], "scores")
    return "scores", "Scores", (_figure("scores", "Final scores by seat", box,
                                        "Boxes from the first to the third quartile, whiskers at 5% and 95%, "
                                        "the mean a diamond.")
                                + _figure("score-histogram", "Distribution of final scores", hist) + table)


def _length(f: Figures):
    if not f.decisions.count:
        return None
    parts = [_figure("decisions", "Game length in decisions",
                     charts.histogram("decisions", [("decisions", f.decisions_histogram)], "decisions per game"))]
    rows = [["decisions"] + _summary(f.decisions)]
    if f.rounds.count:
        if len(f.rounds_histogram) > 1:  # else the table says it: every game had the same rounds
            parts.append(_figure("rounds", "Game length in rounds",
                                 charts.histogram("rounds", [("rounds", f.rounds_histogram)], "rounds per game")))
        rows.append(["rounds"] + _summary(f.rounds))
    table = _table(["length in", "games", "mean", "median", "5%", "95%", "min", "max"], rows, "length")
    return "length", "Game length", "".join(parts) + table


def _balance(f: Figures):
    if not f.completed:
        return None
    rows = [(name, *_ci(rate)) for name, rate in (("first player", f.first_seat),
                                                   ("leader at mid-game", f.midgame_leader),
                                                   ("average seat", f.average_seat)) if rate.n]
    chart = charts.rates("balance", rows, f.average_seat.rate, "average seat")
    figures = [("first-player", "first player's win rate", f.first_seat if f.first_seat.n else None),
               ("first-player-advantage", "first player's advantage over the average seat",
                Difference(f.first_seat, f.average_seat) if f.first_seat.n else None),
               ("draws", "games whose win rival sides shared", f.draws),
               ("no-winner", "games with no winner", f.no_winner),
               ("midgame-leader", "leader at mid-game who won", f.midgame_leader if f.midgame_leader.n else None),
               ("lead-changes", "lead changes per game (mean)", f.lead_changes.mean)]
    tiles = "".join(_tile(key, label, value) for key, label, value in figures if value is not None)
    parts = [f'<div class="tiles">{tiles}</div>',
             _figure("balance", "Who wins: the first player and the mid-game leader", chart,
                     "The first player is the seat that decided first; the mid-game leader the seat alone "
                     "with the highest score at half the game's decisions (games with no single leader left out).")]
    if len(f.lead_changes_histogram) > 1:  # one value: the tile says it
        parts.append(_figure("lead-changes", "Lead changes per game",
                             charts.histogram("lead-changes", [("lead changes", f.lead_changes_histogram)],
                                              "changes of the single leader in a game")))
    if len(f.first_seats) > 1:
        parts.append(_table(["seat that decided first", "games"], [[s, n] for s, n in f.first_seats],
                            "first-seats"))
    return "balance", "Balance", "".join(parts)


def _cards(f: Figures, top: int, min_plays: int):
    if not f.cards:
        return None
    compared = sorted((c for c in f.cards if c.compared), key=lambda c: (-c.played.value, c.card_id))
    cut = len(compared) > 2 * top
    shown = compared[:top] + compared[-top:] if cut else compared
    label = _card_labels(f.cards)
    parts = []
    if shown:
        chart = charts.differences("card-effect", [(label[c.card_id] + (" *" if c.discovery else ""), c.played.value,
                                                    *c.played.interval) for c in shown],
                                   "win rate when the seat played the card, minus when it did not",
                                   top if cut else None, f"{plural(len(compared) - 2 * top, 'card')} between")
        ends = "" if len(shown) == len(compared) else f": the {top} highest and the {top} lowest"
        parts.append(_figure("card-effect", f"Cards by effect on the win rate{ends}", chart,
                             f"{plural(len(compared), 'card')} played, and not played, by at least "
                             f"{min_plays} seats, each effect with its 95% interval clustered by game. "
                             "Coloured: the interval leaves out 0, the card taken alone; marked *: a discovery "
                             "over every card tested (a false discovery rate of 5%), which is what to trust "
                             "when many cards are looked at. The effect is a correlation: a card a leading "
                             "seat plays more often looks good without causing the lead."))
    elif not any(c.played.with_.n for c in f.cards):
        parts.append("<p>No card was played in these games (none entered an in-play zone of its seat): "
                     "there is no effect of playing one to show.</p>")
    else:
        parts.append(f"<p>No card was played, and not played, by at least {min_plays} seats: "
                     "too few games to compare cards.</p>")
    scoring = sorted((c for c in f.cards if c.points_per_game), key=lambda c: (-c.points_per_game, c.card_id))
    if scoring:
        parts.append(_figure("card-points", f"Points brought per game by the {plural(min(top, len(scoring)), 'card')}"
                                            " bringing the most",
                             charts.bars("card-points", [(label[c.card_id], c.points_per_game)
                                                         for c in scoring[:top]], "points per game")))
    tested = [c for c in f.cards if c.q_value is not None]
    if tested:
        found = [c for c in tested if c.discovery]
        parts.append(f"<p>{len(found)} of {plural(len(tested), 'card')} tested "
                     f"{'changes' if len(found) == 1 else 'change'} the win rate at a false discovery rate of 5% "
                     "(Benjamini-Hochberg; a card is tested when at least "
                     f"{min_plays} seats played it and as many did not)"
                     + (": " + ", ".join(_text(label[c.card_id]) for c in found) if found else "")
                     + ". Among such cards, at most 5% are expected to do nothing; tested one by one at 95%, "
                     f"about {max(1, round(0.05 * len(tested)))} would look as if they mattered by chance.</p>")
    table = _table(["card", "id", "taken", "played", "win rate played", "win rate not played", "difference",
                    "95% interval (clustered by game)", "q-value", "points per game", "mean pick"],
                   [[c.title + (" *" if c.discovery else ""), c.card_id, c.taken, c.played.with_.n,
                     _pct(c.played.with_.rate), _pct(c.played.without.rate), _pct(c.played.value, signed=True),
                     _interval(c.played), "–" if c.q_value is None else f"{c.q_value:.3f}",
                     _num(c.points_per_game), _num(c.mean_pick)]
                    for c in sorted(f.cards, key=lambda c: (-c.played.value if c.compared else 2, c.card_id))],
                   "cards")
    return "cards", "Cards", "".join(parts) + f"<details><summary>Every card</summary>{table}</details>"


def _offers(f: Figures, top: int):
    """The cards the bots passed over: offered at their decisions, seldom taken (play.weighing
    shows one such decision; this is every decision of the run)."""
    if not f.offers:
        return None
    rows = [[o.title, o.card_id, o.offered, _pct(o.taken.rate), _interval(o.taken), _pct(o.rated_best.rate)]
            for o in f.offers]
    headers = ["card", "id", "offered", "taken", "95% interval", "rated best"]
    shown = _table(headers, rows[:top], "offers")
    every = _table(headers, rows, "offers-all")
    return "offers", "What the bots passed over", (
        "<p>" + _text("At each decision of a greedy or search bot among several options, the cards the options "
                      "were about (a pick of a card, a menu option for it, one of its actions): how often the bot "
                      "took the option, and how often its own values rated it the best of its decision (greedy: "
                      "the heuristic one decision ahead, ties included; search: the most visited). A card "
                      "offered often and seldom taken is one the bot passes over; rated best but not taken, it "
                      "tied with others. regles why-bot shows one such decision option by option.") + "</p>"
        + shown + f"<details><summary>Every card offered</summary>{every}</details>")


def _labels(f: Figures):
    if not f.labels:
        return None
    chart = charts.rates("labels", [(lb.label, *_ci(lb.wins)) for lb in f.labels],
                         f.average_seat.rate, "average seat")
    table = _table(["label", "seats", "wins", "ties", "win rate", "95% interval", "mean score"],
                   [[lb.label, lb.wins.n, lb.wins.k, lb.ties, _pct(lb.wins.rate), _interval(lb.wins),
                     _num(lb.mean_score)] for lb in f.labels], "labels")
    return "labels", "Seat labels", (_figure("labels", "Win rate by seat label", chart,
                                             "The label the game gives each seat (what it played: a people, "
                                             "a power...), most played first.") + table)


def _errors(f: Figures):
    if not f.error_count:
        return None
    items = "".join(f"<li>game {_text(i)} (seed {_text(seed)}): <code>{_text(message)}</code></li>"
                    for i, seed, message in f.errors)
    more = f"<p>... and {f.error_count - len(f.errors)} more.</p>" if f.error_count > len(f.errors) else ""
    return "errors", "Errors", (f"<p>{plural(f.error_count, 'game')} ended on an error and "
                                f"{'is' if f.error_count == 1 else 'are'} left out of the figures.</p>"
                                f"<ul>{items}</ul>{more}")


def _runs(f: Figures):
    if len(f.runs) < 2:
        return None
    rows = [[run_id + (" (this report)" if run_id == f.run.get("run_id") else ""), started, game, games]
            for run_id, started, game, games in f.runs]
    return "runs", "Runs in this file", (_table(["run", "started", "game", "games"], rows, "runs")
                                         + "<p>Choose one with <code>regles report RESULTS --run RUN</code>.</p>")


# pieces ---------------------------------------------------------------------------------

STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: #222;
       max-width: 60rem; margin: 0 auto; padding: 1rem 1.5rem 3rem; line-height: 1.45; }
h1 { font-size: 1.6rem; margin-bottom: .5rem; }
h2 { font-size: 1.25rem; border-bottom: 2px solid #0072B2; padding-bottom: .2rem; margin-top: 2.5rem; }
nav ol { display: flex; flex-wrap: wrap; gap: .4rem 1.2rem; padding: 0; list-style: none; }
a { color: #0072B2; }
table { border-collapse: collapse; margin: .8rem 0; font-size: .85rem; font-variant-numeric: tabular-nums; }
th, td { padding: .2rem .6rem; border-bottom: 1px solid #ddd; text-align: left; vertical-align: top; }
td.num { text-align: right; white-space: nowrap; }
table.run th { text-align: left; color: #555; font-weight: normal; }
table.run td { text-align: left; overflow-wrap: anywhere; }
figure { margin: 1.2rem 0; break-inside: avoid; }
figcaption { font-weight: 600; }
figure p { margin: .2rem 0; color: #555; font-size: .85rem; }
svg.chart { width: 100%; height: auto; display: block; }
.tiles { display: flex; flex-wrap: wrap; gap: .8rem; margin: 1rem 0; }
.tile { border: 1px solid #ddd; border-radius: 6px; padding: .5rem .8rem; min-width: 10rem; }
.tile .value { font-size: 1.4rem; font-weight: 600; display: block; }
.tile .label { color: #555; font-size: .8rem; }
details summary { cursor: pointer; color: #0072B2; }
code { overflow-wrap: anywhere; }
footer { margin-top: 3rem; color: #666; font-size: .8rem; }
@media print {
  body { max-width: none; padding: 0; }
  nav { display: none; }
}
"""


def _text(value) -> str:
    """A value of content as HTML text: control characters shown as escapes, markup escaped."""
    return html.escape(printable("" if value is None else value))


def _figure(anchor: str, title: str, svg: str, note: str = "") -> str:
    note = f"<p>{_text(note)}</p>" if note else ""
    return f'<figure id="chart-{anchor}">\n<figcaption>{_text(title)}</figcaption>\n{note}{svg}\n</figure>\n'


def _table(headers: list, rows: list, name: str) -> str:
    """A table: each cell a value, or (shown, value) for a number shown rounded."""
    head = "".join(f"<th>{_text(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(_cell(c) for c in row) + "</tr>" for row in rows)
    return f'<table id="table-{name}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _cell(cell) -> str:
    if isinstance(cell, tuple):
        shown, value = cell
        data = "" if value is None else f' data-value="{_text(_exact(value))}"'
        return f'<td class="num"{data}>{_text(shown)}</td>'
    if isinstance(cell, (int, float)) and not isinstance(cell, bool):
        return f'<td class="num" data-value="{_exact(cell)}">{_text(cell)}</td>'
    return f"<td>{_text(cell)}</td>"


def _tile(key: str, label: str, value) -> str:
    if isinstance(value, Rate):
        low, high = value.interval
        shown, exact, sub = _pct(value.rate)[0], value.rate, f"{_pct(low)[0]} – {_pct(high)[0]}"
    elif isinstance(value, Difference):
        low, high = value.interval
        shown, exact = _pct(value.value, signed=True)[0], value.value
        sub = f"{_pct(low, signed=True)[0]} – {_pct(high, signed=True)[0]}"
    else:
        shown, exact, sub = f"{value:.2f}", value, ""
    sub = f' <span class="label">({_text(sub)})</span>' if sub else ""
    data = "" if exact is None else f' data-value="{_exact(exact)}"'
    return (f'<div class="tile" id="tile-{key}"><span class="value"{data}>{_text(shown)}</span>'
            f'<span class="label">{_text(label)}</span>{sub}</div>')


def _ci(rate: Rate) -> tuple:
    low, high = rate.interval
    return rate.rate, low, high


def _pct(x, signed: bool = False) -> tuple:
    if x is None:
        return ("–", None)
    return (f"{100 * x:+.1f}%" if signed else f"{100 * x:.1f}%", x)


def _interval(r) -> tuple:
    low, high = r.interval
    signed = isinstance(r, Difference)
    return (f"{_pct(low, signed)[0]} – {_pct(high, signed)[0]}", None)


def _num(x) -> tuple:
    return ("–", None) if x is None else (f"{x:.2f}", x)


def _summary(s) -> list:
    return [s.count] + [_num(x) for x in (s.mean, s.median, s.low, s.high, s.minimum, s.maximum)]


def _exact(x) -> str:
    return repr(float(x)) if isinstance(x, float) else str(x)


def _when(at) -> str | None:
    """A moment to the second (a run's start is no more precise than that to a reader)."""
    return at.isoformat(sep=" ", timespec="seconds") if hasattr(at, "isoformat") else at


def _listed(values) -> str | None:
    return ", ".join(printable(v) for v in values) if values else None


def _options(text) -> str | None:
    """The run's options (a JSON object) as KEY=VALUE, or as written when it is not one."""
    if not text:
        return None
    try:
        options = json.loads(text)
    except (TypeError, ValueError):
        return str(text)
    if not isinstance(options, dict):
        return str(text)
    return ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in options.items()) or None


def _card_labels(cards: list) -> dict:
    """Each card's label in the charts: its title, and its id too when another card has that title."""
    titles: dict = {}
    for c in cards:
        titles.setdefault(c.title, set()).add(c.card_id)
    return {c.card_id: c.title if len(titles[c.title]) == 1 else f"{c.title} ({c.card_id})" for c in cards}
