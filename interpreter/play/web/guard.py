"""What the web server checks before a request reaches a page: who may ask, and how.

Two guards, each for an attack a browser makes possible:

- **`RequestGuard`** (an ASGI middleware) answers 403 to a request whose `Host`
  is not one of the server's names, so that a page of another site whose name
  was pointed at this machine (DNS rebinding) cannot read the tables; 403 to a
  request that changes something (any method but GET and HEAD) sent by a page
  of another origin (`Origin`, or `Sec-Fetch-Site: cross-site`); and 415 to a
  body that is not sent as JSON. A page of another site can only send a
  cross-site body as a form or as `text/plain` without asking first, so a server
  that takes JSON alone cannot be driven by such a form (CSRF).
- **`BoundedH11Protocol`** (uvicorn's HTTP/1.1 protocol, with two bounds)
  closes a connection whose request is not all received within
  `REQUEST_SECONDS` (a client that sends its headers a byte at a time holds
  nothing for long), and refuses connections beyond `MAX_CONNECTIONS`.

Refusals are JSON `{"error": "..."}` with one sentence, as every other refusal
of the server.
"""
from __future__ import annotations

import json
import socket

MAX_CONNECTIONS = 400  # connections held open at once (each page holds one, waiting for its table: 100 tables of 4)
REQUEST_SECONDS = 20.0  # time a client has to send a whole request (headers and body)
LOOPBACK = ("127.0.0.1", "localhost", "::1")
JSON_TYPES = ("application/json", "application/x-ndjson", "application/jsonl")


def allowed_hosts(host: str, extra=()) -> frozenset:
    """The names a request's `Host` may give for a server listening on `host`: the loopback
    names, the address listened on, every name and address of this machine when it listens on
    all of them (`0.0.0.0`, `::`), and those allowed with `--allow-host`."""
    names = {*LOOPBACK, host.strip("[]").lower()}
    if host in ("0.0.0.0", "::", ""):
        for name in {socket.gethostname(), socket.getfqdn()}:
            names.add(name.lower())
            try:
                names.update(info[4][0] for info in socket.getaddrinfo(name, None))
            except OSError:
                pass
    names.update(h.strip("[]").lower() for h in extra)
    return frozenset(n for n in names if n)


def host_name(value: str) -> str:
    """'example.org' of 'example.org:8000', '::1' of '[::1]:8000': the name of a Host header."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:].partition("]")[0]
    if value.count(":") == 1:
        return value.partition(":")[0]
    return value


def _refusal(status: int, message: str):
    body = json.dumps({"error": message}).encode()
    return [{"type": "http.response.start", "status": status,
             "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]},
            {"type": "http.response.body", "body": body}]


class RequestGuard:
    """Refuses requests to a name the server does not answer to, changes asked by another
    site's page, and bodies that are not JSON. `hosts` None: any Host (`--allow-host '*'`)."""

    def __init__(self, app, hosts: frozenset | None):
        self.app = app
        self.hosts = hosts

    def why_refused(self, scope) -> tuple[int, str] | None:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())}
        host = headers.get("host", "")
        if self.hosts is not None and host_name(host) not in self.hosts:
            return 403, (f"this server does not answer to the name '{host_name(host)[:60]}' (start it with "
                         f"--allow-host NAME to let it answer to that name)")
        if scope.get("method") in ("GET", "HEAD"):
            return None
        origin = headers.get("origin")
        if origin is not None and origin.partition("://")[2].lower() != host.lower():
            return 403, "a page of another site may not act on this server"
        if origin is None and headers.get("sec-fetch-site") == "cross-site":
            return 403, "a page of another site may not act on this server"
        kind = headers.get("content-type", "").partition(";")[0].strip().lower()
        has_body = headers.get("content-length", "0") != "0" or "transfer-encoding" in headers
        if has_body and kind not in JSON_TYPES:
            return 415, "the request's body must be sent as JSON (content-type: application/json)"
        return None

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            refused = self.why_refused(scope)
            if refused is not None:
                for message in _refusal(*refused):
                    await send(message)
                return
        await self.app(scope, receive, send)


_BUSY_BODY = json.dumps({"error": "the server holds as many connections as it takes: try again soon"}).encode()
_BUSY = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nconnection: close\r\n"
         b"content-length: " + str(len(_BUSY_BODY)).encode() + b"\r\n\r\n" + _BUSY_BODY)


def bounded_protocol():
    """uvicorn's HTTP/1.1 protocol with a deadline on each request and a bound on connections
    (uvicorn has neither: it closes idle connections between requests, not a request that
    never ends). Made on demand: uvicorn is only imported by `regles serve`."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class BoundedH11Protocol(H11Protocol):
        deadline = None

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            if len(self.connections) > MAX_CONNECTIONS:
                transport.write(_BUSY)
                transport.close()
                return
            self._start_deadline()

        def _start_deadline(self) -> None:
            self._stop_deadline()
            self.deadline = self.loop.call_later(REQUEST_SECONDS, self._too_slow)

        def _stop_deadline(self) -> None:
            if self.deadline is not None:
                self.deadline.cancel()
                self.deadline = None

        def _too_slow(self) -> None:
            self.deadline = None
            if self.conn.their_state is not h11.DONE and not self.transport.is_closing():
                self.transport.close()  # the request never came whole: nothing more is waited for

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state is h11.DONE:  # the request is in: the page may now wait
                self._stop_deadline()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._start_deadline()  # the next request on this connection has its own time

        def connection_lost(self, exc) -> None:
            self._stop_deadline()
            super().connection_lost(exc)

    return BoundedH11Protocol
