"""The games as Python games of OpenSpiel (`pyspiel`), on top of `spiel.SpielGame`.

Needs OpenSpiel (regles[spiel]): `register()` registers every shipped game as
`regles_<id>` (hyphens as underscores), with parameters `players`, `chance` and `seed`;
`load_spiel_game(game, players)` makes one for any loaded game. Each game is SEQUENTIAL,
EXPLICIT_STOCHASTIC, IMPERFECT_INFORMATION, with terminal rewards: +1 for
each winner, -1 for the others. Its chance nodes are, with `chance="explicit"` (the
default), every shuffle, draw and die of the rules, each outcome equally likely
(`chance.py`); with `chance="seeded"`, one node, the first, which draws the seed of the
game among SEEDS equally likely ones (offset by the `seed` parameter), every later
shuffle, draw or roll coming from that seed inside the state.
"""
from __future__ import annotations

import numpy as np
import pyspiel

from ..content.folders import shipped_games
from .spiel import SpielGame

MAX_GAME_LENGTH = 20_000  # decisions: simulate's bound of a game that does not end
SEEDS = 1 << 16  # the outcomes of the chance node that starts each game


def _game_type(name: str, title: str, spiel_game: SpielGame):
    g = spiel_game.game
    return pyspiel.GameType(
        short_name=name, long_name=f"regles: {title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=g.max_players, min_num_players=g.min_players,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"players": spiel_game.players, "chance": "explicit", "seed": 0})


def _game_info(spiel_game: SpielGame):
    outcomes = spiel_game.max_chance_outcomes if spiel_game.chance == "explicit" else SEEDS
    return pyspiel.GameInfo(
        num_distinct_actions=spiel_game.actions.size, max_chance_outcomes=outcomes, num_players=spiel_game.players,
        min_utility=-1.0, max_utility=1.0, utility_sum=None, max_game_length=MAX_GAME_LENGTH)


class RulesGame(pyspiel.Game):
    def __init__(self, spiel_game: SpielGame, name: str, params=None):
        self.spiel_game = spiel_game
        params = dict(params or {})
        self.seed = int(params.get("seed", 0))
        super().__init__(_game_type(name, spiel_game.game.title, spiel_game), _game_info(spiel_game),
                         {"players": spiel_game.players, "chance": spiel_game.chance, "seed": self.seed})

    def new_initial_state(self):
        if self.spiel_game.chance == "explicit":
            return RulesState(self, self.spiel_game.new_initial_state(self.seed))
        return RulesState(self, None)

    def __deepcopy__(self, memo):  # a game never changes: its copies are itself
        return self

    def make_py_observer(self, iig_obs_type=None, params=None):
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return RulesObserver(self.spiel_game, recall)


class RulesState(pyspiel.State):
    """A `spiel.SpielState` (`inner`) under pyspiel's names; with seeded chance, `inner` is
    None before the first chance outcome, the seed, and then the state it started."""

    def __init__(self, game, inner):
        super().__init__(game)
        self.spiel_game = game.spiel_game
        self.base_seed = game.seed
        self.inner = inner

    def current_player(self):
        if self.inner is None or self.inner.is_chance_node():
            return pyspiel.PlayerId.CHANCE
        return pyspiel.PlayerId.TERMINAL if self.inner.is_terminal() else self.inner.current_player()

    def chance_outcomes(self):
        if self.inner is not None:
            return self.inner.chance_outcomes()
        p = 1.0 / SEEDS
        return [(i, p) for i in range(SEEDS)]

    def _legal_actions(self, player):
        return self.inner.legal_actions(player)

    def _apply_action(self, action):
        if self.inner is None:
            self.inner = self.spiel_game.new_initial_state(self.base_seed * SEEDS + int(action))
        else:
            self.inner.apply_action(action)

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state `player_id` cannot tell from this one (`SpielState.resample_from_infostate`):
        what OpenSpiel's IS-MCTS searches in."""
        if self.inner is None:
            return RulesState(self.get_game(), None)
        return RulesState(self.get_game(), self.inner.resample_from_infostate(player_id, probability_sampler))

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {action}" if self.inner is None else self.inner.action_to_string(-1, action)
        return self.inner.action_to_string(player, action)

    def is_terminal(self):
        return self.inner is not None and self.inner.is_terminal()

    def returns(self):
        return [0.0] * self.spiel_game.players if self.inner is None else self.inner.returns()

    def __str__(self):
        return "chance: the seed of the game" if self.inner is None else str(self.inner)


class RulesObserver:
    """OpenSpiel's PyObserver: the observation vector of `encoding` and the observation string;
    with `recall` (OpenSpiel's perfect recall: the information state), the vector followed by
    how many times the seat took each action, and the information state string."""

    def __init__(self, spiel_game: SpielGame, recall: bool = False):
        self.spiel_game = spiel_game
        self.recall = recall
        size = spiel_game.information_state_tensor_size() if recall else spiel_game.encoding.size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"info_state" if recall else "observation": self.tensor}

    def set_from(self, state, player):
        if state.inner is None:
            self.tensor.fill(0)
            return
        n = self.spiel_game.encoding.size
        self.tensor[:n] = self.spiel_game.encoding.encode(state.inner.state, player)
        if self.recall:
            self.tensor[n:] = self.spiel_game.own_actions(state.inner._history, player)

    def string_from(self, state, player):
        if state.inner is None:
            return ""
        return state.inner.information_state_string(player) if self.recall else state.inner.observation_string(player)


def load_spiel_game(game, players: int | None = None, options: dict | None = None,
                    chance: str = "explicit") -> RulesGame:
    """A pyspiel game for `game` (an id, a folder or a loaded Game), not registered; `chance`:
    "explicit" (every shuffle, draw and die a chance node) or "seeded" (one node, the seed)."""
    spiel_game = SpielGame(game, players, options, chance)
    return RulesGame(spiel_game, spiel_name(spiel_game.game.id))


def spiel_name(game_id: str) -> str:
    return "regles_" + game_id.replace("-", "_")


def register() -> list:
    """Register each shipped game under regles_<id>, with parameters `players` and `seed`: as a
    class of its own, as OpenSpiel's Python games are (a registered class, not a function, is what
    pyspiel lets go of cleanly when Python ends)."""
    names = []
    for game_id in shipped_games():
        name = spiel_name(game_id)
        if name not in pyspiel.registered_names():
            default = SpielGame(game_id, chance="explicit")

            def __init__(self, params=None, game_id=game_id, name=name):
                params = dict(params or {})
                made = SpielGame(game_id, int(params.get("players", 0)) or None, chance=str(params.get("chance", "explicit")))
                RulesGame.__init__(self, made, name, params)

            cls = type(name, (RulesGame,), {"__init__": __init__})
            _REGISTERED[name] = cls
            pyspiel.register_game(_game_type(name, default.game.title, default), cls)
        names.append(name)
    return names


_REGISTERED: dict = {}  # name -> the class registered for it, kept alive as long as pyspiel is
