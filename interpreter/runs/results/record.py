"""What one game did, as plain data: the facts `simulate --results` keeps per game, per
seat and per (seat, card), gathered while the game is played.

A `Recorder` watches the play loop: before each decision it notes who decides and which
component, if any, the option picks; after it, the components that changed zone during the
step (`State.moves`, filled only while watched) and the score of each side. Nothing here
knows a game: the facts come from zones (who holds them, whether they are in play), the
decisions, the credits of `score ... for CARD`, and the game's `round` counter if it has one.

- taken: the seat picked the component in one of its decisions (a `choose` or a menu option
  for it) and, in the step that followed, it came to one of that seat's zones that is not in
  play (a hand, the cards a draft keeps): a card played is not taken again;
- played: the component entered an in-play zone that the seat controls, or an in-play zone
  nobody controls coming from one of the seat's zones (a card played from a hand onto a
  shared board);
- in hand at the end: the game over, it lies in a zone of the seat that is not in play;
- offered to a bot (`offers`): a decision of a greedy or search bot among several options had
  one about the card (a pick of it, a menu option for it, one of its actions); taken when the
  bot chose that option, rated best when the bot's value of it was the best of the decision
  (greedy's heuristic, the search's visits), as `regles why-bot` shows one decision.

The pieces each player owns a copy of (`per_player` components) are left out, as in the
report's points by card: they are no card of the game.
"""
from __future__ import annotations

from ...engine.machine import controller
from ...engine.state import OptionKind
from ...engine.values import Comp, Seat, Team
from ...scopes import OwnerKind

ROUND = "round"  # the counter read as the game's round, when the game declares it for the whole game


class Recorder:
    """Watches one game: `start` once the state is made, `before(state, action)` and
    `after(state)` around each decision, `facts(state, winners, credits)` at the end."""

    def __init__(self, program, n: int):
        self.program = program
        self.n = n
        self.sides = [list(t) for t in program.teams_for(n)]
        self.side_of = program.team_of(n)
        score = program.defn.score
        self.team_score = score is not None and program.defn.counters[score].scope.kind is OwnerKind.TEAM
        rdef = program.defn.counters.get(ROUND)
        self.round_initial = rdef.initial if rdef is not None and rdef.scope.is_game else None
        self.decided = [0] * n  # decisions made so far by each seat
        self.first_seat = None  # seat from 0
        self.step = None  # (seat, its decision number, the component picked or None, the round then)
        self.leaders: list = []  # after each decision: the side leading alone, or None
        self.cards: dict = {}  # (seat, card id) -> [taken, pick, played, played round]
        self.offers: dict = {}  # (seat, card id) -> [offered, taken, rated best] at a bot's decisions
        self._scored = (None, None)  # the scores after the last decision, and who led then

    def round_now(self, state):
        if self.round_initial is None:
            return None
        return state.counters.get(ROUND, self.round_initial)

    def start(self, state) -> None:
        state.moves = []

    def before(self, state, action, agent=None) -> None:
        """Before `action` is applied; `agent` is the bot that chose it (None: a person, or a
        bot whose values are not to be read), whose values of the options are noted."""
        seat = state.current_player
        weighed = getattr(agent, "weighed", None) if agent is not None else None
        if weighed and isinstance(action, int):
            self.offered(state, seat, action, weighed)
        picked = None
        if isinstance(action, int):
            entry = state.pending.entries[action]
            if entry.kind in (OptionKind.PICK, OptionKind.MENU_PICK) and type(entry.value) is Comp:
                picked = entry.value
        self.begin(seat, picked, self.round_now(state))

    def begin(self, seat: int, picked, rnd) -> None:
        """A decision of `seat` begins, its option picking component `picked` (or None), in
        round `rnd`: what `before` notes, of a game played in Python or in C."""
        self.decided[seat] += 1
        if self.first_seat is None:
            self.first_seat = seat
        self.step = (seat, self.decided[seat], picked, rnd)

    def after(self, state) -> None:
        moves = state.moves
        self.end(moves, lambda zone: self.seats_of(state, zone), state.scores())
        moves.clear()

    def end(self, moves, seats_of, scores: list) -> None:
        """The decision begun is made: its `moves` into other zones (component, from, to),
        `seats_of(zone)` the seats a zone belongs to now, and each seat's score after it."""
        if moves:
            seat, number, picked, rnd = self.step
            program = self.program
            for c, old, new in moves:
                if program.comp_owner[c] is not None:
                    continue
                card = program.comp_card[c].id
                into_play = program.zone_def(new).in_play
                if c == picked and not into_play and seat in seats_of(new):
                    row = self._row(seat, card)
                    if not row[0]:
                        row[0], row[1] = True, number
                if into_play:
                    players = seats_of(new)
                    if not players and old is not None and not program.zone_def(old).in_play:
                        players = seats_of(old)
                    for s in players:
                        row = self._row(s, card)
                        if not row[2]:
                            row[2], row[3] = True, rnd
        if scores != self._scored[0]:  # most decisions score nothing: the leader stays
            self._scored = (list(scores), self.leader(scores))
        self.leaders.append(self._scored[1])

    def offered(self, state, seat: int, action: int, weighed: list) -> None:
        """Note the cards the options of a bot's decision are about: offered, taken, rated best."""
        values = dict(weighed)
        best = max(values.values())
        program = self.program
        for i, entry in enumerate(state.pending.entries):
            kind = entry.kind
            comp = entry.comp if kind is OptionKind.ACTION else \
                entry.value if kind in (OptionKind.PICK, OptionKind.MENU_PICK) else None
            if type(comp) is not Comp or program.comp_owner[comp] is not None:
                continue
            row = self.offers.get((seat, program.comp_card[comp].id))
            if row is None:
                row = self.offers[(seat, program.comp_card[comp].id)] = [0, 0, 0]
            row[0] += 1
            row[1] += i == action
            row[2] += values.get(i) == best

    def _row(self, seat: int, card: str) -> list:
        row = self.cards.get((seat, card))
        if row is None:
            row = self.cards[(seat, card)] = [False, None, False, None]
        return row

    def seats_of(self, state, zone) -> tuple:
        """The seats (from 0) a zone belongs to: its player, its team's members, or the
        controller of the component holding it; none for a zone of the game or of a node."""
        h = self.program.zone_holder(zone)
        if type(h) is Comp:
            h = controller(state, h)
        if type(h) is Seat:
            return (int(h),)
        if type(h) is Team:
            return tuple(self.sides[int(h)]) if int(h) < len(self.sides) else ()
        return ()

    def leader(self, scores: list):
        """The side with the highest score, alone; None on a tie for the lead."""
        if not scores:
            return None
        side_scores = [scores[m[0]] if self.team_score else sum(scores[s] for s in m) for m in self.sides]
        best = max(side_scores)
        if side_scores.count(best) != 1:
            return None
        return side_scores.index(best)

    def facts(self, state, winners, credits: list) -> dict:
        """The facts of the game, `winners` (seats from 0) and `credits` ([card id, seat, points])
        known: its length in rounds, who decided first, the lead, and the rows of its cards."""
        program = self.program
        held = [(c, self.seats_of(state, zone)) for c, zone in enumerate(state.where)
                if zone is not None and not program.zone_def(zone).in_play]
        return self.facts_of(winners, credits, self.round_now(state), held)

    def facts_of(self, winners, credits: list, rounds, held) -> dict:
        """`facts`, the game's rounds and `held` known: (component, the seats of its zone) of
        each component lying in a zone not in play at the end."""
        won = set(winners or ())
        if len({i for i, side in enumerate(self.sides) if won & set(side)}) > 1:
            won = set()  # rival sides share the win: a tie, no seat's win (as in every figure of a run)
        rows = {k: v + [0, False] for k, v in self.cards.items()}
        for card, seat, points in credits:
            row = rows.get((seat, card))
            if row is None:
                row = rows[(seat, card)] = [False, None, False, None, 0, False]
            row[4] += points
        program = self.program
        for c, seats in held:
            if program.comp_owner[c] is not None:
                continue
            for s in seats:
                card = program.comp_card[c].id
                row = rows.get((s, card))
                if row is None:
                    row = rows[(s, card)] = [False, None, False, None, 0, False]
                row[5] = True
        changes, last = 0, None
        for side in self.leaders:
            if side is not None:
                if last is not None and side != last:
                    changes += 1
                last = side
        mid = self.leaders[(len(self.leaders) - 1) // 2] if self.leaders else None
        titles = {card.id: card.title for card in program.defn.cards}
        return {
            "first_seat": None if self.first_seat is None else self.first_seat + 1,
            "rounds": rounds,
            "lead_changes": changes,
            "midgame_leader_won": None if mid is None else any(s in won for s in self.sides[mid]),
            # [seat from 1, card id, title, taken, pick, played, played round, points, in hand at the end, won]
            "cards": [[seat + 1, card, titles.get(card, card), *row, seat in won]
                      for (seat, card), row in sorted(rows.items())],
            # [seat from 1, card id, title, offered, taken, rated best]
            "offers": [[seat + 1, card, titles.get(card, card), *row] for (seat, card), row in sorted(self.offers.items())],
        }

