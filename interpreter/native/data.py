"""The native backend's data: the game's named constants (`data:`), lowered where they are read.

A value of the data is known when the rules are lowered, so most of it never reaches the C:
`data.ranks` is a table of names, `data.tiers["low"]["bonus"]` the number 2. An index known
only in play picks among the values at every key: `data.next_of[n.number]` is a chain of
tests of the key, `data.tiers[options.tier]["names"]` a row of one table. So every key's
value must be of one kind (numbers, truth values, names, or lists of one of those); a table of
tables indexed in play is kept for the next index (`("keyed", k)`), which must be known when
lowered. A parameter a call gives a literal (`tier("names")`) is known when lowered: the
function is lowered for that literal (calls.Calls.game_function).

As the Python backend reads data (`engine.library.index`): a list from 1, a table by its key
or by the key's text (`next_of["1"]` for the number 1), and none for what is not there. A
missing number is none: `data.next_of[n] != none` tests its presence, and a number read where
it is missing stops the game, as in Python.
"""
from __future__ import annotations

from .. import limits
from ..language import nodes as N
from .expressions import BOOL, KEYED, NAME, NONE, NUM, REFS, STATIC, Members, said
from .slots import NotNative

_UNKNOWN = object()  # an index known only in play


class Data:
    """The lowering of the game's data; mixed into the Emitter (`statics`, `keyed` and
    `missing` are its tables: tables known when lowered, tables picked in play, and the C of
    each number read from the data with the C of the same read that may be missing)."""

    def is_data(self, e) -> bool:
        """Whether `e` is `data.NAME`, one of the game's named constants."""
        return isinstance(e, N.Attr) and isinstance(e.obj, N.Name) and e.obj.name == "data" and \
            "data" not in self.cur.slots and e.name in self.program.data

    def data_value(self, v, pos, what: str = "data") -> tuple:
        """(type, C) of a value of the data."""
        if v is None:
            return NONE, "-1"
        if isinstance(v, bool):
            return BOOL, str(int(v))
        if isinstance(v, int):
            if not -limits.MAX_NUMBER <= v <= limits.MAX_NUMBER:
                raise NotNative(pos, f"the number {v} in {what}")
            return NUM, f"{v}LL"
        if isinstance(v, str):
            return NAME, str(self.slots.name(v))
        if isinstance(v, list):
            cells = [self.data_value(x, pos, what) for x in v]
            kinds = {t for t, _ in cells}
            if len(kinds) > 1 or not kinds <= {BOOL, NUM, NAME}:
                raise NotNative(pos, f"{what}, a list of values of several kinds")
            elem = kinds.pop() if kinds else NUM
            return ("list", elem), self.constant_members(elem, [c.removesuffix("LL") for _, c in cells], pos)
        if isinstance(v, dict):
            self.statics.append(v)
            return (STATIC, len(self.statics) - 1), "0"
        raise NotNative(pos, f"{what}, a value of this kind")

    def literal(self, e, sc):
        """The value of index `e` when it is known when lowered (a literal, or a parameter a
        call gave one), else _UNKNOWN; and its (type, C)."""
        t, src = self.expr(e, sc)
        if t == NAME and src.isdigit():
            return self.slots.names[int(src)], (t, src)
        if t == NUM and src.endswith("LL") and src[:-2].lstrip("-").isdigit():
            return int(src[:-2]), (t, src)
        return _UNKNOWN, (t, src)

    def index_data(self, t, e, sc) -> tuple:
        """(type, C) of `o[k]` where `o` is a table of the data (type `t`)."""
        key, (kt, ks) = self.literal(e.key, sc)
        if t[0] == STATIC:
            table = self.statics[t[1]]
            if key is not _UNKNOWN:
                return self.data_value(_at(table, key), e.pos)
            if kt not in (NAME, NUM):
                raise NotNative(e.pos, f"an index of the data by a {said(kt)}")
            rows = [(_key_c(self, k, kt), v) for k, v in table.items()]
            return self.picked([(k, v) for k, v in rows if k is not None], ks, e.pos)
        rows, at = self.keyed[t[1]]
        if key is _UNKNOWN:
            raise NotNative(e.pos, "a table of the data indexed in play twice")
        return self.picked([(k, _at(v, key)) for k, v in rows], at, e.pos)

    def index_data_list(self, e, sc) -> tuple:
        """(type, C) of `data.NAME[k]`, a list of the data."""
        items = self.program.data[e.obj.name]
        key, _ = self.literal(e.key, sc)
        if key is not _UNKNOWN:
            return self.data_value(_at(items, key), e.pos)
        elem = self.data_value(items, e.pos, f"data.{e.obj.name}")[0][1]
        values = [self.data_value(v, e.pos)[1].removesuffix("LL") for v in items]
        table = self.table(f"D_{len(self.tables)}", "int64_t", values or ["0"])
        return self.nth(elem, self.num(e.key, sc), str(len(values)), table, e.pos)

    def picked(self, rows: list, at: str, pos) -> tuple:
        """(type, C) of the value of the row whose key (C) `at` is, among `rows` (C of the key,
        value); none when none is."""
        kinds = {self.data_value(v, pos)[0] if not isinstance(v, dict) else STATIC for _, v in rows} - {NONE}
        if len(kinds) > 1:
            raise NotNative(pos, "a table of the data whose values are of several kinds, indexed in play")
        kind = kinds.pop() if kinds else NONE
        if kind == STATIC:
            self.keyed.append((rows, at))
            return (KEYED, len(self.keyed) - 1), "0"
        if kind == NONE:
            return NONE, "-1"
        if kind in (NUM, BOOL, NAME):
            missing = "-1" if kind in REFS else "RG_MISSING"
            chain = " : ".join(f"k_ == {k} ? {self.data_value(v, pos)[1] if v is not None else missing}"
                               for k, v in rows)
            raw = f"({{ v_t k_ = {at}; {chain + ' : ' if rows else ''}{missing}; }})"
            if kind in REFS:
                return kind, raw
            present = f"rg_present(st, cx, {raw}, {self.pos(pos)})"
            self.missing[present] = raw  # `!= none` tests the raw read
            return kind, present
        return self._picked_list(kind[1], rows, at, pos)

    def _picked_list(self, elem: str, rows: list, at: str, pos) -> tuple:
        """The members of the list of the row whose key `at` is (none: no member)."""
        cells, first = [], [0]
        for _, v in rows:
            cells += [self.data_value(x, pos)[1].removesuffix("LL") for x in (v or [])]
            first.append(len(cells))
        values = self.table(f"DV_{len(self.tables)}", "int64_t", cells or ["0"])
        starts = self.table(f"DF_{len(self.tables)}", "int32_t", [str(f) for f in first])
        chain = " : ".join(f"k_ == {k} ? {i}" for i, (k, _) in enumerate(rows))
        row = f"({{ v_t k_ = {at}; {chain + ' : ' if rows else ''}-1; }})"
        p = self.pos(pos)

        def loop(var, body):
            r = self.fresh("row")
            setup = [f"int32_t {r} = (int32_t){row};"]
            return self.walk(var, body, setup, f"({r} < 0 ? 0 : {starts}[{r}])", f"({r} < 0 ? 0 : {starts}[{r} + 1])",
                             f"{values}[{{i}}]", p)
        return ("list", elem), Members(elem, loop)


def _at(table, key):
    """`table[key]` as the Python backend reads the data."""
    if isinstance(table, list):
        return table[key - 1] if isinstance(key, int) and not isinstance(key, bool) and 1 <= key <= len(table) \
            else None
    if isinstance(table, dict):
        return table.get(key, table.get(str(key)))
    return None


def _key_c(em, key, kt) -> str | None:
    """The C a key of a table is tested by, against an index of type `kt` (None: it never matches)."""
    if kt == NAME:
        return str(em.slots.name(str(key))) if isinstance(key, str) else None
    try:  # a number matches the key that is its text
        return f"{int(str(key))}LL" if str(int(str(key))) == str(key) else None
    except ValueError:
        return None
