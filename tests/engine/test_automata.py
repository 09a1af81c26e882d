"""Seats driven by content: `automata:`, `decide`, `use ... free`, `automated`, `can_use`.

A tiny game where seat 2 is an automaton: nobody is ever asked anything for it, each of its
decisions is a `decide` event at the content line that made it, and a choice the rules ask
of it anyway is made by its `prefer`.
"""
from __future__ import annotations

import textwrap

import pytest

import interpreter
from interpreter.engine.state import GameFault
from interpreter.play.agents import RandomAgent

GAME = """\
kind: game
id: robots
title: Robots
players: {min: 2, max: 3}
attributes:
  value: {type: number, default: 0}
zones:
  deck: {scope: game, visibility: public}
  hand: {scope: player, visibility: public}
  discarded: {scope: player, visibility: public}
  table: {scope: player, in_play: true}
  pile: {scope: game}
counters:
  coins: {scope: player, supply: 20}
  points: {scope: player}
windows: [main]
score: points
automata:
  bot:
    title: Bot
    seat: 2
    description: "Takes the card of highest value; when the rules ask it, the lowest."
    prefer: "select(option is none, 0, option.value)"
functions:
  best:
    params: [p]
    body: "last(sorted(p.hand, [c.value for each c in p.hand]))"
procedures:
  game: |
    shuffle deck
    for each p in players:
      gain 5 coins to p
      repeat 3 times:
        move top(deck) to p.hand
    for each p in players:
      if automated(p):
        decide c by p "Card to play":
          prefer first(each x in p.hand where x.value == 4)
          prefer best(p) if count(p.hand) > 1
          prefer top(p.hand)
      else:
        choose c from p.hand by p "Card to play"
      move c to p.table
      score c.value to p for c
    for each p in players:
      choose d from p.hand by p "Card to discard"
      move d to p.discarded
    for each p in players:
      for each c in p.table:
        if automated(p) and can_use(c, p):
          use c by p free
        elif not automated(p):
          use c by p
    win players[1]
"""

CARDS = """\
kind: cards
game: robots
start: deck
cards:
  - {id: one, title: One, value: 1}
  - {id: two, title: Two, value: 2}
  - {id: three, title: Three, value: 3, abilities: ["action \\"Cash in\\" during main cost pay 5 coins: gain 2 coins"]}
  - {id: four, title: Four, value: 4, abilities: ["action \\"Cash in\\" during main cost pay 5 coins: gain 3 coins"]}
  - {id: five, title: Five, value: 5}
  - {id: six, title: Six, value: 6}
  - {id: seven, title: Seven, value: 7}
  - {id: eight, title: Eight, value: 8}
  - {id: nine, title: Nine, value: 9}
"""



def load(tmp_path, game=GAME, cards=CARDS):
    folder = tmp_path / "robots"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(game, encoding="utf-8")
    (folder / "cards.yaml").write_text(cards, encoding="utf-8")
    return interpreter.load(str(folder))


@pytest.fixture(scope="module")
def robots(tmp_path_factory):
    return load(tmp_path_factory.mktemp("g"))


def play_out(game, seed, players=2):
    """A random game; the seats an agent was asked to decide for."""
    st = game.new_state(players, seed=seed, trace=True)
    rng = RandomAgent(seed).rng
    asked = set()
    while not st.is_terminal():
        asked.add(st.current_player)
        st.apply(rng.below(len(st.legal_actions())))
    return st, asked


def titles(st, zone, seat):
    return [st.program.comp_card[c].title for c in st.zones.get(st.zone_key(zone, seat), [])]


VALUES = {"One": 1, "Two": 2, "Three": 3, "Four": 4, "Five": 5, "Six": 6, "Seven": 7, "Eight": 8, "Nine": 9}


@pytest.mark.parametrize("players", [2, 3])
def test_no_agent_is_ever_asked_for_the_automated_seat(robots, players):
    for seed in range(1, 40):
        _, asked = play_out(robots, seed, players)
        assert 1 not in asked and 0 in asked, f"seed {seed}: asked {asked}"


def test_the_automaton_decides_by_its_rules_in_order(robots):
    seen_rules = set()
    for seed in range(1, 40):
        st, _ = play_out(robots, seed)
        played, discarded, kept = titles(st, "table", 1), titles(st, "discarded", 1), titles(st, "hand", 1)
        dealt = played + discarded + kept
        assert len(played) == len(discarded) == len(kept) == 1
        decide = next(e for e in st.trace if e["type"] == "decide" and e["prompt"] == "Card to play")
        if "Four" in dealt:  # rule 1: a Four first
            assert played == ["Four"] and decide["rule"] == 1
        else:  # rule 2: the best card of a hand of more than one
            assert VALUES[played[0]] == max(VALUES[t] for t in dealt) and decide["rule"] == 2
        seen_rules.add(decide["rule"])
        # the choice the rules ask of it (its discard) is made by its prefer: the lower value
        assert VALUES[discarded[0]] < VALUES[kept[0]]
        assert st.scores()[1] == VALUES[played[0]]
    assert seen_rules == {1, 2}


def test_each_decision_is_traced_at_the_content_line_that_made_it(robots):
    st, _ = play_out(robots, 5)
    decides = [e for e in st.trace if e["type"] == "decide"]
    assert [(e["player"], e["prompt"]) for e in decides] == [(2, "Card to play"), (2, "Card to discard")]
    made, asked = decides
    path, line = made["at"].rsplit(":", 1)
    text = open(path, encoding="utf-8").read().splitlines()[int(line) - 1]
    assert text.strip().startswith("prefer") and made["label"] in VALUES
    rules = [line for line in GAME.splitlines() if line.strip().startswith("prefer ")]
    assert text.strip() == rules[made["rule"] - 1].strip()  # the rule the event names is the line it points at
    # the discard was asked by a choose (asked_at) and decided by the automaton's prefer (at)
    path, line = asked["at"].rsplit(":", 1)
    assert "prefer:" in open(path, encoding="utf-8").read().splitlines()[int(line) - 1]
    path, line = asked["asked_at"].rsplit(":", 1)
    assert "choose d from p.hand" in open(path, encoding="utf-8").read().splitlines()[int(line) - 1]
    assert asked["automaton"] == "bot"


def test_use_free_runs_the_effect_without_its_costs(robots):
    checked = 0
    for seed in range(1, 40):
        st, _ = play_out(robots, seed)
        coins = [st.counters.get(f"coins#{i}", 0) for i in range(2)]
        bot, human = titles(st, "table", 1)[0], titles(st, "table", 0)[0]
        # the automaton's Three or Four gains 2 or 3 coins, its cost of 5 not paid
        assert coins[1] == 5 + {"Three": 2, "Four": 3}.get(bot, 0)
        # the human's pays 5 for it
        assert coins[0] == 5 + {"Three": 2 - 5, "Four": 3 - 5}.get(human, 0)
        checked += bot in ("Three", "Four")
    assert checked > 5


def test_same_seed_same_decisions(robots):
    a, _ = play_out(robots, 11)
    b, _ = play_out(robots, 11)
    assert a.trace == b.trace


MENU = GAME.replace('''    win players[1]''', '''    choose by players[2] "Bonus":
      option "Take 1 point":
        score 1 to players[2]
      option "Take 2 coins":
        gain 2 coins to players[2]
    win players[1]''').replace('prefer: "select(option is none, 0, option.value)"',
                                  'prefer: "select(option == \\"Take 2 coins\\", 0, 1)"')


def test_a_menu_asked_of_the_automaton_is_made_by_its_prefer_over_labels(tmp_path):
    game = load(tmp_path, MENU)
    st = game.new_state(2, seed=1, trace=True)
    while not st.is_terminal():
        assert st.current_player == 0
        st.apply(0)
    bonus = [e for e in st.trace if e["type"] == "decide" and e["prompt"] == "Bonus"]
    assert [e["label"] for e in bonus] == ["Take 2 coins"]
    assert st.counters["coins#1"] >= 7


def test_a_prefer_that_gives_no_number_stops_the_game_at_its_line(tmp_path):
    game = load(tmp_path, GAME.replace('prefer: "select(option is none, 0, option.value)"', 'prefer: "option"'))
    st = game.new_state(2, seed=1)
    with pytest.raises(GameFault) as err:
        while not st.is_terminal():
            st.apply(0)
    assert "must give a number" in str(err.value)


@pytest.mark.parametrize("change, message", [
    (("seat: 2", "seat: 4"), "drives seat 4, but the game has 2 to 3 players"),
    (("prefer: \"select(", "prefer: \"selekt("), "unknown function 'selekt'"),
    (("prefer first(each x in p.hand", "prefer first(each x in p.hond"), "p.hond"),
    (("use c by p free", "use 3 by p free"), "the card whose action is used"),
])
def test_check_finds_the_mistakes(tmp_path, change, message):
    with pytest.raises(interpreter.LoadError) as err:
        load(tmp_path, GAME.replace(*change))
    assert message in str(err.value)


TAPPED = """\
kind: game
id: taps
title: Taps
players: {min: 2, max: 2}
zones:
  table: {scope: player, in_play: true}
counters:
  coins: {scope: player, supply: 50}
  charges: {scope: card, supply: 5}
  points: {scope: player}
score: points
automata:
  bot: {seat: 2}
procedures:
  game: |
    let bot = players[2]
    for each c in bot.table:
      add 1 to c.charges
    for each c in bot.table:
      log "{c.title} has {action_count(c)} actions"
    repeat 2 times:
      for each c in bot.table:
        use c by bot free
    win bot
"""

TAPPED_CARDS = """\
kind: cards
game: taps
per_player: true
start: table
cards:
  - {id: lamp, title: Lamp, abilities: ["action \\"Light\\" cost tap, pay 3 coins: gain 5 coins"]}
  - {id: wand, title: Wand, abilities: ["action \\"Zap\\" cost spend 1 charges: score 1", "action \\"Rest\\" if false: pass"]}
"""


def test_use_free_waives_pay_costs_only(tmp_path):
    game = load(tmp_path, TAPPED, TAPPED_CARDS)
    st = game.new_state(2, seed=1, trace=True)
    assert st.is_terminal()
    # twice round: the Lamp, tapped the first time, lights once; the Wand's one charge zaps once
    assert st.counters.get("coins#1", 0) == 5 and st.counters.get("points#1", 0) == 1
    used = [(e["card"], e.get("free")) for e in st.trace if e["type"] == "action"]
    assert used == [("lamp", True), ("wand", True)]
    assert [e["card"] for e in st.trace if e["type"] == "unused"] == ["lamp", "wand"]
    assert [e["text"] for e in st.trace if e["type"] == "log"] == ["Lamp has 1 actions", "Wand has 2 actions"]
