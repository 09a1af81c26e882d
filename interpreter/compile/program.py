"""Stage 5, the compiled program of a game: the tables every state of it reads.

What never changes while a game is played: the components made from the cards
(their cards, owners, starting zones, attributes and classes), the board's nodes
and links, the keys of zones and counters made once, and the compiled code
(procedures, abilities, invariants, the heuristic), filled in by `build`.
Every state of the game points to its program (`state.program`).
"""
from __future__ import annotations

from pathlib import Path

from ..content.source import plain_data
from ..engine import keys
from ..engine.code import Code
from ..engine.limits import MAX_ZONE, WORK_BUDGET
from ..engine.values import Comp, NodeRef, Seat, Team
from ..names import fold


class Program:
    """Everything static about a game: definitions, components, compiled code."""

    def __init__(self, defn, found, root: Path):
        self.defn = defn
        self.found = found  # what the checker found (language.checker.Findings)
        self.root = root
        self.id = defn.id
        self.step_budget = WORK_BUDGET  # units of work between two decisions (engine.limits)
        self.zone_limit = MAX_ZONE
        self.data = plain_data(defn.data)
        self.seats = {n: tuple(Seat(i) for i in range(n)) for n in range(1, defn.max_players + 1)}
        self.tag_zones = set(defn.tags_kept_in) if defn.tags_kept_in is not None else None
        self.kept_counters = [(c.name, set(c.keep_in)) for c in defn.counters.values() if c.keep_in]
        # the board: nodes with their attributes, and links
        self.nodes: dict = {}
        self.adj: dict = {}
        for b in defn.boards:
            for key, attrs in b.nodes.items():
                self.nodes[key] = {k: plain_data(v) for k, v in attrs.items() if k != "_pos"}
                self.nodes[key]["board"] = b.id
            for a, b2 in b.edges:
                self.adj.setdefault(a, []).append(b2)
                self.adj.setdefault(b2, []).append(a)
        self.build_components()
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
        self.seat_label = None  # f(state, seat) -> what simulate reports the seat by (`report_seats_by`), or None
        # made on first need while playing
        self.zone_defs: dict = {}  # zone key -> its definition
        self.holders: dict = {}  # zone key -> what the zone belongs to
        self.in_play_zone: dict = {}  # zone key -> False when not in play, else (holder, held by a component)
        self.counter_keys: dict = {}  # (counter name, owner type, owner) -> its key
        self.zone_refs: dict = {}  # (zone name, owner type, owner) -> its key
        self.counters_lost_in = [[None] * len(self.comps) for _ in defn.zones]  # [zone][component] -> counters lost there
        self.node_lists: dict = {}  # lists of nodes by kind, and neighbours by node
        self.teams: dict = {}  # player count -> the teams; ("of", player count) -> the team of each seat

    # components ---------------------------------------------------------------
    def build_components(self) -> None:
        d = self.defn
        self.comp_card, self.comp_owner, self.comp_start, self.comps = [], [], [], []
        for card in d.cards:
            owners = range(d.max_players) if card.per_player else [None]
            for o in owners:
                for _ in range(card.copies):
                    self.comps.append(Comp(len(self.comps)))
                    self.comp_card.append(card)
                    self.comp_owner.append(o)
                    self.comp_start.append(card.start)
        self.cards_by_id: dict = {}
        for c, card in enumerate(self.comp_card):
            self.cards_by_id.setdefault(fold(card.id), []).append(self.comps[c])
        self.comp_attrs = {}
        for name, a in d.attributes.items():
            default = a.default
            vals = []
            for card in self.comp_card:
                v = card.attrs.get(name, default)
                if a.type == "class" and isinstance(v, str):
                    v = d.classes.get(fold(v), (None, v))[1]
                vals.append(plain_data(v))
            self.comp_attrs[name] = vals
        self.comp_classes = []
        class_attrs = [n for n, a in d.attributes.items() if a.type == "class"]
        per_card = {}
        for card in self.comp_card:
            if id(card) not in per_card:
                keys = set()
                for n in class_attrs:
                    v = card.attrs.get(n, d.attributes[n].default)
                    for x in (v if isinstance(v, list) else [v]):
                        if isinstance(x, str):
                            canon = d.classes.get(fold(x))
                            keys.add(fold(canon[1]) if canon else fold(x))
                for t in card.tags:
                    canon = d.classes.get(fold(t))
                    keys.add(fold(canon[1]) if canon else fold(t))
                per_card[id(card)] = frozenset(keys)
            self.comp_classes.append(per_card[id(card)])

    # places ---------------------------------------------------------------------
    def zone_def(self, key: str):
        d = self.zone_defs.get(key)
        if d is None:
            d = self.defn.zones[keys.name_of(key)]
            self.zone_defs[key] = d
        return d

    def lost_counters(self, zdef, c) -> tuple:
        """(key, definition) of the counters component `c` loses on entering a zone of
        `zdef`: those kept only in some zones."""
        lost = tuple((keys.key(name, c), self.defn.counters[name]) for name, keep in self.kept_counters
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
                scope = zdef.scope[0]
                if scope == "player":
                    h = Seat(int(raw))
                elif scope == "team":
                    h = Team(keys.team_of_owner(raw))
                elif scope == "node":
                    h = NodeRef(raw)
                else:
                    h = self.comps[int(raw)]
            self.holders[key] = h
        return h

    def teams_for(self, n: int) -> list:
        t = self.teams.get(n)
        if t is None:
            t = self.defn.teams.get(n) or [[i] for i in range(n)]
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
