"""The web table under load: many tables, people playing at a human pace, bots, and a server
killed at random points and started again.

    python bench/web_load.py [--tables 50] [--people 4] [--bots 1] [--minutes 10] [--kills 4]
                             [--game seeders-exodus] [--expansions tais] [--port 8765] [--json FILE]

Starts `regles serve` (the real command, in its own process, on 127.0.0.1 only) over a
new folder, makes `--tables` tables of `--people` people and `--bots` greedy bots, and runs
one client per person: each long-polls its table as a page does, and when its seat is to
decide it thinks 1 to 4 seconds (a person's pace) and sends its choice on the view it
was shown. `--kills` times, at random moments, the server is killed (SIGKILL: no chance to
save anything more) and started again over the same folder; the clients carry on, as pages
do, asking again until it answers.

Reported: the moves served; the 95th percentile (and median, max) of the time to answer a
move and to answer a page that asks without waiting; the server's memory (largest resident
size seen); and what the run checks:
- no move lost: every move a client was answered 200 for is in its table's history, at its
  place, with its option, once the run is over (read from the tables' files);
- no move doubled: no two moves answered 200 for one place of one table;
- no table lost: after each restart every table answers, none set aside.
A move sent to a server killed mid-request is sent again on the view the client then gets;
the version it names makes the server apply it at most once.

It also checks, once per run, that two clients moving at once on one table see exactly one
move applied and the other told why (409).

Clients speak HTTP/1.1 over asyncio's own streams (one connection each, kept alive), so the
bench needs nothing beyond the web extra the server needs. It asserts nothing: it reports.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


class Down(Exception):
    """The server did not answer (killed, or starting again)."""


class Client:
    """One HTTP/1.1 connection to the server, opened again when it breaks."""

    def __init__(self, port: int):
        self.port = port
        self.reader = self.writer = None

    async def request(self, method: str, path: str, body: dict | None = None, timeout: float = 40.0):
        data = json.dumps(body).encode() if body is not None else b""
        head = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nContent-Length: {len(data)}\r\n"
                + ("Content-Type: application/json\r\n" if body is not None else "") + "\r\n").encode()
        for attempt in (0, 1):
            try:
                if self.writer is None:
                    self.reader, self.writer = await asyncio.wait_for(
                        asyncio.open_connection("127.0.0.1", self.port), 5)
                self.writer.write(head + data)
                await self.writer.drain()
                return await asyncio.wait_for(self._answer(), timeout)
            except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError):
                self.close()
                if attempt:  # a kept-alive connection the server closed is tried once more, fresh
                    raise Down() from None
        raise Down()

    async def _answer(self):
        status_line = await self.reader.readuntil(b"\r\n")
        status = int(status_line.split()[1])
        length = 0
        while True:
            line = await self.reader.readuntil(b"\r\n")
            if line == b"\r\n":
                break
            name, _, value = line.decode("latin-1").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value.strip())
        raw = await self.reader.readexactly(length)
        return status, json.loads(raw) if raw else None

    def close(self):
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


class Server:
    """`regles serve` in its own process, killed and started again on demand."""

    def __init__(self, folder: Path, port: int, game: str):
        self.folder, self.port, self.game = folder, port, game
        self.proc = None
        self.peak_rss = 0
        self.restarts = []  # seconds each restart took until the server answered

    def start(self):
        env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        self.proc = subprocess.Popen([sys.executable, "-m", "interpreter", "serve", self.game, "--port", str(self.port),
                                      "--data", str(self.folder), "--bot-delay", "0.4"],
                                     env=env, stdout=subprocess.DEVNULL, stderr=open(self.folder / "server.log", "a"))

    async def ready(self):
        began = time.monotonic()
        while time.monotonic() - began < 120:
            if self.proc.poll() is not None:
                raise SystemExit("the server stopped: see " + str(self.folder / "server.log"))
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return time.monotonic() - began
            except OSError:
                await asyncio.sleep(0.1)
        raise SystemExit("the server did not start: see " + str(self.folder / "server.log"))

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def rss(self) -> int:
        try:
            for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    kb = int(line.split()[1])
                    self.peak_rss = max(self.peak_rss, kb)
                    return kb
        except OSError:
            pass
        return 0


class Run:
    def __init__(self):
        self.acked: dict = {}  # (table, version) -> (seat, option): the moves answered 200
        self.doubled = 0
        self.move_times: list = []
        self.view_times: list = []
        self.refused: dict = {}  # status -> count (409: the table moved meanwhile, as a page is told)
        self.downs = 0


async def person(port: int, table: str, seat: int, key: str, run: Run, until: float, rng: random.Random):
    c = Client(port)
    version = -1
    told = 0  # the lines of the seat's log had so far: a page asks only for those after
    moves = 0
    while time.monotonic() < until:
        try:
            status, v = await c.request("GET", f"/api/tables/{table}?key={key}&after={version}&since={told}")
            if status != 200:
                run.refused[status] = run.refused.get(status, 0) + 1
                await asyncio.sleep(1)
                continue
            version = v["version"]
            told = v["log_from"] + len(v["log"])
            if v["over"] or v["fault"]:
                return
            d = v["decision"]
            if not d or d["player"] != seat or "options" not in d:
                continue
            await asyncio.sleep(rng.uniform(1.0, 4.0))  # a person thinks
            option = rng.randrange(len(d["options"]))
            t0 = time.monotonic()
            status, answer = await c.request("POST", f"/api/tables/{table}/act",
                                             {"key": key, "seat": seat + 1, "option": option, "version": version,
                                              "since": told})
            run.move_times.append(time.monotonic() - t0)
            if status == 200:
                place = (table, version)
                if place in run.acked:
                    run.doubled += 1
                run.acked[place] = (seat, option)
            else:
                run.refused[status] = run.refused.get(status, 0) + 1
            moves += 1
            if status == 200:
                version, told = answer["version"], answer["log_from"] + len(answer["log"])
            if moves % 5 == 0:  # now and then, a page asks without waiting (as one opened anew does)
                t0 = time.monotonic()
                status, _ = await c.request("GET", f"/api/tables/{table}?key={key}&since={told}")
                run.view_times.append(time.monotonic() - t0)
        except Down:
            run.downs += 1
            version, told = -1, 0  # the table as the server has it now: it may have lost the bots' last moves
            await asyncio.sleep(0.5)


async def two_at_once(port: int, game: str, expansions: list, people: int) -> dict:
    """Two clients send a move on the same view at the same moment: one is applied."""
    c = Client(port)
    status, made = await c.request("POST", "/api/tables", {"game": game, "players": people, "expansions": expansions,
                                                           "seats": ["person"] * people, "seed": 1})
    key = made["owner_key"]
    _, v = await c.request("GET", f"/api/tables/{made['id']}?key={key}")
    seat = v["decision"]["player"]
    a, b = Client(port), Client(port)
    body = {"key": key, "seat": seat + 1, "option": 0, "version": v["version"]}
    answers = await asyncio.gather(a.request("POST", f"/api/tables/{made['id']}/act", body),
                                   b.request("POST", f"/api/tables/{made['id']}/act", body))
    _, after = await c.request("GET", f"/api/tables/{made['id']}?key={key}")
    statuses = sorted(s for s, _ in answers)
    why = next((x["error"] for s, x in answers if s != 200), None)
    return {"statuses": statuses, "versions_moved": after["version"] - v["version"], "told": why}


def ms(xs: list) -> dict | None:
    """Median, 95th percentile and largest of times in seconds, in milliseconds."""
    if not xs:
        return None
    xs = sorted(xs)
    at = lambda p: xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]  # noqa: E731
    return {"p50": round(1000 * at(50), 1), "p95": round(1000 * at(95), 1), "max": round(1000 * xs[-1], 1)}


async def main(args) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="regles-load-"))
    server = Server(folder, args.port, args.game)
    server.start()
    try:
        return await _measure(args, folder, server)
    finally:
        if server.proc.poll() is None:
            server.kill()


async def _measure(args, folder: Path, server: Server) -> dict:
    await server.ready()
    rng = random.Random(args.seed)
    setup = Client(args.port)
    tables = []
    n = args.people + args.bots
    for t in range(args.tables):
        status, made = await setup.request("POST", "/api/tables", {
            "game": args.game, "expansions": args.expansions, "players": n, "seats": ["person"] * args.people + ["greedy"] * args.bots,
            "seed": args.seed * 1000 + t}, timeout=120)
        if status != 201:
            raise SystemExit(f"table {t}: {status} {made}")
        tables.append(made)
    run = Run()
    began = time.monotonic()
    until = began + args.minutes * 60
    clients = [asyncio.create_task(person(args.port, m["id"], s, m["seats"][s]["key"], run, until,
                                          random.Random(rng.random())))
               for m in tables for s in range(args.people)]
    kills = sorted(rng.uniform(0.1, 0.9) * args.minutes * 60 for _ in range(args.kills))
    lost_tables = []
    rss_samples = []
    for at in kills + [None]:
        stop = until if at is None else began + at
        while time.monotonic() < stop:
            rss_samples.append(server.rss())
            await asyncio.sleep(min(5, max(0.05, stop - time.monotonic())))
        if at is None:
            break
        server.kill()
        server.start()
        server.restarts.append(await server.ready())
        check = Client(args.port)
        for m in tables:  # every table is there again, none set aside
            status, v = await check.request("GET", f"/api/tables/{m['id']}?key={m['owner_key']}", timeout=120)
            if status != 200:
                lost_tables.append((m["id"], status, v))
        check.close()
    await asyncio.gather(*clients)
    at_once = await two_at_once(args.port, args.game, args.expansions, n)
    server.rss()
    server.kill()
    lost = 0
    histories = {}
    for m in tables:
        saved = json.loads((folder / "tables" / f"{m['id']}.json").read_text())
        histories[m["id"]] = (saved["state"]["history"], saved["version"])
    for (table, version), (seat, option) in run.acked.items():
        history, _ = histories[table]
        # the move answered at `version` is the decision made from that version (no undo in this run)
        if version >= len(history) or history[version] != option:
            lost += 1
    moves_total = sum(len(h) for h, _ in histories.values())
    return {
        "game": args.game, "expansions": args.expansions, "tables": args.tables, "people": args.people, "bots": args.bots, "minutes": args.minutes,
        "moves_by_people": len(run.acked), "decisions_in_the_tables": moves_total,
        "moves_per_second": round(len(run.acked) / (args.minutes * 60), 2),
        "move_ms": ms(run.move_times), "view_ms": ms(run.view_times),
        "server_rss_mb": {"peak": round(server.peak_rss / 1024, 1),
                          "median": round(statistics.median(rss_samples) / 1024, 1) if rss_samples else None},
        "kills": len(kills), "restart_seconds": [round(x, 2) for x in server.restarts],
        "requests_refused": run.refused, "requests_while_down": run.downs,
        "lost_moves": lost, "doubled_moves": run.doubled, "lost_tables": len(lost_tables),
        "two_moves_at_once": at_once, "folder": str(folder),
    }


def cli(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--people", type=int, default=4)
    ap.add_argument("--bots", type=int, default=1)
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--kills", type=int, default=4)
    ap.add_argument("--game", default="seeders-exodus")
    ap.add_argument("--expansions", nargs="*", default=["tais"], help="laid over the game (Tais: Seeders at 5)")
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    if args.tables * args.people > 390:
        ap.error("the server keeps at most 400 connections: at most 390 clients (tables x people)")
    out = asyncio.run(main(args))
    print(json.dumps(out, indent=2))
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(cli())
