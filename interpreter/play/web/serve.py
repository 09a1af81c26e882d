"""`regles serve`: the web table started on this machine (needs regles[web]).

The server listens on 127.0.0.1 unless told otherwise (`--host 0.0.0.0` lets the
other browsers of the network in: each seat's link then carries the key that
opens it, and nothing else does). Its tables and traces are kept in a folder
(`--data`, default ./regles-tables), so that stopping and starting it again loses
no game.
"""
from __future__ import annotations

import socket
import sys
from pathlib import Path

from .app import make_app
from .guard import MAX_CONNECTIONS, allowed_hosts, bounded_protocol


class MissingServer(Exception):
    """The web extra is not installed."""


def check_available() -> None:
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise MissingServer("the web table needs Starlette and uvicorn: pip install 'regles[web]'") from None


def port_free(host: str, port: int) -> str | None:
    """Why `host:port` cannot be listened on, or None."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        return f"{host} is not an address of this machine ({exc.strerror})"
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(address)
        except OSError as exc:
            return f"cannot listen on {host}:{port}: {exc.strerror or exc}"
    return None


def serve(folder: Path, game: str | None, mods, host: str, port: int, bot_delay: float, out=None,
          allow_hosts=()) -> None:
    """Run the server until interrupted. It answers to the names of `host` (every name of this
    machine for 0.0.0.0) and to `allow_hosts` ('*': any name)."""
    out = out or sys.stdout
    hosts = None if "*" in allow_hosts else allowed_hosts(host, allow_hosts)
    app = make_app(folder, game, mods, bot_delay, hosts)
    shown = f"[{host}]" if ":" in host else host
    print(f"regles serve: the table is at http://{'127.0.0.1' if host in ('0.0.0.0', '::') else shown}:{port}/ "
          f"(tables and traces kept in {folder}; Ctrl-C stops)", file=out, flush=True)
    table_server(app, host, port).run()


def table_server(app, host: str, port: int):
    """uvicorn's server for `app`, which answers the pages waiting for a table before it stops
    (Ctrl-C): uvicorn waits for open requests, then cancels what is left, and a long poll
    cancelled so is logged as an error with a traceback."""
    import uvicorn  # here, with Starlette: only this command needs them

    class TableServer(uvicorn.Server):
        async def shutdown(self, sockets=None) -> None:
            await app.state.server.stop()
            await super().shutdown(sockets)

    return TableServer(server_config(app, host, port))


def server_config(app, host: str, port: int):
    """uvicorn's settings for `app`: the bounded protocol (guard.py), and uvicorn's own bounds on
    requests handled at once (503 beyond), idle time between requests and the size of headers."""
    import uvicorn
    return uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False, http=bounded_protocol(),
                          limit_concurrency=MAX_CONNECTIONS + 50, timeout_keep_alive=5,
                          h11_max_incomplete_event_size=16 * 1024, timeout_graceful_shutdown=2)
