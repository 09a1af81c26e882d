"""Train one seat of Karman Swap against random opponents with rlax and optax, and say how often it
wins before and after, on games it never trained on.

    pip install -e '.[train]'
    python examples/train_rlax.py                  # the figures of docs/researchers.md
    python examples/train_rlax.py --updates 3      # a quick look: the loop runs, nothing learnt

The learner is PPO, written from rlax's parts (DeepMind's library of reinforcement learning
building blocks, in JAX): generalised advantage estimation
(`rlax.truncated_generalized_advantage_estimation`), the clipped surrogate objective
(`rlax.clipped_surrogate_pg_loss`) and an entropy bonus (`rlax.entropy_loss`), with optax's Adam.
The policy is a small network over the seat's observation vector, its logits of the action
numbers the mask forbids set far below the others, so that it never picks an illegal action.

The games come from regles's Gymnasium environments (`interpreter.play.seat_env`): 8 games
stepped together (`vector_env`), each a seat drawn at random at every game, the other seat played
by the random agent. The reward it learns from is the final score margin that the last step's
info gives (`scores`), over 20: a denser signal than the win alone. The win rate is counted on
200 games of another seed, the policy sampling its moves as it does in training.

Everything is seeded: the same command gives the same figures on the same machine.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

try:
    import jax
    import jax.numpy as jnp
    import optax
    import rlax
except ImportError:  # pragma: no cover - said to the user, not tested
    sys.exit("this example needs rlax, optax and JAX: pip install -e '.[train]'")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a clone, not installed
from interpreter.play.seat_env import vector_env  # noqa: E402

GAME, PLAYERS, GAMES_AT_ONCE = "karman-swap", 2, 8
STEPS = 64  # steps of each game per update
EPOCHS, MINIBATCHES = 4, 4
GAMMA, LAMBDA, CLIP, ENTROPY, VALUE = 0.99, 0.95, 0.2, 0.01, 0.5
HIDDEN, RATE = 128, 3e-4
TRAIN_SEED, EVAL_SEED = 1, 10_000


def init(key, n_obs: int, n_actions: int) -> dict:
    """The network: one hidden layer (tanh), a head of logits and a head of value."""
    k1, k2, k3 = jax.random.split(key, 3)
    return {"w1": jax.random.normal(k1, (n_obs, HIDDEN)) / np.sqrt(n_obs), "b1": jnp.zeros(HIDDEN),
            "wp": jax.random.normal(k2, (HIDDEN, n_actions)) * 0.01, "bp": jnp.zeros(n_actions),
            "wv": jax.random.normal(k3, (HIDDEN,)) * 0.01, "bv": jnp.zeros(())}


def forward(params, obs, mask):
    """Logits (illegal actions far below the rest) and values of a batch of observations. The
    vector's values are raw counts and counters: divided by 10 and clipped."""
    h = jnp.tanh(jnp.clip(obs / 10.0, -5.0, 5.0) @ params["w1"] + params["b1"])
    logits = jnp.where(mask, h @ params["wp"] + params["bp"], -1e9)
    return logits, h @ params["wv"] + params["bv"]


@jax.jit
def act(params, obs, mask, key):
    logits, value = forward(params, obs, mask)
    action = jax.random.categorical(key, logits)
    logp = jax.nn.log_softmax(logits)[jnp.arange(action.shape[0]), action]
    return action, logp, value


@jax.jit
def advantages(rewards, discounts, values):
    """GAE per game (rlax works on one trajectory: mapped over the games), and the returns."""
    adv = jax.vmap(rlax.truncated_generalized_advantage_estimation, in_axes=(1, 1, None, 1), out_axes=1)(
        rewards, discounts, LAMBDA, values)
    return adv, adv + values[:-1]


def loss(params, obs, mask, actions, logp_old, adv, returns, valid):
    logits, values = forward(params, obs, mask)
    logp = jax.nn.log_softmax(logits)[jnp.arange(actions.shape[0]), actions]
    n, kept = actions.shape[0], jnp.maximum(valid.sum(), 1.0)
    # the steps that only start a new game (the vector resets a finished one at its next step) weigh nothing
    policy = rlax.clipped_surrogate_pg_loss(jnp.exp(logp - logp_old), adv * valid, CLIP) * n / kept
    entropy = rlax.entropy_loss(logits, valid) * n / kept
    value = 0.5 * jnp.sum(valid * (returns - values) ** 2) / kept
    return policy + VALUE * value + ENTROPY * entropy


optimiser = optax.chain(optax.clip_by_global_norm(0.5), optax.adam(RATE))


@jax.jit
def learn(params, opt_state, batch):
    grads = jax.grad(loss)(params, *batch)
    updates, opt_state = optimiser.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


def margin(info: dict, i: int) -> float:
    """The seat's final score margin over the best other seat, over 20."""
    scores, seat = info["scores"][i], int(info["seat"][i])
    return (scores[seat] - max(s for k, s in enumerate(scores) if k != seat)) / 20


def train(updates: int, seed: int = TRAIN_SEED, log=print):
    envs = vector_env(GAME, GAMES_AT_ONCE, players=PLAYERS, seat="random", opponents="random")
    n_obs = envs.single_observation_space["observation"].shape[0]
    n_actions = envs.single_action_space.n
    key = jax.random.PRNGKey(seed)
    key, sub = jax.random.split(key)
    params = init(sub, n_obs, n_actions)
    opt_state = optimiser.init(params)
    obs, info = envs.reset(seed=seed)
    starting = np.zeros(GAMES_AT_ONCE, bool)  # the game's last step ended it: this step starts the next
    played = 0
    for update in range(updates):
        buf = {k: [] for k in ("obs", "mask", "actions", "logp", "values", "rewards", "discounts", "valid")}
        for _ in range(STEPS):
            key, sub = jax.random.split(key)
            mask = obs["action_mask"].astype(bool)
            mask[starting] = True  # the action of a starting step is not read: any will do
            action, logp, value = act(params, obs["observation"], mask, sub)
            action = np.asarray(action)
            nxt, reward, done, cut, info = envs.step(action)
            over = done | cut
            rewards = np.array([margin(info, i) if over[i] else 0.0 for i in range(GAMES_AT_ONCE)], np.float32)
            for k, v in (("obs", obs["observation"]), ("mask", mask), ("actions", action), ("logp", logp),
                         ("values", value), ("rewards", rewards), ("discounts", GAMMA * (1.0 - over)),
                         ("valid", (~starting).astype(np.float32))):
                buf[k].append(np.asarray(v))
            played += int(over.sum())
            starting, obs = over, nxt
        last = act(params, obs["observation"], obs["action_mask"].astype(bool) | starting[:, None], key)[2]
        values = jnp.stack(buf["values"] + [last])
        adv, returns = advantages(jnp.stack(buf["rewards"]), jnp.stack(buf["discounts"]).astype(jnp.float32),
                                  values)
        flat = [jnp.concatenate(buf[k]) if buf[k][0].ndim > 1 else jnp.stack(buf[k]).reshape(-1)
                for k in ("obs", "mask", "actions", "logp")]
        flat += [adv.reshape(-1), returns.reshape(-1), jnp.stack(buf["valid"]).reshape(-1)]
        size = flat[2].shape[0]
        order_rng = np.random.default_rng(seed * 1_000_003 + update)
        for _ in range(EPOCHS):
            order = order_rng.permutation(size)
            for part in np.array_split(order, MINIBATCHES):
                params, opt_state = learn(params, opt_state, tuple(x[part] for x in flat))
        if log is not None and (update + 1) % 10 == 0:
            log(f"update {update + 1}/{updates}: {played} games played")
    envs.close()
    return params, played


def win_rate(params, games: int = 200, seed: int = EVAL_SEED) -> float:
    """The share of `games` games won, the policy sampling its moves, on games of another seed."""
    envs = vector_env(GAME, GAMES_AT_ONCE, players=PLAYERS, seat="random", opponents="random")
    obs, _ = envs.reset(seed=seed)
    key = jax.random.PRNGKey(seed)
    starting = np.zeros(GAMES_AT_ONCE, bool)
    wins = ended = 0
    while ended < games:
        key, sub = jax.random.split(key)
        mask = obs["action_mask"].astype(bool)
        mask[starting] = True
        action, _, _ = act(params, obs["observation"], mask, sub)
        obs, reward, done, cut, _ = envs.step(np.asarray(action))
        over = done | cut
        for i in np.flatnonzero(over):
            if ended < games:
                ended += 1
                wins += reward[i] > 0
        starting = over
    envs.close()
    return wins / games


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--updates", type=int, default=120, help="updates of the policy (each 8 x 64 steps)")
    ap.add_argument("--games", type=int, default=200, help="games to count the win rate on, before and after")
    ap.add_argument("--seed", type=int, default=TRAIN_SEED)
    args = ap.parse_args(argv)
    if args.updates < 1 or args.games < 1:
        ap.error("--updates and --games are at least 1")
    started = time.process_time()
    key = jax.random.PRNGKey(args.seed)
    probe = vector_env(GAME, 1, players=PLAYERS)
    untrained = init(jax.random.split(key)[1], probe.single_observation_space["observation"].shape[0],
                     probe.single_action_space.n)
    probe.close()
    before = win_rate(untrained, args.games)
    params, played = train(args.updates, args.seed, log=lambda line: print(line, file=sys.stderr))
    after = win_rate(params, args.games)
    print(f"against random: {before:.0%} before training, {after:.0%} after {played} games "
          f"({args.updates} updates, {time.process_time() - started:.0f} s of processor time)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
