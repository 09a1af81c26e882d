"""The tables a server keeps: a game in progress, who sits where, and what each seat was told.

A `Table` holds one state of one game. Its seats are taken by people or bots;
each person's seat has a key (a random word given when the table is made) that
its browser shows to act, and the table's maker holds a key that acts for every
person's seat (hot-seat play around one screen). Each seat has its own narrator
(`narrate.Narrator`), so that the log a seat reads tells only what it may see,
judged as the game goes, exactly as `regles play` tells it, in the language the
table was made in (`lang` of its spec: its log, cards, names and own sentences).

A table also has house rules (`seating.House`: listed in the lobby, undo by
agreement, a clock per decision), spectators' keys that act for no seat (one
to watch as nobody, one per seat), and knows which seats are taken and
connected (`seating`). Its decisions can be taken back by agreement (`undo`).
A seat may ask why a move is not offered (`why`, as `regles why` answers it).

A table is saved to its folder after every change: the state as the engine's
JSON (`GameState.to_json`), the events so far, and what each seat was told. A
server started again over the same folder takes its tables up where they were;
a file that cannot be read back is set aside with the reason, never the cause
of a crash. When a game ends, its trace is written beside, for replay.
"""
from __future__ import annotations

import json
import math
import os
import re
import secrets
import threading
import time
from pathlib import Path

from ... import LoadError
from ...engine.observe import NOBODY
from ...engine.savefile import SaveError
from ...engine.state import GameFault
from ...kinds import type_word
from ...rulings.trace import portable_message, result_of, save_state_trace, source_of
from ...view.narrate import Narrator, seat_name, seat_said
from ...view.narrate_words import LANGS
from ...view import why
from ...view.texts import texts_of
from ..agents import LookaheadFault, SeatView, agent_seed, make_agent
from ..mcts import parse_search
from .errors import TableError, language
from .layout import TableLayout
from .seating import House, HouseError, Presence, Seating, same_key, watch_name
from .undo import UNDO_AGREED, TakingBack, Undos
from .views import CardTexts, TableView

FORMAT = 1
TABLE_ID = re.compile(r"^[a-z0-9]{6,32}$")
MAX_LOG = 20000  # lines a seat's log keeps; older ones are dropped (a bound on what a table holds)
MAX_ITERATIONS = 2000  # the most a search bot of a table may think per decision: its work is the server's
MAX_SECONDS = 5.0
MAX_MOVE = 200  # characters of a move asked about ('why not?'): longer is no name of the game's
# questions ('why not?') a seat may ask a minute: each runs the rules' conditions under the table's
# lock, on a budget of work of its own, so a seat asking without end would hold up the table
WHY_PER_MINUTE = 30
_now = time.monotonic  # (the clock of those questions, set by a test)


class _Lines:
    """What a narrator prints, kept as lines."""

    def __init__(self, lines: list | None = None):
        self.lines = lines if lines is not None else []

    def write(self, text: str) -> None:
        for line in text.splitlines():
            if line.strip():
                self.lines.append(line)
        if len(self.lines) > MAX_LOG:
            del self.lines[:len(self.lines) - MAX_LOG]

    def flush(self) -> None:
        pass


class Table(Seating, TakingBack):
    """One game at one table. Every method that reads or changes the state is called under
    `lock`: the server steps bots in a worker thread while pages ask for views."""

    def __init__(self, tid: str, spec: dict, game, state, who: list, seat_keys: list, owner_key: str,
                 logs: dict | None = None, watch_keys: dict | None = None):
        self.id = tid
        self.spec = spec  # what the table was made with: game, expansions, scenario, mods, options, seed...
        self.game = game
        self.state = state
        self.who = who  # per seat: "person" or a bot's name
        self.seat_keys = seat_keys  # per seat: the key of a person's seat, None for a bot
        self.owner_key = owner_key
        # spectators' keys: 'nobody' watches what every seat sees, 'S' watches as seat S (from 0)
        self.watch_keys = watch_keys or {"nobody": new_key(), **{str(s): new_key() for s in range(state.n)}}
        self.house = House.from_json(spec.get("house"))
        self.taken = [False] * state.n  # a person's seat whose own key was used, or taken from the lobby
        self.presence = Presence()
        self.undos = Undos()
        self.made = time.time()
        self.posed = time.monotonic()  # when the decision now asked was asked (the turn clock counts from it)
        self.lock = threading.RLock()
        self.asked_why: dict = {}  # seat -> when it asked its last questions (time.monotonic), WHY_PER_MINUTE at most
        self.save_lock = threading.Lock()  # one save at a time: the bots' and a person's may cross
        self.traces: Path | None = None  # where the trace is written when the game ends
        self.results = None  # where the result of the game is noted when its trace is written
        self.touched = time.time()  # when the table last changed: the oldest idle go first
        self.version = 0
        self.fault: str | None = None
        self.layout = TableLayout(game.program)
        # the language the table is told in: its log, its cards and the names it shows
        self.lang = spec.get("lang") if spec.get("lang") in LANGS else "en"  # (a save of an older table: none)
        self.texts = CardTexts(game.program, self.lang)
        self.bots = {s: make_agent(name, agent_seed(state.seed, s)) for s, name in enumerate(who)
                     if name != "person"}
        # each seat's log: told from the game's first event for a new table; for a table restored
        # or forked, the lines already told, and the events from now on
        # (and the log of nobody's eyes, told to the spectators of the public view)
        seen_by = [*range(state.n), NOBODY]
        self.told = {s: _Lines(list((logs or {}).get(str(s), []))) for s in seen_by}
        self.narrators = {s: Narrator(state, s, self.told[s], lang=self.lang, group=True) for s in seen_by}
        # per person's seat: how many lines of its log were told when its last decision was
        # carried out (what follows is new to it: the others' moves since)
        self.decided: dict = {}
        for n in self.narrators.values():
            n.done = 0 if logs is None else len(state.trace or [])
        self._flush()

    # who may do what -----------------------------------------------------------------------
    def people(self) -> list:
        return [s for s, w in enumerate(self.who) if w == "person"]

    def seat_name(self, s: int, lang: str | None = None) -> str:
        """Seat `s` by its name ('player 2', an automaton's title), in `lang` or the table's language."""
        return seat_name(s, None, self.game.program, lang or self.lang)

    def told_in(self, text: str) -> str:
        """What the rules wrote (a prompt, a label), in the table's language (view.texts)."""
        return texts_of(self.game.program, self.lang)(text)

    def seat_called(self, s: int, first: bool = False) -> str:
        """Seat `s` named in a sentence the table tells of itself, in its language (`seat_said`)."""
        return seat_said(s, self.game.program, self.lang, first)

    def watched_by(self, key: str | None) -> int | None:
        """The seat a spectator's key watches as (NOBODY for the public view); None for any other key."""
        for name, k in self.watch_keys.items():
            if same_key(key, k):
                return NOBODY if name == "nobody" else int(name)
        return None

    def seats_for(self, key: str | None) -> list:
        """The seats key `key` opens: every person's with the maker's key (every seat, to watch,
        when bots take them all), one with a seat's key."""
        if same_key(key, self.owner_key):
            return self.people() or list(range(self.state.n))
        return [s for s, k in enumerate(self.seat_keys) if k is not None and same_key(key, k)]

    def seat_for(self, key: str | None, asked: int | None) -> int:
        """The seat whose view key `key` gets: the seat asked for when the key acts for it, else
        the person to play now, else its first seat; for a spectator's key, the seat it watches
        as. 403 when the key opens nothing."""
        watched = self.watched_by(key)
        if watched is not None:
            return watched
        seats = self.seats_for(key)
        if not seats:
            raise TableError(403, "this key opens no seat of the table (use the link the table's maker was given)")
        if asked is not None:
            if asked not in seats:
                raise TableError(403, f"this key does not open seat {asked + 1}")
            return asked
        now = self.state.current_player
        return now if now in seats else seats[0]

    # playing ---------------------------------------------------------------------------
    def bot_to_play(self) -> bool:
        return self.fault is None and not self.state.is_terminal() and self.state.current_player in self.bots

    def act(self, key: str | None, seat: int, option: int, version: int | None) -> None:
        """The person at `seat` picks `option` of their decision."""
        with self.lock:
            if seat not in self.seats_for(key):
                raise TableError(403, f"this key does not open seat {seat + 1}")
            if self.who[seat] != "person":
                raise TableError(409, f"a bot ({self.who[seat]}) plays seat {seat + 1}")
            if self.fault is not None:
                raise TableError(409, "the game stopped on an error of its rules: " + self.fault)
            if self.state.is_terminal():
                raise TableError(409, "the game is over")
            if self.state.current_player != seat:
                raise TableError(409, f"it is not seat {seat + 1}'s decision now")
            if version is not None and version != self.version:
                raise TableError(409, "the table has changed since the page was drawn: look again and choose")
            if not 0 <= option < len(self.state.legal_actions()):
                raise TableError(400, f"no option {option} here: the options are 0 to "
                                      f"{len(self.state.legal_actions()) - 1}")
            if self.house.undo == UNDO_AGREED:
                self.undos.keep(self.state, seat)
            self._apply(option)
            self.decided[seat] = len(self.told[seat].lines)

    def why(self, key: str | None, seat: int, move: str) -> dict:
        """Why the person at `seat` may not make `move` now (an option, a card, 'use CARD', as
        `regles why` reads it), in the table's language: what the decision is, the answer, and
        the rules' line that excludes the move, named from the game's folder. What the seat
        may not see is not told: a card in a zone hidden from it is 'a card'."""
        if not isinstance(move, str) or not move.strip() or len(move) > MAX_MOVE:
            raise TableError(400, f"'move' is the text of a move: an option, a card, 'use CARD' "
                                  f"(at most {MAX_MOVE} characters)")
        with self.lock:
            if seat not in self.seats_for(key):
                raise TableError(403, f"this key does not open seat {seat + 1}")
            now = _now()
            recent = [t for t in self.asked_why.get(seat, ()) if now - t < 60]
            if len(recent) >= WHY_PER_MINUTE:
                raise TableError(429, f"seat {seat + 1} has asked {WHY_PER_MINUTE} questions in the last minute: "
                                      "ask again in a moment")
            self.asked_why[seat] = recent + [now]
            told = why.answered(self.state, move, seat, self.lang, Path(self.game.program.root).parent)
            told["version"] = self.version
            return told

    def step_bot(self) -> bool:
        """One decision of the bot to play, if a bot is to play; whether one was made."""
        with self.lock:
            if not self.bot_to_play():
                return False
            seat = self.state.current_player
            try:
                option = self.bots[seat].act(SeatView(self.state, seat))
            except LookaheadFault as lf:
                option = lf.action
            self._apply(option)
            return True

    def _apply(self, option: int) -> None:
        for n in self.narrators.values():
            n.before(self.state)
        try:
            self.state.apply(option)
        except GameFault as exc:
            self.fault = portable_message(self.game, str(exc))  # its place in the game's folder, not the server's
        self._flush()
        self.touched = time.time()
        self.posed = time.monotonic()
        if self.traces is not None and (self.state.is_terminal() or self.fault is not None):
            self.save_trace(self.traces / f"{self.id}.jsonl")  # before any page is told the game is over
        self.version += 1

    def _flush(self) -> None:
        for n in self.narrators.values():
            n.flush(whole=self.fault is not None)

    # views -----------------------------------------------------------------------------
    def view(self, key: str | None, asked: int | None = None, since: int = 0) -> dict:
        """What the page holding `key` is shown: the view of its seat (`asked`, or the one to
        play), the seats the key opens, and the seat's log from line `since` on."""
        with self.lock:
            seat = self.seat_for(key, asked)
            watching = self.watched_by(key) is not None
            data = TableView(self.state, self.layout, self.texts, seat, lang=self.lang).data(self.who)
            lines = self.told[seat].lines
            since = max(0, min(since, len(lines)))
            data.update({"table": self.id, "version": self.version, "seat": None if seat == NOBODY else seat,
                         "opens": [] if watching else self.seats_for(key),
                         "fault": self.fault, "log": lines[since:], "log_from": since,
                         "log_length": len(lines), "log_mark": None if watching else self.decided.get(seat),
                         "trace": self.state.is_terminal() or self.fault is not None})
            connected = self.presence.connected(self.state.n)
            for s, entry in enumerate(data["seats"]):
                if self.who[s] == "person":
                    entry.update({"connected": connected[s], "taken": self.taken[s]})
            data["watchers"] = self.presence.watching()
            data["house"] = self.house.to_json()
            left = self.clock_left()
            if left is not None:
                data["clock"] = {"seconds": self.house.clock, "left": round(left, 1), "bot": self.house.clock_bot}
            if watching:
                data["you"] = None
                data["watching"] = watch_name(seat, [x["name"] for x in data["seats"]])
            elif self.house.undo == UNDO_AGREED:
                data["undo"] = self._undo_view(key)
            if same_key(key, self.owner_key):
                if self.people():
                    data["links"] = [{"seat": s, "name": data["seats"][s]["name"], "link": f"/table/{self.id}?key={k}"}
                                     for s, k in enumerate(self.seat_keys) if k is not None]
                data["watch_links"] = [{"as": watch_name(NOBODY if name == "nobody" else int(name),
                                                         [x["name"] for x in data["seats"]]),
                                        "link": f"/table/{self.id}?key={k}"} for name, k in self.watch_keys.items()]
                data["maker"] = True
            return data

    # saving ----------------------------------------------------------------------------
    def to_json(self) -> dict:
        with self.lock:
            return {"regles_table": FORMAT, "id": self.id, "spec": self.spec, "who": self.who,
                    "seat_keys": self.seat_keys, "owner_key": self.owner_key, "version": self.version,
                    "touched": self.touched, "made": self.made, "watch_keys": self.watch_keys,
                    "taken": self.taken, "undos": self.undos.to_json(),
                    "fault": self.fault, "state": self.state.to_json(), "events": list(self.state.trace or []),
                    "logs": {str(s): lines.lines for s, lines in self.told.items()},  # (nobody's: '-1')
                    "decided": {str(s): n for s, n in self.decided.items()}}

    def save(self, folder: Path) -> None:
        """Write the table to `folder` (written whole to a new file, then moved over the old one,
        so that a server stopped mid-write leaves the last table saved)."""
        with self.save_lock:
            data = self.to_json()
            path = folder / f"{self.id}.json"
            tmp = folder / f".{self.id}.json.tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump(data, f, ensure_ascii=False, default=str)  # (events hold names of the engine's kinds)
            os.replace(tmp, path)

    def save_trace(self, path: Path) -> Path:
        with self.lock:
            error = {"type": "GameFault", "message": self.fault} if self.fault is not None else None
            tmp = path.with_name(f".{path.name}.tmp")
            save_state_trace(tmp, self.game, self.state, agents=self.who,
                             source=source_of(self.game, self.spec.get("game")), error=error,
                             undos=self.undos.done)
            os.replace(tmp, path)  # whole or not at all: a replay may be reading it
            if self.results is not None:
                self.results.put(path, result_of(self.state, self.fault))
            return path


def does_not_check(exc: LoadError) -> str:
    """One sentence for a combination of a game, expansions and scenario that does not check:
    its first error and how many there are, without the server's paths (the command line and
    `regles check` show them all, where they are)."""
    errors = exc.report.errors
    first = errors[0].message if errors else "its content has errors"
    more = f" (and {len(errors) - 1} more: regles check shows them)" if len(errors) > 1 else ""
    return f"the game does not check with what is chosen: {first}{more}"


def new_id() -> str:
    return secrets.token_hex(6)


def new_key() -> str:
    return secrets.token_urlsafe(12)


def restore(data: dict, catalogue) -> Table:
    """The table saved as `data`; ValueError says why it cannot be restored."""
    if not isinstance(data, dict) or data.get("regles_table") != FORMAT:
        raise ValueError("not a saved table of this version of regles")
    try:
        spec = data["spec"]
        game = catalogue.game(spec["game"], spec.get("expansions", ()), spec.get("scenario"))
        fault = data.get("fault")
        state = game.state_from_json(data["state"]) if fault is None else _stopped_state(game, data["state"])
        state.trace = list(data["events"])
        state.trace_mark = len(state.trace)  # the engine's bound on events counts from the last decision
        watch = data.get("watch_keys")
        if watch is not None and (not isinstance(watch, dict) or not all(isinstance(k, str) for k in watch.values())
                                  or set(watch) != {"nobody", *map(str, range(state.n))}):
            raise ValueError("its spectators' keys are not one per seat and one for nobody")
        table = Table(str(data["id"]), spec, game, state, list(data["who"]), list(data["seat_keys"]),
                      str(data["owner_key"]), logs=data.get("logs") or {}, watch_keys=watch)
        table.version = int(data.get("version", 0))
        table.made = float(data.get("made", data.get("touched", table.made)))
        taken = data.get("taken")
        if taken is not None:
            if not isinstance(taken, list) or len(taken) != state.n or not all(isinstance(x, bool) for x in taken):
                raise ValueError("'taken' is not one true or false per seat")
            table.taken = taken
        table.undos = Undos.from_json(data.get("undos"))
        table.fault = data.get("fault")
        table.touched = float(data.get("touched", table.touched))
        decided = data.get("decided") or {}
        table.decided = {int(k): int(v) for k, v in decided.items() if 0 <= int(k) < state.n}
        if table.fault is not None and not isinstance(table.fault, str):
            raise ValueError("its fault is not a text")
        return table
    except SaveError as exc:
        raise ValueError(f"its state cannot be restored: {exc}") from None
    except (KeyError, TypeError, AttributeError, IndexError) as exc:
        raise ValueError(f"a field is missing or of the wrong kind ({type(exc).__name__})") from None



def _stopped_state(game, saved: dict):
    """The state of a table stopped by a fault of its rules, played again: its choices from its
    start up to the one that failed, which leaves the state as the fault left it (a state
    stopped mid-rule, with no decision to ask, is no state a save holds). ValueError when the
    choices do not lead to a fault."""
    state = game.new_state(int(saved["players"]), int(saved["seed"]), dict(saved["options"]), trace=True,
                           powers={int(k): str(v) for k, v in (saved.get("powers") or {}).items()})
    for choice in list(saved["history"]):
        if state.is_terminal() or not 0 <= int(choice) < len(state.legal_actions()):
            break
        try:
            state.apply(int(choice))
        except GameFault:
            return state
    raise ValueError("its choices, played again, do not stop on the fault it records")


def make_table(catalogue, asked) -> Table:
    """A new table as the start page asks for it (JSON data): game, expansions, scenario,
    solo level, players, options, seats ("person" or a bot's name each) and seed. A
    TableError (400) says what is wrong with the request."""
    if not isinstance(asked, dict):
        raise TableError(400, "a table is asked for with a JSON object")
    game_name = _field(asked, "game", str)
    expansions = list(_field(asked, "expansions", list, []))
    scenario = _field(asked, "scenario", str, None) or None
    solo = _field(asked, "solo", str, None) or None
    options = dict(_field(asked, "options", dict, {}))
    seats = _field(asked, "seats", list)
    seed = _field(asked, "seed", int, None)
    lang = language(_field(asked, "lang", str, "en"), "table")
    if not all(isinstance(x, str) for x in expansions):
        raise TableError(400, "'expansions' is a list of expansion ids")
    for name, value in options.items():  # then each value by the kind its game declares (Game.options)
        if not isinstance(value, (str, int, float)) or isinstance(value, float) and not math.isfinite(value):
            raise TableError(400, f"option '{str(name)[:40]}' takes a text, a number or true/false, "
                                  f"not {json.dumps(value)[:40]}")
    try:
        about = catalogue.describe(game_name, lang)
        if solo is not None:
            if not about["solo"]:
                raise TableError(400, f"{about['title']} has no solo mode")
            mode = about["solo"][0]
            if mode["id"] not in expansions:
                expansions.append(mode["id"])
            options[mode["option"]] = solo
        game = catalogue.game(game_name, expansions, scenario)
        players = _field(asked, "players", int, game.min_players)
        if not game.min_players <= players <= game.max_players:
            raise TableError(400, f"{game.title} is for {game.min_players} to {game.max_players} players "
                                  f"with what is chosen, not {players}")
        game.check_players(players)
        chosen = game.options({str(k): v for k, v in options.items()})
    except ValueError as exc:
        raise TableError(400, str(exc)) from None
    except LoadError as exc:
        raise TableError(400, does_not_check(exc)) from None
    who = seats_of(seats, players)
    try:
        house = House.asked(asked.get("house"))
    except HouseError as exc:
        raise TableError(400, str(exc)) from None
    if house.clock_bot is not None:
        house.clock_bot = seats_of([house.clock_bot], 1)[0]  # a bot as any seat's, within the server's bounds
        if house.clock_bot == "person":
            raise TableError(400, "'house.clock_bot' names a bot, not a person")
    if seed is None:
        seed = secrets.randbelow(1 << 31)
    elif not 0 <= seed < 1 << 63:
        raise TableError(400, "'seed' is a whole number from 0 to 2^63 - 1")
    try:
        state = game.new_state(players, seed, chosen, trace=True)
    except GameFault as exc:
        raise TableError(400, f"the game cannot start: {exc}") from None
    spec = {"game": game.id, "expansions": expansions, "scenario": scenario, "players": players,
            "options": {k: v for k, v in chosen.items() if isinstance(v, (bool, int, float, str))}, "seed": seed,
            "house": house.to_json(), "lang": lang}
    return Table(new_id(), spec, game, state, who, [new_key() if w == "person" else None for w in who], new_key())


def seats_of(seats, players: int) -> list:
    """Who takes each seat, as asked ("person" or a bot's name, one a seat); a TableError (400)
    for a list of the wrong length or a bot that does not exist."""
    if not isinstance(seats, list) or len(seats) != players or not all(isinstance(x, str) for x in seats):
        raise TableError(400, f"'seats' names who takes each of the {players} seats ('person' or a bot)")
    who = [x.strip().lower() for x in seats]
    for name in who:
        if name != "person":
            try:
                make_agent(name, 0)
                base, _, budget = name.partition(":")
                search = parse_search(budget) if base == "mcts" else None
            except ValueError as exc:
                raise TableError(400, str(exc)[:200]) from None
            # a bot is the server's work: its iterations counted at what its options make them cost
            if search is not None and ((search.work() or 0) > MAX_ITERATIONS or (search.seconds or 0) > MAX_SECONDS):
                raise TableError(400, f"a bot of this server thinks at most {MAX_ITERATIONS} iterations or "
                                      f"{MAX_SECONDS:g} seconds a decision (longer or guided rollouts count for "
                                      f"more), not '{name[:40]}'")
    return who


_KINDS = {str: "string", int: "integer", list: "array", dict: "object"}  # their words: kinds.type_word
_REQUIRED = object()


def _field(data: dict, name: str, kind, default=_REQUIRED):
    v = data.get(name, default)
    if v is _REQUIRED:
        raise TableError(400, f"'{name}' is missing")
    if v is default and default is not _REQUIRED:
        return v
    if not isinstance(v, kind) or kind is int and isinstance(v, bool):
        raise TableError(400, f"'{name}' is {type_word(_KINDS[kind])}, not {json.dumps(v)[:40]}")
    return v
