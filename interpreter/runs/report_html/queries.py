"""The figures of the HTML report, read with SQL from a results file of `simulate --results`.

A results file is a DuckDB database, or a set of Parquet files (`NAME.parquet` the games,
`NAME.seats.parquet`, `NAME.cards.parquet`, `NAME.runs.parquet`) read as views of the same
tables. `read` gives one run's figures as plain data (`Figures`), with nothing of the
database left in it: the charts and the page are made from them alone.

A win is a seat's side winning alone: a win shared by rival sides (`draw`) is counted apart,
as the text report of `simulate` counts it. Games that ended on an error are left out of
every figure but their count and messages.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..results.cards import played_effects
from ..statistics import FALSE_DISCOVERY_RATE, difference, wilson

TABLES = {
    "runs": ("run_id", "started_at", "game", "players", "agents", "seed", "games"),
    "games": ("run_id", "game_index", "seed", "players", "scores", "winners", "draw", "decisions", "rounds",
              "first_seat", "lead_changes", "midgame_leader_won", "error"),
    "seats": ("run_id", "game_index", "seat", "agent", "score", "won", "label"),
    "seat_cards": ("run_id", "game_index", "seat", "card_id", "card_title", "taken", "pick", "played", "points"),
}
PARQUET_PARTS = {"games": "", "seats": ".seats", "seat_cards": ".cards", "runs": ".runs", "bot_offers": ".offers"}
OPTIONAL = ("bot_offers",)  # tables that results written before them lack: read as empty


class ResultsError(Exception):
    """The results file cannot be read: not a results file, or a table or column missing."""


class UnknownRun(Exception):
    """No run of that id in the results file; `runs` are the ids it holds."""

    def __init__(self, run_id: str, runs: list):
        super().__init__(run_id)
        self.run_id, self.runs = run_id, runs


@dataclass
class Rate:
    """k of n, with its 95% Wilson interval."""
    k: int
    n: int

    @property
    def rate(self) -> float | None:
        return self.k / self.n if self.n else None

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.k, self.n)


@dataclass
class Difference:
    """The difference of two rates (with minus without) and its 95% interval: clustered by
    game when `clustered` is given (the effect of a card: results.cards), else Newcombe's from
    their Wilson intervals (it stays sound for small counts and rates near 0 or 1)."""
    with_: Rate
    without: Rate
    clustered: tuple | None = None  # (low, high)

    @property
    def value(self) -> float:
        return (self.with_.rate or 0.0) - (self.without.rate or 0.0)

    @property
    def interval(self) -> tuple[float, float]:
        if self.clustered is not None:
            return self.clustered
        _, low, high = difference(self.with_.k, self.with_.n, self.without.k, self.without.n)
        return (low, high) if low is not None else (-1.0, 1.0)


@dataclass
class Stats:
    """A distribution in a few numbers (quantiles at 5, 25, 50, 75 and 95%)."""
    count: int
    mean: float | None
    low: float | None
    q1: float | None
    median: float | None
    q3: float | None
    high: float | None
    minimum: float | None
    maximum: float | None


@dataclass
class Seat:
    seat: int
    agent: str
    wins: Rate
    ties: int
    scores: Stats
    histogram: list  # (score, games)


@dataclass
class Card:
    card_id: str
    title: str
    taken: int
    played: Difference  # win rate of the seats that played it, and of those that did not
    points_per_game: float  # points it brought its seats, per completed game
    mean_pick: float | None
    compared: bool  # played, and not played, often enough for the difference to mean something
    q_value: float | None = None  # Benjamini and Hochberg's, over every card of the run
    discovery: bool = False  # q_value at most the false discovery rate


@dataclass
class Label:
    label: str
    wins: Rate
    ties: int
    mean_score: float | None


@dataclass
class Figures:
    """One run's figures, as the page shows them."""
    run: dict  # the row of `runs` (or what the games tell when it has none)
    runs: list  # every run in the file: (run_id, started_at, game, games)
    played: int
    completed: int
    errors: list  # (game_index, seed, message), the first ones
    error_count: int
    seats: list[Seat]
    decisions: Stats
    decisions_histogram: list
    rounds: Stats
    rounds_histogram: list
    won: int  # games a side won alone
    draws: Rate  # games whose win rival sides shared
    no_winner: Rate
    average_seat: Rate  # the win rate of a seat: every seat's wins over every seat's games
    first_seat: Rate  # the win rate of the seat that decided first
    first_seats: list  # (seat, games it decided first)
    midgame_leader: Rate
    lead_changes: Stats
    lead_changes_histogram: list
    cards: list[Card] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)
    offers: list = field(default_factory=list)  # Offer of each card offered to bots, passed over most first


@dataclass
class Offer:
    """A card at the decisions of greedy and search bots where an option was about it."""
    card_id: str
    title: str
    offered: int  # options about it, over the bots' decisions among several
    taken: Rate  # the share of those the bot chose
    rated_best: Rate  # the share the bot's values rated best of their decision (ties included)


# opening --------------------------------------------------------------------------------

def connect(path: str):
    """A read-only DuckDB connection to the results at `path` (a .duckdb file, or the games
    file of a Parquet set), with the four tables checked; ResultsError when they are not there."""
    import duckdb
    try:
        if path.endswith(".parquet"):
            con = duckdb.connect(":memory:")
            for table, part in _parquet_files(path).items():
                if table in OPTIONAL and not os.path.isfile(part):
                    continue  # results of an older regles: read as having none (`_offers`)
                con.execute(f"CREATE VIEW {table} AS SELECT * FROM read_parquet({_literal(part)})")
        else:
            con = duckdb.connect(path, read_only=True)
    except duckdb.Error as exc:
        raise ResultsError(f"cannot read it as a results file: {_first_line(exc)}") from None
    _check_tables(con)
    return con


def _parquet_files(path: str) -> dict:
    """The file of each table of the Parquet set that `path` (any of its files) belongs to."""
    base = path[:-len(".parquet")]
    for part in (".seats", ".cards", ".runs", ".offers"):
        if base.endswith(part):
            base = base[:-len(part)]
    files = {table: f"{base}{part}.parquet" for table, part in PARQUET_PARTS.items()}
    missing = [f for t, f in files.items() if t not in OPTIONAL and not os.path.isfile(f)]
    if missing:
        raise ResultsError(f"a Parquet set of results has four files; missing: {', '.join(missing)}")
    return files


def _check_tables(con) -> None:
    import duckdb
    for table, needed in TABLES.items():
        try:
            columns = {row[0] for row in con.execute(f"DESCRIBE {table}").fetchall()}
        except duckdb.CatalogException:
            raise ResultsError(f"not a results file of regles simulate: no table '{table}'") from None
        except duckdb.Error as exc:  # a Parquet file of the set that is not one
            raise ResultsError(f"cannot read its table '{table}': {_first_line(exc)}") from None
        missing = [c for c in needed if c not in columns]
        if missing:
            raise ResultsError(f"not a results file of regles simulate: table '{table}' has no column "
                               + ", ".join(f"'{c}'" for c in missing))


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _first_line(exc) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


# reading --------------------------------------------------------------------------------

def run_ids(con) -> list:
    """(run_id, started_at, game, games) of every run in the file, oldest first; a run whose
    games are there without its row in `runs` comes last."""
    rows = con.execute("""
        SELECT run_id, started_at, game, games FROM runs
        UNION ALL
        SELECT run_id, NULL, any_value(game), count(*) FROM games
        WHERE run_id NOT IN (SELECT run_id FROM runs) GROUP BY run_id
        ORDER BY started_at NULLS LAST, run_id""").fetchall()
    return [tuple(r) for r in rows]


def read(con, run_id: str | None = None, min_plays: int = 30) -> Figures:
    """The figures of run `run_id` (the latest run when None). A card is `compared` when at
    least `min_plays` seats played it and at least `min_plays` did not."""
    runs = run_ids(con)
    if not runs:
        raise ResultsError("the results file holds no run")
    if run_id is None:
        dated = [r for r in runs if r[1] is not None]
        run_id = max(dated, key=lambda r: (r[1], r[0]))[0] if dated else runs[-1][0]
    elif run_id not in {r[0] for r in runs}:
        raise UnknownRun(run_id, [r[0] for r in runs])
    q = _Query(con, run_id)
    played, completed, error_count = q.one("""
        SELECT count(*), count(*) FILTER (WHERE error IS NULL), count(*) FILTER (WHERE error IS NOT NULL)
        FROM games WHERE run_id = $run""")
    won, draws, no_winner = q.one("""
        SELECT count(*) FILTER (WHERE len(winners) > 0 AND NOT coalesce(draw, false)),
               count(*) FILTER (WHERE coalesce(draw, false)),
               count(*) FILTER (WHERE winners IS NULL OR len(winners) = 0)
        FROM games WHERE run_id = $run AND error IS NULL""")
    wins, seat_games = q.one(f"SELECT count(*) FILTER (WHERE win), count(*) FROM ({_SEAT_GAMES})")
    first_won, first_n = q.one(f"""
        SELECT count(*) FILTER (WHERE sg.win), count(*) FROM ({_SEAT_GAMES}) sg
        JOIN games g ON g.run_id = $run AND g.game_index = sg.game_index AND g.first_seat = sg.seat""")
    leader_won, leader_n = q.one("""
        SELECT count(*) FILTER (WHERE midgame_leader_won), count(midgame_leader_won)
        FROM games WHERE run_id = $run AND error IS NULL""")
    return Figures(
        run=_run_row(q), runs=runs, played=played, completed=completed,
        errors=q.all("SELECT game_index, seed, error FROM games WHERE run_id = $run AND error IS NOT NULL "
                     "ORDER BY game_index LIMIT 20"),
        error_count=error_count, seats=_seats(q),
        decisions=_stats(q, "decisions"), decisions_histogram=_histogram(q, "decisions"),
        rounds=_stats(q, "rounds"), rounds_histogram=_histogram(q, "rounds"),
        won=won, draws=Rate(draws, completed), no_winner=Rate(no_winner, completed),
        average_seat=Rate(wins, seat_games), first_seat=Rate(first_won, first_n),
        first_seats=q.all("SELECT first_seat, count(*) FROM games WHERE run_id = $run AND error IS NULL "
                          "AND first_seat IS NOT NULL GROUP BY first_seat ORDER BY first_seat"),
        midgame_leader=Rate(leader_won, leader_n),
        lead_changes=_stats(q, "lead_changes"), lead_changes_histogram=_histogram(q, "lead_changes"),
        cards=_cards(q, min_plays), labels=_labels(q), offers=_offers(q))


# The seats of the completed games of the run, and whether each won (its side alone).
_SEAT_GAMES = """
    SELECT s.game_index, s.seat, s.agent, s.score, s.label,
           coalesce(s.won, false) AS win,
           coalesce(list_contains(g.winners, s.seat), false) AND coalesce(g.draw, false) AS tie
    FROM seats s JOIN games g ON g.run_id = s.run_id AND g.game_index = s.game_index
    WHERE s.run_id = $run AND g.error IS NULL"""


class _Query:
    """Queries of one run: `$run` in their text is its id."""

    def __init__(self, con, run_id: str):
        self.con, self.run_id = con, run_id

    def all(self, sql: str) -> list:
        params = {"run": self.run_id} if "$run" in sql else {}
        return [tuple(r) for r in self.con.execute(sql, params).fetchall()]

    def one(self, sql: str) -> tuple:
        return self.all(sql)[0]


def _run_row(q: _Query) -> dict:
    cursor = q.con.execute("SELECT * FROM runs WHERE run_id = $run", {"run": q.run_id})
    row = cursor.fetchone()
    if row is not None:
        return dict(zip([d[0] for d in cursor.description], row))
    game, players, games = q.one("SELECT any_value(game), max(players), count(*) FROM games WHERE run_id = $run")
    return {"run_id": q.run_id, "game": game, "players": players, "games": games}


def _seats(q: _Query) -> list[Seat]:
    rows = q.all(f"""
        SELECT seat, string_agg(DISTINCT agent, ', ' ORDER BY agent), count(*) FILTER (WHERE win),
               count(*), count(*) FILTER (WHERE tie)
        FROM ({_SEAT_GAMES}) GROUP BY seat ORDER BY seat""")
    stats = {r[0]: Stats(*r[1:]) for r in q.all(f"SELECT seat, {_STATS.format(x='score')} "
                                                  f"FROM ({_SEAT_GAMES}) GROUP BY seat")}
    histograms: dict = {}
    for seat, score, n in q.all(f"SELECT seat, score, count(*) FROM ({_SEAT_GAMES}) "
                                "WHERE score IS NOT NULL GROUP BY seat, score ORDER BY seat, score"):
        histograms.setdefault(seat, []).append((score, n))
    return [Seat(seat, agent or "", Rate(w, n), ties, stats[seat], histograms.get(seat, []))
            for seat, agent, w, n, ties in rows]


_STATS = """count({x}), avg({x}), quantile_cont({x}, 0.05), quantile_cont({x}, 0.25), quantile_cont({x}, 0.5),
            quantile_cont({x}, 0.75), quantile_cont({x}, 0.95), min({x}), max({x})"""


def _stats(q: _Query, column: str) -> Stats:
    return Stats(*q.one(f"SELECT {_STATS.format(x=column)} FROM games WHERE run_id = $run AND error IS NULL"))


def _histogram(q: _Query, column: str) -> list:
    return q.all(f"SELECT {column}, count(*) FROM games WHERE run_id = $run AND error IS NULL "
                 f"AND {column} IS NOT NULL GROUP BY {column} ORDER BY {column}")


def _cards(q: _Query, min_plays: int) -> list[Card]:
    won = {(g, s): 1 if w else 0 for g, s, w in q.all(f"SELECT game_index, seat, win FROM ({_SEAT_GAMES})")}
    wins, total = sum(won.values()), len(won)
    completed = q.one("SELECT count(*) FROM games WHERE run_id = $run AND error IS NULL")[0] or 1
    # a seat that played a card counts once for it, however many rows or copies it had
    rows = q.all(f"""
        WITH sg AS ({_SEAT_GAMES}),
        per_seat AS (
            SELECT c.card_id, any_value(c.card_title) AS title, sg.game_index, sg.seat, any_value(sg.win) AS win,
                   bool_or(coalesce(c.played, false)) AS played, bool_or(coalesce(c.taken, false)) AS taken,
                   sum(coalesce(c.points, 0)) AS points, min(c.pick) AS pick
            FROM seat_cards c JOIN sg ON sg.game_index = c.game_index AND sg.seat = c.seat
            WHERE c.run_id = $run GROUP BY c.card_id, sg.game_index, sg.seat)
        SELECT card_id, any_value(title), count(*) FILTER (WHERE taken),
               count(*) FILTER (WHERE played), count(*) FILTER (WHERE played AND win), sum(points), avg(pick),
               list([game_index, seat]) FILTER (WHERE played)
        FROM per_seat GROUP BY card_id ORDER BY card_id""")
    # the same figures as `simulate --cards`: one function makes both
    effects = played_effects(won, {str(r[0]): {tuple(p) for p in r[7] or ()} for r in rows if r[3]}, min_plays)
    cards = []
    for card_id, title, taken, n1, w1, points, pick, _seats in rows:
        found = effects.get(str(card_id))
        bounds = (found[1], found[2]) if found is not None and found[1] is not None else None
        q_value = found[4] if found is not None else None
        cards.append(Card(str(card_id), str(title if title is not None else card_id), taken,
                          Difference(Rate(w1, n1), Rate(wins - w1, total - n1), bounds),
                          (points or 0) / completed, pick, n1 >= min_plays and total - n1 >= min_plays,
                          q_value, q_value is not None and q_value <= FALSE_DISCOVERY_RATE))
    return cards


def _offers(q: _Query) -> list:
    """The cards offered to the run's bots, over its completed games: the ones taken least
    often first (the cards a bot passes over), then the most offered."""
    import duckdb
    try:
        rows = q.all("""
            SELECT o.card_id, any_value(o.card_title), sum(o.offered), sum(o.taken), sum(o.rated_best)
            FROM bot_offers o JOIN games g ON g.run_id = o.run_id AND g.game_index = o.game_index
            WHERE o.run_id = $run AND g.error IS NULL GROUP BY o.card_id""")
    except duckdb.CatalogException:  # results of a regles before bots' offers were kept
        return []
    out = [Offer(str(c), str(t), int(n), Rate(int(k), int(n)), Rate(int(b), int(n))) for c, t, n, k, b in rows if n]
    return sorted(out, key=lambda o: (o.taken.rate, -o.offered, o.card_id))


def _labels(q: _Query) -> list[Label]:
    rows = q.all(f"""
        SELECT label, count(*) FILTER (WHERE win), count(*), count(*) FILTER (WHERE tie), avg(score)
        FROM ({_SEAT_GAMES}) WHERE label IS NOT NULL GROUP BY label ORDER BY count(*) DESC, label""")
    return [Label(str(label), Rate(w, n), ties, mean) for label, w, n, ties, mean in rows]
