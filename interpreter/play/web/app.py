"""The web application of `regles serve`: pages, and the JSON they read and send.

Built on Starlette (an ASGI toolkit, served by uvicorn): small, maintained, with
the long-polling this needs (a page asks for the table's next version and is
answered the moment it changes) and no template engine to trust with content,
because the pages are static files that put every text they are sent into the
document as text. The engine runs in worker threads, so a bot thinking never
stops the server from answering.

Every error a request can meet is answered with a 4xx status and a JSON
`{"error": "..."}` that says what is wrong; anything else is answered with a
500 and a sentence, the details going to the server's log, never to the page.

Everything a client sends is untrusted, and everything a server keeps is
bounded: the size of a request, the traces uploaded, the tables kept, the games
loaded, the connections and the time a request may take to arrive (guard.py);
the bounds are documented in docs/web.md.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING

from ... import LoadError
from ...diagnostics import cut
from ...engine.savefile import SaveError, parse_json
from ...rulings.trace import TraceError, read_trace
from ...view.narrate_words import Said, words_in
from .catalogue import Catalogue, options_of
from .errors import language
from .guard import RequestGuard, allowed_hosts
from .replays import Replay, ReplayError, ResultIndex, replayable, trace_path
from .seating import LONG_POLL, lobby_entry
from .tables import (
    TABLE_ID,
    Table,
    TableError,
    does_not_check,
    make_table,
    new_id,
    new_key,
    restore,
    same_key,
    seats_of,
)

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.requests import Request

# Starlette's parts, bound by `_starlette()` when an application is made: every other command of
# regles starts without them, and runs where the web extra is not installed.
FileResponse = JSONResponse = run_in_threadpool = None


def _starlette():
    global FileResponse, JSONResponse, run_in_threadpool
    from starlette import (
        applications,
        concurrency,
        exceptions,
        responses,
        routing,
        staticfiles,
    )
    FileResponse, JSONResponse = responses.FileResponse, responses.JSONResponse
    run_in_threadpool = concurrency.run_in_threadpool
    return applications, exceptions, routing, staticfiles


STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 64 * 1024  # the largest request accepted, but an uploaded trace
MAX_UPLOAD = 8 * 1024 * 1024  # the largest trace accepted
UPLOADS_KEPT = 100  # uploaded traces kept; the oldest goes when one more comes
TABLES_KEPT = 200  # tables kept; a new one drops the oldest finished (or idle) first
TABLE_IDLE = 7 * 24 * 3600.0  # seconds after which a table nobody plays may be dropped for a new one
MAX_TABLE_FILE = 256 * 1024 * 1024  # a saved table larger than this is set aside, not read
REPLAYS_KEPT = 4

log = logging.getLogger("regles.serve")


class Server:
    """The state of one server: its games, tables, replays, and where it keeps them."""

    def __init__(self, folder: Path, catalogue: Catalogue, bot_delay: float = 0.4):
        self.folder = Path(folder)
        self.tables_dir = self.folder / "tables"
        self.traces_dir = self.folder / "traces"
        self.tables_dir.mkdir(parents=True, exist_ok=True)
        self.traces_dir.mkdir(parents=True, exist_ok=True)
        self.catalogue = catalogue
        self.bot_delay = bot_delay
        self.tables: dict[str, Table] = {}
        self.set_aside: dict[str, str] = {}  # saved tables that could not be restored: why
        self.closed: dict[str, str] = {}  # tables their makers closed: the name of their replay
        self.changed: dict[str, asyncio.Condition] = {}
        self.closing = False  # the server is stopping: no page waits for a table any more
        self.driving: set = set()
        self.tasks: set = set()
        self.replays: OrderedDict = OrderedDict()
        self.replay_lock = threading.Lock()
        self.results = ResultIndex(self.traces_dir)  # the result each trace's replayed game reached
        # (trace, its time of change) -> why it cannot be replayed here, or None: the rules a server
        # loaded do not change while it runs, so each trace is checked once
        self.stale: dict = {}

    # tables -----------------------------------------------------------------------------
    def restore_all(self) -> None:
        """Take up every table saved in the folder; one that cannot be read back is set aside with
        the reason, whatever is wrong with it: a bad file never stops the server."""
        for path in sorted(self.tables_dir.glob("*.json")):
            try:
                if path.stat().st_size > MAX_TABLE_FILE:
                    raise ValueError(f"the file is larger than {MAX_TABLE_FILE // (1024 * 1024)} MB")
                with open(path, "rb") as f:
                    data = parse_json(f.read())
                table = restore(data, self.catalogue)
                if table.id != path.stem:
                    raise ValueError("its id is not its file's name")
                self.add(table)
            except (OSError, ValueError, LoadError, SaveError) as exc:
                self._set_aside(path, str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
            except Exception as exc:  # any file, however made, is set aside, never fatal
                log.exception("%s: table not restored", path)
                self._set_aside(path, f"it cannot be read back ({type(exc).__name__})")

    def _set_aside(self, path: Path, why: str) -> None:
        self.set_aside[path.stem] = why
        print(f"regles serve: {path}: table not restored: {why}", file=sys.stderr)

    def table(self, tid: str) -> Table:
        table = self.tables.get(tid) if TABLE_ID.match(tid) else None
        if table is None and tid in self.closed:
            raise TableError(404, f"the table was closed by its maker; its game is among the replays: "
                                  f"/replay/{self.closed[tid]}")
        if table is None:
            why = self.set_aside.get(tid)
            raise TableError(404, f"no table '{tid[:40]}'" + (f" (its file could not be restored: {why})" if why else ""))
        return table

    def condition(self, tid: str) -> asyncio.Condition:
        c = self.changed.get(tid)
        if c is None:
            c = self.changed[tid] = asyncio.Condition()
        return c

    async def stop(self) -> None:
        """Answer every page waiting for a table now: the server is stopping (Ctrl-C), and a
        long poll cut short by the server's shutdown would end as an error, not an answer."""
        self.closing = True
        for c in list(self.changed.values()):
            async with c:
                c.notify_all()

    async def announce(self, table: Table) -> None:
        c = self.condition(table.id)
        async with c:
            c.notify_all()

    def add(self, table: Table) -> Table:
        table.traces = self.traces_dir
        table.results = self.results
        self.tables[table.id] = table
        return table

    def make_room(self) -> None:
        """Room for one more table: beyond TABLES_KEPT, the finished tables go first (their
        traces stay among the replays), then those nobody has played for TABLE_IDLE, oldest
        first; a 503 when every table is in play."""
        while len(self.tables) >= TABLES_KEPT:
            now = time.time()
            done = [t for t in self.tables.values() if t.state.is_terminal() or t.fault is not None]
            idle = [t for t in self.tables.values() if now - t.touched > TABLE_IDLE and t.id not in self.driving]
            pick = min(done or idle, key=lambda t: t.touched, default=None)
            if pick is None:
                raise TableError(503, f"the server holds {len(self.tables)} tables in play, as many as it keeps: "
                                      f"finish one first")
            self.drop(pick)

    def drop(self, table: Table) -> None:
        self.tables.pop(table.id, None)
        self.changed.pop(table.id, None)
        with contextlib.suppress(OSError):
            (self.tables_dir / f"{table.id}.json").unlink()

    async def save(self, table: Table) -> None:
        await run_in_threadpool(table.save, self.tables_dir)

    def drive(self, table: Table) -> None:
        """Let the bots of `table` play until a person is to decide or the game ends."""
        if table.id not in self.driving and table.bot_to_play():
            self.driving.add(table.id)
            task = asyncio.get_running_loop().create_task(self._drive(table))
            self.tasks.add(task)  # held until done: the loop keeps only a weak reference to a task
            task.add_done_callback(self.tasks.discard)

    def clock(self, table: Table) -> None:
        """When the person to decide at `table` has a clock that ends in a bot's decision: let the
        bot decide once it runs out, unless the table has moved on by then."""
        left = table.clock_left()
        if left is None or table.house.clock_bot is None:
            return
        version = table.version

        async def ring():
            await asyncio.sleep(left + 0.05)
            if await run_in_threadpool(table.time_out, version):
                await self.save(table)
                await self.announce(table)
                self.drive(table)
                self.clock(table)
        task = asyncio.get_running_loop().create_task(ring())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def changed_by_person(self, table: Table) -> None:
        """After a person changed `table` (a decision, an undo): save, tell the pages, let the
        bots play on, and start the clock of the next person."""
        await self.save(table)
        await self.announce(table)
        self.drive(table)
        self.clock(table)

    def close(self, table: Table) -> str:
        """The maker closes `table`: its trace is kept among the replays, the table is dropped."""
        path = table.save_trace(self.traces_dir / f"{table.id}.jsonl")
        self.drop(table)
        self.closed[table.id] = path.stem
        while len(self.closed) > TABLES_KEPT:  # (bounded: the oldest closed are forgotten)
            del self.closed[next(iter(self.closed))]
        return path.stem

    async def _drive(self, table: Table) -> None:
        try:
            while table.bot_to_play():
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                await run_in_threadpool(table.step_bot)
                # saved before any page is told: a move a page was shown is never lost to a
                # restart (nor played differently after it), and a page told "over" finds the trace
                await self.save(table)
                await self.announce(table)
        except Exception:  # a bot's failure stops this table, not the server
            log.exception("table %s: the bots stopped", table.id)
            table.fault = table.fault or "a bot failed; the server's log says why"
            await self.announce(table)
        finally:
            self.driving.discard(table.id)
        self.clock(table)

    # replays ----------------------------------------------------------------------------
    def replay(self, name: str) -> Replay:
        path = trace_path(self.traces_dir, name)
        with self.replay_lock:
            key = (name, path.stat().st_mtime_ns)
            got = self.replays.get(key)
            if got is None:
                got = Replay(path, self.catalogue)
                self.results.put(path, got.result)
                self.replays[key] = got
                while len(self.replays) > REPLAYS_KEPT:
                    self.replays.popitem(last=False)
            else:
                self.replays.move_to_end(key)
            return got

    def keep_upload(self, raw: bytes) -> str:
        """Keep an uploaded trace once it replays as recorded (its events and its result); its
        name. The oldest uploads go beyond UPLOADS_KEPT. A TableError says why it is refused."""
        name = "upload-" + new_id()
        tmp = self.traces_dir / f".{name}.tmp"
        tmp.write_bytes(raw)
        try:
            try:
                read_trace(tmp)  # its form first: a file that is no trace is a bad request (400)
            except TraceError as exc:
                raise TableError(400, str(exc).replace(str(tmp), "the file sent")) from None
            try:
                replayed = Replay(tmp, self.catalogue)
            except ReplayError as exc:
                raise TableError(exc.status, exc.message.replace(tmp.name, "the file sent")) from None
            if replayed.divergence:
                raise TableError(422, f"the trace does not replay as recorded: {replayed.divergence}")
        except TableError:
            tmp.unlink(missing_ok=True)
            raise
        path = self.traces_dir / f"{name}.jsonl"
        tmp.rename(path)
        self.results.put(path, replayed.result)
        uploads = sorted(self.traces_dir.glob("upload-*.jsonl"), key=lambda p: p.stat().st_mtime_ns)
        for old in uploads[:max(0, len(uploads) - UPLOADS_KEPT)]:
            old.unlink(missing_ok=True)
            self.results.drop(old)
        return name


# requests ---------------------------------------------------------------------------------
def _int(request: Request, name: str, default=None, low: int = 0, high: int = 1 << 31):
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    if not raw.lstrip("-").isdigit() or len(raw) > 12 or not low <= int(raw) <= high:
        raise TableError(400, f"'{name}' is a whole number from {low} to {high}, not '{raw[:20]}'")
    return int(raw)


async def _raw(request: Request, limit: int = MAX_BODY) -> bytes:
    """The request's body, read no further than `limit` bytes (413 beyond): a large request is
    refused before it is held in memory."""
    too_large = TableError(413, f"the request is larger than {_size(limit)}, the most this server takes")
    length = request.headers.get("content-length", "")
    if length.isdigit() and (len(length) > 12 or int(length) > limit):
        raise too_large
    parts, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_large
        parts.append(chunk)
    return b"".join(parts)


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MB" if n >= 1024 * 1024 else f"{n // 1024} KB"


async def _body(request: Request):
    raw = await _raw(request)
    try:
        return parse_json(raw) if raw.strip() else {}
    except SaveError as exc:
        raise TableError(400, f"the request is {exc.message}") from None


def _server(request: Request) -> Server:
    return request.app.state.server


def _made(table: Table, request: Request) -> dict:
    base = str(request.base_url).rstrip("/")
    return {"id": table.id, "owner_key": table.owner_key, "link": f"/table/{table.id}?key={table.owner_key}",
            "seats": [{"seat": s, "who": w, "key": k, "link": f"{base}/table/{table.id}?key={k}" if k else None}
                      for s, (w, k) in enumerate(zip(table.who, table.seat_keys))],
            "watch": {name: f"{base}/table/{table.id}?key={k}" for name, k in table.watch_keys.items()},
            "house": table.house.to_json()}


# pages
async def start_page(request: Request):
    return FileResponse(STATIC / "start.html")


async def table_page(request: Request):
    _server(request).table(request.path_params["tid"])
    return FileResponse(STATIC / "table.html")


async def replay_page(request: Request):
    trace_path(_server(request).traces_dir, request.path_params["name"])
    return FileResponse(STATIC / "replay.html")


# games
async def games(request: Request):
    server = _server(request)
    lang = language(request.query_params.get("lang"), "table")  # the scenarios' titles in it
    out = []
    for name in server.catalogue.names():
        try:
            out.append(await run_in_threadpool(server.catalogue.describe, name, lang))
        except LoadError as exc:
            out.append({"name": name, "title": name, "error": does_not_check(exc)})
    return JSONResponse({"games": out})


async def describe_game(request: Request):
    server = _server(request)
    name = request.path_params["name"]
    expansions = [x for x in request.query_params.get("expansions", "").split(",") if x]
    scenario = request.query_params.get("scenario") or None
    lang = language(request.query_params.get("lang"), "table")

    def describe():
        about = server.catalogue.describe(name, lang)
        laid = server.catalogue.game(name, expansions, scenario)
        counts = laid.player_counts()
        about.update({"min_players": laid.min_players, "max_players": laid.max_players, "player_counts": counts,
                      "options": options_of(laid, lang), "automata": {str(s + 1): a.title for s, a in
                                                                laid.program.automata.items()}})
        return about
    try:
        return JSONResponse(await run_in_threadpool(describe))
    except ValueError as exc:
        raise TableError(404 if "no game" in str(exc) else 400, str(exc)) from None
    except LoadError as exc:
        raise TableError(400, does_not_check(exc)) from None


# tables
async def lobby(request: Request):
    """The lobby: the tables listed by their makers and still in play, newest first (a finished
    table's game is among the replays), told in the page's language (`?lang=`; each table's own
    when none is asked)."""
    server = _server(request)
    asked = request.query_params.get("lang")
    lang = language(asked, "lobby") if asked else None
    now = time.time()
    listed = [t for t in server.tables.values()
              if t.house.listed and t.fault is None and not t.state.is_terminal()]
    return JSONResponse({"tables": [lobby_entry(t, now, lang) for t in sorted(listed, key=lambda t: -t.made)]})


async def take_seat(request: Request):
    server = _server(request)
    table = server.table(request.path_params["tid"])
    raw = request.path_params["seat"]
    if not raw.isdigit() or len(raw) > 6:
        raise TableError(404, f"no seat '{raw[:20]}' (a seat is named by its number, from 1)")
    key = await run_in_threadpool(table.take, int(raw) - 1)
    await server.save(table)
    await server.announce(table)
    return JSONResponse({"seat": int(raw), "key": key, "link": f"/table/{table.id}?key={key}"})


async def _table_asked(request: Request) -> tuple:
    """(the server, the table the path names, the JSON the request sent) of a request to a table."""
    server = _server(request)
    return server, server.table(request.path_params["tid"]), await _body(request)


async def close_table(request: Request):
    server, table, asked = await _table_asked(request)
    if not isinstance(asked, dict) or not same_key(asked.get("key"), table.owner_key):
        raise TableError(403, "only the table's maker (the key of the link they were given) closes it")
    name = await run_in_threadpool(server.close, table)
    table.fault = table.fault or "the table was closed by its maker"
    await server.announce(table)  # pages waiting on it are told
    return JSONResponse({"replay": f"/replay/{name}"})


async def ask_undo(request: Request):
    server, table, asked = await _table_asked(request)
    if not isinstance(asked, dict) or not _whole(asked.get("seat")) or \
            ("to" in asked and asked["to"] is not None and not _whole(asked["to"])):
        raise TableError(400, "an undo is asked with {key, seat, to}: 'to' the decision to go back to "
                              "(leave it out for your last one)")
    await run_in_threadpool(table.ask_undo, asked.get("key"), asked["seat"] - 1, asked.get("to"))
    await server.changed_by_person(table)
    return JSONResponse(await run_in_threadpool(table.view, asked.get("key"), asked["seat"] - 1, 0))


async def answer_undo(request: Request):
    server, table, asked = await _table_asked(request)
    if not isinstance(asked, dict) or not _whole(asked.get("seat")) or not isinstance(asked.get("agree"), bool):
        raise TableError(400, "an undo is answered with {key, seat, agree}: 'agree' true or false")
    await run_in_threadpool(table.answer_undo, asked.get("key"), asked["seat"] - 1, asked["agree"])
    await server.changed_by_person(table)
    return JSONResponse(await run_in_threadpool(table.view, asked.get("key"), asked["seat"] - 1, 0))


def _whole(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


async def new_table(request: Request):
    server = _server(request)
    asked = await _body(request)
    server.make_room()
    table = server.add(await run_in_threadpool(make_table, server.catalogue, asked))
    await server.save(table)
    server.drive(table)
    server.clock(table)
    return JSONResponse(_made(table, request), status_code=201)


async def table_view(request: Request):
    server = _server(request)
    table = server.table(request.path_params["tid"])
    key = request.query_params.get("key")
    seat = _int(request, "seat", None, 1, table.state.n)
    since = _int(request, "since", 0)
    after = _int(request, "after", None, -1)
    table.seat_for(key, seat - 1 if seat else None)  # a key that opens nothing waits for nothing
    changes = table.presence.changes
    if table.heard(key):
        await server.announce(table)  # the others' pages show who came
        server.clock(table)  # (a seat's clock starts when someone sits there)
        changes = table.presence.changes
    if after is not None and table.version <= after and not server.closing:
        c = server.condition(table.id)
        try:
            async with c:  # a new version, or someone came
                await asyncio.wait_for(c.wait_for(lambda: table.version > after or table.presence.changes != changes
                                                  or server.closing),
                                       LONG_POLL)
        except TimeoutError:
            pass
    table.heard(key)
    return JSONResponse(await run_in_threadpool(table.view, key, seat - 1 if seat else None, since))


async def act(request: Request):
    server, table, asked = await _table_asked(request)
    if not isinstance(asked, dict):
        raise TableError(400, "an action is a JSON object: {key, seat, option, version}")
    seat, option, version = asked.get("seat"), asked.get("option"), asked.get("version")
    for name, v in (("seat", seat), ("option", option), ("version", version)):
        if not _whole(v):  # the version too: two acts sent at once
            raise TableError(400, f"'{name}' is a whole number"  # on one view apply once, not twice
                                  + (" (the version of the view the choice was made on)" if name == "version" else ""))
    since = asked.get("since", 0)  # the lines of its log the page has: it is sent those after
    if not _whole(since) or since < 0:
        raise TableError(400, "'since' is a whole number: the lines of the log the page has")
    await run_in_threadpool(table.act, asked.get("key"), seat - 1, option, version)
    await server.changed_by_person(table)
    return JSONResponse(await run_in_threadpool(table.view, asked.get("key"), seat - 1, since))


async def why_not(request: Request):
    """Why not? for a seat of the table: {key, seat, move} -> the answer (`Table.why`)."""
    _, table, asked = await _table_asked(request)
    if not isinstance(asked, dict):
        raise TableError(400, "a question is a JSON object: {key, seat, move}")
    seat = asked.get("seat")
    if not _whole(seat):
        raise TableError(400, "'seat' is a whole number")
    return JSONResponse(await run_in_threadpool(table.why, asked.get("key"), seat - 1, asked.get("move")))


# replays
async def replays(request: Request):
    """The traces kept, newest first, each with the result its replayed game reached (None until
    it has been replayed here: a trace's own word on its result is not shown)."""
    server = _server(request)
    out = []
    for path in sorted(server.traces_dir.glob("*.jsonl"), key=lambda p: -p.stat().st_mtime):
        try:
            header, _ = await run_in_threadpool(read_trace, path)
            entry = {"name": path.stem, "game": header["game"], "players": header["players"],
                     "events": header["events"], "result": server.results.get(path), "agents": header["agents"]}
            # one the server cannot replay (rules changed since, a game or mods it does not offer)
            # is listed with the reason, not as a link to a page that can only say so
            key = (path.name, path.stat().st_mtime_ns)
            if key not in server.stale:
                server.stale[key] = await run_in_threadpool(replayable, server.catalogue, header, path)
            if server.stale[key] is not None:
                entry["stale"] = server.stale[key]
            out.append(entry)
        except TraceError as exc:
            out.append({"name": path.stem, "error": str(exc).replace(str(path), path.name)})
    return JSONResponse({"replays": out})


async def upload_replay(request: Request):
    server = _server(request)
    raw = await _raw(request, MAX_UPLOAD)
    name = await run_in_threadpool(server.keep_upload, raw)
    return JSONResponse({"name": name, "link": f"/replay/{name}"}, status_code=201)


async def replay_summary(request: Request):
    server = _server(request)
    name = request.path_params["name"]
    r = await run_in_threadpool(server.replay, name)
    return JSONResponse(await run_in_threadpool(r.summary, name, _lang(request)))


def _lang(request: Request) -> str:
    """The language a replay is shown in (`?lang=`, English by default)."""
    return language(request.query_params.get("lang"), "replay")


async def _replay_event(request: Request) -> tuple:
    """(the replay, the event number) a request's path names; 404 for an event that is no number."""
    server = _server(request)
    r = await run_in_threadpool(server.replay, request.path_params["name"])
    raw = request.path_params["event"]
    if not raw.isdigit() or len(raw) > 12:
        raise TableError(404, f"no event '{raw[:20]}' (an event is named by its number)")
    return r, int(raw)


async def replay_at(request: Request):
    r, k = await _replay_event(request)
    seat = _int(request, "seat", None, 1, r.players)
    return JSONResponse(await run_in_threadpool(r.view, k, seat - 1 if seat else None, _lang(request)))


async def replay_why_bot(request: Request):
    """What a bot weighs at a decision of a replay (?agent=greedy|mcts:N; default the trace's)."""
    r, k = await _replay_event(request)
    agent = request.query_params.get("agent") or None
    if agent is not None and len(agent) > 20:
        raise TableError(422, "agent: a bot's name, as greedy or mcts:200")
    return JSONResponse(await run_in_threadpool(r.why_bot, k, agent, _lang(request)))


async def replay_why(request: Request):
    """Why not? at a decision of a replay (?move=...; &seat=N: as that seat could see it)."""
    r, k = await _replay_event(request)
    seat = _int(request, "seat", None, 1, r.players)
    move = request.query_params.get("move")
    return JSONResponse(await run_in_threadpool(r.why, k, move, seat - 1 if seat else None, _lang(request)))


async def fork(request: Request):
    server = _server(request)
    r = await run_in_threadpool(server.replay, request.path_params["name"])
    asked = await _body(request)
    if not isinstance(asked, dict) or not isinstance(asked.get("event"), int):
        raise TableError(400, "a fork names the event to fork at: {\"event\": N, \"seats\": [...]}")
    who = seats_of(asked.get("seats") or ["greedy"] * r.players, r.players)
    lang = language(asked.get("lang"), "table")
    server.make_room()
    table = await run_in_threadpool(_fork, r, asked["event"], who, request.path_params["name"], lang)
    server.add(table)
    await server.save(table)
    server.drive(table)
    return JSONResponse(_made(table, request), status_code=201)


def _fork(r: Replay, k: int, who: list, name: str, lang: str = "en") -> Table:
    """A table playing on from the decision at (or next after) event `k` of replay `r`, told in `lang`."""
    state = r.decision_state(k)
    h = r.header
    laid = h.get("layers") or {}
    spec = {"game": r.game.id, "expansions": list(laid.get("expansions", [])), "scenario": laid.get("scenario"),
            "players": h["players"], "options": h["options"], "seed": h["seed"], "forked": {"trace": name, "event": k},
            "lang": lang}
    told = [words_in(lang).w("forked", Said(name), k)]
    return Table(new_id(), spec, r.game, state, who, [new_key() if w == "person" else None for w in who], new_key(),
                 logs={str(s): list(told) for s in range(state.n)})


# errors -------------------------------------------------------------------------------------
async def _refused(request: Request, exc):
    # one line, of bounded length: a refusal may quote what the request sent
    return JSONResponse({"error": cut(" ".join(exc.message.split()), 1000)}, status_code=exc.status)


async def _http(request: Request, exc):
    path = request.url.path[:200]
    said = {404: f"no page or resource at {path}", 405: f"{request.method} is not allowed at {path}"}
    return JSONResponse({"error": said.get(exc.status_code, str(exc.detail))}, status_code=exc.status_code)


async def _failed(request: Request, exc: Exception):
    log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
    return JSONResponse({"error": "the server failed on this request; its log says why"}, status_code=500)


class _Headers:
    """Headers on every answer: pages may run only their own scripts, and are never framed."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def sending(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(b"content-security-policy",
                             (b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                              b"frame-ancestors 'none'")),
                            (b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
                            (b"cache-control", b"no-store")]
                message = {**message, "headers": headers}
            await send(message)
        return await self.app(scope, receive, sending)


def make_app(folder, game: str | None = None, mods=(), bot_delay: float = 0.4,
             hosts: frozenset | None = allowed_hosts("127.0.0.1")) -> Starlette:
    """The application serving the tables and replays kept in `folder`, for `game` (None: every
    shipped game) with `mods` laid over it, answering to the names `hosts` (None: any)."""
    applications, exceptions, routing, staticfiles = _starlette()
    Route, Mount = routing.Route, routing.Mount
    server = Server(Path(folder), Catalogue(game, mods), bot_delay)
    server.restore_all()

    @contextlib.asynccontextmanager
    async def lifespan(app):
        for table in list(server.tables.values()):
            server.drive(table)
        yield

    app = applications.Starlette(routes=[
        Route("/", start_page),
        Route("/table/{tid}", table_page),
        Route("/replay/{name}", replay_page),
        Route("/api/games", games),
        Route("/api/games/{name}", describe_game),
        Route("/api/tables", lobby, methods=["GET"]),
        Route("/api/tables", new_table, methods=["POST"]),
        Route("/api/tables/{tid}", table_view),
        Route("/api/tables/{tid}/act", act, methods=["POST"]),
        Route("/api/tables/{tid}/seats/{seat}", take_seat, methods=["POST"]),
        Route("/api/tables/{tid}/close", close_table, methods=["POST"]),
        Route("/api/tables/{tid}/undo", ask_undo, methods=["POST"]),
        Route("/api/tables/{tid}/why", why_not, methods=["POST"]),
        Route("/api/tables/{tid}/undo/answer", answer_undo, methods=["POST"]),
        Route("/api/replays", replays, methods=["GET"]),
        Route("/api/replays", upload_replay, methods=["POST"]),
        Route("/api/replays/{name}", replay_summary),
        Route("/api/replays/{name}/at/{event}", replay_at),
        Route("/api/replays/{name}/why-bot/{event}", replay_why_bot),
        Route("/api/replays/{name}/why/{event}", replay_why),
        Route("/api/replays/{name}/fork", fork, methods=["POST"]),
        Mount("/static", staticfiles.StaticFiles(directory=STATIC)),
    ], exception_handlers={TableError: _refused, ReplayError: _refused, exceptions.HTTPException: _http,
                           Exception: _failed},
        lifespan=lifespan)
    app.state.server = server
    app.add_middleware(RequestGuard, hosts=hosts)
    app.add_middleware(_Headers)
    return app
