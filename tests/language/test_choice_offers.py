"""What each choice may offer, worked out before any game (language.offers): told right on a
small game, and never contradicted by what the shipped games offer when played."""
from __future__ import annotations

import random

import pytest

import interpreter
from interpreter.diagnostics import Position
from interpreter.engine.state import MenuPick, Pick
from interpreter.engine.values import Comp, NodeRef, Seat, Team
from interpreter.language.offers import offers, where
from interpreter.language.types import ANY, BOOL, COMPONENT, LIST, NODE, NONE, NUMBER, PLAYER, STRING, TEAM

from gamekit import make_game, source_line

PROCEDURES = """\
game:
  body: |
    let p = first(players)
    choose k from range(0, p.coins) by p "How many coins"
    choose q from opponents(p) by p optionally "Whom"
    choose c from deck by p "Which card"
    call pick_from(p, [each x in deck where x.value > 1])
    let seen = []
    for each n in range(3):
      set seen = seen + [n * 2]
    choose s from seen by p "Which even number"
    choose d from data.words by p "Which word"
    choose t from [c, c] by p "The same card twice"
    choose by p "A menu":
      option "Take {x}" for each x in [p.coins, 4]:
        pass
      option "Nothing":
        pass
pick_from:
  params: [who, cards]
  body: |
    choose c from cards by who "Which of these"
"""


def _offers_by_prompt(game) -> dict:
    """The prompt (or option label) of each choice -> what it may offer."""
    out = {}
    for (path, line, column), k in offers(game.program.defn).items():
        text = source_line(Position(path, line, column))
        out[text.split('"')[1]] = k
    return out


def _tiny(tmp_path, procedures=PROCEDURES):
    return make_game(tmp_path, procedures, functions="data:\n  words: [sun, moon, star]\n")


@pytest.fixture
def tiny(tmp_path):
    return _tiny(tmp_path)


def test_each_choice_offers_what_its_list_holds_and_numbers_their_bounds(tiny):
    got = _offers_by_prompt(tiny)
    # a counter with a supply of 10 and no ceiling holds at most its start and all of its supply
    assert (got["How many coins"].types, got["How many coins"].least, got["How many coins"].most) == \
        ({NUMBER}, 0, 10)
    assert got["Whom"].types == {PLAYER, NONE}  # optionally: none is offered too
    assert got["Which card"].types == {COMPONENT}
    # through a procedure's parameter: what its one call gives it
    assert got["Which of these"].types == {COMPONENT}
    # a local set again in a loop: every value any binding gives it
    assert (got["Which even number"].types, got["Which even number"].least, got["Which even number"].most) == \
        ({NUMBER}, 2, 6)
    assert got["Which word"].types == {STRING}  # a data table's values
    assert got["Take {x}"].types == {NUMBER} and got["Take {x}"].most == 10


def test_a_game_whose_choices_offer_only_numbered_values_has_no_position_block(tmp_path):
    from interpreter.rl.actions import ActionMap
    procedures = PROCEDURES.replace('    choose d from data.words by p "Which word"\n', "")
    am = ActionMap(_tiny(tmp_path, procedures).program, 2)
    assert am.position is None and am.needs_position == []
    assert [b[0] for b in am.blocks] == ["pick", "menu", "use", "yes", "no"]


def test_a_choice_of_texts_gives_the_game_a_position_block_and_names_it(tiny):
    from interpreter.rl.actions import POSITIONS, ActionMap
    am = ActionMap(tiny.program, 2)
    assert am.position is not None and am.blocks[-1] == ("position", am.position, POSITIONS, am.blocks[-1][3])
    assert [source_line(p).strip() for p in am.needs_position] == ['choose d from data.words by p "Which word"']
    st = tiny.new_state(2, seed=1)
    while st.pending is not None and st.pending.pos not in am.needs_position:
        st.apply(0)
    assert st.pending is not None  # the choice of words, numbered by position
    assert am.numbers(st) == [am.position + i for i in range(len(st.legal_actions()))]


def test_the_same_value_offered_twice_has_the_same_number_and_the_same_effect(tiny):
    from interpreter.rl.actions import ActionMap
    am = ActionMap(tiny.program, 2)
    st = tiny.new_state(2, seed=1)
    while st.pending is not None and "twice" not in st.pending.prompt:
        st.apply(0)
    numbers = am.numbers(st)
    assert len(numbers) == 2 and numbers[0] == numbers[1] and numbers[0] < am.position
    first, second = st.clone(), st.clone()
    first.apply(0)
    second.apply(1)
    assert first.observation(0) == second.observation(0)


# -- the fence: what random games offer is always within what the analysis says ---------------

CONFIGS = [("karman-swap", ()), ("seeders-exodus", ()), ("seeders-exodus", ("tais", "etho", "hanks")),
           ("seeders-exodus", ("solo",)), ("etherium", ())]


# the type of the language each kind of value the engine offers is
_TYPE_OF = {Comp: COMPONENT, Seat: PLAYER, NodeRef: NODE, Team: TEAM, type(None): NONE, bool: BOOL, str: STRING,
            int: NUMBER}


def _fits(value, k, program) -> bool:
    """Whether `value`, offered by a choice, is one of the values `k` says it may offer."""
    if ANY in k.types:
        return True
    if _TYPE_OF.get(type(value), LIST) not in k.types:
        return False
    if type(value) is Comp:  # a component of one of the kinds said
        return k.cards is None or program.comp_card[int(value)].component in k.cards
    return type(value) is not int or ((k.least is None or k.least <= value) and (k.most is None or value <= k.most))


@pytest.mark.parametrize("game_id, expansions", CONFIGS)
def test_no_value_a_played_choice_offers_is_outside_what_was_worked_out(game_id, expansions):
    game = interpreter.load(game_id, expansions=expansions)
    table = offers(game.program.defn)
    checked = set()
    for players in (game.min_players, game.max_players):
        for seed in range(3):
            st = game.new_state(players, seed)
            rng = random.Random(seed)
            steps = 0
            while not st.is_terminal() and steps < 600:
                d = st.pending
                for e in d.entries:
                    if type(e) is Pick:
                        pos, value = d.pos, e.value
                    elif type(e) is MenuPick and d.spec.options[e.option].var is not None:
                        pos, value = d.spec.options[e.option].pos, e.value
                    else:
                        continue
                    k = table.get(where(pos))
                    if k is None:  # a choice the compiler makes itself (a cost's sacrifice)
                        continue
                    assert _fits(value, k, game.program), (str(pos), value, k)
                    checked.add(where(pos))
                st.apply(rng.randrange(len(st.legal_actions())))
                steps += 1
    assert len(checked) >= 5  # choices of several kinds were met and checked


KINDS = """\
game:
  body: |
    let p = first(players)
    for each c in deck:
      move c to p.hand
    choose h from p.hand by p "From the hand"
    choose t from pile by p "From the pile"
    let z = zone_of(first(pile))
    move first(p.hand) to z
    choose m from [each x in p.hand where x is Marked or x is Sun] by p "Marked or Sun"
    choose n from [each x in p.hand where x is Marked] by p "Marked"
"""

TOKENS = """\
kind: cards
game: tiny
component: token
start: pile
cards:
  - {id: coin, title: Coin, copies: 2}
"""


def _with_tokens(tmp_path, procedures):
    """The tiny game with a second kind of component, tokens, starting in the pile."""
    make_game(tmp_path, procedures, functions="components:\n  card: {attributes: [value, suit]}\n  token: {}\n")
    (tmp_path / "tiny" / "tokens.yaml").write_text(TOKENS, encoding="utf-8")
    return interpreter.load(str(tmp_path / "tiny"))


def test_a_zone_holds_the_kinds_of_component_that_start_or_are_moved_there(tmp_path):
    got = _offers_by_prompt(_with_tokens(tmp_path, KINDS))
    assert got["From the hand"].cards == {"card"}  # cards start in the deck and are moved to hands
    # a card moved to the zone where a token lies: the pile may hold both
    assert got["From the pile"].cards == {"card", "token"}


def test_a_class_no_rule_tags_narrows_a_choice_to_the_kinds_printed_with_it(tmp_path):
    got = _offers_by_prompt(_with_tokens(tmp_path, KINDS))
    assert got["Marked or Sun"].cards == {"card"}  # Sun is printed on cards; no card prints Marked
    assert got["Marked"].cards == frozenset()
    tagged = KINDS + "    tag first(pile) as Marked\n"
    (tmp_path / "again").mkdir()
    got = _offers_by_prompt(_with_tokens(tmp_path / "again", tagged))
    assert got["Marked"].cards == {"card"}  # a rule may tag any component with it: all the hand may hold
