"""The layout of a game's observation vector and action space, in words
(`regles explain GAME --observation`)."""
from __future__ import annotations

from .actions import ActionMap
from .encoding import Encoding


def describe(game, players: int) -> list:
    enc, acts = Encoding(game.program, players), ActionMap(game.program, players)
    lines = [f"Observation of {game.id} for {players} players: {enc.size:,} values (float32), "
             "seen from the observing seat (seat +0 is itself)",
             f"  {'block':<12} {'offset':>7} {'size':>7}  what"]
    lines += [f"  {name:<12} {off:>7,} {size:>7,}  {what}" for name, off, size, what in enc.describe()]
    inverse, logs = enc.scaling()
    lines += [f"  Values are raw; with scaled=True each lies in [-1, 1]: {int((inverse < 1).sum()):,} divided by "
              f"their declared bound or room, {logs.size:,} by a signed logarithm (no bound declared), the rest as they are (0 or 1)."]
    lines += ["", f"Actions of {game.id} for {players} players: {acts.size:,} numbers, each option of a decision "
                  "given one (the mask says which are legal)",
              f"  {'block':<12} {'offset':>7} {'size':>7}  what"]
    lines += [f"  {name:<12} {off:>7,} {size:>7,}  {what}" for name, off, size, what in acts.blocks]
    if acts.needs_position:
        lines += ["  A position block, because no block numbers what these choices may offer (a text, a list, "
                  "a number without a known bound, or what the analysis cannot tell):"]
        lines += [f"    {pos}" for pos in acts.needs_position]
    else:
        lines += ["  No position block: every value each choice may offer has a number of its own."]
    lines += ["", "Menu options (a block of values each when offered for each of a list):"]
    lines += [f"  {base:>7,} {size:>7,}  {text}" + ("" if values is None else f" ({values.summary()})")
              for base, size, text, values in acts.meanings]
    return lines
