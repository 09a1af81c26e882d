"""The compiled program of a game: the tables every state of it reads.

What never changes while a game is played: the game's zones, counters, options and
the other declarations the engine reads, as records of its own (below); the
components made from the cards (their cards, owners, starting zones, attributes
and classes), the board's nodes and links, the keys of zones and counters made
once, and the compiled code (procedures, abilities, invariants, the heuristic).
Every state of the game points to its program (`state.program`).

The engine declares the program and reads it; `compile.program` fills it in from
the content's definition of the game (a `GameDef`), which the engine never reads.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..limits import MAX_ZONE, WORK_BUDGET
from ..scopes import OwnerKind, Scope
from . import keys
from .code import Code
from .options import OptionSpec
from .values import NodeRef, Seat, Team

__all__ = ["CounterSpec", "LayerKind", "LayerSpec", "OptionSpec", "PowersSpec", "Program", "ScenarioSpec", "SeatReport",
           "ZoneSpec"]


@dataclass(frozen=True, slots=True)
class ZoneSpec:
    """A zone the game declares."""
    name: str
    scope: Scope  # the game, a player, a team, a node or a kind of component (interpreter.scopes)
    visibility: str
    in_play: bool
    capacity: int | None
    pos: object
    index: int  # its place among the game's zones (versions of the state are kept per zone)


@dataclass(frozen=True, slots=True)
class CounterSpec:
    """A counter the game declares."""
    name: str
    scope: Scope  # as a zone's, or a pair of owners
    minimum: int | None
    maximum: int | None
    supply: int | str | None  # its supply: an amount, the name of the counter whose supply it shares, or None
    initial: int
    visibility: str
    pos: object
    keep_in: tuple  # the zones a component keeps it in (none: every zone)
    index: int  # its place among the game's counters (versions of the state are kept per counter)
    internal: bool = False  # bookkeeping of the rules: not shown to players unless asked
    # the key of the supply counter it draws on (keys.supply_key), or None: made once, not at
    # every change of the counter
    supply_key: str | None = None


@dataclass(frozen=True)
class ScenarioSpec:
    """The scenario laid over the game: the player counts it is for and the options it sets."""
    id: str
    title: str
    players: tuple | None  # the numbers of players it is for, or None: the game's
    options: dict  # option name -> the value it sets (as content wrote it)
    pos: object


class LayerKind(enum.StrEnum):
    """What a layer laid over the game is."""
    EXPANSION = "expansion"
    MOD = "mod"
    SCENARIO = "scenario"


@dataclass(frozen=True)
class LayerSpec:
    """An expansion, mod or scenario laid over the game."""
    id: str
    kind: LayerKind
    title: str
    root: str  # its folder (a scenario: its file)
    pos: object


@dataclass(frozen=True)
class PowersSpec:
    """The game's personal powers: which components are powers, and where a seat's goes."""
    zone: str
    component: str | None
    unique: str | None  # an attribute no two seats' powers share, or None
    of_class: str | None
    pos: object


@dataclass(frozen=True)
class SeatReport:
    """What simulate reports each seat by (`report_seats_by`)."""
    title: str
    counters: tuple  # the counters tallied per seat
    label: Callable  # f(state, seat) -> the seat's label


class Program:
    """Everything static about a game: its declarations, components and compiled code."""

    def __init__(self, id: str, root: Path):
        self.id = id
        self.root = root
        self.defn = None  # the content's definition (a GameDef), for the tools: the engine never reads it
        self.found = None  # what the checker found (language.checker.Findings), for the tools
        self.step_budget = WORK_BUDGET  # units of work between two decisions (interpreter.limits)
        self.zone_limit = MAX_ZONE
        # the game's declarations
        self.title = ""
        self.pos = None  # where the game is declared
        self.min_players = 1
        self.max_players = 1
        self.score: str | None = None  # the counter that scores, or None
        self.standing: str | None = None  # the counter the end of the game shows, or None: the score
        self.zones: dict[str, ZoneSpec] = {}
        self.counters: dict[str, CounterSpec] = {}
        self.options: dict[str, OptionSpec] = {}
        self.events: dict[str, list] = {}  # event -> the names of its parameters
        self.proc_rules: dict[str, tuple] = {}  # procedure -> the rule IDs it implements
        self.classes: tuple = ()  # the names of the classes, as written (tags are classes)
        self.declared_teams: dict = {}  # player count -> the teams declared for it (lists of seats)
        self.powers: PowersSpec | None = None
        self.scenario: ScenarioSpec | None = None
        self.layers: tuple = ()  # the LayerSpec laid over the game, in order
        self.without: tuple = ()  # the ids of the cards left out of the game
        self.settings: tuple = ()  # (card, attribute, value) of each value set at load
        self.cards: tuple = ()  # the cards, as declared (each with its id, title and pos)
        self.data: dict = {}  # the game's named constants (`data:`), as plain values
        self.tag_zones: set | None = None  # the zones tags are kept in (None: every zone)
        self.kept_counters: list = []  # (counter name, the zones it is kept in) of those kept only in some
        self.content_fingerprint: Callable[[], str] = lambda: ""  # the fingerprint of the game's files
        # the board: nodes with their attributes, and links
        self.nodes: dict = {}
        self.adj: dict = {}
        # the components, one per copy of a card (and per seat of a card each seat has)
        self.comps: list = []
        self.comp_card: list = []  # [component] -> its card
        self.comp_owner: list = []  # [component] -> the seat it belongs to, or None
        self.comp_start: list = []  # [component] -> its starting zone, or None
        self.cards_by_id: dict = {}  # folded card id -> its components
        self.comp_attrs: dict = {}  # attribute -> [component] -> its value at the start
        self.comp_classes: list = []  # [component] -> the folded names of its classes
        # the compiled code, filled in by compile.build
        self.compiler = None  # the compiler of this program, for code compiled later (rules tests)
        self.sources: dict = {}  # path -> text of each content file read, to show a line content wrote
        self.codes: dict[str, Code] = {}  # every named code, by name (a saved state names its frames' code)
        self.procs: dict[str, Code] = {}
        self.comp_triggers: list = []  # [component] -> {event: [TriggerSpec]}
        self.comp_actions: list = []  # [component] -> [ActionSpec]
        self.comp_prints: list = []  # [component] -> the names of the keywords its card prints (`prints`)
        self.limit_events: set = set()  # events that reset the use of 'once per' actions
        self.broadcast_events: set = set()  # events some 'whenever' ability hears
        self.invariants: list = []  # (text, compiled condition) of the game's declared invariants
        self.heuristic = None  # the game's heuristic of player p, compiled, or None
        self.automata: dict = {}  # seat index -> AutomatonSpec of the seats driven by content
        self.seat_report: SeatReport | None = None  # what simulate reports the seats by, or None
        # made on first need while playing
        self.zone_defs: dict = {}  # zone key -> its definition
        self.holders: dict = {}  # zone key -> what the zone belongs to
        self.in_play_zone: dict = {}  # zone key -> False when not in play, else (holder, held by a component)
        self.counter_keys: dict = {}  # (counter name, owner type, owner) -> its key
        self.zone_refs: dict = {}  # (zone name, owner type, owner) -> its key
        self.counters_lost_in: list = []  # [zone][component] -> counters lost there
        self.watch_zones: list = []
        self.watch_counters: list = []
        self.node_lists: dict = {}  # lists of nodes by kind, and neighbours by node
        self.teams: dict = {}  # player count -> the teams; ("of", player count) -> the team of each seat
        self.seats: dict = {}  # player count -> the seats

    def ready(self) -> None:
        """Make the tables that follow from the declarations and components, once they are in."""
        self.seats = {n: tuple(Seat(i) for i in range(n)) for n in range(1, self.max_players + 1)}
        self.counters_lost_in = [[None] * len(self.comps) for _ in self.zones]
        # [zone or counter index] -> the game functions that keep lists by the owners of its
        # changes (compile.kept_lists): the state marks them when one changes
        self.watch_zones = [()] * len(self.zones)
        self.watch_counters = [()] * len(self.counters)

    @property
    def seat_label(self):
        """f(state, seat) -> what simulate reports the seat by (`report_seats_by`), or None."""
        return self.seat_report.label if self.seat_report is not None else None

    # places ---------------------------------------------------------------------
    def zone_def(self, key: str) -> ZoneSpec:
        d = self.zone_defs.get(key)
        if d is None:
            d = self.zones[keys.name_of(key)]
            self.zone_defs[key] = d
        return d

    def lost_counters(self, zdef: ZoneSpec, c) -> tuple:
        """(key, definition) of the counters component `c` loses on entering a zone of
        `zdef`: those kept only in some zones."""
        lost = tuple((keys.key(name, c), self.counters[name]) for name, keep in self.kept_counters
                     if zdef.name not in keep)
        self.counters_lost_in[zdef.index][c] = lost
        return lost

    def zone_holder(self, key: str):
        h = self.holders.get(key, _MISSING)
        if h is _MISSING:
            zdef = self.zone_def(key)
            raw = keys.owner_of(key)
            if raw is None:
                h = None
            else:
                kind = zdef.scope.kind
                if kind is OwnerKind.PLAYER:
                    h = Seat(int(raw))
                elif kind is OwnerKind.TEAM:
                    h = Team(keys.team_of_owner(raw))
                elif kind is OwnerKind.NODE:
                    h = NodeRef(raw)
                else:
                    h = self.comps[int(raw)]
            self.holders[key] = h
        return h

    def teams_for(self, n: int) -> list:
        t = self.teams.get(n)
        if t is None:
            t = self.declared_teams.get(n) or [[i] for i in range(n)]
            self.teams[n] = t
        return t

    def team_of(self, n: int) -> list:
        key = ("of", n)
        t = self.teams.get(key)
        if t is None:
            t = [0] * n
            for ti, members in enumerate(self.teams_for(n)):
                for s in members:
                    t[s] = ti
            self.teams[key] = t
        return t

    def player_name(self, i: int) -> str:
        return f"player {i + 1}"


_MISSING = object()
