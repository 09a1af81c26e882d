"""What the bots passed over: the cards the options of a greedy or search bot's decisions were
about, how often the bot took them and rated them best (`results.record`), kept in the results
(`bot_offers`) and shown in the report."""
from __future__ import annotations


import pytest

import interpreter
from interpreter.cli import main
from interpreter.engine.state import OptionKind
from interpreter.engine.values import Comp
from interpreter.runs.results.record import Recorder

duckdb = pytest.importorskip("duckdb")
pytest.importorskip("matplotlib")


class Weighed:
    """A bot that has weighed its options: values rising with the option's place."""

    def __init__(self, n: int):
        self.weighed = [(i, (0, i)) for i in range(n)]


def _card_of(program, entry):
    comp = entry.comp if entry.kind is OptionKind.ACTION else getattr(entry, "value", None)
    return program.comp_card[comp].id if type(comp) is Comp else None


def test_a_bot_s_decision_notes_each_card_offered_taken_and_rated_best():
    game = interpreter.load("karman-swap")
    st = game.new_state(2, 3, game.options({}))
    entries = st.pending.entries
    cards = [_card_of(st.program, e) for e in entries]
    assert sum(c is not None for c in cards) >= 2
    rec = Recorder(st.program, 2)
    rec.start(st)
    first = next(i for i, c in enumerate(cards) if c is not None)
    rec.before(st, first, Weighed(len(entries)))  # takes the first card option; the last option is rated best
    seat = st.current_player
    for i, card in enumerate(cards):
        if card is None or cards.count(card) > 1:
            continue
        assert rec.offers[(seat, card)] == [1, int(i == first), int(i == len(entries) - 1)]
    before = dict(rec.offers)
    rec.before(st, first, None)  # a person, or a random bot: nothing weighed, nothing noted
    assert rec.offers == before


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("offers")
    for agents in ("greedy", "random"):
        assert main(["simulate", "karman-swap", "--players", "2", "--games", "12", "--agents", agents, "-q",
                     "--results", str(folder / f"{agents}.duckdb")]) == 0
        assert main(["report", str(folder / f"{agents}.duckdb"), "--out", str(folder / f"{agents}.html")]) == 0
    return folder


def test_greedy_runs_keep_what_their_bots_passed_over_and_the_report_shows_it(runs):
    con = duckdb.connect(str(runs / "greedy.duckdb"), read_only=True)
    rows = con.execute("SELECT card_title, sum(offered), sum(taken), sum(rated_best) FROM bot_offers "
                       "GROUP BY card_title").fetchall()
    con.close()
    assert rows and all(0 <= taken <= offered and 0 <= best <= offered for _, offered, taken, best in rows)
    assert sum(taken for _, _, taken, _ in rows) > 0
    page = (runs / "greedy.html").read_text(encoding="utf-8")
    assert "What the bots passed over" in page
    least = min(rows, key=lambda r: (r[2] / r[1], -r[1], r[0]))  # the page's first row
    first = page.split('<table id="table-offers">', 1)[1].split("<tr>")[2]
    assert least[0].replace("'", "&#x27;") in first and f">{least[1]}<" in first


def test_random_runs_weigh_nothing_and_older_results_read_as_none(runs, tmp_path):
    con = duckdb.connect(str(runs / "random.duckdb"), read_only=True)
    assert con.execute("SELECT count(*) FROM bot_offers").fetchone()[0] == 0
    con.close()
    assert "What the bots passed over" not in (runs / "random.html").read_text(encoding="utf-8")
    # a Parquet set written before the table existed: its four files read, the offers as none
    assert main(["simulate", "karman-swap", "--players", "2", "--games", "5", "--agents", "greedy", "-q",
                 "--results", str(tmp_path / "old.parquet")]) == 0
    (tmp_path / "old.offers.parquet").unlink()
    assert main(["report", str(tmp_path / "old.parquet"), "--out", str(tmp_path / "old.html")]) == 0
    assert "What the bots passed over" not in (tmp_path / "old.html").read_text(encoding="utf-8")
