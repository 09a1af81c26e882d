"""How counters are named to a seat: a team of one player as that player, and a noun's number
as each language counts it ('0 gemme' in French, '0 gems' in English)."""
from __future__ import annotations

import io

import pytest

import interpreter
from interpreter.play.web.views import TableView
from interpreter.view.narrate import Narrator, counter_lines, counter_name
from interpreter.view.narrate_words import words_in


@pytest.fixture(scope="module")
def karman():
    return interpreter.load("karman-swap")


def test_a_team_of_one_player_is_told_as_that_player(karman):
    """At 3 players each Karman Swap team is one player: 'player 2's research gems', not
    'team 2's', which names no one the seat knows; at 4 players a team is still a team."""
    program = karman.program
    assert counter_name(program, "research#t1", 0, players=3, vocabulary=True) == "player 2's research gems"
    assert counter_name(program, "research#t0", 0, players=3, vocabulary=True) == "your research gems"
    assert counter_name(program, "research#t1", 0, players=3, vocabulary=True,
                        lang="fr") == "les gemmes de recherche du joueur 2"
    assert counter_name(program, "research#t1", 0, players=4, vocabulary=True) == "team 2's research gems"
    assert counter_name(program, "research#t0", 0, players=4, vocabulary=True) == "your team's research gems"


def test_a_team_of_one_player_s_counters_are_in_that_player_s_line(karman):
    obs = karman.new_state(3, 1, {}).observation(0)
    obs["counters"].update({"research#t1": 2, "research#t0": 3})
    lines = counter_lines(karman.program, obs)
    assert not any(line.startswith(("  team", "  your team")) for line in lines), lines
    [theirs] = [line for line in lines if line.startswith("  player 2:")]
    assert "research gems 2" in theirs, theirs
    [mine] = [line for line in lines if line.startswith("  you:")]
    assert "research gems 3" in mine, mine
    four = karman.new_state(4, 1, {}).observation(0)
    four["counters"]["research#t1"] = 2
    assert any(line.startswith("  team 2:") and "research gems 2" in line
               for line in counter_lines(karman.program, four))


def test_the_table_marks_a_team_s_counters_only_where_a_team_has_several_players(karman):
    def marked(players):
        st = karman.new_state(players, 1, {})
        view = TableView(st, None, None, 0)
        return {c["name"] for c in view.seat_counters(0) if c.get("team")}
    assert marked(2) == set()
    assert "research gems" in marked(4)


@pytest.mark.parametrize("lang, counts", [
    ("en", {0: True, 1: False, -1: False, 2: True, -3: True}),
    ("fr", {0: False, 1: False, -1: False, 2: True, -3: True}),
])
def test_each_language_counts_its_plural(lang, counts):
    plural = words_in(lang).plural
    assert {n: plural(n) for n in counts} == counts
    assert plural(None)  # no count: a kind, in the plural


def test_a_counter_fallen_to_nought_is_told_in_the_singular_in_french(karman):
    """« la gemme de recherche du joueur 2 : -3 (0 maintenant) », as French counts 0; English
    keeps 'player 2's research gems: -3 (now 0)'."""
    st = karman.new_state(3, 1, {}, trace=True)
    told = {lang: (io.StringIO(), None) for lang in ("en", "fr")}
    told = {lang: (out, Narrator(st, 0, out, lang=lang)) for lang, (out, _) in told.items()}
    for _, narrator in told.values():
        narrator.flush()
    spec = karman.program.counters["research"]
    st.add("research#t1", spec, 3, None)
    st.add("research#t1", spec, -3, None)
    text = {}
    for lang, (out, narrator) in told.items():
        out.seek(0), out.truncate()
        narrator.flush()
        text[lang] = out.getvalue().splitlines()
    assert [line.strip() for line in text["fr"]] == ["les gemmes de recherche du joueur 2 : +3 (3 maintenant)",
                                                      "la gemme de recherche du joueur 2 : -3 (0 maintenant)"]
    assert [line.strip() for line in text["en"]] == ["player 2's research gems: +3 (now 3)",
                                                      "player 2's research gems: -3 (now 0)"]
