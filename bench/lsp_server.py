"""What the language server costs under load: CPU, memory and waiting, over its real protocol.

    python bench/lsp_server.py diagnostics [--cards 3216]     # CPU to publish many diagnostics
    python bench/lsp_server.py edits [--edits 20000] [--every 1000]   # memory over many edits
    python bench/lsp_server.py documents [--count 60]         # memory with many documents open
    python bench/lsp_server.py all                             # the three, with their defaults
    ... --code DIR     # run the server of another copy of the code (an older commit, to compare)

Each measure starts `python -m interpreter lsp` in a copy of a game (made in a temporary
folder), speaks to it over its standard input and output as an editor does, and reads its
CPU time and resident memory from the operating system (psutil):

- diagnostics: the docs game with one more cards file of `--cards` cards, each with a key its
  schema refuses (one error each, which points at a word, not a range); the server's CPU time
  from opening that file to its diagnostics being published, beside the CPU time of the same
  check without the server.
- edits: Seeders, one cards file open, typed in: each edit replaces one letter of a comment
  (the text keeps its length), `--every` edits sent at once, then the check of the last one
  awaited. The server's memory after each batch; its growth per edit after the first batch.
- documents: Seeders, `--count` of its files opened at once (those of the base game first,
  then those of its expansions, each expansion a pack of its own), then a completion asked in the
  last one: how long it waited, how many checks ran before it was answered (the server logs
  each), and the server's memory once every document's diagnostics were published.

This is a benchmark, not a test: it asserts nothing, it reports.
"""
from __future__ import annotations

import argparse
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.rulings.check import check_paths  # noqa: E402

DOCS_GAME = ROOT / "tests" / "fixtures" / "docs-game"
SEEDERS = ROOT / "content" / "seeders-exodus"
WAIT = 600  # seconds at most for an answer
QUIET = 60  # seconds without a message after which no more is expected


class Server:
    """`regles lsp` as a subprocess, and the messages it sends, read in a thread of their own."""

    def __init__(self, folder: Path, code: Path):
        env = dict(os.environ, PYTHONPATH=str(code))
        self.proc = subprocess.Popen([sys.executable, "-m", "interpreter", "lsp"], cwd=folder, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.process = psutil.Process(self.proc.pid)
        self.inbox: queue.Queue = queue.Queue()
        self.ids = 0
        self.checks_logged = 0
        self.published: set[str] = set()  # the documents whose diagnostics were published
        threading.Thread(target=self._read, daemon=True).start()
        self.request("initialize", {"processId": None, "rootUri": folder.as_uri(), "capabilities": {}})
        self.notify("initialized", {})

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            self.inbox.put(json.loads(out.read(length)))

    def send(self, message: dict) -> None:
        body = json.dumps(message).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method: str, params: dict) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: dict, wait: bool = True):
        self.ids += 1
        self.send({"jsonrpc": "2.0", "id": self.ids, "method": method, "params": params})
        return self.until(lambda m: m.get("id") == self.ids and "method" not in m) if wait else self.ids

    def until(self, done, wait: float = WAIT):
        """The first message that satisfies `done`, those before it read (and counted)."""
        deadline = time.monotonic() + wait
        while True:
            message = self.inbox.get(timeout=max(0.1, deadline - time.monotonic()))
            if message.get("method") == "window/logMessage" and "checked" in message["params"]["message"]:
                self.checks_logged += 1
            if message.get("method") == "textDocument/publishDiagnostics":
                self.published.add(message["params"]["uri"])
            if done(message):
                return message

    def diagnostics_of(self, uri: str) -> list:
        return self.until(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                          and m["params"]["uri"] == uri)["params"]["diagnostics"]

    def cpu(self) -> float:
        times = self.process.cpu_times()
        return times.user + times.system

    def rss(self) -> float:
        return self.process.memory_info().rss / 1e6

    def stop(self):
        self.request("shutdown", None, wait=False)
        self.notify("exit", None)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:  # still busy: what it was doing is not measured
            self.proc.kill()


def open_document(server: Server, path: Path, text: str | None = None) -> str:
    uri = path.as_uri()
    server.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "yaml", "version": 1,
        "text": path.read_text(encoding="utf-8") if text is None else text}})
    return uri


def diagnostics(args, work: Path) -> dict:
    game = work / "docs-game"
    shutil.copytree(DOCS_GAME, game)
    cards = ["kind: cards", "game: docs-game", "cards:"]
    for i in range(args.cards):
        cards += [f"  - id: made{i}", f"    title: Made {i}", "    type: Building", "    bogus: 1"]
    many = game / "cards" / "many.yaml"
    many.write_text("\n".join(cards) + "\n", encoding="utf-8")
    start = time.process_time()
    report = check_paths([str(many)])
    check_cpu = time.process_time() - start
    server = Server(work, args.code)
    before = server.cpu()
    found = server.diagnostics_of(open_document(server, many))
    cpu = server.cpu() - before
    server.stop()
    return {"diagnostics published": len(found), "diagnostics of regles check": len(report.diagnostics),
            "server CPU seconds": round(cpu, 2), "check CPU seconds (no server)": round(check_cpu, 2)}


def seeders(work: Path) -> Path:
    game = work / "seeders-exodus"
    shutil.copytree(SEEDERS, game)
    return game


def edits(args, work: Path) -> dict:
    game = seeders(work)
    path = min((game / "cards").glob("*.yaml"))
    text = path.read_text(encoding="utf-8") + "# a\n"
    line = text.count("\n") - 1  # the comment's line, its letter at column 2
    server = Server(work, args.code)
    uri = open_document(server, path, text)
    server.diagnostics_of(uri)
    rss = [round(server.rss(), 1)]
    version = 1
    while version <= args.edits:
        for _ in range(min(args.every, args.edits - version + 1)):
            version += 1
            letter = chr(ord("a") + version % 26)
            server.notify("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"range": {"start": {"line": line, "character": 2},
                                              "end": {"line": line, "character": 3}}, "text": letter}]})
        server.request("textDocument/hover", {"textDocument": {"uri": uri},
                                              "position": {"line": 0, "character": 0}})
        server.diagnostics_of(uri)  # the check of the batch's last edit
        rss.append(round(server.rss(), 1))
    server.stop()
    edits_after_first = args.edits - args.every
    return {"edits": args.edits, "MB after opening": rss[0], "MB after each batch": rss[1:],
            "KB kept per edit after the first batch":
                round((rss[-1] - rss[1]) * 1000 / edits_after_first, 2) if edits_after_first > 0 else None}


def documents(args, work: Path) -> dict:
    game = seeders(work)
    files = sorted(game.rglob("*.yaml"), key=lambda f: ("expansions" in f.relative_to(game).parts, f))
    files = files[:args.count]  # the base game's files first (one pack), then its expansions' (one each)
    server = Server(work, args.code)
    before = server.rss()
    uris = [open_document(server, f) for f in files]
    asked = time.monotonic()
    server.request("textDocument/completion", {"textDocument": {"uri": uris[-1]},
                                               "position": {"line": 0, "character": 0}})
    waited = time.monotonic() - asked
    checks_before_answer = server.checks_logged
    while not server.published >= set(uris):
        try:
            server.until(lambda m: m.get("method") == "textDocument/publishDiagnostics", wait=QUIET)
        except queue.Empty:
            break  # a document left alone (not content), or the server stuck
    time.sleep(1)  # what the last publications leave behind is collected
    after = server.rss()
    server.stop()
    return {"documents": len(files), "MB before opening": round(before, 1), "MB with them open": round(after, 1),
            "seconds the completion waited": round(waited, 2),
            "checks logged before it was answered": checks_before_answer,
            "checks logged in all": server.checks_logged,
            "documents with no diagnostics published": sorted(str(Path(u[7:]).relative_to(game)) for u in set(uris) - server.published)}


MEASURES = {"diagnostics": diagnostics, "edits": edits, "documents": documents}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("measure", choices=[*MEASURES, "all"])
    parser.add_argument("--cards", type=int, default=3216)
    parser.add_argument("--edits", type=int, default=20000)
    parser.add_argument("--every", type=int, default=1000)
    parser.add_argument("--count", type=int, default=60)
    parser.add_argument("--code", type=Path, default=ROOT, help="the copy of the code whose server runs")
    args = parser.parse_args()
    for name in MEASURES if args.measure == "all" else [args.measure]:
        with tempfile.TemporaryDirectory() as work:
            print(name, json.dumps(MEASURES[name](args, Path(work)), indent=1), flush=True)


if __name__ == "__main__":
    main()
