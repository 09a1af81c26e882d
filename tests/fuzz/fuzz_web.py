"""Random requests to the web server, for the fuzz suite.

`web_case(seed, index)` makes case number `index` of a run seeded `seed`: a
few random requests sent, one after the other, to the application of
`regles serve` (`make_app(folder, game, bot_delay=0)`, driven by Starlette's
TestClient as a browser at http://127.0.0.1:8000 would), serving the Nim game
of tests/fixtures from a data folder of its own:

- methods, and paths: the known routes with random parameters (the case's own
  tables and uploaded traces, names that are not there, traversal attempts,
  encoded separators, very long names, odd encodings, huge numbers);
- query strings (`key`, `seat`, `since`, `after`, `expansions`, `scenario`...);
- headers: `Host`, `Origin`, `Sec-Fetch-Site`, content types;
- bodies: a valid table request, action or fork changed structurally (a field
  deleted, of another type, a huge number, a long text, nested deep), random
  JSON, JSON nested 100,000 deep, bytes that are not UTF-8;
- traces uploaded: a real trace of Nim changed structurally (a field of the
  header or of an event changed or deleted, events dropped or swapped, lines
  cut), its events' `at` pointed at a file outside the content, its header's
  `source` and `layers.mods` pointed at local files.

A private file is planted beside the data folder (outside it) with a unique
marker line. The oracle, for each answer: never a 5xx (but a 503 of a bound),
every 4xx a JSON object `{"error": "..."}` of one sentence without an absolute
path of the server's (the data folder, the content folder, /tmp), and no byte
of the private file (its marker) nor of /etc/passwd's first line in any
answer; and after each request, the server still answers a plain request.
"""
from __future__ import annotations

import json
import logging
import random
import time
from functools import lru_cache
from pathlib import Path

from fuzz_mutations import ROOT, Case

NIM = ROOT / "tests" / "fixtures" / "nim"
BASE = "http://127.0.0.1:8000"
MARKER = "PRIVATE-MARKER-7c41e9-never-in-an-answer"
REQUESTS = (4, 6, 8)
LONG = "a" * 5000


@lru_cache(maxsize=1)
def nim_trace() -> tuple:
    """A finished game of Nim with its trace: (header, events), as the security tests make it."""
    import tempfile

    import interpreter
    from interpreter.rulings.trace import save_state_trace
    g = interpreter.load(str(NIM))
    st = g.new_state(2, 5, g.options({}), trace=True)
    rng = random.Random(5)
    while not st.is_terminal():
        st.apply(rng.randrange(len(st.legal_actions())))
    with tempfile.TemporaryDirectory() as tmp:
        path = save_state_trace(Path(tmp) / "nim.jsonl", g, st, agents=["random", "random"])
        lines = path.read_text(encoding="utf-8").splitlines()
    return json.loads(lines[0]), tuple(json.loads(x) for x in lines[1:])


# -- what a case sends -------------------------------------------------------------------------------
# Strings may hold placeholders filled in the worker: {private} (the planted file), {data} (the data
# folder), {tid} and {key} (the case's last table made, and its owner's key), {name} (its last trace
# uploaded), {seat_key} (a seat's key of that table).

NAMES = ("{tid}", "{name}", "nim", "nothing", "..", "../..", "../../../etc/passwd", "..%2f..%2fetc%2fpasswd",
         "%2e%2e%2f%2e%2e%2fetc%2fpasswd", "....//....//etc/passwd", "{private}", "%2Fetc%2Fpasswd",
         "%00", "%ff%fe", "%c0%af", "é", "%E2%80%AE", "a%20b", "x" * 300, LONG, "-1", "9" * 5000, "CON",
         "upload-x", ".hidden", "a.jsonl", "{data}/traces/x", "%", "%%", "%zz", "\\..\\..\\", "~", "*", "?")
ROUTES = ("/", "/table/{p}", "/replay/{p}", "/api/games", "/api/games/{p}", "/api/tables", "/api/tables/{p}",
          "/api/tables/{p}/act", "/api/tables/{p}/why", "/api/replays", "/api/replays/{p}", "/api/replays/{p}/at/{q}",
          "/api/replays/{p}/why/{q}", "/api/replays/{p}/fork", "/static/{p}", "/static/../{p}", "/{p}", "/api/{p}",
          "/api/tables/{p}/{p}")
EVENTS = ("0", "1", "3", "-1", "9" * 20, "9" * 5000, "x", "%00", "0x10", "１", "1.5", "")
QUERY_KEYS = ("key", "seat", "since", "after", "expansions", "scenario", "event", "x")
QUERY_VALUES = ("{key}", "{seat_key}", "1", "2", "0", "-1", "99", "9" * 30, "9" * 5000, "", "abc", "%00", "%ff",
                "../../etc/passwd", "{private}", "1,2", "nim", "é", LONG, "true", "null", "[1]")
METHODS = ("GET",) * 6 + ("POST",) * 6 + ("PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE", "FOO")
HOSTS = ("127.0.0.1:8000", "localhost:8000", "127.0.0.1", "evil.example", "", "127.0.0.1:8000:80",
         "[::1]:8000", "LOCALHOST", "a" * 3000, "127.0.0.1\x00.evil", "127.0.0.1.evil.example")
ORIGINS = (BASE, "http://evil.example", "null", "", "http://127.0.0.1:8000/", "file://", "http://localhost:8000")
TYPES = ("application/json", "application/json; charset=latin-1", "text/plain", "multipart/form-data; boundary=x",
         "application/x-www-form-urlencoded", "application/jsonl", "", "application/json\x00", "APPLICATION/JSON")
ODD_VALUES = (None, True, False, 0, -1, 1, 2, 3, 10 ** 40, -(10 ** 40), 1e308, 0.5, "", "x", LONG, [], {}, [1], {"a": 1},
              "nim", "{private}", "../../etc/passwd", "person", "random", "greedy", "mcts:100000", "mcts:1", "\x00",
              "{tid}", "{key}", 2 ** 63, 2 ** 31, "mcts:1s", "search", "automaton")


def _table_request(rng) -> dict:
    seats = rng.choice((["person", "person"], ["random", "random"], ["person", "random"], ["greedy", "person"]))
    asked = {"game": "nim", "players": 2, "seats": seats}
    if rng.random() < 0.5:
        asked["seed"] = rng.randrange(1000)
    if rng.random() < 0.3:
        asked["options"] = {}
    return asked


def _mutate_json(rng, value, depth: int = 0):
    """A JSON value changed structurally at one place: a field deleted, added, of another type..."""
    if isinstance(value, dict) and value and rng.random() < 0.7:
        key = rng.choice(sorted(value))
        out = dict(value)
        how = rng.random()
        if how < 0.25:
            del out[key]
        elif how < 0.75 and depth < 3:
            out[key] = _mutate_json(rng, out[key], depth + 1)
        else:
            out[rng.choice((key, "x", "source", "expansions", "scenario", "mods", "__proto__"))] = rng.choice(ODD_VALUES)
        return out
    if isinstance(value, list) and value and rng.random() < 0.7:
        out = list(value)
        i = rng.randrange(len(out))
        how = rng.random()
        if how < 0.3:
            del out[i]
        elif how < 0.6:
            out.insert(i, rng.choice(ODD_VALUES))
        elif how < 0.8 and depth < 3:
            out[i] = _mutate_json(rng, out[i], depth + 1)
        else:
            out = out * rng.choice((2, 50))
        return out
    return rng.choice(ODD_VALUES)


def _json_bytes(value) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")


def _odd_body(rng) -> bytes:
    return rng.choice((
        b"", b"{", b"null", b"[]", b"1", b'"x"', b"{}" * 3, b"\xff\xfe\x00", b"\xc3\x28", b"[" * 100_000 + b"]" * 100_000,
        b'{"a":' * 5000 + b"1" + b"}" * 5000, b'{"game": NaN}', b'{"game": Infinity}', b'{"players": 1e999}',
        b'{"players": ' + b"9" * 5000 + b"}", b'{"game": "nim", "game": "nim"}', b"\x00" * 100, b"\xef\xbb\xbf{}",
        b'{"game": "\\ud800"}', "{\"game\": \"nim\u2028\"}".encode(), b" " * 70_000, b"a" * 70_000,
    ))


def _trace_upload(rng) -> bytes:
    """A real trace of Nim, changed structurally."""
    header, events = nim_trace()
    header = json.loads(json.dumps(header))
    events = [json.loads(json.dumps(e)) for e in events]
    for _ in range(rng.choice((1, 1, 2, 3))):
        how = rng.choice(("header", "header-file", "event", "at", "drop", "swap", "cut", "line", "none"))
        if how == "header":
            header = _mutate_json(rng, header)
        elif how == "header-file" and isinstance(header, dict):  # (a mutated header may be no object at all)
            place = rng.choice(("{private}", "/etc/passwd", "../../private/notes.txt", "{data}", "/dev/zero",
                                "/proc/self/environ", str(NIM)))
            field = rng.choice(("source", "mods", "expansions", "game", "scenario"))
            if field == "source":
                header["source"] = place
            elif field in ("mods", "expansions"):
                laid = dict(header.get("layers") or {"expansions": [], "scenario": None, "mods": []})
                laid[field] = [place]
                header["layers"] = laid
            else:
                header[field] = place
        elif how == "event" and events:
            i = rng.randrange(len(events))
            events[i] = _mutate_json(rng, events[i])
        elif how == "at" and events:
            place = rng.choice(("{private}:1", "/etc/passwd:1", "../../../etc/passwd:1", "{private}:0",
                                "{private}:99999999999999999999", "game.yaml:1", "game.yaml:-1", "{data}/x:1"))
            for e in events:
                if isinstance(e, dict) and "at" in e and rng.random() < 0.6:
                    e["at"] = place
        elif how == "drop" and events:
            del events[rng.randrange(len(events))]
        elif how == "swap" and len(events) > 1:
            i, j = rng.sample(range(len(events)), 2)
            events[i], events[j] = events[j], events[i]
    lines = [json.dumps(x, ensure_ascii=False) for x in [header, *events]]
    if rng.random() < 0.15:
        i = rng.randrange(len(lines))
        lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
    if rng.random() < 0.1:
        lines.insert(rng.randrange(len(lines) + 1), rng.choice(("", "not json", "[]", "{}", "\x00")))
    return ("\n".join(lines) + "\n").encode("utf-8", "surrogatepass")


def _aimed(rng) -> dict:
    """A request to a known route, with the case's own table or trace, its body changed."""
    q = rng.choice(QUERY_VALUES)
    path, method, body, query, kind = rng.choice((
        ("/api/tables", "POST", _mutate_json(rng, _table_request(rng)), "", "json"),
        ("/api/tables/{tid}", "GET", None, f"key={rng.choice(('{key}', '{seat_key}', q))}&seat={rng.choice(('1', '2', q))}"
         f"&since={rng.choice(('0', '1', q))}", "random"),
        ("/api/tables/{tid}/act", "POST", _mutate_json(rng, {"key": "{key}", "seat": rng.choice((1, 2)), "option": 0,
                                                             "version": rng.choice((0, 1, 2))}), "", "json"),
        ("/api/tables/{tid}/why", "POST", _mutate_json(rng, {"key": rng.choice(("{key}", "{seat_key}")),
                                                             "seat": rng.choice((1, 2)),
                                                             "move": rng.choice(("Take", "use x", LONG, ""))}),
         "", "json"),
        ("/api/replays", "POST", None, "", "trace"),
        ("/api/replays/{name}", "GET", None, "", "random"),
        ("/api/replays/{name}/at/" + rng.choice(EVENTS), "GET", None, f"seat={q}" if rng.random() < 0.5 else "", "random"),
        ("/api/replays/{name}/why/" + rng.choice(EVENTS), "GET", None,
         f"move={rng.choice(('Take', q, LONG))}&seat={rng.choice(('1', q))}", "random"),
        ("/api/replays/{name}/fork", "POST", _mutate_json(rng, {"event": rng.choice((0, 1, 3)),
                                                                "seats": ["greedy", "random"]}), "", "json"),
        ("/api/games/nim", "GET", None, f"expansions={q}&scenario={rng.choice(QUERY_VALUES)}", "random"),
        ("/replay/{name}", "GET", None, "", "random"),
        ("/table/{tid}", "GET", None, f"key={q}", "random"),
    ))
    if kind == "trace":
        data = _trace_upload(rng)
    else:
        data = None if body is None else _json_bytes(body)
    headers = {"content-type": "application/json"} if data is not None else {}
    return {"method": method, "path": path, "query": query, "headers": headers, "body": data, "kind": kind}


def _one_request(rng) -> dict:
    if rng.random() < 0.5:
        return _aimed(rng)
    route = rng.choice(ROUTES)
    path = route.replace("{p}", rng.choice(NAMES), 1).replace("{p}", rng.choice(NAMES)).replace(
        "{q}", rng.choice(EVENTS))
    method = rng.choice(METHODS)
    body = None
    kind = "random"
    if path in ("/api/tables", "/api/replays") and rng.random() < 0.3:
        method = "POST"
    if method in ("POST", "PUT", "PATCH"):
        r = rng.random()
        if path == "/api/replays" or r < 0.15:
            body, kind = _trace_upload(rng), "trace"
        elif r < 0.55:
            base = _table_request(rng) if "act" not in path and "fork" not in path else (
                {"key": "{key}", "seat": rng.choice((1, 2)), "option": 0, "version": rng.choice((0, 1, 2))}
                if "act" in path else {"event": rng.choice((0, 1, 3)), "seats": ["greedy", "greedy"]})
            body, kind = _json_bytes(_mutate_json(rng, base) if rng.random() < 0.8 else base), "json"
        elif r < 0.8:
            body, kind = _json_bytes(_mutate_json(rng, {"x": [1, {"y": "z"}]})), "json"
        else:
            body, kind = _odd_body(rng), "odd"
    query = ""
    if rng.random() < 0.4:
        query = "&".join(f"{rng.choice(QUERY_KEYS)}={rng.choice(QUERY_VALUES)}" for _ in range(rng.randint(1, 3)))
    headers = {}
    if body is not None:
        headers["content-type"] = "application/json" if rng.random() < 0.75 else rng.choice(TYPES)
    if rng.random() < 0.15:
        headers["host"] = rng.choice(HOSTS)
    if rng.random() < 0.15:
        headers["origin"] = rng.choice(ORIGINS)
    if rng.random() < 0.05:
        headers["sec-fetch-site"] = rng.choice(("cross-site", "same-origin", "none", ""))
    return {"method": method, "path": path, "query": query, "headers": headers, "body": body, "kind": kind}


def _make_table(rng) -> dict:
    return {"method": "POST", "path": "/api/tables", "query": "", "headers": {"content-type": "application/json"},
            "body": _json_bytes(_table_request(rng)), "kind": "table"}


def _upload(rng) -> dict:
    header, events = nim_trace()
    text = "\n".join(json.dumps(x) for x in [header, *events]) + "\n"
    return {"method": "POST", "path": "/api/replays", "query": "", "headers": {"content-type": "application/json"},
            "body": text.encode(), "kind": "upload"}


def web_case(seed: int, index: int) -> Case:
    """Case `index` of a run seeded `seed`: a few random requests to a fresh server."""
    rng = random.Random(f"web:{seed}:{index}")
    sent = []
    if rng.random() < 0.6:
        sent.append(_make_table(rng))  # a table of its own, whose id and keys later requests use
    if rng.random() < 0.4:
        sent.append(_upload(rng))  # a trace of its own, whose name later requests use
    sent += [_one_request(rng) for _ in range(rng.choice(REQUESTS))]
    what = [f"{r['method']} {_short(r['path'])}{'?' + _short(r['query']) if r['query'] else ''}"
            + (f" [{r['kind']} body, {len(r['body']):,} bytes]" if r["body"] is not None else "")
            + (f" {sorted(r['headers'])}" if set(r["headers"]) - {"content-type"} else "") for r in sent]
    return Case(f"web:{seed}:{index}", "web", None, target="web/nim", what=what, driver="web", data=sent)


def _short(s: str, most: int = 60) -> str:
    return s if len(s) <= most else s[:40] + f"...({len(s):,} characters)"


# -- in the worker -----------------------------------------------------------------------------------

class _Caught(logging.Handler):
    """Keeps the exceptions the server logs (its handler of unexpected errors logs each)."""

    def __init__(self):
        super().__init__(logging.ERROR)
        self.caught: list = []

    def emit(self, record):
        if record.exc_info:
            self.caught.append(record.exc_info)


def run_web(case, tmp: Path, limits, out) -> None:
    """Send the case's requests to a fresh server and check every answer (the oracle above)."""
    import fuzz_runner as R
    from starlette.testclient import TestClient

    from interpreter.play.web import app as web_app
    web_app.LONG_POLL = 0.2  # a page's wait for a change: not what is tested here, and only wall time
    private = tmp / "private" / "notes.txt"
    private.parent.mkdir()
    private.write_text(f"{MARKER}\nsecond line\n", encoding="utf-8")
    data = tmp / "data"
    passwd = _first_line("/etc/passwd")
    server_paths = [str(data.resolve()), str(NIM.resolve()), str(ROOT.resolve()), str(tmp.resolve()), "/tmp/"]
    caught = _Caught()
    logger = logging.getLogger("regles.serve")
    logger.addHandler(caught)
    logger.propagate = False
    out.stage = "served"
    fill = {"{private}": str(private), "{data}": str(data), "{tid}": "nothing0", "{key}": "nokey",
            "{seat_key}": "nokey", "{name}": "nothing"}
    try:
        with TestClient(web_app.make_app(data, str(NIM), bot_delay=0), base_url=BASE,
                        raise_server_exceptions=False) as c:
            for k, req in enumerate(case.data):
                said = f"request {k + 1} ({req['method']} {_short(_filled(req['path'], fill))})"
                r = _send(c, req, fill)
                out.requests += 1
                out.statuses[str(r.status_code)] = out.statuses.get(str(r.status_code), 0) + 1
                if req["kind"] == "table" and r.status_code == 201:
                    made = r.json()
                    fill["{tid}"], fill["{key}"] = made["id"], made["owner_key"]
                    keys = [s["key"] for s in made["seats"] if s.get("key")]
                    fill["{seat_key}"] = keys[0] if keys else made["owner_key"]
                if req["kind"] == "upload" and r.status_code == 201:
                    fill["{name}"] = r.json()["name"]
                asked = _filled(req["path"] + "?" + req["query"] + " " + " ".join(req["headers"].values()) + " "
                                + (req["body"] or b"").decode("utf-8", "replace"), fill)
                problem = _judge(r, req, [p for p in server_paths if p not in asked], passwd)
                if problem:
                    kind, detail = problem
                    tb = caught.caught[-1][2] if caught.caught else None
                    if caught.caught:
                        e = caught.caught[-1][1]
                        detail += f" ({type(e).__name__}: {str(e)[:200]})"
                    R._fail(out, kind, f"{said}: {detail}", tb)
                    return
                plain = c.get("/api/games")
                if plain.status_code != 200:
                    R._fail(out, "dead server", f"after {said}, GET /api/games answered {plain.status_code}")
                    return
                out.answered += 1
    finally:
        logger.removeHandler(caught)


def _filled(text: str, fill: dict) -> str:
    for k, v in fill.items():
        text = text.replace(k, v)
    return text


def _send(c, req: dict, fill: dict):
    path = _filled(req["path"], fill)
    query = _filled(req["query"], fill)
    url = path + ("?" + query if query else "")
    headers = {k: _filled(v, fill) for k, v in req["headers"].items()}
    body = req["body"]
    if body is not None:
        for k, v in fill.items():
            body = body.replace(k.encode(), json.dumps(v)[1:-1].encode())
    t0 = time.monotonic()
    r = c.request(req["method"], url, content=body, headers=headers)
    r.elapsed_seconds = time.monotonic() - t0
    return r


def _judge(r, req: dict, server_paths: list, passwd: str | None):
    """(failure kind, what) of an answer that breaks the oracle, or None. `server_paths` are those the
    request did not send itself (a 404 may say which path it was asked for)."""
    text = r.content.decode("utf-8", "replace")
    if MARKER in text:
        return "leak", "the answer holds the private file's marker line"
    if passwd and passwd in text:
        return "leak", "the answer holds the first line of /etc/passwd"
    if r.status_code >= 500 and r.status_code != 503:
        return "server error", f"answered {r.status_code}: {text[:200]}"
    if 400 <= r.status_code < 600:
        if req["method"] == "HEAD":
            return None  # a HEAD answer has no body
        try:
            said = json.loads(text)
        except ValueError:
            return "bad answer", f"a {r.status_code} that is not JSON: {text[:200]!r}"
        if not isinstance(said, dict) or set(said) != {"error"} or not isinstance(said["error"], str) \
                or not said["error"].strip():
            return "bad answer", f"a {r.status_code} that is not {{\"error\": sentence}}: {text[:200]!r}"
        if "\n" in said["error"].strip() or len(said["error"]) > 1000:
            return "bad answer", f"a {r.status_code} whose error is not one sentence: {said['error'][:200]!r}"
        for p in server_paths:
            if p in said["error"]:
                return "leak", f"a {r.status_code} names a path of the server's ({p}): {said['error'][:200]!r}"
    else:
        for p in server_paths:
            if p in text and p != "/tmp/":
                return "leak", f"a {r.status_code} names a path of the server's ({p}): {text[:200]!r}"
    return None


def _first_line(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as f:
            return f.readline().strip() or None
    except OSError:
        return None
