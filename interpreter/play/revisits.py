"""Keeping a bot from going round in circles while it keeps the turn.

Looking one decision ahead (greedy) or a few random ones (the search agent's
rollouts) cannot tell that two free actions undo each other (put a thing
somewhere, take it back), nor that ending the turn is better than acting
forever. So while a seat makes decision after decision with no other seat
deciding in between, a bot remembers each state it decided in (`Seen`: the
state's signature, what the seat sees of it), and an option whose outcome is
one of them comes after every option that leads somewhere new. When every
option leads back, it takes the one whose outcome it decided in the fewest
times: each state the turn can reach is then reached in turn, so if the rules
let the turn end, it ends. What it remembers is what the seat has seen,
compared exactly: the bot stays deterministic. Where no option leads back it
plays as it would without this, drawing the same random numbers.
"""
from __future__ import annotations


class Revisits:
    """The states one bot decided in since another seat last decided, with how often."""

    __slots__ = ("visits", "last")

    def __init__(self):
        self.visits: dict = {}  # Seen -> decisions made in that state, since another seat decided
        self.last = None  # (seat, the game's decisions) when this bot last decided

    def arrive(self, view) -> None:
        """A new decision of the bot: what it remembers is forgotten when another seat decided
        since (or this is another game)."""
        n = view.decisions
        if self.last != (view.seat, n - 1):
            self.visits.clear()
        self.last = (view.seat, n)

    def note(self, view) -> None:
        """Remember the state the bot decides in now."""
        here = view.seen()
        self.visits[here] = self.visits.get(here, 0) + 1

    def away(self, view, actions: list, values: list, pick: int, rng) -> int:
        """`pick`, unless its outcome is a state decided in already: then the option whose outcome
        was decided in the fewest times, the best of those by `values`, ties drawn with `rng`."""
        visits = self.visits
        if view.seen(pick) not in visits:
            return pick  # the common case: the bot's own choice leads somewhere new
        backs = [visits.get(view.seen(a), 0) for a in actions]
        least = min(backs)
        best = max(v for v, b in zip(values, backs) if b == least)
        ties = [a for a, v, b in zip(actions, values, backs) if b == least and v == best]
        return ties[rng.below(len(ties))] if len(ties) > 1 else ties[0]
