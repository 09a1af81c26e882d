"""The machine that runs compiled code: frames, decisions, events and actions.

`run` executes operations until the game needs a decision or ends. A choice
(`choose`, a menu, an optional trigger) stops it with a `Decision`; `resolve`
applies the picked option and `run` goes on. Events (`signal`) start the
triggered abilities of components; menus offer the actions of components in
play. A step budget and a depth limit stop runaway content with an error
naming its line.
"""
from __future__ import annotations

from . import keys
from .events import ACTION, CHOICE, DECIDE, FAIL, SIGNAL, UNUSED, WIN
from ..limits import MACHINE_BATCH, SHOWN_DEPTH, SHOWN_MEMBERS, runaway_message
from .code import CodeKind
from .specs import FREE
from .state import ActionPick, Decision, DecisionKind, Frame, GameFault, MenuPick, No, Pick, Yes, describe
from .values import Comp, CounterMap, NodeRef, Seat, Team, ZoneRef

MAX_DEPTH = 400
# what Python raises when compiled rules meet a value no check foresaw: made a fault of the game at
# the line that was running (the run-time library stops such values first, in the rules' words)
RUN_ERRORS = (TypeError, ValueError, KeyError, IndexError, AttributeError, ZeroDivisionError, OverflowError)

# an option of a decision made from its fields, as its class would make it, without the call of its
# __new__ (bots decide hundreds of thousands of times: every decision makes its options)
_option = tuple.__new__


# running ------------------------------------------------------------------------

def run(st) -> None:
    """Execute until a decision is pending or the game is over, within the budget of work
    that everything done without a decision shares (interpreter.limits)."""
    frames = st.frames
    st.fuel = st.program.step_budget
    if st.trace is not None:
        st.trace_mark = len(st.trace)
    batch = MACHINE_BATCH
    n = 0  # operations not yet taken from the budget (counted locally: this loop is hot)
    fr = None
    try:
        while st.pending is None and frames:
            fr = frames[-1]
            code = fr.code
            pc = fr.pc
            if pc >= len(code.ops):
                frames.pop()
                continue
            fr.pc = pc + 1
            code.ops[pc](st, fr)
            n += 1
            if n >= batch:
                st.ops += n
                st.fuel -= n
                n = 0
                if st.fuel < 0:
                    raise GameFault(runaway_message(st.program.step_budget), code.pos[pc])
    except GameFault as exc:
        if exc.pos is None and fr is not None:
            exc.pos = _pos_of(fr, exc)
        raise
    except RecursionError as exc:
        raise GameFault("the rules nest too deeply", _pos_of(fr, exc)) from None
    except RUN_ERRORS as exc:
        raise GameFault(f"{type(exc).__name__}: {exc}", _pos_of(fr, exc)) from None
    finally:
        st.ops += n
        # what is evaluated between runs (labels, a bot's heuristic) has a budget of its own
        st.fuel = st.program.step_budget


def _pos_of(fr, exc=None):
    """The position of the statement frame `fr` was running when `exc` was raised."""
    if fr is None:
        return None
    if exc is not None and fr.code.filename is not None:
        found = fr.code.position_of(exc.__traceback__)
        if found is not None:
            return found
    pc = max(0, fr.pc - 1)
    return fr.code.pos[pc] if pc < len(fr.code.pos) else None


def push(st, code, env, me, you, pos) -> Frame:
    if len(st.frames) >= MAX_DEPTH:
        raise GameFault(f"procedures call each other too deeply (more than {MAX_DEPTH} levels)", pos)
    fr = Frame(code, 0, env, me, you)
    st.frames.append(fr)
    return fr


def exit_proc(st, name: str, pos) -> None:
    """Leave procedure `name` and everything it called. When it is not running (a script,
    such as a rules test, called a part of the game), leave everything down to the script,
    which goes on after the statement that led here; with no script, stop everything."""
    frames = st.frames
    for i in range(len(frames) - 1, -1, -1):  # a script is the bottom frame: what it calls is above it
        code = frames[i].code
        if code.kind is CodeKind.PROC and code.proc == name:
            del frames[i:]
            return
        if code.kind is CodeKind.SCRIPT:
            del frames[i + 1:]
            return
    frames.clear()


def fail(st, fr, text: str, pos) -> None:
    """Abandon the running ability (its effect is impossible, so it is lost)."""
    st.emit(FAIL, pos, text=text)
    frames = st.frames
    while frames:
        top = frames.pop()
        if top.code.kind in (CodeKind.ABILITY, CodeKind.ACTION):
            return
    raise GameFault(f"failed: {text}", pos)


def win(st, who, pos) -> None:
    seats = set()
    for w in (who if isinstance(who, (list, tuple)) else [who]):
        if type(w) is Seat:
            seats.add(int(w))
        elif type(w) is Team:
            seats.update(int(p) for p in st.program.seats[st.n] if st.team_of(p) == w)
        elif w is None:
            continue
        else:
            raise GameFault(f"only players or teams can win, not {describe(w, st.program)}", pos)
    st.winners = tuple(sorted(seats))
    st.emit(WIN, pos, players=[s + 1 for s in st.winners])
    st.frames.clear()
    st.pending = None


# decisions ----------------------------------------------------------------------

def _chooser(st, fr, f, pos) -> Seat:
    p = f(st, fr) if f is not None else fr.you
    if type(p) is not Seat:
        raise GameFault(f"a choice must be made by a player, not {describe(p, st.program)}", pos)
    return p


def choose(st, fr, spec) -> None:
    """Ask `spec`'s chooser to pick among its candidates (`spec.src` gives them, filtered)."""
    items = spec.src(st, fr)
    if not items:
        fr.env[spec.var] = None
        return
    if len(items) == 1 and not spec.optional:
        fr.env[spec.var] = items[0]
        return
    player = _chooser(st, fr, spec.chooser, spec.pos)
    var = spec.var
    entries = [_option(Pick, (var, x)) for x in items]
    if spec.optional:
        entries.append(_option(Pick, (var, None)))
    d = st.pending = Decision(player, f"choose {spec.var}", None, entries, DecisionKind.CHOOSE, spec.pos, _choose_labels)
    d.secret = spec.secret
    if spec.prompt:
        d.defer_prompt(spec.prompt, st, fr)
    if player in st.program.automata:
        _automatic(st, d, [e.value for e in entries])


def _choose_labels(st, d) -> list:
    return [label_of(st, e.value) for e in d.entries]


def menu(st, fr, spec) -> None:
    player = _chooser(st, fr, spec.chooser, spec.pos)
    entries = []
    for i, o in enumerate(spec.options):
        if o.window is not None or o.start is None:
            for c, a in usable_actions(st, player, o.window):
                entries.append(_option(ActionPick, (c, a.index)))
            continue
        if o.src is None:
            if o.cond is None or o.cond(st, fr):
                entries.append(_option(MenuPick, (i, None)))
            continue
        for x in o.src(st, fr):
            entries.append(_option(MenuPick, (i, x)))
    if not entries:
        raise GameFault("no option of this choice is possible", spec.pos)
    d = Decision(player, "choose", None, entries, DecisionKind.MENU, spec.pos, _menu_labels)
    if spec.prompt:
        d.defer_prompt(spec.prompt, st, fr)
    d.spec = spec  # noqa: the menu being answered
    d.secret = spec.secret
    if len(entries) == 1:
        st.pending = d
        resolve(st, 0, auto=True)
        return
    st.pending = d
    if player in st.program.automata:
        _automatic(st, d, d.labels_for(st))


def _menu_labels(st, d) -> list:
    """The labels of menu `d` of `st`, rendered in the frame that asked it."""
    spec = d.spec
    fr = st.frames[-1]
    env = fr.env
    labels = []
    for entry in d.entries:
        if type(entry) is ActionPick:
            labels.append(st.program.comp_actions[entry.comp][entry.index].label(st, entry.comp))
            continue
        o = spec.options[entry.option]
        if o.var is None:
            labels.append(o.label(st, fr))
            continue
        old = env.get(o.var, _MISSING)
        env[o.var] = entry.value
        labels.append(o.label(st, fr))
        if old is _MISSING:
            env.pop(o.var, None)
        else:
            env[o.var] = old
    return labels


def ask(st, fr, player, prompt, pos) -> None:
    """A yes/no decision: used for optional triggered abilities. The prompt is a text, or
    a function (state, frame) -> text rendered when read."""
    d = st.pending = Decision(player, "use?", ["yes", "no"], [Yes(), No()], DecisionKind.ASK, pos)
    if callable(prompt):
        d.defer_prompt(prompt, st, fr)
    else:
        d.prompt = prompt
    if player in st.program.automata:
        _automatic(st, d, ["yes", "no"])


# seats driven by content ------------------------------------------------------------

def _automatic(st, d, values: list) -> None:
    """Make pending decision `d` for the seat content drives: the option whose `prefer` value
    is the smallest (the first offered among equals; without `prefer`, the first). No agent
    is asked; the trace says which rule decided."""
    auto = st.program.automata[d.player]
    best, best_key = 0, None
    if auto.rank is not None:
        for i, v in enumerate(values):
            r = auto.rank(st, d.player, v)
            if r is not None and (type(r) not in (int, float, bool)):
                raise GameFault(f"the 'prefer' of automaton '{auto.id}' must give a number, not {describe(r, st.program)}",
                                auto.pos)
            key = (1, 0) if r is None else (0, r)
            if best_key is None or key < best_key:
                best, best_key = i, key
    resolve(st, best, auto=True, decided=auto)


def decide(st, fr, spec) -> None:
    """A decision made by the rules: the first rule whose condition holds and whose value is
    not none; traced at that rule's line."""
    player = _chooser(st, fr, spec.chooser, spec.pos)
    for number, (cond, value, pos) in enumerate(spec.rules, 1):
        if cond is not None and not cond(st, fr):
            continue
        v = value(st, fr)
        if v is not None:
            fr.env[spec.var] = v
            if st.trace is not None:
                _decided(st, fr, spec, player, v, number, pos)
            return
    fr.env[spec.var] = None
    if st.trace is not None:
        _decided(st, fr, spec, player, None, 0, spec.pos)


def _decided(st, fr, spec, player, v, number, pos) -> None:
    if not st.recording():
        st.emit(DECIDE, pos)
        return
    st.emit(DECIDE, pos, player=int(player) + 1, prompt=spec.prompt(st, fr) if spec.prompt else spec.var,
            label=label_of(st, v) if v is not None else None, value=plain(v), rule=number)


def use(st, fr, c, player, free: bool, pos) -> bool:
    """`use c by player`: start the first action of component `c` whose condition holds and
    whose costs can be paid (`free`: its `pay` costs, the player's currency, are waived; a tap,
    the card's own tokens and a sacrifice are still paid). False when none can."""
    if type(c) is not Comp:
        raise GameFault(f"only a component's action can be used, not {describe(c, st.program)}", pos)
    if type(player) is not Seat:
        raise GameFault(f"an action must be used by a player, not {describe(player, st.program)}", pos)
    for a in st.program.comp_actions[c]:
        if spent(st, c, a):
            continue
        if a.usable_free(st, c, player) if free else a.usable(st, c, player):
            start_action(st, c, a.index, player, pos, free)
            return True
    if st.trace is not None:
        st.emit(UNUSED, pos, card=st.program.comp_card[c].id, id=int(c), player=int(player) + 1)
    return False


def resolve(st, index: int, auto: bool = False, decided=None) -> None:
    """Apply option `index` of the pending decision (`decided`: the automaton that made it)."""
    d = st.pending
    st.pending = None
    fr = st.frames[-1]
    entry = d.entries[index]
    if not auto:
        st.history.append(index)
    if st.trace is not None:
        if decided is not None:
            st.emit(DECIDE, decided.pos, player=int(d.player) + 1, prompt=d.prompt, option=index,
                    label=d.labels_for(st)[index], options=len(d.entries), rule="prefer", automaton=decided.id,
                    asked_at=f"{d.pos.path}:{d.pos.line}" if d.pos is not None else None,
                    **({"secret": True} if d.secret else {}))
        else:
            st.emit(CHOICE, d.pos, player=int(d.player) + 1, prompt=d.prompt, option=index,
                    label=d.labels_for(st)[index], options=len(d.entries), auto=auto,
                    **({"secret": True} if d.secret else {}))
    kind = type(entry)
    if kind is Pick:
        fr.env[entry.var] = entry.value
    elif kind is MenuPick:
        spec = d.spec
        o = spec.options[entry.option]
        if o.var:
            fr.env[o.var] = entry.value
        fr.pc = o.start
    elif kind is ActionPick:
        spec = d.spec
        fr.pc = spec.end[0]
        start_action(st, entry.comp, entry.index, d.player, d.pos)
    elif kind is No:
        st.frames.pop()


# events and abilities -------------------------------------------------------------

def signal(st, fr, event: str, args: list, pos) -> None:
    program = st.program
    names = program.events.get(event, [])
    if st.trace is not None:
        st.emit(SIGNAL, pos, event=event, args=[plain(a) for a in args])
    if event in program.limit_events:
        prefix = keys.used_prefix(event)
        st.used = {u for u in st.used if not u.startswith(prefix)}
    listeners = []
    subject = args[0] if args else None
    if type(subject) is Comp:
        for t in program.comp_triggers[subject].get(event, ()):
            if not t.broadcast:
                listeners.append((subject, t))
    if event in program.broadcast_events:
        for c in in_play(st, None):
            for t in program.comp_triggers[c].get(event, ()):
                if t.broadcast:
                    listeners.append((c, t))
    if not listeners:
        return
    base_env = dict(zip(names, args))
    base_env["cause"] = fr.you
    for c, t in reversed(listeners):
        you = controller(st, c)
        if you is None:
            you = fr.you
        push(st, t.code, dict(base_env), c, you, pos)


def start_action(st, c, index: int, player, pos, free: bool = False) -> None:
    spec = st.program.comp_actions[c][index]
    if spec.limit is not None:
        st.used.add(keys.used_key(spec.limit, c, index))
    if st.trace is not None:
        st.emit(ACTION, pos, card=st.program.comp_card[c].id, id=int(c), ability=index, player=int(player) + 1,
                **({"free": True} if free else {}))
    push(st, spec.code, {"cause": player, FREE: True} if free else {"cause": player}, c, player, pos)


def spent(st, c, a) -> bool:
    """Whether action `a` of component `c` is limited (`once per EVENT`) and used already."""
    return a.limit is not None and keys.used_key(a.limit, c, a.index) in st.used


def usable_actions(st, player, window):
    """(component, action) pairs the player may use now in this window."""
    out = []
    program = st.program
    for c in in_play(st, player):
        actions = program.comp_actions[c]
        if not actions:
            continue
        for a in actions:
            if window is not None and a.windows and window not in a.windows:
                continue
            if spent(st, c, a):
                continue
            if a.usable(st, c, player):
                out.append((c, a))
    return out


# places and owners --------------------------------------------------------------

def holder(st, c):
    """What the zone of component `c` belongs to: a player, team, node or component."""
    if type(c) is not Comp:
        return None
    z = st.where[c]
    if z is None:
        return None
    return st.program.zone_holder(z)


def controller(st, c):
    """The player whose zone holds `c`, following components that hold components."""
    seen = 0
    while type(c) is Comp and seen < 64:
        h = holder(st, c)
        if type(h) is Seat:
            return h
        if type(h) is not Comp:
            return None
        c = h
        seen += 1
    return None


def owner(st, c):
    if type(c) is not Comp:
        return None
    o = st.program.comp_owner[c]
    return Seat(o) if o is not None else controller(st, c)


def in_play(st, player=None, pos=None) -> tuple:
    """Components in zones that are in play, optionally only those a player controls.
    Kept until the state changes: events, menus and rules ask it many times a step."""
    if player is not None and type(player) is not Seat and type(player) is not int:  # a seat index from Python
        raise GameFault(f"in_play() takes a player, not {describe(player, st.program)}", pos)
    cache = st.in_play_cache
    # only a move into or out of an in-play zone changes what is in play (or its order): one
    # that leaves a component in play changes its holder's zones with it, and a controller
    # changes only when a component in play moves (State.vp)
    if cache[0] != st.vp:
        cache[0] = st.vp
        cache[1].clear()
    else:
        r = cache[1].get(player)
        if r is not None:
            return r
    r = cache[1][player] = tuple(_in_play(st, player))
    return r


def _play_info(program, key):
    """What `_in_play` needs of zone `key`: False when it is not in play, else its holder
    and whether that holder is a component (itself in play or not)."""
    info = program.in_play_zone.get(key)
    if info is None:
        if not program.zone_def(key).in_play:
            info = False
        else:
            h = program.zone_holder(key)
            info = (h, type(h) is Comp)
        program.in_play_zone[key] = info
    return info


def _in_play(st, player) -> list:
    program = st.program
    playing = program.in_play_zone
    zones = st.zones
    keys = st.play_keys
    if keys[0] != len(zones):  # zones are only ever added: list the in-play ones anew when one is
        keys = st.play_keys = (len(zones), tuple(k for k in zones if _play_info(program, k) is not False))
    out = []
    for key in keys[1]:
        comps = zones[key]
        if not comps:
            continue
        h, held = playing[key]
        if held and not _live(st, h):
            continue  # the zone of a component that is itself out of play
        if player is None:
            out.extend(comps)
            continue
        # everything in one zone has one controller: the zone's holder, or its controller
        if held:
            h = controller(st, h)
        if h == player and type(h) is Seat:
            out.extend(comps)
    return out


def _live(st, c) -> bool:
    """Whether component `c` lies in play (in an in-play zone of something in play)."""
    program = st.program
    playing = program.in_play_zone
    where = st.where
    for _ in range(64):
        z = where[c]
        if z is None:
            return False
        info = playing.get(z)
        if info is None:
            info = _play_info(program, z)
        if info is False:
            return False
        if not info[1]:
            return True
        c = info[0]
    return False


# readable values ----------------------------------------------------------------

def label_of(st, v, depth: int = 0) -> str:
    t = type(v)
    if t is Comp:
        return st.program.comp_card[v].title
    if t is Seat:
        return st.program.player_name(int(v))
    if t is Team:
        return f"team {int(v) + 1}"
    if t is NodeRef:
        node = st.program.nodes.get(v, {})
        return str(node.get("name", v))
    if t is ZoneRef:
        return str(v)
    if v is None:
        return "none"
    if t is bool:
        return "yes" if v else "no"
    if isinstance(v, (list, tuple)):
        return _shown_list(v, lambda x: label_of(st, x, depth + 1), ", ".join, depth)
    return str(v)


def _shown_list(v, show, join, depth):
    """A list as a text or the trace shows it: its first SHOWN_MEMBERS members, and lists in
    lists down to SHOWN_DEPTH levels (a list of itself made over and over would be
    exponentially long in full)."""
    if depth >= SHOWN_DEPTH:
        return join(["..."])
    shown = [show(x) for x in v[:SHOWN_MEMBERS]]
    if len(v) > SHOWN_MEMBERS:
        shown.append(f"... ({len(v):,} in all)")
    return join(shown)


def plain(v, depth: int = 0):
    """A JSON-ready form of a value, for the trace."""
    t = type(v)
    if t is Comp:
        return int(v)
    if t is Seat:
        return f"player {int(v) + 1}"
    if t is Team:
        return f"team {int(v) + 1}"
    if t is CounterMap:
        return v.name
    if isinstance(v, (list, tuple)):
        return _shown_list(v, lambda x: plain(x, depth + 1), list, depth)
    if v is None or isinstance(v, (int, str, float, bool)):
        return v if not isinstance(v, str) else str(v)
    return str(v)


_MISSING = object()
