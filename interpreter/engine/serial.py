"""Saving a game state to JSON and restoring it.

Values are tagged by kind ({"c": 3} a component, {"p": 0} a player...), and
code is named, so a restored state resumes exactly where it was, mid-turn.
A saved state carries the fingerprint of the game's content and of the
engine (`fingerprint`); it is checked whole (`saved.check_state`) before
anything of it is restored, and a `SaveError` says what is wrong.

`state_from_json` restores a checked state as it is written: what a copy of
trusted origin needs. A save from a file is consistent only if its history
leads to it: `Game.state_from_json` checks that too (`history.play_again`).
"""
from __future__ import annotations

from ..diagnostics import Position
from .fingerprint import fingerprint
from .program import LayerKind
from .saved import FORMAT, check_state, layout
from .savefile import Checker
from .state import OPTION_KINDS, Decision, DecisionKind, Frame
from .values import Comp, CounterMap, NodeRef, Rng, Seat, Team, ZoneRef


def enc(v):
    t = type(v)
    if t is Comp:
        return {"c": int(v)}
    if t is Seat:
        return {"p": int(v)}
    if t is Team:
        return {"t": int(v)}
    if t is NodeRef:
        return {"n": str(v)}
    if t is ZoneRef:
        return {"z": str(v)}
    if t is CounterMap:
        return {"m": [v.name, enc(v.first)]}
    if t is tuple:
        return {"tuple": [enc(x) for x in v]}
    if t is list:
        return [enc(x) for x in v]
    if t is dict:
        return {"dict": [[k, enc(x)] for k, x in v.items()]}
    return v


def dec(program, v):
    if isinstance(v, list):
        return [dec(program, x) for x in v]
    if isinstance(v, dict):
        if "c" in v:
            return program.comps[v["c"]]
        if "p" in v:
            return Seat(v["p"])
        if "t" in v:
            return Team(v["t"])
        if "n" in v:
            return NodeRef(v["n"])
        if "z" in v:
            return ZoneRef(v["z"])
        if "m" in v:
            return CounterMap(v["m"][0], dec(program, v["m"][1]))
        if "tuple" in v:
            return tuple(dec(program, x) for x in v["tuple"])
        if "dict" in v:
            return {k: dec(program, x) for k, x in v["dict"]}
    return v


def laid(program) -> dict:
    """The expansions, scenario and mods laid over a program's game, the cards left out of it and
    the values set in it, as saves and traces record them: enough to lay them again (mods by
    absolute path)."""
    layers = program.layers
    scenario = [x.id for x in layers if x.kind is LayerKind.SCENARIO]
    out = {"expansions": [x.id for x in layers if x.kind is LayerKind.EXPANSION], "scenario": scenario[0] if scenario else None,
           "mods": [x.root for x in layers if x.kind is LayerKind.MOD]}
    if program.without:  # the cards left out of the game, recorded only then
        out["without"] = list(program.without)
    if program.settings:  # cards' attributes set at load ([card, attribute, value] each), only then
        out["set"] = [list(x) for x in program.settings]
    return out


def is_laid(program) -> bool:
    """Whether anything is laid over, left out of or set in a program's game (`laid` is then
    recorded)."""
    return bool(program.layers or program.without or program.settings)


def read_laid(v) -> dict:
    """`laid` as read from a file: a SaveError naming the field when it is not of its shape."""
    c = Checker()
    c.obj(v, ("layers",), ("expansions", "scenario", "mods"), ("without", "set"))
    for key in ("expansions", "mods", "without"):
        if key not in v:
            continue
        if not isinstance(v[key], list) or not all(isinstance(x, str) for x in v[key]):
            c.fail(("layers", key), "must be a list of texts")
    if "set" in v and not (isinstance(v["set"], list) and all(
            isinstance(x, list) and len(x) == 3 and isinstance(x[0], str) and isinstance(x[1], str)
            and isinstance(x[2], (str, int, bool)) for x in v["set"])):
        c.fail(("layers", "set"), "must be a list of [card, attribute, value]")
    if v["scenario"] is not None and not isinstance(v["scenario"], str):
        c.fail(("layers", "scenario"), "must be a text or null")
    return v


def state_to_json(st) -> dict:
    frames = []
    for f in st.frames:
        frames.append({"code": f.code.name, "layout": layout(f.code), "pc": f.pc,
                       "env": {k: enc(v) for k, v in f.env.items()}, "me": enc(f.me), "you": enc(f.you)})
    pending = None
    if st.pending is not None:
        d = st.pending
        pending = {"player": int(d.player), "prompt": d.prompt, "labels": list(d.labels_for(st)),
                   "entries": [enc([e.kind.value, *e]) for e in d.entries], "kind": d.kind.value,
                   "at": [d.pos.path, d.pos.line, d.pos.column] if d.pos else None}
    return {
        "format": FORMAT, "game": st.program.id, "fingerprint": dict(fingerprint(st.program)),
        "players": st.n, "seed": st.seed, "options": dict(st.options),
        "powers": {str(seat): card for seat, card in st.powers.items()},
        "zones": {k: [int(c) for c in v] for k, v in st.zones.items()},
        "counters": dict(st.counters),
        "attributes": [[int(c), n, enc(v)] for (c, n), v in st.over.items()],
        "tags": {str(int(c)): list(t) for c, t in st.tags.items()},
        "tapped": sorted(int(c) for c in st.tapped),
        "used": sorted(st.used),
        "rng": st.rng.state,
        "frames": frames,
        "pending": pending,
        "winners": list(st.winners) if st.winners is not None else None,
        "history": list(st.history),
        "ops": st.ops,
        "credit": [[int(c), key, v] for (c, key), v in st.credit.items()],
        **({"layers": laid(st.program)} if is_laid(st.program) else {}),
    }


def state_from_json(program, data: dict, new_state):
    """The state saved as `data`, of compiled game `program`, made by `new_state(program, players,
    seed, options)`, as it is written: a SaveError, naming the field at fault, when `data` is
    no well-formed saved state of this game under this version of regles (whether its history
    leads to it is not checked here: see `history.play_again`)."""
    check_state(program, data)
    st = new_state(program, data["players"], data["seed"], dict(data["options"]))
    st.powers = {int(seat): card for seat, card in data["powers"].items()}
    comps = program.comps
    for key, listed in data["zones"].items():
        st.zones[key] = [comps[c] for c in listed]
        for c in listed:
            st.where[c] = ZoneRef(key)
    st.counters = dict(data["counters"])
    st.over = {(comps[c], n): dec(program, v) for c, n, v in data["attributes"]}
    st.tags = {comps[int(c)]: tuple(t) for c, t in data["tags"].items()}
    st.tapped = {comps[c] for c in data["tapped"]}
    st.used = set(data["used"])
    st.rng = Rng(data["rng"])
    st.frames = [Frame(program.codes[f["code"]], f["pc"], {k: dec(program, v) for k, v in f["env"].items()},
                       dec(program, f["me"]), dec(program, f["you"])) for f in data["frames"]]
    p = data["pending"]
    if p is not None:
        at = p["at"]
        pos = Position(at[0], at[1], at[2]) if at else None
        entries = [OPTION_KINDS[e[0]](*dec(program, e[1:])) for e in p["entries"]]
        d = Decision(Seat(p["player"]), p["prompt"], list(p["labels"]), entries, DecisionKind(p["kind"]), pos)
        if d.kind is DecisionKind.MENU:
            top = st.frames[-1]
            d.spec = top.code.menus[top.pc - 1]  # the menu operation that asked it
        st.pending = d
    st.winners = tuple(data["winners"]) if data["winners"] is not None else None
    st.history = list(data["history"])
    st.ops = data["ops"]
    st.credit = {(comps[c], key): v for c, key, v in data["credit"]}
    return st

