"""Taking back decisions at a table, by agreement: for playtests, where a slip of the mouse
should not cost a game.

At a table made with the house rule `undo: agreed`, the engine's own state is kept
(`State.clone`) before each decision a person makes, for the last `KEPT` of them. A
seat asks to take back its last decision, or to go back to a chosen one; every
other person's seat must agree (a key that opens several seats agrees for them all);
a single refusal withdraws the request. Bots and automata never ask, and are never
asked: their decisions after the one taken back are taken back with it.

Once agreed, the table's state becomes the copy kept before that decision: not the
game played again, which a bot's choices could make differ. After a restart of the
server the copies are not in memory; the state before a kept decision is then the
game played again from its start with the recorded choices, which the engine makes
the same (same content, seed and choices give the same trace), and which is checked
against the events recorded.

Each undo is recorded: who asked, who agreed, the decision gone back to, the event
where the game took up again and the choices taken back. The trace's header keeps
the list (`undos`); a replay shows each where it happened.
"""
from __future__ import annotations

import json
import time

from ...engine.events import ANSWERS
from ...view.narrate_words import Said, words_in
from .errors import TableError

UNDO_AGREED = "agreed"  # the house rule that lets decisions be taken back

KEPT = 50  # decisions a table can go back over


class Kept:
    """One person's decision that can be taken back: its number in the game (from 1), the seat
    that made it, the question, and the state before it (None after a restart)."""

    def __init__(self, number: int, seat: int, prompt: str, events: int, state=None):
        self.number = number
        self.seat = seat
        self.prompt = prompt
        self.events = events  # the events recorded before it
        self.state = state

    def to_json(self) -> dict:
        return {"number": self.number, "seat": self.seat, "prompt": self.prompt, "events": self.events}

    @classmethod
    def from_json(cls, d: dict) -> Kept:
        return cls(int(d["number"]), int(d["seat"]), str(d["prompt"]), int(d["events"]))


class Undos:
    """The decisions a table keeps to go back to, the request in progress, and the undos made."""

    def __init__(self, kept=(), done=(), asked=None):
        self.kept: list = list(kept)
        self.done: list = list(done)  # what the trace's header records, one object per undo
        self.asked: dict | None = asked  # {"by", "to", "agreed": [...], "waiting": [...]}

    def keep(self, state, seat: int) -> None:
        """Before seat `seat` answers the decision `state` poses."""
        self.kept.append(Kept(len(state.history) + 1, seat, str(state.prompt), len(state.trace or []),
                              state.clone()))
        del self.kept[:-KEPT]

    def ask(self, seat: int, to: int | None, agreeing: list, persons: list) -> None:
        """Seat `seat` asks to go back to before decision `to` (None: its own last decision).
        `agreeing` are the seats the asker's key opens; `persons` every person's seat."""
        if self.asked is not None:
            raise TableError(409, f"player {self.asked['by'] + 1} has already asked to take back a decision: "
                                 f"answer that first")
        if to is None:
            mine = [k for k in self.kept if k.seat == seat]
            if not mine:
                raise TableError(409, "you have no decision left to take back")
            target = mine[-1]
        else:
            target = next((k for k in self.kept if k.number == to), None)
            if target is None:
                numbers = [k.number for k in self.kept]
                raise TableError(409, f"decision {to} cannot be taken back"
                                     + (f" (the table keeps decisions {numbers[0]} to {numbers[-1]} made by people)"
                                        if numbers else " (no decision is kept)"))
        waiting = [s for s in persons if s not in agreeing]
        self.asked = {"by": seat, "to": target.number, "prompt": target.prompt, "agreed": sorted(agreeing),
                      "waiting": waiting}

    def answer(self, seats: list, agree: bool) -> bool | None:
        """The seats `seats` (those one key opens) answer the request: True when it is now agreed
        by all, False when refused, None while others are still to answer."""
        if self.asked is None:
            raise TableError(409, "no one is asking to take back a decision")
        mine = [s for s in seats if s in self.asked["waiting"]]
        if not mine:
            raise TableError(409, "this seat has no request to answer")
        if not agree:
            return False
        self.asked["waiting"] = [s for s in self.asked["waiting"] if s not in mine]
        self.asked["agreed"] = sorted(set(self.asked["agreed"]) | set(mine))
        return not self.asked["waiting"]

    def target(self) -> Kept:
        return next(k for k in self.kept if k.number == self.asked["to"])

    def record(self, target: Kept, trace: list) -> dict:
        """The undo of the request agreed, as the trace's header keeps it; the kept decisions from
        `target` on are dropped (they lay in the future taken back)."""
        undone = [{"player": ev.get("player"), "label": ev.get("label")} for ev in trace[target.events:]
                  if ev.get("type") in ANSWERS]
        done = {"by": self.asked["by"] + 1, "agreed": [s + 1 for s in self.asked["agreed"]],
                "to": target.number, "at_event": target.events, "undone": undone}
        self.done.append(done)
        self.kept = [k for k in self.kept if k.number < target.number]
        self.asked = None
        return done

    def to_json(self) -> dict:
        return {"kept": [k.to_json() for k in self.kept], "done": self.done, "asked": self.asked}

    @classmethod
    def from_json(cls, data) -> Undos:
        if not data:
            return cls()
        asked = data.get("asked")
        if asked is not None and not (isinstance(asked, dict) and _ints(asked, "by", "to")
                                      and isinstance(asked.get("prompt"), str)
                                      and all(isinstance(asked.get(k), list) and all(type(x) is int for x in asked[k])
                                              for k in ("agreed", "waiting"))):
            raise ValueError("its request to take back a decision is not well formed")
        done = data.get("done", [])
        if not isinstance(done, list) or not all(isinstance(d, dict) and _ints(d, "by", "to", "at_event") for d in done):
            raise ValueError("its undos are not well formed")
        return cls([Kept.from_json(k) for k in data.get("kept", [])][-KEPT:], done, asked)


def _ints(d: dict, *names) -> bool:
    return all(type(d.get(n)) is int for n in names)


class TakingBack:
    """The part of a table (`tables.Table`) that takes decisions back: asked, answered, made."""

    # taking back decisions -----------------------------------------------------------------
    def ask_undo(self, key: str | None, seat: int, to: int | None) -> None:
        with self.lock:
            if self.house.undo != UNDO_AGREED:
                raise TableError(409, "this table was made without undo (house rule 'undo: agreed')")
            if seat not in self.seats_for(key) or self.who[seat] != "person":
                raise TableError(403, f"this key does not open seat {seat + 1}")
            opens = [s for s in self.seats_for(key) if self.who[s] == "person"]
            self.undos.ask(seat, to, opens, self.people())
            self._say(words_in(self.lang).w("undo_asks", self.seat_called(seat, first=True), self.undos.asked["to"],
                                            Said(self.told_in(self.undos.asked["prompt"]))))
            self.version += 1
            if not self.undos.asked["waiting"]:
                self._undo_now()

    def answer_undo(self, key: str | None, seat: int, agree: bool) -> None:
        with self.lock:
            if seat not in self.seats_for(key):
                raise TableError(403, f"this key does not open seat {seat + 1}")
            by = self.undos.asked["by"] if self.undos.asked else None
            agreed = self.undos.answer([s for s in self.seats_for(key) if self.who[s] == "person"], agree)
            self.version += 1
            if agreed is False:
                self.undos.asked = None
                self._say(words_in(self.lang).w("undo_refused", self.seat_called(seat, first=True),
                                                self.seat_called(by)))
            elif agreed:
                self._undo_now()

    def _undo_now(self) -> None:
        """Go back to the state kept before the decision the request names (agreed by all)."""
        target = self.undos.target()
        after = len(self.state.history) - target.number  # the decisions made after it, taken back with it
        trace = list(self.state.trace or [])
        before = target.state.clone() if target.state is not None else self._played_to(target)
        before.trace = trace[:target.events]
        before.trace_mark = target.events
        done = self.undos.record(target, trace)
        self.state = before
        for n in self.narrators.values():
            n.state = before
            n.done = target.events
        self.fault = None
        self.posed = time.monotonic()
        self.touched = time.time()
        key = "undo_done_many" if after > 1 else "undo_done_1" if after == 1 else "undo_done"
        self._say(words_in(self.lang).w(key, done["to"], Said(", ".join(self.seat_name(s - 1) for s in done["agreed"])),
                                        after))
        self.version += 1

    def _played_to(self, target):
        """The state before decision `target`, the game played again from its start (after a restart,
        when the copy kept is gone); 409 when it does not lead to the events recorded."""
        st = self.state
        again = self.game.new_state(st.n, st.seed, dict(st.options), trace=True, powers=dict(st.powers or {}))
        for choice in st.history[:target.number - 1]:
            again.apply(choice)
        same = json.dumps(again.trace, default=str) == json.dumps((st.trace or [])[:target.events], default=str)
        if not same or again.current_player != target.seat:
            raise TableError(409, "the game played again does not reach that decision as recorded: it cannot be taken back")
        return again

    def _say(self, line: str) -> None:
        for lines in self.told.values():
            lines.write(line)

    def _undo_view(self, key) -> dict:
        """What a seat's page shows of undo: the decisions it may go back to, the request in
        progress (who asks, to which decision, who is still to answer) and the undos made."""
        mine = set(self.seats_for(key))
        asked = self.undos.asked
        out = {"kept": [{"number": k.number, "seat": k.seat, "prompt": self.told_in(k.prompt)}
                        for k in reversed(self.undos.kept)],
               "done": len(self.undos.done)}
        if asked is not None:
            out["asked"] = {"by": asked["by"], "to": asked["to"], "prompt": self.told_in(asked["prompt"]),
                            "waiting": asked["waiting"], "mine_to_answer": bool(mine & set(asked["waiting"]))}
        return out
