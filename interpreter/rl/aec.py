"""Any game as a PettingZoo AEC environment (needs regles[rl]: PettingZoo and Gymnasium).

    from interpreter.rl import env
    e = env("path/to/my-game", players=2)
    e.reset(seed=1)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else e.action_space(agent).sample(observation["action_mask"])
        e.step(action)

Agents are named by seat, `player_1` to `player_N`. Each observation is a dict:
`observation`, the seat's view as a vector (`encoding.Encoding`), and
`action_mask`, 1 for the options of the decision when that agent decides
(all 0 otherwise) over the game's fixed action space (`actions.ActionMap`).
The vector's values are raw (counts, counters, attributes as the state has them), or with
`scaled=True` mapped into [-1, 1] by what the content declares of each (`Encoding.scaled`).
Rewards are 0 until the end, then the game's returns: +1 for each winner,
-1 for the others, 0 for all when no one wins. `render()` gives the text
`regles play` tells of the events since the last call (render_mode "ansi"),
or prints it ("human").
"""
from __future__ import annotations

import io
import random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .. import load
from ..limits import MAX_NUMBER
from ..view.narrate import Narrator
from .kept_observation import KeptObservations
from .spiel import SpielGame


def observation_space(encoding, actions, scaled: bool = False) -> spaces.Dict:
    """The space of an observation: the seat's vector (`encoding`), its values raw or `scaled`
    into [-1, 1], and the mask of the legal numbers of the action space (`actions`)."""
    bound = 1.0 if scaled else float(MAX_NUMBER)
    return spaces.Dict({"observation": spaces.Box(-bound, bound, (encoding.size,), np.float32),
                        "action_mask": spaces.Box(0, 1, (actions.size,), np.int8)})


def env(game, players: int | None = None, **kwargs):
    """The environment of `game` (an id, a folder or a loaded Game), wrapped so that it is used
    in order (reset before step, as PettingZoo's own environments are)."""
    return InOrder(raw_env(game, players, **kwargs))


class InOrder(wrappers.OrderEnforcingWrapper):
    """PettingZoo's wrapper that enforces the order of calls (reset before the rest), with the
    reads of every step of the AEC loop made in one call each: the wrapper reads what it does not
    hold through two `__getattr__`s a name, five names in each `last()` and two in each turn of
    `agent_iter()`, which came to a fifth of a step's own work. Same checks, same errors."""

    def _reset_first(self, name: str) -> None:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")

    @property
    def agents(self):
        self._reset_first("agents")
        return self.env.agents

    @property
    def agent_selection(self):
        self._reset_first("agent_selection")
        return self.env.agent_selection

    def last(self, observe: bool = True):
        self._reset_first("agent_selection")
        return self.env.last(observe)


_NONE_LEGAL = {"legal_moves": []}  # the info of an agent not to move


class raw_env(AECEnv):  # noqa: N801 - PettingZoo's name for the unwrapped environment
    metadata = {"render_modes": ["ansi", "human"], "name": "regles", "is_parallelizable": False}

    def __init__(self, game, players: int | None = None, expansions=(), options: dict | None = None,
                 scenario: str | None = None, mods=(), render_mode: str | None = None, render_seat: int | None = None,
                 scaled: bool = False):
        super().__init__()
        if isinstance(game, str):
            game = load(game, expansions, scenario, mods)
        made = SpielGame(game, players, options)  # the players, options and spaces, checked once
        self.game, self.players, self.game_options = game, made.players, made.options
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        self.render_seat = render_seat  # None: the narration tells everything, as to a spectator
        self.metadata = dict(self.metadata, name=f"regles_{game.id}")
        self.encoding, self.actions = made.encoding, made.actions
        # each agent's vector, changed where the state changed; its values raw, or scaled into [-1, 1]
        self._observations = KeptObservations(made.encoding, scaled)
        self.possible_agents = [f"player_{i + 1}" for i in range(self.players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self._observation_space = observation_space(self.encoding, self.actions, scaled)
        self._action_space = spaces.Discrete(self.actions.size)
        self._no_actions = np.zeros(self.actions.size, np.int8)  # the mask, copied and filled at each step
        self.state_ = None
        self._seeds = random.Random()
        self._numbers: list = []
        self._narrator = None
        self._told = io.StringIO()

    def observation_space(self, agent):
        return self._observation_space

    def action_space(self, agent):
        return self._action_space

    # the AEC loop -------------------------------------------------------------------------
    def reset(self, seed=None, options=None):
        if seed is not None:
            self._seeds.seed(seed)
        game_seed = self._seeds.randrange(2 ** 31)
        self.state_ = self.game.new_state(self.players, game_seed, self.game_options,
                                          trace=self.render_mode is not None)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._told = io.StringIO()
        # told as `regles play` and the web table tell it: a run of moves alike in one line
        self._narrator = Narrator(self.state_, self.render_seat, self._told, group=True) if self.render_mode else None
        self._after_step()

    def _after_step(self) -> None:
        st = self.state_
        if st.is_terminal():
            returns = st.returns()
            self.rewards = {a: float(returns[self.agent_name_mapping[a]]) for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
            self._numbers = []
            self.agent_selection = self.agents[0] if self.agents else None
        else:
            self._numbers = self.actions.numbers(st)
            self.agent_selection = self.possible_agents[st.current_player]
        infos, chosen = self.infos, self.agent_selection
        for a in self.agents:
            # a new dict only where the legal moves changed: the agent to move, and any that held some
            if a == chosen:
                infos[a] = {"legal_moves": self._numbers}
            elif infos.get(a) != _NONE_LEGAL:
                infos[a] = {"legal_moves": []}

    def observe(self, agent):
        seat = self.agent_name_mapping[agent]
        mask = self._no_actions.copy()
        if agent == self.agent_selection and not self.state_.is_terminal():
            legal = memoryview(mask)  # a few writes of one value: cheaper than numpy's indexing by a list
            for k in self._numbers:
                legal[k] = 1
        return {"observation": self._observations.encode(self.state_, seat), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action = int(action)
        try:
            option = self._numbers.index(action)
        except ValueError:
            raise ValueError(f"action {action} ({self.actions.describe(action)}) is not legal for {agent} now; "
                             f"legal: {self._numbers}") from None
        self._cumulative_rewards[agent] = 0.0
        if self._narrator is not None:
            self._narrator.before(self.state_)
        self.state_.apply(option)
        if self._narrator is not None:
            self._narrator.flush()
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._after_step()
        if self.state_.is_terminal():  # the rewards are 0 until the end: adding them changes nothing
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            return None
        if self._narrator is not None and self._narrator.done == 0:
            self._narrator.flush()
        text = self._told.getvalue()
        self._told.seek(0)
        self._told.truncate()
        if self.render_mode == "human":
            print(text, end="")
            return None
        return text

    def close(self):
        self._narrator = None

    # for people and search --------------------------------------------------------------------
    def legal_moves(self) -> list:
        """The action numbers legal now, in the engine's order of the options."""
        return list(self._numbers)

    def action_meaning(self, action: int) -> str:
        return self.actions.describe(int(action))
