"""Etherium at 5 and 6 players with the peoples of Mauhéa and Meinas (the
mauhea-meinas expansion): the base game stays for 2 to 4 players, the
expansion opens 5 and 6 and offers the six peoples, and random games with
every invariant checked end without errors at every player count.

Each test names the rule IDs of ../shared/rules/etherium.md it checks.
"""
from __future__ import annotations

import pytest

import interpreter
from interpreter.runs import simulate as S

rule = pytest.mark.rule
EXPANSION = "mauhea-meinas"


@pytest.fixture(scope="module")
def game():
    return interpreter.load("etherium", [EXPANSION])


@rule("ET-SET-3")
def test_five_and_six_players_need_the_expansion():
    with pytest.raises(ValueError, match="2 to 4 players"):
        interpreter.load("etherium").new_state(players=5, seed=1)


@rule("ET-SET-3")
@pytest.mark.parametrize("players", [5, 6])
def test_the_first_player_chooses_among_six_peoples(game, players):
    st = game.new_state(players=players, seed=1)
    assert st.prompt == "People to play"
    assert len(st.labels()) == 6
    assert {"Les Nomades de Mauhéa", "Les Devins de Meinas"} <= set(st.labels())


@rule("ET-RND-5", "ET-END-1")
@pytest.mark.parametrize("players", [2, 5, 6])
def test_random_games_with_the_expansion_end_without_errors(game, players, tmp_path):
    spec = S.RunSpec("etherium", players, 11, 3, ["random"] * players, game.options(), check=True,
                     trace_dir=str(tmp_path), expansions=[EXPANSION])
    results, _ = S.run(game, spec)
    assert [r.error for r in results if r.error] == []
    assert len(results) == 3 and all(r.decisions > 0 for r in results)
