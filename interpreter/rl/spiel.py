"""A game and its states in OpenSpiel's shape, and their registration with pyspiel.

`SpielGame(game, players)` and its states use OpenSpiel's names where the
engine's differ: `current_player()` (a method; -4, OpenSpiel's TERMINAL, when
the game is over), `legal_actions()` as numbers of the game's fixed action
space (`actions.ActionMap`), `apply_action(number)`, `returns()`,
`observation_tensor(seat)` (`encoding.Encoding`), `observation_string(seat)`,
`information_state_string(seat)` and `clone()`. It needs NumPy only.

Chance comes in one of two ways, `chance` of `SpielGame`:

- "seeded" (the default): a game's randomness (shuffles, draws, dice) comes from the
  state's own seeded generator, so there are no chance nodes; in OpenSpiel's terms the
  game is SAMPLED_STOCHASTIC, and a state's seed (`new_initial_state(seed=...)`) fixes
  every chance outcome. A search that must not know the future reseeds its copies
  (`reseed`). The fastest way to play.
- "explicit": every shuffle, draw and die is a chance node of its own
  (`is_chance_node()`, `chance_outcomes()`, `current_player()` -1, OpenSpiel's CHANCE),
  its outcomes equally likely, applied with `apply_action` as a player's are (`chance`).
  What OpenSpiel's expectimax, chance sampling and CFR family expect.

With OpenSpiel installed, `pyspiel_game` makes them Python games of pyspiel
and registers the shipped ones.
"""
from __future__ import annotations

import gc
import json
import weakref

from .. import load
from ..content.layers import expansions_for
from ..engine.values import GivenRng, Rng
from ..view import worlds
from . import chance as explicit
from .actions import ActionMap
from .encoding import Encoding

TERMINAL = -4  # OpenSpiel's PlayerId.TERMINAL
CHANCE = -1  # OpenSpiel's PlayerId.CHANCE
CHANCE_MODES = ("seeded", "explicit")


_MADE: dict = {}  # key -> SpielGame: what a pickled state names is found again, not loaded again
_SETTLED: weakref.WeakSet = weakref.WeakSet()  # the programs whose objects a full collection has walked


def _settle(program) -> None:
    """The objects of a game and of the layouts just made counted as long-lived by the collector.

    A load leaves its objects in the oldest generation (`load`, one young collection), but the
    collector counts them as "pending" until a full collection has walked them, and starts one
    when the pending ones reach a quarter of the long-lived: soon after, in the first games, a
    full walk of every object of the game (measured in the environment's loop of a shipped game
    at 4 players: 365 k instructions a decision with it, 307 k after one full collection here,
    see docs/changelog-performance.md). So
    the first layout made of a program pays one full collection (about a hundredth of a second),
    and each later one a young collection of its own objects."""
    if program in _SETTLED:
        gc.collect(1)
        return
    gc.collect()
    _SETTLED.add(program)


class SpielGame:
    """A game for a number of players, with the fixed spaces of its states."""

    def __init__(self, game, players: int | None = None, options: dict | None = None, chance: str = "seeded"):
        if isinstance(game, str):
            game = load(game)
        if chance not in CHANCE_MODES:
            raise ValueError(f"chance is one of {', '.join(CHANCE_MODES)}, not {chance!r}")
        self.game = game
        self.chance = chance
        self.players = players if players is not None else game.min_players
        try:
            game.check_players(self.players)  # the game's player counts, and its scenario's
        except ValueError as e:
            more = expansions_for(game.program.root, self.players) if self.players > game.max_players else []
            if not more:
                raise
            hint = " or ".join(f"expansions={[x]}" for x in more)
            raise ValueError(f"{e} (with {hint}: up to {self.players})") from None
        self.options = game.options(options or {})
        self.encoding = Encoding(game.program, self.players)
        self.actions = ActionMap(game.program, self.players)
        _settle(game.program)
        self.max_chance_outcomes = explicit.max_outcomes(game.program, self.players) if chance == "explicit" else 0
        self.key = (game.source, json.dumps(game.layers_json(), sort_keys=True), self.players,
                    json.dumps(self.options, sort_keys=True, default=str), chance)
        _MADE[self.key] = self  # the latest made for these rules: what an unpickled state joins

    def __reduce__(self):  # pickled by what it is made of (OpenSpiel pickles Python states to copy them)
        return _spiel_game, self.key

    def __deepcopy__(self, memo) -> "SpielGame":  # the rules never change: copies of states share them
        return self

    def num_players(self) -> int:
        return self.players

    def num_distinct_actions(self) -> int:
        return self.actions.size

    def observation_tensor_shape(self) -> list:
        return [self.encoding.size]

    def observation_tensor_size(self) -> int:
        return self.encoding.size

    def information_state_tensor_shape(self) -> list:
        return [self.information_state_tensor_size()]

    def information_state_tensor_size(self) -> int:
        return self.encoding.size + self.actions.size

    def own_actions(self, history: list, seat: int) -> list:
        """For each action number, how many times `seat` took it in `history` ((seat, number)
        pairs), as floats."""
        counts = [0.0] * self.actions.size
        for p, a, *_ in history:
            if p == seat:
                counts[a] += 1.0
        return counts

    def new_initial_state(self, seed: int = 0) -> "SpielState":
        """The game's start: run to its first decision with the generator seeded by `seed`
        ("seeded"), or, with explicit chance, up to its first chance node (the seed unused)."""
        if self.chance == "explicit":
            blank = self.game.blank_state(self.players, seed, self.options)
            state, step = explicit.begin(self.game, blank, self.max_chance_outcomes)
            return SpielState(self, state, step)
        return SpielState(self, self.game.new_state(self.players, seed, self.options))


class SpielState:
    """A state of a game in OpenSpiel's shape (see the module's text)."""

    def __init__(self, spiel_game: SpielGame, state, step: "explicit.ChanceStep | None" = None):
        self.spiel_game = spiel_game
        self.state = state  # at a chance node: the state before the step that draws
        self.step = step  # the chance node this state is at (explicit chance), else None
        self._numbers = None
        # (seat or CHANCE, action number, whether the decision was secret) of every action applied
        # through this object
        self._history: list = []

    # who and what -------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.step is not None:
            return CHANCE
        return TERMINAL if self.state.is_terminal() else self.state.current_player

    def is_terminal(self) -> bool:
        return self.step is None and self.state.is_terminal()

    def is_chance_node(self) -> bool:
        return self.step is not None

    def chance_outcomes(self) -> list:
        """At a chance node, (outcome, probability) for each outcome of the draw, all equally
        likely; elsewhere none."""
        if self.step is None:
            return []
        n = self.step.outcomes
        return [(i, 1.0 / n) for i in range(n)]

    def is_simultaneous_node(self) -> bool:
        return False

    def legal_actions(self, player: int | None = None) -> list:
        if self.step is not None:
            return list(range(self.step.outcomes)) if player in (None, CHANCE) else []
        if self.state.is_terminal() or (player is not None and player != self.state.current_player):
            return []
        return sorted(self._legal())

    def legal_actions_mask(self, player: int | None = None) -> list:
        if self.step is not None:
            return [1] * self.step.outcomes if player in (None, CHANCE) else []
        mask = [0] * self.spiel_game.actions.size
        for a in self.legal_actions(player):
            mask[a] = 1
        return mask

    def _legal(self) -> list:
        if self._numbers is None:
            self._numbers = self.spiel_game.actions.numbers(self.state)
        return self._numbers

    def apply_action(self, action: int) -> None:
        sg = self.spiel_game
        if self.step is not None:  # a chance outcome
            self.state, self.step = explicit.give(sg.game, self.state, self.step, int(action), sg.max_chance_outcomes)
            self._history.append((CHANCE, int(action), True))
            self._numbers = None
            return
        numbers = self._legal()
        try:
            option = numbers.index(int(action))
        except ValueError:
            raise ValueError(f"action {action} ({sg.actions.describe(int(action))}) is not legal; "
                             f"legal: {sorted(numbers)}") from None
        self._history.append((self.state.current_player, int(action), bool(self.state.pending.secret)))
        if sg.chance == "explicit":
            self.state, self.step = explicit.play(self.state, option, sg.max_chance_outcomes)
        else:
            self.state.apply(option)
        self._numbers = None

    def action_to_string(self, player: int, action: int) -> str:
        """The option's label when it is legal now (with its number when another option has the same
        label, as two copies of a card do), else what the number means."""
        if player == CHANCE:
            return f"chance outcome {int(action)}" + (f" of {self.step.outcomes}" if self.step is not None else "")
        numbers = self._legal() if not self.state.is_terminal() else []
        if int(action) in numbers and player == self.state.current_player:
            labels = self.state.labels()
            label = labels[numbers.index(int(action))]
            return label if labels.count(label) == 1 else f"{label} #{int(action)}"
        return self.spiel_game.actions.describe(int(action))

    def returns(self) -> list:
        return self.state.returns() if self.is_terminal() else [0.0] * self.spiel_game.players

    def rewards(self) -> list:
        return self.returns()

    def history(self) -> list:
        return [a for _, a, _ in self._history]

    # what a seat knows ----------------------------------------------------------------------
    def observation_tensor(self, seat: int | None = None) -> list:
        return self.spiel_game.encoding.encode(self.state, self._seat(seat)).tolist()

    def observation_string(self, seat: int | None = None) -> str:
        return json.dumps(self.state.observation(self._seat(seat)), sort_keys=True, ensure_ascii=False)

    def information_state_tensor(self, seat: int | None = None) -> list:
        """The observation vector, then for each number of the action space how many times the
        seat took that action itself (`SpielGame.information_state_tensor_size`): what the seat
        sees now and what it did, without the order it did it in."""
        seat = self._seat(seat)
        return self.observation_tensor(seat) + self.spiel_game.own_actions(self._history, seat)

    def information_state_string(self, seat: int | None = None) -> str:
        """What the seat sees now, then every decision it saw made, in order: its own and the
        other seats' (relative seats: +0 is itself), an action number where the choice was made
        in view of the table, `?` where another seat chose secretly. Chance outcomes are left out:
        what they show the seat is in what it sees. So two histories that lead to the same view
        but through other moves are two information states (OpenSpiel's perfect recall)."""
        seat = self._seat(seat)
        n = self.spiel_game.players
        moves = [f"+{(p - seat) % n}:{a if p == seat or not secret else '?'}"
                 for p, a, secret in self._history if p != CHANCE]
        return self.observation_string(seat) + " | moves: " + ",".join(moves)

    def _seat(self, seat) -> int:
        if seat is None:
            if self.step is not None:
                raise ValueError("a chance node has no seat: name the seat whose view is wanted")
            seat = self.state.current_player
        if not 0 <= seat < self.spiel_game.players:
            raise ValueError(f"no seat {seat}: seats are 0 to {self.spiel_game.players - 1}")
        return seat

    # copies ----------------------------------------------------------------------------------
    def clone(self) -> "SpielState":
        copy = SpielState(self.spiel_game, self.state.clone(), self.step)
        copy._history = list(self._history)
        return copy

    def __deepcopy__(self, memo) -> "SpielState":  # what pyspiel does to clone a Python state
        return self.clone()

    def __reduce__(self):
        log = self.state.rng.log if type(self.state.rng) is GivenRng else None
        return _spiel_state, (self.spiel_game, self.state.to_json(), self._history, log, self.step)

    def resample_from_infostate(self, seat: int, sampler=None) -> "SpielState":
        """A state seat `seat` cannot tell from this one, with everything it cannot see drawn
        anew (`view.worlds`, the search agent's own sampling): hidden components dealt again,
        other seats' secret choices not yet shown made again, the generator reseeded.
        `sampler()` gives floats in [0, 1) (OpenSpiel's probability sampler); without one the
        draw depends on the state's own generator."""
        if self.step is not None:
            raise ValueError("resample_from_infostate is asked at a seat's decision, not at a chance node")
        rng = self.state.rng
        seed = int(sampler() * (1 << 62)) if sampler is not None else (
            rng.next64() if type(rng) is not GivenRng else len(self._history))
        world = worlds.sample(self.state, self._seat(seat), Rng(seed))
        if type(rng) is GivenRng:  # chance stays explicit in the world: what it brings next is asked
            world.rng = GivenRng(rng.log, len(rng.log))
        copy = SpielState(self.spiel_game, world)
        copy._history = list(self._history)
        return copy

    def reseed(self, seed: int) -> None:
        """Give the state's generator a new seed: what chance brings from now on is drawn anew.
        With explicit chance there is nothing to reseed: chance is asked, not drawn."""
        if type(self.state.rng) is not GivenRng:
            self.state.rng = Rng(seed)

    def __str__(self) -> str:
        if self.step is not None:
            return f"chance: a draw among {self.step.outcomes} outcomes"
        return self.observation_string(0) if not self.is_terminal() else f"over: returns {self.returns()}"


def _spiel_game(source: str, layers: str, players: int, options: str, chance: str = "seeded") -> SpielGame:
    made = _MADE.get((source, layers, players, options, chance))
    if made is not None:
        return made
    laid = json.loads(layers)
    game = load(source, laid.get("expansions", ()), laid.get("scenario"), laid.get("mods", ()),
                without=laid.get("without", ()))
    return SpielGame(game, players, json.loads(options), chance)


def _spiel_state(spiel_game: SpielGame, data: dict, history: list, log=None, step=None) -> SpielState:
    # restored as it was pickled, not played again from its history: a pickle is trusted as
    # Python trusts pickles, and a copy reseeded by a search is no state play alone reaches
    state = spiel_game.game.state_from_json(data, replay=False)
    if log is not None:
        state.rng = GivenRng(tuple(log), len(log))
    out = SpielState(spiel_game, state, explicit.ChanceStep(*step) if step is not None else None)
    out._history = [tuple(h) for h in history]
    return out
