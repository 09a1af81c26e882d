"""`regles simulate --results` and `--cards`: the facts of each game (taken, played, held,
points, the lead), the tables written to DuckDB and Parquet, what each card does and the
balance measures, and the queries of docs/designers.md run against a real file."""
from __future__ import annotations

import math
import re
import sys

import pytest

import interpreter
from interpreter.engine.values import Seat
from interpreter.runs import simulate as S
from interpreter.cli import main
from interpreter.runs.statistics import wilson
from interpreter.runs.results import balance, cards, store
from interpreter.runs.results.record import Recorder

from gamekit import FIXTURES, ROOT, make_game

duckdb = pytest.importorskip("duckdb")

DESIGNERS = ROOT / "docs" / "designers.md"
RUNS = {"karman-swap": (2, 40), "seeders-exodus": (3, 20)}


def simulate(*args) -> int:
    return main(["simulate", *map(str, args), "-q"])


def rows(con, table: str, leave=("run_id", "started_at", "command")) -> list:
    cols = [c for c, _ in store.SCHEMA[table] if c not in leave]
    order = [c for c in ("game_index", "seat", "card_id") if c in cols]
    return con.execute(f"SELECT {', '.join(cols)} FROM {table}" + (f" ORDER BY {', '.join(order)}" if order else "")
                       ).fetchall()


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """For each game of RUNS: a DuckDB file written by the command, the same run played again
    here (the same seeds give the same games), and Parquet files written from it."""
    out = {}
    for name, (n, k) in RUNS.items():
        folder = tmp_path_factory.mktemp(name)
        assert simulate(name, "-n", n, "-k", k, "--seed", 3, "--results", folder / "r.duckdb") == 0
        game = interpreter.load(name)
        spec = S.RunSpec(name, n, 3, k, ["random"] * n, game.options(), record=True)
        results = S.run(game, spec).results
        run = store.run_row(game, spec, ["random"] * n, k, "here", None, "")
        store.write(folder / "r.parquet", store.tables(run, results, game.program.team_of(n)))
        out[name] = (folder, game, results)
    return out


# the facts of one game --------------------------------------------------------------------

CARDS = "kind: cards\ngame: tiny\nstart: deck\ncards:\n" + "".join(
    f"  - {{id: c{v}, title: Card {v}, value: {v}, suit: Sun}}\n" for v in range(1, 9))
RULES = """\
game: |
  repeat 2 times:
    for each p in players:
      choose c from deck by p "Take a card"
      move c to p.hand
  for each p in players:
    choose c from p.hand by p "Give a card"
    move c to next(p).hand
  for each p in players:
    choose c from p.hand by p "Play a card"
    move c to p.table
    score c.value to p for c
  for each p in players:
    if p.points > next(p).points:
      win p
"""


def test_the_facts_of_a_game_follow_its_decisions_and_moves(tmp_path):
    game = make_game(tmp_path, RULES, CARDS)
    st = game.new_state(2, seed=5)
    rec = Recorder(game.program, 2)
    rec.start(st)
    asked = []  # (seat from 1, prompt, card id picked)
    while not st.is_terminal():
        seat, ids = st.current_player + 1, [game.program.comp_card[e.value].id for e in st.pending.entries]
        choice = len(ids) - 1
        if st.prompt == "Give a card":  # a card the seat took itself, never the one it was just given
            mine = {card for s, prompt, card in asked if s == seat and prompt == "Take a card"}
            choice = next(i for i, card in enumerate(ids) if card in mine)
        asked.append((seat, st.prompt, ids[choice]))
        rec.before(st, choice)
        st.apply(choice)
        rec.after(st)
    credits = S.credits_of(st)
    facts = rec.facts(st, st.winners, credits)
    got = {(seat, card): row for seat, card, _title, *row in facts["cards"]}
    value = {f"c{v}": v for v in range(1, 9)}
    scores = st.scores()
    winner = 1 if scores[0] > scores[1] else 2 if scores[1] > scores[0] else None
    assert [seat for seat, *_ in asked] == [1, 2, 1, 2, 1, 2, 1, 2]
    assert facts["first_seat"] == 1 and facts["rounds"] is None
    for seat in (1, 2):
        takes = [card for s, prompt, card in asked if s == seat and prompt == "Take a card"]
        given = next(card for s, prompt, card in asked if s == seat and prompt == "Give a card")
        played = next(card for s, prompt, card in asked if s == seat and prompt == "Play a card")
        other = 3 - seat
        for pick, card in enumerate(takes, 1):
            assert got[(seat, card)][:2] == [True, pick]  # taken at the seat's first and second decisions
        received = got[(other, given)]
        assert received[0] is False and received[1] is None, "a card given is not taken by who receives it"
        assert got[(seat, played)][2:5] == [True, None, value[played]]  # played, no round counter, its points
        held = [card for (s, card), row in got.items() if s == seat and row[5]]
        assert sorted(held) == sorted(set(takes + [next(c for s, p, c in asked if s == other and p == "Give a card")])
                                      - {given, played})
        assert all(row[6] == (seat == winner) for (s, _), row in got.items() if s == seat)
    # the score changes only with the plays, the last two decisions: no leader at mid-game
    assert facts["midgame_leader_won"] is None
    assert facts["lead_changes"] == (1 if winner == 2 else 0)


def test_without_results_nothing_is_recorded(tmp_path):
    game = interpreter.load("karman-swap")
    spec = S.RunSpec("karman-swap", 2, 1, 3, ["random"] * 2, game.options())
    assert all(r.facts is None for r in S.run(game, spec).results)
    st, exc, _ = S.play_game(game, 2, 1, game.options(), ["random"] * 2)
    assert exc is None and st.moves is None


# the tables --------------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(RUNS))
@pytest.mark.parametrize("kind", ["duckdb", "parquet"])
def test_a_run_writes_a_row_per_game_seat_and_card(made, name, kind):
    folder, game, results = made[name]
    n, k = RUNS[name]
    con = store.connect(folder / f"r.{kind}")
    assert con.execute("SELECT count(*), count(DISTINCT game_index) FROM games").fetchone() == (k, k)
    assert con.execute("SELECT count(*) FROM seats").fetchone()[0] == k * n
    run = con.execute("SELECT game, players, games, agents, seed FROM runs").fetchall()
    assert run == [(name, n, k, ["random"] * n, 3)]
    # each game as played again here: the same scores and winners
    games = con.execute("SELECT game_index, scores, winners, decisions FROM games ORDER BY game_index").fetchall()
    assert games == [(r.index, [float(x) for x in r.scores], sorted(s + 1 for s in r.winners or ()), r.decisions)
                     for r in results]
    # the points of a seat's cards are the points credited to its cards
    points = dict(((g, s), p) for g, s, p in con.execute(
        "SELECT game_index, seat, sum(points) FROM seat_cards GROUP BY ALL").fetchall())
    for r in results:
        for s in range(n):
            assert points.get((r.index, s + 1), 0) == pytest.approx(sum(p for _, seat, p in r.credits if seat == s))
    # seats won as the games say; a card's row says so too
    assert con.execute("SELECT count(*) FROM seat_cards c JOIN seats s USING (run_id, game_index, seat) "
                       "WHERE c.won IS DISTINCT FROM s.won").fetchone()[0] == 0
    assert con.execute("SELECT count(*) FROM seat_cards WHERE (pick IS NULL) = taken").fetchone()[0] == 0
    assert con.execute("SELECT count(*) FROM seat_cards WHERE played_round IS NOT NULL AND NOT played"
                       ).fetchone()[0] == 0
    assert con.execute("SELECT count(*) FROM seat_cards WHERE played").fetchone()[0] > 0
    assert con.execute("SELECT count(*) FROM seat_cards WHERE taken").fetchone()[0] > 0
    assert con.execute("SELECT count(*) FROM seat_cards WHERE NOT (taken OR played OR in_hand_end OR points <> 0)"
                       ).fetchone()[0] == 0
    # the game's round counter, and a pick no later than the seat's decisions
    assert con.execute("SELECT min(rounds) >= 1 FROM games").fetchone()[0]
    assert con.execute("SELECT count(*) FROM seat_cards c JOIN games g USING (run_id, game_index) "
                       "WHERE c.pick > g.decisions").fetchone()[0] == 0


@pytest.mark.parametrize("name", list(RUNS))
def test_the_command_writes_the_rows_of_the_run(made, name):
    folder = made[name][0]
    by_command, here = store.connect(folder / "r.duckdb"), store.connect(folder / "r.parquet")
    for table in ("games", "seats", "seat_cards"):
        assert rows(by_command, table) == rows(here, table), table


@pytest.mark.parametrize("name", list(RUNS))
def test_a_card_played_in_the_trace_is_marked_played(made, name):
    folder, game, results = made[name]
    n, _ = RUNS[name]
    program = game.program
    con = store.connect(folder / "r.duckdb")
    for index in (0, 1):
        st, exc, _ = S.play_game(game, n, results[index].seed, game.options(), ["random"] * n, trace=True)
        assert exc is None
        start = next(i for i, e in enumerate(st.trace) if e["type"] == "choice")  # the game's set-up left out
        expected = set()  # cards played from a seat's hand (or any zone of its, out of play)
        for e in st.trace[start:]:
            if e["type"] != "move" or not e["from"] or not program.zone_def(e["to"]).in_play \
                    or program.zone_def(e["from"]).in_play:
                continue
            origin, holder = program.zone_holder(e["from"]), program.zone_holder(e["to"])
            if isinstance(origin, Seat) and (not isinstance(holder, Seat) or holder == origin):
                expected.add((int(origin) + 1, e["card"]))
        played = set(con.execute("SELECT seat, card_id FROM seat_cards WHERE game_index = ? AND played",
                                 [index]).fetchall())
        assert expected and expected <= played


def test_runs_append_and_workers_change_nothing(tmp_path):
    one, two = tmp_path / "one.duckdb", tmp_path / "two.duckdb"
    assert simulate("karman-swap", "-n", 2, "-k", 12, "--results", one, "--workers", 1) == 0
    assert simulate("karman-swap", "-n", 2, "-k", 12, "--results", two, "--workers", 2) == 0
    a, b = store.connect(one), store.connect(two)
    for table in store.SCHEMA:
        assert rows(a, table) == rows(b, table), table
    a.close()
    assert simulate("karman-swap", "-n", 2, "-k", 12, "--seed", 2, "--results", one) == 0
    a = store.connect(one)
    assert a.execute("SELECT count(DISTINCT run_id), count(*) FROM games").fetchone() == (2, 24)
    assert sorted(a.execute("SELECT seed FROM runs").fetchall()) == [(1,), (2,)]


def test_parquet_runs_append(tmp_path):
    path = tmp_path / "r.parquet"
    for seed in (1, 2):
        assert simulate("karman-swap", "-n", 3, "-k", 5, "--seed", seed, "--results", path) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.cards.parquet", "r.offers.parquet", "r.parquet",
                                                         "r.runs.parquet", "r.seats.parquet"]
    con = store.connect(path)
    assert con.execute("SELECT count(DISTINCT run_id), count(*) FROM games").fetchone() == (2, 10)
    assert con.execute("SELECT count(*) FROM seats").fetchone()[0] == 30


def test_usage_errors_are_said_before_the_first_game(tmp_path, monkeypatch, capsys):
    assert simulate("karman-swap", "-k", 2, "--results", tmp_path / "r.csv") == 2
    assert "ends in .duckdb or .parquet" in capsys.readouterr().err
    bad = tmp_path / "bad.duckdb"
    bad.write_text("not a database\n")
    assert simulate("karman-swap", "-k", 2, "--results", bad) == 2
    assert "no DuckDB database of results" in capsys.readouterr().err
    assert bad.read_text() == "not a database\n"
    assert simulate("karman-swap", "-k", 2, "--results", tmp_path / "none" / "r.duckdb") == 2
    assert "no such folder" in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "duckdb", None)  # as if DuckDB were not installed
    assert simulate("karman-swap", "-k", 2, "--results", tmp_path / "r.duckdb") == 2
    assert "pip install 'regles[data]'" in capsys.readouterr().err
    assert not (tmp_path / "r.duckdb").exists()
    assert simulate("karman-swap", "-k", 10, "--cards") == 0  # --cards needs no DuckDB
    out = capsys.readouterr().out
    assert "balance (10 games completed)" in out and "what cards do" in out


# the figures --------------------------------------------------------------------------------

def test_the_wilson_macros_are_the_report_s_interval(made):
    con = store.connect(made["karman-swap"][0] / "r.duckdb")
    for k, n in ((0, 10), (3, 10), (10, 10), (417, 1000)):
        assert con.execute("SELECT wilson_low(?, ?), wilson_high(?, ?)", [k, n, k, n]).fetchone() == \
            pytest.approx(wilson(k, n))


def sql_blocks() -> list:
    return re.findall(r"```sql\n(.*?)```", DESIGNERS.read_text(encoding="utf-8"), re.S)


QUERY_COLUMNS = [  # the columns each query of docs/designers.md gives, in order of the page
    {"game", "players", "seat", "games", "win_rate", "low", "high"},
    {"card_id", "played", "played_win_rate", "not_played_win_rate", "effect", "effect_low", "effect_high", "too_wide"},
    {"card_id", "held", "in_hand_win_rate", "taken", "improvement_when_taken", "average_pick"},
    {"game", "players", "games", "first_seat_win_rate", "first_seat_low", "first_seat_high", "even_share",
     "tie_rate", "decisions_median", "lead_changes_mean", "midgame_leader_win_rate"},
    {"card_id", "played_round", "seats", "mean_points", "win_rate"},
]


def test_the_page_holds_five_queries():
    assert len(sql_blocks()) == len(QUERY_COLUMNS) == 5


@pytest.mark.parametrize("kind", ["duckdb", "parquet"])
@pytest.mark.parametrize("number", range(5))
def test_the_queries_of_the_page_read_a_results_file(made, kind, number):
    con = store.connect(made["seeders-exodus"][0] / f"r.{kind}")
    result = con.execute(sql_blocks()[number])
    names = [d[0] for d in result.description]
    got = [dict(zip(names, row)) for row in result.fetchall()]
    assert QUERY_COLUMNS[number] <= set(names)
    assert got
    for row in got:
        for name, v in row.items():
            if v is None or isinstance(v, (str, list, bool)):
                continue
            assert math.isfinite(v), (name, row)
            if name.endswith(("rate", "low", "high", "share")) and not name.startswith("effect"):
                assert 0 <= v <= 1, (name, row)
            if name.startswith("effect") or name.startswith("improvement"):
                assert -1 <= v <= 1, (name, row)
            if name in ("games", "played", "seats", "held", "taken", "players"):
                assert v >= 0, (name, row)
        for rate, low, high in (("win_rate", "low", "high"), ("effect", "effect_low", "effect_high"),
                                ("first_seat_win_rate", "first_seat_low", "first_seat_high")):
            if rate in row and low in row and row[low] is not None:
                assert row[low] <= row[rate] <= row[high], row


def test_the_page_s_card_query_gives_the_report_s_figures(made):
    folder, game, results = made["karman-swap"]
    con = store.connect(folder / "r.duckdb")
    result = con.execute(sql_blocks()[1])
    names = [d[0] for d in result.description]
    sql = {row["card_id"]: row for row in (dict(zip(names, r)) for r in result.fetchall())}
    mine = {row["card"]: row for row in cards.effects(results, RUNS["karman-swap"][0],
                                                       game.program.team_of(RUNS["karman-swap"][0]))}
    assert set(sql) == {c for c, row in mine.items() if row["played"]}
    for card, row in sql.items():
        assert row["played"] == mine[card]["played"]
        for key in ("effect", "effect_low", "effect_high"):
            assert row[key] == pytest.approx(mine[card][key], abs=1e-4), (card, key)
        assert row["too_wide"] == mine[card]["too_wide"]
    result = con.execute(sql_blocks()[2])
    names = [d[0] for d in result.description]
    for r in result.fetchall():
        row = dict(zip(names, r))
        m = mine[row["card_id"]]
        assert row["held"] == m["held_at_end"] and row["taken"] == m["taken"]
        if row["taken"]:
            assert row["improvement_when_taken"] == pytest.approx(m["improvement_when_taken"], abs=1e-4)
            assert row["average_pick"] == pytest.approx(m["average_pick"], abs=1e-3)


def test_the_balance_view_gives_the_report_s_measures(made):
    folder, game, results = made["seeders-exodus"]
    con = store.connect(folder / "r.duckdb")
    result = con.execute("SELECT * FROM balance")
    names = [d[0] for d in result.description]
    (view,) = [dict(zip(names, r)) for r in result.fetchall()]
    mine = balance.measures(results, game.program.team_of(3))
    assert view["games"] == mine["games"] == RUNS["seeders-exodus"][1]
    assert view["first_seat_win_rate"] == pytest.approx(mine["first_seat"]["rate"], abs=1e-4)
    assert view["first_seat_low"] == pytest.approx(mine["first_seat"]["low"], abs=1e-4)
    assert view["decisions_median"] == pytest.approx(mine["decisions"]["median"])
    assert view["decisions_p90"] == pytest.approx(mine["decisions"]["p90"])
    assert view["lead_changes_mean"] == pytest.approx(mine["lead_changes"]["mean"], abs=1e-4)
    assert view["midgame_leader_games"] == mine["midgame_leader"]["n"]
    assert view["even_share"] == pytest.approx(1 / 3)


def test_a_game_that_fails_is_a_row_with_its_error(tmp_path):
    path = tmp_path / "r.duckdb"
    status = main(["simulate", str(FIXTURES / "broken"), "-n", "1", "-k", "12", "--seed", "4", "-o", "mode=fault",
                   "--trace-dir", str(tmp_path / "traces"), "--results", str(path), "-q"])
    assert status == 1
    con = store.connect(path)
    failed = con.execute("SELECT game_index FROM games WHERE error IS NOT NULL ORDER BY 1").fetchall()
    assert failed and len(failed) < 12
    assert all("exploded" in e for (e,) in con.execute("SELECT error FROM games WHERE error IS NOT NULL").fetchall())
    # a failed game's seats have no result, and no card rows; the games that ended have theirs
    assert con.execute("SELECT count(*), count(won) FROM seats s JOIN games g USING (run_id, game_index) "
                       "WHERE g.error IS NOT NULL").fetchone() == (len(failed), 0)
    assert con.execute("SELECT count(*) FROM seat_cards c JOIN games g USING (run_id, game_index) "
                       "WHERE g.error IS NOT NULL").fetchone()[0] == 0
    assert con.execute("SELECT count(*) FROM seats WHERE won IS NULL").fetchone()[0] == len(failed)
    assert con.execute("SELECT games FROM balance").fetchone()[0] == 12 - len(failed)
