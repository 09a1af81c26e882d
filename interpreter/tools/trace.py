"""Game traces as JSON lines, and their replay.

The first line is a header: what is needed to play the game again (the game,
the number of players, the seed, the options, the choices made) and what
came of it. Then one event per line, as the engine recorded them, each with
the content `file:line` that caused it. Paths in `at` are written relative to
the game's folder (`nim/game.yaml:42`), so a trace replays the same from any
directory and from an installed wheel.

    {"regles_trace": 1, "game": "nim", "players": 2, "seed": 7, "options": {...},
     "agents": ["greedy", "random"], "choices": [0, 2, 1], ...}
    {"n": 0, "type": "start", ...}
    {"n": 1, "type": "shuffle", "zone": "pile", "at": "nim/game.yaml:44"}

`replay(path)` loads the game, starts it with the same players, seed and
options, applies the recorded choices in order and compares every event with
the recorded ones: the first difference is reported (event number, expected,
got) with exit status 1.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from .. import LoadError, __version__, load
from ..content.folders import shipped_game
from ..engine.invariants import MAX_DECISIONS, InvariantError, Invariants, check_bound
from ..engine.state import GameFault

FORMAT = 1


class TraceError(Exception):
    """The file is not a readable trace."""


class _Places:
    """Rewrites the `at` of events relative to the game's folder."""

    def __init__(self, root):
        self.root = Path(root).resolve() if root is not None else None
        self.cache: dict[str, str] = {}

    def at(self, at: str) -> str:
        path, sep, line = at.rpartition(":")
        if not sep:
            return at
        rel = self.cache.get(path)
        if rel is None:
            rel = path
            if self.root is not None:
                try:
                    rel = (Path(path).resolve().relative_to(self.root)).as_posix()
                    rel = f"{self.root.name}/{rel}"
                except (ValueError, OSError):
                    pass
            self.cache[path] = rel
        return f"{rel}:{line}"

    def event(self, ev: dict) -> dict:
        """The event as it reads once written to JSON and read back, with a portable `at`."""
        ev = json.loads(json.dumps(ev, ensure_ascii=False, default=str))
        if "at" in ev and isinstance(ev["at"], str):
            ev["at"] = self.at(ev["at"])
        return ev


def source_of(game, name_or_path: str | None = None) -> str | None:
    """How to find the game again: None for a shipped game, else the absolute folder."""
    if shipped_game(game.id) is not None and (name_or_path is None or name_or_path == game.id):
        return None
    return str(Path(game.program.root).resolve())


def make_header(game, players: int, seed: int, options: dict, choices: list, *, agents=None,
                source: str | None = None, check: bool = False, result=None, error=None,
                events: int | None = None, max_decisions: int | None = None) -> dict:
    h = {"regles_trace": FORMAT, "regles": __version__, "game": game.id, "source": source,
         "players": players, "seed": seed, "options": dict(options), "agents": list(agents or []),
         "check": bool(check), "choices": [int(c) for c in choices]}
    if max_decisions is not None:
        h["max_decisions"] = max_decisions
    if events is not None:
        h["events"] = events
    if result is not None:
        h["result"] = result
    if error is not None:
        h["error"] = error
    return h


def result_of(state, error=None) -> dict:
    return {"finished": state.is_terminal() and error is None,
            "winners": [w + 1 for w in state.winners] if state.winners is not None else None,
            "scores": list(state.scores())}


def write_trace(path, game, header: dict, events) -> Path:
    """Write a header and events (raw engine events) to a JSON-lines file."""
    places = _Places(game.program.root)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    events = list(events or [])
    header = dict(header)
    header["events"] = len(events)
    if isinstance(header.get("error"), dict) and isinstance(header["error"].get("message"), str):
        header["error"] = {**header["error"], "message": _norm(header["error"]["message"], places)}
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(header, ensure_ascii=False, default=str) + "\n")
        for ev in events:
            f.write(json.dumps(places.event(ev), ensure_ascii=False) + "\n")
    return path


def save_state_trace(path, game, state, *, agents=None, source=None, check=False, error=None) -> Path:
    """Write the trace of a state played with trace=True."""
    header = make_header(game, state.n, state.seed, state.options, state.history, agents=agents,
                         source=source, check=check, result=result_of(state, error), error=error)
    return write_trace(path, game, header, state.trace or [])


def read_trace(path) -> tuple[dict, list]:
    try:
        with open(path, encoding="utf-8") as f:
            lines = [ln for ln in f if ln.strip()]
    except UnicodeDecodeError:
        raise TraceError(f"{path}: not a trace (not UTF-8 text)") from None
    if not lines:
        raise TraceError(f"{path}: empty file, not a trace")
    try:
        header = json.loads(lines[0])
    except json.JSONDecodeError as exc:
        raise TraceError(f"{path}:1: not a trace header ({exc.msg})") from None
    if not isinstance(header, dict) or header.get("regles_trace") != FORMAT:
        raise TraceError(f"{path}:1: not a regles trace (no \"regles_trace\": {FORMAT} in its first line)")
    for key, kind in (("game", str), ("players", int), ("seed", int), ("options", dict), ("choices", list)):
        if not isinstance(header.get(key), kind) or (kind is int and isinstance(header.get(key), bool)):
            raise TraceError(f"{path}:1: the header has no valid \"{key}\"")
    if not all(isinstance(c, int) and not isinstance(c, bool) for c in header["choices"]):
        raise TraceError(f"{path}:1: \"choices\" must be a list of option numbers")
    events = []
    for i, line in enumerate(lines[1:], 2):
        try:
            ev = json.loads(line)
        except json.JSONDecodeError as exc:
            raise TraceError(f"{path}:{i}: not a JSON event ({exc.msg})") from None
        if not isinstance(ev, dict):
            raise TraceError(f"{path}:{i}: an event must be a JSON object")
        events.append(ev)
    return header, events


def _load_game(header):
    src = header.get("source")
    if isinstance(src, str) and (Path(src) / "game.yaml").is_file():
        return load(src)
    return load(header["game"])


def _show(ev) -> str:
    return json.dumps(ev, ensure_ascii=False) if ev is not None else "nothing (the trace ends here)"


def replay(path, out=None, err=None) -> int:
    """Play a trace again and compare every event. 0: identical; 1: it differs, or cannot be replayed."""
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        header, recorded = read_trace(path)
    except TraceError as exc:
        print(f"regles replay: error: {exc}", file=err)
        return 1
    try:
        game = _load_game(header)
    except LoadError as exc:
        print(str(exc), file=err)
        return 1
    places = _Places(game.program.root)
    state = None
    problem = None  # a divergence found while applying the choices
    fault = None  # the fault the replayed game ended in
    choices = header["choices"]
    try:
        state = game.new_state(header["players"], header["seed"], header["options"], trace=True)
        bound = header.get("max_decisions")
        bound = bound if isinstance(bound, int) and not isinstance(bound, bool) and bound > 0 else None
        inv = Invariants(state, bound or MAX_DECISIONS) if header.get("check") else None
        for i, a in enumerate(choices, 1):
            if state.is_terminal():
                problem = f"choice {i} of {len(choices)} ({a}): the game is already over"
                break
            if not 0 <= a < len(state.legal_actions()):
                problem = (f"choice {i} of {len(choices)} ({a}) is not an option here: "
                           f"{state.prompt!r} has {len(state.legal_actions())} options")
                break
            state.apply(a)
            if inv is not None:
                inv.check(state)
            elif bound is not None:
                check_bound(state, bound)
    except (GameFault, InvariantError, ValueError) as exc:
        fault = {"type": type(exc).__name__, "message": str(exc)}
    got = [places.event(ev) for ev in (state.trace if state is not None and state.trace else [])]
    for k in range(max(len(recorded), len(got))):
        exp = recorded[k] if k < len(recorded) else None
        have = got[k] if k < len(got) else None
        if exp != have:
            print(f"regles replay: {path}: event {k} differs", file=err)
            print(f"  expected: {_show(exp)}", file=err)
            print(f"  got:      {_show(have)}" if have is not None else
                  "  got:      nothing (the replayed game produced no more events)", file=err)
            if problem:
                print(f"  then: {problem}", file=err)
            elif fault and k >= len(got) - 1:
                print(f"  the replayed game failed: {fault['message']}", file=err)
            return 1
    if problem:
        print(f"regles replay: {path}: {problem}", file=err)
        return 1
    expected_error = header.get("error")
    if fault is not None and not expected_error:
        print(f"regles replay: {path}: after event {len(got) - 1} the replayed game failed: {fault['message']}",
              file=err)
        return 1
    if expected_error and fault is None:
        print(f"regles replay: {path}: the recorded game failed ({expected_error.get('message')}), "
              f"the replayed one did not", file=err)
        return 1
    if expected_error and fault is not None and _norm(fault["message"], places) != _norm(
            expected_error.get("message", ""), places):
        print(f"regles replay: {path}: the game fails differently\n"
              f"  expected: {expected_error.get('message')}\n  got:      {fault['message']}", file=err)
        return 1
    if (not expected_error and header.get("result", {}).get("finished")
            and state is not None and not state.is_terminal()):
        print(f"regles replay: {path}: the recorded game ended; the replayed one waits for a decision", file=err)
        return 1
    msg = f"replayed {len(got)} events, identical"
    if fault is not None:
        msg += f"; the game fails as recorded: {fault['message']}"
    print(msg, file=out)
    return 0


def _norm(message: str, places) -> str:
    """A fault message with the path of its position made portable."""
    head, sep, rest = message.partition(": ")
    parts = head.rsplit(":", 2)
    if sep and len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
        return f"{places.at(parts[0] + ':' + parts[1])}:{parts[2]}: {rest}"
    return message


def error_record(exc) -> dict:
    """What a trace header says of the error a game ended in."""
    return {"type": type(exc).__name__, "message": str(exc)}


def portable_message(game, message: str) -> str:
    return _norm(message, _Places(game.program.root))


def default_trace_name(game_id: str, seed: int, index: int | None = None) -> str:
    return f"{game_id}-{'' if index is None else f'{index:05d}-'}{seed}.jsonl"


