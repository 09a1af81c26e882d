"""A fixed action space for a game: each option of each decision given one number, the same
number always meaning the same kind of move where the game allows.

The numbers are laid out in blocks from the content's declarations and choice points, each as
large as what the content can ask (language.offers works out, before any game, what each
choice may offer):

- `pick`: the values a choice (`choose x from ...`) may give: each component (by its fixed
  number), each relative seat, each board node, none, each whole number from the least to the
  most any choice offers; only the kinds of value some choice offers. Picking component 17 is
  the same number whatever the choice's prompt.
- `menu`: per option of each menu the content writes (in the order of the game's code, then of
  the options): one number for an option without a variable; for an option offered for each of
  a list, a block of the values that list may hold, laid out as `pick`'s, so that "Play {c}"
  with component 17 is always the same number.
- `use`: each action ability of each component ("actions during ...").
- `yes` and `no`: the answers to an optional ability's question.
- `position`: a fall-back, only in a game that needs one: one of its choices may offer what no
  block numbers (a text, a list, a number without a bound, or what the analysis cannot tell).
  A decision whose options the blocks above cannot number (a menu compiled after the game, such
  as a rules test's) numbers its options by their position, 0 to 1023.

The same value offered twice by one decision (the same move) has the same number twice.
`ActionMap.numbers(state)` gives the number of each option of the pending decision, in the
order the engine lists them; `describe(number)` says in words what a number means;
`ActionMap.needs_position` names the choices that made a game need the fall-back.
"""
from __future__ import annotations

import weakref

from ..content.pack import collector_paused
from ..diagnostics import source_line
from ..engine.state import ActionPick, MenuPick, No, Pick, Yes
from ..engine.values import Comp, NodeRef, Seat
from ..language import value_kinds as vk
from ..language.offers import offers, where
from ..language.types import COMPONENT, NODE, NONE, NUMBER, PLAYER

POSITIONS = 1024  # the options of one decision numbered by position at most
# what each choice of a program may offer, worked out once per program (language.offers: 75 to
# 110 ms for a shipped game), whatever the player counts and the spaces made of it
_OFFERS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
MOST_NUMBERS = 1024  # the most whole numbers one block of values numbers (a wider range: by position)
NUMBERED = frozenset({COMPONENT, PLAYER, NODE, NONE, NUMBER})  # the kinds of value a block numbers


def numbered(k: vk.Kinds) -> bool:
    """Whether a block of values can number every value of `k`."""
    if not k.types <= NUMBERED:
        return False
    return NUMBER not in k.types or (k.least is not None and k.most is not None
                                     and 0 <= k.most - k.least < MOST_NUMBERS)


class Values:
    """How one block numbers values of `kinds` (numbered): components, then relative seats,
    board nodes, none, whole numbers, each part present when `kinds` may be of it."""

    def __init__(self, am, kinds: vk.Kinds):
        t, width = kinds.types, 0
        self.comp = self.seat = self.node = self.none = self.num = None
        self.comps: list = []  # the components numbered, in the game's order
        self.comp_at: dict = {}  # component -> its place among them
        self.least = self.most = 0
        if COMPONENT in t:
            # only the components of the kinds the values may be, in the game's order
            chosen = [c for c, card in enumerate(am.program.comp_card)
                      if kinds.cards is None or card.component in kinds.cards]
            self.comps = chosen
            self.comp_at = {c: i for i, c in enumerate(chosen)}
            self.comp, width = width, width + len(chosen)
        if PLAYER in t:
            self.seat, width = width, width + am.n
        if NODE in t:
            self.node, width = width, width + len(am.nodes)
        if NONE in t:
            self.none, width = width, width + 1
        if NUMBER in t:
            self.least, self.most = kinds.least, kinds.most
            self.num, width = width, width + kinds.most - kinds.least + 1
        self.width, self.am = width, am

    def summary(self) -> str:
        """What the block numbers, in words."""
        kinds = sorted({self.am.program.comp_card[c].component for c in self.comps})
        parts = [w for w, at in ((f"a component ({', '.join(kinds)})", self.comp), ("a relative seat", self.seat),
                                 ("a node", self.node), ("none", self.none)) if at is not None]
        if self.num is not None:
            parts.append(f"a whole number {self.least}-{self.most}")
        return ", ".join(parts) if parts else "nothing (no choice of the game offers a value)"

    def place(self, v, seat: int):
        """The place of value `v` in the block, or None when it has none."""
        t = type(v)
        if t is Comp:
            i = self.comp_at.get(int(v))
            return None if i is None else self.comp + i
        if t is Seat:
            return None if self.seat is None else self.seat + (int(v) - seat) % self.am.n
        if t is NodeRef:
            i = self.am.node_index.get(v)
            return None if i is None or self.node is None else self.node + i
        if v is None:
            return self.none
        if t is int and self.num is not None and self.least <= v <= self.most:
            return self.num + v - self.least
        return None

    def text(self, i: int) -> str:
        am = self.am
        if self.comp is not None and self.comp <= i < self.comp + len(self.comps):
            c = self.comps[i - self.comp]
            return f"component {c} ({am.program.comp_card[c].title})"
        if self.seat is not None and self.seat <= i < self.seat + am.n:
            k = i - self.seat
            return "this seat" if k == 0 else f"the seat +{k}"
        if self.node is not None and self.node <= i < self.node + len(am.nodes):
            return f"node {am.nodes[i - self.node]}"
        if i == self.none:
            return "none"
        return f"the number {i - self.num + self.least}"


class ActionMap:
    def __init__(self, program, players: int):
        self.program, self.n = program, players
        self.nodes = list(program.nodes)
        self.node_index = {NodeRef(k): i for i, k in enumerate(self.nodes)}
        self.comps = len(program.comp_card)
        table = _OFFERS.get(program)
        if table is None:
            with collector_paused():  # its many small values hold no cycle: no collection walks them
                table = _OFFERS[program] = offers(program.defn) if program.defn is not None else {}
        self.needs_position: list = []  # the position of each choice no block numbers

        def offered(spec, pos) -> vk.Kinds:
            k = getattr(spec, "offers", None) or table.get(where(pos), vk.UNKNOWN)
            if not numbered(k):
                self.needs_position.append(pos)
            return k

        self.blocks: list = []  # (name, offset, size, what)
        self.size = 0
        picked = None
        for name in sorted(program.codes):
            for spec in program.codes[name].choices.values():
                k = offered(spec, spec.pos)
                if numbered(k):
                    picked = vk.join(picked, k)
        self.picks = Values(self, picked if picked is not None else vk.Kinds(frozenset()))
        self.pick = self._block("pick", self.picks.width, "the value a choice gives: " + self.picks.summary())
        self.menu_base: dict = {}  # (where a menu is written, option) -> (first number, its Values or None)
        self.meanings: list = []  # (first number, size, text, Values or None) of each menu option
        start = self.size
        for name in sorted(program.codes):
            code = program.codes[name]
            for i in sorted(code.menus):
                spec = code.menus[i]
                for k, o in enumerate(spec.options):
                    if o.window is not None or o.start is None:
                        continue  # actions of components: the `use` block
                    key = (str(spec.pos), k)  # a keyword's menu, compiled for each card, is one menu
                    if key in self.menu_base:
                        continue
                    values = None
                    if o.var is not None:
                        kinds = offered(o, o.pos)
                        values = Values(self, kinds if numbered(kinds) else vk.Kinds(frozenset()))
                    self.menu_base[key] = (self.size, values)
                    width = 1 if values is None else values.width
                    self.meanings.append((self.size, width, f"menu at {spec.pos}, option {k + 1}: "
                                                            f"{_line(program, o.pos)}", values))
                    self.size += width
        self.blocks.append(("menu", start, self.size - start, "each menu option (a block of values for an "
                                                              "option offered for each of a list)"))
        self.use_base: dict = {}  # (component, ability) -> number
        start = self.size
        for c, actions in enumerate(program.comp_actions):
            for a in actions:
                self.use_base[(c, a.index)] = self.size
                self.size += 1
        self.blocks.append(("use", start, self.size - start, "each action ability of each component"))
        self.yes = self._block("yes", 1, "yes, use the optional ability")
        self.no = self._block("no", 1, "no")
        self.position = None
        if self.needs_position:
            self.position = self._block("position", POSITIONS, "an option by its position, for decisions the "
                                                               "blocks above cannot number")

    def _block(self, name: str, size: int, what: str) -> int:
        start = self.size
        self.blocks.append((name, start, size, what))
        self.size += size
        return start

    # numbering the options of a decision ------------------------------------------------
    def numbers(self, st) -> list:
        """The number of each option of the pending decision of `st`, in its order (the same
        number for the same value offered twice)."""
        d = st.pending
        if d is None:
            return []
        seat = int(d.player)
        out = []
        for entry in d.entries:
            k = self._number(d, entry, seat)
            if k is None:
                break
            out.append(k)
        if len(out) == len(d.entries):
            return out
        if self.position is None:
            entry = d.entries[len(out)]
            raise ValueError(f"the decision at {d.pos} offers {entry!r}, which this action space does not number: "
                             "the analysis of what each choice may offer (language.offers) missed it; "
                             "please report it with the content")
        if len(d.entries) > POSITIONS:
            raise ValueError(f"a decision at {d.pos} has {len(d.entries)} options, more than the {POSITIONS} "
                             "this action space numbers by position")
        return [self.position + i for i in range(len(d.entries))]

    def _number(self, d, entry, seat: int):
        t = type(entry)
        if t is Pick:
            v = self.picks.place(entry.value, seat)
            return None if v is None else self.pick + v
        if t is MenuPick:
            found = self.menu_base.get((str(d.spec.pos), entry.option))
            if found is None:
                return None
            base, values = found
            if values is None:
                return base
            v = values.place(entry.value, seat)
            return None if v is None else base + v
        if t is ActionPick:
            return self.use_base.get((int(entry.comp), entry.index))
        if t is Yes:
            return self.yes
        if t is No:
            return self.no
        return None

    # words --------------------------------------------------------------------------------
    def describe(self, number: int) -> str:
        """What action number `number` means."""
        if not 0 <= number < self.size:
            return f"no action {number} (the space has {self.size})"
        if self.pick <= number < self.pick + self.picks.width:
            return "pick " + self.picks.text(number - self.pick)
        for base, size, text, values in self.meanings:
            if base <= number < base + size:
                return text if values is None else f"{text}, for {values.text(number - base)}"
        for (c, index), k in self.use_base.items():
            if k == number:
                return f"use action {index + 1} of component {c} ({self.program.comp_card[c].title})"
        if number == self.yes:
            return "yes"
        if number == self.no:
            return "no"
        return f"the option at position {number - self.position + 1}"


def _line(program, pos) -> str:
    """The content line at `pos`, stripped (what a menu option's number stands for)."""
    if pos is None:
        return "?"
    return (source_line(program.sources.get(pos.path), pos.line) or str(pos)).strip()
