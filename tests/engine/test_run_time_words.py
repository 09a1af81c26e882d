"""What passes `regles check` runs: a value the checker could not tell the type of stops the
game, when it must, with a fault in the rules' words at its line, never in Python's.

A value reaches the compiled code untyped through a parameter (the checker reads it as
anything): every form of expression and statement is given every kind of value that way, in
a rules test each, and none of them may answer with Python's words (`TypeError: unhashable
type: 'list'`) or raise out of the test. The tester's cases are checked word for word.
"""
from __future__ import annotations

import re
import shutil
import textwrap

import pytest
import yaml

import interpreter
from interpreter.engine.state import GameFault
from interpreter.language.builtins import FUNCTIONS, PROPERTIES
from interpreter.rulings.ruletest import run_test

from gamekit import FIXTURES, make_game, source_line

# every kind of value the language has, written as content writes it
VALUES = {"none": "none", "number": "1", "zero": "0", "text": '"s"', "truth": "true", "list": "[1]", "empty": "[]",
          "list of lists": "[[1]]", "list of none": "[none]", "player": "players[1]", "component": 'card("farm")',
          "zone": "deck", "player's zone": "players[1].hand", "class": '"Damaged"', "node": 'node("north")',
          "team": "team(players[1])"}

# what a built-in's other arguments are given, by their type, so that only `x` is untyped
_DEFAULTS = {"set": "deck", "number": "1", "player": "players[1]", "string": '"farm"', "component": 'card("farm")',
             "node": 'node("north")', "zone": "deck"}

EXPRESSIONS = [
    "x + 1", "1 + x", "x + x", "x - 1", "x * 2", "x / 2", "x % 2", "-x", "x < 1", "x >= 1", "1 > x", "x == 1",
    "x != none", "x is Damaged", "x is not Damaged", "x is x", "1 in x", "x in deck", "x in x", "not x", "x or 1",
    "x.hand", "count(x.hand)", "x.workers", "x.site", "x.coins", "x.coins + 1", "x.coins < 1", "x.gems", "x.glory",
    "x.influence[players[1]]", 'node("north").influence[x]', "x.value", "x.value + 1", "x.cost", "x.cost + 1",
    "x.cost < 2", "x.cost == 1", "x.colour", "x.type", "x[1]", "x[x]", 'x["a"]', "data.income[x]",
    "count(each y in x)", "[y for each y in x]", "count(each y in x where y.value > 0)",
    "sum(y.cost for each y in x)", "max(y.cost for each y in x)", "select(x, 1, 2)",
    *[f"x.{p}" for p in PROPERTIES], *[f"x.{p} + 1" for p, r in PROPERTIES.items() if r.returns == "number"],
]
for _name, _f in FUNCTIONS.items():
    for _types in _f.signatures.values():
        for _i in range(len(_types)):
            _args = [_DEFAULTS.get(t, "1") for t in _types]
            _args[_i] = "x"
            if _name != "prints":  # its second argument must name a keyword the game has
                EXPRESSIONS.append(f"{_name}({', '.join(_args)})" + (" + 1" if _f.returns == "number" else ""))

STATEMENTS = [
    "move x to discard", 'move card("farm") to x', "move top(x) to discard", "move x to x", "shuffle x", "reveal x",
    "tap x", "untap x", "tag x as Damaged", "untag x as Damaged", "add x to players[1].coins", "add 1 to x.coins",
    "add 1 to x.gems", "remove x from players[1].coins", "pay x from players[1].coins", "gain x coins to players[1]",
    "gain 1 coins to x", "lose 1 coins from x", "score x to players[1]", "score 1 to x", "score 1 to players[1] for x",
    "set players[1].coins = x", "set x.value = 1", 'set card("farm").value = x', "set x.coins = 1", "set round = x",
    'set node("north").influence[x] = 1', "gain 1 glory to x", "repeat x times:\n  pass", "for each y in x:\n  pass",
    "while x:\n  break", "if x:\n  pass", "roll d = x dice", "roll d = 1 dice of x", "signal played(x)",
    'log "{x}"', "call turn(x)", "call take_income(x)", "win x", "use x", 'use card("farm") by x', "let y = x * x",
    "let y = [x] + x",
]

PYTHON_WORDS = re.compile(r"TypeError|ValueError|KeyError|IndexError|AttributeError|ZeroDivision|OverflowError|"
                          r"NoneType|unhashable|object|'int'|'list'|'str'|'tuple'|internal error")


@pytest.fixture(scope="module")
def untyped(tmp_path_factory):
    """The docs game with a function `f<i>(x)` per expression and a procedure `p<i>(x)` per
    statement, and a rules test per form and value: `given` calls it, `then` reads it."""
    folder = tmp_path_factory.mktemp("untyped") / "docs-game"
    shutil.copytree(FIXTURES / "docs-game", folder)
    game = yaml.safe_load((folder / "game.yaml").read_text(encoding="utf-8"))
    tests = []
    for i, text in enumerate(EXPRESSIONS):
        game["functions"][f"f{i}"] = {"params": ["x"], "body": text}
        for kind, value in VALUES.items():
            tests.append({"name": f"{text} <- {kind}", "given": f"let r = f{i}({value})\n", "then": ["true"]})
            tests.append({"name": f"then: {text} <- {kind}", "then": [f"f{i}({value}) == f{i}({value})"]})
    for i, text in enumerate(STATEMENTS):
        game["procedures"][f"p{i}"] = {"params": ["x"], "body": text + "\n"}
        for kind, value in VALUES.items():
            tests.append({"name": f"{text} <- {kind}", "given": f"call p{i}({value})\n", "then": ["true"]})
    (folder / "game.yaml").write_text(yaml.safe_dump(game, allow_unicode=True, sort_keys=False), encoding="utf-8")
    (folder / "tests").mkdir()
    (folder / "tests" / "untyped.yaml").write_text(
        yaml.safe_dump({"kind": "rules-test", "game": "docs-game", "tests": tests}, sort_keys=False), encoding="utf-8")
    return interpreter.load(str(folder), tests=True)


def test_no_value_makes_the_engine_answer_in_pythons_words(untyped):
    tests = [t for t in untyped.program.defn.tests if " <- " in t.name]
    assert len(tests) == (2 * len(EXPRESSIONS) + len(STATEMENTS)) * len(VALUES)
    said = [(t.name, run_test(untyped, t).message) for t in tests]
    stopped = [(name, message) for name, message in said if message]
    assert len(stopped) > len(said) // 4  # most forms refuse most kinds of values: the values do reach them
    slips = [f"{name}: {message}" for name, message in stopped if PYTHON_WORDS.search(message)]
    assert not slips, "\n".join(slips[:20])
    # each message says where: the line of the rules that stopped
    assert all(re.match(r"\S+\.yaml:\d+:\d+: ", message) for _, message in stopped)


def test_a_zone_of_a_list_is_a_fault_in_the_rules_words(untyped, tmp_path):
    """The tester's `count([1].hand)`, the list reaching the zone through a parameter."""
    game = make_game(tmp_path, "game: |\n  add hand_size([1]) to ticks\n",
                     functions="functions:\n  hand_size:\n    params: [x]\n    body: \"count(x.hand)\"\n")
    with pytest.raises(GameFault) as err:
        game.new_state(players=2)
    assert err.value.message == "zone 'hand' is kept per player, not by a list"
    assert source_line(err.value.pos).strip() == 'body: "count(x.hand)"'
    then = next(t for t in untyped.program.defn.tests if t.name == "then: count(x.hand) <- list")
    result = run_test(untyped, then)
    f = f"f{EXPRESSIONS.index('count(x.hand)')}"
    assert not result.passed
    assert result.message.endswith(f"then '{f}([1]) == {f}([1])': zone 'hand' is kept per player, not by a list")


def test_points_of_an_attribute_of_none_name_what_is_none(tmp_path):
    """The tester's `score c.value` with `c` none: the checker promises a number (the attribute
    has a default), and the read of none stops where it is written."""
    game = make_game(tmp_path, textwrap.dedent("""\
        game: |
          let c = top(players[1].hand)
          score c.value to players[1]
        """))
    with pytest.raises(GameFault) as err:
        game.new_state(players=2)
    assert err.value.message == "`c` is none here: it has no 'value'"
    assert source_line(err.value.pos).strip() == "score c.value to players[1]"


@pytest.mark.parametrize("rules, line, message", [
    ("let c = none\nadd c to ticks", 2, "`c` is none here, not a number"),
    ("let c = none\nif c < 2:\n  pass", 2, "`c` is none here, not a number"),
    ("let c = [none]\nadd 1 + first(c) to ticks", 2, "`first(c)` is none here, not a number"),
    ("let c = none\nadd c + 1 to ticks", 2, "`c` is none here, not a number"),
    ("let c = none\nadd 1 to c.tokens", 2, "`c` is none here: it has no counter 'tokens'"),
    ("let c = none\nmove top(deck) to c.hand", 2, "`c` is none here: it has no zone 'hand'"),
    ("let c = top(pile)\nif c.suit == Sun:\n  pass", 2, "`c` is none here: it has no 'suit'"),
])
def test_arithmetic_and_owners_of_none_name_what_is_none(tmp_path, rules, line, message):
    game = make_game(tmp_path, "game: |\n" + textwrap.indent(rules, "  ") + "\n")
    with pytest.raises(GameFault) as err:
        game.new_state(players=2)
    assert err.value.message == message
    assert source_line(err.value.pos).strip() == rules.splitlines()[line - 1]
