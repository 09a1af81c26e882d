"""Saved states: a sound save round-trips and resumes mid-turn; every corrupt one, and one
saved under other rules or another engine, is refused with a SaveError that names the
field at fault (and the file), never another exception."""
from __future__ import annotations

import copy
import json
import random
import shutil

import pytest

import interpreter
import savedamage
from gamekit import FIXTURES, fixture_game
from interpreter.engine import fingerprint as F
from interpreter.engine.saved import layout
from interpreter.engine.savefile import SaveError


def played(players=4, seed=3, steps=14):
    """Envoys at 4 players, some way into the game: a menu pending two procedures deep, a
    component tagged, an action used, a counter kept on a card, teams."""
    g = fixture_game("envoys")
    st = g.new_state(players=players, seed=seed)
    r = random.Random(seed)
    for _ in range(steps):
        st.apply(r.randrange(len(st.legal_actions())))
    return g, st


@pytest.fixture(scope="module")
def game_and_save():
    g, st = played()
    data = json.loads(json.dumps(st.to_json()))
    # what the corruptions below rely on: a real save with these parts
    assert data["pending"]["kind"] == "menu" and len(data["frames"]) == 2
    assert data["tags"] and data["used"] and "blessing#9" in data["counters"]
    return g, data


def refused(game, data) -> SaveError:
    with pytest.raises(SaveError) as err:
        game.state_from_json(data)
    return err.value


# a sound save ------------------------------------------------------------------------

def test_a_save_round_trips_and_resumes(tmp_path):
    g, st = played()
    path = tmp_path / "state.json"
    st.save(path)
    restored = g.load_state(path)
    assert restored.to_json() == st.to_json()
    assert restored.labels() == st.labels() and restored.current_player == st.current_player
    r = random.Random(5)
    while not st.is_terminal():  # both go on the same way to the same end
        a = r.randrange(len(st.legal_actions()))
        st.apply(a)
        restored.apply(a)
        assert restored.to_json() == st.to_json()
    assert restored.returns() == st.returns()


@pytest.mark.parametrize("name", ["karman-swap", "seeders-exodus", "envoys", "nim", "docs-game"])
def test_every_save_of_random_games_is_accepted(name):
    """No sound state is refused: states of every game, at every point of random games,
    saved as JSON text and restored, are the same state."""
    g = interpreter.load(name) if name in ("karman-swap", "seeders-exodus") else fixture_game(name)
    seen = 0
    for players in (g.min_players, g.max_players):
        st = g.new_state(players=players, seed=players)
        r = random.Random(players)
        for step in range(150):
            if step % 7 == 0 or st.is_terminal():
                data = json.loads(json.dumps(st.to_json()))
                assert g.state_from_json(data).to_json() == data
                seen += 1
            if st.is_terminal():
                break
            st.apply(r.randrange(len(st.legal_actions())))
    assert seen >= 4


# corrupt saves: one field at a time -----------------------------------------------------

def _set(path, value):
    def change(d):
        *head, last = path
        for k in head:
            d = d[k]
        d[last] = value
    return change


def _delete(path):
    def change(d):
        *head, last = path
        for k in head:
            d = d[k]
        del d[last]
    return change


def _nest(depth):
    v = 1
    for _ in range(depth):
        v = [v]
    return v


CORRUPTIONS = [
    # the form, the game, the fingerprint
    ("no format", _delete(["format"]), "format: is missing: not a saved state of regles"),
    ("format as text", _set(["format"], "3"), "format: is '3': this version of regles reads saved states of format 4"),
    ("older format", _set(["format"], 3), "format: is 3"),
    ("game as number", _set(["game"], 5), "game: must be a text, not a whole number"),
    ("other game", _set(["game"], "nim"), "game: is 'nim': this is not a state of envoys"),
    ("no fingerprint", _delete(["fingerprint"]), "fingerprint: is missing"),
    ("fingerprint as list", _set(["fingerprint"], []), "fingerprint: must be a mapping, not a list"),
    ("other content", _set(["fingerprint", "content"], "0" * 64),
     "fingerprint.content: this state was saved under other rules of envoys"),
    ("other engine", _set(["fingerprint", "engine"], "0" * 64),
     "fingerprint.engine: this state was saved by another version of regles"),
    ("extra field", _set(["cheat"], 1), "cheat: is no field of it"),
    # players, seed, options, generator
    ("players as text", _set(["players"], "4"), "players: must be a whole number (players of envoys), not a text"),
    ("players too many", _set(["players"], 9), "players: is 9: it must be from 2 to 4 (players of envoys)"),
    ("players as bool", _set(["players"], True), "players: must be a whole number (players of envoys), not true or false"),
    ("seed as fraction", _set(["seed"], 1.5), "seed: must be a whole number, not a number with a fraction"),
    ("option out of values", _set(["options", "hand_size"], 5), "options.hand_size: is 5: it must be one of 2, 3"),
    ("option as list", _set(["options", "hand_size"], [3]), "options.hand_size: must be a text, a number or"),
    ("unknown option", _set(["options", "speed"], 1), "options.speed: is no field of it"),
    ("missing option", _delete(["options", "hand_size"]), "options.hand_size: is missing"),
    ("negative generator", _set(["rng"], -1), "rng: is -1: it must be from 0 to"),
    ("huge generator", _set(["rng"], 10 ** 30), "rng: is a number of about 31 digits"),
    # zones and components
    ("zones as list", _set(["zones"], []), "zones: must be a mapping, not a list"),
    ("unknown zone", _set(["zones", "attic"], []), "zones.attic: 'attic' is no zone of envoys"),
    ("seat out of range in a zone key", _set(["zones", "hand#7"], []),
     "zones[\"hand#7\"]: 'hand#7' is kept per player, but '7' is not a seat from 0 to 3"),
    ("zone of the game with an owner", _set(["zones", "deck#0"], []), "'deck#0': zone deck is kept once for the game"),
    ("component as text", _set(["zones", "deck"], ["x"]),
     "zones.deck[0]: must be a whole number (a component's number)"),
    ("no such component", _set(["zones", "deck"], [999]), "zones.deck[0]: is 999: it must be from 0 to 13"),
    ("component in two zones", _set(["zones", "deck"], [3]),
     "zones[\"hand#0\"][0]: component 3 (herald) is in two places: zones deck and hand#0"),
    ("component twice in a zone", _set(["zones", "hand#0"], [3, 3]), "zones[\"hand#0\"][1]: component 3 (herald) "
                                                                      "is in two places: this zone twice"),
    ("component in no zone", _set(["zones", "hand#0"], []), "zones: component 3 (herald) is in no zone"),
    # counters
    ("counter as text", _set(["counters", "round"], "4"), "counters.round: must be a whole number, not a text"),
    ("counter as fraction", _set(["counters", "round"], 4.5), "counters.round: must be a whole number"),
    ("huge counter", _set(["counters", "round"], 10 ** 40), "counters.round: is a number of about 41 digits"),
    ("unknown counter", _set(["counters", "gold#0"], 1), "counters[\"gold#0\"]: 'gold#0' is no counter of envoys"),
    ("team out of range", _set(["counters", "glory#t5"], 1), "'glory#t5' is kept per team, but 't5' is not a team"),
    ("counter of a non-component", _set(["counters", "blessing#99"], 1),
     "'blessing#99' is kept per card, but '99' is not a component's number"),
    ("negative supply", _set(["counters", "$favor"], -2), "counters[\"$favor\"]: is -2: a supply is never negative"),
    ("supply of nothing", _set(["counters", "$round"], 1), "'$round' is the supply of no counter of envoys"),
    # attributes, tags, taps, actions used, credit
    ("attribute not a triple", _set(["attributes"], [[1, "value"]]),
     "attributes[0]: must be [component, attribute, value], not a list of 2"),
    ("unknown attribute", _set(["attributes"], [[1, "speed", 3]]), "attributes[0][1]: 'speed' is no attribute"),
    ("tag of no component", _set(["tags", "x9"], ["blessed"]), "tags.x9: 'x9' is not a component's number"),
    ("tag as number", _set(["tags", "9"], [7]), "tags[\"9\"][0]: must be a text, not a whole number"),
    ("tag of no class", _set(["tags", "9"], ["blessex"]), "tags[\"9\"][0]: 'blessex' is no class of envoys"),
    ("tapped twice", _set(["tapped"], [4, 4]), "tapped: holds a component twice"),
    ("used mark malformed", _set(["used"], ["round_end|9"]), "used[0]: 'round_end|9' is not EVENT|COMPONENT|ACTION"),
    ("used action out of range", _set(["used"], ["round_end|9|5"]), "used[0]: 'round_end|9|5' is not"),
    ("credit to a supply", _set(["credit"], [[1, "$favor", 2]]), "credit[0][1]: points are credited to a counter"),
    # frames
    ("frames as object", _set(["frames"], {}), "frames: must be a list, not a mapping"),
    ("frame without pc", _delete(["frames", 1, "pc"]), "frames[1].pc: is missing"),
    ("frame with extra field", _set(["frames", 1, "speed"], 1), "frames[1].speed: is no field of it"),
    ("frame pc out of range", _set(["frames", 1, "pc"], 1000),
     "frames[1].pc: is 1000: it must be from 0 to 16 (a position in proc:turn)"),
    ("frame pc negative", _set(["frames", 0, "pc"], -1), "frames[0].pc: is -1"),
    ("frame pc as text", _set(["frames", 0, "pc"], "7"), "frames[0].pc: must be a whole number"),
    ("frame of no code", _set(["frames", 0, "code"], "proc:nothing"),
     "frames[0].code: 'proc:nothing' is no procedure or ability of envoys"),
    ("frame of other layout", _set(["frames", 1, "layout"], "000000000000"),
     "frames[1].layout: proc:turn was compiled differently"),
    ("seat out of range in a local", _set(["frames", 1, "env", "p"], {"p": 4}), "frames[1].env.p.p: is 4: it must be "
                                                                                "from 0 to 3 (a seat)"),
    ("team out of range in a local", _set(["frames", 1, "env", "t"], {"t": 2}), "frames[1].env.t.t: is 2"),
    ("component out of range in a local", _set(["frames", 0, "env", "c"], {"c": -1}), "frames[0].env.c.c: is -1"),
    ("value with two tags", _set(["frames", 0, "env", "c"], {"c": 1, "p": 0}),
     "frames[0].env.c: an object value has exactly one of the fields"),
    ("value of no kind", _set(["frames", 0, "env", "c"], {"q": 1}), "frames[0].env.c.q: is no kind of value"),
    ("node of no board", _set(["frames", 0, "env", "c"], {"n": "moon"}), "frames[0].env.c.n: 'moon' is no node"),
    ("zone value of no zone", _set(["frames", 0, "env", "c"], {"z": "attic"}), "frames[0].env.c.z: 'attic' is no zone"),
    ("deeply nested local", _set(["frames", 0, "env", "c"], _nest(200)), "frames[0].env.c" + "[0]" * 65 + ": nests "
                                                                          "values deeper than 64"),
    ("not a number local", _set(["frames", 0, "env", "c"], float("nan")), "frames[0].env.c: must be a finite number"),
    ("frame acting for no seat", _set(["frames", 1, "you"], {"p": 9}), "frames[1].you.p: is 9"),
    ("frame acting for a component", _set(["frames", 1, "you"], {"c": 1}), "frames[1].you: must be a player"),
    # the pending decision
    ("decision of no seat", _set(["pending", "player"], 4), "pending.player: is 4: it must be from 0 to 3 (a seat)"),
    ("decision of no kind", _set(["pending", "kind"], "guess"), "pending.kind: 'guess' is no kind of decision"),
    ("option of no kind", _set(["pending", "entries", 0], ["zz"]), "pending.entries[0][0]: 'zz' is no kind of option"),
    ("option of another kind", _set(["pending", "entries", 0], ["yes"]),
     "pending.entries[0][0]: an option 'yes' cannot answer this decision"),
    ("option short of a part", _set(["pending", "entries", 0], ["opt", 0]),
     "pending.entries[0]: an option 'opt' has 2 parts after its kind, not 1"),
    ("menu option out of range", _set(["pending", "entries", 0], ["opt", 9, None]),
     "pending.entries[0][1]: is 9: it must be from 0 to 4 (an option of the menu)"),
    ("menu option of actions", _set(["pending", "entries", 0], ["opt", 4, None]),
     "pending.entries[0][1]: option 4 of the menu offers actions"),
    ("action of no action", _set(["pending", "entries", 0], ["act", {"c": 1}, 0]),
     "pending.entries[0][2]: is 0: it must be from 0 to -1 (an action of component 1)"),
    ("too few labels", _set(["pending", "labels"], ["Play Herald"]), "pending.labels: 1 labels for 3 options"),
    ("no options", _set(["pending", "entries"], []), "pending.entries: a decision has at least one option"),
    ("place malformed", _set(["pending", "at"], ["game.yaml", "76"]), "pending.at: must be [file, line, column]"),
    ("no decision mid-turn", _set(["pending"], None), "pending: is null, but procedures are still running"),
    ("decision with the game over", _set(["frames"], []), "pending: a decision is pending, but no procedure"),
    ("a menu where none is asked", _set(["frames", 1, "pc"], 2), "pending.kind: a menu is pending, but proc:turn "
                                                                  "asks none there"),
    # the end, the history
    ("winners while waiting", _set(["winners"], [0]), "winners: the game has winners but still waits for a decision"),
    ("winner of no seat", _set(["winners"], [7]), "winners[0]: is 7"),
    ("negative choice", _set(["history", 0], -1), "history[0]: is -1: it must be at least 0"),
    ("history as text", _set(["history"], "3,9"), "history: must be a list, not a text"),
    ("steps as text", _set(["ops"], "72"), "ops: must be a whole number, not a text"),
]


@pytest.mark.parametrize("name,change,message", CORRUPTIONS, ids=[c[0] for c in CORRUPTIONS])
def test_a_corrupt_save_is_refused_naming_the_field(game_and_save, name, change, message):
    g, data = game_and_save
    data = copy.deepcopy(data)
    change(data)
    err = refused(g, data)
    assert message in str(err)


def test_not_a_save_at_all(game_and_save):
    g, _ = game_and_save
    for data in ([1, 2], "state", None, 3):
        assert "not a saved state" in str(refused(g, data))


def test_no_wrong_type_anywhere_passes_or_breaks(game_and_save):
    """Every field of a real save, replaced in turn by a value of another kind, is refused
    with a SaveError naming that field (or a field within it): never another exception, and
    never accepted, not even where the save holds values of the game, which may be of any
    kind: its history leads to the values it held, not to these."""
    g, data = game_and_save
    tried = 0
    for path, original in _leaves_and_branches(data):
        for wrong in ("x", 7, 2.5, None, True, [], {}):
            if _kind(wrong) == _kind(original):
                continue
            corrupt = copy.deepcopy(data)
            _set(path, wrong)(corrupt)
            with pytest.raises(SaveError) as err:
                g.state_from_json(corrupt)
            assert err.value.field is not None and err.value.field.startswith(_root_field(path)), \
                (path, wrong, str(err.value))
            tried += 1
    assert tried > 700


def _leaves_and_branches(v, path=()):
    if path:
        yield list(path), v
    if isinstance(v, dict):
        for k, x in v.items():
            yield from _leaves_and_branches(x, path + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _leaves_and_branches(x, path + (i,))


def _kind(v):
    return "bool" if isinstance(v, bool) else "number" if isinstance(v, (int, float)) else type(v).__name__


def _root_field(path) -> str:
    return str(path[0])


# saves their history does not lead to ----------------------------------------------------

def _move(key_from, key_to, c):
    def change(d):
        d["zones"][key_from].remove(c)
        d["zones"][key_to].append(c)
    return change


def _swap_zones(a, b):
    def change(d):
        d["zones"][a], d["zones"][b] = d["zones"][b], d["zones"][a]
    return change


def _take_from_supply(d):
    d["counters"]["$favor"] -= 1
    d["counters"]["favor#0"] += 1


HISTORY = "its history (14 choices from seed 3) leads to"

# each leaves a well-formed state (every component in one zone, counters within their
# bounds...) that is not the one its history leads to
CONTRADICTIONS = [
    ("a card moved to another hand", _move("hand#1", "hand#2", 1), f'zones["hand#1"][0]: is missing, but {HISTORY} 1'),
    ("two hands swapped", _swap_zones("hand#0", "hand#1"), f'zones["hand#0"][0]: is 1, but {HISTORY} 3'),
    ("a counter within its bounds", _set(["counters", "round"], 5), f"counters.round: is 5, but {HISTORY} 4"),
    ("favor taken from the supply", _take_from_supply, f'counters["$favor"]: is 0, but {HISTORY} 1'),
    ("a tag taken off", _delete(["tags", "9"]), f'tags["9"]: is missing, but {HISTORY} ["blessed"]'),
    ("an action not used", _set(["used"], []), f'used[0]: is missing, but {HISTORY} "round_end|9|0"'),
    ("the generator", _set(["rng"], 635340061525167381), f"rng: is 635340061525167381, but {HISTORY} "
                                                          f"635340061525167380"),
    ("a local of a frame", _set(["frames", 0, "env", "c"], {"c": 11}), f"frames[0].env.c.c: is 11, but {HISTORY} 12"),
    ("true for a whole number", _set(["frames", 0, "env", "\x00i2"], True),
     f'frames[0].env["\\u0000i2"]: is true, but {HISTORY} 2'),
    ("a frame resuming elsewhere", _set(["frames", 0, "pc"], 6), f"frames[0].pc: is 6, but {HISTORY} 7"),
    ("a decision for another seat", _set(["pending", "player"], 2), f"pending.player: is 2, but {HISTORY} 1"),
    ("a label rewritten", _set(["pending", "labels", 0], "Play Scout"),
     f'pending.labels[0]: is "Play Scout", but {HISTORY} "Play Herald"'),
    ("an option taken away", lambda d: (d["pending"]["entries"].pop(), d["pending"]["labels"].pop()),
     f"pending.labels[2]: is missing, but {HISTORY} \"Bury Herald\""),
    ("the count of operations", _set(["ops"], 73), f"ops: is 73, but {HISTORY} 72"),
    ("another value of an option", _set(["options", "hand_size"], 2),
     "history[1]: is 9, but played again the decision there ('Your turn') has 9 options"),
    ("another seed", _set(["seed"], 4), "history[13]: is 4, but played again the decision there ('Your turn') has "
                                        "3 options"),
    ("a choice changed", _set(["history", 13], 3), f'zones["hand#0"][0]: is 3, but the state {HISTORY} has none'),
    ("a choice left out", lambda d: d["history"].pop(), "but its history (13 choices from seed 3) leads to"),
    ("a choice no decision offers", _set(["history", 0], 99),
     "history[0]: is 99, but played again the decision there ('Your turn') has 12 options"),
    ("a power given in a game of none", _set(["powers"], {"1": "herald"}), "powers: Envoys has no personal powers"),
    ("a power given to no seat", _set(["powers"], {"5": "herald"}), "powers[\"5\"]: '5' is not a seat from 1 to 4"),
]


@pytest.mark.parametrize("name,change,message", CONTRADICTIONS, ids=[c[0] for c in CONTRADICTIONS])
def test_a_save_its_history_does_not_lead_to_is_refused(game_and_save, name, change, message):
    g, data = game_and_save
    data = copy.deepcopy(data)
    change(data)
    err = refused(g, data)
    assert message in str(err) and err.field is not None


def test_a_choice_after_the_end_is_refused():
    g, st = played(players=2, seed=5, steps=0)
    r = random.Random(5)
    while not st.is_terminal():
        st.apply(r.randrange(len(st.legal_actions())))
    data = json.loads(json.dumps(st.to_json()))
    assert g.state_from_json(data).to_json() == data
    data["history"].append(0)
    n = len(st.history)
    err = refused(g, data)
    assert err.field == f"history[{n}]" and f"played again the game is over after {n} choices" in str(err)


def test_a_loaded_save_is_the_state_its_history_leads_to():
    """What is loaded is the game played again, not the save's fields copied: a save whose
    zones are listed in another order (the same zones) loads into the state that plays on
    as the saved one does."""
    g, st = played()
    data = json.loads(json.dumps(st.to_json()))
    data["zones"] = dict(reversed(list(data["zones"].items())))
    restored = g.state_from_json(data)
    assert list(restored.zones) == list(st.zones) and restored.to_json() == st.to_json()


def test_damaged_saves_of_the_shipped_games_are_refused_or_play_on():
    """The tester's way: saves of each shipped game part-way through, each damaged once at
    random (a number changed, two values swapped, a list item deleted or duplicated, a value
    of another type). Each is refused with a SaveError that names a field in plain words,
    or loads into a state that plays on to its end with no exception but a located
    GameFault; and one that loads with a state other than the saved one differs from it in
    its history alone (two ways of playing to the same state), never in the state itself."""
    saves = savedamage.real_saves(seeds=(1, 2))
    fates = savedamage.run(saves, 400, seed=27)
    assert not fates.failures, "\n".join(fates.failures[:10])
    assert fates.refused > 350
    for name, loaded, saved in fates.loaded_different:
        differing = {k for k, v in loaded.items() if saved.get(k) != v}
        assert differing == {"history"}, (name, differing)


# corrupt files --------------------------------------------------------------------------

@pytest.mark.parametrize("name,raw,message", [
    ("empty", b"", "not valid JSON (Expecting value at line 1 column 1)"),
    ("truncated", None, "not valid JSON"),
    ("not UTF-8", b'{"format": 3, "game": "env\xff\xfeoys"}', "not UTF-8 text (byte 27 cannot be read)"),
    ("deeply nested", b"[" * 100_000 + b"]" * 100_000, "not readable: JSON nested too deeply"),
    ("huge number", b'{"format": ' + b"9" * 5000 + b"}", "not readable: Exceeds the limit"),
    ("not a number", b'{"format": NaN}', "not readable: NaN is no number of a game"),
    ("a list", b"[]", "not a saved state: a list, not a mapping"),
])
def test_a_corrupt_file_is_refused_naming_the_file(tmp_path, game_and_save, name, raw, message):
    g, data = game_and_save
    path = tmp_path / "state.json"
    if raw is None:  # cut short in the middle
        text = json.dumps(data)
        raw = text[:len(text) // 2].encode()
    path.write_bytes(raw)
    with pytest.raises(SaveError) as err:
        g.load_state(path)
    assert str(err.value).startswith(f"{path}: ") and message in str(err.value)
    assert err.value.file == str(path)


def test_a_file_that_is_not_there(tmp_path, game_and_save):
    g, _ = game_and_save
    with pytest.raises(SaveError, match="missing.json: cannot be read: No such file or directory"):
        g.load_state(tmp_path / "missing.json")


def test_a_field_of_a_file_is_named_with_the_file(tmp_path, game_and_save):
    g, data = game_and_save
    data = copy.deepcopy(data)
    data["frames"][1]["pc"] = 99
    path = tmp_path / "state.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SaveError) as err:
        g.load_state(path)
    assert str(err.value).startswith(f"{path}: frames[1].pc: is 99")
    assert err.value.field == "frames[1].pc" and err.value.file == str(path)


# saved under other rules -------------------------------------------------------------------

def _copy_of_envoys(tmp_path, name="envoys"):
    folder = tmp_path / name
    shutil.copytree(FIXTURES / "envoys", folder)
    return folder


def _edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _saved_mid_game(tmp_path):
    folder = _copy_of_envoys(tmp_path)
    g = interpreter.load(str(folder))
    st = g.new_state(players=2, seed=4)
    st.apply(0)
    assert not st.is_terminal() and st.frames
    return folder, json.loads(json.dumps(st.to_json()))


def test_a_state_saved_before_two_card_ids_were_swapped_is_refused(tmp_path):
    folder, data = _saved_mid_game(tmp_path)
    cards = folder / "cards" / "envoys.yaml"
    _edit(cards, "id: herald", "id: HERALD")
    _edit(cards, "id: scout", "id: herald")
    _edit(cards, "id: HERALD", "id: scout")
    edited = interpreter.load(str(folder))
    err = refused(edited, data)
    assert err.field == "fingerprint.content" and "saved under other rules of envoys" in str(err)


def test_a_state_saved_under_an_edited_procedure_of_the_same_layout_is_refused(tmp_path):
    folder, data = _saved_mid_game(tmp_path)
    before = interpreter.load(str(folder))
    _edit(folder / "game.yaml", "gain 1 favor to p", "gain 2 favor to p")
    edited = interpreter.load(str(folder))
    # the layout of every code is the same: only the fingerprint of the content tells them apart
    assert {n: layout(c) for n, c in edited.program.codes.items()} == \
        {n: layout(c) for n, c in before.program.codes.items()}
    err = refused(edited, data)
    assert err.field == "fingerprint.content"


def test_what_cannot_change_a_game_keeps_its_fingerprint(tmp_path):
    """A comment edited in place, a card's `authored` note, the game's rules tests and the
    folder it lies in change nothing a game does: the state still resumes."""
    folder, data = _saved_mid_game(tmp_path)
    _edit(folder / "game.yaml", "# A small card game with hidden hands", "# A tiny game with hands hidden")
    with open(folder / "cards" / "envoys.yaml", "a", encoding="utf-8") as f:
        f.write("    authored: a note on the last card\n")  # after every line the game reads
    (folder / "tests.yaml").write_text("kind: rules-test\ngame: envoys\ntests:\n  - name: a test\n    players: 2\n"
                                       "    then: ['round == 0']\n", encoding="utf-8")
    moved = folder.rename(tmp_path / "elsewhere")
    g = interpreter.load(str(moved), tests=True)
    assert g.program.defn.tests and g.program.defn.cards[-1].authored == "a note on the last card"  # both read
    assert g.state_from_json(data).to_json()["zones"] == data["zones"]


def test_a_line_moved_changes_the_fingerprint(tmp_path):
    """Events name the line that caused them: a comment line added above the rules moves
    them, and so changes the game's trace; the state is refused."""
    folder, data = _saved_mid_game(tmp_path)
    _edit(folder / "game.yaml", "kind: game\n", "kind: game\n# a new line\n")
    err = refused(interpreter.load(str(folder)), data)
    assert err.field == "fingerprint.content"


def test_the_fingerprint_reads_every_part_of_a_shipped_game():
    """Nothing of a game is hashed as the mere name of a type (which would hide its content)."""
    for name in ("karman-swap", "seeders-exodus"):
        program = interpreter.load(name).program
        tokens = F.tokens(program.defn, program.root, strict=True)
        assert any(t.startswith("DProcedureDef") for t in tokens) and any(t.startswith("@") for t in tokens)
        assert not any("/work/" in t or str(program.root) in t for t in tokens if t.startswith("@"))


def test_the_engine_fingerprint_follows_the_engine_source(monkeypatch, game_and_save):
    g, data = game_and_save
    monkeypatch.setattr(F, "_ENGINE", ["a fingerprint of other sources"])
    monkeypatch.setattr(F, "_CACHE", F.weakref.WeakKeyDictionary())
    err = refused(g, data)
    assert err.field == "fingerprint.engine"


def test_random_damage_to_a_saved_file_never_breaks_the_loader(tmp_path, game_and_save):
    """Characters of a saved file changed, dropped or added at random: each damaged file is
    refused with a SaveError naming the file or, when the damage left the same JSON (a space
    between two values), restored into the very state saved. Nothing else ever comes out."""
    g, data = game_and_save
    text = json.dumps(data)
    path = tmp_path / "damaged.json"
    rnd = random.Random(11)
    refused_count = same = 0
    for _ in range(1500):
        t = list(text)
        for _ in range(rnd.randint(1, 3)):
            k = rnd.randrange(len(t))
            op = rnd.random()
            if op < 0.4:
                t[k] = rnd.choice('0123456789-{}[]",:tnfx.e#| ')
            elif op < 0.7:
                del t[k]
            else:
                t.insert(k, rnd.choice('0123456789-{}[]",:tnfx.e#| '))
        path.write_text("".join(t), encoding="utf-8")
        try:
            st = g.load_state(path)
        except SaveError as exc:
            assert str(exc).startswith(f"{path}: ")
            refused_count += 1
            continue
        assert st.to_json() == data
        same += 1
    assert refused_count + same == 1500 and refused_count > 1300
