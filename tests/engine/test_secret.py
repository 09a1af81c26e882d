"""Secret choices: `choose ... secretly` (and a secret menu): what a seat picks is told to no
other seat, in play's narration or its observation, until the rules reveal what came of it;
the trace keeps it (a replay needs it) and marks it secret."""
from __future__ import annotations

import io

import pytest

import interpreter
from interpreter.view.narrate import Narrator

from gamekit import FIXTURES

@pytest.fixture(scope="module")
def bids():
    return interpreter.load(str(FIXTURES / "bids"))


def test_a_secret_choice_is_told_to_nobody_else_until_revealed(bids):
    st = bids.new_state(2, seed=1, trace=True)
    out = io.StringIO()
    told = Narrator(st, 0, out)
    st.apply("High")
    st.apply("Stake 2")
    # seat 2 decides: seat 1's observation has no options, and seat 2's has its own
    assert "options" not in st.observation(0) and st.observation(1)["options"] == ["Low", "Mid"]
    told.flush()
    st.apply("Mid")
    st.apply("Stake 1")
    told.flush()
    text = out.getvalue()
    assert "You chose: High" in text and "You chose: Stake 2" in text
    # what seat 2 picked is never told, though the prompt is
    assert "Player 2 chose secretly  [asked: 'Your sealed bid']" in text
    assert "Player 2 chose secretly  [asked: 'Your stake']" in text
    assert "Stake 1" not in text
    # the bids are revealed by the rules, and then told
    assert "revealed: Mid" in text and "revealed: High" in text
    assert text.index("Player 2 chose secretly  [asked: 'Your sealed bid']") < text.index("revealed: Mid")
    assert st.scores() == [6, 2] and st.winners == (0,)


def test_the_trace_keeps_secret_choices_marked(bids):
    st = bids.new_state(2, seed=1, trace=True)
    for label in ["Low", "Stake 1", "High", "Stake 2"]:
        st.apply(label)
    choices = [(e["player"], e["label"], e.get("secret")) for e in st.trace if e["type"] == "choice"]
    assert choices == [(1, "Low", True), (1, "Stake 1", True), (2, "High", True), (2, "Stake 2", True)]


def test_a_narrator_for_all_seats_tells_the_secrets(bids):
    st = bids.new_state(2, seed=1, trace=True)
    for label in ["Low", "Stake 1", "High", "Stake 2"]:
        st.apply(label)
    out = io.StringIO()
    Narrator(st, None, out).flush()
    assert "Player 2 chose: 'High'" in out.getvalue() and "secretly" not in out.getvalue()


def test_a_counter_on_a_component_is_seen_by_whoever_controls_it(bids):
    st = bids.new_state(2, seed=1)
    st.apply("High")
    [key] = [k for k in st.counters if k.startswith("mark")]
    assert key in st.observation(0)["counters"]
    assert key not in st.observation(1)["counters"]
