"""The web table's JSON as the tests ask for it: a server in process (Starlette's TestClient,
bots without a pause), a table made, a view asked for, each answer checked to be a success."""
from __future__ import annotations

from starlette.testclient import TestClient

from interpreter.play.web.app import make_app


def client(folder, game=None):
    return TestClient(make_app(folder, game, (), bot_delay=0), base_url="http://127.0.0.1:8000")


def new_table(c, **asked) -> dict:
    r = c.post("/api/tables", json=asked)
    assert r.status_code == 201, r.text
    return r.json()


def view(c, made, key, **params) -> dict:
    r = c.get(f"/api/tables/{made['id']}", params={"key": key, **params})
    assert r.status_code == 200, r.text
    return r.json()
