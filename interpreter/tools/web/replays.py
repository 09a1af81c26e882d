"""Replays in the browser: a saved trace stepped through event by event, backwards and forwards.

A trace holds the game's choices and its events (tools/trace.py). Opening one
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
"""
from __future__ import annotations

import bisect
import re
from pathlib import Path

from ... import LoadError
from ...engine.state import GameFault
from ..narrate import Narrator, counter_name, source_line, zone_name
from ..trace import Places, TraceError, check_against, game_of_header, read_trace
from .layout import TableLayout
from .views import CardTexts, TableView

TRACE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,120}$")


class ReplayError(Exception):
    """A trace that cannot be replayed here, with the HTTP status that says why."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


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
        raise ReplayError(404, f"no trace '{name}' in {folder}")
    return path


class Replay:
    """A trace read, its game loaded, its choices played again and checked."""

    def __init__(self, path: Path):
        try:
            self.header, self.recorded = read_trace(path)
            self.game = game_of_header(self.header)
            check_against(self.game, self.header, path)
        except TraceError as exc:
            raise ReplayError(422, str(exc)) from None
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
        self.texts = CardTexts(self.program)
        self.places = Places(self.program.root)
        self.starts: list = []  # the first event of each step: the setup, then one step per choice
        self.before: list = []  # the state before each step (None before the setup)
        self.divergence: str | None = None
        self.told = False
        self._play()
        self.events = [self._event(ev) for ev in self.recorded]

    def _new(self, trace):
        h = self.header
        return self.game.new_state(h["players"], h["seed"], h["options"], trace=trace, powers=self.powers)

    def _play(self) -> None:
        """Play the choices again, keeping the state before each, and check the events."""
        self.starts.append(0)
        self.before.append(None)
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
            st = getattr(exc, "state", None) or locals().get("st")
            if not self.header.get("error"):
                self.divergence = f"the replayed game fails: {exc}"
        got = [self.places.event(ev) for ev in (st.trace if st is not None and st.trace else [])]
        for k, ev in enumerate(self.recorded):
            if k >= len(got) or got[k] != ev:
                self.divergence = self.divergence or f"the replayed game differs from the trace at event {k}"
                self.limit = k
                break
        else:
            self.limit = len(self.recorded)

    def _event(self, ev: dict) -> dict:
        changes = _changes(ev)
        out = {"n": ev.get("n"), "type": ev.get("type"), "text": "", "changes": changes,
               "changed": self._changed(changes)}
        at = ev.get("at")
        if isinstance(at, str):
            out["at"] = at
            line = source_line(self._absolute(at))
            if line is not None:
                out["line"] = line
        return out

    def _changed(self, changes: dict) -> list:
        """What an event changed, in words: the component's title, the zones and counters named
        as the narration names them."""
        program = self.program
        out = [program.comp_card[c].title for c in changes.get("components", ())
               if 0 <= c < len(program.comp_card)]
        out += [zone_name(program, z, None) for z in changes.get("zones", ())]
        out += [counter_name(program, k, None, None, self.players) for k in changes.get("counters", ())]
        return out

    def _absolute(self, at: str) -> str:
        """'my-game/game.yaml:42' (relative to the game's folder) as a path that opens."""
        path, _, line = at.rpartition(":")
        root = Path(self.program.root).resolve()
        first, _, rest = path.partition("/")
        if first == root.name and rest:
            return f"{root / rest}:{line}"
        return at

    # what the page is sent -----------------------------------------------------------------
    def summary(self, name: str) -> dict:
        h = self.header
        if not self.told:  # the narration of every event, told once
            narrator = Narrator(self._new(False), None, None)
            for e, raw in zip(self.events, self.recorded):
                try:
                    e["text"] = (narrator.tell(raw) or "").strip()
                except (KeyError, IndexError, TypeError, ValueError):
                    e["text"] = raw.get("type", "?")
            self.told = True
        return {"name": name, "game": self.game.id, "title": self.program.defn.title, "players": h["players"],
                "seed": h["seed"], "options": h["options"], "agents": h.get("agents", []),
                "result": h.get("result"), "error": h.get("error"), "events": self.events,
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
        if not (self.recorded[k].get("type") == "choice" and self.starts[step] == k and step > 0):
            step += 1
        if step >= len(self.before):
            raise ReplayError(409, f"the game asks for no decision after event {k}: nothing to play on from")
        st = self.before[step].clone()
        st.trace = [dict(ev) for ev in self.recorded[:self.starts[step]]]
        st.trace_mark = len(st.trace)
        return st

    def spec_game(self) -> str:
        """How the game of the trace is named to load it again: its folder, or a shipped game's id."""
        src = self.header.get("source")
        return src if isinstance(src, str) else self.header["game"]

    def view(self, k: int, seat: int | None) -> dict:
        st = self.state_at(k)
        data = TableView(st, self.layout, self.texts, seat).data(list(self.header.get("agents") or []))
        data.update({"event": k, "seat": seat})
        return data


def _changes(ev: dict) -> dict:
    """What an event changed, for the page to mark: components, zones and counters."""
    t = ev.get("type")
    out: dict = {}
    if isinstance(ev.get("id"), int) and t in ("move", "tap", "untap", "tag", "untag", "set", "action"):
        out["components"] = [ev["id"]]
    zones = [z for z in (ev.get("from"), ev.get("to"), ev.get("zone")) if isinstance(z, str)]
    if zones:
        out["zones"] = zones
    if t == "counter" and isinstance(ev.get("counter"), str):
        out["counters"] = [ev["counter"]]
    return out
