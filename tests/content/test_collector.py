"""The cycle collector is paused while a pack is read, checked and compiled (content.pack:
`collector_paused`), and given back as it was, whatever happens inside: a check that finds
errors, a load that fails, a caller that had paused it already."""
from __future__ import annotations

import gc

import pytest

import interpreter
from interpreter.content.pack import collector_paused
from interpreter.diagnostics import LoadError
from interpreter.rulings.check import check_paths


def test_the_collector_is_paused_inside_and_resumed_after(tmp_path):
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ValueError):
        with collector_paused():
            raise ValueError("a fault inside")
    assert gc.isenabled()
    gc.disable()
    try:  # a caller that paused it keeps it paused
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_check_and_load_give_the_collector_back(tmp_path):
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "game.yaml").write_text("kind: game\nid: broken\ntitle: Broken\nplayers: {min: 2, max: 2}\n"
                                      "procedures:\n  game: |\n    move nothing to nowhere\n", encoding="utf-8")
    assert not check_paths([str(broken)]).ok
    assert gc.isenabled()
    with pytest.raises(LoadError):
        interpreter.load(str(broken))
    assert gc.isenabled()
    interpreter.load("karman-swap")
    assert gc.isenabled()
