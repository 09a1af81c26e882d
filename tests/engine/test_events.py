"""The events of a trace are the ones engine/events.py declares, with their fields.

Every kind the engine emits is declared (its emit sites scanned); every event of
games of each shipped game and of the test games has a declared kind, its
required fields and no other; narration tells every declared kind but those
declared bookkeeping only with --all; the trace reader refuses an event of no kind or without a field.
"""
from __future__ import annotations

import ast
import random
import re

import pytest

import interpreter
from interpreter.engine import events
from interpreter.engine.events import BY_KIND, EVENTS, FIELDS, Kind
from interpreter.engine.library import EXPORTED
from interpreter.engine.state import GameFault
from interpreter.view.narrate import Narrator

from gamekit import FIXTURES, ROOT, make_game, player_counts

SHIPPED = sorted(p.name for p in (ROOT / "content").iterdir() if (p / "game.yaml").is_file())
FIXTURE_GAMES = ["nim", "envoys", "robots", "workshop", "bids", "docs-game"]
EMIT = re.compile(r"\b(?:st|self)\.emit\(\s*([^,\s)]+)")


def _emitted() -> dict:
    """{what is emitted: [file:line]} of every emit site of the engine (`st.emit(KIND, ...)`, both
    branches of `A if c else B`) and of the code the compiler writes (`st.emit(EV_KIND, ...)`)."""
    found: dict = {}
    for path in sorted((ROOT / "interpreter" / "engine").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "emit"
                    and isinstance(node.func.value, ast.Name) and node.func.value.id in ("st", "self")):
                first = node.args[0]
                for arg in (first.body, first.orelse) if isinstance(first, ast.IfExp) else (first,):
                    found.setdefault(ast.unparse(arg), []).append(f"{path.relative_to(ROOT)}:{node.lineno}")
    for path in sorted((ROOT / "interpreter" / "compile").rglob("*.py")):
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in EMIT.finditer(line):
                found.setdefault(m.group(1), []).append(f"{path.relative_to(ROOT)}:{i}")
    return found


def test_every_kind_the_engine_emits_is_declared_by_its_constant():
    found = _emitted()
    assert found, "no emit site found: has GameState.emit been renamed?"
    kinds = set()
    for arg, where in found.items():
        value = EXPORTED.get(arg) if arg.startswith("EV_") else getattr(events, arg, None)
        assert isinstance(value, Kind), f"{where}: emits {arg}, not a constant of engine.events"
        kinds.add(value)
    state = (ROOT / "interpreter" / "engine" / "state.py").read_text(encoding="utf-8")
    assert '"type": CUT' in state  # the event GameState.emit writes itself, past the trace's bound
    kinds.add(Kind.CUT)
    assert kinds == set(BY_KIND), f"declared but never emitted: {sorted(set(BY_KIND) - kinds)}"


def test_the_records_are_sound():
    assert [e.kind for e in EVENTS] == list(Kind), "one record per kind, in the order of Kind"
    for e in EVENTS:
        names = [f.name for f in (*events.COMMON, *e.fields)]
        assert len(names) == len(set(names)), e.kind
        assert e.doc and all(f.doc for f in e.fields), e.kind
        assert set(e.touches) <= {"component", "zone", "counter"}, e.kind
    assert events.ANSWERS == {Kind.CHOICE}


def _check(ev, where):
    kind = ev.get("type")
    assert type(kind) is Kind, f"{where}: an event's type is not a constant of engine.events: {ev}"
    required, optional = FIELDS[kind]
    assert set(ev) <= set(required) | set(optional), f"{where}: undeclared fields {set(ev) - set(required) - set(optional)} in {ev}"
    assert set(required) <= set(ev), f"{where}: missing fields {set(required) - set(ev)} in {ev}"


def _play(game, players, seed, decisions=150):
    st = game.new_state(players, seed, {}, trace=True)
    rng = random.Random(seed)
    try:
        for _ in range(decisions):
            if st.is_terminal():
                break
            st.apply(rng.randrange(len(st.legal_actions())))
    except GameFault as exc:
        st = getattr(exc, "state", None) or st
    return st


SEEN: dict = {}  # kind -> an event of it, from the games played (for the narration test)


def _games():
    for name in SHIPPED:
        for players in (min(player_counts(name)), max(player_counts(name))):
            yield pytest.param(name, players, id=f"{name}-{players}")
    for name in FIXTURE_GAMES:
        yield pytest.param(str(FIXTURES / name), None, id=name)


@pytest.mark.parametrize("name,players", list(_games()))
def test_every_event_of_games_played_is_as_declared(name, players):
    game = interpreter.load(name)
    if players is None:
        players = game.program.defn.min_players
    for seed in (1, 2, 3):
        st = _play(game, players, seed)
        for ev in st.trace or []:
            _check(ev, f"{game.id} {players} players, seed {seed}, event {ev.get('n')}")


RARE = """\
game: |
  for each p in players:
    decide c by p "Card to keep":
      prefer top(deck)
    move c to p.table
  for each c in deck:
    use c by players[1]
  fail "nothing to do"
"""


def test_the_events_games_rarely_make_are_as_declared(tmp_path):
    """The rules deciding for a seat, an automaton's choice, `use` of no usable action, `fail`,
    and the cut of a runaway: none of the games above need them."""
    from test_automata import load as robots, play_out
    from interpreter.limits import MAX_TRACE_EVENTS
    kinds = set()
    for sub in ("rare", "runaway", "robots"):
        (tmp_path / sub).mkdir()
    with pytest.raises(GameFault) as err:
        make_game(tmp_path / "rare", RARE).new_state(2, seed=1, trace=True)
    runaway = make_game(tmp_path / "runaway", "game: |\n  while true:\n    log \"again\"\n")
    with pytest.raises(GameFault) as cut:
        runaway.new_state(2, seed=1, trace=True)
    automaton, _ = play_out(robots(tmp_path / "robots"), 5)
    for trace in (err.value.state.trace, cut.value.state.trace[:3] + cut.value.state.trace[-2:], automaton.trace):
        for ev in trace:
            _check(ev, f"event {ev['n']}")
            kinds.add(ev["type"])
    assert {Kind.DECIDE, Kind.UNUSED, Kind.FAIL, Kind.CUT} <= kinds
    assert any(ev["type"] == Kind.DECIDE and "automaton" in ev for ev in automaton.trace)
    assert len(cut.value.state.trace) <= MAX_TRACE_EVENTS + 2


def _sample(game, st, kind) -> dict:
    """An event of `kind` with every field, as the engine would write it in game `st` is a state of."""
    program = st.program
    zone = next(iter(st.zones))
    counter = next(iter(st.counters), "x")
    values = {"n": 0, "type": kind, "at": "game.yaml:1", "card": program.comp_card[0].id, "id": 0, "player": 1,
              "from": zone, "to": zone, "zone": zone, "counter": counter, "change": 1, "value": 2, "reason": "add",
              "tag": "Marked", "attribute": "value", "dice": [3], "what": "x", "label": "x", "text": "x",
              "event": "tick", "args": [], "ability": 0, "prompt": "which", "option": 0, "options": 2,
              "auto": False, "rule": 1, "players": [1], "left_out": 5, "game": game.id, "seed": 1}
    out = {}
    required, optional = FIELDS[kind]
    for f in (*required, *optional):
        if f in ("free", "secret", "automaton", "asked_at", "without"):
            continue
        out[f] = values.get(f, None)
    if kind == Kind.START:
        out.update(options={}, players=st.n, expansions=[], scenario=None, mods=[], powers={})
    return out


@pytest.mark.parametrize("seat", [None, 0])
def test_narration_tells_every_declared_event_the_bookkeeping_only_with_all(seat):
    game = interpreter.load(str(FIXTURES / "nim"))
    st = game.new_state(2, 1, {}, trace=True)
    narrator = Narrator(st, seat, None, show_all=True)
    plain = Narrator(st, seat, None)
    for e in EVENTS:
        ev = _sample(game, st, e.kind)
        told = narrator.tell(ev)
        assert told and told.strip() != e.kind, f"narration does not tell {e.kind} events"
        if e.bookkeeping:
            assert plain.tell(ev) is None, f"{e.kind} is bookkeeping, but narration tells it without --all"


def test_the_trace_reader_refuses_an_undeclared_kind_or_a_missing_field():
    from interpreter.engine.savefile import SaveError
    from interpreter.rulings.trace import _check_event
    _check_event({"n": 0, "type": "roll", "dice": [1], "at": "g.yaml:1"})
    for ev, message in [({"n": 0, "type": "teleport"}, "type: is 'teleport': no kind of event"),
                        ({"n": 0, "type": "roll"}, "dice: is missing: 'roll' events have it"),
                        ({"n": 0, "type": "roll", "dice": [1], "cheat": 1}, "cheat: is no field of 'roll' events")]:
        with pytest.raises(SaveError) as err:
            _check_event(ev)
        assert str(err.value).startswith(message)
