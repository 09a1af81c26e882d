"""`regles report`: the results of `simulate --results` as one HTML page of charts.

The figures are read with SQL (`queries`), drawn with matplotlib as inline SVG (`charts`)
and laid out in a page that needs nothing but itself (`page`). DuckDB and matplotlib are
the `report` extra of the package: only this command imports them, and `MissingExtra`
says so when they are absent.
"""
from __future__ import annotations

import importlib

from ...content.folders import shipped_games
from ...content.model import in_language
from ...content.source import data_of
from ...resources import content_dir
from . import page, queries
from .queries import ResultsError, UnknownRun

__all__ = ["MissingExtra", "ResultsError", "UnknownRun", "require", "require_charts", "write_report",
           "write_sequential"]

NEEDED = ("duckdb", "matplotlib", "statsmodels", "scipy")


class MissingExtra(Exception):
    """A package of the `report` extra is not installed."""


def require() -> None:
    """MissingExtra unless the packages the report needs can be imported."""
    missing = []
    for name in NEEDED:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    if missing:
        raise MissingExtra(f"the HTML report needs {' and '.join(missing)}: pip install 'regles[report]'")


def require_charts() -> None:
    """MissingExtra unless matplotlib, which draws the page of a comparison, can be imported:
    asked before the games are played, not after."""
    try:
        importlib.import_module("matplotlib")
    except ImportError:
        raise MissingExtra("the page of a comparison needs matplotlib: pip install 'regles[report]'") from None


def write_sequential(summary: dict, out: str) -> None:
    """Write the page of a comparison run until decided (`compare --until-decided --html`):
    its decision and the path of each figure's log-likelihood ratios. OSError when it cannot."""
    require_charts()
    text = page.sequential(summary)
    with open(out, "w", encoding="utf-8", newline="\n") as stream:
        stream.write(text)


def write_report(results: str, out: str, run_id: str | None = None, top: int = 10, min_plays: int = 30):
    """Write the report of run `run_id` (the latest when None) of the results file `results`
    to `out`; the figures it shows. ResultsError, UnknownRun or OSError when it cannot."""
    require()
    con = queries.connect(results)
    try:
        figures = queries.read(con, run_id, min_plays)
    finally:
        con.close()
    text = page.build(figures, top, min_plays, title=shipped_title(figures.run.get("game")))
    with open(out, "w", encoding="utf-8", newline="\n") as stream:
        stream.write(text)
    return figures


def shipped_title(game) -> str | None:
    """The title of a shipped game by its name (its folder's: 'market-day' for 'Market Day'); None
    for any other. A results file only names its game: the title is read from
    the shipped content, never from a folder the file names."""
    if not isinstance(game, str) or game not in shipped_games():
        return None
    data = data_of(content_dir() / game / "game.yaml")
    return (in_language(data.get("title"), "en") or None) if isinstance(data, dict) else None

