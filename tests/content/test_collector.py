"""The cycle collector is paused while a pack is read, checked and compiled (content.pack:
`collector_paused`), and given back as it was, whatever happens inside: a check that finds
errors, a load that fails, a caller that had paused it already."""
from __future__ import annotations

import gc
import os
import subprocess
import sys

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


_LOADS = ("import gc, sys, interpreter; interpreter.FREEZE_FIRST_LOAD = sys.argv[1] == 'on'; "
          "interpreter.load('karman-swap'); first = gc.get_freeze_count(); "
          "interpreter.load('etherium'); print(first, gc.get_freeze_count())")


@pytest.mark.parametrize("freeze", ["on", "off"])
def test_the_first_load_of_a_process_is_frozen_and_later_ones_collected(freeze):
    """A process's first load freezes what it made (no collection walks it again); a later load
    collects, so that a process loading many games frees what it drops; off, every load collects."""
    done = subprocess.run([sys.executable, "-c", _LOADS, freeze], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "REGLES_NO_CACHE": "1"})
    assert done.returncode == 0, done.stderr[-2000:]
    first, after = map(int, done.stdout.split())
    if freeze == "on":
        assert first > 10_000 and after == first  # the second load's objects are not frozen
    else:
        assert first == after == 0
