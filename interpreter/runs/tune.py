"""Tuning a number to a target (`regles tune`): the value of one card's attribute searched,
with common random numbers, until a figure of the games meets a target.

A designer names a card's attribute and a range of whole numbers (`--set goblin.cost=0..5`)
and a target, one of:

- `seat win rates within D points of even`: every seat's win rate within D points of its
  side's even share (1/players, or 1/teams);
- `LABEL win rates within D points of even`: the same for each value of the game's seat
  label (`report_seats_by`, whose title names it: "faction win rates ...") or, with
  `--power random`, for each personal power ("power win rates ...");
- `card effect within [A, B]` (points): the effect of the card tuned on its seats' win rate,
  clustered by game (`results.cards`), or `effect of CARD within [A, B]` for another card;
- `mean length A to B decisions`.

Each value tried plays the same games (the same seeds and bots: common random numbers), so
two values differ by what the value changes, not by the luck of the draw. The search is a
noisy bisection on the slope of the *miss* (how far the figure is from the target's centre:
the largest deviation from even, or the distance to the middle of the range): at the middle
`m` of the values left, `m` and `m + 1` are played and the half whose side is lower is kept,
until one value is left; a value played once is never played again. It assumes the miss has
one valley over the range (a figure that moves one way as the value grows), which is what a
designer's number does; the report shows every value tried, so a range where it does not is
seen. The value chosen is the tried value of least miss; it *meets* the target when its
figure does, and meets it *surely* when the figure's 95% interval lies within the target too.
"""
from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field

from ..diagnostics import plural
from ..view.shown import WordTable, text
from .report_text import outcome
from .results import cards
from .statistics import mean_interval, wilson

MAX_VALUES = 10_000  # the widest range of values searched: a bound on what a user may type


class TargetError(ValueError):
    """A target that does not read, or that the game cannot measure."""


class Aim(enum.Enum):
    """The figure a target reads."""
    SEATS = "seat win rates"
    LABELS = "seat label win rates"
    POWERS = "power win rates"
    EFFECT = "a card's effect"
    LENGTH = "mean length"

    @property
    def rates(self) -> bool:
        return self in (Aim.SEATS, Aim.LABELS, Aim.POWERS)


@dataclass(frozen=True)
class Target:
    """What a tune aims at (`aim`); for the win rates, `points` from even; for an effect or a
    length, the range [low, high] (points, decisions)."""
    aim: Aim
    text: str
    points: float = 0.0
    low: float = 0.0
    high: float = 0.0
    card: str | None = None  # the card whose effect is aimed at (None: the card tuned)

    @property
    def needs_facts(self) -> bool:
        """Whether the games must record what each card did (a card's effect)."""
        return self.aim is Aim.EFFECT


_NUMBER = r"[+-]?\d+(?:\.\d+)?"
_RATES = re.compile(rf"^\s*(?P<who>[\w' -]+?)\s+win\s+rates?\s+within\s+(?P<d>{_NUMBER})\s+points?\s+of\s+even\s*$", re.I)
_EFFECT = re.compile(rf"^\s*(?:card\s+effect|effect\s+of\s+(?P<card>[\w.-]+))\s+within\s+\[\s*(?P<a>{_NUMBER})\s*,"
                     rf"\s*(?P<b>{_NUMBER})\s*\]\s*$", re.I)
_LENGTH = re.compile(rf"^\s*mean\s+length\s+(?P<a>{_NUMBER})\s+to\s+(?P<b>{_NUMBER})(?:\s+decisions?)?\s*$", re.I)
EXAMPLES = ('"seat win rates within 2 points of even"', '"faction win rates within 5 points of even"',
            '"card effect within [-2, 2]"', '"mean length 40 to 60 decisions"')


def parse_target(text: str, label_title: str | None) -> Target:
    """The target `text` as typed; `label_title` is the title of the game's seat label (None:
    it has none). TargetError says what does not read."""
    t = str(text)
    if m := _RATES.match(t):
        who, d = m.group("who").strip().lower(), float(m.group("d"))
        if d < 0:
            raise TargetError(f"--target: {d:g} points: a distance from even is not negative")
        if who in ("seat", "seats"):
            return Target(Aim.SEATS, t, points=d)
        if who in ("power", "powers", "personal power"):
            return Target(Aim.POWERS, t, points=d)
        if label_title is not None and who in (label_title.lower(), "label", "labels"):
            return Target(Aim.LABELS, t, points=d)
        raise TargetError(f"--target: '{who}' win rates: this game reports seats by "
                          + (f"'{label_title.lower()}'" if label_title else "nothing but their seat")
                          + "; say 'seat win rates'" + (f" or '{label_title.lower()} win rates'" if label_title else ""))
    if m := _EFFECT.match(t):
        a, b = float(m.group("a")), float(m.group("b"))
        if a > b:
            raise TargetError(f"--target: [{a:g}, {b:g}] is empty: give the lower bound first")
        return Target(Aim.EFFECT, t, low=a, high=b, card=m.group("card"))
    if m := _LENGTH.match(t):
        a, b = float(m.group("a")), float(m.group("b"))
        if a > b:
            raise TargetError(f"--target: {a:g} to {b:g} is empty: give the lower bound first")
        return Target(Aim.LENGTH, t, low=a, high=b)
    raise TargetError(f"--target: '{t[:80]}' does not read; write one of " + ", ".join(EXAMPLES))


def parse_range(text: str) -> tuple:
    """(card, attribute, low, high) of `CARD.ATTRIBUTE=LO..HI`; ValueError when it is not."""
    name, eq, span = str(text).partition("=")
    card, dot, attribute = name.strip().rpartition(".")
    m = re.fullmatch(r"\s*([+-]?\d{1,12})\s*\.\.\s*([+-]?\d{1,12})\s*", span)
    if not eq or not dot or not card or not attribute or m is None:
        raise ValueError(f"--set {str(text)[:60]}: write CARD.ATTRIBUTE=LO..HI (for example goblin.cost=0..5)")
    low, high = int(m.group(1)), int(m.group(2))
    if low >= high:
        raise ValueError(f"--set {str(text)[:60]}: {low}..{high} holds no two values: give the lower one first")
    if high - low + 1 > MAX_VALUES:
        raise ValueError(f"--set {str(text)[:60]}: {high - low + 1:,} values, more than {MAX_VALUES:,}")
    return card.strip(), attribute.strip(), low, high


@dataclass
class Trial:
    """One value played: the figure the target reads (a deviation from even in points, an
    effect in points, a length in decisions), its 95% interval, and the miss searched on."""
    value: int
    games: int
    figure: float | None
    low: float | None
    high: float | None
    miss: float  # the distance from the target's centre: the search's objective (inf: no figure)
    meets: bool
    surely: bool
    detail: list = field(default_factory=list)  # (name, rate, low, high) of each seat or label
    even: float | None = None  # a win rate target's even share (1/players, or 1/teams)

    def as_json(self) -> dict:
        return {"value": self.value, "games": self.games, "figure": self.figure, "low": self.low,
                "high": self.high, "meets": self.meets, "surely": self.surely,
                "rates": [{"name": n, "rate": r, "low": lo, "high": hi} for n, r, lo, hi in self.detail],
                **({"even": self.even} if self.even is not None else {})}


def measure(target: Target, results: list, players: int, team_of: list, value: int, tuned_card: str) -> Trial:
    """The figure of `target` over a run's `results` (`simulate.GameResult`s) for `value`."""
    done = [r for r in results if r.error is None]
    if target.aim.rates:
        rows = _rates(target.aim, done, players, team_of)
        even = 1 / len(set(team_of))
        if not rows:
            return Trial(value, len(done), None, None, None, float("inf"), False, False)
        name, rate, low, high = max(rows, key=lambda row: (abs(row[1] - even), row[0]))
        worst = 100 * abs(rate - even)
        # the interval of the seat (or label) farthest from even, as a distance from even
        far = max(abs(low - even), abs(high - even)) * 100
        near = 0.0 if low <= even <= high else min(abs(low - even), abs(high - even)) * 100
        return Trial(value, len(done), worst, near, far, worst, worst <= target.points,
                     all(max(abs(lo - even), abs(hi - even)) * 100 <= target.points for _, _, lo, hi in rows),
                     rows, even)
    centre = (target.low + target.high) / 2
    if target.aim is Aim.LENGTH:
        mean, low, high = mean_interval([r.decisions for r in done])
    else:
        card = target.card or tuned_card
        row = next((row for row in cards.effects(done, players, team_of) if row["card"] == card), None)
        mean, low, high = ((100 * row["effect"], 100 * row["effect_low"], 100 * row["effect_high"])
                           if row is not None and row["effect"] is not None else (None, None, None))
    if mean is None:
        return Trial(value, len(done), None, None, None, float("inf"), False, False)
    inside = target.low <= mean <= target.high
    surely = low is not None and target.low <= low and high <= target.high
    return Trial(value, len(done), mean, low, high, abs(mean - centre), inside, surely)


def _rates(aim: Aim, done: list, players: int, team_of: list) -> list:
    """(name, win rate, low, high) of each seat, each seat label or each power over the games."""
    wins: dict = {}
    for r in done:
        end, winners = outcome(r.winners, team_of)
        for s in range(players):
            if aim is Aim.SEATS:
                name = f"seat {s + 1}"
            elif aim is Aim.LABELS:
                name = r.labels[s] if s < len(r.labels) else None
            else:
                name = r.powers.get(s + 1)
            if name is None:
                continue
            k = wins.setdefault(str(name), [0, 0])
            k[0] += 1 if end == "won" and s in winners else 0
            k[1] += 1
    return [(name, w / n, *wilson(w, n)) for name, (w, n) in sorted(wins.items()) if n]


def search(low: int, high: int, play) -> tuple:
    """The noisy bisection over the whole numbers low..high: `play(value)` gives the `Trial`
    of a value (called once per value). Returns (the trials in the order played, the chosen)."""
    tried: dict = {}

    def trial(v: int) -> Trial:
        if v not in tried:
            tried[v] = play(v)
        return tried[v]

    a, b = low, high
    while a < b:
        m = (a + b) // 2
        if trial(m).miss <= trial(m + 1).miss:
            b = m
        else:
            a = m + 1
    trial(a)
    order = list(tried.values())
    best = min(order, key=lambda t: (t.miss, not t.surely, abs(t.value - a)))
    return order, best


# showing ----------------------------------------------------------------------------------

def figure_text(target: Target, t: Trial) -> str:
    """A trial's figure in words: the seat or label farthest from even, an effect, a length."""
    if t.figure is None:
        return "no figure (no game completed" + (", or the card was never played" if target.aim is Aim.EFFECT else "") + ")"
    if target.aim.rates:
        name, rate, low, high = max(t.detail, key=lambda row: (abs(row[1] - t.even), row[0]))
        return f"{name} {100 * rate:.1f}% ({100 * low:.1f}–{100 * high:.1f}), {t.figure:.1f} points from even"
    unit = " decisions" if target.aim is Aim.LENGTH else " points"
    return f"{t.figure:+.1f}{unit} ({t.low:+.1f} to {t.high:+.1f})" if target.aim is Aim.EFFECT else \
        f"{t.figure:.1f}{unit} ({t.low:.1f}–{t.high:.1f})"


def verdict(target: Target, best: Trial) -> str:
    """What the chosen value does to the target, in words."""
    if not best.meets:
        return f"no value tried meets the target; the closest is {best.value}"
    if best.surely:
        return f"{best.value} meets the target, and its 95% interval lies within it"
    return (f"{best.value} meets the target on its figure, but its 95% interval reaches beyond it: more games "
            f"(--games) would say whether it surely does")


def render(summary: dict, target: Target, trials: list, best: Trial, console) -> None:
    """The values tried, in the order played, and the one chosen."""
    console.print(text(f"{summary['game']}: {summary['card']}.{summary['attribute']} from {summary['low']} to "
                       f"{summary['high']}, target: {target.text.strip()}; {summary['players']} players, "
                       f"{plural(summary['games'], 'game')} per value, the same seeds for each (seed "
                       f"{summary['seed']}), {', '.join(dict.fromkeys(summary['agents']))}"), soft_wrap=True)
    t = WordTable(title=text("the values tried, in the order played"), title_justify="left")
    for name, justify in (("value", "right"), ("games", "right"), ("figure (95% interval)", "left"),
                          ("target", "left")):
        t.add_column(text(name), justify=justify, overflow="fold")
    for trial in trials:
        t.add_row(*map(text, [str(trial.value), str(trial.games), figure_text(target, trial),
                              "surely met" if trial.surely else "met" if trial.meets else "missed"]))
    console.print(t)
    console.print(text(f"chosen: {summary['attribute']} = {best.value} ({verdict(target, best)})"), soft_wrap=True)
