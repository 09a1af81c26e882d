"""A fixed action space for a game: each option of each decision given one number, the same
number always meaning the same kind of move where the game allows.

The numbers are laid out in blocks from the content's declarations and choice points:

- `pick`: the values a choice (`choose x from ...`) may give: each component
  (by its fixed number), each relative seat, each board node, none, and the
  whole numbers 0 to 15. Picking component 17 is the same number whatever the
  choice's prompt.
- `menu`: per option of each menu the content writes (in the order of the
  game's code, then of the options): one number for an option without a
  variable; for an option offered for each of a list, a block of values as
  `pick`'s, so that "Play {c}" with component 17 is always the same number.
- `use`: each action ability of each component ("actions during ...").
- `yes` and `no`: the answers to an optional ability's question.
- `position`: the fall-back. A decision whose options this scheme cannot tell
  apart (the same value offered twice, a text or a list as a value, a menu
  compiled after the game, such as a rules test's) numbers its options by
  their position, 0 to 1023.

`ActionMap.numbers(state)` gives the number of each option of the pending
decision, in the order the engine lists them; `describe(number)` says in words
what a number means.
"""
from __future__ import annotations

from ..diagnostics import source_line
from ..engine.state import ActionPick, MenuPick, No, Pick, Yes
from ..engine.values import Comp, NodeRef, Seat

SMALL_NUMBERS = 16  # whole numbers 0..15 have numbers of their own in a block of values
POSITIONS = 1024  # the options of one decision numbered by position at most


class ActionMap:
    def __init__(self, program, players: int):
        self.program, self.n = program, players
        self.nodes = list(program.nodes)
        self.node_index = {NodeRef(k): i for i, k in enumerate(self.nodes)}
        self.comps = len(program.comp_card)
        self.value_width = self.comps + players + len(self.nodes) + 1 + SMALL_NUMBERS
        self.blocks: list = []  # (name, offset, size, what)
        self.size = 0
        self.pick = self._block("pick", self.value_width, "the value a choice gives: a component, a relative "
                                "seat, a node, none, or a whole number 0-15")
        self.menu_base: dict = {}  # (where a menu is written, option) -> (first number, with values?)
        self.meanings: list = []  # (first number, size, text) of each menu option
        start = self.size
        for name in sorted(program.codes):
            code = program.codes[name]
            for i in sorted(code.menus):
                spec = code.menus[i]
                for k, o in enumerate(spec.options):
                    if o.window is not None or o.start is None:
                        continue  # actions of components: the `use` block
                    valued = o.var is not None
                    key = (str(spec.pos), k)  # a keyword's menu, compiled for each card, is one menu
                    if key in self.menu_base:
                        continue
                    self.menu_base[key] = (self.size, valued)
                    self.meanings.append((self.size, self.value_width if valued else 1,
                                          f"menu at {spec.pos}, option {k + 1}: {_line(program, o.pos)}"))
                    self.size += self.value_width if valued else 1
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
        self.position = self._block("position", POSITIONS, "an option by its position, for decisions the "
                                                           "blocks above cannot tell apart")

    def _block(self, name: str, size: int, what: str) -> int:
        start = self.size
        self.blocks.append((name, start, size, what))
        self.size += size
        return start

    # numbering the options of a decision ------------------------------------------------
    def value(self, v, seat: int):
        """The place of value `v` in a block of values, or None when it has none."""
        t = type(v)
        if t is Comp:
            return int(v)
        if t is Seat:
            return self.comps + (int(v) - seat) % self.n
        if t is NodeRef:
            i = self.node_index.get(v)
            return None if i is None else self.comps + self.n + i
        if v is None:
            return self.comps + self.n + len(self.nodes)
        if t is int and 0 <= v < SMALL_NUMBERS:
            return self.comps + self.n + len(self.nodes) + 1 + v
        return None

    def numbers(self, st) -> list:
        """The number of each option of the pending decision of `st`, in its order."""
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
        if len(out) == len(d.entries) and len(set(out)) == len(out):
            return out
        if len(d.entries) > POSITIONS:
            raise ValueError(f"a decision at {d.pos} has {len(d.entries)} options, more than the {POSITIONS} "
                             "this action space numbers by position")
        return [self.position + i for i in range(len(d.entries))]

    def _number(self, d, entry, seat: int):
        t = type(entry)
        if t is Pick:
            v = self.value(entry.value, seat)
            return None if v is None else self.pick + v
        if t is MenuPick:
            found = self.menu_base.get((str(d.spec.pos), entry.option))
            if found is None:
                return None
            base, valued = found
            if not valued:
                return base
            v = self.value(entry.value, seat)
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
        if self.pick <= number < self.pick + self.value_width:
            return "pick " + self._value_text(number - self.pick)
        for base, size, text in self.meanings:
            if base <= number < base + size:
                return text if size == 1 else f"{text}, for {self._value_text(number - base)}"
        for (c, index), k in self.use_base.items():
            if k == number:
                return f"use action {index + 1} of component {c} ({self.program.comp_card[c].title})"
        if number == self.yes:
            return "yes"
        if number == self.no:
            return "no"
        return f"the option at position {number - self.position + 1}"

    def _value_text(self, i: int) -> str:
        if i < self.comps:
            return f"component {i} ({self.program.comp_card[i].title})"
        i -= self.comps
        if i < self.n:
            return "this seat" if i == 0 else f"the seat +{i}"
        i -= self.n
        if i < len(self.nodes):
            return f"node {self.nodes[i]}"
        i -= len(self.nodes)
        return "none" if i == 0 else f"the number {i - 1}"


def _line(program, pos) -> str:
    """The content line at `pos`, stripped (what a menu option's number stands for)."""
    if pos is None:
        return "?"
    return (source_line(program.sources.get(pos.path), pos.line) or str(pos)).strip()
