"""Replays in the browser: a saved trace stepped through event by event, backwards and forwards.

A trace holds the game's choices and its events (rulings/trace.py). Opening one
plays the choices again, as `regles replay` does, and checks that the game gives
the same events; it keeps a copy of the state before each decision (a clone is
a few microseconds). The table as it stood at any event is then one step away:
the step holding that event is played again from the copy before it, into a
list of events that copies the state the moment the next event is recorded. So
the board shown at event 123 is the engine's own state between events 123 and
124, not a second reading of the events.

Each event comes with the narration of it (everything told, as to a rules
lawyer) and its cause: the content file and line that made it, with the line's
text. A replay may be forked at any event into a new table where bots (or
people) play on from the decision there.

A trace is untrusted: anyone may upload one. Its game is looked up by id among
the games the server was started with (`Catalogue`), never by the folder its
header names; its mods must be the server's own; a line's text comes from the
files of the game the server loaded (`narrate.SourceLines`), never from a path
the trace names. The result shown is the one the replayed game reached.
"""
from __future__ import annotations

import bisect
import json
import os
import re
import threading
from pathlib import Path

from ... import LoadError
from ...engine.events import ANSWERS, touches
from ...engine.savefile import SaveError, parse_json
from ...engine.state import GameFault
from ...play import weighing
from ...rulings.trace import (
    Places,
    TraceError,
    check_against,
    read_trace,
    result_differs,
    result_of,
)
from ...view import why
from ...view.narrate import Narrator, counter_name, source_lines, zone_name
from ...view.narrate_words import cap
from .catalogue import Catalogue
from .layout import TableLayout
from .tables import MAX_MOVE
from .views import CardTexts, TableView

TRACE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,120}$")


class ReplayError(Exception):
    """A trace that cannot be replayed here, with the HTTP status that says why."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


class ResultIndex:
    """The result each kept trace's game reached when it was played or replayed here, by the
    trace's name and the time its file was written (`results.json` beside the traces): what the
    list of replays shows, so that a trace's own word on its result is never shown."""

    def __init__(self, folder: Path):
        self.path = folder / ".results.json"
        self.lock = threading.Lock()
        try:
            data = parse_json(self.path.read_bytes()) if self.path.is_file() else {}
        except (OSError, SaveError):
            data = {}
        self.known = {k: v for k, v in data.items() if isinstance(v, dict)} if isinstance(data, dict) else {}

    def get(self, path: Path) -> dict | None:
        got = self.known.get(path.stem)
        try:
            return got["result"] if got and got.get("written") == path.stat().st_mtime_ns else None
        except OSError:
            return None

    def put(self, path: Path, result: dict | None) -> None:
        if result is None:
            return
        with self.lock:
            self.known[path.stem] = {"written": path.stat().st_mtime_ns, "result": result}
            self._save()

    def drop(self, path: Path) -> None:
        with self.lock:
            if self.known.pop(path.stem, None) is not None:
                self._save()

    def _save(self) -> None:
        kept = {p.stem for p in self.path.parent.glob("*.jsonl")}
        self.known = {k: v for k, v in self.known.items() if k in kept}
        tmp = self.path.with_name(".results.json.tmp")
        tmp.write_text(json.dumps(self.known), encoding="utf-8")
        os.replace(tmp, self.path)


class _Watch(list):
    """A list of events that copies its state the moment event number `target` is recorded.
    The engine records an event once its change is made, so the copy is the state with that
    change and none after it."""

    def __init__(self, events, target: int):
        super().__init__(events)
        self.target = target
        self.state = None
        self.snap = None

    def append(self, event) -> None:
        super().append(event)
        if self.snap is None and self.state is not None and len(self) == self.target + 1:
            self.snap = self.state.clone()


def trace_path(folder: Path, name: str) -> Path:
    """The file of trace `name` in `folder`; a ReplayError (404) for a name that is no trace's."""
    if not TRACE_NAME.match(name) or name.endswith(".tmp"):
        raise ReplayError(404, f"no trace '{name[:60]}' (a trace's name is letters, digits, '.', '-' and '_')")
    path = folder / f"{name}.jsonl"
    if not path.is_file():
        raise ReplayError(404, f"no trace '{name}'")
    return path


def mod_name(path: str) -> str:
    """What a mod is known by between machines: the last part of its path (a trace records a
    mod by the path it was laid from; that path is never opened here)."""
    return path.replace("\\", "/").rstrip("/").rpartition("/")[2]


def game_of_trace(catalogue: Catalogue, header: dict):
    """The game of a trace, as this server offers it: its id one of the catalogue's games, its
    expansions and scenario among that game's, its mods those the server was started with (by
    name). The folder a header names (`source`) is never read. A ReplayError (422) otherwise."""
    name = header["game"]
    if name not in catalogue.names():
        raise ReplayError(422, f"the trace is of the game '{name[:60]}', which this server does not offer "
                               f"(games: {', '.join(catalogue.names())})")
    laid = header.get("layers") or {}
    ours = sorted(mod_name(m) for m in catalogue.mods)
    theirs = sorted(mod_name(m) for m in laid.get("mods", ()))
    if theirs != ours:
        raise ReplayError(422, "the trace was played with the mods " + (", ".join(m[:60] for m in theirs) or "none")
                               + "; this server lays " + (", ".join(ours) or "none")
                               + " (start it with the same --with to replay the trace)")
    try:
        return catalogue.game(name, tuple(laid.get("expansions", ())), laid.get("scenario"),
                              tuple(laid.get("without", ())), tuple(laid.get("set", ())))
    except ValueError as exc:
        raise ReplayError(422, f"the trace's expansions or scenario: {exc}") from None


def replayable(catalogue: Catalogue, header: dict, path=None) -> str | None:
    """Why the trace `header` cannot be replayed by this server (its game not offered, other
    mods, rules changed since it was recorded: the message opening it would show), or None."""
    try:
        check_against(game_of_trace(catalogue, header), header, path)
    except (ReplayError, TraceError, LoadError) as exc:
        said = str(exc.message if isinstance(exc, ReplayError) else exc)
        return said.replace(str(path), Path(path).name) if path is not None else said
    return None


class Replay:
    """A trace read, its game loaded, its choices played again and checked."""

    def __init__(self, path: Path, catalogue: Catalogue | None = None):
        try:
            self.header, self.recorded = read_trace(path)
            self.game = game_of_trace(catalogue or Catalogue(), self.header)
            check_against(self.game, self.header, path)
        except TraceError as exc:
            raise ReplayError(422, str(exc).replace(str(path), path.name)) from None
        except ValueError as exc:
            raise ReplayError(422, f"{path.name}: {exc}") from None
        except LoadError as exc:  # the game named by the trace does not check as it is now
            raise ReplayError(422, f"{path.name}: its game cannot be loaded: {str(exc).splitlines()[0]}") from None
        self.path = path
        h = self.header
        self.players = h["players"]
        self.powers = {int(k): v for k, v in (h.get("powers") or {}).items()}
        self.program = self.game.program
        self.layout = TableLayout(self.program)
        self.texts = {"en": CardTexts(self.program)}  # by language: the cards as each is shown
        self.places = Places(self.program.root)
        self.lines = source_lines(self.program)
        self.result: dict | None = None  # the result the replayed game reached
        self.starts: list = []  # the first event of each step: the setup, then one step per choice
        self.before: list = []  # the state before each step (None before the setup)
        self.divergence: str | None = None
        self.told: dict = {}  # language -> (the narration of each event, what each changed, in words)
        self._play()
        self.events = [self._event(ev) for ev in self.recorded]

    def _new(self, trace):
        h = self.header
        return self.game.new_state(h["players"], h["seed"], h["options"], trace=trace, powers=self.powers)

    def _play(self) -> None:
        """Play the choices again, keeping the state before each, and check the events and the
        result against the recorded ones."""
        self.starts.append(0)
        self.before.append(None)
        st, fault = None, None
        try:
            st = self._new(True)
            for i, choice in enumerate(self.header["choices"]):
                if st.is_terminal() or not 0 <= choice < len(st.legal_actions()):
                    self.divergence = f"choice {i + 1} ({choice}) is not an option of the replayed game"
                    break
                self.starts.append(len(st.trace))
                self.before.append(st.clone())
                st.apply(choice)
        except GameFault as exc:
            st = getattr(exc, "state", None) or st
            fault = exc
            if not self.header.get("error"):
                self.divergence = f"the replayed game fails: {exc}"
        got = [self.places.event(ev) for ev in (st.trace if st is not None and st.trace else [])]
        self.limit = len(self.recorded)
        for k, ev in enumerate(self.recorded):
            if k >= len(got) or got[k] != ev:
                self.divergence = self.divergence or f"the replayed game differs from the trace at event {k}"
                self.limit = k
                break
        else:
            if len(got) > len(self.recorded) and self.divergence is None:
                self.divergence = (f"the trace stops at event {len(self.recorded) - 1}; the replayed game "
                                   f"goes on to event {len(got) - 1}")
        if st is not None:
            self.result = result_of(st, fault)
            recorded = self.header.get("result")
            why = result_differs(recorded, self.result) if recorded is not None else None
            if why and self.divergence is None:
                self.divergence = why

    def _event(self, ev: dict) -> dict:
        changes = _changes(ev)
        out = {"n": ev.get("n"), "type": ev.get("type"), "text": "", "changes": changes}
        at = ev.get("at")
        if isinstance(at, str):
            out["at"] = at
            line = self.lines.line(at)
            if line is not None:
                out["line"] = line
        return out

    def _changed(self, changes: dict, lang: str = "en") -> list:
        """What an event changed, in words: the component's title, the zones and counters named
        as the narration names them, in `lang`."""
        program = self.program
        out = [program.comp_card[c].title for c in changes.get("components", ())
               if 0 <= c < len(program.comp_card)]
        out += [zone_name(program, z, None, vocabulary=True, lang=lang) for z in changes.get("zones", ())]
        out += [counter_name(program, k, None, None, self.players, vocabulary=True, lang=lang)
                for k in changes.get("counters", ())]
        return out

    # what the page is sent -----------------------------------------------------------------
    def summary(self, name: str, lang: str = "en") -> dict:
        h = self.header
        told = self.told.get(lang)
        if told is None:  # the narration of every event, told once in each language asked for
            # everything, the rules' bookkeeping too (internal counters, classes gained, events
            # signalled): a replay is read to see the whole game
            narrator = Narrator(self._new(False), None, None, show_all=True, lang=lang)
            texts = []
            for raw in self.recorded:
                try:
                    # each event a line of its own (the header of its page, a row of the list): a
                    # sentence, where the terminal tells it under its decision ('vos cubes : +2')
                    texts.append(cap((narrator.tell(raw) or "").strip()))
                except (KeyError, IndexError, TypeError, ValueError):
                    texts.append(raw.get("type", "?"))
            changed = [self._changed(e["changes"], lang) for e in self.events]
            told = self.told[lang] = (texts, changed)
        events = [{**e, "text": text, "changed": changed}
                  for e, text, changed in zip(self.events, *told, strict=True)]
        return {"lang": lang, "name": name, "game": self.game.id, "title": self.program.defn.title,
                "players": h["players"],
                "seed": h["seed"], "options": h["options"], "agents": h.get("agents", []),
                "result": self.result, "recorded_result": h.get("result"), "error": h.get("error"),
                "undos": h.get("undos", []),
                "events": events,
                "steps": self.starts, "divergence": self.divergence, "shown_up_to": self.limit}

    def state_at(self, k: int):
        """The state as it stood when event `k` was recorded: with its change, before the next."""
        if not 0 <= k < len(self.recorded):
            raise ReplayError(404, f"the trace has events 0 to {len(self.recorded) - 1}, no event {k}")
        if k >= self.limit:
            raise ReplayError(409, f"event {k} cannot be shown: {self.divergence}")
        step = bisect.bisect_right(self.starts, k) - 1
        watch = _Watch([None] * self.starts[step], k)
        if step == 0:  # the setup: a blank state (its first event, the start), then watched
            h = self.header
            st = self.game.blank_state(h["players"], h["seed"], h["options"], watch, self.powers)
            if k == 0:
                return st
            watch.state = st
            self.game.begin(st)
        else:
            st = self.before[step].clone()
            watch.state = st
            st.trace = watch
            st.trace_mark = self.starts[step]
            st.apply(self.header["choices"][step - 1])
        return watch.snap if watch.snap is not None else st

    def decision_state(self, k: int):
        """A copy of the state waiting at the decision event `k` answers (a choice), or at the
        first decision after it, with the events so far: where a fork plays on from."""
        if not 0 <= k < self.limit:
            raise ReplayError(409 if k < len(self.recorded) else 404, f"no event {k} to fork at"
                              + (f": {self.divergence}" if self.divergence and k < len(self.recorded) else ""))
        step = bisect.bisect_right(self.starts, k) - 1
        if not (self.recorded[k].get("type") in ANSWERS and self.starts[step] == k and step > 0):
            step += 1
        if step >= len(self.before):
            raise ReplayError(409, f"the game asks for no decision after event {k}: nothing to play on from")
        st = self.before[step].clone()
        st.trace = [dict(ev) for ev in self.recorded[:self.starts[step]]]
        st.trace_mark = len(st.trace)
        return st


    def why_bot(self, k: int, agent: str | None, lang: str = "en") -> dict:
        """What a bot weighs at the decision event `k` answers (or the next one): the trace's bot
        of that seat when it weighs, else `agent` or greedy, asked again (play.weighing)."""
        st = self.decision_state(k)
        if st.is_terminal():
            raise ReplayError(409, f"the game is over after event {k}: no bot decides")
        try:
            weighed, traced = weighing.weigh_in_trace(st, self.header, agent, within=Path(self.program.root).parent,
                                                      lang=lang)
        except ValueError as exc:
            raise ReplayError(422, f"agent: {exc}") from None
        return {"event": k, "seat": st.current_player + 1, "traced": traced, **weighed.as_json()}

    def why(self, k: int, move, seat: int | None, lang: str = "en") -> dict:
        """Why `move` was not offered at the decision event `k` answers (or the next one), as
        `regles why TRACE --at` answers it, in `lang`; asked as `seat` (from 0), the answer says
        nothing that seat could not see then, else it tells the whole table."""
        if not isinstance(move, str) or not move.strip() or len(move) > MAX_MOVE:
            raise ReplayError(400, f"'move' is the text of a move: an option, a card, 'use CARD' "
                                   f"(at most {MAX_MOVE} characters)")
        told = why.answered(self.decision_state(k), move, seat, lang, Path(self.program.root).parent)
        told["event"] = k
        return told

    def view(self, k: int, seat: int | None, lang: str = "en") -> dict:
        st = self.state_at(k)
        texts = self.texts.get(lang)
        if texts is None:
            texts = self.texts[lang] = CardTexts(self.program, lang)
        data = TableView(st, self.layout, texts, seat, lang=lang).data(list(self.header.get("agents") or []))
        data.update({"event": k, "seat": seat})
        return data


def _changes(ev: dict) -> dict:
    """What an event changed, for the page to mark: components, zones and counters."""
    t = ev.get("type")
    out: dict = {}
    if isinstance(ev.get("id"), int) and touches(t, "component"):
        out["components"] = [ev["id"]]
    zones = [z for z in (ev.get("from"), ev.get("to"), ev.get("zone")) if isinstance(z, str)]
    if zones and touches(t, "zone"):
        out["zones"] = zones
    if touches(t, "counter") and isinstance(ev.get("counter"), str):
        out["counters"] = [ev["counter"]]
    return out
