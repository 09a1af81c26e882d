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

import dataclasses
import json

from ..diagnostics import Report
from ..names import did_you_mean, fold
from ..scopes import OwnerKind
from . import keys
from . import machine as vm
from . import serial
from . import observe
from . import why
from .events import START
from .history import play_again
from .saved import check_state
from .options import chosen_options
from .savefile import SaveError, parse_json
from .state import GameFault, State
from .values import Comp, ZoneRef


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

    def option_subject(self, action: int):
        """What option `action` of the pending decision is about, for people who ask: (the card's
        definition, the ability's definition), either None. A card picked gives its card; an
        action of a card gives the card and that ability; the yes or no of an optional ability
        gives the card that has it and the ability."""
        d = self.pending
        if d is None or not 0 <= action < len(d.entries):
            return None, None
        entry = d.entries[action]
        kind = entry.kind
        if kind == "act":
            spec = self.program.comp_actions[entry.comp][entry.index]
            return self.program.comp_card[entry.comp], spec.source
        if kind in ("yes", "no"):
            fr = self.frames[-1] if self.frames else None
            if fr is None or type(fr.me) is not Comp:
                return None, None
            card = self.program.comp_card[fr.me]
            return card, fr.code.source if fr.code.source in card.abilities else None
        value = entry.value
        return (self.program.comp_card[value], None) if type(value) is Comp else (None, None)

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

    def why_not(self, move: str, seat: int | None = None, shown=None) -> "why.WhyNot":
        """Why `move` (an option's label, a candidate, 'use CARD', 'CARD: LABEL', an action's
        label) is not possible now for `seat` (from 0; None: the seat deciding now), naming the
        condition that excludes it and where content wrote it; or that it is (engine.why).
        `shown(label)`: a label as the person asking reads it (its words in their language)."""
        return why.why_not(self, move, seat, shown)

    def is_terminal(self) -> bool:
        return self.pending is None

    def returns(self) -> list:
        """+1 for each winner and -1 for the others when some won; 0 for all otherwise."""
        if self.winners is None or not self.winners:
            return [0.0] * self.n
        return [1.0 if i in self.winners else -1.0 for i in range(self.n)]

    def scores(self) -> list:
        return self.counted(self.program.score)

    def standings(self) -> list:
        """What the end of the game shows for each player: its `standing:` counter (rounds won,
        say), or its score when the game declares none."""
        return self.counted(self.program.standing or self.program.score)

    def counted(self, name: str | None) -> list:
        """Counter `name`, kept per player or per team, for each seat (0s for no counter)."""
        if name is None:
            return [0] * self.n
        cdef = self.program.counters[name]
        if cdef.scope.kind is OwnerKind.TEAM:
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
    """A loaded, checked and compiled game, with the expansions, scenario and mods laid over it
    (`chosen`, a `content.layers.Chosen`)."""

    def __init__(self, program, report: Report, chosen=None, source=None, loader=None):
        self.program = program  # engine.program.Program: the tables and code every state reads
        self.report = report
        self.chosen = chosen  # content.layers.Chosen, or None when the game was made by hand
        self.source = source if source is not None else str(program.root)  # how it was named to `load`
        self.id = program.id
        self.title = program.title
        self.min_players = program.min_players
        self.max_players = program.max_players
        self._variants: dict = {}
        self._load = loader  # interpreter.load, to lay other expansions over the same game
        self._powers = None  # the ids of the powers, listed on first need

    @property
    def expansions(self) -> list:
        """The expansions, mods and scenario laid over the game, as `engine.program.LayerSpec`."""
        return list(self.program.layers)

    def with_layers(self, expansions=None, scenario=None, mods=None, without=None, settings=None) -> "Game":
        """This game with other expansions, scenario or mods laid over it, other cards left
        out of it, or other values set in it ((card, attribute, value) each, as `content.settings`
        reads them; each None: as now). Compiled
        once per combination and kept. ValueError names an unknown one; LoadError gives the
        content errors of a combination that does not check (say, two expansions replacing one
        procedure, or a card left out that a rule names)."""
        c = self.chosen
        if c is None or self._load is None:
            raise ValueError(f"{self.title} was not loaded by interpreter.load: no expansion can be laid over it")
        want = dataclasses.replace(c, expansions=tuple(c.expansions if expansions is None else expansions),
                                   scenario=c.scenario if scenario is None else scenario or None,
                                   mods=tuple(c.mods if mods is None else (str(m) for m in mods)),
                                   without=tuple(c.without if without is None else without),
                                   settings=c.settings if settings is None else tuple(tuple(x) for x in settings))
        if want == c:
            return self
        game = self._variants.get(want)
        if game is None:
            game = self._variants[want] = self._load(self.source, want.expansions, want.scenario, want.mods,
                                                     without=want.without, settings=want.settings, tests=want.tests)
        return game

    def with_sources(self, key, sources) -> "Game":
        """This game with content `sources` added (read already, such as the cards a rules test
        writes for itself), compiled once per `key` and kept. LoadError gives their errors."""
        if self.chosen is None or self._load is None:
            raise ValueError(f"{self.title} was not loaded by interpreter.load: no content can be added to it")
        game = self._variants.get(("sources", key))
        if game is None:
            c = self.chosen
            game = self._variants[("sources", key)] = self._load(self.source, c.expansions, c.scenario, c.mods,
                                                                   extra=tuple(sources), without=c.without,
                                                                   settings=c.settings, tests=c.tests)
        return game

    def options(self, given: dict | None = None) -> dict:
        """The options of a play: defaults, overridden by `given` (text from the command line, or
        values of their type from JSON or Python: see engine.options), and by the chosen
        scenario's (a value given that differs from the scenario's is an error)."""
        d = self.program
        out = chosen_options(d.options, given)
        sc = d.scenario
        for key, value in (sc.options if sc is not None else {}).items():
            forced = d.options[key].value(value)
            if key in (given or {}) and out[key] != forced:
                raise ValueError(f"scenario '{sc.id}' sets option '{key}' to {forced!r}, not {out[key]!r}")
            out[key] = forced
        return out

    def new_state(self, players: int, seed: int = 0, options: dict | None = None, trace: bool = False,
                  expansions=None, scenario=None, mods=None, powers: dict | None = None) -> GameState:
        """A new game, run up to its first decision: `players` seats, the `seed` of its random
        draws, its `options`; `expansions` (ids), a `scenario` (id) and `mods` (paths) laid over
        it, and `powers` (seat from 1 -> the card id of that seat's power). `trace`: whether to
        record the game's events, or the list to record them into (one that watches its own
        appends, say, to look at the state as each event is recorded)."""
        if expansions is not None or scenario is not None or mods is not None:
            game = self.with_layers(expansions, scenario, mods)
            if game is not self:
                return game.new_state(players, seed, options, trace, powers=powers)
        return self.begin(self.blank_state(players, seed, options, trace, powers))

    def begin(self, st: GameState) -> GameState:
        """Run the game of blank state `st` (`blank_state`) from its start to its first decision."""
        vm.push(st, self.program.procs["game"], {}, None, None, self.program.pos)
        try:
            vm.run(st)
        except GameFault as exc:
            exc.state = st  # the trace so far goes with the fault
            raise
        st.origin = st.clone()
        return st

    def blank_state(self, players: int, seed: int = 0, options: dict | None = None, trace: bool = False,
                    powers: dict | None = None) -> GameState:
        """A state with every component in its starting zone (each seat's power in its place)
        and the game not yet begun."""
        d = self.program
        self.check_players(players)
        given_powers = self.powers_of(powers or {}, players)
        program = self.program
        st = GameState(program, players, seed, self.options(options))
        if isinstance(trace, list):
            st.trace = trace
        elif trace:
            st.trace = []
        for name, c in d.counters.items():
            if c.supply is not None and not isinstance(c.supply, str):
                st.counters[keys.supply_key(name)] = c.supply
        for name, c in d.counters.items():
            scope = c.scope
            if scope.is_game:
                owned = [name]
            elif scope.only(OwnerKind.PLAYER):
                owned = [keys.seat_key(name, i) for i in range(players)]
            elif scope.only(OwnerKind.TEAM):
                owned = [keys.team_key(name, t) for t in range(len(program.teams_for(players)))]
            else:
                continue
            for key in owned:
                st.counters[key] = c.initial
            skey = c.supply_key
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
            key = start if zdef.scope.is_game else keys.seat_key(start, o if o is not None else 0)
            st.zones.setdefault(key, []).append(program.comps[c])
            st.where[c] = ZoneRef(key)
        for seat, c in given_powers:
            self._give_power(st, seat, c)
        st.powers = {seat + 1: program.comp_card[c].id for seat, c in given_powers}
        if st.trace is not None:
            st.emit(START, d.pos, game=d.id, players=players, seed=seed, options=st.options,
                    **self.layers_json(), powers={str(s): card for s, card in st.powers.items()})
        return st

    def powers_of(self, powers: dict, players: int) -> list:
        """(seat from 0, component) of each power given (seat from 1 -> card id); ValueError
        says what is wrong with one."""
        if not powers:
            return []
        d = program = self.program
        if d.powers is None:
            raise ValueError(f"{d.title} has no personal powers" + ("" if d.layers else " (an expansion may bring them)"))
        out, taken = [], {}
        for seat, card_id in sorted(powers.items(), key=lambda kv: str(kv[0])):
            try:
                seat = int(seat)
            except (TypeError, ValueError):
                raise ValueError(f"a power is given to a seat number, not {seat!r}") from None
            if not 1 <= seat <= players:
                raise ValueError(f"seat {seat} is not one of the {players} seats")
            comps = [c for c in program.cards_by_id.get(fold(str(card_id)), []) if self._is_power(int(c))]
            if not comps:
                known = self.powers()
                hint = did_you_mean(str(card_id), known)
                raise ValueError(f"no power '{card_id}'" + (f"; {hint}" if hint else "")
                                 + (f" (powers: {', '.join(known)})" if known and len(known) <= 30 else ""))
            c = int(comps[0])
            if any(c == other for _, other in out):
                raise ValueError(f"power '{card_id}' is given to two seats")
            if d.powers.unique is not None:
                value = program.comp_attrs.get(d.powers.unique, [None] * (c + 1))[c]
                if value is not None and value in taken:
                    raise ValueError(f"seats {taken[value]} and {seat} both have a power of {d.powers.unique} "
                                     f"'{value}': one each")
                taken[value] = seat
            out.append((seat - 1, c))
        return out

    def check_players(self, players: int) -> None:
        """ValueError when the game, or its scenario, is not for `players` players."""
        d = self.program
        if not d.min_players <= players <= d.max_players:
            raise ValueError(f"{d.title} is for {d.min_players} to {d.max_players} players, not {players}")
        sc = d.scenario
        if sc is not None and sc.players is not None and players not in sc.players:
            raise ValueError(f"scenario '{sc.id}' is for {' or '.join(map(str, sc.players))} players, "
                             f"not {players}")

    def player_counts(self) -> list:
        """The numbers of players the game, with its scenario, is for, fewest first."""
        d = self.program
        told = d.scenario.players if d.scenario is not None else None
        return [n for n in range(d.min_players, d.max_players + 1) if told is None or n in told]

    def powers(self) -> list:
        """The card ids of the powers a seat may be given (listed once: the components never change)."""
        if self._powers is None:
            program = self.program
            self._powers = sorted({program.comp_card[c].id for c in range(len(program.comps)) if self._is_power(c)}) \
                if program.powers is not None else []
        return list(self._powers)

    def _is_power(self, c: int) -> bool:
        program, p = self.program, self.program.powers
        return ((p.component is None or program.comp_card[c].component == p.component)
                and (p.of_class is None or fold(p.of_class) in program.comp_classes[c]))

    def _give_power(self, st, seat: int, c: int) -> None:
        zone = keys.seat_key(self.program.powers.zone, seat)
        comp = self.program.comps[c]
        was = st.where[c]
        if was is not None:
            st.zones[str(was)].remove(comp)
        st.zones.setdefault(zone, []).append(comp)
        st.where[c] = ZoneRef(zone)

    def layers_json(self) -> dict:
        """The expansions, scenario and mods laid over the game, as traces and saves record them."""
        return serial.laid(self.program)

    def state_from_json(self, data: dict, replay: bool = True) -> GameState:
        """The state saved as `data` (by `GameState.to_json`), with the expansions, scenario and
        mods it was saved with laid over this game. Raises SaveError, naming the field at fault,
        when `data` is no sound state of this game as it is now: ill-formed (saved.check_state),
        or not the state its own history leads to, played again from its start (history).
        `replay=False` restores a well-formed state as it is, for states of trusted origin that
        play alone does not reach (a copy whose generator was reseeded, pickled)."""
        game = self
        if isinstance(data, dict) and "layers" in data and data["layers"] != self.layers_json():
            laid = serial.read_laid(data["layers"])
            try:
                game = self.with_layers(laid["expansions"], laid["scenario"] or "", laid["mods"],
                                        laid.get("without", []), laid.get("set", []))
            except ValueError as exc:
                raise SaveError(str(exc), "layers") from None
        if not replay:
            return serial.state_from_json(game.program, data, GameState)
        check_state(game.program, data)
        return play_again(game, data)

    def load_state(self, path) -> GameState:
        """The state saved in file `path` (by `GameState.save`). Raises SaveError, naming
        the file and the field at fault, when it cannot be read or restored."""
        try:
            with open(path, "rb") as f:
                raw = f.read()
        except OSError as exc:
            raise SaveError(f"cannot be read: {exc.strerror or exc}", file=path) from None
        try:
            return self.state_from_json(parse_json(raw))
        except SaveError as exc:
            raise exc.located(path) from None
