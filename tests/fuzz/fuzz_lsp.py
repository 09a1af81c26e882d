"""Random frames to the language server, for the fuzz suite.

`lsp_case(seed, index)` makes case number `index` of a run seeded `seed`: a
language server started as an editor starts it (`python -m interpreter lsp`
over stdio, in a copy of the docs game of tests/fixtures), initialised, with
one card file opened; then a few bursts, each of one to three random frames
followed by a well-formed request (a hover or a completion on the card file
opened) that must be answered. The frames:

- headers: Content-Length missing, negative, not a number, huge, given twice,
  lower case, lines ended by LF alone, a header line of a megabyte;
- bodies: cut short of their length, longer than it, not JSON, not UTF-8;
- JSON of the wrong shape: a list, a number, a request without a method, a
  method that is not a text, params of the wrong types, an id that is an object
  (but never `shutdown` nor `exit`, after which a server rightly answers no more);
- methods nobody knows, requests and notifications;
- requests on documents never opened, at lines and characters out of range;
- `didOpen` and `didChange` of the game's files with their text mutated (the
  line and token mutations of fuzz_mutations.py, and the tree mutations of
  fuzz_yaml_tree.py), or of a file with thousands of errors.

The oracle: the server stays alive, answers every well-formed request after
the frames, and writes no Python traceback on its standard error.
"""
from __future__ import annotations

import json
import os
import queue
import random
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

from fuzz_mutations import OPERATIONS, ROOT, Case

GAME = ROOT / "tests" / "fixtures" / "docs-game"
ANCHOR = "cards/pawns.yaml"   # the document the well-formed requests are about: no frame changes it
DOCUMENTS = ("game.yaml", "keywords.yaml", "cards/market.yaml")
ANSWER_SECONDS = 12.0          # the longest wait for an answer: a bound on a hang, not a measure of speed
BURSTS = (3, 4, 5)


def _frame(body: bytes, length: int | None = None, *, headers: str = "") -> tuple:
    """A frame whose Content-Length is counted in the worker, once the body's placeholders are
    filled: that of the body, or `length` minus the body's length more (a lie kept as told)."""
    return ("frame", body, 0 if length is None else length - len(body), headers)


def _built(piece, root: str) -> bytes:
    """The bytes of a frame (or of a list of pieces), its `{root}` filled with the workspace's URI."""
    if isinstance(piece, list):
        return b"".join(_built(p, root) for p in piece)
    if isinstance(piece, bytes):
        return piece
    _, body, delta, headers = piece
    body = body.replace(b"{root}", root.encode())
    return f"Content-Length: {len(body) + delta}\r\n{headers}\r\n".encode() + body


def _message(obj) -> bytes:
    return json.dumps(obj, ensure_ascii=False).encode("utf-8", "surrogatepass")


def _uri(rel: str) -> str:
    return "{root}/" + rel  # filled in the worker with the workspace's file URI


# -- the frames --------------------------------------------------------------------------------------

def _odd_header(rng) -> tuple:
    body = _message({"jsonrpc": "2.0", "method": "$/fuzz", "params": {}})
    kind = rng.choice(("missing", "negative", "not a number", "huge", "twice", "lower case", "lf only",
                       "long header", "type", "empty", "spaces", "plus", "float"))
    frames = {
        "missing": b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" + body,
        "negative": b"Content-Length: -5\r\n\r\n" + body,
        "not a number": b"Content-Length: abc\r\n\r\n" + body,
        "huge": b"Content-Length: " + rng.choice((b"99999999999", b"9" * 400, b"2147483648")) + b"\r\n\r\n" + body,
        "twice": f"Content-Length: {len(body)}\r\nContent-Length: {len(body) + 7}\r\n\r\n".encode() + body,
        "lower case": f"content-length: {len(body)}\r\n\r\n".encode() + body,
        "lf only": f"Content-Length: {len(body)}\n\n".encode() + body,
        "long header": [b"X-Long: " + b"a" * 1_000_000 + b"\r\n", _frame(body)],
        "type": _frame(body, headers="Content-Type: application/vscode-jsonrpc; charset=latin-1\r\n"),
        "empty": b"Content-Length: \r\n\r\n" + body,
        "spaces": f"Content-Length:    {len(body)}   \r\n\r\n".encode() + body,
        "plus": f"Content-Length: +{len(body)}\r\n\r\n".encode() + body,
        "float": f"Content-Length: {len(body)}.0\r\n\r\n".encode() + body,
    }
    return f"header: Content-Length {kind}", frames[kind]


def _odd_body(rng) -> tuple:
    good = _message({"jsonrpc": "2.0", "method": "$/fuzz", "params": {"x": 1}})
    kind = rng.choice(("cut", "longer", "not json", "not utf-8", "empty", "nul", "deep", "bom"))
    frames = {
        "cut": _frame(good, len(good) + rng.choice((1, 5, 40))),
        "longer": _frame(good + b"}}}", len(good)) if rng.random() < 0.5 else _frame(good, len(good) - 3),
        "not json": _frame(rng.choice((b"not json", b"{", b"{\"jsonrpc\": \"2.0\",", b"NaN", b"'x'"))),
        "not utf-8": _frame(b'{"jsonrpc": "2.0", "method": "$/\xff\xfe", "params": {}}'),
        "empty": _frame(b""),
        "nul": _frame(b"\x00" * 20),
        "deep": _frame(b"[" * 100_000 + b"]" * 100_000),
        "bom": _frame(b"\xef\xbb\xbf" + good),
    }
    return f"body: {kind}", frames[kind]


def _wrong_shape(rng, ids) -> tuple:
    n = next(ids)
    shapes = (
        [], 1, "x", None, {}, {"jsonrpc": "2.0"}, {"jsonrpc": "1.0", "id": n, "method": "initialize"},
        {"jsonrpc": "2.0", "id": n}, {"jsonrpc": "2.0", "id": n, "method": 5},
        {"jsonrpc": "2.0", "id": {"a": 1}, "method": "textDocument/hover"},
        {"jsonrpc": "2.0", "id": n, "method": "textDocument/hover", "params": "x"},
        {"jsonrpc": "2.0", "id": n, "method": "textDocument/hover", "params": {}},
        {"jsonrpc": "2.0", "id": n, "method": "textDocument/completion", "params": {"textDocument": 5}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": 5}}},
        {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"contentChanges": "x"}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": _uri("game.yaml"), "languageId": "yaml", "version": "x", "text": 5}}},
        {"jsonrpc": "2.0", "id": n, "result": {"x": 1}}, {"jsonrpc": "2.0", "id": n, "error": {"code": "x"}},
        {"jsonrpc": "2.0", "id": n, "method": "initialize", "params": {"capabilities": {}}},
        {"jsonrpc": "2.0", "id": n, "method": "textDocument/hover", "params": [1, 2]},
        [{"jsonrpc": "2.0", "id": n, "method": "textDocument/hover"}],
        {"jsonrpc": "2.0", "id": 10 ** 30, "method": "textDocument/hover", "params": {}},
        {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": "nothing"}},
        {"jsonrpc": "2.0", "method": "workspace/didChangeConfiguration", "params": {"settings": [1] * 1000}},
    )
    shape = rng.choice(shapes)
    shown = json.dumps(shape)
    return f"JSON of the wrong shape: {shown[:80]}", _frame(_message(shape))


def _unknown_method(rng, ids) -> tuple:
    name = rng.choice(("foo/bar", "textDocument/nothing", "$/fuzz", "", "x" * 10_000, "textDocument/hover/x",
                       "workspace/executeCommand", "textDocument/formatting", "textDocument/rename"))
    if rng.random() < 0.5:
        obj = {"jsonrpc": "2.0", "id": next(ids), "method": name, "params": {"x": 1}}
        what = "request"
    else:
        obj = {"jsonrpc": "2.0", "method": name, "params": {"x": 1}}
        what = "notification"
    return f"a {what} of the method {name[:40]!r}", _frame(_message(obj))


def _odd_position(rng, ids) -> tuple:
    uri = rng.choice((_uri(ANCHOR), _uri("nothing.yaml"), "file:///etc/passwd", "http://example.org/x.yaml", "",
                      "file:///nonexistent/folder/game.yaml", _uri("../../outside.yaml"), "untitled:x"))
    line = rng.choice((0, 3, -1, 10 ** 9, 2 ** 31, 2 ** 40))
    character = rng.choice((0, 5, -1, 10 ** 9, 2 ** 31))
    method = rng.choice(("textDocument/hover", "textDocument/completion", "textDocument/definition"))
    obj = {"jsonrpc": "2.0", "id": next(ids), "method": method,
           "params": {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}}
    return f"{method} on {uri[:40]!r} at {line}:{character}", _frame(_message(obj))


def _mutated_text(rng, rel: str) -> tuple:
    text = (GAME / rel).read_text(encoding="utf-8")
    said = []
    if rng.random() < 0.5:
        from fuzz_yaml_tree import TREE_OPERATIONS, clone, write
        import yaml
        try:
            root = clone(yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)))
            op = rng.choice(TREE_OPERATIONS)
            said.append(op(rng, root, GAME, rel))
            text = write(root)
        except Exception as exc:  # a tree operation that found nothing to change: the text as it is
            said.append(f"no tree mutation ({type(exc).__name__})")
    else:
        for _ in range(rng.choice((1, 2))):
            text, s = rng.choice(OPERATIONS)(rng, text)
            said.append(s)
    return text, "; ".join(said)


def _edit(rng, versions: dict) -> tuple:
    rel = rng.choice(DOCUMENTS)
    if rng.random() < 0.15:
        n = rng.choice((2000, 20000))
        text = "kind: cards\ngame: docs-game\ncards:\n" + "".join(
            f"  - {{id: c{i}, title: C, abilities: [\"Nokeyword {i}\"]}}\n" for i in range(n))
        rel, said = "cards/many.yaml", f"{n} cards, each with an unknown keyword"
    else:
        text, said = _mutated_text(rng, rel)
    uri = _uri(rel)
    if uri in versions and rng.random() < 0.7:
        versions[uri] += 1
        obj = {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": versions[uri]}, "contentChanges": [{"text": text}]}}
        verb = "didChange"
    else:
        versions[uri] = 1
        obj = {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}}
        verb = "didOpen"
    return f"{verb} {rel}: {said}", _frame(_message(obj))


def lsp_case(seed: int, index: int) -> Case:
    """Case `index` of a run seeded `seed`: bursts of random frames, each followed by a request."""
    rng = random.Random(f"lsp:{seed}:{index}")
    ids = iter(range(1000, 10 ** 6))
    versions: dict = {}
    bursts = []
    for _ in range(rng.choice(BURSTS)):
        frames = []
        for _ in range(rng.choice((1, 1, 2, 3))):
            make = rng.choice(("header", "body", "shape", "shape", "method", "position", "edit", "edit", "edit"))
            if make == "header":
                frames.append(_odd_header(rng))
            elif make == "body":
                frames.append(_odd_body(rng))
            elif make == "shape":
                frames.append(_wrong_shape(rng, ids))
            elif make == "method":
                frames.append(_unknown_method(rng, ids))
            elif make == "position":
                frames.append(_odd_position(rng, ids))
            else:
                frames.append(_edit(rng, versions))
        ask = rng.choice(("textDocument/hover", "textDocument/completion"))
        bursts.append({"frames": frames, "ask": ask, "id": next(ids)})
    what = [" + ".join(f[0] for f in b["frames"]) + f", then {b['ask']}" for b in bursts]
    return Case(f"lsp:{seed}:{index}", "lsp", None, target="lsp/docs-game", what=what, driver="lsp", data=bursts)


# -- in the worker -----------------------------------------------------------------------------------

class _Reader(threading.Thread):
    """Reads the server's frames from its standard output into a queue (None at its end)."""

    def __init__(self, stream):
        super().__init__(daemon=True)
        self.stream = stream
        self.messages: queue.Queue = queue.Queue()

    def run(self):
        try:
            while True:
                length = None
                while True:
                    line = self.stream.readline()
                    if not line:
                        self.messages.put(None)
                        return
                    if line in (b"\r\n", b"\n"):
                        break
                    name, _, value = line.decode("ascii", "replace").partition(":")
                    if name.strip().lower() == "content-length":
                        length = int(value.strip())
                body = self.stream.read(length or 0)
                self.messages.put(json.loads(body))
        except (ValueError, OSError):
            self.messages.put(None)


class _Server:
    def __init__(self, workspace: Path, errors: Path):
        env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        self.err = open(errors, "wb")
        self.proc = subprocess.Popen([sys.executable, "-m", "interpreter", "lsp"], cwd=str(workspace), env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err)
        self.reader = _Reader(self.proc.stdout)
        self.reader.start()

    def send(self, raw: bytes) -> bool:
        try:
            self.proc.stdin.write(raw)
            self.proc.stdin.flush()
            return True
        except (BrokenPipeError, OSError):
            return False

    def say(self, obj) -> bool:
        """Send one well-formed message."""
        return self.send(_built(_frame(_message(obj)), ""))

    def answer(self, ident: int, seconds: float = ANSWER_SECONDS):
        """The answer to request `ident`, or None when none comes in `seconds` (or the server ends)."""
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                msg = self.reader.messages.get(timeout=left)
            except queue.Empty:
                return None
            if msg is None:
                return None
            if isinstance(msg, dict) and msg.get("id") == ident and ("result" in msg or "error" in msg):
                return msg

    def stop(self) -> None:
        self.say({"jsonrpc": "2.0", "id": 1, "method": "shutdown"})
        self.say({"jsonrpc": "2.0", "method": "exit"})
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        self.err.close()


def _request(ident: int, method: str, uri: str, line: int, character: int) -> bytes:
    return _built(_frame(_message({"jsonrpc": "2.0", "id": ident, "method": method, "params": {
        "textDocument": {"uri": uri}, "position": {"line": line, "character": character}}})), "")


def run_lsp(case, tmp: Path, limits, out) -> None:
    """Start a server, send the case's bursts, and check that each request after them is answered."""
    import fuzz_runner as R
    workspace = tmp / "workspace"
    shutil.copytree(GAME, workspace / "docs-game")
    root = (workspace / "docs-game").resolve().as_uri()
    errors = tmp / "stderr.txt"
    server = _Server(workspace, errors)
    out.stage = "served"
    try:
        server.say({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": None, "rootUri": workspace.resolve().as_uri(), "capabilities": {}}})
        if server.answer(1, 60) is None:
            R._fail(out, "dead server", "no answer to initialize")
            return
        server.say({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        anchor = root + "/" + ANCHOR
        text = (GAME / ANCHOR).read_text(encoding="utf-8")
        server.say({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": anchor, "languageId": "yaml", "version": 1, "text": text}}})
        for k, burst in enumerate(case.data):
            for said, raw in burst["frames"]:
                out.requests += 1
                server.send(_built(raw, root))
            line, character = (9, 12) if burst["ask"] == "textDocument/hover" else (10, 4)
            if not server.send(_request(burst["id"], burst["ask"], anchor, line, character)):
                R._fail(out, "dead server", f"burst {k + 1} ({case.what[k][:200]}): the server's input is closed "
                                            f"(exit status {server.proc.poll()})")
                return
            got = server.answer(burst["id"])
            if got is None:
                alive = server.proc.poll() is None
                R._fail(out, "dead server", f"burst {k + 1} ({case.what[k][:200]}): no answer to the "
                                            f"{burst['ask']} after it" + ("" if alive else
                                                                          f" (the server ended, status {server.proc.poll()})"))
                return
            if "error" in got:
                R._fail(out, "bad answer", f"burst {k + 1} ({case.what[k][:200]}): the {burst['ask']} after it "
                                           f"answered an error: {json.dumps(got['error'])[:200]}")
                return
            out.answered += 1
    finally:
        server.stop()
        said = errors.read_text(encoding="utf-8", errors="replace")
        if "Traceback" in said and out.failure is None:
            R._fail(out, "exception", "a traceback on the server's standard error: " + _traceback_of(said))


def _traceback_of(text: str) -> str:
    """The first traceback of a text, in one line: where it was raised (its innermost frames, the
    last of regles's own among them), and what was raised."""
    block = text[text.index("Traceback"):].splitlines()
    files, raised = [], ""
    for line in block[1:]:
        stripped = line.strip(" |")
        if stripped.startswith("File "):
            files.append(stripped)
        elif line and not line.startswith((" ", "|", "+")) and not stripped.startswith(("^", "~")):
            raised = stripped
            break
    ours = [f for f in files if "interpreter/" in f]
    shown = files[-2:] + ([ours[-1]] if ours and ours[-1] not in files[-2:] else [])
    return "Traceback " + " < ".join(shown) + " :: " + raised[:300]
