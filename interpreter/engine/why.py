"""Why not? Which condition excludes a move, and where content wrote it.

`why_not(state, move, seat)` reads a move as a person would type it:

- an option of the decision asked now: its label (or the start of it), 'yes' or 'no',
  a candidate's title or id;
- an option of the menu asked now that is not offered: its guard is false for that
  candidate, or the candidate is not among those the option is offered for;
- a candidate of the choice asked now that is not offered: the first false part of the
  choice's `where`, or it is not among the choice's source (and where it is instead);
- an action of a card: 'use CARD', 'CARD: LABEL' or the action's label; it is not the
  seat's card or decision, no action is offered now or not in this window, it was used
  already (`once per`), or its condition or a cost fails.

The answer, a `WhyNot`, says whether the move is legal and, when it is not, the
condition that excludes it as content wrote it, its place and the values it read.
It reads what the compiler keeps beside the code (`specs.Condition`, `specs.Among`,
`ActionSpec.requires`) and changes nothing in the state.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..diagnostics import Position
from ..names import fold, suggest
from . import keys
from . import machine as vm
from .code import CodeKind
from .observe import may_see
from .phrases import Joined, Phrase, Quoted, Value
from .state import DecisionKind, Frame, GameFault
from .values import Comp, NodeRef, Seat, ZoneRef

_ERRORS = (GameFault, TypeError, ValueError, KeyError, IndexError, AttributeError, ZeroDivisionError, OverflowError)
_USE = re.compile(r"\s*use\s+(.+)", re.IGNORECASE)


@dataclass(frozen=True)
class WhyNot:
    """The answer to "why not?": whether the move is legal now, a sentence for people, and
    the condition that excludes it (its text as written, where, the values it read)."""

    legal: bool
    reason: str  # an engine.phrases.Phrase: English, with its parts for a view to say again
    where: Position | None = None
    condition: str | None = None
    values: tuple = ()
    via: tuple = ()  # the calls of game functions the condition was found in
    near: tuple = ()  # close names, when the move names nothing known
    rules: tuple = ()  # the rule IDs of the procedure or keyword the decision waits in
    rules_of: str = ""  # that procedure or keyword ('procedure turn')

    def __str__(self) -> str:
        return "".join(self.parts())

    def parts(self) -> list:
        """The answer as the parts it is said in (English `str`s; phrases a view says again)."""
        out = [self.reason]
        if self.values:
            out += [Phrase("colon"), Joined(self.values)]
        if self.via:
            out += [Phrase("semicolon"), Joined(self.via, "; ")]
        if self.near:
            quoted = [Quoted(n) for n in self.near]
            named = quoted[0]
            for q in quoted[1:]:
                named = Phrase("or", named, q)
            out.append(Phrase("did_you_mean", named))
        return out


def why_not(st, move: str, seat: int | None = None, shown=None) -> WhyNot:
    """Why `move` is not possible in state `st` for `seat` (from 0; None: the seat deciding
    now), or that it is. `shown(text)`, when given, is a label as the person asking reads it (in
    the words of their language): a move names an option by either."""
    d = st.pending
    text = str(move).strip()
    if d is None:
        return WhyNot(False, Phrase("game_over"))
    # what is evaluated between runs shares one budget of work (machine.run): the question has
    # one of its own, and leaves the state's as it found it, however often it is asked
    kept, st.fuel = st.fuel, st.program.step_budget
    try:
        answer = _Asked(st, d, seat, shown).answer(text)
    finally:
        st.fuel = kept
    if answer.legal:
        return answer
    rules, of = rules_asked_in(st)
    return replace(answer, rules=rules, rules_of=of) if rules else answer


def rules_asked_in(st) -> tuple:
    """The rule IDs of the innermost procedure or keyword ability the decision waits in that
    names some, and what it is: ((ids), 'procedure turn' or 'keyword PATTERN'); ((), '') if none."""
    program = st.program
    uses = getattr(getattr(program, "found", None), "keyword_uses", None) or {}
    for fr in reversed(st.frames):
        code = fr.code
        if code.kind is CodeKind.PROC and program.proc_rules.get(code.proc):
            return program.proc_rules[code.proc], Phrase("rules_of_procedure", code.proc)
        use = uses.get(code.source) if code.kind in (CodeKind.ABILITY, CodeKind.ACTION) else None
        keyword = getattr(use, "keyword", None)
        if keyword is not None and keyword.rules:
            return tuple(keyword.rules), Phrase("rules_of_keyword", Quoted(keyword.pattern))
    return (), ""


class _Asked:
    """The decision asked now, and the moves it and the cards in play know of."""

    def __init__(self, st, d, seat, shown=None):
        self.st, self.d = st, d
        self.shown = shown
        self.program = st.program
        self.who = Seat(seat) if seat is not None else d.player
        self.masked = seat is not None  # a seat asks: say nothing of what it may not see
        self.fr = st.frames[-1] if st.frames else None
        self.names: list = []  # every name met, for 'did you mean'

    def answer(self, text: str) -> WhyNot:
        key = fold(text)
        if not key:
            return WhyNot(False, Phrase("no_move"))
        for loose in (False, True):  # an exact name first, then the start of one
            for look in (self.offered, self.in_menu, self.in_choice, self.action):
                found = look(key, loose)
                if found is not None:
                    # whatever the move, it is not this seat's to make now
                    return found if self.who == self.d.player else self.not_yours()
        pool = set(self.names)
        if self.shown is not None:  # the labels as the person asking reads them, too
            pool |= {self.named_as(n) for n in self.names}
        near = tuple(suggest(text, sorted(pool), 3))
        return WhyNot(False, Phrase("unknown", Value(text, text, quoted=True)), self.d.pos, near=near)  # as typed

    # the decision asked now ------------------------------------------------------------
    def offered(self, key, loose):
        labels = self.d.labels_for(self.st)
        self.names.extend(labels)
        for i, label in enumerate(labels):
            if self.named(label, key, loose) or self._names_value(i, key, loose):
                if self.who != self.d.player:
                    return self.not_yours()
                return WhyNot(True, Phrase("offered", Quoted(label), i + 1, Quoted(self.d.prompt)), self.d.pos)
        return None

    def _names_value(self, i, key, loose) -> bool:
        """Whether option `i` is for a component named `key` (its title or id)."""
        value = getattr(self.d.entries[i], "value", None)
        return type(value) is Comp and _names(self.program.comp_card[value].id, key, loose)

    def not_yours(self) -> WhyNot:
        return WhyNot(False, Phrase("not_yours", self.seat(self.d.player), Quoted(self.d.prompt), self.seat(self.who)),
                      self.d.pos)

    def in_menu(self, key, loose):
        """An option of the menu asked now, not offered: its guard, or its source."""
        spec = self.d.spec if self.d.kind is DecisionKind.MENU else None
        if spec is None or self.fr is None:
            return None
        for o in spec.options:
            if o.window is not None or o.start is None:
                continue  # the actions of cards: see `action`
            if o.var is None:
                label = self.label(o, None, False)
                if self.named(label, key, loose):
                    return self.excluded(Quoted(label), o.guard, self.fr)
                continue
            found = self.among(o.among, o.var, key, loose, lambda x, o=o: self.label(o, x, True))
            if found is not None:
                x, fr = found
                if x is _ELSEWHERE:
                    return fr
                return self.excluded(Quoted(self.label(o, x, True)), o.guard, fr)
        return None

    def in_choice(self, key, loose):
        """A candidate of the choice asked now, not offered: its `where`, or its source."""
        if self.d.kind is not DecisionKind.CHOOSE or self.fr is None:
            return None
        spec = self.fr.code.choices.get(self.fr.pc - 1)
        if spec is None or spec.among is None:
            return None
        found = self.among(spec.among, spec.var, key, loose, lambda x: vm.label_of(self.st, x))
        if found is None:
            return None
        x, fr = found
        if x is _ELSEWHERE:
            return fr
        return self.excluded(Value(x, vm.label_of(self.st, x), quoted=True), spec.where, fr)

    def among(self, among, var, key, loose, label):
        """The candidate named `key` among the members of `among` (with the frame it is
        read in), or (_ELSEWHERE, answer) when the move names something not among them."""
        try:
            members = among.members(self.st, self.fr)
        except _ERRORS:
            members = []
        for x in members:
            shown = label(x)
            self.names.append(shown)
            if self.named(shown, key, loose) or (type(x) is Comp and _names(self.program.comp_card[x].id, key, loose)):
                return x, self.frame_with(var, x)
        for x in self.everything():
            shown = label(x)
            if self.named(shown, key, loose) or (type(x) is Comp and _names(self.program.comp_card[x].id, key, loose)):
                it = vm.label_of(self.st, x)
                said = (Phrase("not_among_it", Quoted(shown), among.text, self.where_is(x)) if it == shown else
                        Phrase("not_among", Quoted(shown), Value(x, it), among.text, self.where_is(x)))
                return _ELSEWHERE, WhyNot(False, said, among.pos, among.text)
        return None

    def everything(self):
        """What a candidate may be, besides the members of a source: components, players and
        the board's nodes."""
        yield from self.program.comps
        yield from self.program.seats[self.st.n]
        yield from map(NodeRef, self.program.nodes)

    def excluded(self, what: str, cond, fr) -> WhyNot:
        """`what` is not offered because `cond` is false in `fr`."""
        because = cond.why(self.st, fr) if cond is not None else None
        if because is None:  # it holds now: the option is offered (to another seat, or not asked)
            if self.who != self.d.player:
                return self.not_yours()
            return WhyNot(True, Phrase("possible", what), self.d.pos)
        return WhyNot(False, Phrase("not_offered", what, because.text), because.pos, because.text,
                      because.values, because.via)

    # actions of cards --------------------------------------------------------------------
    def action(self, key, loose):
        """An action of a card, named 'use CARD', 'CARD: LABEL' or by its label."""
        m = _USE.fullmatch(key.replace("_", " "))
        card_key, label_key = (fold(m.group(1)), None) if m else (None, None)
        if card_key is None and ":" in key:
            head, _, tail = key.partition(":")
            card_key, label_key = head.strip("_"), tail.strip("_")
        found = []
        for c in self.program.comps:
            actions = self.program.comp_actions[c]
            if not actions:
                continue
            card = self.program.comp_card[c]
            for a in actions:
                label = a.label(self.st, c)
                self.names.append(label)
                named = False
                if card_key is not None:
                    named = _names(card.title, card_key, loose) or _names(card.id, card_key, loose)
                    if named and label_key is not None:
                        short = label.split(": ", 1)[1] if label.startswith(card.title + ": ") else label
                        named = self.named(label, label_key, loose) or self.named(short, label_key, loose)
                if not named and m is None:  # a label may hold ':' itself ('Activation 1: draw a card')
                    named = self.named(label, key, loose)
                if named:
                    found.append(self.judge(c, a, label))
        if not found:
            return self.no_action(card_key, loose) if card_key is not None and label_key is None else None
        return max(found, key=lambda r: r[0])[1]  # the copy that comes closest to being usable

    def no_action(self, card_key, loose):
        """'use CARD' of a card that has no action."""
        for card in self.program.cards:
            if _names(card.title, card_key, loose) or _names(card.id, card_key, loose):
                return WhyNot(False, Phrase("no_action", card.title), card.pos)
        return None

    def judge(self, c, a, label) -> tuple:
        """(how many checks it passes, the answer) for action `a` of component `c`."""
        st, who, d = self.st, self.who, self.d
        title = self.program.comp_card[c].title
        what = Quoted(label)
        if c not in vm.in_play(st, who):
            return 0, WhyNot(False, Phrase("not_in_play", what, title, self.seat(who), self.where_is(c)), a.pos)
        if d.player != who:
            return 1, self.not_yours()
        spec = d.spec if d.kind is DecisionKind.MENU else None
        windows = [o.window for o in spec.options if o.window is not None or o.start is None] if spec else []
        if not windows:
            return 2, WhyNot(False, Phrase("no_action_now", what, Quoted(d.prompt)), d.pos)
        if a.windows and not any(w is None or w in a.windows for w in windows):
            during = ", ".join(sorted(a.windows))
            return 3, WhyNot(False, Phrase("other_window", what, during, ", ".join(w for w in windows if w)),
                             a.pos, f"during {during}")
        if vm.spent(st, c, a):
            return 4, WhyNot(False, Phrase("used", what, a.limit), a.pos, f"once per {a.limit}")
        fr = Frame(a.code, 0, {"cause": who}, c, who)
        for n, (kind, cond) in enumerate(a.requires):
            because = cond.why(st, fr)
            if because is None:
                continue
            if kind == "if":
                reason = Phrase("condition", what, because.text)
            else:
                reason = Phrase("cost", what, Quoted(because.text))
            return 5 + n, WhyNot(False, reason, because.pos, because.text, because.values, because.via)
        return 5 + len(a.requires), WhyNot(True, Phrase("action_possible", what, title), a.pos)

    # helpers -----------------------------------------------------------------------------
    def named(self, label: str, key: str, loose: bool) -> bool:
        """Whether `label` (a text of the rules) is the name `key`, as written or as shown."""
        if _names(label, key, loose):
            return True
        if self.shown is None or not label:
            return False
        said = self.named_as(label)
        return said != label and _names(said, key, loose)

    def named_as(self, label: str) -> str:
        """`label` as the person asking reads it."""
        try:
            return str(self.shown(label))
        except (TypeError, ValueError, KeyError, IndexError):
            return label

    def seat(self, p) -> Value:
        return Value(Seat(int(p)), self.program.player_name(int(p)))

    def label(self, o, x, bound: bool) -> str:
        """The label of menu option `o`, for candidate `x` when `bound`."""
        fr = self.frame_with(o.var, x) if bound else self.fr
        try:
            return o.label(self.st, fr)
        except _ERRORS:
            return ""

    def frame_with(self, var, x) -> Frame:
        """A copy of the asking frame with `var` bound to `x` (the asking frame is not changed)."""
        fr = self.fr.copy()
        fr.env[var] = x
        return fr

    def where_is(self, c) -> str:
        """' (it is in player 2's hand)', when the seat asking may see that zone."""
        st = self.st
        if type(c) is not Comp or st.where[c] is None:
            return ""
        key = str(st.where[c])
        holder = self.program.zone_holder(key)
        if self.masked and not may_see(st, self.program.zone_def(key).visibility, holder, int(self.who)):
            return ""
        name = keys.name_of(key)
        named = name + (f" of {vm.label_of(st, holder)}" if holder is not None else "")
        return Phrase("is_in", Value(ZoneRef(key), named))


_ELSEWHERE = object()


def _names(label: str, key: str, loose: bool) -> bool:
    """Whether `label` is the name `key` (folded), or with `loose` starts with it as whole words."""
    if not label:
        return False
    have = fold(label)
    if have == key:
        return True
    return loose and have.startswith(key) and not have[len(key)].isalnum()
