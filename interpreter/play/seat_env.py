"""One seat of a game as a Gymnasium environment, the other seats played by this wing's agents;
and many of them at once with Gymnasium's vector API (needs regles[rl]).

    from interpreter.play.seat_env import SeatEnv, vector_env
    envs = vector_env(GAME, 8, players=2, opponents="random")      # 8 games in this process
    envs = vector_env(GAME, 8, players=2, processes=True)          # one process per game
    observations, infos = envs.reset(seed=1)

Why a single-agent environment for a turn-based game: a learner that trains one seat
against fixed opponents (random, greedy, a search agent, an earlier policy) sees each of its
own decisions as one step, the opponents' moves made inside the step, so the game is an
ordinary episodic environment: Gymnasium's `SyncVectorEnv` and `AsyncVectorEnv` step N of
them at once with their autoreset, and every library that trains on Gymnasium's API (with
action masks: Stable-Baselines3's MaskablePPO, CleanRL's masked PPO, PufferLib) takes them
as they are. PettingZoo's parallel API is for games whose agents all act at every step; in a
turn-based game all but one would have nothing to do, so its vector wrappers would step
masks of nothing. For self-play of every seat at once, the AEC environment (`aec.env`) is the
shape.

An observation is a dict, as the AEC environment's: `observation`, the seat's view as a
vector (`encoding.Encoding`), and `action_mask`, 1 for each legal action number of the
fixed action space (`actions.ActionMap`); `action_masks()` gives the mask as booleans (the
name MaskablePPO asks for). The vector's values are raw, or with `scaled=True` mapped into
[-1, 1] (`Encoding.scaled`). The reward is 0 until the end, then the game's return to the
seat: +1 when it wins, -1 when it does not and someone does, 0 when no one wins. The info of
the step that ends the game holds `scores`, every seat's final score (from seat 0): a learner
may shape its reward with the margin, a denser signal than the win alone.

An action the mask does not allow raises ValueError (`illegal="raise"`, the default: a
learner that ignores the mask is a mistake to find), or ends the game at once with a reward
of -1 (`illegal="lose"`: for libraries that sample the whole action space, and for
Gymnasium's `check_env`).
"""
from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces

from .. import load
from .agents import SeatView, agent_seed, make_agent, parse_agents
from ..rl.aec import observation_space
from ..rl.kept_observation import KeptObservations
from ..rl.spiel import SpielGame


class SeatEnv(gymnasium.Env):
    """Seat `seat` (from 0; "random": a seat drawn at each reset) of `game` (an id, a folder or
    a loaded Game) for `players`, the other seats played by `opponents` (an agent's name, as
    `--agents` takes: random, greedy, mcts:N; the same for every other seat)."""

    metadata = {"render_modes": []}

    def __init__(self, game, players: int | None = None, seat: int | str = 0, opponents: str = "random",
                 options: dict | None = None, expansions=(), scenario: str | None = None, mods=(),
                 illegal: str = "raise", scaled: bool = False):
        if isinstance(game, str):
            game = load(game, expansions, scenario, mods)
        made = SpielGame(game, players, options)
        self.game, self.players, self.game_options = game, made.players, made.options
        if seat != "random" and not (isinstance(seat, int) and 0 <= seat < self.players):
            raise ValueError(f"seat is a seat from 0 to {self.players - 1}, or 'random', not {seat!r}")
        parse_agents(opponents, 1)  # an unknown agent is refused now, not at the first reset
        if illegal not in ("raise", "lose"):
            raise ValueError(f"illegal is 'raise' or 'lose', not {illegal!r}")
        self.illegal = illegal
        self.seat_asked, self.opponents = seat, opponents
        self.encoding, self.actions = made.encoding, made.actions
        # the seat's vector, changed where the state changed; its values raw, or scaled into [-1, 1]
        self._observations = KeptObservations(made.encoding, scaled)
        self.observation_space = observation_space(self.encoding, self.actions, scaled)
        self.action_space = spaces.Discrete(self.actions.size)
        self.state_ = None
        self.seat = 0 if seat == "random" else seat
        self._agents: dict = {}
        self._numbers: list = []
        self._lost = False  # the game ended by an action the mask did not allow (illegal="lose")

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2 ** 31))
        if self.seat_asked == "random":
            self.seat = int(self.np_random.integers(self.players))
        self._agents = {s: make_agent(self.opponents, agent_seed(game_seed, s))
                        for s in range(self.players) if s != self.seat}
        self.state_ = self.game.new_state(self.players, game_seed, self.game_options)
        self._lost = False
        self._others_play()
        return self._observe(), self._info()

    def step(self, action):
        if self.state_ is None or self.state_.is_terminal() or self._lost:
            raise RuntimeError("the game is over (or not begun): reset the environment")
        try:
            option = self._numbers.index(int(action))
        except ValueError:
            if self.illegal == "lose":
                self._numbers = []
                self._lost = True
                return self._observe(), -1.0, True, False, self._info()
            raise ValueError(f"action {int(action)} ({self.actions.describe(int(action))}) is not legal now; "
                             f"legal: {self._numbers}") from None
        self.state_.apply(option)
        self._others_play()
        over = self.state_.is_terminal()
        reward = float(self.state_.returns()[self.seat]) if over else 0.0
        return self._observe(), reward, over, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal action numbers as a mask of booleans."""
        mask = np.zeros(self.actions.size, bool)
        mask[self._numbers] = True
        return mask

    def _others_play(self) -> None:
        """The other seats decide until the seat's turn comes, or the game ends."""
        st = self.state_
        while not st.is_terminal() and st.current_player != self.seat:
            p = st.current_player
            st.apply(self._agents[p].act(SeatView(st, p)))
        self._numbers = [] if st.is_terminal() else self.actions.numbers(st)

    def _observe(self) -> dict:
        mask = np.zeros(self.actions.size, np.int8)
        mask[self._numbers] = 1
        return {"observation": self._observations.encode(self.state_, self.seat), "action_mask": mask}

    def _info(self) -> dict:
        info = {"seat": self.seat, "legal_moves": list(self._numbers)}
        if self.state_ is not None and self.state_.is_terminal():
            info["scores"] = [float(s) for s in self.state_.scores()]  # a denser signal than the win alone
        return info


def vector_env(game: str, n: int, processes: bool = False, **kwargs):
    """`n` environments of `game` (an id or a folder: each process loads it) stepped together:
    Gymnasium's SyncVectorEnv, or its AsyncVectorEnv with one process per environment
    (`processes`). `kwargs` are SeatEnv's. Seeded with `reset(seed=S)`, environment i plays
    the games of seed S + i, whichever way it is stepped."""
    if not isinstance(game, str):
        raise TypeError("vector_env takes a game's id or folder (each environment loads it)")
    fns = [lambda: SeatEnv(game, **kwargs) for _ in range(n)]
    if processes:
        return gymnasium.vector.AsyncVectorEnv(fns)
    return gymnasium.vector.SyncVectorEnv(fns)
