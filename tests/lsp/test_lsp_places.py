"""What the language server reads at the cursor and offers there, without the protocol (so
without pygls): places in files being typed, completions, hovers, the ranges of problems."""
from __future__ import annotations

import os
import shutil

import pytest

from interpreter.diagnostics import Diagnostic, Position, lines_of
from interpreter.rulings.check import check_paths
from interpreter.lsp.analysis import analyse, is_content, problem
from interpreter.lsp.completion import complete, keyword_snippet
from interpreter.lsp.definition import definition
from interpreter.lsp.hover import hover, md
from interpreter.lsp.place import place_at
from tests.gamekit import FIXTURES

GAME = FIXTURES / "docs-game"


@pytest.fixture(scope="module")
def docs_game():
    packs = []
    check_paths([str(GAME)], lambda defn, found: packs.append((defn, found)))
    (pack,) = packs
    return pack


def cursor(text: str) -> tuple[str, list, int, int]:
    """A text with '^' at the cursor: the text without it, its lines, the cursor's line and column."""
    i = text.index("^")
    text = text[:i] + text[i + 1:]
    return text, lines_of(text), text.count("\n", 0, i), i - (text.rfind("\n", 0, i) + 1)


def place(text: str):
    text, lines, line, column = cursor(text)
    return place_at(text, lines, line, column)


def offered(text: str, defn) -> set:
    return {i.label for i in complete(place(text), defn)}


CARDS = """kind: cards
game: docs-game
cards:
  - id: mill
    title: Mill
    type: Building
    abilities:
      - |
        ^
"""


def test_the_first_word_of_a_block_ability_is_a_keyword_or_what_opens_a_trigger_or_an_action(docs_game):
    defn, _ = docs_game
    p = place(CARDS)
    assert (p.kind, p.key, p.text_start) == ("rules", "abilities", True)
    assert offered(CARDS, defn) == {k.pattern for k in defn.keywords} | {"when", "whenever", "action"}
    body = CARDS.replace("        ^", "        when played:\n          ^")
    p = place(body)
    assert (p.kind, p.text_start) == ("rules", False)
    assert {"move", "count", "coins", "market", "wealth"} <= offered(body, defn)


def test_a_quoted_ability_being_typed_is_a_rules_text_though_its_yaml_does_not_read(docs_game):
    defn, _ = docs_game
    text = CARDS.replace("      - |\n        ^\n", '      - "Bonus 2 - ^\n')
    assert place(text).kind == "rules"
    assert offered(text, defn) == {"Building", "Worker", "Damaged", "Wild", "Open-air"}


def test_a_key_of_a_card_is_a_key_of_its_schema_or_an_attribute(docs_game):
    defn, _ = docs_game
    text = CARDS.replace("    type: Building\n", "    co^\n")
    p = place(text)
    assert (p.kind, p.keys, p.word) == ("key", ("cards",), "co")
    assert {"copies", "abilities", "title", "cost", "colour"} <= offered(text, defn)


def test_the_value_of_an_attribute_is_one_of_its_values(docs_game):
    defn, _ = docs_game
    assert offered(CARDS.replace("type: Building", "type: Bu^"), defn) == {"Building", "Worker"}
    assert offered("kind: cards\nstart: ^\n", defn) == set(defn.zones)


def test_in_a_procedure_call_offers_procedures_with_their_arguments(docs_game):
    defn, _ = docs_game
    text = "kind: game\nprocedures:\n  game: |\n    call ^\n"
    p = place(text)
    assert (p.kind, p.keys) == ("rules", ("procedures", "game"))
    items = {i.label: i for i in complete(p, defn)}
    assert set(items) == set(defn.procedures)
    assert items["turn"].insert == "turn(${1:p})" and items["turn"].snippet


def test_a_keyword_snippet_escapes_what_a_snippet_would_read_as_its_own():
    class Defn:
        classes = {"a": (None, "A,B|C")}
    assert keyword_snippet("Pay $ X - Y}", {"X": "number", "Y": "class"}, Defn()) == \
        "Pay \\$ ${1:X} - ${2|A\\,B\\|C|}\\}"


def test_inside_card_quotes_the_card_ids_are_offered(docs_game):
    defn, _ = docs_game
    text = CARDS.replace("        ^", "        when played:\n          move card(\"fa^\") to you.hand")
    assert offered(text, defn) == {c.id for c in defn.cards}


def test_hover_shows_content_as_text_never_as_markup(docs_game, tmp_path):
    game = tmp_path / "docs-game"
    shutil.copytree(GAME, game)
    cards = game / "cards" / "market.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("title: Farm", "title: \"<img src=x> *Farm*\""),
                     encoding="utf-8")
    analysis = analyse(str(cards), {})
    defn, found = analysis.packs[0]
    text = cards.read_text(encoding="utf-8")
    _, lines, line, column = cursor(text.replace("id: farm", "id: fa^rm"))
    shown = hover(defn, found, analysis.sources, str(cards), lines, line, column).text
    assert shown.startswith("**\\<img src=x\\> \\*Farm\\*** `farm`") and "<" not in shown.replace("\\<", "")
    assert md("[a](b)") == "\\[a\\]\\(b\\)"


def test_definition_of_a_function_used_in_a_rules_text(docs_game):
    defn, found = docs_game
    path = str(GAME / "game.yaml")
    text = (GAME / "game.yaml").read_text(encoding="utf-8")
    _, lines, line, column = cursor(text.replace('heuristic: "wealth(p)"', 'heuristic: "wea^lth(p)"'))
    where, at_line, _ = definition(defn, found, path, lines, line, column)
    assert where == os.path.abspath(path) and lines[at_line].strip() == "wealth:"


def test_a_problem_without_an_end_spans_the_word_it_points_at():
    d = Diagnostic(Position("f.yaml", 2, 3), "unknown key 'cots'", "did you mean 'cost'?", code="S001")
    p = problem(d, lines_of("kind: cards\n  cots: 2\n"))
    assert (p.line, p.column, p.end_line, p.end_column) == (1, 2, 1, 6)  # the key, as check --format json says
    assert p.message == "unknown key 'cots'\nhint: did you mean 'cost'?"
    assert p.code == "S001"  # the code it was raised with
    spanned = problem(Diagnostic(Position("f.yaml", 1, 7, 12), "bad kind"), lines_of("kind: cards\n"))
    assert (spanned.column, spanned.end_column) == (6, 11)


def test_only_content_files_are_checked(tmp_path):
    workflow = tmp_path / "ci.yml"
    assert not is_content(str(workflow), "on: push\njobs: {}\n")
    assert is_content(str(tmp_path / "my-cards.yaml"), "kind: cards\ngame: docs-game\n")
    assert is_content(str(GAME / "cards" / "market.yaml"), "")
    assert analyse(str(tmp_path / "never-saved.yaml"), {}).problems == {}
