"""`standing:`: a game won by something else than the points its rules score (rounds won, say)
shows that at its end, where a game without it shows its score."""
from __future__ import annotations

import io
import json
import re

import pytest
from gamekit import make_game

import interpreter
from interpreter.play.agents import HumanAgent
from interpreter.play.terminal import play_at_terminal
from interpreter.rulings.check import check_paths

ROUNDS = """\
game: |
  repeat 3 times:
    add 1 to players[1].coins
    score 5 to players[2]
  win players[1]
"""


def _ended(game, lang="en") -> str:
    """The last line `regles play` prints once the game is over (the seat always picks option 1)."""
    out = io.StringIO()
    status = play_at_terminal(game, 2, 1, game.options({}), ["random"], seat=0,
                              human=HumanAgent(io.StringIO("1\n" * 3000), out), out=out, lang=lang)
    assert status == 0
    return out.getvalue().strip().splitlines()[-1]


def _with_standing(tmp_path, standing: str):
    game = make_game(tmp_path, ROUNDS)
    path = tmp_path / "tiny" / "game.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("score: points\n", f"score: points\nstanding: {standing}\n"),
                    encoding="utf-8")
    return game, path


def test_the_end_shows_the_standing_not_the_score(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    plain = make_game(tmp_path / "a", ROUNDS)
    assert _ended(plain) == "Scores: you 0, player 2 15"  # the points scored, as without `standing:`
    _with_standing(tmp_path / "b", "coins")
    game = interpreter.load(str(tmp_path / "b" / "tiny"))
    assert game.program.standing == "coins"
    st = game.new_state(2, 1, game.options({}))
    assert st.standings() == [3, 0] and st.scores() == [0, 15]  # `score` still adds to the score
    assert _ended(game) == "Coins: you 3, player 2 0"


def test_a_standing_of_a_team_counts_for_each_of_its_seats(tmp_path):
    _with_standing(tmp_path, "gems")
    game = interpreter.load(str(tmp_path / "tiny"))
    st = game.new_state(4, 1, game.options({}))
    st.counters["gems#t1"] = 2
    assert st.standings() == [0, 2, 0, 2]


@pytest.mark.parametrize("standing,code,says", [
    ("coinz", "N002", "unknown counter 'coinz' for the standing"),
    ("ticks", "D004", "not kept per player or per team"),
])
def test_a_standing_that_is_no_counter_of_a_player_is_an_error_where_it_is_written(tmp_path, standing, code, says):
    _, path = _with_standing(tmp_path, standing)
    report = check_paths([str(tmp_path / "tiny")])
    found = [e for e in report.errors if e.code == code]
    assert found and says in found[0].message
    assert found[0].position.line == path.read_text(encoding="utf-8").splitlines().index(f"standing: {standing}") + 1


def test_karman_swap_ends_on_the_rounds_won_in_both_languages():
    game = interpreter.load("karman-swap")
    assert re.fullmatch(r"Rounds won: you \d, player 2 \d", _ended(game))
    assert re.fullmatch(r"Manches gagnées : vous \d, joueur 2 \d", _ended(game, "fr"))


def test_simulate_reports_the_mean_standing_beside_the_mean_score(tmp_path):
    from interpreter.cli import main
    out = tmp_path / "run.json"
    assert main(["simulate", "karman-swap", "--games", "6", "--seed", "2", "--json", str(out)]) == 0
    summary = json.loads(out.read_text())
    assert summary["standing"] == "rounds won"
    rounds = summary["mean_standings"]
    # these games are won by the first to win two rounds: the winner's mean is 2, the other's 0 or 1
    assert all(0 <= x <= 2 for x in rounds) and 2 <= sum(rounds) <= 4
    won = [s for s, w in enumerate(summary["wins"]) if w == 6]
    assert all(rounds[s] == 2 for s in won)
    assert summary["mean_standings"] != summary["mean_scores"]
