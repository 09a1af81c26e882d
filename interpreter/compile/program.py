"""Stage 5, the compiled program of a game made from its definition: the tables every state reads.

    program = make_program(defn, found, root)

The engine declares the program (`engine.program.Program`) and the records it reads
(a zone's, a counter's, an option's, the scenario's...); this module fills them in from the
content's definition of the game (a `GameDef`) and makes the components from the cards, so
that the engine never reads the content model. The compiled code is added by `build`.
"""
from __future__ import annotations

from pathlib import Path

from ..content.source import plain_data
from ..engine.fingerprint import content_fingerprint
from ..engine.program import (CounterSpec, LayerKind, LayerSpec, OptionSpec, PowersSpec, Program, ScenarioSpec, SeatReport,
                              ZoneSpec)
from ..engine import keys
from ..engine.values import Comp
from ..names import fold


def make_program(defn, found, root: Path) -> Program:
    """The program of game `defn` (`found`: what the checker found; `root`: its folder), with
    its declarations and components, before its code is compiled (`build.compile_game`)."""
    program = Program(defn.id, root)
    program.defn = defn
    program.found = found
    program.title = defn.title
    program.pos = defn.pos
    program.min_players, program.max_players = defn.min_players, defn.max_players
    program.score = str(defn.score) if defn.score is not None else None
    program.standing = str(defn.standing) if defn.standing is not None else None
    program.zones = {name: zone_spec(z) for name, z in defn.zones.items()}
    program.counters = {name: counter_spec(c) for name, c in defn.counters.items()}
    program.options = {name: OptionSpec.of(o) for name, o in defn.options.items()}
    program.events = dict(defn.events)
    program.proc_rules = {name: tuple(p.rules) for name, p in defn.procedures.items() if p.rules}
    program.classes = tuple(printed for _, printed in defn.classes.values())
    program.declared_teams = dict(defn.teams)
    program.powers = powers_spec(defn.powers)
    program.scenario = scenario_spec(defn.scenario)
    program.layers = tuple(LayerSpec(x.id, LayerKind(x.kind), x.title, x.root, x.pos) for x in defn.layers)
    program.without = tuple(defn.without)
    program.settings = tuple(tuple(x) for x in defn.settings)
    program.cards = tuple(defn.cards)
    program.data = plain_data(defn.data)
    program.tag_zones = set(defn.tags_kept_in) if defn.tags_kept_in is not None else None
    program.kept_counters = [(c.name, set(c.keep_in)) for c in defn.counters.values() if c.keep_in]
    program.content_fingerprint = lambda: content_fingerprint(defn, root)
    # the board: nodes with their attributes, and links
    for b in defn.boards:
        for key, attrs in b.nodes.items():
            program.nodes[key] = {k: plain_data(v) for k, v in attrs.items() if k != "_pos"}
            program.nodes[key]["board"] = b.id
        for a, b2 in b.edges:
            program.adj.setdefault(a, []).append(b2)
            program.adj.setdefault(b2, []).append(a)
    build_components(program, defn)
    program.ready()
    return program


def zone_spec(z) -> ZoneSpec:
    return ZoneSpec(z.name, z.scope, z.visibility, z.in_play, z.capacity, z.pos, z.index)


def counter_spec(c) -> CounterSpec:
    supply = None if c.supply is None else keys.supply_key(c.supply if isinstance(c.supply, str) else c.name)
    return CounterSpec(c.name, c.scope, c.minimum, c.maximum, c.supply, c.initial, c.visibility, c.pos,
                       tuple(c.keep_in), c.index, c.internal, supply)


def powers_spec(p) -> PowersSpec | None:
    return PowersSpec(p.zone, p.component, p.unique, p.of_class, p.pos) if p is not None else None


def scenario_spec(sc) -> ScenarioSpec | None:
    """The scenario chosen, as the engine reads it: the player counts it is for (`players:`, a
    list; anything else leaves the game's) and the options it sets."""
    if sc is None:
        return None
    players = sc.data.get("players")
    return ScenarioSpec(sc.id, sc.title, tuple(players) if isinstance(players, list) else None,
                        dict(sc.data.get("options") or {}), sc.pos)


def seat_report(defn, label) -> SeatReport | None:
    """What simulate reports the seats by (`report_seats_by`), its label compiled as `label`."""
    if defn.seat_report is None or label is None:
        return None
    return SeatReport(defn.seat_report[0], tuple(defn.seat_report[3]), label)


def build_components(program: Program, d) -> None:
    """The components of the cards of game `d`: a copy of a card each (one per seat of a card each seat has)."""
    program.comp_card, program.comp_owner, program.comp_start, program.comps = [], [], [], []
    for card in d.cards:
        owners = range(d.max_players) if card.per_player else [None]
        for o in owners:
            for _ in range(card.copies):
                program.comps.append(Comp(len(program.comps)))
                program.comp_card.append(card)
                program.comp_owner.append(o)
                program.comp_start.append(card.start)
    program.cards_by_id = {}
    for c, card in enumerate(program.comp_card):
        program.cards_by_id.setdefault(fold(card.id), []).append(program.comps[c])
    program.comp_attrs = {}
    for name, a in d.attributes.items():
        default = a.default
        vals = []
        for card in program.comp_card:
            v = card.attrs.get(name, default)
            if a.type == "class" and isinstance(v, str):
                v = d.classes.get(fold(v), (None, v))[1]
            vals.append(plain_data(v))
        program.comp_attrs[name] = vals
    program.comp_classes = []
    class_attrs = [n for n, a in d.attributes.items() if a.type == "class"]
    per_card = {}
    for card in program.comp_card:
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
        program.comp_classes.append(per_card[id(card)])
