"""What a saved state must be before it is restored: every field checked.

A saved state comes from a file, and a file may be corrupt, truncated, edited
by hand or saved under other rules. `check_state(program, data)` reads the
whole of it before anything is restored and raises `SaveError`, naming the
field (`frames[2].pc`) and what is wrong with it, at the first problem:

- the form: the right version of it (`format`), the game (`game`), and the
  fingerprint of the game's content and of the engine it was saved under
  (see `fingerprint`): a state of other rules is refused as a whole;
- the type of every field, and no field missing or unknown;
- seats within the number of players, teams within the teams, components
  within the game's, nodes of its board, zone and counter keys of declared
  zones and counters with owners of their scope;
- each component in at most one zone, those placed at the start in exactly
  one, no zone over its capacity; counters whole numbers within their floor
  and ceiling, supplies not negative; tags classes of the game;
- frames: named code of the game with the layout it was saved with, a
  position within it, locals that are values of the game;
- the pending decision: a seat, options of the kinds its kind offers, one
  label per option, a menu's options among the menu's; no decision pending
  exactly when the game is over;
- the powers given at the start: seats of the game, card ids as texts.

A state that passes is well formed, not yet consistent: whether it is the
state its own history leads to is `history.play_again`'s to check, after.
"""
from __future__ import annotations

import hashlib
import math

from ..names import fold
from ..scopes import OwnerKind, owner_kind
from . import keys
from .fingerprint import fingerprint
from .machine import MAX_DEPTH as MAX_FRAMES
from ..kinds import kind_of
from .savefile import Checker, SaveError, is_int, shown
from .state import OPTION_KINDS

FORMAT = 4  # 2: frames name the layout of their code; 3: the fingerprint of the content and engine;
# 4: the powers given at the start, so that the state can be played again from it
MAX_NESTING = 64  # values nested deeper are no values of a game


def layout(code) -> str:
    """A short digest of how `code` is laid out (its operations and their places): a frame
    resumes at a position in it, which means nothing in code compiled differently."""
    text = f"{len(code.ops)}|" + "|".join(f"{p.line}:{p.column}" if p is not None else "-" for p in code.pos)
    return hashlib.sha1(text.encode()).hexdigest()[:12]


class StateCheck(Checker):
    """The checks of one saved state of the game of `program`."""

    def __init__(self, program):
        self.program = program
        self.n = 0
        self.n_comps = len(program.comps)
        self.n_teams = 0
        self.tag_names = {fold(printed) for printed in program.classes}  # as `tag` writes them

    # the whole state -------------------------------------------------------------
    def check(self, data) -> None:
        program = self.program
        if not isinstance(data, dict):
            self.fail((), f"not a saved state: {kind_of(data)}, not a mapping")
        if "format" not in data:
            self.fail(("format",), "is missing: not a saved state of regles")
        if not is_int(data["format"]) or data["format"] != FORMAT:
            self.fail(("format",), f"is {shown(data['format'])}: this version of regles reads saved states of "
                                   f"format {FORMAT} only")
        if data.get("game") != program.id:
            self.text(data.get("game"), ("game",))
            self.fail(("game",), f"is {shown(data['game'])}: this is not a state of {program.id}")
        self.obj(data, (), ("format", "game", "fingerprint", "players", "seed", "options", "powers", "zones",
                            "counters", "attributes", "tags", "tapped", "used", "rng", "frames", "pending",
                            "winners", "history", "ops", "credit"), ("layers",))
        self.fingerprint(data["fingerprint"])
        self.n = self.integer(data["players"], ("players",), program.min_players, program.max_players,
                              f" (players of {program.id})")
        self.n_teams = len(program.teams_for(self.n))
        self.integer(data["seed"], ("seed",), None, None)
        self.options(data["options"])
        self.powers(data["powers"])
        self.integer(data["rng"], ("rng",), 0, (1 << 64) - 1)
        self.zones(data["zones"])
        self.counters(data["counters"])
        self.attributes(data["attributes"])
        self.tags(data["tags"])
        self.comp_set(data["tapped"], ("tapped",))
        self.used(data["used"])
        self.frames(data["frames"])
        self.pending(data["pending"], data["frames"])
        self.winners(data["winners"], data["pending"])
        for i, a in enumerate(self.array(data["history"], ("history",))):
            self.integer(a, ("history", i), 0, None, " (an option's number)")
        self.integer(data["ops"], ("ops",), 0)
        self.credit(data["credit"])

    def fingerprint(self, v) -> None:
        fp = self.obj(v, ("fingerprint",), ("content", "engine"))
        mine = fingerprint(self.program)
        for part in ("content", "engine"):
            self.text(fp[part], ("fingerprint", part))
        if fp["content"] != mine["content"]:
            self.fail(("fingerprint", "content"), f"this state was saved under other rules of {self.program.id} "
                                                  f"(its files have changed since): it cannot be restored")
        if fp["engine"] != mine["engine"]:
            self.fail(("fingerprint", "engine"), "this state was saved by another version of regles: "
                                                 "it cannot be restored")

    def options(self, v) -> None:
        given = self.obj(v, ("options",), tuple(self.program.options))
        for name, value in given.items():
            o = self.program.options[name]
            path = ("options", name)
            if not (value is None or isinstance(value, (bool, int, str)) or
                    isinstance(value, float) and math.isfinite(value)):
                self.fail(path, f"must be a text, a number or true or false, not {kind_of(value)}")
            if o.values is not None and not any(isinstance(value, bool) == isinstance(x, bool) and value == x
                                                for x in o.values):
                self.fail(path, f"is {shown(value)}: it must be one of {', '.join(map(repr, o.values))}")

    def powers(self, v) -> None:
        """Seats (from 1, as texts) and the card id of the power each was given: which cards
        are powers is for the game to say when the state is played again (`history`)."""
        for seat, card in self.mapping(v, ("powers",)).items():
            path = ("powers", seat)
            if not (seat.isdigit() and seat == str(int(seat)) and 1 <= int(seat) <= self.n):
                self.fail(path, f"{shown(seat)} is not a seat from 1 to {self.n}")
            self.text(card, path)

    # places and keys ----------------------------------------------------------------
    def comp(self, v, path) -> int:
        return self.integer(v, path, 0, self.n_comps - 1, " (a component's number)")

    def owner(self, raw: str, scope: str, path, key: str) -> None:
        """That `raw`, the owner part of `key`, names an owner of `scope`."""
        kind = owner_kind(scope)
        if kind is OwnerKind.PLAYER:
            ok = raw.isdigit() and raw == str(int(raw)) and int(raw) < self.n
            what = f"a seat from 0 to {self.n - 1}"
        elif kind is OwnerKind.TEAM:
            ok = keys.is_team_owner(raw) and raw == keys.team_owner(keys.team_of_owner(raw)) \
                and keys.team_of_owner(raw) < self.n_teams
            what = f"a team from t0 to t{self.n_teams - 1}"
        elif kind is OwnerKind.NODE:
            ok = raw in self.program.nodes
            what = "a node of the board"
        else:  # a kind of component
            ok = raw.isdigit() and raw == str(int(raw)) and int(raw) < self.n_comps
            what = "a component's number"
        if not ok:
            self.fail(path, f"{shown(key)} is kept per {scope}, but {shown(raw)} is not {what}")

    def keyed(self, key, table, what: str, path):
        """The definition (zone or counter, from `table`) key `key` is of, its owners checked."""
        if not isinstance(key, str):
            self.fail(path, f"a {what} key must be a text, not {kind_of(key)}")
        d = table.get(keys.name_of(key))
        if d is None:
            self.fail(path, f"{shown(key)} is no {what} of {self.program.id}")
        owners = keys.owners_of(key)
        scope = () if d.scope.is_game else d.scope.words
        if len(owners) != len(scope):
            self.fail(path, f"{shown(key)}: {what} {d.name} is kept "
                            + ("once for the game" if not scope else "per " + " and ".join(scope)))
        for raw, word in zip(owners, scope):
            self.owner(raw, word, path, key)
        return d

    def zone_key(self, key, path):
        return self.keyed(key, self.program.zones, "zone", path)

    def counter_key(self, key, path):
        if isinstance(key, str) and keys.is_supply(key):
            cdef = self.program.counters.get(keys.supply_of(key))
            if cdef is None or cdef.supply is None:
                self.fail(path, f"{shown(key)} is the supply of no counter of {self.program.id}")
            return None
        return self.keyed(key, self.program.counters, "counter", path)

    def zones(self, v) -> None:
        program = self.program
        where: dict = {}
        for key, comps in self.mapping(v, ("zones",)).items():
            path = ("zones", key)
            zdef = self.zone_key(key, path)
            for i, c in enumerate(self.array(comps, path)):
                self.comp(c, path + (i,))
                if c in where:
                    self.fail(path + (i,), f"component {c} ({program.comp_card[c].id}) is in two places: "
                                           + ("this zone twice" if where[c] == key else f"zones {where[c]} and {key}"))
                where[c] = key
            if zdef.capacity is not None and len(comps) > zdef.capacity:
                self.fail(path, f"holds {len(comps)} components: zone {zdef.name} holds {zdef.capacity} at most")
        for c, start in enumerate(program.comp_start):
            owner = program.comp_owner[c]
            if start is not None and (owner is None or owner < self.n) and c not in where:
                self.fail(("zones",), f"component {c} ({program.comp_card[c].id}) is in no zone")

    def counters(self, v) -> None:
        for key, value in self.mapping(v, ("counters",)).items():
            path = ("counters", key)
            cdef = self.counter_key(key, path)
            self.integer(value, path)
            if cdef is None:
                if value < 0:
                    self.fail(path, f"is {value}: a supply is never negative")
                continue
            if cdef.minimum is not None and value < cdef.minimum:
                self.fail(path, f"is {value}, below the floor of {cdef.name} ({cdef.minimum})")
            if cdef.maximum is not None and value > cdef.maximum:
                self.fail(path, f"is {value}, above the ceiling of {cdef.name} ({cdef.maximum})")

    def attributes(self, v) -> None:
        seen = set()
        for i, item in enumerate(self.array(v, ("attributes",))):
            path = ("attributes", i)
            if not isinstance(item, list) or len(item) != 3:
                self.fail(path, f"must be [component, attribute, value], not {kind_of(item)}"
                                + (f" of {len(item)}" if isinstance(item, list) else ""))
            c = self.comp(item[0], path + (0,))
            name = self.text(item[1], path + (1,))
            if name not in self.program.comp_attrs:
                self.fail(path + (1,), f"{shown(name)} is no attribute of {self.program.id}")
            if (c, name) in seen:
                self.fail(path, f"attribute {name} of component {c} is set twice")
            seen.add((c, name))
            self.value(item[2], path + (2,))

    def tags(self, v) -> None:
        for key, tags in self.mapping(v, ("tags",)).items():
            path = ("tags", key)
            if not (key.isdigit() and key == str(int(key)) and int(key) < self.n_comps):
                self.fail(path, f"{shown(key)} is not a component's number")
            if not self.array(tags, path):
                self.fail(path, "a component without tags has no entry")
            for i, t in enumerate(tags):
                if self.text(t, path + (i,)) not in self.tag_names:
                    self.fail(path + (i,), f"{shown(t)} is no class of {self.program.id} (tags are classes)")
            if len(set(tags)) != len(tags):
                self.fail(path, "holds a tag twice")

    def comp_set(self, v, path) -> None:
        for i, c in enumerate(self.array(v, path)):
            self.comp(c, path + (i,))
        if len(set(v)) != len(v):
            self.fail(path, "holds a component twice")

    def used(self, v) -> None:
        for i, mark in enumerate(self.array(v, ("used",))):
            path = ("used", i)
            parts = self.text(mark, path).split(keys.USED)
            ok = len(parts) == 3 and parts[0] in self.program.events and parts[1].isdigit() and parts[2].isdigit() \
                and int(parts[1]) < self.n_comps and int(parts[2]) < len(self.program.comp_actions[int(parts[1])])
            if not ok:
                self.fail(path, f"{shown(mark)} is not EVENT|COMPONENT|ACTION of an action of the game")

    def credit(self, v) -> None:
        for i, item in enumerate(self.array(v, ("credit",))):
            path = ("credit", i)
            if not isinstance(item, list) or len(item) != 3:
                self.fail(path, f"must be [component, counter key, points], not {kind_of(item)}")
            self.comp(item[0], path + (0,))
            if self.counter_key(item[1], path + (1,)) is None:
                self.fail(path + (1,), "points are credited to a counter, not a supply")
            self.integer(item[2], path + (2,))

    # values ---------------------------------------------------------------------------
    def value(self, v, path, depth: int = 0) -> None:
        """That `v` is a value of the game as the saved form writes it (see serial.enc)."""
        if depth > MAX_NESTING:
            self.fail(path, f"nests values deeper than {MAX_NESTING}")
        if v is None or isinstance(v, (bool, str)):
            return
        if isinstance(v, int):
            self.integer(v, path)
            return
        if isinstance(v, float):
            if not math.isfinite(v):
                self.fail(path, "must be a finite number")
            return
        if isinstance(v, list):
            for i, x in enumerate(v):
                self.value(x, path + (i,), depth + 1)
            return
        if not isinstance(v, dict):
            self.fail(path, f"is no value of a game: {kind_of(v)}")
        if len(v) != 1:
            self.fail(path, "an object value has exactly one of the fields c, p, t, n, z, m, tuple, dict, "
                            f"not {', '.join(map(str, v)) or 'none'}")
        (tag, x), = v.items()
        path = path + (tag,)
        if tag == "c":
            self.comp(x, path)
        elif tag == "p":
            self.integer(x, path, 0, self.n - 1, " (a seat)")
        elif tag == "t":
            self.integer(x, path, 0, self.n_teams - 1, " (a team)")
        elif tag == "n":
            if self.text(x, path) not in self.program.nodes:
                self.fail(path, f"{shown(x)} is no node of the board")
        elif tag == "z":
            self.zone_key(x, path)
        elif tag == "m":
            if not isinstance(x, list) or len(x) != 2:
                self.fail(path, "must be [counter, owner]")
            cdef = self.program.counters.get(self.text(x[0], path + (0,)))
            if cdef is None or not cdef.scope.is_pair:
                self.fail(path + (0,), f"{shown(x[0])} is no counter kept per pair of owners")
            self.value(x[1], path + (1,), depth + 1)
        elif tag == "tuple":
            for i, y in enumerate(self.array(x, path)):
                self.value(y, path + (i,), depth + 1)
        elif tag == "dict":
            for i, pair in enumerate(self.array(x, path)):
                if not isinstance(pair, list) or len(pair) != 2:
                    self.fail(path + (i,), "must be [key, value]")
                self.text(pair[0], path + (i, 0))
                self.value(pair[1], path + (i, 1), depth + 1)
        else:
            self.fail(path, "is no kind of value (c, p, t, n, z, m, tuple or dict)")

    def tagged(self, v, tag: str, path, what: str) -> None:
        """That `v` is a value of kind `tag` ({"c": 3}) or null."""
        if v is None:
            return
        if not (isinstance(v, dict) and len(v) == 1 and tag in v):
            self.fail(path, f"must be {what} ({{\"{tag}\": ...}}) or null, not {kind_of(v)}")
        self.value(v, path)

    # the machine ----------------------------------------------------------------------
    def frames(self, v) -> None:
        frames = self.array(v, ("frames",))
        if len(frames) > MAX_FRAMES:
            self.fail(("frames",), f"{len(frames)} procedures running at once: more than regles runs "
                                    f"({MAX_FRAMES})")
        for i, f in enumerate(frames):
            path = ("frames", i)
            self.obj(f, path, ("code", "layout", "pc", "env", "me", "you"))
            name = self.text(f["code"], path + ("code",))
            code = self.program.codes.get(name)
            if code is None:
                self.fail(path + ("code",), f"{shown(name)} is no procedure or ability of {self.program.id}")
            if f["layout"] != layout(code):
                self.text(f["layout"], path + ("layout",))
                self.fail(path + ("layout",), f"{name} was compiled differently when this state was saved: "
                                              f"it cannot resume in the middle of it")
            self.integer(f["pc"], path + ("pc",), 0, len(code.ops), f" (a position in {name})")
            env = self.mapping(f["env"], path + ("env",))
            for k, x in env.items():
                self.value(x, path + ("env", k))
            self.tagged(f["me"], "c", path + ("me",), "a component")
            self.tagged(f["you"], "p", path + ("you",), "a player")

    def pending(self, p, frames) -> None:
        path = ("pending",)
        if p is None:
            if frames:
                self.fail(path, "is null, but procedures are still running: the game waits for a decision")
            return
        if not frames:
            self.fail(path, "a decision is pending, but no procedure is running to take it")
        self.obj(p, path, ("player", "prompt", "labels", "entries", "kind", "at"))
        self.integer(p["player"], path + ("player",), 0, self.n - 1, " (a seat)")
        self.text(p["prompt"], path + ("prompt",))
        kind = self.text(p["kind"], path + ("kind",))
        allowed = {"choose": ("v",), "menu": ("opt", "act"), "ask": ("yes", "no")}.get(kind)
        if allowed is None:
            self.fail(path + ("kind",), f"{shown(kind)} is no kind of decision (choose, menu, ask)")
        entries = self.array(p["entries"], path + ("entries",))
        if not entries:
            self.fail(path + ("entries",), "a decision has at least one option")
        labels = self.array(p["labels"], path + ("labels",))
        for i, label in enumerate(labels):
            self.text(label, path + ("labels", i))
        if len(labels) != len(entries):
            self.fail(path + ("labels",), f"{len(labels)} labels for {len(entries)} options")
        top = frames[-1]
        menu = self.program.codes[top["code"]].menus.get(top["pc"] - 1) if kind == "menu" else None
        if kind == "menu" and menu is None:
            self.fail(path + ("kind",), f"a menu is pending, but {top['code']} asks none there")
        for i, e in enumerate(entries):
            self.entry(e, allowed, menu, path + ("entries", i))
        if kind == "ask" and [e[0] for e in entries] != ["yes", "no"]:
            self.fail(path + ("entries",), "a question to use an ability is answered yes or no")
        at = p["at"]
        if at is not None and not (isinstance(at, list) and len(at) == 3 and isinstance(at[0], str)
                                   and is_int(at[1]) and is_int(at[2])):
            self.fail(path + ("at",), "must be [file, line, column] or null")

    def entry(self, e, allowed, menu, path) -> None:
        if not isinstance(e, list) or not e or not isinstance(e[0], str):
            self.fail(path, f"must be a list [kind, ...], not {kind_of(e)}")
        kind = e[0]
        if kind not in OPTION_KINDS:
            self.fail(path + (0,), f"{shown(kind)} is no kind of option ({', '.join(OPTION_KINDS)})")
        if kind not in allowed:
            self.fail(path + (0,), f"an option {shown(kind)} cannot answer this decision")
        arity = len(OPTION_KINDS[kind]._fields)
        if len(e) != 1 + arity:
            self.fail(path, f"an option {shown(kind)} has {arity} part{'s' if arity != 1 else ''} after its kind, "
                            f"not {len(e) - 1}")
        if kind == "v":
            self.text(e[1], path + (1,))
            self.value(e[2], path + (2,))
        elif kind == "opt":
            o = self.integer(e[1], path + (1,), 0, len(menu.options) - 1, " (an option of the menu)")
            if menu.options[o].start is None:
                self.fail(path + (1,), f"option {o} of the menu offers actions, not a choice of its own")
            self.value(e[2], path + (2,))
        elif kind == "act":
            self.tagged(e[1], "c", path + (1,), "a component")
            if e[1] is None:
                self.fail(path + (1,), "an action is of a component, not null")
            c = e[1]["c"]
            self.integer(e[2], path + (2,), 0, len(self.program.comp_actions[c]) - 1,
                         f" (an action of component {c})")

    def winners(self, v, pending) -> None:
        if v is None:
            return
        seats = self.array(v, ("winners",))
        for i, s in enumerate(seats):
            self.integer(s, ("winners", i), 0, self.n - 1, " (a seat)")
        if seats != sorted(set(seats)):
            self.fail(("winners",), "must list each winner once, in order of seats")
        if pending is not None:
            self.fail(("winners",), "the game has winners but still waits for a decision")


__all__ = ["FORMAT", "SaveError", "StateCheck", "check_state", "layout"]


def check_state(program, data) -> None:
    """Raise SaveError unless `data` is a whole, sound saved state of `program`'s game."""
    StateCheck(program).check(data)
