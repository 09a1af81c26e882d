"""Random games of every shipped game, at every player count, with the generic
invariants checked after every step: each component in exactly one place, no
counter below its floor or beyond its ceiling, supplies conserved, the game
ends. `regles simulate GAME --check` runs the same checks over thousands of
games; this runs REGLES_RANDOM_GAMES games per player count (default 60, so
hundreds of games of each shipped game in the default suite).
"""
from __future__ import annotations

import os

import pytest

import interpreter
from interpreter.runs import simulate as S
from interpreter.content.folders import shipped_games
from gamekit import player_counts

GAMES_PER_COUNT = int(os.environ.get("REGLES_RANDOM_GAMES", "60"))


@pytest.mark.parametrize("name,players", [(name, n) for name in shipped_games() for n in player_counts(name)])
def test_random_games_keep_the_invariants(name, players, tmp_path):
    g = interpreter.load(name)
    spec = S.RunSpec(name, players, 2024, GAMES_PER_COUNT, ["random"] * players, g.options(), check=True,
                     trace_dir=str(tmp_path))
    results, _ = S.run(g, spec)
    errors = [r.error for r in results if r.error]
    assert len(results) == GAMES_PER_COUNT and all(r.decisions > 0 for r in results)
    assert not errors, "\n".join(f"game {e['index']} (seed {e['seed']}): {e['message']}" for e in errors[:5])
