"""`regles serve`'s application run by uvicorn in a thread, with the settings `regles serve`
uses (web/serve.server_config), on a free port of 127.0.0.1: for the tests that need a real
server (a browser, raw sockets)."""
from __future__ import annotations

import json
import socket
import threading
import time
import urllib.request
from pathlib import Path

from interpreter.play.web.app import make_app
from interpreter.play.web.serve import table_server


class Served:
    def __init__(self, folder, game=None):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.folder = Path(folder)
        self.app = make_app(folder, game, bot_delay=0)
        self.server = table_server(self.app, "127.0.0.1", self.port)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)

    def post(self, path: str, data: dict) -> dict:
        req = urllib.request.Request(self.base + path, json.dumps(data).encode(), {"content-type": "application/json"})
        with urllib.request.urlopen(req, timeout=60) as r:
            return json.loads(r.read())

    def get(self, path: str) -> dict:
        with urllib.request.urlopen(self.base + path, timeout=60) as r:
            return json.loads(r.read())

    def seat_key(self, table: str, seat: int) -> str:
        """The key of a seat (from 0) of a table, as the server keeps it."""
        return self.app.state.server.tables[table].seat_keys[seat]

    def trace_header(self, table: str) -> dict:
        """The header of the trace a table's game left among the replays."""
        with open(self.folder / "traces" / f"{table}.jsonl", encoding="utf-8") as f:
            return json.loads(f.readline())

    def connect(self) -> socket.socket:
        return socket.create_connection(("127.0.0.1", self.port), timeout=5)

    def stop(self):
        # as Ctrl-C stops `regles serve`: the pages' long polls still open are answered first
        self.server.should_exit = True
        self.thread.join(10)
        assert not self.thread.is_alive(), "the server did not stop"
