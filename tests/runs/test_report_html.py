"""`regles report`: the HTML page of a results file shows the figures of its games.

The results are made here: a few hundred games of a made-up three-seat game, built
row by row in Python (with a stronger first seat, a card that brings points, a few
shared wins, games with no winner and games that failed) and written with DuckDB in
the tables of the results schema. Each figure the page shows is computed again from
those rows, in Python, and compared with the page's.
"""
from __future__ import annotations

import html
import random
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser

import pytest

from interpreter import cli
from interpreter.runs.statistics import wilson

duckdb = pytest.importorskip("duckdb", reason="the report extra (duckdb) is not installed")
pytest.importorskip("matplotlib", reason="the report extra (matplotlib) is not installed")

SCHEMA = """
CREATE TABLE runs (run_id TEXT, started_at TIMESTAMP, regles_version TEXT, game TEXT, expansions TEXT[],
  scenario TEXT, options TEXT, players INTEGER, agents TEXT[], seed BIGINT, games INTEGER, command TEXT);
CREATE TABLE games (run_id TEXT, game_index INTEGER, seed BIGINT, game TEXT, expansions TEXT[], scenario TEXT,
  options TEXT, players INTEGER, agents TEXT[], scores DOUBLE[], winners INTEGER[], draw BOOLEAN,
  decisions INTEGER, rounds INTEGER, first_seat INTEGER, lead_changes INTEGER, midgame_leader_won BOOLEAN,
  error TEXT);
CREATE TABLE seats (run_id TEXT, game_index INTEGER, seat INTEGER, agent TEXT, score DOUBLE, won BOOLEAN,
  label TEXT);
CREATE TABLE seat_cards (run_id TEXT, game_index INTEGER, seat INTEGER, card_id TEXT, card_title TEXT,
  taken BOOLEAN, pick INTEGER, played BOOLEAN, played_round INTEGER, points DOUBLE, in_hand_end BOOLEAN,
  won BOOLEAN);
"""
HOSTILE = "<script>alert(1)</script> & $x^2$"
CARDS = [(f"c{i:02}", f"Card {i}") for i in range(1, 16)] + [("evil", HOSTILE)]
LABELS = ["north", "south", "east", "<b>west</b>"]
PLAYERS = 3
AGENTS = ["greedy", "random", "random"]
CHARTS = {"win-rate": "Win rate by seat", "scores": "Final scores by seat",
          "score-histogram": "Distribution of final scores", "decisions": "Game length in decisions",
          "rounds": "Game length in rounds", "balance": "Who wins: the first player and the mid-game leader",
          "lead-changes": "Lead changes per game", "card-effect": "Cards by effect on the win rate",
          "card-points": "Points brought per game", "labels": "Win rate by seat label"}


def synthetic_run(run_id: str, games: int, seed: int) -> dict:
    """The rows of a run: every 50th game failed, every 37th had no winner, seat 1 scores
    3 more, card c03 brings 4 points when played and the others 1."""
    rng = random.Random(seed)
    rows = {"games": [], "seats": [], "seat_cards": []}
    for gi in range(games):
        if gi % 50 == 49:
            rows["games"].append((run_id, gi, gi, "testgame", [], None, "{}", PLAYERS, AGENTS, [], [], False, 3,
                                  None, 1, None, None, "the game failed <b>here</b>"))
            continue
        scores, held = [], []
        for s in range(PLAYERS):
            score, cards = rng.randint(0, 20) + (3 if s == 0 else 0), []
            for k, (card_id, title) in enumerate(rng.sample(CARDS, 5)):
                played = rng.random() < 0.6
                points = (4.0 if card_id == "c03" else 1.0) if played else 0.0
                score += points
                cards.append([card_id, title, True, k + 1, played, rng.randint(1, 5) if played else None, points,
                              not played])
            scores.append(float(score))
            held.append(cards)
        winners = [] if gi % 37 == 0 else [s + 1 for s in range(PLAYERS) if scores[s] == max(scores)]
        labels = [rng.choice(LABELS) for _ in range(PLAYERS)]
        decisions = rng.randint(30, 60)
        rows["games"].append((run_id, gi, seed + gi, "testgame", [], None, '{"variant": "<i>short</i>"}', PLAYERS,
                              AGENTS, scores, winners, len(winners) > 1, decisions, decisions // 6,
                              1 + gi % PLAYERS, rng.randint(0, 5), None if gi % 5 == 0 else rng.random() < 0.6,
                              None))
        for s in range(PLAYERS):
            won = s + 1 in winners and len(winners) == 1  # a win shared by rivals is a tie: no seat's win
            rows["seats"].append((run_id, gi, s + 1, AGENTS[s], scores[s], won, labels[s]))
            rows["seat_cards"] += [(run_id, gi, s + 1, *card, won) for card in held[s]]
    return rows


def write_results(path, runs: list, game: str = "testgame") -> None:
    """A results database of `runs`: (run_id, started_at, rows), of the game named `game`."""
    con = duckdb.connect(str(path))
    con.execute(SCHEMA)
    for run_id, started, rows in runs:
        con.execute("INSERT INTO runs VALUES (?, ?, '0.1.0', ?, [], NULL, '{\"variant\": \"<i>short</i>\"}', "
                    "?, ?, 7, ?, 'regles simulate testgame')",
                    [run_id, started, game, PLAYERS, AGENTS, len(rows["games"])])
        for table, table_rows in rows.items():  # a column a list: one statement, not one a row
            types = [r[1] for r in con.execute(f"DESCRIBE {table}").fetchall()]
            columns = ", ".join(f"unnest(${i + 1}::{t}[])" for i, t in enumerate(types))
            con.execute(f"INSERT INTO {table} SELECT {columns}", [list(c) for c in zip(*table_rows)])
    con.close()


@pytest.fixture(scope="module")
def run():
    return synthetic_run("run-1", 300, 7)


@pytest.fixture(scope="module")
def results(tmp_path_factory, run):
    path = tmp_path_factory.mktemp("results") / "sim.duckdb"
    write_results(path, [("run-1", "2025-01-02 03:04:05", run)])
    return path


@pytest.fixture(scope="module")
def page(results, tmp_path_factory):
    out = tmp_path_factory.mktemp("page") / "report.html"
    assert cli.main(["report", str(results), "--out", str(out)]) == 0
    return out.read_text(encoding="utf-8")


# reading the page -----------------------------------------------------------------------

class _Tables(HTMLParser):
    """The tables of a page by id: their rows, each cell (text, data-value or None)."""

    def __init__(self):
        super().__init__()
        self.tables, self.current, self.cell = {}, None, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and a.get("id"):
            self.current = self.tables.setdefault(a["id"], [])
        elif tag == "tr" and self.current is not None:
            self.current.append([])
        elif tag == "td" and self.current is not None:
            self.cell = ["", a.get("data-value")]

    def handle_endtag(self, tag):
        if tag == "td" and self.cell is not None:
            self.current[-1].append(tuple(self.cell))
            self.cell = None
        elif tag == "table":
            self.current = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[0] += data


def tables(text: str) -> dict:
    """{table id: [row: {column header: (text, data-value)}]}"""
    parser = _Tables()
    parser.feed(text)
    out = {}
    for name, rows in parser.tables.items():
        heads = re.search(rf'<table id="{name}"><thead><tr>(.*?)</tr>', text).group(1)
        columns = [html.unescape(h) for h in re.findall(r"<th>(.*?)</th>", heads)]
        out[name.removeprefix("table-")] = [dict(zip(columns, row)) for row in rows if row]
    return out


def figure(text: str, name: str) -> str:
    match = re.search(rf'<figure id="chart-{name}">(.*?)</figure>', text, re.S)
    assert match, f"no chart {name} in the page"
    return match.group(1)


def tile(text: str, name: str) -> float:
    return float(re.search(rf'<div class="tile" id="tile-{name}"><span class="value" data-value="([^"]+)"',
                           text).group(1))


def completed(run) -> list:
    return [g for g in run["games"] if g[-1] is None]


def seat_won(game, seat: int) -> bool:
    """Seat `seat` won game `game` alone (a shared win is no win)."""
    return seat in game[10] and not game[11]


# the page -------------------------------------------------------------------------------

def test_each_chart_is_in_the_page_as_inline_svg_under_its_title(page):
    for name, title in CHARTS.items():
        chart = figure(page, name)
        assert f"<figcaption>{html.escape(title)}" in chart
        assert chart.count("<svg ") == 1 and "</svg>" in chart


def test_the_win_rate_of_each_seat_is_the_one_of_its_games(page, run):
    games = completed(run)
    rows = tables(page)["win-rates"]
    assert [r["seat"][0] for r in rows] == ["1", "2", "3"]
    for seat, row in enumerate(rows, 1):
        wins = sum(seat_won(g, seat) for g in games)
        assert float(row["win rate"][1]) == pytest.approx(wins / len(games))
        assert row["wins"][0] == str(wins) and row["games"][0] == str(len(games))
        low, high = wilson(wins, len(games))
        assert row["95% interval"][0] == f"{100 * low:.1f}% – {100 * high:.1f}%"
        assert f"{100 * wins / len(games):.1f}%" in figure(page, "win-rate")  # written beside its bar
    assert float(rows[0]["win rate"][1]) > float(rows[1]["win rate"][1])  # seat 1 scores 3 more


def test_the_scores_and_lengths_are_those_of_the_games(page, run):
    games = completed(run)
    shown = tables(page)
    for seat, row in enumerate(shown["scores"], 1):
        scores = [g[9][seat - 1] for g in games]
        assert float(row["mean"][1]) == pytest.approx(sum(scores) / len(scores))
        assert float(row["min"][1]) == min(scores) and float(row["max"][1]) == max(scores)
    decisions = [g[12] for g in games]
    length = {r["length in"][0]: r for r in shown["length"]}
    assert float(length["decisions"]["mean"][1]) == pytest.approx(sum(decisions) / len(decisions))
    assert float(length["rounds"]["max"][1]) == max(d // 6 for d in decisions)


def test_the_balance_figures_are_those_of_the_games(page, run):
    games = completed(run)
    n = len(games)
    assert tile(page, "first-player") == pytest.approx(sum(seat_won(g, g[14]) for g in games) / n)
    assert tile(page, "draws") == pytest.approx(sum(1 for g in games if g[11]) / n)
    assert tile(page, "no-winner") == pytest.approx(sum(1 for g in games if not g[10]) / n)
    leaders = [g[16] for g in games if g[16] is not None]
    assert tile(page, "midgame-leader") == pytest.approx(sum(leaders) / len(leaders))
    assert tile(page, "lead-changes") == pytest.approx(sum(g[15] for g in games) / n)
    average = sum(seat_won(g, s) for g in games for s in range(1, PLAYERS + 1)) / (n * PLAYERS)
    assert tile(page, "first-player-advantage") == pytest.approx(tile(page, "first-player") - average)


def test_the_cards_are_sorted_by_the_difference_their_play_makes(page, run):
    games = {g[1]: g for g in completed(run)}
    seats = [(g[1], s) for g in games.values() for s in range(1, PLAYERS + 1)]
    played = {(c[1], c[2]) for c in run["seat_cards"] if c[3] == "c03" and c[7] and c[1] in games}
    with_ = [seat_won(games[gi], s) for gi, s in seats if (gi, s) in played]
    without = [seat_won(games[gi], s) for gi, s in seats if (gi, s) not in played]
    rows = tables(page)["cards"]
    c03 = next(r for r in rows if r["id"][0] == "c03")
    assert float(c03["win rate played"][1]) == pytest.approx(sum(with_) / len(with_))
    assert float(c03["win rate not played"][1]) == pytest.approx(sum(without) / len(without))
    assert c03["played"][0] == str(len(with_))
    differences = [float(r["difference"][1]) for r in rows]
    assert differences == sorted(differences, reverse=True)
    assert rows[0]["id"][0] == "c03"  # 4 points a play: the largest effect, first in the chart too
    chart = figure(page, "card-effect")
    # the card worth 4 points a play is a discovery over all the cards, marked so
    assert ">Card 3 *</text>" in chart and c03["card"][0].endswith(" *")
    assert chart.index(">Card 3 *</text>") < chart.index(">Card 8")
    points = sum(c[9] for c in run["seat_cards"] if c[3] == "c03" and c[1] in games) / len(games)
    assert float(c03["points per game"][1]) == pytest.approx(points)


def test_only_the_top_and_bottom_cards_are_drawn_when_there_are_many(results, run, tmp_path):
    out = tmp_path / "r.html"
    assert cli.main(["report", str(results), "--out", str(out), "--top", "3"]) == 0
    text = out.read_text(encoding="utf-8")
    chart = figure(text, "card-effect")
    assert "the 3 highest and the 3 lowest" in chart
    ids = [r["id"][0] for r in tables(text)["cards"]]
    title = dict(CARDS)
    assert chart.count('<g id="card-effect-ytick_') == 6 and "10 cards between" in chart
    drawn = lambda i: re.search(f">{re.escape(title[i])}( \\*)?</text>", chart)  # noqa: E731 - * a discovery
    assert all(drawn(i) for i in ids[:3] + ids[-3:] if i != "evil")  # its long title is cut
    assert not any(drawn(i) for i in ids[3:-3])


def test_the_win_rate_by_label(page, run):
    games = {g[1]: g for g in completed(run)}
    rows = {html.unescape(r["label"][0]): r for r in tables(page)["labels"]}
    assert set(rows) == set(LABELS)
    for label in LABELS:
        seats = [(gi, s) for run_id, gi, s, _, _, _, lb in run["seats"] if lb == label and gi in games]
        wins = sum(seat_won(games[gi], s) for gi, s in seats)
        assert float(rows[label]["win rate"][1]) == pytest.approx(wins / len(seats))
        assert rows[label]["seats"][0] == str(len(seats))


def test_the_page_loads_nothing_from_elsewhere(page):
    assert not re.search(r"""\b(src|href)\s*=\s*["']?\s*[a-z]*:?//""", page, re.I)
    assert not re.search(r"<(script|link|img|iframe|object)\b", page, re.I)
    assert "@import" not in page and "url(http" not in page


def test_content_strings_are_shown_as_text(page):
    assert "<script" not in page.lower() and "<b>" not in page and "<i>" not in page
    assert html.escape(HOSTILE) in page  # in the cards' table
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; $x^2$" in figure(page, "card-effect")  # drawn as written
    assert "&lt;b&gt;west&lt;/b&gt;" in figure(page, "labels")
    assert "the game failed &lt;b&gt;here&lt;/b&gt;" in page
    assert "variant=&quot;&lt;i&gt;short&lt;/i&gt;&quot;" in page


def test_the_same_results_give_the_same_page(results, page, tmp_path):
    out = tmp_path / "again.html"
    assert cli.main(["report", str(results), "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == page


def test_a_parquet_set_gives_the_page_of_the_same_results(results, page, tmp_path):
    con = duckdb.connect(str(results), read_only=True)
    for table, part in (("games", ""), ("seats", ".seats"), ("seat_cards", ".cards"), ("runs", ".runs")):
        con.execute(f"COPY {table} TO '{tmp_path / f'sim{part}.parquet'}' (FORMAT parquet)")
    con.close()
    out = tmp_path / "p.html"
    assert cli.main(["report", str(tmp_path / "sim.parquet"), "--out", str(out)]) == 0
    assert tables(out.read_text(encoding="utf-8"))["win-rates"] == tables(page)["win-rates"]


def test_the_latest_run_is_shown_unless_one_is_chosen(tmp_path, capsys):
    first, second = synthetic_run("first", 60, 1), synthetic_run("second", 90, 2)
    path = tmp_path / "two.duckdb"
    write_results(path, [("first", "2025-01-01 00:00:00", first), ("second", "2025-02-01 00:00:00", second)])
    out = tmp_path / "r.html"
    assert cli.main(["report", str(path), "--out", str(out)]) == 0
    assert "run second" in capsys.readouterr().out
    text = out.read_text(encoding="utf-8")
    assert tables(text)["win-rates"][0]["games"][0] == str(len(completed(second)))
    assert [r["run"][0] for r in tables(text)["runs"]] == ["first", "second (this report)"]
    assert cli.main(["report", str(path), "--out", str(out), "--run", "first"]) == 0
    assert tables(out.read_text(encoding="utf-8"))["win-rates"][0]["games"][0] == str(len(completed(first)))
    assert cli.main(["report", str(path), "--out", str(out), "--run", "frist"]) == 2
    assert "no run 'frist'" in capsys.readouterr().err


@pytest.mark.parametrize("game, title", [("karman-swap", "Karman Swap"), ("testgame", "testgame"),
                                         ("../karman-swap", "../karman-swap"), ("/etc", "/etc")])
def test_the_page_is_titled_by_the_game_s_title_when_the_game_is_shipped(run, tmp_path, game, title):
    path = tmp_path / "titled.duckdb"
    write_results(path, [("run-1", "2025-01-02 03:04:05", run)], game=game)
    out = tmp_path / "r.html"
    assert cli.main(["report", str(path), "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert f"<title>{title}: simulation report</title>" in text and f"<h1>{title}: simulation report</h1>" in text


def test_usage_and_file_errors(results, tmp_path, capsys):
    assert cli.main(["report", str(tmp_path / "missing.duckdb")]) == 2
    assert "no such results file" in capsys.readouterr().err
    assert cli.main(["report", str(results), "--out", str(tmp_path / "no" / "r.html")]) == 2
    assert "no such folder" in capsys.readouterr().err
    bad = tmp_path / "bad.duckdb"
    bad.write_text("not a database", encoding="utf-8")
    assert cli.main(["report", str(bad), "--out", str(tmp_path / "r.html")]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"regles report: error: {bad}: ") and "Traceback" not in err
    empty = tmp_path / "empty.duckdb"
    duckdb.connect(str(empty)).close()
    assert cli.main(["report", str(empty), "--out", str(tmp_path / "r.html")]) == 1
    assert "no table 'runs'" in capsys.readouterr().err
    alone = tmp_path / "alone.parquet"
    shutil.copy(bad, alone)
    assert cli.main(["report", str(alone), "--out", str(tmp_path / "r.html")]) == 1
    assert "alone.seats.parquet" in capsys.readouterr().err


def test_without_the_extra_the_command_names_it(results, tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "duckdb", None)  # what an import finds when it is not installed
    assert cli.main(["report", str(results), "--out", str(tmp_path / "r.html")]) == 2
    assert "pip install 'regles[report]'" in capsys.readouterr().err
    assert not (tmp_path / "r.html").exists()


BROWSER = shutil.which("chromium-headless-shell") or shutil.which("chromium")


@pytest.mark.skipif(BROWSER is None, reason="no headless browser (chromium-headless-shell or chromium) on PATH")
def test_a_browser_draws_the_page(results, page, tmp_path):
    from PIL import Image  # matplotlib's own dependency
    html_file = tmp_path / "report.html"
    html_file.write_text(page, encoding="utf-8")
    shot = tmp_path / "shot.png"
    done = subprocess.run([BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                           f"--screenshot={shot}", "--window-size=1000,1400", html_file.as_uri()],
                          capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    image = Image.open(shot).convert("RGB")
    assert image.size == (1000, 1400)
    blue = sum(n for n, (r, g, b) in image.getcolors(maxcolors=1 << 24) if b > 150 and r < 60 and g < 160)
    assert blue > 10_000  # the bars of the win rates (Okabe-Ito blue) are drawn, not only text


def test_cards_played_too_rarely_are_not_compared(results, tmp_path):
    out = tmp_path / "r.html"
    assert cli.main(["report", str(results), "--out", str(out), "--min-plays", "500"]) == 0
    text = out.read_text(encoding="utf-8")
    assert 'id="chart-card-effect"' not in text and "too few games to compare cards" in text
    assert len(tables(text)["cards"]) == len(CARDS)  # the table still gives each card's figures


def test_what_a_run_does_not_have_is_said_rather_than_drawn(tmp_path):
    rows = synthetic_run("quiet", 60, 5)
    rows["games"] = [g[:13] + (None, g[14], 0, g[16], g[17]) for g in rows["games"]]  # no rounds, no lead change
    rows["seats"] = [s[:6] + (None,) for s in rows["seats"]]  # no label
    rows["seat_cards"] = [c[:7] + (False, None, 0.0) + c[10:] for c in rows["seat_cards"]]  # nothing played
    path, out = tmp_path / "quiet.duckdb", tmp_path / "quiet.html"
    write_results(path, [("quiet", "2025-01-01 00:00:00", rows)])
    assert cli.main(["report", str(path), "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    for name in ("rounds", "lead-changes", "card-effect", "card-points", "labels"):
        assert f'id="chart-{name}"' not in text
    assert "No card was played in these games" in text and tile(text, "lead-changes") == 0
    assert 'id="chart-win-rate"' in text and 'id="chart-balance"' in text
