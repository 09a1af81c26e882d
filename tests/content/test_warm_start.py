"""A warm start (`interpreter.compile.warm`): a game loaded by a second process from what the first one
parsed and compiled plays exactly as one loaded from nothing, and a store that does not read,
or lies in a folder others may write, is not used."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

_PLAY = """
import json, random, sys
import interpreter
import interpreter.language.parser as parser
game = interpreter.load(sys.argv[1])
games = []
for seed in range(3):
    st = game.new_state(game.min_players, seed, trace=True)
    r = random.Random(seed)
    while not st.is_terminal() and len(st.history) < 300:
        st.apply(r.randrange(len(st.legal_actions())))
    games.append(st.trace)
from interpreter.engine.fingerprint import fingerprint
print(json.dumps({"fingerprint": fingerprint(game.program), "traces": games,
                  "parsed": parser._fast_parser.cache_info().currsize}, default=str))
"""


def _run(game_id: str, cache: Path, **env) -> dict:
    out = subprocess.run([sys.executable, "-c", _PLAY, game_id], capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, "XDG_CACHE_HOME": str(cache), "PYTHONPATH": str(ROOT), **env},
                         timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def _stores(cache: Path) -> list:
    return sorted((cache / "regles").glob("warm-*.pickle"))


@pytest.mark.parametrize("game_id", ["karman-swap", "etherium"])
def test_a_warm_start_plays_as_a_cold_one(game_id, tmp_path):
    cold = _run(game_id, tmp_path)
    assert cold["parsed"] == 1 and len(_stores(tmp_path)) == 1  # parsed, and kept
    warm = _run(game_id, tmp_path)
    assert warm["parsed"] == 0, "the second process parses nothing"
    assert warm["fingerprint"] == cold["fingerprint"]
    assert warm["traces"] == cold["traces"] and len(warm["traces"][0]) > 100


def test_a_store_that_does_not_read_is_made_again(tmp_path):
    _run("karman-swap", tmp_path)
    (store,) = _stores(tmp_path)
    store.write_bytes(b"not a store")
    again = _run("karman-swap", tmp_path)
    assert again["parsed"] == 1
    assert store.read_bytes() != b"not a store"
    assert _run("karman-swap", tmp_path)["parsed"] == 0


def test_no_store_where_others_may_write_or_when_turned_off(tmp_path):
    (tmp_path / "regles").mkdir(mode=0o777)
    os.chmod(tmp_path / "regles", 0o777)
    _run("karman-swap", tmp_path)
    assert _stores(tmp_path) == []
    os.chmod(tmp_path / "regles", 0o700)
    _run("karman-swap", tmp_path, REGLES_NO_CACHE="1")
    assert _stores(tmp_path) == []


def test_an_edit_of_the_content_names_another_store(tmp_path):
    game = tmp_path / "game"
    subprocess.run(["cp", "-r", str(ROOT / "content" / "karman-swap"), str(game)], check=True)
    cache = tmp_path / "cache"
    _run(str(game), cache)
    rules = game / "game.yaml"
    rules.write_text(rules.read_text(encoding="utf-8") + "\n# an edit\n", encoding="utf-8")
    _run(str(game), cache)
    assert len(_stores(cache)) == 2
