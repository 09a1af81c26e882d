"""`regles why TRACE --at EVENT MOVE`, and `why MOVE` at a prompt of `regles play`: the
answer of engine.why printed with the file, line and text of the condition."""
from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

import interpreter
from interpreter.play.agents import HumanAgent
from interpreter.cli import main
from interpreter.play.terminal import play_at_terminal
from interpreter.rulings.trace import save_state_trace, source_of

from gamekit import FIXTURES

WORKSHOP = str(FIXTURES / "workshop")


def workshop_trace(tmp_path, moves=("Rest", "Rest", "Rest", "Stop")):
    """A trace of the workshop in which player 1 rests three times (coins 2 to 5), then stops."""
    g = interpreter.load(WORKSHOP)
    st = g.new_state(2, 0, trace=True)
    for move in moves:
        st.apply(move)
    path = tmp_path / "workshop.jsonl"
    save_state_trace(path, g, st, source=source_of(g, WORKSHOP))
    return path, [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[1:]]


def run(capsys, *argv):
    status = main(list(argv))
    got = capsys.readouterr()
    return status, got.out, got.err


def choice_events(events, label):
    return [ev["n"] for ev in events if ev["type"] == "choice" and ev["label"] == label]


def test_why_names_the_guard_its_line_and_a_caret(tmp_path, capsys):
    path, events = workshop_trace(tmp_path)
    stop = choice_events(events, "Stop")[0]  # the decision 'Stop' answered: coins are 5
    status, out, err = run(capsys, "why", str(path), "--at", str(stop), "Rest")
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0] == "at event %d: player 1 is asked 'Your turn' (%s)" % (stop, lines[0].split("(")[-1][:-1])
    assert lines[1] == "'Rest' is not offered: you.coins < 5 is false: you.coins is 5"
    assert lines[2].strip().endswith("workshop/game.yaml:54:28")
    assert lines[3].strip() == 'option "Rest" if you.coins < 5:'
    assert lines[4].index("^") == lines[3].index("you.coins") and lines[4].strip() == "^" + "~" * 12


def test_why_at_an_earlier_event_finds_the_move_offered(tmp_path, capsys):
    path, events = workshop_trace(tmp_path)
    first = choice_events(events, "Rest")[0]
    status, out, _ = run(capsys, "why", str(path), "--at", str(first), "Rest")
    assert status == 0
    assert out.splitlines()[1] == "'Rest' is offered now: option 2 of 'Your turn'"


def test_why_as_a_seat_tells_nothing_hidden(tmp_path, capsys):
    path, events = workshop_trace(tmp_path)
    at = str(choice_events(events, "Stop")[0])
    _, out, _ = run(capsys, "why", str(path), "--at", at, "Build Saw")
    assert "Saw is not in you.hand (it is in deck)" in out
    _, out, _ = run(capsys, "why", str(path), "--at", at, "--seat", "1", "Build Saw")
    assert "Saw is not in you.hand\n" in out and "deck)" not in out
    _, out, _ = run(capsys, "why", str(path), "--at", at, "--seat", "2", "Rest")
    assert "it is player 1's decision now ('Your turn'), not yours" in out  # asked as seat 2
    assert out.startswith(f"at event {at}: player 1 is asked 'Your turn'")
    _, out, _ = run(capsys, "why", str(path), "--at", at, "--seat", "1", "Rest")
    assert out.startswith(f"at event {at}: you are asked 'Your turn'")


def test_why_at_the_end_of_the_game(tmp_path, capsys):
    path, events = workshop_trace(tmp_path)
    status, out, _ = run(capsys, "why", str(path), "--at", str(len(events) - 1), "Rest")
    assert status == 0 and "the game is over: no move is possible" in out


@pytest.mark.parametrize("args,message", [
    (["--at", "999", "Rest"], "--at 999: the trace has"),
    (["--at", "-1", "Rest"], "--at -1: the trace has"),
    (["--at", "3", "--seat", "3", "Rest"], "--seat is a seat from 1 to 2, not 3"),
])
def test_why_usage_errors_exit_2(tmp_path, capsys, args, message):
    path, _ = workshop_trace(tmp_path)
    status, out, err = run(capsys, "why", str(path), *args)
    assert status == 2 and message in err and out == ""


def test_why_refuses_what_is_no_trace(tmp_path, capsys):
    status, _, err = run(capsys, "why", str(tmp_path / "missing.jsonl"), "--at", "1", "Rest")
    assert status == 2 and "no such trace file" in err
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"not": "a trace"}\n', encoding="utf-8")
    status, _, err = run(capsys, "why", str(bad), "--at", "1", "Rest")
    assert status == 2 and "not a regles trace" in err
    status, _, err = run(capsys, "why", str(bad), "Rest")
    assert status == 2 and "--at" in err


@pytest.mark.rule("SX-INT-3")
def test_why_on_a_seeders_trace_names_the_cost_of_a_card_too_dear(tmp_path, capsys):
    """A game of random choices, up to an integration turn where a card in hand costs more than
    the player has: `why` names `can_integrate`'s cost condition at its line."""
    g = interpreter.load("seeders-exodus")
    st = g.new_state(2, 5, trace=True)
    rng = random.Random(5)
    dear = None
    while dear is None and not st.is_terminal():
        if st.prompt == "Integration":
            seat = st.current_player
            wealth = st.counters.get(f"resource#{seat}", 0) + sum(
                st.counters.get(f"stored#{int(m)}", 0) for m in st.zones.get(f"ark#{seat}", []))
            cost = g.program.comp_attrs["cost"]
            dear = next((c for c in st.zones.get(f"hand#{seat}", []) if cost[c] > wealth), None)
            if dear is not None:
                break
        st.apply(rng.choice(st.legal_actions()))
    assert dear is not None, "no integration turn with a card too dear: choose another seed"
    title = g.program.comp_card[dear].title
    at = len(st.trace)  # the choice that answers this decision comes next
    st.apply(rng.choice(st.legal_actions()))
    path = tmp_path / "seeders.jsonl"
    save_state_trace(path, g, st)
    status, out, err = run(capsys, "why", str(path), "--at", str(at), f"Integrate {title}")
    assert status == 0, err
    lines = out.splitlines()
    assert "is asked 'Integration'" in lines[0]
    assert lines[1].startswith(f"'Integrate {title} (") and "c.cost <= wealth(p) is false: c.cost is" in lines[1]
    assert f"in can_integrate(you, c), where p is player {st.trace[at]['player']}, c is {title}" in lines[1]
    source = (Path(g.program.defn.file)).read_text(encoding="utf-8").splitlines()
    where = next(i for i, text in enumerate(source, 1) if 'body: "c.cost <= wealth(p) and' in text)
    assert lines[2].strip().endswith(f"seeders-exodus/game.yaml:{where}:12")
    assert "c.cost <= wealth(p) and" in lines[3]


# play --------------------------------------------------------------------------------------

def play(answers):
    g = interpreter.load(WORKSHOP)
    out = io.StringIO()
    human = HumanAgent(io.StringIO(answers), out)
    status = play_at_terminal(g, 2, 1, g.options(), ["greedy"], seat=0, human=human, out=out)
    return status, out.getvalue()


def test_why_at_a_prompt_of_play_answers_and_asks_again():
    status, text = play("why Build Anvil\nwhy use Saw\nwhy\n2\nq\n")
    assert status == 0
    assert ("  'Build Anvil (5)' is not offered: c.value <= p.coins is false: c.value is 5, p.coins is 2; "
            "in affordable(you, c), where p is you, c is Anvil\n") in text  # the seat told is 'you'
    assert 'body: "c.value <= p.coins and count(p.bench) < 3"' in text
    # the saw is in the hidden deck: the person is not told where it is
    assert "  'Cut' is not possible: Saw is not in play under your control\n" in text
    assert "why what?" in text
    # the prompt is asked again after each answer, and the other commands still work
    assert text.count("your choice (1-5, q to quit): ") == 5
    assert "You chose: Rest" in text and "Game left unfinished." in text


# Inside the game functions a condition calls --------------------------------------------

FUNCTIONS = """\
functions:
  playable:
    description: "The cards of a hand worth more than its player's coins."
    params: [p]
    body: "[each c in p.hand where c.value > p.coins]"
  choices_of:
    params: [p]
    body: "playable(p)"
"""

TURN = """\
game: |
  gain 2 coins to players[1]
  move card("one") to players[1].hand
  move card("two") to players[1].hand
  call turn(players[1])
turn:
  params: [player]
  acting: player
  body: |
    choose by you "Your turn":
      option "Play" if count(choices_of(you)) > 0 or you.coins > 5:
        pass
      option "Pass":
        pass
      option "Wait":
        pass
"""


def test_why_looks_inside_the_game_functions_a_condition_calls(tmp_path):
    from gamekit import make_game
    game = make_game(tmp_path, TURN, functions=FUNCTIONS)
    st = game.new_state(2, 0)
    assert st.pending.labels_for(st) == ["Pass", "Wait"]
    answer = st.why_not("Play")
    assert not answer.legal
    said = str(answer)
    # each side of the `or`, with its values
    assert "count(choices_of(you)) is 0" in said and "you.coins is 2" in said
    # into choices_of, then playable, its description, and each card it leaves out and why
    assert "choices_of(you), where p is player 1, is playable(p)" in said
    assert ("playable(p), where p is player 1, (The cards of a hand worth more than its player's coins) "
            "leaves out One: c.value > p.coins is false (c.value is 1, p.coins is 2); "
            "Two: c.value > p.coins is false (c.value is 2, p.coins is 2)") in said


def test_why_names_the_rule_ids_of_the_procedure_the_choice_is_asked_in(tmp_path):
    from gamekit import make_game
    from interpreter.view.why import lines as why_lines, said as why_said
    game = make_game(tmp_path, TURN.replace("turn:\n  params:", "turn:\n  rules: [T-1, T-2]\n  params:"),
                     functions=FUNCTIONS)
    st = game.new_state(2, 0)
    answer = st.why_not("Play")
    assert (answer.rules, answer.rules_of) == (("T-1", "T-2"), "procedure turn")
    lines = why_lines(why_said(answer, game.program.sources))
    assert lines[-1] == "  rules of procedure turn, where the choice is asked: T-1, T-2"
    assert st.why_not("Pass").rules == ()  # a legal move: nothing to look up


def test_the_english_answer_names_a_zone_as_the_log_does():
    """Where the card asked for lies is said as the log and the screen name the zone ("player
    2's hand", "your hand" to its owner), not by the zone's key ("hand of player 2"), in English
    as in French."""
    from interpreter.view.why import said
    game = interpreter.load("karman-swap")
    st = game.new_state(2, 0)
    rng = random.Random(0)
    while st.pending.kind.value != "choose" or not any(
            "(it is in" in st.why_not(st.program.comp_card[c].title).reason
            for c, z in enumerate(st.where) if z is not None and "hand" in str(z)):
        st.apply(rng.randrange(len(st.legal_actions())))
    c = next(c for c, z in enumerate(st.where) if z is not None and "hand" in str(z)
             and "(it is in" in st.why_not(st.program.comp_card[c].title).reason)
    answer = st.why_not(st.program.comp_card[c].title)
    owner = int(str(st.where[c]).split("#")[1])
    assert f"(it is in player {owner + 1}'s hand)" in said(answer, {}, st.program, "en")["answer"]
    assert "(it is in your hand)" in said(answer, {}, st.program, "en", seat=owner)["answer"]
    assert f"(dans la main du joueur {owner + 1})" in said(answer, {}, st.program, "fr")["answer"]


def test_the_french_rules_line_spells_the_keyword_with_its_article():
    """The rules of a keyword are « règles du mot-clé … » (not « de le »): the sentence's words
    are spelt as French writes them around the keyword's name."""
    from interpreter.view.why import said
    game = interpreter.load("karman-swap")
    rng = random.Random(0)
    for seed in range(10):
        st = game.new_state(2, seed)
        while not st.is_terminal():
            answer = st.why_not("No such move")
            if answer.rules and getattr(answer.rules_of, "key", "") == "rules_of_keyword":
                fr = said(answer, {}, st.program, "fr")["rules"]
                assert fr.startswith("règles du mot-clé « ") and "de le" not in fr
                assert said(answer, {}, st.program, "en")["rules"].startswith("rules of keyword '")
                return
            st.apply(rng.randrange(len(st.legal_actions())))
    pytest.fail("no decision asked within a keyword's rules in ten games")
