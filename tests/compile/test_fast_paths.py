"""Fast paths of the compiled code, each compared with its plain path over random games of
every shipped game: lists kept member by member (compile.kept_lists), the keys of counters
kept per pair of owners read from tables (ExprGen.pair_key), what is in play kept while
nothing in play moves (engine.machine.in_play), and components untagged from among the
tagged ones (compile.statements.UNTAG_AMONG_TAGGED)."""
from __future__ import annotations

import json
import random
import shutil

import pytest
from gamekit import FIXTURES, player_counts, random_trace

import interpreter
from interpreter.compile import expressions, kept_lists, statements
from interpreter.compile import kept as K
from interpreter.compile.analysis import Analysis
from interpreter.engine import keys, machine
from interpreter.engine.code import Code, CodeKind
from interpreter.engine.state import Frame
from interpreter.engine.values import Comp, NodeRef, Rng, Seat
from interpreter.view.worlds import deal_hidden

GAMES = ("karman-swap", "seeders-exodus", "etherium")


@pytest.fixture
def unkept():
    """Loads that compile anew (no program kept from another load of the test)."""
    K.KEPT.clear()
    K.KEPT.enabled = False
    yield
    K.KEPT.enabled = True
    K.KEPT.clear()


def _frame():
    return Frame(Code("test", CodeKind.FUNCTION), 0, {}, None, None)


def _kept_values(st) -> dict:
    """(function, arguments) -> the value of each list the state keeps, as it answers now."""
    fns = st.program.compiler.src.ns["FN"]
    return {(name, key[0::2]): list(fns[name](st, _frame(), *key[0::2]))  # a key: each argument, its type
            for name, lists in list(st.kept.items()) for key in list(lists)}


def _computed_anew(st, asked) -> dict:
    """The same questions asked of a copy that keeps nothing: each list computed from its members."""
    fresh = st.clone()
    fresh.kept = {}
    fns = st.program.compiler.src.ns["FN"]
    return {(name, args): list(fns[name](fresh, _frame(), *args)) for name, args in asked}


def _ask_every_kept_function(st) -> None:
    """Ask each argument-less kept function, so that its list is kept from the first decision."""
    fns = st.program.compiler.src.ns["FN"]
    for name in st.program.defn.functions:
        if name in fns and not st.program.defn.functions[name].params:
            fns[name](st, _frame())


def _decisions(game, name):
    """(state, generator, players, seed) at each decision of 3 random games at the fewest and the
    most players; the game goes on with a random option once the caller is done with it."""
    for players in (player_counts(name)[0], player_counts(name)[-1]):
        for seed in range(3):
            st = game.new_state(players=players, seed=seed)
            r = random.Random(seed)
            while not st.is_terminal():
                yield st, r, players, seed
                st.apply(r.randrange(len(st.legal_actions())))


@pytest.mark.parametrize("name", GAMES)
def test_a_list_kept_by_the_moves_is_the_list_computed_anew(name):
    game = interpreter.load(name)
    checked = 0
    for st, r, players, seed in _decisions(game, name):
        _ask_every_kept_function(st)
        kept = _kept_values(st)
        assert kept == _computed_anew(st, kept), f"{name}, {players} players, seed {seed}"
        checked += len(kept)
        if r.random() < 0.05:  # a search's world: the hidden components dealt again in place
            world = st.clone()
            deal_hidden(world, int(r.randrange(players)), Rng(seed))
            dealt = _kept_values(world)
            assert dealt == _computed_anew(world, dealt)
    if name == "seeders-exodus":  # the free slots of the board, asked after every placement
        assert checked > 1000


def _in_play_everyone(st) -> dict:
    """What each player has in play, and what is in play in all, as `st` answers now."""
    return {p: machine.in_play(st, p) for p in (None, *(Seat(i) for i in range(st.n)))}


@pytest.mark.parametrize("name", GAMES)
def test_what_is_in_play_kept_between_moves_is_what_is_in_play(name):
    game = interpreter.load(name)
    changed = 0
    last = None
    for st, r, players, seed in _decisions(game, name):
        kept = _in_play_everyone(st)  # from the cache, unless something in play moved since it was made
        assert kept == _in_play_everyone(st.clone()), f"{name}, {players} players, seed {seed}"  # a copy's is made anew
        changed += kept != last
        last = kept
        if r.random() < 0.05:  # a search's world: the hidden components dealt again in place
            world = st.clone()
            _in_play_everyone(world)
            deal_hidden(world, int(r.randrange(players)), Rng(seed))
            assert _in_play_everyone(world) == _in_play_everyone(world.clone())
    if name != "etherium":  # whose pieces lie on the board, in no zone in play
        assert changed > 10  # what is in play did change in these games


@pytest.mark.parametrize("name", GAMES)
def test_the_fast_paths_play_as_the_plain_ones(name, unkept, monkeypatch):
    fast = interpreter.load(name)
    monkeypatch.setattr(kept_lists, "ENABLED", False)
    monkeypatch.setattr(expressions, "MAX_PAIR_TABLE", 0)
    monkeypatch.setattr(expressions, "NUMBER_COMPARES", False)
    monkeypatch.setattr(statements, "UNTAG_AMONG_TAGGED", False)
    plain = interpreter.load(name)
    assert not any(plain.program.watch_zones) and not any(plain.program.watch_counters)
    for players in (player_counts(name)[0], player_counts(name)[-1]):
        for seed in (1, 2):
            assert random_trace(fast, players, seed) == random_trace(plain, players, seed)


def test_the_board_s_free_slots_are_kept_slot_by_slot():
    """The case the mechanism is for: Seeders' free slots, tested again only for the slot
    whose negotiators or face-down marks changed (a placement, a mark)."""
    program = interpreter.load("seeders-exodus").program
    found = Analysis(program.defn, program.found).element_wise("free_slots")
    assert found is not None and found.var == "s"
    assert {kind for kind, _ in found.owned} == {"zone", "counter"}
    watched = [program.defn.zones[z].name for z in program.defn.zones
               if "free_slots" in program.watch_zones[program.defn.zones[z].index]]
    assert watched == ["placed"]


# functions added to the docs game (three cities, pawns on their sites, influence per player)
FUNCTIONS = {
    "empty": ("[]", "[each n in nodes(\"city\") where count(n.site) == 0 and sum(n.influence[p] for each p in players) == 0]"),
    "room_for": ("[p]", "[each n in nodes(\"city\") where count(n.site) < p.coins]"),
    "moving": ("[]", "[each n in [each m in nodes(\"city\") where count(m.site) > 0] where n.influence[players[1]] == 0]"),
    "itself": ("[]", "[each n in nodes(\"city\") where count(n.site) > round]"),
    "by_team": ("[]", "[each t in teams where t.glory > 0]"),
    "all_at_once": ("[]", "[each n in nodes(\"city\") where count(n.site) > 0 and count(site_of(n)) < 3]"),
    "site_of": ("[n]", "n.site"),
    "coins_are": ("[p, x]", "p.coins == x"),
    "coins_are_not": ("[p, x]", "x != p.coins"),
}


def _docs_game(tmp_path) -> interpreter.Game:
    folder = tmp_path / "docs-game"
    shutil.copytree(FIXTURES / "docs-game", folder)
    game = folder / "game.yaml"
    added = "".join(f"  {name}:\n    params: {params}\n    body: {json.dumps(body)}\n"
                    for name, (params, body) in FUNCTIONS.items())
    game.write_text(game.read_text(encoding="utf-8").replace("functions:\n", "functions:\n" + added, 1), encoding="utf-8")
    return interpreter.load(str(folder))


def test_which_functions_are_kept_member_by_member(tmp_path, unkept):
    program = _docs_game(tmp_path).program
    analysis = Analysis(program.defn, program.found)
    kept = {name for name in FUNCTIONS if analysis.element_wise(name) is not None}
    # the members are fixed (the board's cities) and the condition reads their own zones and
    # counters: kept, with the arguments and the counter read of other owners in the stamp
    assert kept == {"empty", "room_for", "itself"}
    assert analysis.element_wise("itself").reads == {f"st.cv[{program.defn.counters['round'].index}]"}
    # not kept: members that change (moving), a team's counter keyed by the team (by_team),
    # a zone read through another function of every city's zone (all_at_once: in its stamp)
    for name in FUNCTIONS:  # compiled when code first names them: here, at once
        program.compiler.gen.game_function(name)
    site = program.defn.zones["site"].index
    influence = program.defn.counters["influence"].index
    assert set(program.watch_zones[site]) == {"empty", "room_for", "itself"}
    assert program.watch_counters[influence] == ("empty",)
    assert not any(w for i, w in enumerate(program.watch_zones) if i != site)


def test_a_change_of_a_member_s_own_zone_or_counter_is_seen_at_once(tmp_path, unkept):
    game = _docs_game(tmp_path)
    program = game.program
    fns = program.compiler.src.ns["FN"]
    for name in FUNCTIONS:
        program.compiler.gen.game_function(name)
    st = game.new_state(players=2, seed=1)

    def asked(name, *args):
        value = list(fns[name](st, _frame(), *args))
        assert value == _computed_anew(st, [(name, args)])[(name, args)]
        return [str(n) for n in value]

    assert asked("empty") == ["north", "south"]
    influence = program.counters["influence"]
    st.set_counter(keys.pair_key("influence", NodeRef("south"), Seat(1)), influence, 2, None)
    assert asked("empty") == ["north"]  # south: player 2's influence
    pawn = st.zones["reserve"][-1]
    st.move(pawn, st.zone_key("site", NodeRef("north")), False, None)
    assert asked("empty") == []  # north: a pawn on its site
    assert asked("room_for", Seat(0)) == ["north", "south"]  # 3 coins: room for 2 more pawns
    st.set_counter(keys.pair_key("influence", NodeRef("south"), Seat(1)), influence, 0, None)
    assert asked("empty") == ["south"]
    st.move(pawn, st.zone_key("reserve", None), False, None)
    assert asked("empty") == ["north", "south"]
    st.set_counter(keys.seat_key("coins", 0), program.counters["coins"], 0, None)
    assert asked("room_for", Seat(0)) == []  # an argument's counter: in the stamp
    assert asked("itself") == []  # round 1: no city holds more than 1 pawn
    st.move(pawn, st.zone_key("site", NodeRef("north")), False, None)
    assert asked("itself") == []
    st.set_counter("round", program.counters["round"], 0, None)  # a counter of the game: in the stamp
    assert asked("itself") == ["north"]
    copy = st.clone()  # a copy keeps its own lists: a change of the one is not seen by the other
    copy.move(pawn, copy.zone_key("reserve", None), False, None)
    assert asked("itself") == ["north"] and list(fns["itself"](copy, _frame())) == []


def test_a_number_compared_with_any_value_as_the_general_way_says(tmp_path, monkeypatch):
    """`p.coins == x`, x of no type the checker knows: a whole number is compared as Python
    does, anything else (a player or component of the same number, a truth value, a text,
    none, a list) the general way, which says they differ."""
    values = [3, 4, 0, True, False, 3.0, Seat(3), Comp(3), "3", None, [3], NodeRef("north")]

    def answers(fast: bool) -> list:
        K.KEPT.clear()
        monkeypatch.setattr(expressions, "NUMBER_COMPARES", fast)
        game = _docs_game(tmp_path / ("fast" if fast else "plain"))
        fns = game.program.compiler.src.ns["FN"]
        game.program.compiler.gen.game_function("coins_are")
        game.program.compiler.gen.game_function("coins_are_not")
        st = game.new_state(players=2, seed=1)
        st.set_counter(keys.seat_key("coins", 0), game.program.counters["coins"], 3, None)
        return [(fns["coins_are"](st, _frame(), Seat(0), x), fns["coins_are_not"](st, _frame(), Seat(0), x))
                for x in values]

    fast = answers(True)
    assert fast == answers(False)
    assert fast[0] == (True, False) and fast[1] == (False, True)  # player 1 has 3 coins
    assert all(a == (not b) for a, b in fast)
    assert [a for a, _ in fast[3:]] == [False, False, True, False, False, False, False, False, False]


def test_a_function_compiled_after_the_load_keeps_its_list_in_every_copy(tmp_path):
    """A rules test compiles the functions it names after the load, with the compiler of the
    program kept between loads; the copies given to later loads see it watched too."""
    K.KEPT.clear()
    try:
        first = _docs_game(tmp_path)
        again = interpreter.load(str(tmp_path / "docs-game"))
        assert again.program is not first.program and again.program.codes is first.program.codes  # a copy
        first.program.compiler.gen.game_function("empty")
        st = again.new_state(players=2, seed=1)
        fns = again.program.compiler.src.ns["FN"]
        assert [str(n) for n in fns["empty"](st, _frame())] == ["north", "south"]
        st.set_counter(keys.pair_key("influence", NodeRef("north"), Seat(0)), again.program.counters["influence"], 1, None)
        assert [str(n) for n in fns["empty"](st, _frame())] == ["south"]
    finally:
        K.KEPT.clear()
