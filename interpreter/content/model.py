"""The definitions a pack declares, once loaded, validated and parsed.

These are the checker's and the compiler's view of a game: plain records with
the position of each definition, filled by `pack` from the content files. The
fields marked "parsed" hold syntax trees (`language.nodes`), filled by the
parse stage (`language.texts`); nothing else writes into a definition.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field

from ..diagnostics import Position
from ..scopes import Scope

SCOPE_WORDS = ("game", "player", "team", "node")


@dataclass
class ZoneDef:
    name: str
    scope: Scope
    visibility: str
    in_play: bool
    capacity: int | None
    pos: Position
    index: int = -1  # its place among the game's zones (versions of the state are kept per zone)
    holds: str | None = None  # what its members are in prose: a component kind or a class ('tile')


@dataclass
class CounterDef:
    name: str
    scope: Scope
    minimum: int | None
    maximum: int | None
    supply: int | None
    initial: int
    visibility: str
    pos: Position
    keep_in: list = field(default_factory=list)
    index: int = -1  # its place among the game's counters (versions of the state are kept per counter)
    internal: bool = False  # bookkeeping of the rules: not shown to players unless asked


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
    acting: str | None = None  # the parameter naming the player it acts for (`you` inside it)
    tree: object = None  # parsed: nodes.Procedure
    point: bool = False  # an extension point: its body calls the hooks laid on it, in order
    hooks: list = field(default_factory=list)  # of an extension point: the procedures hooked on it
    layer: str | None = None  # the expansion or scenario that declared or replaced it (None: the game)
    rules: list = field(default_factory=list)  # the rule IDs (of the game's rules index) it implements


@dataclass
class FunctionDef:
    name: str
    params: list
    text: str
    pos: Position
    tree: object = None  # parsed: nodes.Condition
    layer: str | None = None  # the expansion that declared or replaced it (None: the game)
    description: str | None = None  # what it gives, in the author's words (said by `why`)


@dataclass(eq=False)
class KeywordDef:
    pattern: str
    params: dict  # NAME -> type
    ability_texts: list
    pos: Position
    file: str
    family: str | None = None
    params_pos: dict = field(default_factory=dict)  # NAME -> position of its declaration
    words: list = field(default_factory=list)  # parsed: (kind, value, pos) of each word of the pattern
    effect_param: str | None = None  # parsed: the parameter after ':', standing for statements
    trees: list = field(default_factory=list)  # parsed: the tree of each ability text
    texts: dict = field(default_factory=dict)  # language -> what the rulebook prints of it (a text with its position)
    rules: list = field(default_factory=list)  # the rule IDs (of the game's rules index) it implements

    @property
    def name(self) -> str:
        return self.pattern.split(":")[0].strip()

    @property
    def title(self) -> str:
        """Its first words, before any parameter or dash: 'Bonus' of 'Bonus X - Y' (parsed)."""
        out = []
        for kind, value, _ in self.words:
            if kind != "lit":
                break
            out.append(value)
        return " ".join(out)


@dataclass(eq=False)
class AbilityDef:
    """An ability printed on a card; one object per printing (so it can key a table)."""
    text: str
    pos: Position
    tree: object = None  # Trigger / Action / PhraseAbility


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
    key_pos: dict = field(default_factory=dict)  # key of the card's entry -> its position
    layer: str | None = None  # the expansion or mod that adds it (None: the game)
    set: str | None = None  # the `set:` its file names, when it names one
    texts: dict = field(default_factory=dict)  # language -> the card's whole printed text (a text with its position)
    rules: list = field(default_factory=list)  # the rule IDs (of the game's rules index) the card implements
    plural_title: bool = False  # its title names several things: told with a verb in the plural


@dataclass
class BoardDef:
    id: str
    nodes: dict  # id -> attrs (incl. kind, tags)
    edges: list  # (a, b)
    pos: Position
    file: str
    edge_pos: list = field(default_factory=list)  # (position of a, position of b) of each edge
    title: str | dict | None = None  # the board's name, for people: a text, or a text by language (None: its id)

    def title_in(self, lang: str) -> str:
        """Its name in `lang` (else as written: see in_language); its id when it has none."""
        return in_language(self.title, lang) or self.id


TEXT_LANGS = ("en", "fr")  # the languages a text may be written in by language (the schemas' text by language)


def in_language(text, lang: str) -> str:
    """A text for people written in one language or by language ({en: ..., fr: ...}: a
    scenario's title and sheets, an expansion's or a board's title) in `lang`: the text of
    `lang` if written, else the other one; written as one text, that text. Empty when there is
    none."""
    if isinstance(text, dict):
        for code in (lang, *TEXT_LANGS):
            if isinstance(text.get(code), str):
                return str(text[code])
        return ""
    return str(text) if isinstance(text, str) else ""


@dataclass
class ScenarioDef:
    """A scenario sheet: the player counts it is for, the options it sets, and the rules it
    changes (hooks on extension points, procedures or functions replaced). Every scenario of
    the pack is checked; the one chosen to play is laid over the game (see content.layers).
    Its title and texts for a reader: `title_in`, `text_in` (and `in_language` for a
    character's sheet)."""
    id: str
    title: str  # its title in English, else as written: where one name stands for it (a trace, a spec)
    data: dict
    pos: Position
    file: str
    layer: str | None = None  # the expansion it belongs to (None: the game)
    hooks: dict = field(default_factory=dict)  # extension point -> the text run there
    replace: dict = field(default_factory=dict)  # procedure or function -> the text replacing its body
    trees: dict = field(default_factory=dict)  # parsed: ("hook"|"replace", name) -> nodes.Procedure/Condition

    def title_in(self, lang: str) -> str:
        """Its title in `lang` (else as written: see in_language); its id when it has none."""
        return in_language(self.data.get("title"), lang) or self.id

    def text_in(self, lang: str) -> str:
        """Its common sheet (`text:`) in `lang`, else as written; empty when it has none."""
        return in_language(self.data.get("text"), lang)

    def titles(self) -> list:
        """Every title it is written with, one per language (it is found by any)."""
        title = self.data.get("title")
        return [str(t) for t in (title.values() if isinstance(title, dict) else [title]) if isinstance(t, str)]


class LayerKind(enum.StrEnum):
    """What a layer laid over a game is."""
    EXPANSION = "expansion"
    MOD = "mod"
    SCENARIO = "scenario"


@dataclass
class LayerDef:
    """An expansion, a mod or a scenario laid over a game: what the trace records of it."""
    id: str
    kind: LayerKind
    title: str  # in English, else as written: where one name stands for it
    root: str  # its folder (a scenario: its file)
    pos: Position
    requires: list = field(default_factory=list)
    written: object = None  # its title as written: a text, or a text by language

    def title_in(self, lang: str) -> str:
        """Its title in `lang` (else as written: see in_language)."""
        return in_language(self.written, lang) or self.title


@dataclass
class PowersDef:
    """Where the power a seat is given goes (`--power SEAT=CARD`): a zone of each player, the
    component kind powers are, and an attribute no two seats may share (one character each)."""
    zone: str
    component: str | None
    unique: str | None
    pos: Position
    of_class: str | None = None  # a class every power has (say, Power), when powers are cards like the others


@dataclass
class AutomatonDef:
    """A seat driven by content (`automata:`): no agent is ever asked anything for it. Its own
    procedures decide with `decide`; a choice the rules ask of it anyway is made by `prefer`,
    an expression of `option` and `you` whose smallest value wins."""
    id: str
    title: str
    seat: int  # from 1
    description: str | None
    prefer: str | None
    pos: Position
    layer: str | None = None
    tree: object = None  # parsed `prefer`: nodes.Condition


@dataclass
class RulesTestDef:
    name: str
    rules: list
    data: dict  # the test as written: players, seed, options, given, when, choices, then
    pos: Position
    file: str
    layer: str | None = None  # the expansion or mod it belongs to (None: the game)
    cards: object = None  # the test-only cards as written (a list from the file, with positions), or None
    given: object = None  # parsed: nodes.Procedure
    when: object = None  # parsed: nodes.Procedure
    then: list = field(default_factory=list)  # parsed: (text, nodes.Condition) of each condition


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
    players_pos: Position | None = None
    score_pos: Position | None = None  # where `score:` names its counter (its value), for the checker's warnings
    standing: str | None = None  # the counter the end of the game shows for each player (default: the score)
    attribute_name_pos: dict = field(default_factory=dict)  # (component kind, attribute) -> its position
    # names of zones, counters and attributes declared as something other than a mapping: their
    # declaration is reported (the schema), and their uses are not, each again
    misdeclared: set = field(default_factory=set)
    heuristic_tree: object = None  # parsed: nodes.Condition
    functions: dict = field(default_factory=dict)
    invariants: list = field(default_factory=list)  # (text, tree: parsed)
    tags_kept_in: list | None = None  # zones where given classes stay; None: everywhere
    # the rules text of each procedure or function a layer replaced, as it was: the texts it
    # showed are no longer shown in this pack, yet their words in a lower layer are not wrong
    replaced_texts: list = field(default_factory=list)
    keywords: list = field(default_factory=list)
    cards: list = field(default_factory=list)
    boards: list = field(default_factory=list)
    scenarios: list = field(default_factory=list)
    tests: list = field(default_factory=list)
    test_cards_of: tuple | None = None  # (file, line) of the rules test whose own cards this pack holds
    layers: list = field(default_factory=list)  # LayerDef of each expansion, mod and scenario laid over it
    scenario: ScenarioDef | None = None  # the scenario chosen, laid over the game
    powers: PowersDef | None = None
    heuristics: list = field(default_factory=list)  # terms expansions add to the heuristic (text, tree)
    automata: dict = field(default_factory=dict)  # id -> AutomatonDef
    seat_report: tuple | None = None  # (title, label text, position, counters) of `report_seats_by`
    seat_report_tree: object = None  # parsed label: nodes.Condition
    vocabulary: dict = field(default_factory=dict)  # language -> {name: (words as written, position)}
    without: list = field(default_factory=list)  # the ids of the cards left out of the game (`load(without=)`)
    settings: list = field(default_factory=list)  # [card, attribute, value] of each value set at load (`load(settings=)`)
    notes: list = field(default_factory=list)  # the authoring notes of the game and its layers (texts)
    rulings: list = field(default_factory=list)  # rulings.RulingDef of the game and its layers (`rulings:`)
    rules_index: list = field(default_factory=list)  # files of the game's folder listing its rules by ID
    language: str = "en"  # the language its cards and rulebook are printed in (`language:`)
    table: dict = field(default_factory=dict)  # layout hints for the table in the browser, as written (positions kept)
    print_hints: dict = field(default_factory=dict)  # `print:`: how each component kind is printed (sheets), as written
