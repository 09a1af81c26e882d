"""Chance as chance: every shuffle, draw and die of a game as a chance node of its own.

With `SpielGame(..., chance="explicit")` a state's random generator is a `GivenRng`, which
draws nothing itself: a step that needs a draw stops with `ChanceNeeded`, naming how many
outcomes each draw asked for has (a die of 6 sides: 6; `random(S)`: the members of S; a
shuffle of n components: its n - 1 draws at once, of n, n - 1, ..., 2 outcomes, the
Fisher-Yates shuffle's). The state becomes a chance node for each of them in turn, each
outcome equally likely; once all are given, the step is played again from a copy taken
before it, with those outcomes, until it reaches the next decision (or asks for more).
Playing the step again is what lets chance stop anywhere inside compiled rules: the rules
run as ever, and only the generator knows.

A shuffle of a deck of 60 is 59 chance nodes, of 60 to 2 outcomes: their product is the 60!
orders, each as likely, as the seeded generator makes them.

`ChanceStep` is the chance node a state is at: the option being played (None for the
game's start), the outcomes given so far, and the numbers of outcomes of the draws still
to give.
"""
from __future__ import annotations

from typing import NamedTuple

from ..engine.values import ChanceNeeded, GivenRng


class ChanceStep(NamedTuple):
    option: int | None  # the option of the decision being played; None: the game's start
    given: tuple  # the outcomes given so far for this step
    sizes: tuple  # the numbers of outcomes of the draws asked for and not yet given

    @property
    def outcomes(self) -> int:
        return self.sizes[0]


def max_outcomes(program, players: int) -> int:
    """A bound on the outcomes of one chance node, from the content: a shuffle or `random`
    draws among components, nodes, players or a list the rules make of them, and a die has
    few sides. A draw past it is refused (`check_outcomes`)."""
    return max(64, len(program.comps), len(program.nodes), players)


def check_outcomes(sizes: tuple, bound: int) -> tuple:
    if max(sizes) > bound:
        raise ValueError(f"the rules draw among {max(sizes):,} outcomes at once, more than the "
                         f"{bound:,} the game declares to OpenSpiel (max_chance_outcomes)")
    return sizes


def begin(game, blank, bound: int):
    """The game of `blank` (a state not begun) run to its first decision with its chance given:
    (the state, None) when it needs no draw to get there, else (blank, the chance node)."""
    return replay(game, blank, ChanceStep(None, (), ()), bound)


def play(state, option: int, bound: int):
    """Option `option` of `state`'s decision played: (the state after it, None), or (a copy
    of the state before it, the chance node) when the step needs draws. `state` itself is
    spent either way."""
    before = state.clone()
    if type(state.rng) is not GivenRng:
        state.rng = before.rng = GivenRng()
    try:
        state.apply(option)
    except ChanceNeeded as need:
        return before, ChanceStep(option, (), check_outcomes(need.sizes, bound))
    return state, None


def give(game, before, step: ChanceStep, outcome: int, bound: int):
    """Outcome `outcome` given at chance node `step` (of state `before`, the state before the
    step): (the state after the step, None) once it needs no more, else (before, the next
    chance node)."""
    if not 0 <= outcome < step.outcomes:
        raise ValueError(f"chance outcome {outcome} is not one of 0..{step.outcomes - 1}")
    step = ChanceStep(step.option, step.given + (outcome,), step.sizes[1:])
    if step.sizes:
        return before, step
    return replay(game, before, step, bound)


def replay(game, before, step: ChanceStep, bound: int):
    """The step played again from `before` with the outcomes of `step` given after those of
    its past (the log of `before`'s generator)."""
    past = before.rng.log if type(before.rng) is GivenRng else ()
    st = before.clone()
    st.rng = GivenRng(past + step.given, len(past))
    try:
        if step.option is None:
            game.begin(st)
        else:
            st.apply(step.option)
    except ChanceNeeded as need:
        return before, ChanceStep(step.option, step.given, check_outcomes(need.sizes, bound))
    return st, None
