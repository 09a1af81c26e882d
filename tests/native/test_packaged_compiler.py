"""The native backend where the machine has no C compiler: Zig's, which the `ziglang` package
ships (`pip install 'regles[zig]'`), builds the game, and the game plays as on the Python
backend. The YAML reader, which links the system's libyaml, asks for the system's compiler only."""
from __future__ import annotations

import json
import os
import random
from importlib import util

import pytest

from gamekit import fixture_game
from interpreter import cbuild

native = pytest.importorskip("interpreter.native")
pytest.importorskip("cffi")


def test_with_no_compiler_and_no_package_there_is_none(monkeypatch):
    monkeypatch.setenv("CC", "no-such-compiler")
    monkeypatch.setattr(util, "find_spec", lambda name: None)
    assert cbuild.compiler() is None and cbuild.compiler(packaged=True) is None
    assert native.compiler() is None
    with pytest.raises(native.NoCompiler, match=r"pip install 'regles\[zig\]'"):
        native.NativeGame(fixture_game("nim"))


def test_the_system_compiler_comes_first(monkeypatch, tmp_path):
    cc = tmp_path / "my-cc"
    cc.write_text("#!/bin/sh\n", encoding="utf-8")
    cc.chmod(0o755)
    monkeypatch.setenv("CC", str(cc))
    assert cbuild.compiler(packaged=True) == [str(cc)]
    assert cbuild.named([str(cc)]) == "my-cc"


def test_zigs_compiler_builds_the_game_where_the_machine_has_none(monkeypatch, tmp_path):
    pytest.importorskip("ziglang")
    from interpreter.native import build as native_build
    monkeypatch.setenv("CC", "no-such-compiler")
    zig_cache = os.environ.get("ZIG_GLOBAL_CACHE_DIR") or \
        os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "zig")
    monkeypatch.setenv("ZIG_GLOBAL_CACHE_DIR", zig_cache)  # (Zig's own, where a user's Zig keeps it)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # the game built here, not taken from a cache
    monkeypatch.delenv("REGLES_NO_CACHE", raising=False)
    monkeypatch.setattr(native_build, "_LOADED", {})
    used = []
    real = native_build.compile_to
    monkeypatch.setattr(native_build, "compile_to", lambda cc, args, path: (used.append(cc), real(cc, args, path)))
    assert cbuild.compiler() is None  # the YAML reader's: the system's only
    cc = native.compiler()
    assert cc[1:] == ["-m", "ziglang", "cc"] and cbuild.named(cc) == "zig cc"
    game = fixture_game("nim")
    compiled = native.NativeGame(game)
    assert used == [cc]
    assert any(f.startswith("game-") for f in os.listdir(tmp_path / "regles" / "native"))
    for seed in range(10):
        traces = []
        for make in (game.new_state, compiled.new_state):
            st = make(players=2, seed=seed, trace=True)
            rng = random.Random(seed)
            while not st.is_terminal():
                acts = st.legal_actions()
                st.apply(acts[rng.randrange(len(acts))])
            traces.append(json.dumps(st.trace, ensure_ascii=False))
        assert traces[0] == traces[1]
