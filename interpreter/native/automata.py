"""Seats driven by content (`automata:`), natively: the option a `prefer` ranks first, taken in C.

The Python backend (`engine.machine._automatic`) ranks the options of a decision asked of such
a seat with the automaton's `prefer`, `option` bound to what each option is: the value of a
`choose` (none for its optional "none"), the label of a menu's option or of a card's action,
"yes" or "no" for an optional ability. The smallest rank wins, the first offered among equals,
an option ranked none after every ranked one. The C does the same: `prefer` is lowered once
per kind of value it is asked of (as a game function is, per the types of its arguments), and
a label is the interned name of its text. A label made in play (one showing a value) has no
name the C knows, and a `prefer` may not lower for every kind of option (`option.value` of a
label): ranking such an option stops the game with F_NOT_NATIVE, a limit of the backend that
`simulate` answers by playing that game in Python.
"""
from __future__ import annotations

from types import SimpleNamespace

from .expressions import BOOL, NAME, NONE, NUM, SEAT, said
from .slots import NotNative
from .trees import table

LABEL, ACTION = 0, 1  # what a row of a menu is ranked by: its label's name, its action's label's name; 2+: a value


class Automata:
    """The lowering of the seats content drives; mixed into the Emitter."""

    def automated(self, seat: str) -> str:
        """The C of `automated(seat)`: whether the seat is one an automaton drives."""
        flags = [str(int(s in self.program.automata)) for s in range(self.players)]
        if "1" not in flags:
            return f"((void)({seat}), 0)"
        name = self.table(f"AUTOMATED_{len(self.tables)}", "int8_t", flags)
        return f"rg_flag_of(st, {name}, {seat})"

    def constant_label(self, text: int) -> int:
        """The interned name of text `text` when it shows no value, else -1."""
        parts = self.texts[text][0]
        if any(not isinstance(p, str) for p in parts):
            return -1
        return self.slots.name("".join(parts))

    def automata_code(self) -> list:
        """The C that lets each automaton pick: RG_AUTOMATON (each seat's automaton or -1), the
        rank of a row of a menu (A_i), and `rg_auto_pick`, the option of the pending decision
        its seat's automaton takes. Called once every menu is known."""
        autos = sorted(self.defn.automata.values(), key=lambda a: a.seat)
        seat_of = [-1] * self.players
        for i, auto in enumerate(autos):
            if auto.seat - 1 < self.players:
                seat_of[auto.seat - 1] = i
        kinds, labels, values = [], [], []
        for i, (_, _, _, options, _) in enumerate(self.menus):
            for _, _, label in options:
                if label is None:  # the actions of cards: their own labels
                    kinds.append(ACTION)
                    labels.append(-1)
                elif i in self.chosen:  # a `choose`: its candidate itself
                    t = self.texts[label][0][0].t
                    if t not in values:
                        values.append(t)
                    kinds.append(2 + values.index(t))
                    labels.append(-1)
                else:
                    kinds.append(LABEL)
                    labels.append(self.constant_label(label))
        acts = [self.constant_label(p.label_text) if getattr(p, "label_text", None) is not None else -1
                for p in self.procs.values()]
        out = [f"#define RG_HAS_AUTOMATA {int(bool(autos))}",
               table("int32_t", "RG_AUTOMATON", seat_of or [-1]),
               table("int8_t", "RG_OPT_RANK", kinds or [0]), table("int32_t", "RG_OPT_LABEL", labels or [-1]),
               table("int32_t", "RG_PROC_LABEL", acts or [-1])]
        for i, auto in enumerate(autos):
            out += self._ranking(i, auto, values)
        out += ["static int32_t rg_auto_pick(rg_state *st, rg_cx *cx) {",
                "    rg_frame *fr = &st->frames[st->depth - 1];",
                "    int32_t best = 0, have = 0;",
                "    v_t low = 0;",
                "    for (int32_t i = 0; i < st->nopt; i++) {",
                "        int32_t row = RG_MENU_FIRST[st->menu] + st->opt_option[i];",
                "        int ranked = 1;",
                "        v_t r = 0;",
                "        switch (RG_AUTOMATON[st->chooser]) {"]
        out += [f"        case {i}: r = RANK_{i}(st, cx, fr, row, st->opt_val[i], st->chooser, &ranked); break;"
                for i in range(len(autos))]
        out += ["        default: break;",
                "        }",
                "        if (ranked && (!have || r < low)) { best = i; low = r; have = 1; }",
                "    }",
                "    (void)fr;",
                "    return best;",
                "}", ""]
        return out

    def _ranking(self, index: int, auto, values: list) -> list:
        """RANK_index: the rank automaton `auto` gives row `row` of the pending menu, whose value is `x`."""
        lines = [f"static v_t RANK_{index}(rg_state *st, rg_cx *cx, rg_frame *fr, int32_t row, v_t x, v_t seat, "
                 "int *ranked) {",
                 "    v_t name = -1;",
                 "    (void)x; (void)seat; (void)fr;",
                 "    switch (RG_OPT_RANK[row]) {",
                 "    case 1: name = RG_PROC_LABEL[RG_ACT_PROC[x]]; break;"]
        for k, t in enumerate(values):
            lines += [f"    case {2 + k}:", "        " + self._rank_call(auto, t, "x")]
        lines += ["    default: name = RG_OPT_LABEL[row]; break;",
                  "    }",
                  "    if (name < 0) rg_fault(st, cx, F_NOT_NATIVE, RG_MENU_POS[st->menu]);",
                  "    " + self._rank_call(auto, NAME, "name"),
                  "}", ""]
        return lines

    def _rank_call(self, auto, t, value: str) -> str:
        """The C statement that returns the rank of `value`, of type `t`, by `auto`'s `prefer`."""
        if auto.tree is None:  # no `prefer`: every option unranked, the first taken
            return "{ *ranked = 0; return 0; }"
        fdef = SimpleNamespace(name=f"automaton {auto.id}", params=["option", "you"], tree=auto.tree, pos=auto.pos)
        try:
            fn = self.function(fdef, (t, SEAT))
        except NotNative:  # a kind of option its `prefer` does not take here: ranked in Python, if ever asked
            return "rg_fault(st, cx, F_NOT_NATIVE, RG_MENU_POS[st->menu]);"
        if fn.returns == NONE:
            return "{ *ranked = 0; return 0; }"
        if fn.returns not in (NUM, BOOL):
            raise NotNative(auto.pos, f"a 'prefer' that gives a {said(fn.returns)}, not a number")
        if fn.constant is not None:
            return f"return {fn.constant};"
        return f"return F_{fn.index}(st, cx, fr, {value}, seat);"
