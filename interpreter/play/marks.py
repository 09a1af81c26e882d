"""The real game followed from one decision of a seat to its next, as numbers of the action space.

A search that keeps its tree from one decision to the next (`mcts:N:reuse`) must know which
edges of it the game took since: the seat's own choice, then each other seat's. The seat was
told those choices (every one but another seat's secret choice, as in the information state
of `rl.spiel`), but a number of the game's fixed action space (`rl.actions.ActionMap`) is
read off the decision where the choice was made. So the view keeps a copy of the game at the
seat's decision (`Mark`) and plays the choices made since on it, reading each one's number.
Nothing else of the copy reaches the agent: it gets the numbers, never the state.
"""
from __future__ import annotations

from ..engine.state import GameFault
from ..engine.values import ChanceNeeded


class Mark:
    """A copy of the game at one decision, to be followed once to a later decision."""

    __slots__ = ("_state", "_length", "_origin")

    def __init__(self, state):
        self._state = state.clone()
        self._length = len(state.history)
        self._origin = state.origin

    def moves_to(self, st, actions, seat: int) -> list | None:
        """The choices made from the mark to the decision of `st`, as (seat, number in
        `actions`), a number None for another seat's secret choice (and none after it: the
        seat cannot know which edge that was); None when `st` is not the same game played on
        from the mark. The mark is used up."""
        w, self._state = self._state, None
        history = st.history
        if w is None or st.origin is not self._origin or len(history) < self._length \
                or history[:self._length] != w.history:
            return None
        w.rng = w.rng.following(st.rng)  # a game whose chance is given from outside: its outcomes
        out = []
        for i in range(self._length, len(history)):
            d = w.pending
            if d is None or history[i] >= len(d.entries):
                return None
            who = int(d.player)
            if d.secret and who != seat:
                out.append((who, None))
                return out
            try:
                number = actions.numbers(w)[history[i]]
                w.apply(history[i])
            except (GameFault, ValueError, ChanceNeeded):
                return None
            out.append((who, number))
        return out
