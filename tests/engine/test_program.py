"""The engine's program holds the game's declarations as records of the engine's own
(engine.program), filled in from the content's definition by compile.program."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from gamekit import fixture_game
from interpreter.compile.program import scenario_spec
from interpreter.engine.program import CounterSpec, OptionSpec, ScenarioSpec, ZoneSpec


@pytest.fixture(scope="module")
def program():
    return fixture_game("docs-game").program


def test_the_declarations_are_the_engines_records(program):
    assert program.zones and all(type(z) is ZoneSpec for z in program.zones.values())
    assert program.counters and all(type(c) is CounterSpec for c in program.counters.values())
    assert program.options and all(type(o) is OptionSpec for o in program.options.values())
    for name, z in program.zones.items():
        d = program.defn.zones[name]
        assert (z.name, z.scope, z.visibility, z.in_play, z.capacity, z.index) == \
            (d.name, d.scope, d.visibility, d.in_play, d.capacity, d.index)
    for name, c in program.counters.items():
        d = program.defn.counters[name]
        assert (c.name, c.scope, c.minimum, c.maximum, c.supply, c.initial, c.index) == \
            (d.name, d.scope, d.minimum, d.maximum, d.supply, d.initial, d.index)


def test_an_option_reads_a_value_given_to_it(program):
    size = program.options["market_size"]
    assert size.kind == "number" and size.value("5") == 5
    with pytest.raises(ValueError, match="option 'market_size' is one of 3, 4, 5, not 6"):
        size.value(6)
    assert program.options["short"].kind == "boolean" and program.options["short"].value("yes") is True


def test_a_scenario_reaches_the_engine_as_a_record():
    sc = SimpleNamespace(id="rich", title="Rich", pos=None, data={"players": [2, 3], "options": {"short": True}})
    assert scenario_spec(sc) == ScenarioSpec("rich", "Rich", (2, 3), {"short": True}, None)
    sc.data = {"players": {"min": 2}}  # not a list: the game's player counts
    assert scenario_spec(sc).players is None and scenario_spec(sc).options == {}
    assert scenario_spec(None) is None
