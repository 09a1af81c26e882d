"""The native backend against the Python backend, which is the reference: the same seeds and
the same choices give the same trace, byte for byte, and the same results; what the native
backend does not take yet is refused at its place, never run wrong."""
from __future__ import annotations

import json
import random

import pytest

import interpreter
from gamekit import FIXTURES, fixture_game, game_folder, source_line
from interpreter.engine.invariants import InvariantError
from interpreter.engine.state import GameFault
from interpreter.play.agents import RandomAgent, SeatView, agent_seed

native = pytest.importorskip("interpreter.native")
pytest.importorskip("cffi")
if native.compiler() is None:
    pytest.skip("no C compiler on this machine: the Python backend runs every game", allow_module_level=True)


def _dumped(trace) -> str:
    return json.dumps(trace, ensure_ascii=False, sort_keys=False)


def play_both(game, compiled, players: int, seed: int, options=None):
    """One game played on both backends with the same random choices; the two traces. A game
    that faults on one faults on the other, with the same message, after the same events."""
    faults = []
    states = []
    for make in (game.new_state, compiled.new_state):
        try:
            states.append(make(players=players, seed=seed, options=options, trace=True))
        except GameFault as exc:
            faults.append(exc)
            states.append(exc.state)
    a, b = states
    rng = random.Random(seed)
    while not faults and not a.is_terminal():
        acts = a.legal_actions()
        assert b.legal_actions() == acts
        assert b.current_player == a.current_player
        pick = acts[rng.randrange(len(acts))]
        for st in (a, b):
            try:
                st.apply(pick)
            except GameFault as exc:
                faults.append(exc)
    assert len(faults) in (0, 2), faults
    if faults:
        assert str(faults[1]) == str(faults[0])
    else:
        assert b.is_terminal()
        assert b.returns() == a.returns()
        assert b.winners == a.winners
    return a.trace, b.trace


@pytest.fixture(scope="module")
def nim():
    game = fixture_game("nim")
    return game, native.NativeGame(game)


@pytest.mark.parametrize("options", [None, {"misere": True}, {"most": 2}])
def test_nim_plays_the_same_games_on_both_backends(nim, options):
    game, compiled = nim
    for seed in range(40):
        py, c = play_both(game, compiled, 2, seed, options)
        assert _dumped(c) == _dumped(py)
        assert {e["type"] for e in py} >= {"start", "shuffle", "choice", "move", "counter", "win"}


@pytest.fixture(scope="module")
def karman():
    game = interpreter.load("karman-swap")
    return game, native.NativeGame(game)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_karman_swap_plays_the_same_games_on_both_backends(karman, players):
    """A whole game of cards, teams, planets, poses triggered by events, tags and counters kept
    only on planets: every event of 30 random games the same, in the same order."""
    game, compiled = karman
    kinds = set()
    for seed in range(30):
        py, c = play_both(game, compiled, players, seed)
        assert _dumped(c) == _dumped(py)
        kinds |= {e["type"] for e in py}
    assert kinds >= {"choice", "move", "counter", "signal", "tag", "untag", "log", "win"}


def test_a_copy_in_the_middle_of_a_pose_goes_on_as_the_original(karman):
    game, compiled = karman
    st = compiled.new_state(players=4, seed=3)
    rng = random.Random(3)
    for _ in range(40):  # into the game: frames, a loop's list in the arena, tags
        st.apply(rng.randrange(len(st.legal_actions())))
    twin = st.clone()
    picks = random.Random(9)
    while not st.is_terminal():
        k = picks.randrange(len(st.legal_actions()))
        assert twin.legal_actions() == st.legal_actions()
        st.apply(k)
        twin.apply(k)
    assert twin.is_terminal() and twin.returns() == st.returns() and twin.counters() == st.counters()


def test_a_copy_goes_on_as_the_game_it_was_copied_from(nim):
    game, compiled = nim
    st = compiled.new_state(players=2, seed=5)
    st.apply(0)
    twin = st.clone()
    for s in (st, twin):
        while not s.is_terminal():
            s.apply(len(s.legal_actions()) - 1)
    assert twin.returns() == st.returns() and twin.counters() == st.counters()
    assert twin.history == st.history


def test_a_game_played_in_c_is_the_game_random_agents_play_in_python(karman):
    """Played all in C, each seat's random agent (its generator in C too) makes the same game
    as `play.agents.RandomAgent` makes on the Python backend: the same end, scores, length."""
    game, compiled = karman
    for seed in range(12):
        seeds = [agent_seed(seed, s) for s in range(4)]
        agents = [RandomAgent(x) for x in seeds]
        py = game.new_state(players=4, seed=seed)
        while not py.is_terminal():
            py.apply(agents[py.current_player].act(SeatView(py, py.current_player)))
        c = compiled.new_state(players=4, seed=seed)
        made = c.random_play(seeds)
        assert c.is_terminal() and made == len(py.history) > 20
        assert c.returns() == py.returns() and c.scores() == py.scores() and c.standings() == py.standings()


def test_a_game_that_does_not_end_in_c_is_stopped_as_simulate_stops_it(karman):
    game, compiled = karman
    st = compiled.new_state(players=2, seed=1)
    with pytest.raises(InvariantError, match="more than 5 decisions"):
        st.random_play([1, 2], most=5)
    assert st.decisions == 6


SMALL = """\
kind: game
id: small
title: Small
players: {min: 2, max: 3}
zones:
  pile: {scope: game}
counters:
  ticks: {scope: game}
procedures:
  game: |
GAME"""


def small_game(tmp_path, body: str):
    """A game of no components whose `game` procedure is `body` (indented as its block)."""
    return interpreter.load(str(game_folder(tmp_path, "small", game_yaml=SMALL.replace("GAME", body))))


def test_what_the_backend_does_not_take_is_refused_where_it_is_written(tmp_path):
    game = small_game(tmp_path, "    let p = first(players)\n    let xs = [[1, 2], [3]]\n"
                                "    log \"{count(xs)}\"\n    win p\n")
    with pytest.raises(native.NotNative) as caught:
        native.NativeGame(game)
    assert source_line(caught.value.pos).strip() == "let xs = [[1, 2], [3]]"
    assert "list" in caught.value.what
    assert str(caught.value).startswith(str(caught.value.pos.path))


def test_runaway_rules_stop_with_the_python_backends_fault(tmp_path):
    game = small_game(tmp_path, "    let p = first(players)\n    while true:\n      add 1 to ticks\n    win p\n")
    game_c = native.NativeGame(game)
    with pytest.raises(Exception) as py_fault:
        game.new_state(players=2, seed=1)
    with pytest.raises(Exception) as c_fault:
        game_c.new_state(players=2, seed=1)
    assert type(c_fault.value) is type(py_fault.value)
    assert "runaway rules" in str(py_fault.value)
    assert str(c_fault.value) == str(py_fault.value)  # the same message, at the same line


MIXER = """\
kind: game
id: mixer
title: Mixer
players: {min: 2, max: 3}
attributes:
  value: {type: number, default: 0}
  suit: {values: [Sun, Moon]}
components:
  chip: {attributes: [value, suit]}
zones:
  bag: {scope: game}
  hand: {scope: player}
  table: {scope: player, in_play: true}
counters:
  points: {scope: player}
  owed: {scope: [player, player], description: "What a player owes another."}
  round: {scope: game, max: 9}
  pool: {scope: player, supply: 7}
score: points
procedures:
  game: |
    shuffle bag
    for each p in players:
      move top(bag, 3) to p.hand
    repeat:
      add 1 to round
      for each p in players where count(p.hand) > 0:
        call turn(p)
      if round % 4 == 3 or count(bag) == 0:
        break
      for each p in players:
        if count(bag) > 0:
          move top(bag) to previous(p).hand
    let best = max(p.points for each p in players)
    let low = min(3, best / 2)
    set round = low - 7 / 2
    win first(each p in players where p.points == best)
  turn:
    params: [p]
    acting: p
    body: |
      choose c from you.hand where c.value > -1 by you "Chip to lay, {you}"
      if c == none:
        return
      move c to you.table
      score select(c is Sun, c.value, 1) to you
      gain c.value % 3 pool
      let q = next(you, 2)
      add c.value to you.owed[q]
      if you.owed[q] >= 4 and count(members(q)) == 1:
        remove 2 from you.owed[q]
        choose by q "Settle with {you}":
          option "Take {x}" for each x in range(1, 2):
            score x to q
          option "Forgive":
            pass
      while count(you.table) > 2:
        move first(you.table) to bag
      if most(x.suit for each x in in_play()) == "Moon":
        score sum(x.value for each x in you.table) to you
"""

CHIPS = """\
kind: cards
game: mixer
component: chip
start: bag
cards:
  - {id: one, title: One, value: 1, suit: Sun, copies: 3}
  - {id: two, title: Two, value: 2, suit: Moon, copies: 3}
  - {id: five, title: Five, value: 5, suit: Moon, copies: 2}
  - {id: zero, title: Zero, value: 0, suit: Sun, copies: 2}
"""


def test_the_constructs_no_shipped_game_uses_play_the_same_on_both_backends(tmp_path):
    """Counters kept per pair of players, previous(), % and / of the language (Python's),
    min and max of two numbers, members() of a player, a supply, a bounded counter, loops that
    break, a choice of no candidate, a menu of a range: the same traces on both backends."""
    game = interpreter.load(str(game_folder(tmp_path, "mixer", game_yaml=MIXER, chips_yaml=CHIPS)))
    compiled = native.NativeGame(game)
    kinds, prompts = set(), set()
    for players in (2, 3):
        for seed in range(25):
            py, c = play_both(game, compiled, players, seed)
            assert _dumped(c) == _dumped(py)
            kinds |= {e["counter"].split("#")[0] for e in py if e["type"] == "counter"}
            prompts |= {e["prompt"].split(" ")[0] for e in py if e["type"] == "choice"}
    assert kinds >= {"owed", "points", "pool", "round"}
    assert prompts >= {"Chip", "Settle"}


EVERY_GAME = ["karman-swap", "etherium", "seeders-exodus"] + \
    [f"tests/fixtures/{name}" for name in ("nim", "bids", "broken", "docs-game", "envoys", "robots", "workshop")]


@pytest.mark.parametrize("where", EVERY_GAME)
def test_every_game_the_backend_compiles_plays_the_python_backends_games(where):
    """Each game of the project, shipped or made for a test, that the native backend takes:
    10 random games at each player count, the same traces; one it refuses says what and where."""
    game = interpreter.load(where)
    try:
        compiled = native.NativeGame(game)
    except native.NotNative as refused:
        assert refused.pos is not None and refused.what
        pytest.skip(f"not native yet: {refused}")
    for players in range(game.min_players, min(game.max_players, 4) + 1):
        for seed in range(10):
            py, c = play_both(game, compiled, players, seed)
            assert _dumped(c) == _dumped(py)


def test_lists_kept_in_variables_outlive_the_arena_filling_up(tmp_path):
    """A long-lived procedure keeps a new list each round, and loops that wait walk lists too:
    the arena fills up many times over and is compacted, and the games stay the same."""
    game = small_game(tmp_path, """\
    let p = first(players)
    let kept = []
    let before = []
    repeat 60 times:
      set before = kept
      set kept = [each k in range(1, 30) where k % 3 != ticks % 3]
      for each q in players:
        choose x from kept where x > count(before) / 4 by q "Pick"
        add x to ticks
      if count(kept) == 0 or first(before) == 99:
        break
    win p
""")
    compiled = native.NativeGame(game)
    for seed in range(6):
        py, c = play_both(game, compiled, 2, seed)
        assert _dumped(c) == _dumped(py)
        assert sum(1 for e in py if e["type"] == "choice") == 120


def test_a_game_too_large_to_lay_out_stays_on_the_python_backend(tmp_path):
    """Content decides how many components a game has: past what the native state lays out
    (its zones for every component, its lists on the C stack), the game is refused, never
    run with lists that would overflow."""
    game = small_game(tmp_path, "    win first(players)\n")
    (tmp_path / "small" / "game.yaml").write_text(
        SMALL.replace("GAME", "    win first(players)\n").replace("zones:", "components:\n  token: {}\nzones:"),
        encoding="utf-8")
    cards = "".join(f"  - {{id: t{i}, title: T{i}, copies: 100}}\n" for i in range(50))
    (tmp_path / "small" / "tokens.yaml").write_text(
        "kind: cards\ngame: small\ncomponent: token\nstart: pile\ncards:\n" + cards, encoding="utf-8")
    game = interpreter.load(str(tmp_path / "small"))
    assert len(game.program.comp_card) == 5000
    with pytest.raises(native.NotNative, match="5,000 components"):
        native.NativeGame(game)


def _layers(scenarios: bool = True):
    """Each expansion of each shipped game, and each scenario, as (game, expansions, scenario)."""
    import yaml
    out = []
    for gid in ("karman-swap", "etherium", "seeders-exodus"):
        folder = interpreter.resources.content_dir() / gid / "expansions"
        if not folder.is_dir():
            continue
        for exp in sorted(p.name for p in folder.iterdir() if (p / "expansion.yaml").is_file()):
            out.append((gid, [exp], None))
            for sc in sorted((folder / exp / "scenarios").glob("*.yaml")) if scenarios else []:
                sid = yaml.safe_load(sc.read_text(encoding="utf-8")).get("id")
                out.append((gid, None, sid))
    return out


def _layered_games(gid, expansions, scenario, seeds: int):
    """`seeds` games of each player count of a game with a layer, on both backends."""
    game = interpreter.load(gid).with_layers(expansions, scenario, None)
    try:
        compiled = native.NativeGame(game)
    except native.NotNative as refused:
        assert refused.pos is not None and refused.what
        pytest.skip(f"not native yet: {refused}")
    counts = [n for n in range(game.min_players, game.max_players + 1)
              if game.program.scenario is None or n in (game.program.scenario.players or [n])]
    assert counts
    for players in counts:
        for seed in range(seeds):
            py, c = play_both(game, compiled, players, seed)
            assert _dumped(c) == _dumped(py)


@pytest.mark.parametrize("gid,expansions,scenario", _layers(scenarios=False),
                         ids=lambda v: ",".join(v) if isinstance(v, list) else str(v))
def test_every_expansion_the_backend_compiles_plays_the_same_games(gid, expansions, scenario):
    """What `simulate --expansion` would play natively: the same traces, or a refusal that says
    what and where (a game at each player count; `--slow`: ten, and every scenario too, each
    a game of its own to compile)."""
    _layered_games(gid, expansions, scenario, 1)


@pytest.mark.slow
@pytest.mark.parametrize("gid,expansions,scenario", _layers(),
                         ids=lambda v: ",".join(v) if isinstance(v, list) else str(v))
def test_many_games_of_every_expansion_and_scenario_are_the_same_on_both_backends(gid, expansions, scenario):
    _layered_games(gid, expansions, scenario, 10)


def test_a_function_calling_itself_without_end_stops_as_on_the_python_backend(tmp_path):
    folder = game_folder(tmp_path, "deep", game_yaml="""\
kind: game
id: deep
title: Deep
players: {min: 2, max: 2}
counters:
  ticks: {scope: game}
functions:
  down:
    params: [n]
    body: "select(n > 1000000, 0, down(n + 1) + 1)"
procedures:
  game: |
    add down(1) to ticks
    win first(players)
""")
    game = interpreter.load(str(folder))
    compiled = native.NativeGame(game)
    for make in (game.new_state, compiled.new_state):
        with pytest.raises(GameFault, match="the rules nest too deeply"):
            make(players=2, seed=1)


def test_the_cache_keeps_the_libraries_used_last(tmp_path, monkeypatch):
    from interpreter.native import build as B
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("REGLES_NO_CACHE", raising=False)
    monkeypatch.setattr(B, "KEEP", 2)
    for i in range(4):
        B.build(f"int rg_test_{i} = {i};\n")
    kept = sorted(p.name for p in (tmp_path / "regles" / "native").glob("game-*.so"))
    assert len(kept) == 2


def test_an_action_paid_by_a_sacrifice_plays_the_same_on_both_backends(tmp_path):
    """The workshop of the tests, its worker put on the bench: its action, paid by giving up a
    tool the player has in play, is offered, chosen, and moves the tool to the discard."""
    import shutil
    folder = tmp_path / "workshop"
    shutil.copytree(FIXTURES / "workshop", folder)
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    (folder / "game.yaml").write_text(text.replace('''    move card("lamp") to players[1].bench
''', '''    move card("lamp") to players[1].bench
    move card("worker") to players[1].bench
'''), encoding="utf-8")
    game = interpreter.load(str(folder))
    compiled = native.NativeGame(game)
    sacrificed = 0
    for seed in range(20):
        py, c = play_both(game, compiled, 2, seed)
        assert _dumped(c) == _dumped(py)
        sacrificed += sum(1 for e in py if e["type"] == "move" and e["to"] == "scrap")
    assert sacrificed > 0


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_a_seat_driven_by_content_decides_in_c_as_in_python(level):
    """Robots' solo mode: its automaton's `decide` and the `prefer` that ranks the options of
    the choices asked of it, traced at the rule that decided, on both backends alike."""
    rules = _rules_that_decided(interpreter.load(str(FIXTURES / "robots")), level, 10)
    assert rules == {1, "prefer"} if level == "hard" else rules == {2, "prefer"}


def _rules_that_decided(game, level: str, seeds: int) -> set:
    """Games of the solo mode of `game` at `level`, the same on both backends; the rules of the
    `decide`s and automata that decided in them."""
    game = game.with_layers(["solo"], None, None)
    compiled = native.NativeGame(game)
    rules = set()
    for seed in range(seeds):
        py, c = play_both(game, compiled, 2, seed, {"level": level})
        assert _dumped(c) == _dumped(py)
        rules |= {e["rule"] for e in py if e["type"] == "decide"}
    return rules


AUTOMATON = """\
kind: game
id: asked
title: Asked
players: {min: 2, max: 2}
counters:
  ticks: {scope: player}
score: ticks
automata:
  bot:
    title: Bot
    seat: 2
    prefer: "select(option == \\"Rest\\", 0, 1)"
procedures:
  game: |
    for each p in players:
      choose by p "Now?":
        option "Work {p}":
          add 1 to p.ticks
        option "Rest":
          add 2 to p.ticks
    win first(players)
"""


def test_an_automaton_ranking_a_label_made_in_play_stops_the_native_game_and_simulate_plays_it_in_python(
        tmp_path, capsys):
    """The C knows a label by its interned text: one made in play ("Work {p}") it cannot rank.
    The native game stops with NativeLimit there; simulate plays the game in Python instead,
    with the results of the Python backend."""
    from interpreter.runs import simulate as S
    folder = game_folder(tmp_path, "asked", game_yaml=AUTOMATON)
    game = interpreter.load(str(folder))
    compiled = native.NativeGame(game)
    st = compiled.new_state(players=2, seed=1)
    assert st.current_player == 0  # the first seat's choice is an agent's; the second seat's is the automaton's
    with pytest.raises(native.NativeLimit) as caught:
        st.apply(0)
    assert source_line(caught.value.pos).strip() == 'choose by p "Now?":'
    runs = [S.run(game, S.RunSpec(str(folder), 2, 5, 6, ["random", "random"], {}, backend=b))
            for b in ("native", "python")]
    got = [[(r.winners, r.scores, r.decisions, r.error) for r in run.results] for run in runs]
    assert got[0] == got[1] and all(r.error is None for r in runs[0].results)
    assert all(r.in_python for r in runs[0].results) and not any(r.in_python for r in runs[1].results)
    from interpreter.cli import main
    assert main(["simulate", str(folder), "--games", "4", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "played by the native backend (the rules in C, built by " in out
    assert "; 4 of 4 games by the Python backend, past what the C plays (a seat driven by content ranks an " \
           "option" in out
    assert {tuple(r.scores) for r in runs[0].results} == {(1, 2), (2, 2)}


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_the_solo_mode_plays_the_same_games_natively_at_every_level(level):
    """Seeders' solo mode, whose automaton KB12 decides by the rulebook's priorities (`decide`),
    reads its level's parameters from the data (`data.levels[options.level][key]`), passes lists
    to functions and ranks the options of the base game's choices asked of it (`prefer`)."""
    assert {0, 1, 2, 3} <= _rules_that_decided(interpreter.load("seeders-exodus"), level, 5)
