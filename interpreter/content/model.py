"""The definitions a pack declares, once loaded, validated and parsed.

These are the checker's and the compiler's view of a game: plain records with
the position of each definition, filled by `pack.py` from the content files.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..diagnostics import Position

SCOPE_WORDS = ("game", "player", "team", "node")


@dataclass
class ZoneDef:
    name: str
    scope: tuple
    visibility: str
    in_play: bool
    ordered: bool
    capacity: int | None
    pos: Position
    index: int = -1  # its place among the game's zones (versions of the state are kept per zone)


@dataclass
class CounterDef:
    name: str
    scope: tuple
    minimum: int | None
    maximum: int | None
    supply: int | None
    initial: int
    visibility: str
    pos: Position
    keep_in: list = field(default_factory=list)
    index: int = -1  # its place among the game's counters (versions of the state are kept per counter)


@dataclass
class AttributeDef:
    name: str
    type: str
    values: list
    default: object
    pos: Position


@dataclass
class OptionDef:
    name: str
    values: list | None
    type: str | None
    default: object
    pos: Position


@dataclass
class ProcedureDef:
    name: str
    params: list
    text: str
    pos: Position
    tree: object = None  # nodes.Procedure once parsed


@dataclass
class FunctionDef:
    name: str
    params: list
    text: str
    pos: Position
    tree: object = None  # nodes.Condition once parsed


@dataclass
class KeywordDef:
    pattern: str
    words: list  # of (kind, value): ("lit", folded word) / ("param", NAME) / ("dash", "-")
    params: dict  # NAME -> type
    effect_param: str | None
    ability_texts: list
    pos: Position
    file: str
    family: str | None = None
    trees: list = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.pattern.split(":")[0].strip()


@dataclass
class AbilityDef:
    text: str
    pos: Position
    tree: object = None  # Trigger / Action / PhraseAbility
    keyword: KeywordDef | None = None
    bindings: dict = field(default_factory=dict)  # param -> value (number, class key, effect body)


@dataclass
class CardDef:
    id: str
    title: str
    component: str
    copies: int
    attrs: dict
    tags: list
    abilities: list
    start: str | None
    per_player: bool
    pos: Position
    file: str
    authored: object = None


@dataclass
class BoardDef:
    id: str
    nodes: dict  # id -> attrs (incl. kind, tags)
    edges: list  # (a, b)
    pos: Position
    file: str


@dataclass
class ScenarioDef:
    id: str
    title: str
    data: dict
    pos: Position
    file: str


@dataclass
class RulesTestDef:
    name: str
    rules: list
    data: dict
    pos: Position
    file: str


@dataclass
class GameDef:
    id: str
    title: str
    min_players: int
    max_players: int
    teams: dict
    options: dict
    attributes: dict
    classes: dict  # folded class name -> (attribute or None, printed name)
    components: dict  # kind -> list of attribute names
    zones: dict
    counters: dict
    events: dict
    windows: list
    score: str | None
    data: dict
    procedures: dict
    heuristic: str | None
    discard: str | None
    report_by: list
    pos: Position
    file: str
    functions: dict = field(default_factory=dict)
    invariants: list = field(default_factory=list)  # (text, tree)
    tags_kept_in: list | None = None  # zones where given classes stay; None: everywhere
    keywords: list = field(default_factory=list)
    cards: list = field(default_factory=list)
    boards: list = field(default_factory=list)
    scenarios: list = field(default_factory=list)
    tests: list = field(default_factory=list)

    def cards_by_id(self) -> dict:
        index = getattr(self, "_cards_by_id", None)
        if index is None:
            index = self._cards_by_id = {c.id: c for c in self.cards}
        return index
