"""The stable codes of diagnostics: one record per kind of diagnostic.

Each kind of diagnostic has a code that does not change from one version to the next (as
ruff's rules and rustc's errors do). The place that raises a diagnostic names its code
(`Report.error("N001", ...)`); the text report prints it (`error[N001]`), the JSON report and
the language server give it, and docs/errors.md lists every record (docs/gen_error_codes.py).
A new kind of diagnostic gets a new record; a code, once published, keeps its meaning.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Code:
    id: str  # a letter for its wing and three digits: "N001"
    name: str  # a few words joined by '-': "unknown-zone"
    wing: str  # the stage that raises it: yaml, schema, parse, names, types, ...
    description: str  # what it reports, in one line
    example: str  # a message it is given


WINGS = {"Y": "yaml", "S": "schema", "P": "parse", "N": "names", "T": "types", "D": "declarations",
         "F": "files", "K": "keywords", "C": "compile", "W": "printed", "V": "prose", "H": "hints", "E": "other"}

CODES: tuple[Code, ...] = (
    Code("Y001", "yaml-indentation", "yaml", "a line indented as no block around it allows",
         "YAML syntax error: wrong indentation: this line is indented 3 spaces, which lines up with no block above"),
    Code("Y002", "yaml-tab", "yaml", "a tab in the indentation of a YAML file or a rules text",
         "tab character used for indentation"),
    Code("Y003", "yaml-syntax", "yaml", "a file YAML cannot read", "YAML syntax error: '{' never closed"),
    Code("Y004", "yaml-duplicate-key", "yaml", "a key given twice in one mapping",
         "duplicate key 'cost' (first defined at line 6)"),
    Code("Y005", "yaml-encoding", "yaml", "a file that is not UTF-8 text", "file is not valid UTF-8 (byte 0xe9)"),
    Code("Y006", "yaml-empty", "yaml", "an empty content file", "file is empty"),
    Code("Y007", "yaml-tag", "yaml", "a YAML tag (!!python/..., !foo): content is plain data",
         "unsupported YAML tag '!card'"),
    Code("Y008", "yaml-shape", "yaml", "a file or a key that is not what a content file holds",
         "a key must be a string, not null"),
    Code("Y009", "yaml-too-large", "yaml", "a file, text or number beyond the engine's limits",
         "values nest more than 100 levels deep"),
    Code("S001", "unknown-key", "schema", "a key the file's schema does not have", "unknown key 'cots'"),
    Code("S002", "missing-key", "schema", "a key the schema requires", "missing required key 'id'"),
    Code("S003", "wrong-type", "schema", "a value of the wrong type", "requires: expected a list, found a number"),
    Code("S004", "not-allowed", "schema", "a value outside the allowed ones",
         "scope: 'world' is not allowed here; expected one of: game, player, team"),
    Code("S005", "bad-identifier", "schema", "an id that is not lower-case letters, digits, '-', '_'",
         "id: 'My Game' is not a valid identifier"),
    Code("S006", "bad-rule-id", "schema", "a rule ID that does not look like SX-NEG-3", "'x1' is not a rule ID"),
    Code("S007", "item-count", "schema", "a list too short or too long", "cards: expected at least 1 item"),
    Code("S008", "out-of-range", "schema", "a number out of range", "copies: expected a number at least 1"),
    Code("S009", "unknown-kind", "schema", "a file whose kind: is not a kind of content",
         "unknown kind 'card'; expected one of: game, cards, ..."),
    Code("S010", "empty-text", "schema", "an empty text where one is needed", "title: expected a non-empty string"),
    Code("P001", "rules-indentation", "parse", "a rules text indented wrongly",
         "syntax error: this line is indented less than its block but more than the enclosing one"),
    Code("P002", "rules-syntax", "parse", "a rules text the grammar cannot read",
         "syntax error: expected an expression after 'gain'"),
    Code("N001", "unknown-zone", "names", "a zone the game does not declare", "unknown zone 'pocket'"),
    Code("N002", "unknown-counter", "names", "a counter the game does not declare", "unknown counter 'shps'"),
    Code("N003", "unknown-attribute", "names", "an attribute the game does not declare", "unknown attribute 'hond'"),
    Code("N004", "unknown-class", "names", "a class (attribute value or tag) the game does not declare",
         "unknown class 'Relic'"),
    Code("N005", "unknown-event", "names", "an event the game does not declare", "unknown event 'on_drw'"),
    Code("N006", "unknown-window", "names", "a window the game does not declare", "unknown window 'mian'"),
    Code("N007", "unknown-procedure", "names", "a procedure the game does not have", "unknown procedure 'setup_x'"),
    Code("N008", "unknown-function", "names", "a function neither built in nor the game's", "unknown function 'selekt'"),
    Code("N009", "unknown-keyword", "names", "a printed phrase that is no keyword of the game",
         "unknown keyword 'Incom 1'"),
    Code("N010", "unknown-name", "names", "a name that is not bound here", "unknown name 'nobody_here'"),
    Code("N011", "unknown-option", "names", "an option the game does not have", "unknown option 'shrot'"),
    Code("N012", "unknown-game", "names", "a file naming no game, or another game", "unknown game 'my-gmae'"),
    Code("N013", "duplicate", "names", "an id, node or file given twice", "duplicate card id 'farm' (first at cards.yaml:4)"),
    Code("N014", "unknown-node", "names", "a board edge or link to a node no board has", "edge names unknown node 'zz'"),
    Code("N015", "bad-name", "names", "a name with characters names may not hold, or a reserved name",
         "parameter 'you' of procedure 'turn' has a reserved name"),
    Code("N016", "unknown-component", "names", "a component kind the game does not declare",
         "unknown component kind 'token'"),
    Code("N017", "unknown-hook", "names", "a hook or replacement of nothing", "no extension point 'round_begin' to hook on"),
    Code("N018", "unknown-card", "names", "a card id or keyword named in a rule that none has",
         "no card with id 'farmm'"),
    Code("N019", "unknown-value", "names", "an attribute value its attribute does not allow",
         "'Mor' is not a value of 'character'"),
    Code("N020", "unknown-board", "names", "a board the game does not have", "table hints name unknown board 'mapp'"),
    Code("N021", "unknown-expansion", "names", "an expansion the game does not have", "unknown expansion 'harbor'"),
    Code("T001", "arity", "types", "a call, event or keyword given the wrong number of values",
         "twice() takes 1 argument, got 2"),
    Code("T002", "not-a-condition", "types", "a value where a condition (true or false) is needed",
         "the condition of 'if' must be a condition, not a number"),
    Code("T003", "wrong-type", "types", "a value of the wrong type in a rules text",
         "'+' works on numbers, not a card"),
    Code("T004", "unbound", "types", "a name read before it has a value", "'c' is read before it is given a value"),
    Code("T005", "loop-control", "types", "break or continue outside a loop", "'break' outside a loop"),
    Code("T006", "recursion", "types", "keywords or functions defined in terms of themselves",
         "keyword 'Echo' is defined in terms of itself"),
    Code("T007", "number-too-large", "types", "a number beyond what a game keeps",
         "number too large: more than 9,007,199,254,740,991, the largest a game keeps"),
    Code("T008", "useless", "types", "something written that can have no effect", "unreachable statement: it follows 'exit'"),
    Code("T009", "text-not-filled", "types",
         "a text with {expressions} passed on as a value, never filled in where it is shown",
         "the text \"{n} coins\" is a value, so {n} in it stays as written: braces are filled in only in a text shown"),
    Code("D001", "players", "declarations", "a player count or seat out of range",
         "automaton 'bot' drives seat 4, but the game has 2 to 3 players"),
    Code("D002", "counter-bounds", "declarations", "counter bounds or supplies that do not fit",
         "counter 'coins' has a min (5) above its max (3)"),
    Code("D003", "option-value", "declarations", "an option given a value of the wrong kind",
         "option 'short' is true or false, not 17"),
    Code("D004", "declaration", "declarations", "a declaration the rules need that is missing or of the wrong kind",
         "'score' needs the game to name its score counter"),
    Code("D005", "never-in-a-zone", "declarations",
         "cards that no start: zone, rule or power ever puts in a zone (a warning)",
         "card 'odd-one' never enters a zone: its file has no 'start:', and no rule moves it"),
    Code("D006", "no-way-to-win", "declarations", "a game that keeps a score but whose rules never say 'win' (a warning)",
         "the game keeps a score ('points') but has no way to win: no rule says 'win', so every game ends without "
         "a winner"),
    Code("D007", "missing-sheet", "declarations", "a scenario with sheets per character that lacks the sheet of one",
         "scenario 'mine' has no sheet for character 'Moor'"),
    Code("F001", "misplaced-file", "files", "a file or folder where no content of its kind can be",
         "no game file (kind: game) in this folder"),
    Code("K001", "keyword-pattern", "keywords", "a keyword pattern that is not a keyword as printed",
         "a keyword pattern holds words, '-' and parameter names only"),
    Code("C001", "cannot-compile", "compile", "content that checks but that the compiler refuses (an engine fault)",
         "cannot compile: ..."),
    Code("W001", "printed-text", "printed", "a keyword's printed text that says other than its rules",
         "the printed text (en) of keyword 'Income' disagrees with its rules: ..."),
    Code("W002", "no-face", "printed", "a card ability with neither printed text nor prose that fits a card's face",
         "card 'farm' has no printed face in 'en': neither a printed text nor prose that fits (...)"),
    Code("K002", "keyword-mismatch", "keywords", "a printed phrase that begins as a keyword but leaves its pattern",
         "expected '-' in keyword 'Harvest X - Y', found 'Farm'"),
    Code("D008", "requires-cycle", "declarations", "expansions that require each other in a circle",
         "expansions require each other in a circle: a -> b -> a"),
    Code("V001", "vocabulary", "prose", "a vocabulary entry or printed text for a language the cards are not written in, "
         "or naming what the game does not have", "vocabulary (en) for unknown counter 'golds'"),
    Code("H001", "table-hint", "hints", "a layout hint of the browser table naming what the board does not have",
         "table hints: board 'map' has no node 'north'"),
    Code("H002", "print-hint", "hints", "a print hint the sheets cannot draw (a warning)",
         "print hints of 'suit': 'blob' (for 'hearts') is not a shape the sheets draw"),
    Code("H003", "card-picture", "hints", "a card's picture (the attribute an art: print hint names) that cannot be "
         "printed: no such file, not PNG or JPEG, too large, or outside the cards file's folder",
         "print hints of 'monster': art 'goblin' is not printed: no file 'img/goblin.png' beside the cards file"),
    Code("W003", "ruling-as-note", "printed", "a ruling written as a free note, the older form (a warning)",
         "a ruling written as a note"),
    Code("W004", "untranslated-text", "printed", "a text the rules show without words in a language whose vocabulary "
         "gives texts words (a warning)", "the text \"Pass\" has no words in 'fr', although the vocabulary gives other "
         "texts words in it"),
    Code("W005", "untranslated-name", "printed", "a zone or counter shown at the table without words in a language "
         "whose vocabulary gives other zones or counters words (a warning)",
         "zone 'power' has no words in 'fr', although the vocabulary gives other zones words in it"),
    Code("K003", "keyword-spelling", "keywords", "a keyword's word printed with other accents than its pattern's "
         "(a warning: it matches, and the card's face prints it as written)",
         "'Recolte' is spelled 'Récolte' in keyword 'Récolte X'"),
    Code("E000", "other", "other", "any other diagnostic (reported so that it can be given a code of its own)",
         "procedure 'turn' acts for 'playr', which is not one of its parameters"),
)

BY_ID: dict[str, Code] = {c.id: c for c in CODES}


def known_code(code: str) -> str:
    """`code`, which must be the id of a record of CODES (a typo is an engine fault, found by the tests)."""
    if code not in BY_ID:
        raise ValueError(f"no diagnostic code {code!r}")
    return code
