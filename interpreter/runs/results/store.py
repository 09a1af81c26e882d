"""The results of runs as tables, in a DuckDB database or a set of Parquet files.

A `.duckdb` file holds five tables (runs, games, seats, seat_cards, bot_offers), and each run
appends its rows, tagged by its `run_id`; the file also keeps two macros for Wilson's interval
and the `balance` view. `NAME.parquet` stands for five files: `NAME.parquet` (games),
`NAME.seats.parquet`, `NAME.cards.parquet` (seat_cards), `NAME.offers.parquet` (bot_offers)
and `NAME.runs.parquet`; a run appended to them rewrites each with the old rows first.
Results written before `bot_offers` existed read it as empty. The columns are in docs/designers.md.

DuckDB is imported only when results are written or read (`pip install 'regles[data]'`).
"""
from __future__ import annotations

import importlib
import json
import os
from pathlib import Path

from ... import __version__
from .balance import BALANCE_VIEW

# table -> [(column, type)]; the order of the columns is the order of their values in a row
SCHEMA = {
    "runs": [("run_id", "TEXT"), ("started_at", "TIMESTAMP"), ("regles_version", "TEXT"), ("game", "TEXT"),
             ("expansions", "TEXT[]"), ("scenario", "TEXT"), ("options", "TEXT"), ("players", "INTEGER"),
             ("agents", "TEXT[]"), ("seed", "BIGINT"), ("games", "INTEGER"), ("command", "TEXT")],
    "games": [("run_id", "TEXT"), ("game_index", "INTEGER"), ("seed", "UBIGINT"), ("game", "TEXT"),
              ("expansions", "TEXT[]"), ("scenario", "TEXT"), ("options", "TEXT"), ("players", "INTEGER"),
              ("agents", "TEXT[]"), ("scores", "DOUBLE[]"), ("winners", "INTEGER[]"), ("draw", "BOOLEAN"),
              ("decisions", "INTEGER"), ("rounds", "INTEGER"), ("first_seat", "INTEGER"),
              ("lead_changes", "INTEGER"), ("midgame_leader_won", "BOOLEAN"), ("error", "TEXT"),
              ("sides", "INTEGER")],
    "seats": [("run_id", "TEXT"), ("game_index", "INTEGER"), ("seat", "INTEGER"), ("agent", "TEXT"),
              ("score", "DOUBLE"), ("won", "BOOLEAN"), ("label", "TEXT")],
    "seat_cards": [("run_id", "TEXT"), ("game_index", "INTEGER"), ("seat", "INTEGER"), ("card_id", "TEXT"),
                   ("card_title", "TEXT"), ("taken", "BOOLEAN"), ("pick", "INTEGER"), ("played", "BOOLEAN"),
                   ("played_round", "INTEGER"), ("points", "DOUBLE"), ("in_hand_end", "BOOLEAN"),
                   ("won", "BOOLEAN")],
    "bot_offers": [("run_id", "TEXT"), ("game_index", "INTEGER"), ("seat", "INTEGER"), ("card_id", "TEXT"),
                   ("card_title", "TEXT"), ("offered", "INTEGER"), ("taken", "INTEGER"), ("rated_best", "INTEGER")],
}
PARQUET_SUFFIX = {"games": "", "seats": ".seats", "seat_cards": ".cards", "runs": ".runs", "bot_offers": ".offers"}
OPTIONAL = ("bot_offers",)  # tables results written before them lack: read as empty
Z = 1.959963984540054  # the 95% quantile of the normal distribution, two-sided

MACROS = f"""
CREATE OR REPLACE MACRO wilson_low(k, n) AS CASE WHEN n = 0 THEN 0.0 ELSE greatest(0.0,
  (k / n + {Z}^2 / (2 * n) - {Z} * sqrt(k / n * (1 - k / n) / n + {Z}^2 / (4 * n * n))) / (1 + {Z}^2 / n)) END;
CREATE OR REPLACE MACRO wilson_high(k, n) AS CASE WHEN n = 0 THEN 1.0 ELSE least(1.0,
  (k / n + {Z}^2 / (2 * n) + {Z} * sqrt(k / n * (1 - k / n) / n + {Z}^2 / (4 * n * n))) / (1 + {Z}^2 / n)) END;
"""


class ResultsError(Exception):
    """Results cannot be written or read: the message says why, in one line."""


class MissingDuckDB(ResultsError):
    """DuckDB is not installed."""


def duckdb():
    """The duckdb module, imported on first need."""
    try:
        return importlib.import_module("duckdb")
    except ImportError:
        raise MissingDuckDB("results files need DuckDB: pip install 'regles[data]'") from None


def kind_of(path) -> str | None:
    """'duckdb' or 'parquet' by the name's ending, else None."""
    name = str(path).lower()
    return "duckdb" if name.endswith(".duckdb") else "parquet" if name.endswith(".parquet") else None


def parquet_files(path) -> dict:
    """table -> the Parquet file that holds it, for results named `path` (NAME.parquet)."""
    p = Path(path)
    stem = p.name[: -len(".parquet")]
    return {t: p.with_name(stem + suffix + ".parquet") for t, suffix in PARQUET_SUFFIX.items()}


# rows --------------------------------------------------------------------------------------

def run_row(game, spec, agents: list, played: int, run_id: str, started_at, command: str) -> dict:
    """The row of the runs table for a run of `game` by `spec` (`simulate.RunSpec`): `agents`
    one per seat as the report names them, `played` the games played."""
    laid = game.layers_json()
    return {"run_id": run_id, "started_at": started_at, "regles_version": __version__, "game": game.id,
            "expansions": list(laid["expansions"]), "scenario": laid["scenario"],
            "options": options_json(spec.options), "players": spec.players, "agents": list(agents),
            "seed": spec.seed, "games": played, "command": command}


def tables(run: dict, results: list, team_of: list) -> dict:
    """The rows of a run, as columns: table -> [one list per column of SCHEMA]. `run` is the
    row of the runs table as a dict; `results` the games (simulate.GameResult, with facts)."""
    rows = {t: [] for t in SCHEMA}
    rid = run["run_id"]
    rows["runs"].append([run[c] for c, _ in SCHEMA["runs"]])
    n = run["players"]
    sides = len(set(team_of))
    for r in results:
        f = r.facts or {}
        winners = sorted(s + 1 for s in (r.winners or ()))
        draw = len({team_of[s - 1] for s in winners}) > 1
        error = r.error["message"] if r.error is not None else None
        rows["games"].append([rid, r.index, r.seed, run["game"], run["expansions"], run["scenario"], run["options"],
                              n, run["agents"],
                              [float(x) for x in r.scores] if r.scores else None, winners, draw, r.decisions,
                              f.get("rounds"), f.get("first_seat"), f.get("lead_changes"),
                              f.get("midgame_leader_won"), error, sides])
        for s in range(n):
            rows["seats"].append([rid, r.index, s + 1, run["agents"][s],
                                  float(r.scores[s]) if s < len(r.scores) else None,
                                  # a win shared by rival sides is a tie, no seat's win
                                  None if error is not None else s + 1 in winners and not draw,
                                  str(r.labels[s]) if s < len(r.labels) and r.labels[s] is not None else None])
        for seat, card, title, taken, pick, played, rnd, points, held, won in f.get("cards", ()):
            rows["seat_cards"].append([rid, r.index, seat, card, title, taken, pick, played, rnd, float(points),
                                       held, won])
        for seat, card, title, offered, taken, best in f.get("offers", ()):
            rows["bot_offers"].append([rid, r.index, seat, card, title, offered, taken, best])
    return {t: [list(col) for col in zip(*rs)] if rs else [] for t, rs in rows.items()}


# writing -----------------------------------------------------------------------------------

def prepare(path) -> None:
    """Check, before a run, that its results can be written to `path`: DuckDB is there, and an
    existing file is results of this kind. Raises ResultsError saying why not."""
    db = duckdb()
    if kind_of(path) == "duckdb":
        if not Path(path).exists():
            return
        con = _connect(db, path)
        try:
            _create(con)
        finally:
            con.close()
        return
    for table, file in parquet_files(path).items():
        if file.exists():
            con = db.connect(":memory:")
            try:
                have = [d[0] for d in con.execute(f"SELECT * FROM read_parquet({_lit(file)}) LIMIT 0").description]
            except db.Error as exc:
                raise ResultsError(f"{file} is no Parquet file of results: {_first_line(exc)}") from None
            finally:
                con.close()
            missing = [c for c, _ in SCHEMA[table] if c not in have]
            if missing:
                raise ResultsError(f"{file} holds no {table} of results (no column {', '.join(missing)})")


def write(path, columns: dict) -> None:
    """Append the rows of a run (`tables`) to the results at `path`."""
    db = duckdb()
    if kind_of(path) == "duckdb":
        con = _connect(db, path)
        try:
            _create(con)
            con.execute("BEGIN TRANSACTION")
            for table, cols in columns.items():
                _insert(con, table, cols)
            con.execute("COMMIT")
        finally:
            con.close()
        return
    con = db.connect(":memory:")
    try:
        _create(con, views=False)
        files = parquet_files(path)
        for table, cols in columns.items():
            _insert(con, table, cols)
            file = files[table]
            source = table
            if file.exists():
                names = ", ".join(c for c, _ in SCHEMA[table])
                source = f"(SELECT {names} FROM read_parquet({_lit(file)}) UNION ALL SELECT {names} FROM {table})"
            temp = file.with_name(file.name + ".part")
            con.execute(f"COPY {source} TO {_lit(temp)} (FORMAT parquet)")
            os.replace(temp, file)
    except db.Error as exc:
        raise ResultsError(f"cannot write {path}: {_first_line(exc)}") from None
    finally:
        con.close()


def connect(path, read_only: bool = True):
    """A DuckDB connection on the results at `path`, with the tables, the macros and the
    `balance` view: the database itself, or views over the Parquet files."""
    db = duckdb()
    if kind_of(path) == "duckdb":
        if not Path(path).exists():
            raise ResultsError(f"no results file {path}")
        return _connect(db, path, read_only)
    con = db.connect(":memory:")
    for table, file in parquet_files(path).items():
        if not file.exists():
            if table in OPTIONAL:  # results of an older regles: the table is empty
                con.execute(f"CREATE TABLE {table} ({', '.join(f'{c} {t}' for c, t in SCHEMA[table])})")
                continue
            con.close()
            raise ResultsError(f"no results file {file}")
        con.execute(f"CREATE VIEW {table} AS SELECT * FROM read_parquet({_lit(file)})")
    con.execute(MACROS)
    con.execute(BALANCE_VIEW)
    return con


def _connect(db, path, read_only: bool = False):
    try:
        return db.connect(str(path), read_only=read_only)
    except db.Error as exc:
        raise ResultsError(f"{path} is no DuckDB database of results: {_first_line(exc)}") from None


def _create(con, views: bool = True) -> None:
    """The tables (when missing), checked to have every column of SCHEMA; the macros and views."""
    for table, cols in SCHEMA.items():
        con.execute(f"CREATE TABLE IF NOT EXISTS {table} ({', '.join(f'{c} {t}' for c, t in cols)})")
        have = {row[0] for row in con.execute(f"DESCRIBE {table}").fetchall()}
        missing = [c for c, _ in cols if c not in have]
        if missing:
            raise ResultsError(f"the table {table} of the database has no column {', '.join(missing)}: "
                               f"it holds no results of regles")
    if views:
        con.execute(MACROS)
        con.execute(BALANCE_VIEW)


def _insert(con, table: str, cols: list) -> None:
    if not cols or not cols[0]:
        return
    names = [c for c, _ in SCHEMA[table]]
    # one parameter per column, unnested side by side: rows arrive as columns, without a statement each
    picks = ", ".join(f"unnest(${i + 1})::{t}" for i, (_, t) in enumerate(SCHEMA[table]))
    con.execute(f"INSERT INTO {table} ({', '.join(names)}) SELECT {picks}", cols)


def _lit(path) -> str:
    return "'" + str(path).replace("'", "''") + "'"


def _first_line(exc) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def options_json(options: dict) -> str:
    return json.dumps(options, sort_keys=True, ensure_ascii=False, default=str)
