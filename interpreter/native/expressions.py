"""The native backend's expressions: each node of the checked tree lowered to typed C.

Every expression has a type known when it is lowered: a number, a truth value, a player, a
team, a component, a node, a name (interned), a zone (a slot), a list of players or teams kept
as a bit mask (`("mask", T)`), or a list walked where it is made (`("list", T)`), which is never
stored: its consumer (count, first, any, sum, a choice, a loop) runs over its members in place,
through `Members.loop`. Where a value may be none, -1 stands for it. A value the C cannot type
(a holder that is not a component, say) is tested where it is read and stops the game with a
fault rather than run wrong. The built-in functions are a table of lowerings by name (`CALLS`),
as the Python backend's are methods of the built-ins.
"""
from __future__ import annotations

from .. import limits
from ..language import nodes as N
from ..names import fold
from ..scopes import OwnerKind, owner_kind
from .slots import NotNative

NUM, BOOL, SEAT, TEAM, COMP, NODE, NAME, ZONE = (
    "number", "truth value", "player", "team", "component", "node", "name", "zone")
# what a component's zone belongs to (holder()): a player, team, node or component, told only
# in play; kept as the zone's slot, and read as the kind its use asks for
HOLDER = "holder"
STATIC, KEYED = "data", "keyed"  # (STATIC, k): a table of the data known when lowered; (KEYED, k): picked in play
PAIR = "pair of numbers"  # `[a, b]` as one value, each within 32 bits: a member of a list of pairs
NONE = "none"
OWNER_TYPE = {OwnerKind.PLAYER: SEAT, OwnerKind.TEAM: TEAM, OwnerKind.NODE: NODE, OwnerKind.COMPONENT: COMP}
HELD = {SEAT: 1, TEAM: 2, NODE: 3, COMP: 4}  # slots.HELD_BY, by type
SCALARS = (NUM, BOOL, SEAT, TEAM, COMP, NODE, NAME, ZONE, HOLDER, PAIR)
REFS = (SEAT, TEAM, COMP, NODE, NAME, ZONE, HOLDER)  # types where -1 is none


def listed(t) -> bool:
    return isinstance(t, tuple) and t[0] == "list"


def masked(t) -> bool:
    return isinstance(t, tuple) and t[0] == "mask"


def static(t) -> bool:
    """A table of the game's data, known when lowered or picked in play (data.Data)."""
    return isinstance(t, tuple) and t[0] in (STATIC, KEYED)


def spanned(t) -> bool:
    """A list a game function is given: C variables NAME_v (its members) and NAME_n (their number)."""
    return isinstance(t, tuple) and t[0] == "span"


def kept(t) -> bool:
    """A list kept in a variable: its handle in the arena."""
    return isinstance(t, tuple) and t[0] == "kept"


class Members:
    """A list walked where it is made: `loop(var, body)` is C running `body` with C variable
    `var` bound to each member in order."""

    def __init__(self, elem: str, loop):
        self.elem, self.loop = elem, loop


class Expressions:
    """Lowering of expressions; mixed into the Emitter, which gives `cur` (the procedure or
    function being lowered), `slots`, `pos()`, `fresh()` and the game's tables."""

    # front doors ---------------------------------------------------------------------
    def expr(self, e, sc=None) -> tuple:
        """(type, C) of expression `e`; `sc`: names bound by an enclosing loop, to (type, C)."""
        visit = getattr(self, "e_" + type(e).__name__, None)
        if visit is None:
            raise NotNative(e.pos, f"the expression '{type(e).__name__}'")
        return visit(e, sc or {})

    def typed(self, e, want: str, sc=None) -> str:
        t, src = self.expr(e, sc)
        if t == NONE and want in REFS:
            return "-1"
        if t == HOLDER and want in HELD:  # a holder read as what the rules use it as
            return f"rg_held(st, cx, {src}, {HELD[want]}, {self.pos(e.pos)})"
        if t != want:
            raise NotNative(e.pos, f"a {said(t)} where a {said(want)} is needed")
        return src

    def num(self, e, sc=None) -> str:
        return self.typed(e, NUM, sc)

    def test(self, e, sc=None) -> str:
        return self.typed(e, BOOL, sc)

    def zone(self, e, sc=None) -> str:
        return self.typed(e, ZONE, sc)

    def members(self, e, sc=None) -> Members:
        """The members of a set expression (a zone, a list, players, teams...)."""
        t, src = self.expr(e, sc)
        if listed(t):
            return src
        if masked(t):
            return self._mask_members(t[1], src, e.pos)
        if kept(t):
            return self._kept_members(t[1], src, e.pos)
        if spanned(t):
            p = self.pos(e.pos)
            return Members(t[1], lambda var, body: self.walk(var, body, [], "0", f"{src}_n", f"{src}_v[{{i}}]", p))
        if t == "empty":
            return Members(NONE, lambda var, body: [])
        if t == ZONE:
            return self._zone_members(src, e.pos)
        raise NotNative(e.pos, f"a {said(t)} run over as a list")

    # literals and names -----------------------------------------------------------------
    def e_Condition(self, e, sc):  # a text's part, as parsed
        return self.expr(e.expr, sc)

    def e_Number(self, e, sc):
        if not -limits.MAX_NUMBER <= e.value <= limits.MAX_NUMBER:
            raise NotNative(e.pos, f"the number {e.value}, past the largest a game may keep")
        return NUM, f"{e.value}LL"

    def e_Bool(self, e, sc):
        return BOOL, "1" if e.value else "0"

    def e_NoneLit(self, e, sc):
        return NONE, "-1"

    def e_String(self, e, sc):
        return NAME, f"{self.slots.name(e.value)}"

    def e_Name(self, e, sc):
        name = e.name
        if name in sc:
            return sc[name]
        slots = self.cur.slots
        if name in slots:
            slot, t = slots[name]
            return t, f"L[{slot}]"
        if name in getattr(self.cur, "empty", ()):
            return "empty", "0"  # while its members' kind is not known
        if name in getattr(self.cur, "declared", ()):
            raise NotNative(e.pos, f"'{name}', of no type known yet")  # a local: never the class of its name
        if name == "you":
            return SEAT, "(v_t)fr->you"
        if name in ("self", "me") and self.cur.ability:
            return COMP, "(v_t)fr->me"
        if name == "player_count":
            return NUM, "(v_t)st->n"
        if name == "players":
            return ("mask", SEAT), "rg_all(st->n)"
        if name == "teams":
            return ("mask", TEAM), "rg_all(st->nteams)"
        if name in self.cur.consts:  # a keyword's parameter, as the card prints it
            kind, value = self.cur.consts[name]
            if kind == "number":
                return NUM, value
            if kind in ("class", "name"):
                return NAME, f"{self.slots.name(value)}"
            return self.expr(value, sc)
        if name in self.defn.counters and self.program.counters[name].scope.kind is OwnerKind.GAME:
            return NUM, f"st->counters[{self.slots.counter_base[name]}]"
        if name in self.program.zones and self.program.zones[name].scope.kind is OwnerKind.GAME:
            return ZONE, f"{self.slots.zone_base[name]}"
        klass = self.defn.classes.get(fold(name))
        if klass is not None and klass[0] is not None:
            return NAME, f"{self.slots.name(klass[1])}"
        raise NotNative(e.pos, f"the name '{name}'")

    def e_Attr(self, e, sc):
        if isinstance(e.obj, N.Name) and e.obj.name == "options" and "options" not in self.cur.slots:
            return self.option(e)
        if self.is_data(e):
            return self.data_value(self.program.data[e.name], e.pos, f"data.{e.name}")
        t, src = self.expr(e.obj, sc)
        p = self.pos(e.pos)
        name = e.name
        if t == HOLDER:  # the holder read as the owner of what the rules name: a zone, counter, attribute
            scope = self.program.zones.get(name) or self.program.counters.get(name)
            want = OWNER_TYPE.get(scope.scope.kind) if scope is not None else None
            if want is None and name in self.defn.attributes:
                want = COMP
            elif want is None and any(name in node for node in self.program.nodes.values()):
                want = NODE
            if want is None:
                raise NotNative(e.pos, f"'{name}' of a holder")
            t, src = want, f"rg_held(st, cx, {src}, {HELD[want]}, {p})"
        if t == SEAT and name == "team":
            return TEAM, f"(v_t)st->team_of[rg_seat(st, cx, {src}, {p})]"
        if name in self.slots.second:
            raise NotNative(e.pos, f"counter '{name}', kept per pair of owners, read without its second owner")
        if t in (SEAT, TEAM, NODE, COMP):
            zone = self.program.zones.get(name)
            if zone is not None and OWNER_TYPE.get(zone.scope.kind) == t:
                return ZONE, f"({self.slots.zone_base[name]} + {self.owner(t, src, p)})"
            if name in self.defn.counters:
                return NUM, f"st->counters[{self.counter_slot(name, t, src, e.pos)}]"
        if t == COMP and name in self.defn.attributes:
            return self.attribute(name, src, p, e.pos)
        if t == COMP and name == "tapped":
            return BOOL, f"rg_is_tapped(st, {src})"
        if t == COMP and name in ("title", "id"):
            cells = [str(self.slots.name(getattr(card, name))) for card in self.program.comp_card]
            table = self.table(f"PR_{len(self.tables)}", "int64_t", cells or ["-1"])
            return NAME, f"{table}[rg_some(st, cx, {src}, {p})]"
        if t == COMP and name in ("owner", "controller"):
            return SEAT, f"rg_{name}(st, {src})"
        if t == COMP and name == "zone":
            return ZONE, f"rg_zone_of(st, {src})"
        if t == SEAT and name == "seat":
            return NUM, f"(rg_seat(st, cx, {src}, {p}) + 1)"
        if t == NODE and name == "id":
            cells = [str(self.slots.name(n)) for n in self.slots.nodes]
            table = self.table(f"PR_{len(self.tables)}", "int64_t", cells or ["-1"])
            return NAME, f"{table}[rg_some(st, cx, {src}, {p})]"
        if t == NODE:
            return self.node_attribute(name, src, p, e.pos)
        raise NotNative(e.pos, f"'{name}' of a {said(t)}")

    def owner(self, t: str, src: str, p: int) -> str:
        """The C of the owner index of a value of type `t` (checked: none is a fault)."""
        if t == SEAT:
            return f"rg_seat(st, cx, {src}, {p})"
        return f"rg_some(st, cx, {src}, {p})"

    def counter_slot(self, name: str, t: str, src: str, pos) -> str:
        """The slot of counter `name` of an owner of type `t` (a player's team for a team counter)."""
        cdef = self.program.counters[name]
        base = self.slots.counter_base[name]
        kind = cdef.scope.kind
        p = self.pos(pos)
        if kind is OwnerKind.GAME:
            return str(base)
        if kind is OwnerKind.TEAM and t == SEAT:
            return f"({base} + st->team_of[rg_seat(st, cx, {src}, {p})])"
        if OWNER_TYPE.get(kind) != t:
            raise NotNative(pos, f"counter '{name}' of a {said(t)}")
        return f"({base} + {self.owner(t, src, p)})"

    def pair_slot(self, e, sc=None) -> str:
        """The slot of a counter kept per pair of owners, `owner.counter[second owner]`."""
        name = e.obj.name
        cdef = self.program.counters[name]
        kinds = [OWNER_TYPE.get(owner_kind(w)) for w in cdef.scope.words]
        p = self.pos(e.pos)
        first = self.typed(e.obj.obj, kinds[0], sc)
        second = self.typed(e.key, kinds[1], sc)
        return (f"({self.slots.counter_base[name]} + {self.owner(kinds[0], first, p)} * {self.slots.second[name]}"
                f" + {self.owner(kinds[1], second, p)})")

    def option(self, e):
        if e.name not in self.program.options:
            raise NotNative(e.pos, f"option '{e.name}'")
        opt = self.program.options[e.name]
        values = list(getattr(opt, "values", None) or [])
        default = getattr(opt, "default", None)
        if all(isinstance(v, bool) for v in values + [default]):
            t = BOOL
        elif all(isinstance(v, int) and not isinstance(v, bool) for v in values + [default]):
            t = NUM
        elif all(isinstance(v, str) for v in values + [default]):
            t = NAME
            for v in values + [default]:
                self.slots.name(v)
        else:
            raise NotNative(e.pos, f"option '{e.name}', of values of several kinds")
        return t, f"st->options[{self.options.index(e.name)}]"

    def attribute(self, name: str, src: str, p: int, pos):
        """A component's attribute, from a table made at compile time, unless the rules set it."""
        values = self.program.comp_attrs.get(name)
        if values is None:
            raise NotNative(pos, f"attribute '{name}'")
        if values and all(v is None or isinstance(v, list) for v in values) and name not in self.set_attributes:
            return self.list_attribute(name, values, src, p, pos)
        if values and all(isinstance(v, bool) for v in values):
            t, cells = BOOL, [str(int(v)) for v in values]
        elif all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            t, cells = NUM, [str(v) for v in values]
        elif all(v is None or isinstance(v, str) for v in values):
            t, cells = NAME, [str(self.slots.name(v)) if v is not None else "-1" for v in values]
        elif all(v is None or (isinstance(v, int) and not isinstance(v, bool)) for v in values):
            # a number only some cards have: read where the rules read it, on those alone
            t, cells = NUM, ["RG_MISSING" if v is None else str(v) for v in values]
            table = self.table(f"A_{len(self.tables)}", "int64_t", cells)
            c = self.fresh("c")
            read = f"{table}[{c}]"
            if name in self.set_attributes:
                read = f"rg_attr(st, {self.set_attributes.index(name)}, {c}, {table}[{c}])"
            return t, f"({{ v_t {c} = rg_some(st, cx, {src}, {p}); rg_present(st, cx, {read}, {p}); }})"
        else:
            raise NotNative(pos, f"attribute '{name}', of values of several types")
        table = self.table(f"A_{len(self.tables)}", "int64_t", cells)
        if name in self.set_attributes:
            c = self.fresh("c")
            return t, (f"({{ v_t {c} = rg_some(st, cx, {src}, {p}); "
                       f"rg_attr(st, {self.set_attributes.index(name)}, {c}, {table}[{c}]); }})")
        return t, f"{table}[rg_some(st, cx, {src}, {p})]"

    def list_attribute(self, name: str, values: list, src: str, p: int, pos):
        """An attribute whose values are lists (of names or numbers), printed per card: walked
        from a table of them all."""
        first, cells, kinds = [], [], set()
        for v in values:
            first.append(len(cells))
            for x in v or []:
                if isinstance(x, str):
                    kinds.add(NAME)
                    cells.append(str(self.slots.name(x)))
                elif isinstance(x, int) and not isinstance(x, bool):
                    kinds.add(NUM)
                    cells.append(str(x))
                else:
                    raise NotNative(pos, f"attribute '{name}', a list of values of this kind")
        first.append(len(cells))
        if len(kinds) > 1:
            raise NotNative(pos, f"attribute '{name}', lists of values of several kinds")
        elem = kinds.pop() if kinds else NUM
        starts = self.table(f"LF_{len(self.tables)}", "int32_t", [str(x) for x in first])
        table = self.table(f"LV_{len(self.tables)}", "int64_t", cells or ["0"])

        def loop(var, body):
            c = self.fresh("c")
            return self.walk(var, body, [f"v_t {c} = rg_some(st, cx, {src}, {p});"], f"{starts}[{c}]",
                             f"{starts}[{c} + 1]", f"{table}[{{i}}]", p)
        return ("list", elem), Members(elem, loop)

    def node_attribute(self, name: str, src: str, p: int, pos):
        values = [self.program.nodes[n].get(name) for n in self.slots.nodes]
        if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            t, cells = NUM, [str(v) for v in values]
        elif all(v is None or (isinstance(v, int) and not isinstance(v, bool)) for v in values) and \
                any(v is not None for v in values):
            # a number only some nodes have: read where the rules read it, on those nodes alone
            cells = ["RG_MISSING" if v is None else str(v) for v in values]
            table = self.table(f"N_{len(self.tables)}", "int64_t", cells)
            return NUM, f"rg_present(st, cx, {table}[rg_some(st, cx, {src}, {p})], {p})"
        elif all(v is None or isinstance(v, str) for v in values):
            t, cells = NAME, [str(self.slots.name(v)) if v is not None else "-1" for v in values]
        else:
            raise NotNative(pos, f"the node attribute '{name}'")
        table = self.table(f"N_{len(self.tables)}", "int64_t", cells or ["0"])
        return t, f"{table}[rg_some(st, cx, {src}, {p})]"

    def e_Index(self, e, sc):
        if isinstance(e.obj, N.Attr) and e.obj.name in self.slots.second:
            return NUM, f"st->counters[{self.pair_slot(e, sc)}]"
        if self.is_data(e.obj) and isinstance(self.program.data[e.obj.name], list):
            return self.index_data_list(e, sc)
        if not (isinstance(e.obj, N.Name) and e.obj.name in ("players", "teams") and e.obj.name not in sc):
            t, src = self.expr(e.obj, sc)
            if static(t):
                return self.index_data(t, e, sc)
            if spanned(t):
                return self.nth(t[1], self.num(e.key, sc), f"{src}_n", f"{src}_v", e.pos)
            if kept(t):
                return t[1], f"rg_kept_at(st, cx, {src}, {self.num(e.key, sc)}, {self.pos(e.pos)})"
            if listed(t) and t[1] in REFS:  # the k-th member of a list walked to it (none past its end)
                k = self.num(e.key, sc)
                def nth(x, out):
                    return [f"if (++i_{out} == k_{out}) {{ r_{out} = {x}; goto {out}; }}"]
                return t[1], self.gathered(src, nth, "r_OUT", f"v_t r_OUT = -1, i_OUT = 0, k_OUT = {k};", label=True)
        if isinstance(e.obj, N.Name) and e.obj.name in ("players", "teams") and e.obj.name not in sc:
            k = self.num(e.key, sc)
            count = "st->n" if e.obj.name == "players" else "st->nteams"
            return (SEAT if e.obj.name == "players" else TEAM), f"rg_nth(st, cx, {k}, {count}, {self.pos(e.pos)})"
        raise NotNative(e.pos, "an index other than players[N] and teams[N]")

    def nth(self, elem: str, k: str, count: str, items: str, pos) -> tuple:
        """(type, C) of the k-th member, from 1, of C array `items` of `count` members of type
        `elem`: none past its end, as the Python backend says (a missing number stops the game
        where it is read, but `!= none` tests its presence: `missing`)."""
        out = "-1" if elem in REFS else "RG_MISSING"
        value = f"({{ v_t k_ = {k}; (k_ >= 1 && k_ <= {count}) ? {items}[k_ - 1] : {out}; }})"
        if elem in REFS:
            return elem, value
        present = f"rg_present(st, cx, {value}, {self.pos(pos)})"
        self.missing[present] = value
        return elem, present

    # operators ---------------------------------------------------------------------------
    def e_Compare(self, e, sc):
        op = e.op
        if op in ("is", "isnot") and not (isinstance(e.right, N.Name) and e.right.name in sc):
            cls = self.class_of(e.right)
            if cls is not None:
                test = self.is_class(self.typed(e.left, COMP, sc), cls, e.pos)
                return BOOL, test if op == "is" else f"(!{test})"
        if op in ("in", "notin"):
            return BOOL, self.contains(e, sc) if op == "in" else f"(!{self.contains(e, sc)})"
        lt, left = self.expr(e.left, sc)
        rt, right = self.expr(e.right, sc)
        if op in ("is", "isnot"):
            op = "==" if op == "is" else "!="
        if HOLDER in (lt, rt) and op in ("==", "!="):
            h, ot, other = (left, rt, right) if lt == HOLDER else (right, lt, left)
            if ot == HOLDER:
                same = f"rg_same_holder({left}, {right})"
            elif ot == NONE:
                same = f"({h} == -1)"
            elif ot in HELD:
                same = f"rg_holder_is({h}, {HELD[ot]}, {other})"
            else:
                same = f"(((void)({h}), (void)({other})), 0)"
            return BOOL, same if op == "==" else f"(!{same})"
        if op in ("<", "<=", ">", ">=") and lt == rt == NUM:
            return BOOL, f"({left} {op} {right})"
        if op in ("==", "!="):
            if NONE in (lt, rt):
                other = rt if lt == NONE else lt
                if other in REFS or other == NONE:
                    return BOOL, f"({left} {op} {right})"
                raw = self.missing.get(right if lt == NONE else left)
                if raw is not None:  # a number of the data, which may be missing
                    return BOOL, f"({raw} {op} RG_MISSING)"
            elif lt == rt and lt in SCALARS:
                return BOOL, f"({left} {op} {right})"
            elif {lt, rt} <= set(SCALARS) and lt != rt and BOOL not in (lt, rt):
                # values of two kinds are never equal (a component is not a player, nor a number)
                return BOOL, f"(((void)({left}), (void)({right})), {int(op == '!=')})"
        raise NotNative(e.pos, f"'{e.op}' between a {said(lt)} and a {said(rt)}")

    def class_of(self, e):
        """The interned class a name on the right of `is` names, as (attribute or None, name), or None."""
        if not isinstance(e, N.Name):
            return None
        if e.name in self.cur.consts:
            kind, value = self.cur.consts[e.name]
            return (None, value) if kind == "class" else None
        klass = self.defn.classes.get(fold(e.name))
        if klass is None:
            return None
        return klass

    def is_class(self, comp: str, klass, pos) -> str:
        attribute, spelling = klass
        key = fold(spelling)
        flags = self.table(f"C_{len(self.tables)}", "int8_t",
                           ["1" if key in k else "0" for k in self.program.comp_classes] or ["0"])
        static = f"({comp} >= 0 && {flags}[{comp}])"
        if key in self.tags:
            return f"({static} || rg_tagged(st, {comp}, {self.tags.index(key)}))"
        return static

    def contains(self, e, sc) -> str:
        packed = self.pair(e.left, sc)
        t, left = (PAIR, packed) if packed is not None else self.expr(e.left, sc)
        rt, right = self.expr(e.right, sc)
        if t == HOLDER and isinstance(rt, tuple) and rt[1] in HELD:  # a holder among players, nodes...: of that kind
            t, left = rt[1], f"rg_holder_as({left}, {HELD[rt[1]]})"
        if rt == ZONE and t in (COMP, NONE):
            return f"rg_in_zone(st, {left}, {right})"
        if rt == ZONE and t == HOLDER:
            return f"rg_in_zone(st, rg_holder_is_comp({left}), {right})"
        if masked(rt) and t in (rt[1], NONE):
            return f"rg_in_mask({left}, {right})"
        if rt == "empty":
            return f"((void)({left}), 0)"
        if (listed(rt) or kept(rt) or spanned(rt)) and t in (rt[1], NONE):
            members = self.members(e.right, sc)
            x, found = self.fresh("x"), self.fresh("found")
            loop = members.loop(x, [f"if ({x} == {found}_v) {{ {found} = 1; goto {found}_out; }}"])
            return "({ __label__ " + f"{found}_out; v_t {found}_v = {left}; int {found} = 0; " + " ".join(loop) + \
                f" {found}_out:; {found}; }})"
        raise NotNative(e.pos, f"'in' of a {said(t)} and a {said(rt)}")

    def e_BinOp(self, e, sc):
        lt, left = self.expr(e.left, sc)
        rt, right = self.expr(e.right, sc)
        if e.op == "+" and (_many(lt) or _many(rt)):
            lm = self.members(e.left, sc) if lt != "empty" else None
            rm = self.members(e.right, sc) if rt != "empty" else None
            elems = {m.elem for m in (lm, rm) if m is not None}
            if len(elems) != 1:
                raise NotNative(e.pos, "a list joined of values of several kinds")
            parts = [m for m in (lm, rm) if m is not None]
            elem = elems.pop()
            return ("list", elem), Members(elem, lambda var, body: [x for m in parts for x in m.loop(var, body)])
        if lt != NUM or rt != NUM:
            raise NotNative(e.pos, f"'{e.op}' of a {said(lt)} and a {said(rt)}")
        p = self.pos(e.pos)
        if e.op in ("+", "-", "*"):
            return NUM, f"({left} {e.op} {right})"
        if e.op == "%":
            return NUM, f"rg_mod_of(st, cx, {left}, {right}, {p})"
        if e.op in ("/", "//"):
            return NUM, f"rg_div(st, cx, {left}, {right}, {p})"
        raise NotNative(e.pos, f"the operator '{e.op}'")

    def e_BoolOp(self, e, sc):
        left = self.test(e.left, sc)
        # a test known when lowered (has() of what is no component, say) is folded, so that a
        # select() on it lowers only the branch it takes: the other may not type
        stops = "0" if e.op == "and" else "1"
        if left == stops:
            return BOOL, stops
        right = self.test(e.right, sc)
        if left in ("0", "1"):
            return BOOL, right
        if right in ("0", "1") and right != stops:
            return BOOL, left
        op = "&&" if e.op == "and" else "||"
        return BOOL, f"({left} {op} {right})"

    def e_Not(self, e, sc):
        test = self.test(e.operand, sc)
        if test in ("0", "1"):
            return BOOL, "1" if test == "0" else "0"
        return BOOL, f"(!{test})"

    def e_Neg(self, e, sc):
        return NUM, f"(-{self.num(e.operand, sc)})"

    # lists -------------------------------------------------------------------------------
    def e_ListLit(self, e, sc):
        if len(e.items) == 1 and isinstance(e.items[0], (N.Each, N.Mapped)):
            return self.expr(e.items[0], sc)  # `[each x in S]` is the list itself
        if not e.items:
            return "empty", "0"
        items = [self.expr(x, sc) for x in e.items]
        types = {t for t, _ in items}
        if len(types) != 1 or not types <= set(SCALARS):
            raise NotNative(e.pos, "a list of values of several types")
        elem = types.pop()
        p = self.pos(e.pos)

        def loop(var, body):
            out = []
            for _, src in items:
                out += ["{", f"    v_t {var} = {src};", f"    rg_work(st, cx, 1, {p});"]
                out += ["    " + b for b in body] + ["}"]
            return out
        return ("list", elem), Members(elem, loop)

    def e_Each(self, e, sc):
        st, _ = self.expr(e.source, sc)
        source = self.members(e.source, sc)
        filtered = self._filtered(source, e.var, e.where, None, sc, e.pos)
        if masked(st):  # players or teams in order, some left out: still a bit mask
            mask = self.gathered(filtered, lambda x, out: [f"m_{out} |= 1LL << {x};"], "m_OUT", "int64_t m_OUT = 0;")
            return st, mask
        return ("list", source.elem), filtered

    def pair(self, e, sc):
        """`[a, b]` of two numbers as one value (a pair), or None when `e` is not one."""
        if isinstance(e, N.ListLit) and len(e.items) == 2 and not isinstance(e.items[0], (N.Each, N.Mapped)):
            a, b = (self.expr(x, sc) for x in e.items)
            if a[0] == NUM and b[0] == NUM:
                return f"rg_pair(st, cx, {a[1]}, {b[1]}, {self.pos(e.pos)})"
        return None

    def e_Mapped(self, e, sc):
        source = self.members(e.source, sc)
        var = self.fresh("m")
        inner = dict(sc)
        inner[e.var] = (source.elem, var)
        t = PAIR if self.pair(e.expr, inner) is not None else self.expr(e.expr, inner)[0]
        if t not in SCALARS:
            raise NotNative(e.pos, f"a list of {said(t)}s")
        return ("list", t), self._filtered(source, e.var, e.where, e.expr, sc, e.pos)

    def _filtered(self, source: Members, name: str, where, mapped, sc, pos) -> Members:
        """The members of `source` bound to `name` that pass `where`, each mapped by `mapped`."""
        elem = source.elem
        if mapped is not None:
            probe = dict(sc)
            probe[name] = (elem, "0")
            elem = PAIR if self.pair(mapped, probe) is not None else self.expr(mapped, probe)[0]

        def loop(var, body):
            x = self.fresh("e")
            inner = dict(sc)
            inner[name] = (source.elem, x)
            lines = list(body)
            if mapped is not None:
                value = self.pair(mapped, inner) or self.expr(mapped, inner)[1]
                lines = [f"v_t {var} = {value};"] + lines
            else:
                lines = [f"v_t {var} = {x};"] + lines
            if where is not None:
                lines = [f"if ({self.test(where, inner)}) {{"] + ["    " + b for b in lines] + ["}"]
            return source.loop(x, lines)
        return Members(elem, loop)

    def walk(self, var: str, body: list, setup: list, start: str, end: str, item: str, p: int) -> list:
        """C that runs `body` with `var` bound to `item` (C with {i} for the index) for each
        index from `start` to before `end`, after `setup`, each step a unit of work."""
        i = self.fresh("i")
        return ["{"] + ["    " + x for x in setup] + \
            [f"    for (int32_t {i} = {start}; {i} < {end}; {i}++) {{", f"        v_t {var} = {item.format(i=i)};",
             f"        rg_work(st, cx, 1, {p});"] + ["        " + b for b in body] + ["    }", "}"]

    def _zone_members(self, z: str, pos) -> Members:
        p = self.pos(pos)

        def loop(var, body):
            snap, n = self.fresh("snap"), self.fresh("n")
            # over the members as they were when the loop began, as the Python backend does
            setup = [f"int32_t {n} = st->zlen[{z}];", f"int32_t {snap}[RG_COMPS];",
                     f"memcpy({snap}, rg_items(st, {z}), sizeof(int32_t) * (size_t){n});"]
            return self.walk(var, body, setup, "0", n, f"{snap}[{{i}}]", p)
        return Members(COMP, loop)

    def _kept_members(self, elem: str, handle: str, pos) -> Members:
        """The members of a kept list, its handle read again at each step (the arena may be
        compacted by what the loop's body keeps)."""
        p = self.pos(pos)

        def loop(var, body):
            i = self.fresh("i")
            return [f"for (int32_t {i} = 0; {i} < RG_LEN({handle}); {i}++) {{",
                    f"    v_t {var} = st->arena[RG_OFF({handle}) + {i}];", f"    rg_work(st, cx, 1, {p});"] + \
                ["    " + b for b in body] + ["}"]
        return Members(elem, loop)

    def _mask_members(self, elem: str, mask: str, pos) -> Members:
        p = self.pos(pos)

        def loop(var, body):
            m = self.fresh("mask")
            return ["{", f"    int64_t {m} = {mask};", f"    for (v_t {var} = 0; {var} < 64; {var}++) {{",
                    f"        if (!({m} >> {var} & 1)) continue;", f"        rg_work(st, cx, 1, {p});"] + \
                ["        " + b for b in body] + ["    }", "}"]
        return Members(elem, loop)

    def buffer_members(self, elem: str, fill: str, pos) -> Members:
        """Members a C function fills a buffer with: `fill` is its call, with BUF for the buffer."""
        p = self.pos(pos)

        def loop(var, body):
            buf, n = self.fresh("buf"), self.fresh("n")
            setup = [f"rg_stack(st, cx, {p});", f"v_t {buf}[RG_LIST];", f"int32_t {n} = {fill.replace('BUF', buf)};"]
            return self.walk(var, body, setup, "0", n, f"{buf}[{{i}}]", p)
        return Members(elem, loop)

    def gathered(self, members: Members, body_of, result: str, init: str, label: bool = False) -> str:
        """A C expression that runs `body_of(x)` over the members (x bound) and gives `result`."""
        x = self.fresh("x")
        out = self.fresh("out")
        head = "({ " + (f"__label__ {out}; " if label else "") + init.replace("OUT", out) + " "
        loop = " ".join(members.loop(x, body_of(x, out)))
        return head + loop + (f" {out}:; " if label else " ") + result.replace("OUT", out) + "; })"


def said(t) -> str:
    """A type as a message says it."""
    if isinstance(t, tuple):
        return f"list of {t[1]}s"
    return t


def _many(t) -> bool:
    """Whether a value of type `t` is a list of some kind (empty, walked, kept or a mask)."""
    return t == "empty" or (isinstance(t, tuple) and t[0] in ("list", "kept", "mask"))
