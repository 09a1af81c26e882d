"""Stage 4, cards that never enter a zone: a warning, not an error.

A card starts in the zone its file names with `start:`; a file without one leaves its
cards out of every zone, where only a rule naming them (`card("ID")`, `cards("ID")`) or
a seat's personal power can reach them. A rules test that names a card sets up a
ruling, not a game: it does not count (the cards a test writes for itself are its own). A modder's file that forgets `start:` checks
clean, and its cards are then in no game at all: `regles check` says so, at the first
such card of the file, with the `start:` line to add and the zones there are. It is
said once the check finds no error: a rule in error may be the one that moves them.

A game also warns when it keeps a score and no one can win it. A game ends when its
`game` procedure returns or when a rule runs `win`, and only `win` names winners: the
score is shown, never read to decide who won. A game that declares `score:` and whose
rules (procedures, hooks, keywords, cards, scenarios, and the expansions laid over it in
the pack checked; not its rules tests) hold no `win` statement ends every game with no winner, and its bots play for nothing.
The warning points at the `score:` line.
"""
from __future__ import annotations

from collections import Counter

from ..content.model import GameDef
from ..diagnostics import Report, plural
from ..names import fold
from ..scopes import OwnerKind
from . import nodes as N

MAX_NAMED = 5  # card ids a warning lists before '...'


class CardsNamed:
    """The cards the rules of a pack name, as the checker meets `card(ID)` and `cards(ID)`."""

    def __init__(self):
        self.ids: set = set()  # folded card ids named by a written text
        self.any = False  # a call names its card with a computed value: any card may be reached
        self.in_tests = False  # while the rules tests are checked: what they name is not counted

    def name(self, arg) -> None:
        if self.in_tests:
            return
        if isinstance(arg, N.String):
            self.ids.add(fold(arg.value))
        else:
            self.any = True


def warn_never_placed(defn: GameDef, named: CardsNamed, report: Report) -> None:
    """A warning for each file whose cards no `start:`, rule or power puts in a zone."""
    if named.any:
        return
    lost: dict[str, list] = {}
    tests = {t.file for t in defn.tests}
    for card in defn.cards:
        if card.start is None and card.file not in tests and fold(card.id) not in named.ids \
                and not _power(defn, card):
            lost.setdefault(card.file, []).append(card)
    for cards in lost.values():
        ids = [c.id for c in cards]
        shown = ", ".join(ids[:MAX_NAMED]) + (", ..." if len(ids) > MAX_NAMED else "")
        if len(cards) == 1:
            message = f"card '{ids[0]}' never enters a zone: its file has no 'start:', and no rule moves it"
        else:
            message = (f"{plural(len(cards), 'card')} of this file never enter a zone ({shown}): it has no "
                       "'start:', and no rule moves them")
        report.warning("D005", cards[0].pos, message, _start_hint(defn))


def _power(defn: GameDef, card) -> bool:
    """Whether `card` may be given to a seat as its personal power (`--power`), which puts it in a zone."""
    p = defn.powers
    if p is None or (p.component is not None and card.component != p.component):
        return False
    if p.of_class is None:
        return True
    classes = {fold(str(v)) for v in card.attrs.values() if isinstance(v, str)} | {fold(t) for t in card.tags}
    return fold(p.of_class) in classes


def _start_hint(defn: GameDef) -> str:
    """The line to add, with the zone the pack's other cards start in most, and the zones a card
    may start in (the game's, and each player's for the cards of `per_player: true`)."""
    zones = [z for z, d in defn.zones.items() if d.scope.only(OwnerKind.GAME, OwnerKind.PLAYER)]
    if not zones:
        return "add 'start: ZONE' to the file, once the game declares a zone of its own"
    used = Counter(c.start for c in defn.cards if c.start in zones)
    best = used.most_common(1)[0][0] if used else zones[0]
    listed = ", ".join(z if defn.zones[z].scope.is_game else f"{z} (each player's)" for z in zones)
    return f"add 'start: {best}' to the file, beside 'kind: cards'; the zones: {listed}"


def warn_no_way_to_win(defn: GameDef, wins_written: bool, report: Report) -> None:
    """A warning when the game declares a score and no rule of its pack has a `win` statement."""
    if defn.score is None or wins_written or defn.score_pos is None:
        return
    report.warning("D006", defn.score_pos,
                   f"the game keeps a score ('{defn.score}') but has no way to win: no rule says 'win', "
                   "so every game ends with no winner",
                   f"end the game procedure with the winners, e.g. 'let best = max(p.{defn.score} for each p in "
                   f"players)' then 'win [each p in players where p.{defn.score} == best]'")
