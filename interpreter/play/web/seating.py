"""Who is at a table: the house rules it was made with, the seats taken, the spectators'
keys, who is connected, the turn clock, and what the lobby says of it.

A table's *house rules* are the server's, not the game's: whether it is listed in
the lobby (so that strangers may take its free seats), whether decisions may be
taken back by agreement, and a clock per decision. They are chosen when the table
is made and kept in its save file.

A person's seat is *taken* once its own key has been used (its link opened) or it
was taken from the lobby; the maker's key takes every person's seat of a table
not listed (one screen plays them all), and none of a listed table. A seat is *connected*
while its page keeps asking for the table: a page waits at most `LONG_POLL`
seconds for a change, so a seat not heard from for `PRESENT` seconds has gone.

Spectators hold keys that act for no seat: one to watch the table as nobody
(what every seat sees, `observe.NOBODY`) and one per seat, to watch as that seat
sees it. The lobby lists only the public spectator's link.
"""
from __future__ import annotations

import math
import secrets
import time

from ...engine.observe import NOBODY
from ...view.narrate_words import Said, bot_said, words_in
from ..agents import LookaheadFault, SeatView, agent_seed, make_agent
from .errors import TableError
from .undo import UNDO_AGREED

LONG_POLL = 20.0  # seconds a page waits for the table to change before it is answered anyway
PRESENT = LONG_POLL + 10.0  # a seat not heard from for longer has left its page
MAX_CLOCK = 24 * 3600.0  # the longest clock a decision may have


class HouseError(ValueError):
    """House rules asked for that cannot be: the request says what is wrong."""


class House:
    """The house rules of a table: `listed` in the lobby, `undo` ('agreed' or None), `clock`
    (seconds a person has for each decision, or None) and `clock_bot` (the bot that decides
    when the clock runs out, or None: the clock is only shown)."""

    def __init__(self, listed: bool = False, undo: str | None = None, clock: float | None = None,
                 clock_bot: str | None = None):
        self.listed = listed
        self.undo = undo
        self.clock = clock
        self.clock_bot = clock_bot

    @classmethod
    def asked(cls, data) -> House:
        """The house rules a request asks for (a JSON object, or None for none); HouseError says
        what is wrong. The clock's bot is checked by the caller, as every bot of a table is."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise HouseError("'house' is an object: {listed, undo, clock, clock_bot}")
        unknown = sorted(set(data) - {"listed", "undo", "clock", "clock_bot"})
        if unknown:
            raise HouseError(f"'house' has no rule '{str(unknown[0])[:40]}' (rules: listed, undo, clock, clock_bot)")
        listed = data.get("listed", False)
        if not isinstance(listed, bool):
            raise HouseError("'house.listed' is true or false")
        undo = data.get("undo") or None
        if undo not in (None, UNDO_AGREED):
            raise HouseError(f"'house.undo' is '{UNDO_AGREED}' or nothing")
        clock = data.get("clock")
        if clock is not None and (isinstance(clock, bool) or not isinstance(clock, (int, float))
                                  or not math.isfinite(clock) or not 5 <= clock <= MAX_CLOCK):
            raise HouseError(f"'house.clock' is a number of seconds from 5 to {MAX_CLOCK:g}")
        bot = data.get("clock_bot") or None
        if bot is not None and not isinstance(bot, str):
            raise HouseError("'house.clock_bot' names a bot")
        if bot is not None and clock is None:
            raise HouseError("'house.clock_bot' decides when the clock runs out: set 'house.clock' too")
        return cls(listed, undo, float(clock) if clock is not None else None, bot)

    def to_json(self) -> dict:
        return {"listed": self.listed, "undo": self.undo, "clock": self.clock, "clock_bot": self.clock_bot}

    @classmethod
    def from_json(cls, data) -> House:
        return cls.asked(data) if data else cls()


class Presence:
    """When each seat's page, and each spectator's, last asked for the table."""

    def __init__(self):
        self.seats: dict = {}  # seat -> time last heard from
        self.watchers: dict = {}  # spectator's key -> time last heard from
        self.changes = 0  # how many times someone came (pages waiting for the table are told)

    def heard(self, seats, watcher: str | None = None) -> bool:
        """Note the seats (or the spectator) a page asked for; whether one of them has just come."""
        now = time.monotonic()
        came = any(now - self.seats.get(s, -math.inf) >= PRESENT for s in seats) or (
            watcher is not None and watcher not in self.watchers)
        for s in seats:
            self.seats[s] = now
        if watcher is not None:
            self.watchers[watcher] = now
        if came:
            self.changes += 1
        return came

    def connected(self, n: int) -> list:
        now = time.monotonic()
        return [now - self.seats.get(s, -math.inf) < PRESENT for s in range(n)]

    def watching(self) -> int:
        now = time.monotonic()
        for k in [k for k, t in self.watchers.items() if now - t >= PRESENT]:
            del self.watchers[k]  # (bounded: a key that left is forgotten)
        return len(self.watchers)


def watch_name(seat: int, names: list) -> str:
    """Whose eyes a spectator watches with, in words."""
    return "nobody (what every player sees)" if seat == NOBODY else names[seat]


def lobby_entry(table, now: float, lang: str | None = None) -> dict:
    """What the lobby says of a listed table in progress: its game, each seat (a person's or a
    bot's, taken or free, connected or not), whose decision it is, and how old it is. Nothing a
    seat sees alone: no card, no counter, no option. Its words are in `lang`, the language of the
    page that asks (a French table's seats are 'player 2', 'greedy' in an English lobby), else in the
    table's own."""
    st = table.state
    lang = lang or table.lang
    present = table.presence.connected(st.n)
    names = [table.seat_name(s, lang) for s in range(st.n)]
    seats = []
    for s, who in enumerate(table.who):
        person = who == "person"
        seats.append({"seat": s, "name": names[s], "who": who, "who_said": bot_said(who, lang),
                      "free": person and not table.taken[s],
                      "connected": person and present[s]})
    now_playing = None if st.is_terminal() else int(st.current_player)
    return {"id": table.id, "game": table.spec.get("game"), "title": table.game.title, "players": st.n,
            "seats": seats, "to_play": now_playing, "to_play_name": names[now_playing] if now_playing is not None else None,
            "age": round(now - table.made), "idle": round(now - table.touched), "decisions": len(st.history),
            "watch": f"/table/{table.id}?key={table.watch_keys['nobody']}"}


def same_key(key, secret: str) -> bool:
    """Whether `key` (as a request gave it: anything) is `secret`, compared in constant time."""
    return isinstance(key, str) and bool(key) and secrets.compare_digest(key.encode("utf-8"), secret.encode("utf-8"))


class Seating:
    """The part of a table (`tables.Table`) that seats people, hears from their pages and keeps
    the clock: it reads the table's state, keys, house rules and presence."""

    def take(self, seat: int) -> str:
        """Seat `seat` taken from the lobby: its key. 409 when it is a bot's or already taken."""
        with self.lock:
            if not self.house.listed:
                raise TableError(404, "this table is not in the lobby")
            if not 0 <= seat < self.state.n:
                raise TableError(400, f"no seat {seat + 1}: the table has {self.state.n}")
            if self.who[seat] != "person":
                raise TableError(409, f"a bot ({self.who[seat]}) plays seat {seat + 1}")
            if self.taken[seat]:
                raise TableError(409, f"seat {seat + 1} is taken: choose a free one")
            if self.state.is_terminal() or self.fault is not None:
                raise TableError(409, "the game is over")
            self.taken[seat] = True  # (the version is the game's: a page's next poll shows it)
            return self.seat_keys[seat]

    def heard(self, key: str | None) -> bool:
        """A page holding `key` asked for the table: its seats are connected (and taken). Whether
        someone has just come (the other pages are then told)."""
        watched = self.watched_by(key)
        if watched is not None:
            return self.presence.heard((), key)
        seats = [s for s, k in enumerate(self.seat_keys) if k is not None and same_key(key, k)]
        if not self.house.listed and same_key(key, self.owner_key):
            seats = self.people()  # the maker's screen plays every person's seat (hot seat)
        for s in seats:
            if not self.taken[s] and s == self.state.current_player:
                self.posed = time.monotonic()  # the clock of a seat starts when someone sits there
            self.taken[s] = True  # (not a new version: a choice made on the last view still stands)
        return self.presence.heard(seats)

    # the turn clock ----------------------------------------------------------------------
    def clock_left(self) -> float | None:
        """Seconds left to the person deciding now, when the table has a clock (and someone sits
        at that seat: a free seat's clock waits for its player)."""
        if self.house.clock is None or self.fault is not None or self.state.is_terminal() \
                or self.who[self.state.current_player] != "person" or not self.taken[self.state.current_player]:
            return None
        return max(0.0, self.house.clock - (time.monotonic() - self.posed))

    def time_out(self, version: int) -> bool:
        """The clock ran out on the decision of version `version`: its bot decides for the seat,
        when the table names one. Whether a decision was made."""
        with self.lock:
            left = self.clock_left()
            if self.version != version or left is None or left > 0 or self.house.clock_bot is None:
                return False
            seat = self.state.current_player
            bot = make_agent(self.house.clock_bot, agent_seed(self.state.seed, seat) + len(self.state.history))
            try:
                option = bot.act(SeatView(self.state, seat))
            except LookaheadFault as lf:
                option = lf.action
            if self.house.undo == UNDO_AGREED:
                self.undos.keep(self.state, seat)
            for lines in self.told.values():
                lines.write(words_in(self.lang).w("clock_out", self.seat_called(seat, first=True),
                                                  Said(self.house.clock_bot)))
            self._apply(option)
            return True
