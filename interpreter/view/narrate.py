"""Telling a game to one seat: its observation in readable form, and the
events of the trace as they happen, never showing what the seat may not see.

Visibility follows `observe.py`: a move is told with the component's title
when the seat sees the zone it leaves or the zone it enters (judged on the
state after the step), otherwise as "a card moved from X to Y"; a counter
the seat may not see is told without its value; the option another player
picked is told when it names nothing hidden from the seat.
"""
from __future__ import annotations

import re
import weakref
from pathlib import Path

from ..diagnostics import lines_of, plural, printable
from ..engine import keys
from ..engine.events import (ACTION, CHOICE, COUNTER, CUT, DECIDE, FAIL, LOG, MOVE, REVEAL, ROLL, SET, SHUFFLE, SIGNAL,
                             START, TAG, TAP, UNTAG, UNTAP, UNUSED, WIN)
from ..engine.observe import counter_holder, may_see
from ..engine.values import Comp, NodeRef, Seat, Team
from ..language.prose.vocabulary import Vocabulary


def _nice(name: str) -> str:
    return name.replace("_", " ")


_WORDS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
NARRATED_IN = "en"  # the language the narration is written in: names come from its vocabulary


def words(program):
    """The game's vocabulary in the language of the narration (made once per game): zones and
    counters are named as the game names them ('your wood cubes', 'figure area at ether'), so
    that the names shown are of one language with the rest."""
    got = _WORDS.get(program)
    if got is None:
        got = _WORDS[program] = Vocabulary(program.defn, NARRATED_IN)
    return got


def _noun(program, name: str, kind: str, many: bool = False, vocabulary: bool = False) -> str:
    """A zone's or counter's name: its vocabulary's noun when asked and the game gives one."""
    if vocabulary and program is not None and getattr(program, "defn", None) is not None:
        if words(program).raw(name, kind) is not None:
            noun = words(program).noun(name, kind)
            return noun.many if many else noun.one
    return _nice(name)


def natural(text: str) -> list:
    """A sort key that puts 'site 2' before 'site 10': numbers compared as numbers."""
    return [(0, int(part), "") if part.isdigit() else (1, 0, part.casefold())
            for part in re.split(r"(\d+)", text) if part]


def seat_name(i: int, seat: int | None, program=None) -> str:
    """'you', 'player 2', or the title of the automaton that plays seat `i` (from 0)."""
    if seat is not None and i == seat:
        return "you"
    auto = program.automata.get(i) if program is not None else None
    return auto.title if auto is not None else f"player {i + 1}"


def _possessive(who: str) -> str:
    return "your" if who == "you" else f"{who}'s"


def joined(names: list) -> str:
    """'you', 'you and player 3', 'player 1, player 2 and player 4'."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def winners_text(winners, seat: int | None, program=None) -> str:
    """'you win', 'player 2 wins', 'you and player 3 win'."""
    names = [seat_name(s, seat, program) for s in winners]
    verb = "wins" if len(names) == 1 and names[0] != "you" else "win"
    return f"{joined(names)} {verb}"


def zone_name(program, key: str, seat: int | None, visible=None, players: int | None = None,
              vocabulary: bool = False) -> str:
    """'deck', 'your hand', "player 2's table", 'site at North', 'crews of Farm'; a zone
    of a node whose name starts with the zone's ('site' at 'site 3') is named by its node.
    With `vocabulary`, named as the game's vocabulary names it (see `words`)."""
    base = _noun(program, keys.name_of(key), "zone", vocabulary=vocabulary)
    if keys.owner_of(key) is None:
        return base
    try:
        h = program.zone_holder(key)
    except (KeyError, ValueError, IndexError):
        return key
    t = type(h)
    if t is Seat:
        return f"{_possessive(seat_name(int(h), seat, program))} {base}"
    if t is Team:
        mine = seat is not None and players is not None and program.team_of(players)[seat] == int(h)
        return f"your team's {base}" if mine else f"team {int(h) + 1}'s {base}"
    if t is NodeRef:
        node = str(program.nodes.get(h, {}).get("name", h))
        named = (base, _nice(keys.name_of(key)))  # 'chamber 3' holds the zone 'chamber' ('chamber card')
        return node if any(node.casefold().startswith(b.casefold()) for b in named) else f"{base} at {node}"
    c = int(h)
    if visible is None or c in visible:
        return f"{base} of {program.comp_card[c].title}"
    return f"{base} of a card"


def counter_name(program, key: str, seat: int | None, visible=None, players: int | None = None,
                 vocabulary: bool = False, many: bool = True) -> str:
    """'round', "player 2's coins", 'your team's gems', 'gems on Farm', 'your influence at North'.
    With `vocabulary`, named as the game's vocabulary names it ('many': in the plural)."""
    whose, name, where = counter_parts(program, key, seat, visible, players, vocabulary, many)
    return " ".join(([whose] if whose else []) + [name] + where)


def counter_parts(program, key: str, seat: int | None, visible=None, players: int | None = None,
                  vocabulary: bool = False, many: bool = True) -> tuple:
    """(whose, name, where) of a counter: whose is 'your', "player 2's", "your team's" or ''
    (the game's), where the node or card it is kept on ('at North', 'on Farm')."""
    name = _noun(program, keys.name_of(key), "counter", many, vocabulary)
    cdef = program.defn.counters.get(keys.name_of(key))
    parts = keys.owners_of(key)
    if cdef is None or not parts:
        return "", name, []
    whose, where = [], []
    for word, raw in zip(cdef.scope, parts):
        if word == "player":
            whose.append(_possessive(seat_name(int(raw), seat, program)))
        elif word == "team":
            t = keys.team_of_owner(raw)
            mine = seat is not None and players is not None and program.team_of(players)[seat] == t
            whose.append("your team's" if mine else f"team {t + 1}'s")
        elif word == "node":
            where.append("at " + str(program.nodes.get(raw, {}).get("name", raw)))
        else:
            try:
                c = int(raw)
                where.append("on " + (program.comp_card[c].title if visible is None or c in visible else "a card"))
            except (ValueError, IndexError):
                where.append("of " + raw)
    return " ".join(whose), name, where


def is_internal(program, key: str) -> bool:
    """Whether a counter is bookkeeping of the rules (declared `internal: true`)."""
    cdef = program.defn.counters.get(keys.name_of(key))
    return cdef is not None and cdef.internal


def visible_ids(obs: dict) -> set:
    out = set()
    for z in obs["zones"].values():
        if isinstance(z, list):
            out.update(x["id"] for x in z)
    return out


def _listed(items: list) -> str:
    """'Farm, Worker ×3, Farm': the items in their order, a run of the same one counted."""
    runs: list = []
    for item in items:
        if runs and runs[-1][0] == item:
            runs[-1][1] += 1
        else:
            runs.append([item, 1])
    return ", ".join(item if k == 1 else f"{item} ×{k}" for item, k in runs)


def _order(program, key: str, name: str, kind: str) -> tuple:
    """Zones and counters in the order the game declares them, yours first, then by name
    with numbers in their order ('site 2' before 'site 10')."""
    defs = program.defn.zones if kind == "zone" else program.defn.counters
    d = defs.get(keys.name_of(key))
    return (d.index if d is not None else len(defs), not name.startswith("your "), natural(name), key)


def render_observation(program, obs: dict, counters_before: dict | None = None, every_counter: bool = True) -> list:
    """Lines showing an observation: non-empty zones, then counters grouped by whose they are
    (`counter_lines`). Content in them is escaped: the lines are safe to print."""
    seat = obs["seat"]
    vis = visible_ids(obs)
    players = obs["players"]
    lines = [f"-- what you see (you are player {seat + 1} of {players}) --"]
    named = sorted(((zone_name(program, key, seat, vis, players, vocabulary=True), key) for key in obs["zones"]),
                   key=lambda nk: _order(program, nk[1], nk[0], "zone"))
    for name, key in named:
        z = obs["zones"][key]
        if isinstance(z, list):
            if not z:
                continue
            items = _listed([x["title"] + (" (tapped)" if x.get("tapped") else "") for x in z])
            lines.append(f"  {name}: {items}")
        elif z.get("count"):
            n = z["count"]
            yours = ", ".join(x["title"] for x in z.get("yours", []))
            lines.append(f"  {name}: {plural(n, 'hidden card')}" + (f" (yours: {yours})" if yours else ""))
    lines += counter_lines(program, obs, counters_before, every_counter)
    return [printable(line) for line in lines]


_GROUP = {"your": "you", "your team's": "your team", "": "the game"}


def counter_lines(program, obs: dict, before: dict | None = None, every: bool = True) -> list:
    """The counters of an observation, one line per player (then team, then the game's, then
    what is left in the supplies): 'you: wood cubes 4, army 2'. With `every` false, only those
    whose value is not what `before` holds (key -> value; a counter not in it was 0): a screen
    shows what changed since the last one, not a line of every counter of the game."""
    seat, players = obs["seat"], obs["players"]
    vis = visible_ids(obs)
    groups: dict = {}
    supplies = []
    for key, v in obs["counters"].items():
        if not every and (before or {}).get(key, 0) == v:
            continue
        if keys.is_supply(key):
            name = keys.supply_of(key)
            supplies.append((_order(program, name, name, "counter"),
                             f"{_noun(program, name, 'counter', v != 1, vocabulary=True)} {v}"))
            continue
        whose, name, where = counter_parts(program, key, seat, vis, players, vocabulary=True, many=v != 1)
        group = _GROUP.get(whose, whose[:-2] if whose.endswith("'s") else whose)
        item = f"{name} {' '.join(where)} = {v}" if where else f"{name} {v}"
        groups.setdefault(group, []).append((_order(program, key, name, "counter"), item))
    order = ["you", "your team"] + [seat_name(s, seat, program) for s in range(players) if s != seat]
    ranked = sorted(groups, key=lambda g: (order.index(g) if g in order else len(order) + (g == "the game"),
                                           natural(g)))
    lines = [f"  {g}: " + ", ".join(text for _, text in sorted(groups[g])) for g in ranked]
    if supplies:
        lines.append("  left in supply: " + ", ".join(text for _, text in sorted(supplies)))
    return lines


class Narrator:
    """Tells the new events of a state's trace to one seat (`seat` None: tell everything).

    The changes of the rules' bookkeeping (counters declared `internal`, and the classes a
    card gains or loses with `tag` and `untag`: a mark such as 'Posed' is how rules remember,
    and a game says what is worth saying with `log`) are told only with `show_all`. What it prints is escaped: content never reaches the terminal raw."""

    def __init__(self, state, seat: int | None, out, show_all: bool = False):
        self.state = state
        self.seat = seat
        self.out = out
        self.show_all = show_all
        self.done = 0
        self.pending_choice = None  # (player, visible?) of the decision about to be answered
        self.lines = source_lines(state.program)  # a rule's line, from the game's own files

    def say(self, text: str) -> None:
        print(printable(text), file=self.out, flush=True)

    # visibility ------------------------------------------------------------------
    def sees_zone(self, key) -> bool:
        if key is None or self.seat is None:
            return self.seat is None
        st = self.state
        program = st.program
        try:
            return may_see(st, program.zone_def(key).visibility, program.zone_holder(key), self.seat)
        except (KeyError, ValueError, IndexError):
            return False

    def sees_comp(self, c: int) -> bool:
        if self.seat is None:
            return True
        z = self.state.where[c] if 0 <= c < len(self.state.where) else None
        return z is not None and self.sees_zone(z)

    def sees_counter(self, key: str) -> bool:
        if self.seat is None:
            return True
        program = self.state.program
        name = keys.name_of(key)
        cdef = program.defn.counters.get(name)
        if cdef is None:
            return False
        return may_see(self.state, cdef.visibility, counter_holder(cdef, key), self.seat)

    def hidden_titles(self) -> set:
        """Titles of components in zones the seat cannot see, less those it can see somewhere."""
        st = self.state
        program = st.program
        hidden, shown = set(), set()
        for key, comps in st.zones.items():
            (shown if self.sees_zone(key) else hidden).update(program.comp_card[c].title for c in comps)
        return hidden - shown

    def before(self, state) -> None:
        """Note, before a decision is answered, what each of its options names and whether the seat sees it.

        The option another player picks is told when each component it names is seen by the seat
        before or after the step (a card played from a hand to the table is told; one buried face
        down is not).
        """
        d = state.pending
        if d is None or self.seat is None:
            self.pending_choice = None
            return
        options = []
        for entry in d.entries:
            comps = [int(x) for x in entry if type(x) is Comp]
            for x in entry:
                if isinstance(x, (list, tuple)):
                    comps += [int(y) for y in x if type(y) is Comp]
            options.append((comps, all(self.sees_comp(c) for c in comps)))
        self.pending_choice = (int(d.player), options)

    def _option_shown(self, who: int, ev: dict) -> bool:
        if not ev.get("auto") and self.pending_choice and self.pending_choice[0] == who:
            options = self.pending_choice[1]
            k = ev["option"]
            if not 0 <= k < len(options):
                return False
            comps, seen_before = options[k]
            return seen_before or all(self.sees_comp(c) for c in comps)
        # an automatic choice, not seen coming: tell it unless its label names a hidden title
        hidden = self.hidden_titles()
        return not any(h in ev["label"] for h in hidden)

    def zone(self, key) -> str:
        return zone_name(self.state.program, key, self.seat, _Sees(self), self.state.n, vocabulary=True)

    # telling -------------------------------------------------------------------------
    def flush(self) -> None:
        trace = self.state.trace or []
        for ev in trace[self.done:]:
            text = self.tell(ev)
            if text:
                self.say(text)
        self.done = len(trace)
        self.pending_choice = None

    def tell(self, ev: dict) -> str | None:
        st = self.state
        program = st.program
        seat = self.seat
        t = ev.get("type")
        if t == START:
            return f"== {program.defn.title}: {ev['players']} players, seed {ev['seed']} =="
        if t == MOVE:
            src, dst = ev.get("from"), ev.get("to")
            vis = self.sees_zone(src) or self.sees_zone(dst)
            where = (f"from {self.zone(src)} " if src else "") + f"to {self.zone(dst)}"
            if vis:
                return f"  {program.comp_card[ev['id']].title} moved {where}"
            return f"  a card moved {where}"
        if t == SHUFFLE:
            return f"  {self.zone(ev['zone'])} shuffled"
        if t in (TAG, UNTAG) and not self.show_all:
            return None  # a class a card gains or loses is the rules' bookkeeping: content logs what is worth saying
        if t in (TAP, UNTAP, TAG, UNTAG, SET):
            c = ev["id"]
            title = program.comp_card[c].title if self.sees_comp(c) else "a card"
            if t == TAG:
                return f"  {title} becomes {ev['tag']}"
            if t == UNTAG:
                return f"  {title} is no longer {ev['tag']}"
            if t == SET:
                return f"  {title}: {ev['attribute']} set to {ev['value']}" if title != "a card" else None
            return f"  {title} {'tapped' if t == TAP else 'untapped'}"
        if t == COUNTER:
            key = ev["counter"]
            if not self.show_all and is_internal(program, key):
                return None
            name = counter_name(program, key, seat, _Sees(self), st.n, vocabulary=True, many=ev.get("value") != 1)
            if self.sees_counter(key):
                ch = ev["change"]
                return f"  {name}: {'+' if ch > 0 else ''}{ch} (now {ev['value']})"
            return f"  {name} changed"
        if t == CHOICE:
            who = int(ev["player"]) - 1
            label = ev["label"]
            if seat is None or who == seat:
                if ev.get("auto"):
                    return f"  ({_possessive(seat_name(who, seat, program))} only option: {label})"
                return f"{seat_name(who, seat, program).capitalize()} chose: {label}"
            if ev.get("secret"):
                prompt = ev.get("prompt") or ""
                return f"{seat_name(who, seat, program).capitalize()} chose secretly" + (f"  [{prompt}]" if prompt else "")
            what = label if self._option_shown(who, ev) else "an option you cannot see"
            if ev.get("auto"):
                what += " (the only option)"
            prompt = ev.get("prompt") or ""
            if prompt and not any(h in prompt for h in self.hidden_titles()):
                what += f"  [{prompt}]"
            return f"Player {who + 1} chose: {what}"
        if t == DECIDE:
            return self.decided(ev)
        if t == ACTION:
            c = ev["id"]
            title = program.comp_card[c].title if self.sees_comp(c) else "a card"
            who = int(ev["player"]) - 1
            name = seat_name(who, seat, program)
            return f"  {name} use{'' if who == seat else 's'} {title}" + (" (its costs not paid)" if ev.get("free") else "")
        if t == UNUSED:
            c = ev["id"]
            title = program.comp_card[c].title if self.sees_comp(c) else "a card"
            return f"  {seat_name(int(ev['player']) - 1, seat, program)} cannot use {title}"
        if t == ROLL:
            return f"  dice: {', '.join(str(d) for d in ev['dice'])}"
        if t == REVEAL:
            return f"  revealed: {ev.get('label', ev.get('what'))}"
        if t == LOG:
            return f"  {ev['text']}"
        if t == FAIL:
            return f"  (failed: {ev['text']})"
        if t == SIGNAL:
            return None
        if t == CUT:
            return f"  ({ev.get('left_out', 0):,} more events without a decision, not recorded)"
        if t == WIN:
            winners = [p - 1 for p in ev.get("players") or []]
            return f"== {winners_text(winners, seat, program)} ==" if winners else "== no winner =="
        return f"  {t}"

    def decided(self, ev: dict) -> str | None:
        """A decision the rules made for a seat: what, and the rule that made it, with its line."""
        if "player" not in ev:
            return None
        who = int(ev["player"]) - 1
        name = seat_name(who, self.seat, self.state.program)
        label = ev.get("label")
        if label is None:
            label = "nothing"
        elif who != self.seat and (ev.get("secret") or any(h in label for h in self.hidden_titles())):
            label = "an option you cannot see"
        rule = ev.get("rule")
        why = "by its preference" if rule == "prefer" else (f"by its rule {rule}" if rule else "no rule applied")
        line = self.lines.line(ev.get("at"))
        return (f"{name} decides {ev.get('prompt') or ''}: {label}".replace(" :", ":")
                + f"  [{why}" + (f": {line}" if line else "") + (f"  ({ev['at']})" if ev.get("at") else "") + "]")


class SourceLines:
    """The text of a content line named by an event's `at` ("path:line"), read from the content
    the game was loaded from (`program.sources`), never from the file system: an `at` comes from
    a trace, which anyone may write, so a path in it names nothing outside the game's own files.

    A path is known as the engine writes it (as the game's files were given) and as a trace
    writes it (relative to the game's folder: `my-game/game.yaml`)."""

    def __init__(self, program):
        self.texts: dict = {}
        root = Path(program.root).resolve() if getattr(program, "root", None) is not None else None
        for path, text in (getattr(program, "sources", None) or {}).items():
            self.texts[path] = text
            if root is not None:
                try:
                    rel = Path(path).resolve().relative_to(root).as_posix()
                except (ValueError, OSError):
                    continue
                self.texts.setdefault(f"{root.name}/{rel}", text)
        self._lines: dict = {}

    def line(self, at) -> str | None:
        """The text of content line `at`, stripped; None when `at` names no line of the game's files."""
        if not isinstance(at, str) or ":" not in at:
            return None
        path, _, line = at.rpartition(":")
        text = self.texts.get(path)
        if text is None or not line.isdigit() or len(line) > 9:
            return None
        lines = self._lines.get(path)
        if lines is None:
            lines = self._lines[path] = lines_of(text)
        return lines[int(line) - 1].strip() if 0 < int(line) <= len(lines) else None


_SOURCE_LINES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def source_lines(program) -> SourceLines:
    """The SourceLines of `program`, made once (every seat's narrator shares them)."""
    got = _SOURCE_LINES.get(program)
    if got is None:
        got = _SOURCE_LINES[program] = SourceLines(program)
    return got


class _Sees:
    """`c in _Sees(narrator)`: whether the narrator's seat sees component c."""

    __slots__ = ("n",)

    def __init__(self, narrator):
        self.n = narrator

    def __contains__(self, c) -> bool:
        return self.n.sees_comp(int(c))
