"""The games in OpenSpiel's shape: the state API, copies and pickles, and, with OpenSpiel
installed, registration with pyspiel and its random simulation test."""
from __future__ import annotations

import pickle
import random

import pytest

pytest.importorskip("numpy", reason="the OpenSpiel-shaped states need NumPy (regles[rl] or regles[spiel])")

import interpreter  # noqa: E402
from interpreter.content.folders import shipped_games  # noqa: E402
from gamekit import player_counts  # noqa: E402
from interpreter.rl.spiel import TERMINAL, SpielGame  # noqa: E402


def _play(state, seed, steps=10**6):
    rng = random.Random(seed)
    while not state.is_terminal() and steps > 0:
        state.apply_action(rng.choice(state.legal_actions()))
        steps -= 1
    return state


@pytest.mark.parametrize("game_id", shipped_games())
def test_a_whole_game_through_the_openspiel_names(game_id):
    sg = SpielGame(game_id)
    st = sg.new_initial_state(seed=3)
    assert not st.is_chance_node() and st.current_player() in range(sg.num_players())
    seen_players = set()
    rng = random.Random(game_id)
    while not st.is_terminal():
        p = st.current_player()
        seen_players.add(p)
        legal = st.legal_actions()
        assert legal == sorted(legal) and all(0 <= a < sg.num_distinct_actions() for a in legal)
        assert st.legal_actions((p + 1) % sg.num_players()) == [] or sg.num_players() == 1
        assert len(st.observation_tensor(p)) == sg.observation_tensor_size()
        assert len({st.action_to_string(p, a) for a in legal}) == len(legal)
        st.apply_action(rng.choice(legal))
    assert st.current_player() == TERMINAL and seen_players == set(range(sg.num_players()))
    returns = st.returns()
    assert len(returns) == sg.num_players()
    assert any(r > 0 for r in returns) or set(returns) == {0.0}
    with pytest.raises(ValueError, match="not legal"):
        sg.new_initial_state(seed=3).apply_action(sg.num_distinct_actions() - 1)


def test_clones_and_pickles_go_on_as_the_original():
    sg = SpielGame("karman-swap", 3)
    st = _play(sg.new_initial_state(seed=8), 1, steps=40)
    twin, copied = st.clone(), pickle.loads(pickle.dumps(st))
    assert copied.spiel_game is sg and copied.history() == st.history() == twin.history()
    for s in (st, twin, copied):
        _play(s, 2)
    assert st.returns() == twin.returns() == copied.returns()
    assert st.state.to_json() == twin.state.to_json() == copied.state.to_json()


def test_information_state_is_the_seat_s_view_and_its_own_moves():
    sg = SpielGame("seeders-exodus", 3)
    st = _play(sg.new_initial_state(seed=4), 5, steps=30)
    seat = st.current_player()
    info = st.information_state_string(seat)
    moves = [f"+{(p - seat) % 3}:{'?' if secret and p != seat else a}" for p, a, secret in st._history]
    assert info.endswith(" | moves: " + ",".join(moves)) and "+0:" in info
    others = {o: st.information_state_string(o) for o in range(3) if o != seat}
    assert all(v != info for v in others.values())
    # what another seat holds in its hand is not in this seat's view
    hidden_hand = st.state.observation(seat)["zones"][f"hand#{(seat + 1) % 3}"]
    assert isinstance(hidden_hand, dict) and set(hidden_hand) == {"count"}


def test_reseeding_changes_what_chance_brings_next_not_what_is():
    sg = SpielGame("karman-swap", 2)
    st = _play(sg.new_initial_state(seed=1), 3, steps=20)
    a, b = st.clone(), st.clone()
    b.reseed(12345)
    assert a.state.zones == b.state.zones and a.legal_actions() == b.legal_actions()
    differ = False
    for seed in range(5):
        x, y = a.clone(), b.clone()
        _play(x, seed)
        _play(y, seed)
        differ = differ or x.state.to_json()["zones"] != y.state.to_json()["zones"]
    assert differ


def test_a_reseeded_copy_pickles_and_goes_on_as_it():
    """A reseeded copy is no state its seed and history lead to: pickled, it is restored as
    it was (a pickle is trusted), not refused for disagreeing with its history."""
    sg = SpielGame("karman-swap", 2)
    st = _play(sg.new_initial_state(seed=1), 3, steps=20)
    st.reseed(12345)
    copied = pickle.loads(pickle.dumps(st))
    assert copied.state.to_json() == st.state.to_json()
    for s in (st, copied):
        _play(s, 4)
    assert st.state.to_json() == copied.state.to_json() and st.returns() == copied.returns()


def _sim_cases():
    """Each shipped game at its fewest players, and (marked slow: the same test on a longer
    game) at its most."""
    out = []
    for name in shipped_games():
        fewest, most = player_counts(name)[0], player_counts(name)[-1]
        out.append(pytest.param(name, fewest, id=f"{name}-{fewest}"))
        if most != fewest:
            out.append(pytest.param(name, most, id=f"{name}-{most}", marks=pytest.mark.slow))
    return out


@pytest.mark.parametrize("name,players", _sim_cases())
def test_openspiel_s_random_simulation_test_passes(name, players):
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install 'regles[spiel]')")
    from interpreter.rl import pyspiel_game
    pyspiel_game.register()
    game = pyspiel.load_game("regles_" + name.replace("-", "_"), {"players": players})
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_registered_with_pyspiel_under_each_shipped_game_s_name():
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install 'regles[spiel]')")
    from interpreter.rl import pyspiel_game
    names = pyspiel_game.register()
    assert set(names) == {"regles_" + g.replace("-", "_") for g in shipped_games()}
    state = pyspiel.load_game("regles_karman_swap", {"players": 2}).new_initial_state()
    assert state.is_chance_node()  # the set-up's first shuffle
    _to_a_seat(state, random.Random(7))
    assert state.current_player() == 0 and len(state.observation_tensor(0)) > 0
    seeded = pyspiel.load_game("regles_karman_swap", {"players": 2, "chance": "seeded"}).new_initial_state()
    assert seeded.is_chance_node() and len(seeded.chance_outcomes()) == 1 << 16
    seeded.apply_action(7)
    assert seeded.current_player() == 0


def _to_a_seat(state, r):
    """Chance outcomes drawn with `r` until a seat decides (or the game ends)."""
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[r.randrange(len(outcomes))][0])


@pytest.mark.parametrize("name", shipped_games())
def test_a_world_resampled_from_an_information_state_never_contradicts_the_seat(name):
    """`resample_from_infostate` (what OpenSpiel's IS-MCTS searches in) draws what the seat cannot
    see anew and nothing else: at each decision of a random game, every seat sees the world as the
    real state (its observation and information state), and the world plays on under the rules."""
    players = player_counts(name)[-1] if name == "etherium" else player_counts(name)[0]
    sg = SpielGame(name, players)
    st = sg.new_initial_state(4)
    r = random.Random(4)
    redrawn = checked = 0
    for step in range(160):
        if st.is_terminal():
            break
        if step % 4 == 0:
            for seat in range(players):
                world = st.resample_from_infostate(seat, r.random)
                assert world.observation_string(seat) == st.observation_string(seat)
                assert world.information_state_string(seat) == st.information_state_string(seat)
                if seat == st.current_player():
                    assert world.legal_actions() == st.legal_actions()
                redrawn += world.state.to_json() != st.state.to_json()
                checked += 1
                world.apply_action(r.choice(world.legal_actions()))  # a world plays on
        st.apply_action(r.choice(st.legal_actions()))
    assert checked > 20 and redrawn > checked // 2


@pytest.mark.parametrize("name", shipped_games())
def test_openspiel_s_ismcts_plays_each_game_through_resample_from_infostate(name):
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install 'regles[spiel]')")
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts
    from interpreter.rl.pyspiel_game import load_spiel_game
    game = load_spiel_game(name, player_counts(name)[0])
    state = game.new_initial_state()
    r = random.Random(5)
    _to_a_seat(state, r)
    calls = []
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)), 2.0, 8,
                           random_state=np.random.RandomState(2))
    bot.set_resampler(lambda s, p: calls.append(p) or s.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0., 1.)))
    for _ in range(6):
        if state.is_terminal():
            break
        action = bot.step(state) if state.current_player() == 0 else r.choice(state.legal_actions())
        assert action in state.legal_actions()
        state.apply_action(action)
        _to_a_seat(state, r)
    assert calls and set(calls) == {0}


def test_the_information_state_tensor_is_the_observation_and_the_seat_s_own_actions():
    sg = SpielGame("karman-swap", 2)
    st = sg.new_initial_state(3)
    r = random.Random(3)
    mine = []
    for _ in range(12):
        if st.current_player() == 0:
            mine.append(r.choice(st.legal_actions()))
            st.apply_action(mine[-1])
        else:
            st.apply_action(r.choice(st.legal_actions()))
    tensor = st.information_state_tensor(0)
    assert len(tensor) == sg.information_state_tensor_size() == sg.encoding.size + sg.actions.size
    assert tensor[:sg.encoding.size] == st.observation_tensor(0)
    tail = tensor[sg.encoding.size:]
    assert sum(tail) == len(mine) > 0 and all(tail[a] >= 1 for a in mine)
    assert st.information_state_tensor(1)[sg.encoding.size:] != tail


def test_pyspiel_gives_the_information_state_tensor_and_string():
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install 'regles[spiel]')")
    from interpreter.rl.pyspiel_game import load_spiel_game
    game = load_spiel_game("karman-swap", 2)
    assert game.get_type().provides_information_state_tensor
    state = game.new_initial_state()
    r = random.Random(2)
    _to_a_seat(state, r)
    for _ in range(5):
        state.apply_action(r.choice(state.legal_actions()))
        _to_a_seat(state, r)
    seat = state.current_player()
    assert len(state.information_state_tensor(seat)) == game.information_state_tensor_size()
    assert state.information_state_string(seat) == state.inner.information_state_string(seat)
    assert state.information_state_string(seat) != state.observation_string(seat)


def test_the_information_state_recalls_the_moves_seen_and_not_the_secret_ones():
    """Etherium's programmes are chosen secretly: another seat's programme is a `?` in a seat's
    information state, its own is its action number, and a move made in view of all is seen."""
    sg = SpielGame("etherium", 3)
    st = sg.new_initial_state(6)
    r = random.Random(6)
    while not any(secret and p == 1 for p, _, secret in st._history):
        st.apply_action(r.choice(st.legal_actions()))
    secret_move = next(i for i, (p, _, secret) in enumerate(st._history) if secret and p == 1)
    seen_by = {seat: st.information_state_string(seat).split(" | moves: ")[1].split(",") for seat in range(3)}
    assert seen_by[0][secret_move] == "+1:?" and seen_by[2][secret_move] == "+2:?"
    assert seen_by[1][secret_move] == f"+0:{st._history[secret_move][1]}"
    public = next(i for i, (p, _, secret) in enumerate(st._history) if not secret and p == 0)
    assert seen_by[1][public] == f"+2:{st._history[public][1]}"  # seat 0 is two after seat 1
