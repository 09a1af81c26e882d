"""A warm start (`interpreter.compile.warm`): a game loaded by a second process from what the first one
read, checked, parsed and compiled plays exactly as one loaded from nothing; a file edited, added
or removed is read again; and a store that does not read, or lies in a folder others may write,
is not used."""
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
import interpreter.compile.warm as warm
made = []
def counted_compile(*args):
    made.append(1)
    return compile(*args)
warm.compile = counted_compile
checks = []
read_and_check = interpreter.read_and_check
def counted(*args, **kwargs):
    checks.append(1)
    return read_and_check(*args, **kwargs)
interpreter.read_and_check = counted
game = interpreter.load(sys.argv[1], expansions=sys.argv[2].split(",") if len(sys.argv) > 2 else ())
games = []
for seed in range(3):
    st = game.new_state(game.min_players, seed, trace=True)
    r = random.Random(seed)
    while not st.is_terminal() and len(st.history) < 300:
        st.apply(r.randrange(len(st.legal_actions())))
    games.append(st.trace)
from interpreter.engine.fingerprint import fingerprint
print(json.dumps({"fingerprint": fingerprint(game.program), "traces": games, "checked": len(checks),
                  "compiled": len(made),
                  "parsed": parser._fast_parser.cache_info().currsize,
                  "warnings": [str(d.message) for d in game.report.diagnostics]}, default=str))
"""


def _run(game_id: str, cache: Path, *more, **env) -> dict:
    out = subprocess.run([sys.executable, "-c", _PLAY, game_id, *more], capture_output=True, text=True, cwd=ROOT,
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
    # nor compiles: the codes the first compiled as its games reached them, after its load,
    # were added to the store when it ended
    assert cold["compiled"] > 0 and warm["compiled"] == 0
    assert cold["checked"] == 1 and warm["checked"] == 0, "the second process reads and checks nothing"
    assert warm["fingerprint"] == cold["fingerprint"] and warm["warnings"] == cold["warnings"]
    assert warm["traces"] == cold["traces"] and len(warm["traces"][0]) > 100


def _checked(cache: Path) -> list:
    return sorted((cache / "regles").glob("checked-*.pickle"))


def test_a_store_that_does_not_read_is_made_again(tmp_path):
    _run("karman-swap", tmp_path)
    (store,) = _stores(tmp_path)
    (checked,) = _checked(tmp_path)
    store.write_bytes(b"not a store")
    checked.write_bytes(b"not a store either")
    again = _run("karman-swap", tmp_path)
    assert again["parsed"] == 1 and again["checked"] == 1
    assert store.read_bytes() != b"not a store" and checked.read_bytes() != b"not a store either"
    last = _run("karman-swap", tmp_path)
    assert last["parsed"] == 0 and last["checked"] == 0


def test_trees_that_do_not_read_are_parsed_again(tmp_path):
    """A warm start whose pack is checked already reads the store's trees only when one is looked
    for (Seeders' compiling looks some up): trees that do not read then are parsed again."""
    import pickle
    first = _run("seeders-exodus", tmp_path)
    (store,) = _stores(tmp_path)
    data = pickle.loads(store.read_bytes())
    store.write_bytes(pickle.dumps({"trees": b"not trees", "codes": data["codes"]}))
    again = _run("seeders-exodus", tmp_path)
    assert again["checked"] == 0 and again["traces"] == first["traces"]
    assert isinstance(pickle.loads(pickle.loads(store.read_bytes())["trees"]), dict)  # written again


def test_a_checked_pack_is_kept_per_choice_of_expansions(tmp_path):
    base = _run("seeders-exodus", tmp_path)
    tais = _run("seeders-exodus", tmp_path, "tais")
    assert tais["checked"] == 1 and len(_checked(tmp_path)) == 2
    again = _run("seeders-exodus", tmp_path, "tais")
    assert again["checked"] == 0 and again["traces"] == tais["traces"] != base["traces"]
    assert _run("seeders-exodus", tmp_path)["traces"] == base["traces"]


def _copy(tmp_path) -> Path:
    game = tmp_path / "game"
    subprocess.run(["cp", "-r", str(ROOT / "content" / "karman-swap"), str(game)], check=True)
    return game


def test_a_file_edited_added_or_removed_is_read_and_checked_again(tmp_path):
    game, cache = _copy(tmp_path), tmp_path / "cache"
    first = _run(str(game), cache)
    assert _run(str(game), cache)["checked"] == 0
    # an edit the game sees: the first card file's cards given another title
    cards = sorted((game / "cards").glob("*.yaml"))[0]
    text = cards.read_text(encoding="utf-8")
    cards.write_text(text.replace("title: ", "title: Z", 1), encoding="utf-8")
    edited = _run(str(game), cache)
    assert edited["checked"] == 1 and edited["traces"] != first["traces"]
    assert _run(str(game), cache)["checked"] == 0
    # a file added: a card file with a card of its own
    import yaml
    data = yaml.safe_load(text)
    data["cards"] = [{**data["cards"][0], "id": "one-more"}]
    (game / "cards" / "more.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    added = _run(str(game), cache)
    assert added["checked"] == 1
    # and removed again
    (game / "cards" / "more.yaml").unlink()
    assert _run(str(game), cache)["checked"] == 1
    cards.write_text(text, encoding="utf-8")  # one pack is kept for a game and choice: the last read
    back = _run(str(game), cache)
    assert back["checked"] == 1 and back["traces"] == first["traces"]
    assert _run(str(game), cache)["checked"] == 0


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


def test_no_checked_pack_while_an_editor_s_texts_stand_for_files(tmp_path, monkeypatch):
    """The language server checks texts it holds unsaved: what is on disk is not what is read."""
    from interpreter.compile.warm import CheckedPack
    from interpreter.content.layers import Chosen
    from interpreter.content.source import edited_texts
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("REGLES_NO_CACHE", raising=False)
    root = ROOT / "content" / "karman-swap"
    assert CheckedPack(root, Chosen()).path is not None
    with edited_texts({str(root / "game.yaml"): "kind: game\n"}):
        assert CheckedPack(root, Chosen()).path is None


def test_a_file_saved_while_the_load_reads_it_leaves_no_checked_pack(tmp_path, monkeypatch):
    """Else the pack read from the old bytes would be taken, later, for one of the new."""
    import interpreter
    from interpreter.compile import kept as K
    game = _copy(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("REGLES_NO_CACHE", raising=False)
    monkeypatch.setattr(K.KEPT, "enabled", False)
    real = interpreter.read_and_check

    def read_then_save(*args, **kwargs):
        found = real(*args, **kwargs)
        rules = game / "game.yaml"
        rules.write_text(rules.read_text(encoding="utf-8") + "\n# saved meanwhile\n", encoding="utf-8")
        return found
    monkeypatch.setattr(interpreter, "read_and_check", read_then_save)
    interpreter.load(str(game))
    assert _checked(tmp_path / "cache") == []
    monkeypatch.setattr(interpreter, "read_and_check", real)
    interpreter.load(str(game))
    assert len(_checked(tmp_path / "cache")) == 1


def test_a_file_saved_while_the_load_reads_it_leaves_no_program_kept_in_memory(tmp_path, monkeypatch):
    """The programs kept in memory (compile.kept) are checked against the bytes before the read."""
    import interpreter
    from interpreter.compile import kept as K
    game = _copy(tmp_path)
    monkeypatch.setenv("REGLES_NO_CACHE", "1")
    monkeypatch.setattr(K, "KEPT", K.Kept())
    monkeypatch.setattr(interpreter, "KEPT", K.KEPT)
    real = interpreter.read_and_check
    rules = game / "game.yaml"

    def read_then_save(*args, **kwargs):
        found = real(*args, **kwargs)
        rules.write_text(rules.read_text(encoding="utf-8") + "\n# saved meanwhile\n", encoding="utf-8")
        return found
    monkeypatch.setattr(interpreter, "read_and_check", read_then_save)
    interpreter.load(str(game))
    assert K.KEPT._entries == {}
    monkeypatch.setattr(interpreter, "read_and_check", real)
    interpreter.load(str(game))
    assert len(K.KEPT._entries) == 1


def test_two_loads_of_the_same_files_keep_each_other_s_code_objects(tmp_path):
    """Two loads of one process that read the same files share a store's file: each adds the code
    objects it compiled after its load, and neither drops the other's."""
    import marshal
    import pickle

    from interpreter.compile.warm import CodeStore, compiled
    path = str(tmp_path / "warm-test.pickle")
    first, second = CodeStore({}, path), CodeStore({}, path)
    trees = pickle.dumps({})
    first.write(trees)
    second.write(trees)
    compiled("a = 1", "<one>", "exec", first)
    compiled("b = 2", "<two>", "exec", second)
    first.write_added()
    second.write_added()
    with open(path, "rb") as f:
        held = marshal.loads(pickle.load(f)["codes"])
    assert set(held) == {("exec", "<one>", "a = 1"), ("exec", "<two>", "b = 2")}
