"""Lists kept by the moves: a game function `[each x in S where C]` answered member by member.

Rules ask some questions after nearly every move: which spaces of the board are still free,
which have room for one more piece. A pure function keeps its answer while nothing it
reads changes (compile.expressions), but a move into any space changes "the spaces' zones",
so the whole list was computed again each time, every member tested though one changed.

When the condition C reads of the state only zones and counters of the member itself
(`s.pieces`, `s.marks[p]`) besides things that rarely change (Analysis.element_wise), the
function keeps, per arguments, the members of S and whether each passes C. The state marks
the owner of every zone or counter of those kinds that changes (engine.state, `watch`), and
the next call tests C again for that owner's members alone; a change of anything else it
reads (the stamp, as for any kept result) makes it start again from S.

The plain computation stays the reference: `ENABLED = False` compiles every function as
before, and a test compares the two over random games of every shipped game.
"""
from __future__ import annotations

ENABLED = True  # False: every game function computed as a whole (the plain path a test compares with)
MAX_ENTRIES = 256  # arguments a function keeps lists for at once in one state; past that it starts over


def kept_lines(name: str, ew, sig: str, params: list, plain: str, source: str, cond: str, pos: str,
               v: str) -> list[str]:
    """The Python source of game function `name` kept member by member (`ew`, its
    Analysis.element_wise): `sig` its signature, `params` the identifiers of its parameters,
    `plain` the source of its whole body (for arguments that are no key), `source` of S and
    `cond` of C, in which identifier `v` names the member; `pos` the constant of S's place."""
    stamp = " + ".join(sorted(ew.reads)) or "0"
    # each argument with its type, as the keys of kept results (compile.expressions)
    args = f"({', '.join(f'{x}, type({x})' for x in params)},)" if params else "()"
    return [
        f"def fn({sig}):",
        f"    d = st.kept.get({name!r})",
        "    if d is None:",
        f"        d = st.kept[{name!r}] = {{}}",
        f"    s = {stamp}",
        *(["    try:",
           f"        e = d.get({args})",
           "    except TypeError:",
           f"        return {plain}"]  # an argument that is no key (a list): computed, not kept
          if params else [f"    e = d.get({args})"]),
        "    if e is None or e[0] != s:",
        f"        if len(d) >= {MAX_ENTRIES}:",
        "            d.clear()",
        f"        src = tuple(R_it(st, {source}, {pos}))",
        # the owners' indexes are made when a change first needs them, and kept while the
        # members stay the same
        "        at = e[5] if e is not None and e[1] == src else None",
        f"        e = d[{args}] = [s, src, [{cond} for {v} in src], None, set(), at]",
        "    elif e[4]:",
        "        src, flags, at = e[1], e[2], e[5]",
        "        if at is None:",
        "            at = e[5] = R_owners(src)",
        "        for o in e[4]:",
        "            for i in at.get(o, ()):",
        f"                {v} = src[i]",
        f"                flags[i] = {cond}",
        "        e[4].clear()",
        "        e[3] = None",
        "    r = e[3]",
        "    if r is None:",
        "        r = e[3] = tuple([x for x, ok in zip(e[1], e[2]) if ok])",
        "    return r",
    ]


def watch(program, name: str, ew) -> None:
    """Tell the program that game function `name` keeps lists by the zones and counters of
    `ew.owned`: the state marks their owners for it when they change. The tables are changed
    in place, never replaced: the copies of a program (compile.kept) share them, as they share
    the compiled functions, and a function compiled after a load (for a rules test) is seen by
    every copy."""
    for kind, index in ew.owned:
        table = program.watch_zones if kind == "zone" else program.watch_counters
        if name not in table[index]:
            table[index] = (*table[index], name)
