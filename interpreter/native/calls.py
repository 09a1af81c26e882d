"""The native backend's calls: the built-in functions, a table of lowerings by name, and the
game's own functions, each compiled once per the types of its arguments into a C function.

A game function that gives a list fills a buffer its caller gives (`RG_LIST` members at
most) and returns their number; one that gives a list of players or teams returns their bit
mask; any other returns its value. Kept results are the Python backend's way to spare work:
a function of the rules reads the state and gives the same answer whenever it is asked, so
the C asks it again instead.
"""
from __future__ import annotations

import re

from ..language.builtins.components import keyword_title
from ..names import fold
from .expressions import (BOOL, COMP, HOLDER, NAME, NODE, NONE, NUM, REFS, SCALARS, SEAT, TEAM, ZONE, Members, kept,
                          listed, masked, said, spanned)
from .slots import NotNative


LITERAL = "literal"  # (LITERAL, name): an argument that is a name written in the call
_SIMPLE = re.compile(r"[\w\[\]>()-]*")  # the C of a name or a literal


class _Recursive(Exception):
    """A game function reached again while its own body is lowered, before its type is known."""

    def __init__(self, key):
        super().__init__(key)
        self.key = key


class Function:
    """A game function lowered for one list of argument types."""

    def __init__(self, name: str, index: int, types: tuple):
        self.name, self.index, self.types = name, index, types
        self.slots: dict = {}
        self.consts: dict = {}
        self.ability = False
        self.returns = None
        self.constant = None  # the C literal it always gives, when its body is one: no call made
        self.c = None


def _count(em, e, sc):
    t, src = em.expr(e.args[0], sc)
    if t == ZONE:
        return NUM, f"(v_t)st->zlen[{src}]"
    if spanned(t):
        return NUM, f"(v_t){src}_n"
    if kept(t):
        return NUM, f"(v_t)RG_LEN({src})"
    if t == "empty":
        return NUM, "0LL"
    if masked(t):
        return NUM, f"(v_t)__builtin_popcountll({src})"
    members = em.members(e.args[0], sc)
    return NUM, em.gathered(members, lambda x, out: [f"(void){x}; n_{out}++;"], "n_OUT", "v_t n_OUT = 0;")


def _end(first: bool):
    """first() or last(): of a zone, a bit mask, a kept list, or any list walked to its end
    (first stops at its first member)."""
    def lower(em, e, sc):
        t, src = em.expr(e.args[0], sc)
        if t == ZONE:
            return COMP, f"rg_first_in(st, {src})" if first else f"rg_top(st, {src})"
        if masked(t):
            return t[1], f"rg_lowest({src})" if first else f"rg_highest({src})"
        if kept(t):
            at = "RG_OFF(h_)" if first else "RG_OFF(h_) + RG_LEN(h_) - 1"
            return t[1], f"({{ v_t h_ = {src}; RG_LEN(h_) ? st->arena[{at}] : -1; }})"
        members = em.members(e.args[0], sc)
        take = (lambda x, out: [f"r_{out} = {x}; goto {out};"]) if first else (lambda x, out: [f"r_{out} = {x};"])
        return members.elem, em.gathered(members, take, "r_OUT", "v_t r_OUT = -1;", label=first)
    return lower


def _top(em, e, sc):
    z = em.zone(e.args[0], sc)
    if len(e.args) == 1:
        return COMP, f"rg_top(st, {z})"
    k = em.num(e.args[1], sc)
    p = em.pos(e.pos)

    def loop(var, body):
        it, n, i, kk = em.fresh("it"), em.fresh("n"), em.fresh("i"), em.fresh("k")
        return ["{", f"    int32_t {n} = st->zlen[{z}];", f"    v_t {kk} = {k};", f"    int32_t {it}[RG_COMPS];",
                f"    memcpy({it}, rg_items(st, {z}), sizeof(int32_t) * (size_t){n});",
                f"    for (int32_t {i} = {n} - 1; {kk} > 0 && {i} >= 0 && {i} >= {n} - {kk}; {i}--) {{",
                f"        v_t {var} = {it}[{i}];", f"        rg_work(st, cx, 1, {p});"] + \
            ["        " + b for b in body] + ["    }", "}"]
    return ("list", COMP), Members(COMP, loop)


def _step(sign):
    def lower(em, e, sc):
        src = em.typed(e.args[0], SEAT, sc)
        k = em.num(e.args[1], sc) if len(e.args) == 2 else "1"
        return SEAT, f"rg_mod(rg_seat(st, cx, {src}, {em.pos(e.pos)}) {sign} ({k}), st->n)"
    return lower


def _team(em, e, sc):
    src = em.typed(e.args[0], SEAT, sc)
    return TEAM, f"(v_t)st->team_of[rg_seat(st, cx, {src}, {em.pos(e.pos)})]"


def _seat(em, e, sc):
    t, src = em.expr(e.args[0], sc)
    if t == TEAM:
        return NUM, f"(rg_some(st, cx, {src}, {em.pos(e.pos)}) + 1)"
    if t == SEAT:
        return NUM, f"(rg_seat(st, cx, {src}, {em.pos(e.pos)}) + 1)"
    raise NotNative(e.pos, f"seat() of a {said(t)}")


def _players_of(how: str):
    def lower(em, e, sc):
        t, src = em.expr(e.args[0], sc)
        p = em.pos(e.pos)
        if how == "members" and t == TEAM:
            return ("mask", SEAT), f"rg_members(st, rg_some(st, cx, {src}, {p}))"
        if how == "members" and t == SEAT:
            return ("mask", SEAT), f"(1LL << rg_seat(st, cx, {src}, {p}))"
        if t != SEAT:
            raise NotNative(e.pos, f"{how}() of a {said(t)}")
        return ("mask", SEAT), f"rg_{how}(st, rg_seat(st, cx, {src}, {p}))"
    return lower


def _in_play(em, e, sc):
    who = "-1"
    if e.args:
        who = f"rg_seat(st, cx, {em.typed(e.args[0], SEAT, sc)}, {em.pos(e.pos)})"
    return ("list", COMP), em.buffer_members(COMP, f"rg_in_play(st, cx, BUF, {who})", e.pos)


def _of_component(t: str, call: str):
    """A built-in of one component that one C call answers (`call`, with {c} for the component)."""
    def lower(em, e, sc):
        return t, call.format(c=em.typed(e.args[0], COMP, sc))
    return lower


def _nodes(em, e, sc):
    if e.args:
        t, src = em.expr(e.args[0], sc)
        if t != NAME or not src.isdigit():
            raise NotNative(e.pos, "nodes() of a kind known only in play")
        kind = fold(em.slots.names[int(src)])
        chosen = [i for i, n in enumerate(em.slots.nodes) if fold(str(em.program.nodes[n].get("kind", ""))) == kind]
    else:
        chosen = list(range(len(em.slots.nodes)))
    return ("list", NODE), em.constant_members(NODE, chosen, e.pos)


def _neighbors(em, e, sc):
    n = em.typed(e.args[0], NODE, sc)
    slots = em.slots
    index = {nid: i for i, nid in enumerate(slots.nodes)}
    first, cells = [], []
    for nid in slots.nodes:
        first.append(len(cells))
        cells += [index[x] for x in em.program.adj.get(nid, ()) if x in index]
    first.append(len(cells))
    starts = em.table(f"NF_{len(em.tables)}", "int32_t", [str(x) for x in first])
    links = em.table(f"NL_{len(em.tables)}", "int32_t", [str(x) for x in cells] or ["0"])
    p = em.pos(e.pos)

    def loop(var, body):
        node = em.fresh("node")
        return em.walk(var, body, [f"v_t {node} = rg_some(st, cx, {n}, {p});"], f"{starts}[{node}]",
                       f"{starts}[{node} + 1]", f"{links}[{{i}}]", p)
    return ("list", NODE), Members(NODE, loop)


def _prints(em, e, sc):
    c = em.typed(e.args[0], COMP, sc)
    title = keyword_title(_literal_name(em, e, sc, "prints") if len(e.args) == 2 else "")
    flags = em.table(f"KW_{len(em.tables)}", "int8_t",
                     ["1" if title in printed else "0" for printed in em.program.comp_prints] or ["0"])
    return BOOL, f"({{ v_t c_ = {c}; c_ >= 0 && {flags}[c_]; }})"


def _linked(em, e, sc):
    a = em.typed(e.args[0], NODE, sc)
    b = em.typed(e.args[1], NODE, sc)
    nodes = em.slots.nodes
    n = len(nodes)
    index = {nid: i for i, nid in enumerate(nodes)}
    cells = ["0"] * (n * n)
    for i, nid in enumerate(nodes):
        for other in em.program.adj.get(nid, ()):
            if other in index:
                cells[i * n + index[other]] = "1"
    table = em.table(f"LK_{len(em.tables)}", "int8_t", cells or ["0"])
    return BOOL, f"({{ v_t a_ = {a}, b_ = {b}; a_ >= 0 && b_ >= 0 && {table}[a_ * {max(n, 1)} + b_]; }})"


def _quantified(kind: str):
    """any() and all(): of truth values, or of members, each true but none (a player, a
    component, a node is a member whatever its index; a number is true when it is not 0)."""
    def lower(em, e, sc):
        t, src = em.expr(e.args[0], sc)
        if masked(t):  # players or teams: each is true
            return BOOL, f"({src} != 0)" if kind == "any" else f"((void)({src}), 1)"
        members = em.members(e.args[0], sc)
        if members.elem == BOOL or members.elem == NUM:
            true = "({x} != 0)"
        elif members.elem in REFS:
            true = "({x} >= 0)"
        else:
            raise NotNative(e.pos, f"{kind}() of a list of {said(members.elem)}s")
        if kind == "any":
            return BOOL, em.gathered(members, lambda x, out: [f"if {true.format(x=x)} {{ r_{out} = 1; goto {out}; }}"],
                                     "r_OUT", "int r_OUT = 0;", label=True)
        return BOOL, em.gathered(members, lambda x, out: [f"if (!{true.format(x=x)}) {{ r_{out} = 0; goto {out}; }}"],
                                 "r_OUT", "int r_OUT = 1;", label=True)
    return lower


def _literal_name(em, e, sc, what: str) -> str:
    """The text of a name written in the rules (a card's id, a node's), known when compiling."""
    t, src = em.expr(e.args[-1] if what == "prints" else e.args[0], sc)
    if t != NAME or not src.isdigit():
        raise NotNative(e.pos, f"{what}() of a name known only in play")
    return em.slots.names[int(src)]


def _card(em, e, sc):
    found = em.program.cards_by_id.get(fold(_literal_name(em, e, sc, "card")))
    if not found:
        raise NotNative(e.pos, "card() of no card")
    return COMP, f"{int(found[0])}"


def _cards(em, e, sc):
    found = em.program.cards_by_id.get(fold(_literal_name(em, e, sc, "cards")))
    if not found:
        raise NotNative(e.pos, "cards() of no card")
    return ("list", COMP), em.constant_members(COMP, [int(c) for c in found], e.pos)


def _node(em, e, sc):
    t, src = em.expr(e.args[0], sc)
    if t == NODE:
        return NODE, src
    if t != NAME:
        raise NotNative(e.pos, f"node() of a {said(t)}")
    return NODE, f"rg_node_of(st, cx, {src}, {em.pos(e.pos)})"


def _has(em, e, sc):
    ct = em.expr(e.args[0], sc)[0]
    if ct in SCALARS and ct not in (COMP, HOLDER) or ct == NONE:  # what is no component has no class
        return BOOL, "0"
    c = em.typed(e.args[0], COMP, sc)
    t, src = em.expr(e.args[1], sc)
    if t != NAME:
        raise NotNative(e.pos, f"has() of a {said(t)}")
    if src.isdigit():  # a class written in the rules
        name = em.slots.names[int(src)]
        canon = em.defn.classes.get(fold(name))
        return BOOL, em.is_class(c, (None, canon[1] if canon else name), e.pos)
    em.dynamic_has = True  # a name known only in play: a table of every name against every component
    return BOOL, f"rg_has(st, {src}, {c})"


def _action_count(em, e, sc):
    t, src = em.expr(e.args[0], sc)
    if t != COMP and t != HOLDER:  # what is no component has no action
        return NUM, "0LL"
    counts = [str(len(a)) for a in em.program.comp_actions] or ["0"]
    table = em.table(f"ACTS_{len(em.tables)}", "int32_t", counts)
    return NUM, f"({{ v_t c_ = {em.typed(e.args[0], COMP, sc)}; c_ < 0 ? 0 : (v_t){table}[c_]; }})"


def _can_use(em, e, sc):
    ct, pt = em.expr(e.args[0], sc)[0], em.expr(e.args[1], sc)[0]
    if ct not in (COMP, HOLDER) or pt not in (SEAT, HOLDER):  # only a player uses, only a component's actions
        return BOOL, "0"
    return BOOL, f"rg_can_use(st, cx, {em.typed(e.args[0], COMP, sc)}, {em.typed(e.args[1], SEAT, sc)})"


def _automated(em, e, sc):
    t, src = em.expr(e.args[0], sc)
    if t == NONE or (t in SCALARS and t not in (SEAT, HOLDER)):  # what is no player is no automaton
        return BOOL, "0"
    return BOOL, em.automated(em.typed(e.args[0], SEAT, sc))


def _random(em, e, sc):
    members = em.members(e.args[0], sc)
    p = em.pos(e.pos)

    def pick(x, out):
        return [f"if (n_{out} >= RG_LIST) rg_fault(st, cx, F_TOO_LONG, {p});", f"b_{out}[n_{out}++] = {x};"]
    return members.elem, em.gathered(members, pick, "(n_OUT ? b_OUT[rg_below(st, n_OUT)] : -1)",
                                     "v_t b_OUT[RG_LIST]; int32_t n_OUT = 0;")


def _sum(em, e, sc):
    members = em.members(e.args[0], sc)
    if members.elem != NUM:
        raise NotNative(e.pos, f"sum() of a list of {said(members.elem)}s")
    p = em.pos(e.pos)
    return NUM, em.gathered(members, lambda x, out: [f"r_{out} = rg_big(st, cx, r_{out} + {x}, {p});"], "r_OUT",
                            "v_t r_OUT = 0;")


def _extreme(op: str):
    def lower(em, e, sc):
        if len(e.args) == 2:
            a, b = em.num(e.args[0], sc), em.num(e.args[1], sc)
            return NUM, f"({{ v_t a_ = {a}, b_ = {b}; a_ {op} b_ ? a_ : b_; }})"
        members = em.members(e.args[0], sc)
        if members.elem != NUM:
            raise NotNative(e.pos, f"a list of {said(members.elem)}s")
        def keep(x, out):
            return [f"if (!s_{out} || {x} {op} r_{out}) {{ r_{out} = {x}; s_{out} = 1; }}"]
        return NUM, em.gathered(members, keep, "r_OUT", "v_t r_OUT = 0; int s_OUT = 0;")
    return lower


def _most(em, e, sc):
    members = em.members(e.args[0], sc)
    if members.elem not in REFS:
        raise NotNative(e.pos, f"most() of a list of {said(members.elem)}s")
    def tally(x, out):
        return [f"n_{out} = rg_count_in(st, cx, v_{out}, c_{out}, n_{out}, {x});"]
    return members.elem, em.gathered(members, tally, "rg_most(v_OUT, c_OUT, n_OUT)",
                                     "v_t v_OUT[RG_LIST]; int64_t c_OUT[RG_LIST]; int32_t n_OUT = 0;")


def _supply(em, e, sc):
    t, src = em.expr(e.args[0], sc)
    if t == NAME and not src.isdigit():  # a name known only in play: a table of every name
        em.dynamic_supply = True
        return NUM, f"rg_supply_of(st, {src})"
    if t != NAME:
        raise NotNative(e.pos, f"supply() of a {said(t)}")
    slot = em.slots.counter_base.get("$" + em.slots.names[int(src)])
    if slot is None:
        return NUM, "0LL"
    return NUM, f"st->counters[{slot}]"


def _range(em, e, sc):
    args = e.args
    lo, hi = ("1LL", em.num(args[0], sc)) if len(args) == 1 else (em.num(args[0], sc), em.num(args[1], sc))
    p = em.pos(e.pos)

    def loop(var, body):
        top = em.fresh("hi")
        return [f"for (v_t {var} = {lo}, {top} = {hi}; {var} <= {top}; {var}++) {{",
                f"    rg_work(st, cx, 1, {p});"] + ["    " + b for b in body] + ["}"]
    return ("list", NUM), Members(NUM, loop)


def _collect(em, members: Members, buf: str, n: str, pos) -> list:
    """C that fills `buf` (RG_LIST values) with the members, their number in `n`."""
    x = em.fresh("x")
    return [f"v_t {buf}[RG_LIST];", f"int32_t {n} = 0;"] + members.loop(
        x, [f"if ({n} >= RG_LIST) rg_fault(st, cx, F_TOO_LONG, {em.pos(pos)});", f"{buf}[{n}++] = {x};"])


def _reordered(kind: str):
    """sorted(), reversed(), distinct(): the list gathered, then walked in its new order."""
    def lower(em, e, sc):
        members = em.members(e.args[0], sc)
        elem = members.elem
        keys = None
        if kind == "sorted":
            if len(e.args) == 2:
                keys = em.members(e.args[1], sc)
                if keys.elem != NUM:
                    raise NotNative(e.pos, f"sorted() by keys that are {said(keys.elem)}s")
            elif elem not in (NUM, SEAT, TEAM, COMP):
                raise NotNative(e.pos, f"sorted() of {said(elem)}s")
        p = em.pos(e.pos)

        def loop(var, body):
            buf, n, i = em.fresh("buf"), em.fresh("n"), em.fresh("i")
            lines = ["{"] + ["    " + b for b in _collect(em, members, buf, n, e.pos)]
            order = f"{buf}[{i}]"
            if kind == "sorted":
                key, kn, idx = em.fresh("key"), em.fresh("kn"), em.fresh("idx")
                if keys is not None:
                    lines += ["    " + b for b in _collect(em, keys, key, kn, e.pos)]
                    lines.append(f"    if ({kn} != {n}) rg_fault(st, cx, F_KEYS, {p});")
                else:
                    lines += [f"    v_t *{key} = {buf};"]
                lines += [f"    int32_t {idx}[RG_LIST];", f"    rg_sort(st, cx, {key}, {idx}, {n}, {p});"]
                order = f"{buf}[{idx}[{i}]]"
            if kind == "reversed":
                order = f"{buf}[{n} - 1 - {i}]"
            if kind == "distinct":
                lines.append(f"    {n} = rg_distinct({buf}, {n});")
            lines += [f"    for (int32_t {i} = 0; {i} < {n}; {i}++) {{", f"        v_t {var} = {order};",
                      f"        rg_work(st, cx, 1, {p});"] + ["        " + b for b in body] + ["    }", "}"]
            return lines
        return ("list", elem), Members(elem, loop)
    return lower


def _select(em, e, sc):
    test = em.test(e.args[0], sc)
    if test in ("0", "1"):  # known when lowered: the other branch is not lowered (it may not type)
        return em.expr(e.args[1 if test == "1" else 2], sc)
    at, a = em.expr(e.args[1], sc)
    bt, b = em.expr(e.args[2], sc)
    if _listish(at) or _listish(bt):  # one list or the other, walked where it is asked
        am = em.members(e.args[1], sc) if at != "empty" else None
        bm = em.members(e.args[2], sc) if bt != "empty" else None
        elems = {m.elem for m in (am, bm) if m is not None}
        if len(elems) > 1:
            raise NotNative(e.pos, "select() of lists of two kinds")
        elem = elems.pop() if elems else NUM

        def loop(var, body):
            first = am.loop(var, body) if am is not None else []
            second = bm.loop(var, body) if bm is not None else []
            return [f"if ({test}) {{"] + ["    " + x for x in first] + ["} else {"] + \
                ["    " + x for x in second] + ["}"]
        return ("list", elem), Members(elem, loop)
    if at == NONE and bt in REFS:
        at = bt
    if bt == NONE and at in REFS:
        bt = at
    if at != bt or at not in SCALARS:
        raise NotNative(e.pos, f"select() of a {said(at)} and a {said(bt)}")
    return at, f"({test} ? {a} : {b})"


CALLS = {
    "count": _count, "first": _end(True), "last": _end(False), "top": _top, "next": _step("+"), "previous": _step("-"),
    "team": _team, "seat": _seat, "partners": _players_of("partners"), "opponents": _players_of("opponents"),
    "members": _players_of("members"), "in_play": _in_play, "holder": _of_component(HOLDER, "rg_holder_zone(st, {c})"),
    "zone_of": _of_component(ZONE, "rg_zone_of(st, {c})"),
    "nodes": _nodes, "neighbors": _neighbors, "any": _quantified("any"), "all": _quantified("all"),
    "sum": _sum, "max": _extreme(">"), "min": _extreme("<"), "most": _most, "supply": _supply, "range": _range,
    "select": _select, "tapped": _of_component(BOOL, "rg_is_tapped(st, {c})"),
    "sorted": _reordered("sorted"), "reversed": _reordered("reversed"), "distinct": _reordered("distinct"),
    "card": _card, "cards": _cards, "node": _node, "owner": _of_component(SEAT, "rg_owner(st, {c})"),
    "controller": _of_component(SEAT, "rg_controller(st, {c})"), "has": _has,
    "random": _random, "linked": _linked, "prints": _prints,
    "automated": _automated, "action_count": _action_count, "can_use": _can_use,
}


def _listish(t) -> bool:
    return t == "empty" or listed(t) or kept(t) or masked(t)


def _bound(t, i: int) -> tuple:
    """(type, C) of the i-th parameter of a function lowered for arguments of types ... t ...:
    a literal name is its name, written in the C."""
    if isinstance(t, tuple) and t[0] == LITERAL:
        return NAME, str(t[1])
    return t, f"a{i}"


def _around(gather: list, call: str) -> str:
    """`call`, after the C that gathers its lists (which live on the C stack until it returns)."""
    return "({ " + " ".join(gather) + f" {call}; }})" if gather else call


class Calls:
    """The lowering of calls; mixed into the Emitter with Expressions."""

    def e_Call(self, e, sc):
        if e.func in self.defn.functions:
            return self.game_function(e, sc)
        lower = CALLS.get(fold(e.func))
        if lower is None:
            raise NotNative(e.pos, f"the function '{e.func}'")
        return lower(self, e, sc)

    def game_function(self, e, sc):
        fdef = self.defn.functions[e.func]
        args = [self.expr(a, sc) for a in e.args]
        types, values, gather = [], [], []
        for a, (t, src) in zip(e.args, args, strict=True):
            if t == NAME and src.isdigit():  # a name written in the call: the function is lowered for it
                types.append((LITERAL, int(src)))
                values.append(src)
            elif listed(t) or kept(t) or t == "empty":  # a list: gathered on the C stack, given as a span
                members = self.members(a, sc) if t != "empty" else None
                buf, n = self.fresh("buf"), self.fresh("n")
                gather += [f"rg_stack(st, cx, {self.pos(a.pos)});", f"v_t {buf}[RG_LIST];", f"int32_t {n} = 0;"]
                if members is not None:
                    gather += self._gathered_into(members, buf, n, a.pos)
                elem = members.elem if members is not None else NUM
                types.append(("span", elem))
                values.append(f"{buf}, {n}")
            elif spanned(t):
                types.append(t)
                values.append(f"{src}_v, {src}_n")
            elif t in SCALARS or masked(t):
                types.append(t)
                values.append(src)
            else:
                raise NotNative(e.pos, f"a call of '{e.func}' with a value of no known type")
        fn = self.function(fdef, tuple(types))
        if fn.constant is not None and all(_SIMPLE.fullmatch(src) for src in values):
            return fn.returns, fn.constant  # (arguments that are names or literals: nothing of them can fault)
        values = ", ".join(["st", "cx", "fr"] + values)
        if listed(fn.returns):
            call = f"F_{fn.index}({values.replace('fr', 'fr, BUF', 1)})"
            return fn.returns, self.buffer_members(fn.returns[1], _around(gather, call), e.pos)
        return fn.returns, _around(gather, f"F_{fn.index}({values})")

    def _gathered_into(self, members, buf: str, n: str, pos) -> list:
        """C that appends each member to C array `buf`, counted by `n`."""
        x, p = self.fresh("x"), self.pos(pos)
        return members.loop(x, [f"if ({n} >= RG_LIST) rg_fault(st, cx, F_TOO_LONG, {p});", f"{buf}[{n}++] = {x};"])

    def function(self, fdef, types: tuple) -> Function:
        """Game function `fdef` for arguments of `types`, lowered once. A function that calls
        itself is lowered with a guess of what it gives, checked against what its body gives."""
        key = (fdef.name, types)
        fn = self.functions.get(key)
        if fn is not None:
            if fn.returns is None:
                raise _Recursive(key)
            return fn
        refused = None
        for guess in (None, BOOL, NUM, COMP, SEAT, NODE, NAME):
            try:
                fn = self._function(fdef, types, key, guess)
            except _Recursive as again:
                if again.key != key:
                    raise
                continue
            except NotNative as exc:
                if guess is None:
                    raise
                refused = refused or exc  # this guess does not fit the body: the next one
                continue
            if guess is None or fn.returns == guess:
                return fn
            del self.functions[key]  # the guess was not what the body gives: the next one
        raise refused or NotNative(fdef.pos, f"the function '{fdef.name}', which calls itself, "
                                             "of no type the backend guesses")

    def _function(self, fdef, types: tuple, key, guess) -> Function:
        self.function_count = getattr(self, "function_count", 0) + 1
        fn = self.functions[key] = Function(fdef.name, self.function_count, types)
        fn.returns = guess  # what a call of itself in its body gives (None: not guessed yet)
        saved, self.cur = self.cur, fn
        try:  # the whole body lowered here, lists and all, with the function's own names
            sc = {name: _bound(t, i) for i, (name, t) in enumerate(zip(fdef.params, types, strict=True))}
            t, src = self.expr(fdef.tree, sc)
            params = "".join(f", v_t *a{i}_v, int32_t a{i}_n" if spanned(pt) else f", v_t a{i}"
                             for i, pt in enumerate(types))
            head = f"F_{fn.index}(rg_state *st, rg_cx *cx, rg_frame *fr"
            if listed(t):
                x = self.fresh("x")
                body = src.loop(x, [f"if (n_ >= RG_LIST) rg_fault(st, cx, F_TOO_LONG, {self.pos(fdef.pos)});",
                                    f"out[n_++] = {x};"])
                fn.c = "\n".join([f"static int32_t {head}, v_t *out{params}) {{", "    int32_t n_ = 0;",
                                  "    (void)fr;", f"    rg_deeper(st, cx, {self.pos(fdef.pos)});"] +
                                 ["    " + b for b in body] + ["    cx->depth--;", "    return n_;", "}", ""])
                fn.proto = f"static int32_t {head}, v_t *out{params});"
            elif t in SCALARS or masked(t) or t == NONE:
                t = NUM if t == NONE else t
                if t in (BOOL, NUM) and (src in ("0", "1") or (src.endswith("LL") and src[:-2].lstrip("-").isdigit())):
                    fn.constant = src
                fn.c = "\n".join([f"static v_t {head}{params}) {{", "    (void)fr;",
                                  f"    rg_deeper(st, cx, {self.pos(fdef.pos)});", f"    v_t r_ = {src};",
                                  "    cx->depth--;", "    return r_;", "}", ""])
                fn.proto = f"static v_t {head}{params});"
            else:
                raise NotNative(fdef.pos, f"function '{fdef.name}', which gives a {said(t)}")
        except (NotNative, _Recursive):
            del self.functions[key]  # not taken: asked again, it is refused again, not called recursive
            raise
        finally:
            self.cur = saved
        fn.returns = t
        return fn

    def constant_members(self, elem: str, values: list, pos) -> Members:
        table = self.table(f"K_{len(self.tables)}", "int32_t", [str(v) for v in values] or ["0"])
        p = self.pos(pos)
        count = len(values)

        def loop(var, body):
            return self.walk(var, body, [], "0", str(count), f"{table}[{{i}}]", p)
        return Members(elem, loop)


__all__ = ["CALLS", "Calls", "Function", "BOOL", "NODE"]
