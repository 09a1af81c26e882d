"""Game traces as JSON lines, and their replay.

The first line is a header: what is needed to play the game again (the game,
the number of players, the seed, the options, the choices made) and what
came of it. Then one event per line, as the engine recorded them, each with
the content `file:line` that caused it. Paths in `at` are written relative to
the game's folder (`nim/game.yaml:42`), so a trace replays the same from any
directory and from an installed wheel.

    {"regles_trace": 2, "game": "nim", "fingerprint": {"content": ..., "engine": ...},
     "players": 2, "seed": 7, "options": {...}, "agents": ["greedy", "random"],
     "choices": [0, 2, 1], "events": 57, ...}
    {"n": 0, "type": "start", ...}
    {"n": 1, "type": "shuffle", "zone": "pile", "at": "nim/game.yaml:44"}

`replay(path)` loads the game, starts it with the same players, seed and
options, applies the recorded choices in order and compares every event with
the recorded ones, then the fault the game failed with, and the result the
header records (finished, winners, scores): nothing of the header is taken on
trust. The first difference is reported (event number, expected, got; or
`result: recorded winners [2], replayed [1]`) with exit status 1.
`verify_trace(path)` does the same without printing: it returns the replayed
result, or raises a TraceError saying why the trace does not replay (a
`TraceDiffers` when it is a trace of the game, but not of the game played
again); `play_again` is the comparison both make.

Before that, the trace is read whole and checked (`read_trace`, `check_against`):
the type of every field of the header, each line an event of a kind that
engine.events declares, with its fields and no other, as many events as
the header says, players and options of the game, and the fingerprint of the
game's content (see engine.fingerprint): a trace recorded under other rules is
refused. One recorded by another version of regles is replayed, and a
difference then says so: replaying old traces is how a new engine is checked.
A `TraceError` (a `SaveError`) names the file, the line and the field at fault.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from .. import LoadError, __version__, load
from ..content.folders import shipped_game
from ..engine.events import ANSWERS, FIELDS
from ..engine.fingerprint import fingerprint
from ..engine.invariants import MAX_DECISIONS, InvariantError, Invariants, check_bound
from ..engine.saved import StateCheck
from ..engine.serial import is_laid, read_laid
from ..engine.savefile import Checker, SaveError, is_int, parse_json, shown
from ..kinds import kind_of
from ..engine.state import GameFault

FORMAT = 2  # 2: the header has the fingerprint of the content and the engine


class TraceError(SaveError):
    """The file is not a trace that can be replayed: corrupt (`field` and `line` say where),
    or recorded under other rules of its game."""


class Places:
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
        for key in ("at", "asked_at"):  # content lines: the line of the event, and of the choice it answers
            if isinstance(ev.get(key), str):
                ev[key] = self.at(ev[key])
        return ev


def source_of(game, name_or_path: str | None = None) -> str | None:
    """How to find the game again: None for a shipped game, else the absolute folder."""
    if shipped_game(game.id) is not None and (name_or_path is None or name_or_path == game.id):
        return None
    return str(Path(game.program.root).resolve())


def make_header(game, players: int, seed: int, options: dict, choices: list, *, agents=None,
                source: str | None = None, check: bool = False, result=None, error=None,
                events: int | None = None, max_decisions: int | None = None, powers: dict | None = None,
                undos: list | None = None) -> dict:
    h = {"regles_trace": FORMAT, "regles": __version__, "game": game.id,
         "fingerprint": dict(fingerprint(game.program)), "source": source, "players": players, "seed": seed,
         "options": dict(options), "agents": list(agents or []), "check": bool(check), "choices": [int(c) for c in choices]}
    if is_laid(game.program) or powers:  # what is laid, left out or set, each seat's power
        h["layers"] = game.layers_json()
        h["powers"] = {str(k): v for k, v in (powers or {}).items()}
    if max_decisions is not None:
        h["max_decisions"] = max_decisions
    if events is not None:
        h["events"] = events
    if result is not None:
        h["result"] = result
    if error is not None:
        h["error"] = error
    if undos:
        h["undos"] = list(undos)
    return h


def result_of(state, error=None) -> dict:
    return {"finished": state.is_terminal() and error is None,
            "winners": [w + 1 for w in state.winners] if state.winners is not None else None,
            "scores": list(state.scores())}


def write_trace(path, game, header: dict, events) -> Path:
    """Write a header and events (raw engine events) to a JSON-lines file."""
    places = Places(game.program.root)
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


def save_state_trace(path, game, state, *, agents=None, source=None, check=False, error=None, powers=None,
                     undos=None) -> Path:
    """Write the trace of a state played with trace=True (`undos`: the decisions a table took back
    on the way, see play/web/undo.py; the events and choices are those of the game as it went on)."""
    header = make_header(game, state.n, state.seed, state.options, state.history, agents=agents,
                         source=source, check=check, result=result_of(state, error), error=error, powers=powers,
                         undos=undos)
    return write_trace(path, game, header, state.trace or [])


HEADER_FIELDS = {"regles_trace": "required", "regles": "required", "game": "required", "source": "required",
                 "players": "required", "seed": "required", "options": "required", "agents": "required",
                 "check": "required", "choices": "required", "events": "required", "fingerprint": "required",
                 "max_decisions": "optional", "result": "optional", "error": "optional", "layers": "optional",
                 "powers": "optional", "undos": "optional"}


def read_trace(path) -> tuple[dict, list]:
    """The header and events of the trace in file `path`, their form checked (not yet
    against the game: see `check_against`). A TraceError names the line and field at fault."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as exc:
        raise TraceError(f"cannot be read: {exc.strerror or exc}", file=path) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TraceError(f"not a trace: not UTF-8 text (byte {exc.start + 1} cannot be read)", file=path) from None
    lines = [(i, ln) for i, ln in enumerate(text.split("\n"), 1) if ln.strip()]  # JSON text holds no newline
    if not lines:
        raise TraceError("empty file, not a trace", file=path)
    first, text1 = lines[0]
    try:
        header = parse_json(text1)
    except SaveError as exc:
        raise TraceError(f"not a trace header: {exc.message}", file=path, line=first) from None
    if not isinstance(header, dict) or "regles_trace" not in header:
        raise TraceError(f"not a regles trace (no \"regles_trace\": {FORMAT} in its first line)", file=path,
                         line=first)
    try:
        _check_header(header)
    except SaveError as exc:
        raise TraceError(exc.message, exc.field, path, first) from None
    events = []
    for i, line in lines[1:]:
        try:
            ev = parse_json(line)
        except SaveError as exc:
            raise TraceError(f"not a JSON event: {exc.message}", file=path, line=i) from None
        try:
            _check_event(ev)
        except SaveError as exc:
            raise TraceError(exc.message, exc.field, path, i) from None
        events.append(ev)
    if len(events) != header["events"]:
        raise TraceError(f"the header announces {header['events']} events, the file holds {len(events)}"
                         + (" (is it cut short?)" if len(events) < header["events"] else ""), "events", path, first)
    return header, events


def _check_header(h: dict) -> None:
    c = Checker()
    if not is_int(h["regles_trace"]) or h["regles_trace"] != FORMAT:
        c.fail(("regles_trace",), f"is {shown(h['regles_trace'])}: this version of regles replays traces of format "
                                  f"{FORMAT} only (record the game again)")
    c.obj(h, (), [k for k, v in HEADER_FIELDS.items() if v == "required"],
          [k for k, v in HEADER_FIELDS.items() if v == "optional"])
    for key in ("regles", "game"):
        c.text(h[key], (key,))
    if h["source"] is not None:
        c.text(h["source"], ("source",))
    c.integer(h["players"], ("players",), 1, None)
    c.integer(h["seed"], ("seed",), None, None)
    c.mapping(h["options"], ("options",))
    for i, a in enumerate(c.array(h["agents"], ("agents",))):
        c.text(a, ("agents", i))
    c.boolean(h["check"], ("check",))
    for i, a in enumerate(c.array(h["choices"], ("choices",))):
        c.integer(a, ("choices", i), 0, None, " (an option's number)")
    c.integer(h["events"], ("events",), 0, None)
    fp = c.obj(h["fingerprint"], ("fingerprint",), ("content", "engine"))
    for part in ("content", "engine"):
        c.text(fp[part], ("fingerprint", part))
    if "max_decisions" in h:
        c.integer(h["max_decisions"], ("max_decisions",), 1, None)
    if "result" in h:
        r = c.obj(h["result"], ("result",), ("finished", "winners", "scores"))
        c.boolean(r["finished"], ("result", "finished"))
        if r["winners"] is not None:
            for i, w in enumerate(c.array(r["winners"], ("result", "winners"))):
                c.integer(w, ("result", "winners", i), 1, None, " (a player, from 1)")
        for i, x in enumerate(c.array(r["scores"], ("result", "scores"))):
            if not (is_int(x) or isinstance(x, float)):
                c.fail(("result", "scores", i), f"must be a number, not {kind_of(x)}")
    if "layers" in h:
        read_laid(h["layers"])
    if "powers" in h:
        for k, v in c.mapping(h["powers"], ("powers",)).items():
            if not k.isdigit():
                c.fail(("powers", k), "is no seat number")
            c.text(v, ("powers", k))
    for i, u in enumerate(c.array(h["undos"], ("undos",)) if "undos" in h else ()):
        c.obj(u, ("undos", i), ("by", "agreed", "to", "at_event", "undone"))
        c.integer(u["by"], ("undos", i, "by"), 1, None, " (a player, from 1)")
        c.integer(u["to"], ("undos", i, "to"), 1, None, " (a decision, from 1)")
        c.integer(u["at_event"], ("undos", i, "at_event"), 0, None)
        for j, s in enumerate(c.array(u["agreed"], ("undos", i, "agreed"))):
            c.integer(s, ("undos", i, "agreed", j), 1, None, " (a player, from 1)")
        c.array(u["undone"], ("undos", i, "undone"))
    if "error" in h:
        e = c.obj(h["error"], ("error",), ("type", "message"))
        c.text(e["type"], ("error", "type"))
        c.text(e["message"], ("error", "message"))


def _check_event(ev) -> None:
    c = Checker()
    if not isinstance(ev, dict):
        c.fail((), f"an event must be a mapping, not {kind_of(ev)}")
    for k in ev:
        if not isinstance(k, str):  # pragma: no cover - JSON keys are texts
            c.fail((), "an event's keys are texts")
    c.integer(ev.get("n"), ("n",), 0, None)
    kind = c.text(ev.get("type"), ("type",))
    fields = FIELDS.get(kind)  # the kind's fields as engine.events declares them
    if fields is None:
        c.fail(("type",), f"is {shown(kind)}: no kind of event (kinds: {', '.join(FIELDS)})")
    required, optional = fields
    for k in ev:
        if k not in required and k not in optional:
            c.fail((k,), f"is no field of {kind!r} events (fields: {', '.join(required + optional)})")
    for k in required:
        if k not in ev:
            c.fail((k,), f"is missing: {kind!r} events have it")
    if "at" in ev:
        c.text(ev["at"], ("at",))


def check_against(game, header: dict, path=None) -> None:
    """That the trace `header` read from `path` is of `game` as it is now: its players, its
    options, and the fingerprint of its content. A TraceError names the field at fault."""
    d = game.program.defn
    c = StateCheck(game.program)
    try:
        if header["game"] != game.id:
            c.fail(("game",), f"is {shown(header['game'])}, but the game found is {game.id}")
        c.integer(header["players"], ("players",), d.min_players, d.max_players, f" (players of {game.id})")
        c.n = header["players"]
        c.options(header["options"])
        try:
            game.options(header["options"])
        except ValueError as exc:
            c.fail(("options",), str(exc))
        if header["fingerprint"]["content"] != fingerprint(game.program)["content"]:
            c.fail(("fingerprint", "content"), f"this trace was recorded under other rules of {game.id} (its "
                                               f"files have changed since): it cannot be replayed")
    except SaveError as exc:
        raise TraceError(exc.message, exc.field, path, 1) from None


def game_of_header(header):
    """The game of a trace, with the expansions, scenario and mods it was played with."""
    src = header.get("source")
    name = src if isinstance(src, str) and (Path(src) / "game.yaml").is_file() else header["game"]
    laid = header.get("layers") or {}
    return load(name, laid.get("expansions", ()), laid.get("scenario"), laid.get("mods", ()),
                without=laid.get("without", ()), settings=laid.get("set", ()))


def state_at(path, event: int):
    """(game, state) of the trace in file `path` replayed up to its event number `event`: the
    state waiting at the decision that event answers, when it is a choice, else at the first
    decision asked after it (or over, when the game ended there). A TraceError when the file is no trace of the game as it is now; LoadError and
    ValueError when its game cannot be loaded; IndexError when `event` is not in the trace."""
    header, recorded = read_trace(path)
    if not 0 <= event < len(recorded):
        raise IndexError(f"the trace has {len(recorded)} events (0 to {len(recorded) - 1}), no event {event}"
                         if recorded else "the trace has no event")
    game = game_of_header(header)
    check_against(game, header, path)
    state = game.new_state(header["players"], header["seed"], header["options"], trace=True,
                           powers={int(k): v for k, v in (header.get("powers") or {}).items()})
    choices = list(header["choices"])
    answers = recorded[event].get("type") in ANSWERS  # the event answers a decision: ask about that one

    def reached():
        return len(state.trace) > event or (answers and len(state.trace) == event and not state.is_terminal())
    while not reached() and choices and not state.is_terminal():
        choice = choices.pop(0)
        if not 0 <= choice < len(state.legal_actions()):
            raise TraceError(f"choice {len(header['choices']) - len(choices)} ({choice}) is not an option of "
                             f"{state.prompt!r}: the trace does not replay", "choices", path, 1)
        state.apply(choice)
    if not reached():
        raise TraceError(f"replayed, the game ends at event {len(state.trace) - 1}, before event {event}",
                         "events", path, 1)
    return game, state


def _show(ev) -> str:
    return json.dumps(ev, ensure_ascii=False) if ev is not None else "nothing (the trace ends here)"


class TraceDiffers(TraceError):
    """The trace is well formed and of its game, but the game played again from it is not the
    game it records: an event, the end, the fault or the result differs. `message` says what,
    in one line; `details`, more lines (what was expected, what came)."""

    def __init__(self, message: str, details=(), field: str | None = None, file=None, line: int | None = None):
        super().__init__(message, field, file, line)
        self.details = list(details)


class Replayed:
    """What the game played again from a trace gave: how many events, its result
    (`result_of`), and the fault it failed with, when it failed as the trace records."""

    def __init__(self, events: int, result: dict, fault: str | None):
        self.events = events
        self.result = result
        self.fault = fault


def verify_trace(path, game_of=None) -> dict:
    """The result (finished, winners, scores) of the game of the trace in file `path`, played
    again from its start with its choices, when every event, the fault if any, and the result
    are those the trace records. Raises a TraceError saying why it does not replay: the file
    is no trace (`read_trace`), its game cannot be loaded or is not the game it was recorded
    under (`check_against`), or a TraceDiffers naming what differs. Prints nothing.

    `game_of(header)` finds the trace's game (by default `game_of_header`, which follows the
    folder and the mods' paths the header names: for files from others, pass one that finds
    only the games you serve); it may raise LoadError or ValueError."""
    header, recorded = read_trace(path)
    try:
        game = (game_of or game_of_header)(header)
    except LoadError as exc:  # its content does not check as it is now
        raise TraceError(f"cannot be loaded: {str(exc).splitlines()[0]}", "game", path, 1) from None
    except ValueError as exc:  # an expansion, scenario or mod it names is not there
        raise TraceError(f"cannot be loaded: {exc}", "game", path, 1) from None
    return play_again(game, header, recorded, path).result


def play_again(game, header: dict, recorded: list, path=None) -> Replayed:
    """Play the trace read from `path` (its `header` and `recorded` events, see `read_trace`)
    again with `game`, and compare: TraceError when the header is not of `game` as it is now,
    TraceDiffers at the first difference (an event, a choice that is no option, the fault,
    the end or the result)."""
    check_against(game, header, path)
    other_engine = header["fingerprint"]["engine"] != fingerprint(game.program)["engine"]
    places = Places(game.program.root)
    state = None
    problem = None  # a divergence found while applying the choices
    fault = None  # the fault the replayed game ended in
    choices = header["choices"]
    try:
        state = game.new_state(header["players"], header["seed"], header["options"], trace=True,
                               powers={int(k): v for k, v in (header.get("powers") or {}).items()})
        bound = header.get("max_decisions")
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
            details = [f"  expected: {_show(exp)}",
                       f"  got:      {_show(have)}" if have is not None else
                       "  got:      nothing (the replayed game produced no more events)"]
            if problem:
                details.append(f"  then: {problem}")
            elif fault and k >= len(got) - 1:
                details.append(f"  the replayed game failed: {fault['message']}")
            raise TraceDiffers(f"event {k} differs"
                               + (" (the trace was recorded by another version of regles)" if other_engine else ""),
                               details, file=path)
    if problem:
        raise TraceDiffers(problem, file=path)
    expected_error = header.get("error")
    if fault is not None and not expected_error:
        raise TraceDiffers(f"after event {len(got) - 1} the replayed game failed: {fault['message']}", file=path)
    if expected_error and fault is None:
        raise TraceDiffers(f"the recorded game failed ({expected_error.get('message')}), the replayed one did not",
                           file=path)
    if expected_error and fault is not None and _norm(fault["message"], places) != _norm(
            expected_error.get("message", ""), places):
        raise TraceDiffers("the game fails differently", [f"  expected: {expected_error.get('message')}",
                                                          f"  got:      {fault['message']}"], file=path)
    result = result_of(state, fault) if state is not None else {"finished": False, "winners": None, "scores": []}
    differ = result_differs(header["result"], result) if "result" in header else None
    if differ:
        raise TraceDiffers(differ, field="result", file=path, line=1)
    return Replayed(len(got), result, fault["message"] if fault is not None else None)


def result_differs(recorded: dict, replayed: dict) -> str | None:
    """What differs between the result a trace records and the replayed game's, in one line
    ('recorded winners [2], replayed [1]'); None when they agree."""
    differ = [f"recorded {part} {_json(recorded.get(part))}, replayed {_json(replayed.get(part))}"
              for part in ("finished", "winners", "scores") if not _same(recorded.get(part), replayed.get(part))]
    return "; ".join(differ) or None


def _same(recorded, replayed) -> bool:
    """Whether a part of a result is as recorded: the same JSON, a whole number and the same
    number with a fraction alike (a score may be either), true never 1."""
    if isinstance(recorded, list) and isinstance(replayed, list):
        return len(recorded) == len(replayed) and all(_same(a, b) for a, b in zip(recorded, replayed))
    if isinstance(recorded, bool) or isinstance(replayed, bool) or recorded is None or replayed is None:
        return recorded is replayed
    return recorded == replayed


def _json(v) -> str:
    return json.dumps(v, ensure_ascii=False)


def replay(path, out=None, err=None) -> int:
    """Play a trace again and compare every event, the end and the result (`play_again`).
    0: identical; 1: it differs, or cannot be replayed, with what differs said on `err`."""
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        header, recorded = read_trace(path)
    except TraceError as exc:
        print(f"regles replay: error: {exc}", file=err)
        return 1
    try:
        game = game_of_header(header)
    except LoadError as exc:
        print(str(exc), file=err)
        return 1
    except ValueError as exc:  # an expansion, scenario or mod it names is not there
        print(f"regles replay: error: {exc}", file=err)
        return 1
    try:
        done = play_again(game, header, recorded, path)
    except TraceDiffers as exc:
        print(f"regles replay: {exc}", file=err)
        for line in exc.details:
            print(line, file=err)
        return 1
    except TraceError as exc:
        print(f"regles replay: error: {exc}", file=err)
        return 1
    msg = f"replayed {done.events} events, identical"
    if done.fault is not None:
        msg += f"; the game fails as recorded: {done.fault}"
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
    return _norm(message, Places(game.program.root))


def default_trace_name(game_id: str, seed: int, index: int | None = None) -> str:
    return f"{game_id}-{'' if index is None else f'{index:05d}-'}{seed}.jsonl"


