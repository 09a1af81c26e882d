"""A loaded game and the states of its plays, with the step API.

    game = interpreter.load("GAME-ID")              # a shipped game, or a folder
    state = game.new_state(players=4, seed=1)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    state.returns()

`GameState` follows OpenSpiel's State: `current_player`, `legal_actions`,
`apply`, `clone`, `is_terminal`, `returns`, `observation`, plus `to_json` and
`Game.state_from_json` (`save` and `Game.load_state` for files). A saved state
that is corrupt, or was saved under other rules or another version of regles,
is refused with a `SaveError` naming the field at fault.
"""
from __future__ import annotations

import json

from ..diagnostics import Report
from ..names import did_you_mean, fold
from . import keys
from . import machine as vm
from . import serial
from . import observe
from .savefile import SaveError
from .state import GameFault, State
from .values import ZoneRef


class GameState(State):
    """A state of a game in progress, with the step API."""

    __slots__ = ()

    @property
    def current_player(self) -> int:
        """The seat (from 0) who must decide now; -1 when the game is over."""
        if self.pending is None:
            return -1
        return int(self.pending.player)

    def legal_actions(self) -> list:
        """Indices of the options of the pending decision."""
        if self.pending is None:
            return []
        return list(range(len(self.pending.entries)))

    def action_label(self, action: int) -> str:
        return self.pending.labels_for(self)[action]

    def labels(self) -> list:
        return list(self.pending.labels_for(self)) if self.pending is not None else []

    @property
    def prompt(self) -> str | None:
        return self.pending.prompt if self.pending is not None else None

    def apply(self, action) -> None:
        """Apply an option of the pending decision, given by index or label."""
        if self.pending is None:
            raise GameFault("the game is over: no action can be applied")
        if isinstance(action, str):
            labels = self.pending.labels_for(self)
            if action not in labels:
                matches = [i for i, l in enumerate(labels) if fold(l) == fold(action)]
                if not matches:
                    raise GameFault(f"no option '{action}' here; options: " + "; ".join(labels))
                action = matches[0]
            else:
                action = labels.index(action)
        if not isinstance(action, int) or not 0 <= action < len(self.pending.entries):
            raise GameFault(f"illegal action {action!r}: options are 0..{len(self.pending.entries) - 1}")
        vm.resolve(self, action)
        vm.run(self)

    def is_terminal(self) -> bool:
        return self.pending is None

    def returns(self) -> list:
        """+1 for each winner and -1 for the others when some won; 0 for all otherwise."""
        if self.winners is None or not self.winners:
            return [0.0] * self.n
        return [1.0 if i in self.winners else -1.0 for i in range(self.n)]

    def scores(self) -> list:
        name = self.program.defn.score
        if name is None:
            return [0] * self.n
        cdef = self.program.defn.counters[name]
        if cdef.scope[0] == "team":
            teams = self.program.team_of(self.n)
            return [self.counters.get(keys.team_key(name, teams[i]), cdef.initial) for i in range(self.n)]
        return [self.counters.get(keys.seat_key(name, i), cdef.initial) for i in range(self.n)]

    def clone(self) -> "GameState":
        s = State.clone(self)
        s.__class__ = GameState
        return s

    def observation(self, seat: int) -> dict:
        return observe.observation(self, seat)

    def to_json(self) -> dict:
        """The state as JSON data, with the fingerprint of its game and engine."""
        return serial.state_to_json(self)

    def save(self, path) -> None:
        """Write the state to file `path` as JSON (`Game.load_state` reads it back)."""
        text = json.dumps(self.to_json(), ensure_ascii=False)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text + "\n")


class Game:
    """A loaded, checked and compiled game."""

    def __init__(self, program, report: Report):
        self.program = program  # compile.program.Program: the tables and code every state reads
        self.report = report
        self.id = program.id
        self.title = program.defn.title
        self.min_players = program.defn.min_players
        self.max_players = program.defn.max_players

    def options(self, given: dict | None = None) -> dict:
        """The options of a play: defaults, overridden by `given` (values may be text)."""
        d = self.program.defn
        out = {name: o.default for name, o in d.options.items()}
        for key, value in (given or {}).items():
            if key not in d.options:
                hint = did_you_mean(key, d.options)
                raise ValueError(f"unknown option '{key}'" + (f"; {hint}" if hint else "")
                                 + (f" (options: {', '.join(d.options)})" if d.options else " (this game has none)"))
            out[key] = option_value(d.options[key], value)
        return out

    def new_state(self, players: int, seed: int = 0, options: dict | None = None, trace: bool = False) -> GameState:
        """A new game, run up to its first decision."""
        st = self.blank_state(players, seed, options, trace)
        vm.push(st, self.program.procs["game"], {}, None, None, self.program.defn.pos)
        try:
            vm.run(st)
        except GameFault as exc:
            exc.state = st  # the trace so far goes with the fault
            raise
        return st

    def blank_state(self, players: int, seed: int = 0, options: dict | None = None, trace: bool = False) -> GameState:
        """A state with every component in its starting zone and the game not yet begun."""
        d = self.program.defn
        if not d.min_players <= players <= d.max_players:
            raise ValueError(f"{d.title} is for {d.min_players} to {d.max_players} players, not {players}")
        program = self.program
        st = GameState(program, players, seed, self.options(options))
        if trace:
            st.trace = []
        for name, c in d.counters.items():
            if c.supply is not None and not isinstance(c.supply, str):
                st.counters[keys.supply_key(name)] = c.supply
        for name, c in d.counters.items():
            scope = c.scope
            if scope == ("game",):
                owned = [name]
            elif scope == ("player",):
                owned = [keys.seat_key(name, i) for i in range(players)]
            elif scope == ("team",):
                owned = [keys.team_key(name, t) for t in range(len(program.teams_for(players)))]
            else:
                continue
            for key in owned:
                st.counters[key] = c.initial
            skey = st.supply_key(c)
            if skey is not None and c.initial:
                # starting amounts come out of the supply
                st.counters[skey] = st.counters.get(skey, 0) - c.initial * len(owned)
                if st.counters[skey] < 0:
                    raise ValueError(f"counter '{name}' starts with more than its supply holds at {players} players")
        for c, start in enumerate(program.comp_start):
            if start is None:
                continue
            o = program.comp_owner[c]
            if o is not None and o >= players:
                continue
            zdef = d.zones[start]
            key = start if zdef.scope == ("game",) else keys.seat_key(start, o if o is not None else 0)
            st.zones.setdefault(key, []).append(program.comps[c])
            st.where[c] = ZoneRef(key)
        if st.trace is not None:
            st.emit("start", d.pos, game=d.id, players=players, seed=seed, options=st.options)
        return st

    def state_from_json(self, data: dict) -> GameState:
        """The state saved as `data` (by `GameState.to_json`). Raises SaveError, naming the
        field at fault, when `data` is no sound state of this game as it is now."""
        return serial.state_from_json(self.program, data, GameState)

    def load_state(self, path) -> GameState:
        """The state saved in file `path` (by `GameState.save`). Raises SaveError, naming
        the file and the field at fault, when it cannot be read or restored."""
        try:
            with open(path, "rb") as f:
                raw = f.read()
        except OSError as exc:
            raise SaveError(f"cannot be read: {exc.strerror or exc}", file=path) from None
        return serial.read_state(self.program, raw, GameState, file=path)


def option_value(o, value):
    """The value of option `o` given as `value` (a text is read as the option's type);
    raises ValueError saying what the option takes when it is none of its values."""
    if isinstance(value, str):
        low = value.lower()
        if o.type == "boolean" or isinstance(o.default, bool):
            if low in ("true", "yes", "1", "on"):
                return True
            if low in ("false", "no", "0", "off"):
                return False
            raise ValueError(f"option '{o.name}' is true or false, not '{value}'")
        if o.type == "number" or (isinstance(o.default, int) and not isinstance(o.default, bool)):
            try:
                value = int(value)
            except ValueError:
                raise ValueError(f"option '{o.name}' is a number, not '{value}'") from None
    if o.values is not None and value not in o.values:
        raise ValueError(f"option '{o.name}' is one of {', '.join(map(str, o.values))}, not '{value}'")
    return value
