"""One seat of a game as a Gymnasium environment (`play.seat_env`), and many at once."""
from __future__ import annotations

import pytest

np = pytest.importorskip("numpy", reason="the environments need NumPy (regles[rl])")
pytest.importorskip("gymnasium", reason="the environments need Gymnasium (regles[rl])")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from gamekit import player_counts  # noqa: E402
from interpreter.content.folders import shipped_games  # noqa: E402
from interpreter.play.seat_env import SeatEnv, vector_env  # noqa: E402


@pytest.mark.parametrize("name", shipped_games())
def test_gymnasium_s_checker_passes(name):
    check_env(SeatEnv(name, player_counts(name)[0], illegal="lose"), skip_render_check=True)


def _masked_random(obs, rng):
    """A legal action for each environment (0 for one whose game ended: the vector resets it and
    takes no action)."""
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in obs["action_mask"]])


def test_a_whole_game_of_one_seat_against_random_opponents():
    env = SeatEnv("karman-swap", 3, seat=2)
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(4)
    steps, over, reward = 0, False, 0.0
    while not over:
        assert info["seat"] == 2 and env.state_.current_player == 2  # the others played in between
        assert obs["action_mask"].sum() == len(info["legal_moves"]) > 0
        assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
        assert "scores" not in info  # said when the game ends
        obs, reward, over, truncated, info = env.step(rng.choice(info["legal_moves"]))
        assert not truncated
        steps += 1
    assert reward == env.state_.returns()[2] and reward in (-1.0, 1.0)
    scores = info["scores"]
    assert scores == env.state_.scores() and len(scores) == 3
    assert (reward == 1.0) == (scores[2] == max(scores))  # the winner has the best score
    assert steps < len(env.state_.history)  # the other seats' decisions were made inside the steps
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_an_action_the_mask_forbids_is_refused_or_loses():
    env = SeatEnv("karman-swap", 2)
    obs, info = env.reset(seed=1)
    forbidden = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        env.step(forbidden)
    losing = SeatEnv("karman-swap", 2, illegal="lose")
    losing.reset(seed=1)
    _, reward, over, _, _ = losing.step(forbidden)
    assert over and reward == -1.0


def test_seat_random_draws_the_learner_s_seat_at_each_reset():
    env = SeatEnv("karman-swap", 4, seat="random")
    seats = {env.reset(seed=s)[1]["seat"] for s in range(12)}
    assert len(seats) > 2


def test_many_games_stepped_together_give_what_each_gives_alone():
    """A vector of environments, in this process or one process each, plays environment i as a
    lone environment seeded S + i plays it: the same observations and rewards, step for step."""
    n, seed = 3, 7
    alone = [SeatEnv("karman-swap", 2) for _ in range(n)]
    firsts = [e.reset(seed=seed + i)[0] for i, e in enumerate(alone)]
    for processes in (False, True):
        envs = vector_env("karman-swap", n, processes=processes, players=2)
        obs, _ = envs.reset(seed=seed)
        for i in range(n):
            assert np.array_equal(obs["observation"][i], firsts[i]["observation"])
        envs.close()
    envs = vector_env("karman-swap", n, players=2)
    obs, _ = envs.reset(seed=seed)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(400):
        actions = _masked_random(obs, rng)
        obs, rewards, over, _, _ = envs.step(actions)
        for i, e in enumerate(alone):
            if e.state_.is_terminal():
                continue  # the vector resets it at its next step; the lone one is done
            o, r, done, _, _ = e.step(actions[i])
            assert r == rewards[i] and done == over[i]
            if not done:
                assert np.array_equal(o["observation"], obs["observation"][i])
            ended += done
        if all(e.state_.is_terminal() for e in alone):
            break
    envs.close()
    assert ended == n
