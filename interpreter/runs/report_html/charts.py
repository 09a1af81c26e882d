"""The charts of the HTML report, drawn with matplotlib as SVG text to put inline in the page.

Each function takes plain figures and gives one chart's `<svg>` element: no file, no script,
no link outside it, the ids inside made its own (prefixed with the chart's name) so that
several charts live in one page. Text is kept as text (selectable, searchable, sharp when
printed); matplotlib escapes it for XML, and its mathematical notation is off, so that a
title of content holding '$' or '<' is drawn as it is written. The output is reproducible:
the same figures give the same bytes.
"""
from __future__ import annotations

import functools
import io
import re

from ...diagnostics import printable

# Okabe and Ito's palette: told apart by readers with any common colour blindness, and in grey
BLUE, ORANGE, GREEN, VERMILION, SKY, PURPLE, YELLOW, GREY = (
    "#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9", "#CC79A7", "#F0E442", "#777777")
SERIES = (BLUE, ORANGE, GREEN, VERMILION, PURPLE, SKY, YELLOW, GREY)
WIDTH = 7.5  # inches: the page's column
STYLE = {
    "svg.fonttype": "none",  # text stays text
    "svg.hashsalt": "regles",  # ids from a fixed salt: the same figures give the same file
    "text.parse_math": False,  # '$' in a card's title is a dollar sign
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans", "Arial", "Helvetica"],
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.titlesize": 10,
    "axes.titleweight": "bold",
    "axes.titlelocation": "left",
}


def short(text, limit: int = 38) -> str:
    """A label fit for an axis: printable, and cut with an ellipsis when long."""
    text = printable(text)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _styled(draw):
    """`draw` run in the report's style (matplotlib reads it as the figure is made and saved),
    which is left as it was after."""
    @functools.wraps(draw)
    def drawn(*args, **kwargs):
        import matplotlib
        with matplotlib.rc_context(STYLE):
            return draw(*args, **kwargs)
    return drawn


@_styled
def rates(name: str, rows: list, baseline: float | None = None, baseline_label: str = "",
          xlabel: str = "win rate") -> str:
    """Rates with their 95% intervals, one bar a row (label, rate, low, high), top to bottom,
    each bar's value written beside it; a dashed line at `baseline` when given."""
    fig, ax = _figure(len(rows))
    ys = list(range(len(rows)))[::-1]
    values = [r[1] or 0.0 for r in rows]
    ax.barh(ys, values, color=BLUE, alpha=0.85, height=0.6)
    ax.errorbar(values, ys, xerr=_errors(rows), fmt="none", ecolor="black", elinewidth=1, capsize=3)
    for y, (_, rate, _, high) in zip(ys, rows):
        ax.annotate("–" if rate is None else f"{100 * rate:.1f}%", (high, y), xytext=(4, 0),
                    textcoords="offset points", va="center", fontsize=8)
    if baseline is not None:  # named above the plot, where no bar or figure is
        ax.axvline(baseline, color=VERMILION, linestyle="--", linewidth=1)
        ax.annotate(f"{baseline_label} {100 * baseline:.1f}%".strip(), (baseline, 1), xycoords=("data", "axes fraction"),
                    xytext=(0, 2), textcoords="offset points", ha="center", va="bottom", fontsize=8, color=VERMILION)
    ax.set_yticks(ys, [short(r[0]) for r in rows])
    ax.set_xlim(0, min(1.0, max([r[3] for r in rows] + [baseline or 0]) * 1.15 + 0.02))
    ax.xaxis.set_major_formatter(_percent())
    ax.set_xlabel(xlabel + " (bars: 95% intervals)")
    return _svg(fig, name)


@_styled
def differences(name: str, rows: list, xlabel: str, gap_after: int | None = None, gap_label: str = "") -> str:
    """Differences with their 95% intervals, a dot a row (label, value, low, high), around a
    line at zero: green when the interval is above it, vermilion when below, grey across it.
    With `gap_after`, a dotted line after that many rows says that rows were left out there."""
    fig, ax = _figure(len(rows) + (gap_after is not None))
    ys = [len(rows) - i - (gap_after is not None and i >= gap_after) for i in range(len(rows))]
    if gap_after is not None:
        y = len(rows) - gap_after
        ax.axhline(y, color=GREY, linestyle=":", linewidth=1)
        ax.annotate(gap_label, (0, y), xycoords=("axes fraction", "data"), xytext=(4, 2), textcoords="offset points",
                    va="bottom", fontsize=8, color=GREY)
    colours = [GREEN if low > 0 else VERMILION if high < 0 else GREY for _, _, low, high in rows]
    ax.axvline(0, color="black", linewidth=0.8)
    for y, (_, value, low, high), colour in zip(ys, rows, colours):
        ax.errorbar([value], [y], xerr=[[value - low], [high - value]], fmt="o", color=colour,
                    ecolor=colour, elinewidth=1.5, capsize=3, markersize=5)
        ax.annotate(f"{100 * value:+.1f}", (high, y), xytext=(4, 0), textcoords="offset points",
                    va="center", fontsize=8)
    ax.set_yticks(ys, [short(r[0]) for r in rows])
    ax.xaxis.set_major_formatter(_percent(signed=True))
    ax.set_xlabel(xlabel)
    return _svg(fig, name)


@_styled
def bars(name: str, rows: list, xlabel: str) -> str:
    """Plain values, a bar a row (label, value), top to bottom, each written beside its bar."""
    fig, ax = _figure(len(rows))
    ys = list(range(len(rows)))[::-1]
    values = [v for _, v in rows]
    ax.barh(ys, values, color=ORANGE, height=0.6)
    for y, v in zip(ys, values):
        ax.annotate(f"{v:.2f}", (v, y), xytext=(4, 0), textcoords="offset points", va="center", fontsize=8)
    ax.set_yticks(ys, [short(r[0]) for r in rows])
    ax.set_xlim(0, max(values + [0]) * 1.15 or 1)
    ax.set_xlabel(xlabel)
    return _svg(fig, name)


@_styled
def boxes(name: str, rows: list, ylabel: str) -> str:
    """Distributions side by side (label, Stats): the box from the first to the third quartile,
    the median a line across it, the whiskers at 5% and 95%, the mean a diamond."""
    fig = _new(WIDTH, 3.2)
    ax = fig.add_subplot()
    stats = [{"label": short(label, 16), "med": s.median, "q1": s.q1, "q3": s.q3, "whislo": s.low,
              "whishi": s.high, "mean": s.mean, "fliers": []} for label, s in rows]
    ax.bxp(stats, showmeans=True, patch_artist=True, widths=0.5,
           boxprops={"facecolor": SKY, "alpha": 0.8}, medianprops={"color": "black"},
           meanprops={"marker": "D", "markerfacecolor": VERMILION, "markeredgecolor": "white"})
    ax.set_ylabel(ylabel)
    return _svg(fig, name)


@_styled
def histogram(name: str, series: list, xlabel: str, ylabel: str = "games") -> str:
    """How often each value came (series: (label, [(value, count)])): bars for one series,
    steps over the same bins for several (so that they can be compared). Values are binned
    when there are many of them."""
    from matplotlib.ticker import MaxNLocator
    fig = _new(WIDTH, 2.8)
    ax = fig.add_subplot()
    values = sorted({v for _, counts in series for v, _ in counts})
    if not values:
        ax.text(0.5, 0.5, "no value", ha="center", va="center", transform=ax.transAxes)
        return _svg(fig, name)
    edges = _edges(values)
    for i, (label, counts) in enumerate(series):
        xs, ws = [v for v, _ in counts], [n for _, n in counts]
        if len(series) == 1:
            ax.hist(xs, bins=edges, weights=ws, color=BLUE, alpha=0.85, rwidth=0.9)
        else:
            ax.hist(xs, bins=edges, weights=ws, histtype="step", linewidth=1.6,
                    color=SERIES[i % len(SERIES)], label=short(label, 24))
    if len(series) > 1:
        ax.legend(fontsize=8, frameon=False)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # counts of games
    if all(float(v).is_integer() for v in values):
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # whole decisions, rounds, changes
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    return _svg(fig, name)


@_styled
def paths(name: str, series: list, bounds: tuple, xlabel: str, ylabel: str) -> str:
    """Lines of values over a shared x (series: (label, [(x, y)])), with the two `bounds`
    (lower, upper) drawn as dashed lines across: the path of a sequential test."""
    fig = _new(WIDTH, 3.2 + 0.18 * ((len(series) + 2) // 3))
    ax = fig.add_subplot()
    for i, (label, points) in enumerate(series):
        # past the palette's colours, the same colours again in dashes: no two lines alike
        ax.plot([x for x, _ in points], [y for _, y in points], marker="o", markersize=2.5, linewidth=1.4,
                color=SERIES[i % len(SERIES)], linestyle="-" if i < len(SERIES) else "--", label=short(label, 30))
    lower, upper = bounds
    ax.axhline(upper, color=GREY, linestyle="--", linewidth=1)
    ax.axhline(lower, color=GREY, linestyle="--", linewidth=1)
    ax.annotate("a change", (0, upper), xycoords=("axes fraction", "data"), xytext=(2, 3),
                textcoords="offset points", fontsize=8, color=GREY)
    ax.annotate("no change", (0, lower), xycoords=("axes fraction", "data"), xytext=(2, -10),
                textcoords="offset points", fontsize=8, color=GREY)
    if series:  # below the chart: a legend inside would hide the lines or the bounds
        fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncol=3, fontsize=7, frameon=False)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    return _svg(fig, name)


# drawing --------------------------------------------------------------------------------

def _new(width: float, height: float):
    from matplotlib.figure import Figure  # not pyplot: no window, no global figure to close
    return Figure(figsize=(width, height), layout="constrained")


def _figure(rows: int):
    fig = _new(WIDTH, 0.7 + 0.32 * max(rows, 1))
    return fig, fig.add_subplot()


def _errors(rows: list) -> list:
    return [[max(0.0, (r[1] or 0.0) - r[2]) for r in rows], [max(0.0, r[3] - (r[1] or 0.0)) for r in rows]]


def _percent(signed: bool = False):
    from matplotlib.ticker import FuncFormatter
    return FuncFormatter(lambda x, _: f"{100 * x:+.0f}%" if signed and x else f"{100 * x:.0f}%")


def _edges(values: list) -> list:
    """Bin edges: one bin per whole value when they are whole and few, else about 30 bins."""
    lo, hi = values[0], values[-1]
    if all(float(v).is_integer() for v in values) and hi - lo <= 60:
        return [lo - 0.5 + i for i in range(int(hi - lo) + 2)]
    step = (hi - lo) / 30 or 1
    return [lo + i * step for i in range(31)]


_XML_HEAD = re.compile(r"\A.*?(?=<svg\b)", re.S)
_METADATA = re.compile(r"\s*<metadata>.*?</metadata>", re.S)
_IDS = re.compile(r'(\bid="|url\(#|href="#)([^"()]+)')


def _svg(fig, name: str) -> str:
    """The figure as an `<svg>` element for the page: no XML prolog, no metadata (which
    names outside addresses), its ids prefixed with `name`, its size following the page."""
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None, "Format": None, "Type": None})
    text = _METADATA.sub("", _XML_HEAD.sub("", buffer.getvalue()))
    text = _IDS.sub(lambda m: f"{m.group(1)}{name}-{m.group(2)}", text)
    return text.replace("<svg ", f'<svg class="chart" role="img" aria-label="{name}" ', 1)
