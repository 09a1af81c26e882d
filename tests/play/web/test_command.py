"""`regles serve` as a user runs it: usage errors first, content errors before serving, and
the real command answering on the port it names."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
from gamekit import CORPUS

from interpreter import cli

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("argv,says", [
    (["serve", "nosuchgame"], "no such game"),
    (["serve", "--with", "somewhere"], "name the game"),
    (["serve", "--port", "70000"], "--port takes a port"),
    (["serve", "--bot-delay", "-1"], "--bot-delay"),
])
def test_usage_errors_exit_2_with_a_sentence(argv, says, capsys, tmp_path):
    assert cli.main(argv + ["--data", str(tmp_path)]) == 2
    assert says in capsys.readouterr().err


def test_a_game_with_content_errors_is_reported_and_not_served(capsys, tmp_path):
    assert cli.main(["serve", str(CORPUS / "game_table_hints"), "--data", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "table hints name unknown zone 'hnad'" in err and "Traceback" not in err


def test_a_port_already_taken_is_a_usage_error(capsys, tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        assert cli.main(["serve", "--port", str(port), "--data", str(tmp_path)]) == 2
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err


def test_the_command_serves_the_start_page_on_localhost(tmp_path):
    port = _free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "interpreter", "serve", "karman-swap", "--port", str(port),
                             "--data", str(tmp_path / "data")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    try:
        said = proc.stdout.readline()
        assert said.startswith(f"regles serve: the table is at http://127.0.0.1:{port}/")
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=30) as r:
                    games = r.read().decode()
                break
            except OSError:
                assert time.monotonic() < deadline, "the server does not answer"
                time.sleep(0.1)
        assert '"name": "karman-swap"' in games or '"name":"karman-swap"' in games
        assert '"seeders-exodus"' not in games  # only the game it was started with
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as r:
            assert "<title>regles: a table for any game</title>" in r.read().decode()
        assert (tmp_path / "data" / "tables").is_dir()
    finally:
        proc.terminate()
        proc.wait(20)


def test_without_the_web_extra_the_command_says_what_to_install(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if it were not installed
    assert cli.main(["serve", "--data", str(tmp_path)]) == 2
    assert "pip install 'regles[web]'" in capsys.readouterr().err
