"""Programs kept between loads (compile/kept.py), compared with the plain path: a load of
unchanged content gives the same games as a fresh load, a change anywhere in the folder is
seen at once, one game's settings never reach another, and the memory kept is bounded."""
from __future__ import annotations

import os
import shutil

import pytest
from gamekit import FIXTURES, random_trace

import interpreter
from interpreter.compile import kept as K


@pytest.fixture
def fresh():
    """The process's kept programs, emptied before and after the test."""
    K.KEPT.clear()
    yield K.KEPT
    K.KEPT.clear()
    K.KEPT.enabled = True


@pytest.mark.parametrize("name,players", [("karman-swap", 3), ("seeders-exodus", 2), ("etherium", 2)])
def test_a_kept_program_plays_as_a_freshly_compiled_one(fresh, name, players):
    fresh.enabled = False
    plain = interpreter.load(name)
    fresh.enabled = True
    first, again = interpreter.load(name), interpreter.load(name)
    assert again.program is not first.program and again.program.codes is first.program.codes  # kept, copied
    for seed in (1, 2):
        assert random_trace(again, players, seed) == random_trace(plain, players, seed)


def test_what_one_game_sets_is_not_seen_by_another(fresh):
    a = interpreter.load(str(FIXTURES / "nim"))
    b = interpreter.load(str(FIXTURES / "nim"))
    a.program.step_budget = 7
    a.report.diagnostics.append("noted")
    assert b.program.step_budget != 7 and "noted" not in b.report.diagnostics
    assert interpreter.load(str(FIXTURES / "nim")).program.step_budget == b.program.step_budget


def test_a_file_changed_added_or_removed_is_read_again(fresh, tmp_path):
    folder = tmp_path / "nim"
    shutil.copytree(FIXTURES / "nim", folder)
    before = interpreter.load(str(folder))
    stones = len(before.program.comp_card)
    game = folder / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("title: Nim", "title: Nim again"), encoding="utf-8")
    assert interpreter.load(str(folder)).title == "Nim again"
    extra = folder / "cards" / "more.yaml"
    extra.write_text((folder / "cards" / "stones.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(interpreter.LoadError):  # the same ids twice: the new file was read
        interpreter.load(str(folder))
    extra.unlink()
    assert len(interpreter.load(str(folder)).program.comp_card) == stones


def test_a_game_that_does_not_load_is_not_kept(fresh, tmp_path):
    folder = tmp_path / "nim"
    shutil.copytree(FIXTURES / "nim", folder)
    game = folder / "game.yaml"
    text = game.read_text(encoding="utf-8")
    game.write_text(text.replace("score 1 to p", "score 1 to nobody_here"), encoding="utf-8")
    for _ in range(2):
        with pytest.raises(interpreter.LoadError):
            interpreter.load(str(folder))
    game.write_text(text, encoding="utf-8")
    assert interpreter.load(str(folder)).title == "Nim"


def test_at_most_max_kept_programs_are_kept(fresh, tmp_path):
    for i in range(K.MAX_KEPT + 3):
        folder = tmp_path / f"nim{i}"
        shutil.copytree(FIXTURES / "nim", folder)
        interpreter.load(str(folder))
    assert len(fresh._entries) == K.MAX_KEPT
    assert (os.getcwd(), str(tmp_path / f"nim{K.MAX_KEPT + 2}"), interpreter.content.layers.Chosen()) in fresh._entries


def test_a_game_named_by_a_relative_path_is_another_game_in_another_folder(fresh, tmp_path, monkeypatch):
    for side in ("a", "b"):
        shutil.copytree(FIXTURES / "nim", tmp_path / side / "nim")
    (tmp_path / "b" / "nim" / "game.yaml").write_text(
        (FIXTURES / "nim" / "game.yaml").read_text(encoding="utf-8").replace("title: Nim", "title: Nim b"),
        encoding="utf-8")
    monkeypatch.chdir(tmp_path / "a")
    assert interpreter.load("nim").title == "Nim"
    monkeypatch.chdir(tmp_path / "b")
    game = interpreter.load("nim")
    assert game.title == "Nim b" and game.program.root.resolve() == (tmp_path / "b" / "nim").resolve()


def test_a_game_loaded_from_another_folder_has_the_fingerprint_of_a_fresh_load(fresh, tmp_path, monkeypatch):
    from interpreter.engine.fingerprint import fingerprint
    path = str(FIXTURES / "envoys")
    interpreter.load(path)
    monkeypatch.chdir(tmp_path)
    again = fingerprint(interpreter.load(path).program)
    fresh.enabled = False
    assert again == fingerprint(interpreter.load(path).program)
