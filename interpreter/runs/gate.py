"""A balance gate for a designer's CI (`regles balance`): today's content against a baseline.

`--write-baseline FILE` plays a run and keeps, for each game, who won, how long it was and
the seats' labels, with the effects of the cards flagged (`--card`) and the run's settings.
`--baseline FILE` plays the same run again (the same seeds, bots and options) on the content
as it is now and compares, game by game:

- each seat's win rate, and the share of games won by a seat of each label of the game's
  seat report: Newcombe's interval for paired proportions (the games of both runs share
  their seeds, so each figure is a paired difference);
- the game length in decisions: the normal interval of the paired per-game differences;
- each flagged card's effect on its seats' win rate (`results.cards`): the difference of the
  two clustered effects, with the errors of both.

A figure *moves* when its interval leaves out 0. The intervals are at a level corrected for
the number of figures (Bonferroni), so that content that changes nothing the games can show
fails the gate at most 5% of the time however many figures it has; content that changes
nothing at all plays the very same games and never fails. A baseline is untrusted input:
one that does not read as a baseline is said so, never raised.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

from ..diagnostics import plural
from ..play.agents import parse_agents
from ..view.shown import WordTable, text
from .compare import figures_won, paired_games
from .simulate import GameResult
from .statistics import Z95, mean_interval, paired_cells, paired_difference

FORMAT = "regles balance baseline"
VERSION = 1
ALPHA = 0.05  # the chance that content changing nothing fails the gate, over all its figures
MAX_GAMES = 1_000_000


class BaselineError(ValueError):
    """A file that does not read as a baseline, or one of another game."""


@dataclass
class Moved:
    """One figure compared: its value in the baseline and now, the difference's interval."""
    figure: str
    before: float | None
    now: float | None
    difference: float | None
    low: float | None
    high: float | None

    @property
    def moved(self) -> bool:
        return self.low is not None and (self.low > 0 or self.high < 0)


def baseline(game_id: str, settings: dict, results: list, card_effects: dict) -> dict:
    """The baseline of a run: its settings (what `regles balance` plays again), each game's
    index, winners, length and labels (an error: null), and the flagged cards' effects
    (id -> [effect, low, high])."""
    return {"format": FORMAT, "version": VERSION, "game": game_id, "settings": settings,
            "games": [[r.index, None if r.error is not None else list(r.winners or []), r.decisions,
                       [None if x is None else str(x) for x in r.labels]] for r in results],
            "cards": card_effects}


def read(data, game_id: str) -> dict:
    """The baseline `data` (parsed JSON) checked: BaselineError says what is wrong with it."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BaselineError("not a balance baseline (written by regles balance --write-baseline)")
    if data.get("version") != VERSION:
        raise BaselineError(f"a baseline of version {data.get('version')!r}; this regles reads version {VERSION}: "
                            "write it again with --write-baseline")
    if data.get("game") != game_id:
        raise BaselineError(f"a baseline of {data.get('game')!r}, not of {game_id!r}")
    settings, games, cards = data.get("settings"), data.get("games"), data.get("cards")
    if not isinstance(settings, dict) or not isinstance(games, list) or not isinstance(cards, dict):
        raise BaselineError("its settings, games or cards are missing")
    if not 0 < len(games) <= MAX_GAMES:
        raise BaselineError(f"it holds {len(games)} games (1 to {MAX_GAMES:,})")
    for row in games:
        if not (isinstance(row, list) and len(row) == 4 and _whole(row[0]) and _whole(row[2])
                and (row[1] is None or (isinstance(row[1], list) and all(_whole(s) for s in row[1])))
                and isinstance(row[3], list) and all(x is None or isinstance(x, str) for x in row[3])):
            raise BaselineError(f"a game row that does not read: {str(row)[:80]}")
    for card, effect in cards.items():
        if not (isinstance(effect, list) and len(effect) == 3
                and all(x is None or isinstance(x, (int, float)) for x in effect)):
            raise BaselineError(f"the effect of card {str(card)[:40]!r} does not read")
    return data


def settings_of(data: dict, game, layers: dict) -> dict:
    """The run a baseline `data` (read) asks to play again on `game` laid with `layers` (what
    `simulate.laid_of` gives, without the cards left out): players, bots, options, seed, games,
    powers. BaselineError when it was written with other layers or its settings do not read."""
    settings = data["settings"]
    if {k: settings.get(k, [] if k == "settings" else None) for k in layers} != layers:
        raise BaselineError(f"it was written with {layers_text(settings)}, not {layers_text(layers)}: give the "
                            "same expansions, scenario, mods and values set")
    try:
        players = int(settings["players"])
        run = {"players": players, "agents": parse_agents(",".join(settings["agents"]), players),
               "options": game.options({str(k): str(v) for k, v in settings["options"].items()}),
               "seed": int(settings["seed"]), "games": int(settings["games"]),
               "powers": settings["powers"] if settings["powers"] == "random" else
               {int(k): str(v) for k, v in settings["powers"].items()}}
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise BaselineError(f"its settings do not read ({exc})") from None
    if not game.min_players <= players <= game.max_players or run["games"] != len(data["games"]):
        raise BaselineError(f"its settings do not read (players {players}, games {run['games']} for "
                            f"{len(data['games'])} rows)")
    return run


def layers_text(layers: dict) -> str:
    """What a run lays over its game, as the options that lay it."""
    parts = [f"-x {x}" for x in layers.get("expansions") or []] + \
        ([f"--scenario {layers['scenario']}"] if layers.get("scenario") else []) + \
        [f"--with {m}" for m in layers.get("mods") or []] + \
        [f"--set {card}.{attribute}={value}" for card, attribute, value in layers.get("settings") or []]
    return " ".join(parts) if parts else "no expansion, scenario, mod or value set"


def results_of(data: dict) -> list:
    """The games of a baseline as the results of a run (`simulate.GameResult`)."""
    return [GameResult(index, 0, winners, [], decisions, None if winners is not None else {"message": "failed"},
                       labels=labels) for index, winners, decisions, labels in data["games"]]


def compare_runs(base_game, players: int, data: dict, results: list, card_effects: dict) -> list:
    """Every figure of the baseline `data` against the run `results` of today (`Moved`s)."""
    pairs = paired_games(results_of(data), results)
    won = [(figures_won(base_game, players, a), figures_won(base_game, players, b)) for a, b in pairs]
    names = list(dict.fromkeys(name for wa, wb in won for name in [*wa, *wb]))
    flagged = [c for c in data["cards"] if c in card_effects]
    z = NormalDist().inv_cdf(1 - ALPHA / (2 * (len(names) + 1 + len(flagged))))
    n = len(pairs)
    out = []
    for name in names:
        cells = paired_cells([wa.get(name, 0) for wa, _ in won], [wb.get(name, 0) for _, wb in won])
        d, low, high = paired_difference(*cells, z)
        out.append(Moved(f"win rate, {name}", (cells[0] + cells[1]) / n if n else None,
                         (cells[0] + cells[2]) / n if n else None, d, low, high))
    lengths = [b.decisions - a.decisions for a, b in pairs]
    out.append(Moved("decisions per game", _mean([a.decisions for a, _ in pairs]),
                     _mean([b.decisions for _, b in pairs]), *mean_interval(lengths, z)))
    for card in flagged:
        d0, lo0, hi0 = data["cards"][card]
        d1, lo1, hi1 = card_effects[card]
        if None in (d0, lo0, hi0, d1, lo1, hi1):
            out.append(Moved(f"effect of {card}", d0, d1, None, None, None))
            continue
        se = math.hypot((hi0 - lo0) / (2 * Z95), (hi1 - lo1) / (2 * Z95))
        out.append(Moved(f"effect of {card}", d0, d1, d1 - d0, d1 - d0 - z * se, d1 - d0 + z * se))
    return out


def _mean(xs: list):
    return sum(xs) / len(xs) if xs else None


def _whole(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def render(figures: list, console) -> None:
    """The figures compared, as a table, and how many moved."""
    t = WordTable(title=text("today against the baseline"), title_justify="left")
    for name, justify in (("figure", "left"), ("baseline", "right"), ("now", "right"), ("difference", "right"),
                          ("interval", "right"), ("", "left")):
        t.add_column(text(name), justify=justify, overflow="fold")
    for f in figures:
        rate = f.figure.startswith("win rate") or f.figure.startswith("effect")
        show = (lambda x: "–" if x is None else f"{100 * x:.1f}%") if rate else \
            (lambda x: "–" if x is None else f"{x:.1f}")
        diff = (lambda x: "–" if x is None else f"{100 * x:+.1f}") if rate else \
            (lambda x: "–" if x is None else f"{x:+.1f}")
        t.add_row(*map(text, [f.figure, show(f.before), show(f.now), diff(f.difference),
                              "–" if f.low is None else f"{diff(f.low)} … {diff(f.high)}",
                              "MOVED" if f.moved else "ok"]))
    console.print(t)
    moved = [f.figure for f in figures if f.moved]
    console.print(text(f"{len(moved)} of {plural(len(figures), 'figure')} moved beyond its interval"
                       + (f": {', '.join(moved)}" if moved else "")
                       + f" (intervals corrected for {plural(len(figures), 'figure')}: content that changes nothing "
                         f"the games show fails at most {ALPHA:g} of the time)"), soft_wrap=True)
