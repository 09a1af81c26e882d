"""The engine on small games written for the test: semantics of the language at run time,
guards against runaway content, and the generic-engine contract."""
from __future__ import annotations

import json
import textwrap

import pytest

import interpreter
from interpreter import LoadError
from interpreter.engine.state import GameFault

from gamekit import CARDS, GAME as GAME_TEMPLATE, make_game, source_line

def test_runaway_loop_is_stopped_naming_itssource_line(tmp_path):
    game = make_game(tmp_path, "game: |\n  repeat:\n    add 1 to ticks\n")
    game.program.step_budget = 20_000  # the default is larger; the guard is the same
    with pytest.raises(GameFault) as err:
        game.new_state(players=2)
    assert "runaway rules" in err.value.message
    assert err.value.pos.path.endswith("game.yaml")
    assert source_line(err.value.pos).strip() in ("add 1 to ticks", "repeat:")


def test_any_and_all_count_player_1_and_the_first_component_as_members(tmp_path):
    """`any(each ...)` says whether a list has a member: player 1 (seat 0) and component 0 are
    members like any other (Python's truth of the index 0 made them false)."""
    game = make_game(tmp_path, textwrap.dedent("""\
        game: |
          if any(each p in players where p == first(players)):
            add 1 to ticks
          if any(each c in deck where c == first(deck)):
            add 10 to ticks
          if all(each p in players where p == first(players)):
            add 100 to ticks
          if any([first(players)]):
            add 1000 to ticks
          if not any(each p in players where p != p):
            add 10000 to ticks
          win first(players)
        """))
    st = game.new_state(players=2, seed=1)
    assert int(st.program.comps[0]) == 0 and st.where[0] is not None  # component 0 lies in the deck
    assert st.counters["ticks"] == 11111


def test_endless_recursion_is_stopped(tmp_path):
    game = make_game(tmp_path, "game: |\n  call again\nagain: |\n  call again\n")
    with pytest.raises(GameFault) as err:
        game.new_state(players=2)
    assert "too deeply" in err.value.message
    assert source_line(err.value.pos).strip() == "call again"


def test_supply_limits_gains_and_keep_in_returns_tokens(tmp_path):
    game = make_game(tmp_path, textwrap.dedent("""\
        game: |
          gain 7 coins to players[1]
          gain 7 coins to players[2]
          let c = card("one")
          move c to players[1].table
          add 5 to c.tokens
          move c to pile
        """))
    st = game.new_state(players=2)
    assert st.counters["coins#0"] == 7 and st.counters["coins#1"] == 3  # only 10 in the supply
    assert st.counters["$coins"] == 0
    assert st.counters["tokens#0"] == 0 and st.counters["$tokens"] == 3  # 3 given, all back


def test_team_counters_are_shared_by_partners(tmp_path):
    game = make_game(tmp_path, "game: |\n  gain 2 gems to players[1]\n  gain 3 gems to players[3]\n  gain 1 gems to players[2]\n")
    st = game.new_state(players=4)
    assert st.counters["gems#t0"] == 5 and st.counters["gems#t1"] == 1


def test_choices_clone_and_json_round_trip(tmp_path):
    game = make_game(tmp_path, textwrap.dedent("""\
        game: |
          move deck to players[1].hand
          repeat 3 times:
            choose c from players[1].hand by players[1] "Card to play"
            move c to players[1].table
            signal played(c)
          choose by players[1] "Then":
            option "Score {count(players[1].table)}":
              score count(players[1].table) to players[1]
            option actions during main
          win players[1]
        """))
    st = game.new_state(players=2, seed=3)
    assert st.current_player == 0 and st.labels() == ["One", "Two", "Three", "Four"]
    twin = st.clone()
    st.apply("Three")
    assert st.counters["coins#0"] == 1  # its 'when played' ability ran
    assert twin.counters["coins#0"] == 0 and twin.labels() == ["One", "Two", "Three", "Four"]
    saved = json.loads(json.dumps(st.to_json()))
    restored = game.state_from_json(saved)
    for s in (st, restored):
        s.apply("Four")
        s.apply("One")
    assert st.to_json() == restored.to_json()
    assert st.labels() == ["Score 3", "Cash in"]
    st.apply(1)  # the action of Four: tap it, gain 2 coins
    assert st.counters["coins#0"] == 3 and st.is_terminal() and st.returns() == [1.0, -1.0]


def test_a_procedure_acts_for_the_player_its_acting_parameter_names(tmp_path):
    game = make_game(tmp_path, textwrap.dedent("""\
        game: |
          call turn(players[2], 1)
        turn:
          params: [player, n]
          acting: player
          body: |
            choose c from deck
            move c to you.hand
            gain n coins
            call count_up(2)
        count_up:
          params: [n]
          body: |
            gain n coins
        """))
    st = game.new_state(players=2)
    assert st.current_player == 1  # the choice of 'turn' is asked of the player it acts for
    st.apply(0)
    assert len(st.zones["hand#1"]) == 1 and not st.zones.get("hand#0")
    assert st.counters["coins#1"] == 3 and st.counters["coins#0"] == 0  # 'count_up' acted for its caller


def test_a_procedure_without_acting_player_called_by_the_game_acts_for_no_one(tmp_path):
    game = make_game(tmp_path, textwrap.dedent("""\
        game: |
          call count_up(3)
        count_up:
          params: [n]
          body: |
            gain n coins
        """))
    with pytest.raises(GameFault, match="`you` is none here: it has no counter 'coins'"):
        game.new_state(players=2)


def test_a_parameter_named_you_is_refused_with_the_way_to_declare_it(tmp_path):
    with pytest.raises(LoadError) as err:
        make_game(tmp_path, textwrap.dedent("""\
            game: |
              call turn(players[1])
            turn:
              params: [you]
              body: |
                gain 1 coins
            """))
    text = str(err.value)
    assert "parameter 'you' of procedure 'turn' has a reserved name" in text
    assert "acting: player" in text


def test_acting_names_a_parameter(tmp_path):
    with pytest.raises(LoadError) as err:
        make_game(tmp_path, textwrap.dedent("""\
            game: |
              call turn(players[1])
            turn:
              params: [player]
              acting: playr
              body: |
                gain 1 coins
            """))
    assert "procedure 'turn' acts for 'playr', which is not one of its parameters" in str(err.value)
    assert "did you mean 'player'?" in str(err.value)


def test_optional_trigger_asks_and_exit_unwinds(tmp_path):
    cards = CARDS.replace('"when played: gain 1 coins"', '"when played optionally: gain 1 coins"')
    game = make_game(tmp_path, textwrap.dedent("""\
        game: |
          call inner
          score 1 to players[2]
        inner: |
          move card("three") to players[1].table
          signal played(card("three"))
          exit inner
          score 100 to players[1]
        """), cards)
    st = game.new_state(players=2)
    assert st.prompt.startswith("use Three") and st.labels() == ["yes", "no"]
    st.apply("no")
    assert st.is_terminal()
    assert st.counters["coins#0"] == 0 and st.counters["points#0"] == 0 and st.counters["points#1"] == 1


def test_same_seed_same_shuffle(tmp_path):
    game = make_game(tmp_path, "game: |\n  shuffle deck\n  choose c from deck by players[1]\n")
    a, b = (game.new_state(players=2, seed=s) for s in (5, 5))
    assert a.labels() == b.labels() and a.to_json() == b.to_json()
    orders = {tuple(game.new_state(players=2, seed=s).labels()) for s in range(12)}
    assert len(orders) > 1  # the seed matters


def test_load_error_has_a_report(tmp_path):
    with pytest.raises(LoadError) as err:
        make_game(tmp_path, "game: |\n  gain 1 coinz\n")
    assert "unknown counter 'coinz'" in str(err.value)


def test_declared_invariants_are_checked(tmp_path):
    from interpreter.engine.invariants import InvariantError, Invariants
    game = make_game(tmp_path, textwrap.dedent("""\
        game: |
          add 1 to ticks
          choose c from deck by players[1]
          add 5 to ticks
          choose c from deck by players[1]
        """))
    game_file = tmp_path / "tiny" / "game.yaml"
    game_file.write_text(game_file.read_text(encoding="utf-8").replace(
        "score: points\n", "score: points\ninvariants:\n  - \"ticks < 3\"\n"), encoding="utf-8")
    game = interpreter.load(str(tmp_path / "tiny"))
    st = game.new_state(players=2)
    inv = Invariants(st)  # holds at the start: ticks is 1
    st.apply(0)
    with pytest.raises(InvariantError) as err:
        inv.check(st)
    assert "the game's invariant 'ticks < 3'" in str(err.value) and "game.yaml" in str(err.value)


def test_equality_in_the_language(tmp_path):
    from interpreter.engine.library import same as _same
    from interpreter.engine.values import Comp, Seat
    assert _same("Module", "module") and _same("Équipage", "equipage")
    assert not _same(Comp(0), 0) and not _same(Seat(0), Comp(0)) and not _same(True, 1)
    assert _same([Seat(0), Seat(1)], (Seat(0), Seat(1))) and not _same([Seat(0)], (Seat(1),))
    game = make_game(tmp_path, textwrap.dedent("""\
        game: |
          move card("one") to pile
          move card("two") to pile
          move card("one") to pile
        """))
    st = game.blank_state(players=2)
    assert st.counters["$coins"] == 10 and type(st.counters["$coins"]) is int
    st = game.new_state(players=2)
    assert [st.program.comp_card[c].id for c in st.zones["pile"]] == ["two", "one"]  # moved again: on top


def test_out_of_play_holders_and_owned_pieces_on_the_board(tmp_path):
    from interpreter.engine import machine as vm
    game = make_game(tmp_path, "game: |\n  pass\n")
    folder = tmp_path / "tiny"
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    text = text.replace("  pile: {scope: game}\n", "  pile: {scope: game}\n  inside: {scope: card, in_play: true}\n"
                        "  secret: {scope: card, visibility: owner}\n")
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    (folder / "pawns.yaml").write_text("kind: cards\ngame: tiny\ncomponent: card\nstart: hand\nper_player: true\n"
                                       "cards:\n  - {id: pawn, title: Pawn}\n", encoding="utf-8")
    game = interpreter.load(str(folder))
    st = game.blank_state(players=2)
    g = st.program
    one, two = (g.cards_by_id[k][0] for k in ("one", "two"))
    st.move(one, st.zone_key("table", 0), False, None)
    st.move(two, st.zone_key("inside", one), False, None)
    assert two in vm.in_play(st, 0)
    st.move(one, st.zone_key("pile", None), False, None)  # its holder leaves play: so does what it holds
    assert two not in vm.in_play(st) and one not in vm.in_play(st)
    pawn0, pawn1 = g.cards_by_id["pawn"][:2]  # one pawn per seat
    st.move(pawn0, st.zone_key("secret", one), False, None)
    st.move(pawn1, st.zone_key("secret", one), False, None)
    seen = st.observation(0)["zones"][f"secret#{int(one)}"]
    assert seen["count"] == 2 and [x["card"] for x in seen["yours"]] == ["pawn"]
    assert seen["yours"][0]["id"] == int(pawn0)


def test_a_team_counter_seen_only_by_its_team(tmp_path):
    import gamekit
    folder = tmp_path / "tiny"
    folder.mkdir()
    text = GAME_TEMPLATE.format(procedures="  game: |\n    gain 2 gems to players[1]\n")
    (folder / "game.yaml").write_text(text.replace("gems: {scope: team}", "gems: {scope: team, visibility: owner}"),
                                      encoding="utf-8")
    (folder / "cards.yaml").write_text(gamekit.CARDS, encoding="utf-8")
    st = interpreter.load(str(folder)).new_state(players=4)
    team_one = [k for k in st.counters if k.startswith("gems#")]
    assert team_one and st.counters[team_one[0]] == 2
    # seats 1 and 3 form the first team: they see its gems; seats 2 and 4 do not
    assert [team_one[0] in st.observation(seat)["counters"] for seat in range(4)] == [True, False, True, False]
