"""Etherium rules that are awkward as rules-test YAML: the secrecy of the
programming panel in what each seat observes, the connection limit on a real
programming menu, the reveal, and random games with every invariant checked.

Each test names the rule IDs of ../shared/rules/etherium.md it checks.
"""
from __future__ import annotations

import pytest

import interpreter
from interpreter.tools import simulate as S

rule = pytest.mark.rule


@pytest.fixture(scope="module")
def game():
    return interpreter.load("etherium")


def to_programming(st) -> None:
    """Answer every decision (the first option each time) up to the first programming menu."""
    while not st.prompt.startswith("Action of token"):
        st.apply(len(st.labels()) - 1 if "Done" in st.labels() or "Decline" in st.labels() else 0)


@rule("ET-RND-4")
def test_the_panel_is_seen_by_its_owner_only(game):
    st = game.new_state(players=2, seed=5)
    to_programming(st)
    first = st.current_player
    other = 1 - first
    for label in ("Connect", "Collect on a forest space", "Increase the army", "Transform: booster"):
        assert st.current_player == first
        st.apply(label)
    assert st.current_player == other and st.prompt.startswith("Action of token")
    mine, theirs = st.observation(first), st.observation(other)
    panel = f"panel#{first}"
    assert [x["card"] for x in mine["zones"][panel]] == ["token-1", "token-2", "token-3", "token-4"]
    assert theirs["zones"][panel] == {"count": 4}
    # the parameters on the tokens are in no other seat's observation
    assert not any(k.startswith(("plan_act#", "plan_arg#")) for k in theirs["counters"])
    # nothing was revealed: the public counters of the tokens are still blank
    assert all(v == 0 for k, v in theirs["counters"].items() if k.startswith(("act#", "arg#")))


@rule("ET-RND-5")
def test_the_reveal_makes_the_programme_public(game):
    st = game.new_state(players=2, seed=5)
    to_programming(st)
    first = st.current_player
    for label in ("Increase the army",) * 4:
        st.apply(label)
    while st.prompt.startswith("Action of token"):
        st.apply("Increase the collector")
    # the first decision of the execution (a Flash card, a resource...) comes after the reveal
    other = 1 - first
    obs = st.observation(other)
    shown = {k: v for k, v in obs["counters"].items() if k.startswith("act#")}
    assert sorted(shown.values()) == [3] * 8


@rule("ET-ACT-5", "ET-RND-4")
def test_at_most_two_connections_per_season(game):
    st = game.new_state(players=2, seed=9)
    to_programming(st)
    assert "Connect" in st.labels()
    st.apply("Connect")
    assert "Connect" in st.labels()
    st.apply("Connect")
    assert "Connect" not in st.labels()
    assert "Increase the guide" in st.labels() and "Move a unit to ether" in st.labels()


@rule("ET-RND-5", "ET-END-1")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_without_errors(game, players, tmp_path):
    spec = S.RunSpec("etherium", players, 7, 5, ["random"] * players, game.options(), check=True,
                     trace_dir=str(tmp_path))
    results, _ = S.run(game, spec)
    assert [r.error for r in results if r.error] == []
    assert len(results) == 5 and all(r.decisions > 0 for r in results)
