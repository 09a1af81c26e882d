"""What the tests share: where things are, and tiny games written for a test.

`make_game(tmp_path, procedures, cards)` writes and loads a small game whose
procedures are given as rules text, to check one behaviour of the engine.
"""
from __future__ import annotations

import random
import textwrap
from functools import lru_cache
from pathlib import Path

import yaml

import interpreter

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
FIXTURES = TESTS / "fixtures"
CORPUS = TESTS / "corpus"


def fixture_game(name: str):
    """A game of tests/fixtures, loaded."""
    return interpreter.load(str(FIXTURES / name))


@lru_cache(maxsize=None)
def player_counts(name: str) -> range:
    """The player counts a shipped game is for, read from its game file's `players:` without
    loading the game: test modules call it while pytest collects, once in each worker."""
    data = yaml.safe_load((ROOT / "content" / name / "game.yaml").read_text(encoding="utf-8"))
    players = data["players"]
    return range(int(players["min"]), int(players["max"]) + 1)


def source_line(pos) -> str:
    """The line of its file a position points into."""
    return Path(pos.path).read_text(encoding="utf-8").splitlines()[pos.line - 1]


GAME = """\
kind: game
id: tiny
title: Tiny
players: {{min: 2, max: 4}}
teams:
  4: [[1, 3], [2, 4]]
attributes:
  value: {{type: number, default: 0}}
  suit: {{values: [Sun, Moon]}}
classes: [Marked]
zones:
  deck: {{scope: game, visibility: hidden}}
  hand: {{scope: player, visibility: owner}}
  table: {{scope: player, in_play: true}}
  pile: {{scope: game}}
counters:
  coins: {{scope: player, supply: 10}}
  points: {{scope: player}}
  gems: {{scope: team}}
  tokens: {{scope: card, supply: 3, keep_in: [table]}}
  ticks: {{scope: game}}
events:
  played: [card]
  tick: []
windows: [main]
score: points
procedures:
{procedures}
"""

CARDS = """\
kind: cards
game: tiny
start: deck
cards:
  - {id: one, title: One, value: 1, suit: Sun}
  - {id: two, title: Two, value: 2, suit: Moon}
  - {id: three, title: Three, value: 3, suit: Sun, abilities: ["when played: gain 1 coins"]}
  - {id: four, title: Four, value: 4, suit: Moon, abilities: ["action \\"Cash in\\" during main cost tap: gain 2 coins"]}
"""


def game_folder(tmp_path, name: str, **files: str):
    """Folder `name` of `tmp_path` holding each file given (`game_yaml="..."` is game.yaml)."""
    folder = tmp_path / name
    folder.mkdir()
    for file, text in files.items():
        (folder / file.replace("_yaml", ".yaml")).write_text(text, encoding="utf-8")
    return folder


def make_game(tmp_path, procedures: str, cards: str = CARDS, functions: str = ""):
    """`functions`, when given, is the game's `functions:` section, as YAML."""
    folder = tmp_path / "tiny"
    folder.mkdir()
    body = textwrap.indent(procedures, "  ")
    text = GAME.format(procedures=body).replace("procedures:", functions + "procedures:")
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    (folder / "cards.yaml").write_text(cards, encoding="utf-8")
    return interpreter.load(str(folder))


def random_trace(game, players: int, seed: int) -> list:
    """The trace of a game of `game` played with random choices from `seed`, as plain dicts."""
    st = game.new_state(players=players, seed=seed, trace=True)
    r = random.Random(seed)
    while not st.is_terminal():
        st.apply(r.randrange(len(st.legal_actions())))
    return [dict(e) for e in st.trace]


def dicts_in(value):
    """Every mapping in a value made of mappings and lists (a schema, a view sent to a page),
    itself first, then those it holds, depth first."""
    if isinstance(value, dict):
        yield value
        for v in value.values():
            yield from dicts_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from dicts_in(v)
