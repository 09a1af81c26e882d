"""What `regles check` hints at a value the schemas refuse: a mapping written as something else
is shown its example (the schema's `examples`) or its keys; a word other tools use for one the
schema takes ('int' for 'number') is hinted to it."""
from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from interpreter.content import validate as V
from interpreter.rulings.check import check_paths

from gamekit import ROOT, dicts_in

GAME = """kind: game
id: hinted
title: Hinted
players: {players}
attributes:
  cost: {{type: {cost}, default: 0}}
zones:
  deck: {{scope: game, visibility: {deck}}}
  basket: {basket}
procedures:
  {procedure}: |
    shuffle deck
"""
SOUND = {"players": "{min: 2, max: 4}", "cost": "number", "deck": "hidden", "basket": "{scope: player}",
         "procedure": "game"}


def _hints(tmp_path, **changed) -> list:
    folder = tmp_path / "hinted"
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME.format(**{**SOUND, **changed}), encoding="utf-8")
    return [(d.code, d.message, d.hint) for d in check_paths([str(folder)]).diagnostics]


def test_the_sound_game_checks(tmp_path):
    assert _hints(tmp_path) == []


@pytest.mark.parametrize("changed, expected", [
    ({"players": "2-4"}, ("S003", "players: expected a mapping, found a text", "e.g. players: {min: 2, max: 4}")),
    ({"players": "{min: 2}"}, ("S002", "players: missing required key 'max'", "e.g. players: {min: 2, max: 4}")),
    ({"basket": "player"}, ("S003", "zones.basket: expected a mapping, found a text",
                            "e.g. basket: {scope: player, visibility: owner}")),
    ({"cost": "int"}, ("S004", "attributes.cost.type: 'int' is not allowed here; expected 'number', 'string', "
                               "'boolean', 'class', 'list'", "write 'number'")),
    ({"deck": "secret"}, ("S004", "zones.deck.visibility: 'secret' is not allowed here; expected 'public', 'owner', "
                                  "'hidden', 'team'", "write 'hidden'")),
    ({"procedure": "main"}, ("N007", "the game has no procedure 'game'",
                             "procedures.game is run to play a game: rename 'main' to 'game', or call it from a "
                             "procedure 'game'")),
])
def test_a_refused_value_is_hinted_to_how_it_is_written(changed, expected, tmp_path):
    assert expected in _hints(tmp_path, **changed)


def test_a_mapping_without_an_example_is_hinted_to_its_keys():
    assert V.shape_hint({"type": "object", "properties": {"min": {}, "max": {}}}, "players") == "its keys: min, max"
    assert V.shape_hint({"type": "object"}, "x") is None


def test_a_missing_key_is_hinted_to_an_example_only(tmp_path):
    # a card without its title: the key is named; all the keys a card may have would not help
    folder = tmp_path / "mod"
    folder.mkdir()
    (folder / "cards.yaml").write_text("kind: cards\ngame: karman-swap\ncomponent: card\ncards:\n"
                                       "  - {id: untitled, colour: Rouge, value: 3}\n", encoding="utf-8")
    found = [(d.code, d.message, d.hint) for d in check_paths([str(folder)]).diagnostics]
    assert found == [("S002", "cards[0]: missing required key 'title'", None)]


def test_every_example_of_the_schemas_is_valid_where_it_is_given():
    found = 0
    for path in sorted((ROOT / "schemas").glob("*.schema.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        for node in dicts_in(schema):
            for example in node.get("examples", ()):
                found += 1
                part = {**node, "$defs": schema.get("$defs", {})}
                assert not list(Draft202012Validator(part).iter_errors(example)), (path.name, example)
    assert found >= 4




@pytest.mark.parametrize("section, declared, used", [
    ("zones", "basket: player", "move c to you.basket"),
    ("zones", "pile: game", "shuffle pile"),
    ("counters", "coins: player", "gain 1 coins"),
    ("attributes", "worth: number", "log \"{c.worth}\""),
    ("attributes", "worth: number", "if c.worth > 1: pass"),
])
def test_a_name_declared_as_no_mapping_is_reported_once_not_at_each_use(tmp_path, section, declared, used):
    folder = tmp_path / "hinted"
    folder.mkdir()
    rules = "\n".join(f"    {line}" for line in ("for each c in deck:", f"  {used}", f"  {used}"))
    game = (GAME.format(**SOUND).replace("  basket: {scope: player}\n", "")
            .replace("    shuffle deck\n", rules + "\n"))
    game = game.replace(f"{section}:\n", f"{section}:\n  {declared}\n") if f"{section}:\n" in game \
        else game.replace("procedures:\n", f"{section}:\n  {declared}\nprocedures:\n")
    (folder / "game.yaml").write_text(game, encoding="utf-8")
    found = [(d.code, d.message) for d in check_paths([str(folder)]).diagnostics if d.severity == "error"]
    assert [code for code, _ in found] == ["S003"], found  # the declaration, and none of its two uses
    assert found[0][1].startswith(f"{section}.{declared.split(':')[0]}: expected a mapping")


def test_cards_giving_an_attribute_declared_as_no_mapping_are_not_each_reported(tmp_path):
    folder = tmp_path / "hinted"
    folder.mkdir()
    game = GAME.format(**SOUND).replace("attributes:\n", "attributes:\n  worth: number\n")
    (folder / "game.yaml").write_text(game, encoding="utf-8")
    (folder / "cards.yaml").write_text("kind: cards\nstart: deck\ncards:\n"
                                       "  - {id: a, title: A, worth: 1}\n  - {id: b, title: B, worth: 2}\n",
                                       encoding="utf-8")
    found = [(d.code, d.message) for d in check_paths([str(folder)]).diagnostics if d.severity == "error"]
    assert [code for code, _ in found] == ["S003"], found
