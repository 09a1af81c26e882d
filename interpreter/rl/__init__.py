"""Games for AI researchers: PettingZoo environments, OpenSpiel-shaped states, and an observation
vector and action space derived from the content (needs regles[rl]).

- `env(game, players=..., expansions=..., options=...)`: a PettingZoo AEC environment (`aec`).
- (`play.seat_env`: one seat as a Gymnasium environment, the others played by agents, and
  many at once; in the `play` wing, whose agents it plays the other seats with.)
- `Encoding`: one seat's observation as a fixed-size vector (`encoding`).
- `ActionMap`: a fixed action space, and the number of each option (`actions`).
- `spiel.SpielGame`: the game and its states under OpenSpiel's names (`spiel`);
  `pyspiel_game.register()` registers the shipped games with OpenSpiel when it is installed.

This package is a tool, in the tools wing of the layout (docs/architecture.md): it uses the
engine and the narration of `regles play`, and `regles explain --observation` uses it.
"""
from __future__ import annotations

from .actions import ActionMap
from .encoding import Encoding

try:
    from .aec import env, raw_env
except ImportError as _missing:  # PettingZoo or Gymnasium is not installed
    _WHY = f"the environments need PettingZoo and Gymnasium ({_missing.name} is missing): pip install 'regles[rl]'"

    def env(*args, **kwargs):
        raise ImportError(_WHY)

    def raw_env(*args, **kwargs):
        raise ImportError(_WHY)

__all__ = ["ActionMap", "Encoding", "env", "raw_env"]
