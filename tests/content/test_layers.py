"""Expansions, mods, scenarios and powers laid over a game (content.layers), end to end:
each test writes a small expansion over the docs game, loads it and plays or checks it."""
from __future__ import annotations

import json
import random
import shutil
import textwrap
from pathlib import Path

import pytest

import interpreter
from interpreter import LoadError
from interpreter.engine import machine as vm
from interpreter.engine.savefile import SaveError
from interpreter import cli
from interpreter.rulings.trace import replay, save_state_trace
from gamekit import FIXTURES


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def expansion(game_dir: Path, name: str, body: str, files: dict | None = None) -> Path:
    folder = game_dir / "expansions" / name
    write(folder / "expansion.yaml", f"kind: expansion\ngame: docs-game\nid: {name}\ntitle: {name}\n"
          + textwrap.dedent(body))
    for rel, text in (files or {}).items():
        write(folder / rel, text)
    return folder


def play_out(state, seed=1):
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state


def errors_of(exc_info) -> list:
    return [f"{d.position.path}:{d.position.line}: {d.message}" for d in exc_info.value.report.errors]


SHIPS = """\
counters:
  ships: {scope: player, supply: 20}
hooks:
  round_begins: |
    for each p in players:
      gain 1 ships to p
"""


def test_an_expansion_adds_a_counter_and_a_hook_that_runs_each_round(game_dir):
    expansion(game_dir, "harbour", SHIPS)
    base = interpreter.load(str(game_dir))
    assert "ships#0" not in base.new_state(2, seed=1).counters  # the game alone has no ships
    st = play_out(base.new_state(2, seed=1, expansions=["harbour"]))
    assert [st.counters["ships#0"], st.counters["ships#1"]] == [4, 4]  # one per round, four rounds


def test_hooks_on_one_point_run_in_the_order_the_expansions_are_laid(game_dir):
    expansion(game_dir, "ledger", "counters:\n  order: {scope: game}\n")
    for name, digit in (("first", 1), ("second", 2)):
        expansion(game_dir, name, f"requires: [ledger]\nhooks:\n  round_begins: |\n"
                                  f"    if round == 1:\n      set order = order * 10 + {digit}\n")
    base = interpreter.load(str(game_dir))
    a = play_out(base.new_state(2, seed=1, expansions=["first", "second"]))
    b = play_out(base.new_state(2, seed=1, expansions=["second", "first"]))
    assert (a.counters["order"], b.counters["order"]) == (12, 21)
    assert [x.id for x in base.with_layers(["second", "first"]).expansions] == ["ledger", "second", "first"]


def test_a_name_the_game_declares_is_reported_at_both_places(game_dir):
    expansion(game_dir, "clash", "zones:\n  market: {scope: game}\n")
    with pytest.raises(LoadError) as got:
        interpreter.load(str(game_dir), ["clash"])
    (line,) = errors_of(got)
    assert "expansions/clash/expansion.yaml:6: zone 'market' is declared already, at " in line
    assert "docs-game/game.yaml:" in line


def test_two_expansions_replacing_one_procedure_are_refused_with_both_places(game_dir):
    for name in ("left", "right"):
        expansion(game_dir, name, "replace:\n  final_scoring: |\n    pass\n")
    assert interpreter.load(str(game_dir), ["left"]).id == "docs-game"  # each alone is fine
    with pytest.raises(LoadError) as got:
        interpreter.load(str(game_dir), ["left", "right"])
    (line,) = errors_of(got)
    assert "expansions/right/expansion.yaml:6:" in line
    assert "replaced by both 'left' (at " in line and "expansions/left/expansion.yaml:6) and 'right'" in line


def test_two_expansions_adding_one_card_id_are_refused_with_both_places(game_dir):
    card = "kind: cards\ngame: docs-game\nstart: deck\ncards:\n  - {id: lighthouse, title: Lighthouse, cost: 2}\n"
    for name in ("north", "south"):
        expansion(game_dir, name, "", {"cards/more.yaml": card})
    with pytest.raises(LoadError) as got:
        interpreter.load(str(game_dir), ["north", "south"])
    assert any("duplicate card id 'lighthouse'" in e and "expansions/north/cards/more.yaml" in e
               and e.startswith(str(game_dir / "expansions/south")) or "south/cards/more.yaml" in e
               for e in errors_of(got))


def test_a_replaced_procedure_keeps_its_parameters_and_does_what_the_expansion_says(game_dir):
    expansion(game_dir, "generous", "replace:\n  take_income: |\n    gain 7 coins\n")
    game = interpreter.load(str(game_dir), ["generous"])
    st = game.blank_state(2, 1)
    seat = st.program.seats[2][0]
    before = st.counters["coins#0"]
    vm.push(st, game.program.procs["take_income"], {"player": seat}, seat, seat, None)
    vm.run(st)
    assert st.counters["coins#0"] == before + 7


def test_a_hook_on_no_extension_point_is_an_error_with_a_hint(game_dir):
    expansion(game_dir, "typo", "hooks:\n  round_begin: |\n    pass\n")
    with pytest.raises(LoadError) as got:
        interpreter.load(str(game_dir), ["typo"])
    diag = got.value.report.errors[0]
    assert "no extension point 'round_begin'" in diag.message and "round_begins" in diag.hint


def test_unknown_required_and_circular_expansions_are_named(game_dir):
    expansion(game_dir, "lonely", "requires: [nowhere]\n")
    expansion(game_dir, "ping", "requires: [pong]\n")
    expansion(game_dir, "pong", "requires: [ping]\n")
    with pytest.raises(ValueError, match="expansion 'lonely' requires 'nowhere': no expansion 'nowhere'"):
        interpreter.load(str(game_dir), ["lonely"])
    with pytest.raises(ValueError, match="in a circle: ping -> pong -> ping"):
        interpreter.load(str(game_dir), ["ping"])
    with pytest.raises(ValueError, match="no expansion 'harbor'"):
        interpreter.load(str(game_dir), ["harbor"])


def test_an_expansion_requiring_one_the_game_has_not_is_an_error_at_its_requires(game_dir, capsys):
    expansion(game_dir, "lonely", "requires: [nowhere]\n")
    assert cli.main(["check", str(game_dir)]) == 1
    out = capsys.readouterr().out
    assert "expansions/lonely/expansion.yaml:5:12: error[N021]: expansion 'lonely' requires 'nowhere'" in out
    assert "requires: [nowhere]" in out
    assert cli.main(["simulate", str(game_dir), "--expansion", "lonely", "--games", "1"]) == 1  # content, not usage
    err = capsys.readouterr().err
    assert "expansions/lonely/expansion.yaml:5:12: error[N021]: expansion 'lonely' requires 'nowhere'" in err


SCENARIO = """\
kind: scenario
game: docs-game
id: rich-start
title: A rich start
players: [2, 3]
options: {short: true}
hooks:
  round_begins: |
    if round == 1:
      for each p in players:
        gain 5 coins to p
"""


def test_a_scenario_sets_its_options_player_counts_and_conditions(game_dir):
    write(game_dir / "scenarios" / "rich.yaml", SCENARIO)
    base = interpreter.load(str(game_dir))
    with pytest.raises(ValueError, match="scenario 'rich-start' is for 2 or 3 players, not 4"):
        base.new_state(4, scenario="rich-start")
    with pytest.raises(ValueError, match="sets option 'short' to True"):
        base.new_state(2, options={"short": False}, scenario="rich-start")
    st = base.new_state(2, seed=1, scenario="rich-start")
    assert st.options["short"] is True
    assert st.counters["coins#0"] >= 5  # the hook ran before the first turn's choice
    plain = base.new_state(2, seed=1)
    assert plain.counters["coins#0"] < 5 and plain.options["short"] is False


def test_a_scenario_requiring_an_expansion_the_game_has_not_is_a_located_error(game_dir, capsys):
    """It checked clean, and `--scenario` stopped at it (as if `--expansion` had named it)."""
    expansion(game_dir, "harbour", SHIPS)
    write(game_dir / "scenarios" / "rich.yaml", SCENARIO + "requires: [harbor, guilds]\n")
    assert cli.main(["check", str(game_dir)]) == 1
    out = capsys.readouterr().out
    rich = game_dir / "scenarios" / "rich.yaml"
    assert f"{rich}:12:12: error[N021]: unknown expansion 'harbor'\n" in out
    assert "    hint: did you mean 'harbour'?\n" in out
    assert f"{rich}:12:20: error[N021]: unknown expansion 'guilds'\n" in out
    assert "    hint: the expansions of docs-game: harbour\n" in out
    with pytest.raises(ValueError, match="^scenario 'rich-start' requires 'harbor': no expansion 'harbor'; "
                                         "did you mean 'harbour'"):
        interpreter.load(str(game_dir), scenario="rich-start")


def test_a_scenario_setting_an_option_to_a_value_of_another_type_is_a_located_error(game_dir, capsys):
    write(game_dir / "scenarios" / "rich.yaml", SCENARIO.replace("{short: true}", "{short: 17, market_size: true}"))
    assert cli.main(["check", str(game_dir)]) == 1
    out = capsys.readouterr().out
    rich = game_dir / "scenarios" / "rich.yaml"
    assert f"{rich}:6:18: error[D003]: option 'short' is true or false, not 17\n" in out
    assert f"{rich}:6:22: error[D003]: option 'market_size' is one of 3, 4, 5, not true\n" in out


def test_a_scenario_in_an_expansion_lays_its_expansion(game_dir):
    expansion(game_dir, "harbour", SHIPS, {"scenarios/storm.yaml": SCENARIO.replace("rich-start", "storm")})
    with pytest.raises(ValueError, match="no scenario 'strom'.*did you mean 'storm'"):
        interpreter.load(str(game_dir), scenario="strom")
    game = interpreter.load(str(game_dir), scenario="storm")
    assert [(x.id, x.kind) for x in game.expansions] == [("harbour", "expansion"), ("storm", "scenario")]


POWERS = """\
classes: [Power]
attributes:
  patron: {values: [Guild, Crown]}
components:
  card: {attributes: [patron]}
zones:
  power: {scope: player, in_play: true}
  spare_powers: {scope: game}
powers: {zone: power, component: card, class: Power, unique: patron}
"""
POWER_CARDS = """\
kind: cards
game: docs-game
start: spare_powers
cards:
  - {id: guild-purse, title: Guild purse, tags: [Power], patron: Guild}
  - {id: guild-seal, title: Guild seal, tags: [Power], patron: Guild}
  - {id: crown-tax, title: Crown tax, tags: [Power], patron: Crown}
"""


def test_powers_are_given_to_seats_before_the_game_and_checked(game_dir):
    expansion(game_dir, "patrons", POWERS, {"cards/powers.yaml": POWER_CARDS})
    game = interpreter.load(str(game_dir), ["patrons"])
    assert game.powers() == ["crown-tax", "guild-purse", "guild-seal"]
    st = game.new_state(2, seed=1, powers={2: "guild-seal"}, trace=True)
    held = st.zones.get("power#1", [])
    assert [game.program.comp_card[int(c)].id for c in held] == ["guild-seal"]
    assert st.trace[0]["powers"] == {"2": "guild-seal"} and st.trace[0]["expansions"] == ["patrons"]
    with pytest.raises(ValueError, match="no power 'guild-sael'; did you mean 'guild-seal'"):
        game.new_state(2, powers={1: "guild-sael"})
    with pytest.raises(ValueError, match="both have a power of patron 'Guild'"):
        game.new_state(2, powers={1: "guild-purse", 2: "guild-seal"})
    with pytest.raises(ValueError, match="seat 3 is not one of the 2 seats"):
        game.new_state(2, powers={3: "crown-tax"})
    with pytest.raises(ValueError, match="no power 'market'"):
        game.new_state(2, powers={1: "market"})  # a card, but no power


def test_a_save_records_the_powers_given_and_is_played_again_with_them(game_dir):
    """A save is checked by playing its game again from the start: the powers given at the
    start are part of that start, recorded in the save, and checked as a new game checks them."""
    expansion(game_dir, "patrons", POWERS, {"cards/powers.yaml": POWER_CARDS})
    game = interpreter.load(str(game_dir), ["patrons"])
    st = game.new_state(2, seed=1, powers={2: "guild-seal"})
    data = json.loads(json.dumps(st.to_json()))
    assert data["powers"] == {"2": "guild-seal"}
    assert game.state_from_json(data).to_json() == data
    history = "but its history (0 choices from seed 1) leads to"
    for powers, field, message in (({}, "zones", history), ({"1": "guild-seal"}, "zones", history),
                                   ({"2": "guild-sael"}, "powers", "no power 'guild-sael'; did you mean 'guild-seal'")):
        with pytest.raises(SaveError) as err:
            game.state_from_json({**data, "powers": powers})
        assert err.value.field.startswith(field) and message in str(err.value), powers


def test_a_mod_outside_the_game_folder_is_laid_with_with(game_dir, tmp_path, capsys):
    mod = tmp_path / "my-mod"
    write(mod / "cards.yaml", f"kind: cards\ngame: {game_dir}\nstart: deck\ncards:\n"
                              "  - {id: windmill, title: Windmill, cost: 1, copies: 3}\n")
    game = interpreter.load(str(game_dir), mods=[str(mod)])
    assert len(game.program.cards_by_id["windmill"]) == 3
    assert [(x.kind, x.root) for x in game.expansions] == [("mod", str(mod.resolve()))]
    code = cli.main(["simulate", str(game_dir), "--with", str(mod), "--games", "3", "-q", "--check"])
    out = capsys.readouterr()
    assert code == 0 and "completed 3 of 3 games" in out.out


def test_a_trace_and_a_save_record_what_was_laid_and_replay_with_nothing_else(game_dir, tmp_path, capsys):
    expansion(game_dir, "harbour", SHIPS)
    write(game_dir / "scenarios" / "rich.yaml", SCENARIO)
    base = interpreter.load(str(game_dir))
    game = base.with_layers(["harbour"], "rich-start")
    st = play_out(game.new_state(2, seed=4, trace=True))
    path = save_state_trace(tmp_path / "t.jsonl", game, st, agents=["random", "random"], source=str(game_dir))
    header = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    assert header["layers"] == {"expansions": ["harbour"], "scenario": "rich-start", "mods": []}
    assert replay(path) == 0
    mid = game.new_state(2, seed=4)
    restored = base.state_from_json(json.loads(json.dumps(mid.to_json())))
    assert restored.program is game.program and restored.counters == mid.counters


def test_check_and_test_take_an_expansion_folder(game_dir, capsys):
    folder = expansion(game_dir, "harbour", SHIPS, {"tests/ships.yaml": """\
        kind: rules-test
        game: docs-game
        tests:
          - name: a round begins with a ship each
            players: 2
            when: |
              add 1 to round
              call round_begins
            then:
              - all(p.ships == 1 for each p in players)
        """})
    assert cli.main(["check", str(folder)]) == 0
    assert cli.main(["test", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "ok      a round begins with a ship each" in out and "1 passed, 0 failed" in out
    write(folder / "expansion.yaml", (folder / "expansion.yaml").read_text() + "replace:\n  final_scoring: |\n"
                                                                                "    gain 1 shps\n")
    assert cli.main(["check", str(folder)]) == 1
    out = capsys.readouterr().out
    assert "expansion.yaml:13:12: error[N002]: unknown counter 'shps'" in out  # the caret on the word


def test_simulate_draws_a_power_per_seat_and_reports_each_power_win_rate(game_dir, tmp_path, capsys):
    expansion(game_dir, "patrons", POWERS, {"cards/powers.yaml": POWER_CARDS})
    out = tmp_path / "run.json"
    code = cli.main(["simulate", str(game_dir), "-x", "patrons", "--power", "random", "--games", "20", "-q",
                     "--json", str(out)])
    printed = capsys.readouterr().out
    assert code == 0 and "win rate of the seat that played each power" in printed
    rows = {r["power"]: r for r in json.loads(out.read_text())["powers"]}
    assert rows["crown-tax"]["games"] == 20  # two seats, two patrons: the Crown's one power every game
    assert rows["guild-purse"]["games"] + rows["guild-seal"]["games"] == 20
    again = tmp_path / "again.json"
    cli.main(["simulate", str(game_dir), "-x", "patrons", "--power", "random", "--games", "20", "-q",
              "--json", str(again)])
    assert json.loads(again.read_text())["powers"] == json.loads(out.read_text())["powers"]  # drawn from the seed


def test_an_expansion_of_another_game_and_powers_that_name_nothing_are_errors(game_dir):
    expansion(game_dir, "stray", "powers: {zone: pocket, component: token, unique: hue, class: Relic}\n")
    text = (game_dir / "expansions/stray/expansion.yaml").read_text().replace("game: docs-game", "game: other-game")
    (game_dir / "expansions/stray/expansion.yaml").write_text(text)
    with pytest.raises(LoadError) as got:
        interpreter.load(str(game_dir), ["stray"])
    messages = [d.message for d in got.value.report.errors]
    assert "this expansion extends game 'other-game', but it is laid over 'docs-game'" in messages
    assert {"powers: unknown zone 'pocket'", "powers: unknown component kind 'token'",
            "powers: unknown attribute 'hue'", "powers: unknown class 'Relic'"} <= set(messages)


def test_play_says_what_is_laid_and_reads_the_scenario_sheet(game_dir, tmp_path, capsys, monkeypatch):
    import io
    import sys
    expansion(game_dir, "patrons", POWERS, {"cards/powers.yaml": POWER_CARDS})
    write(game_dir / "scenarios" / "rich.yaml", SCENARIO + "text: |\n  The guilds are rich this year.\n")
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    save = tmp_path / "game.jsonl"
    code = cli.main(["play", str(game_dir), "-n", "2", "-x", "patrons", "--scenario", "rich-start",
                     "--power", "1=crown-tax", "--save", str(save)])
    out = capsys.readouterr().out
    assert code == 0
    assert "Expansions: patrons." in out and "player 1 plays with the power Crown tax." in out
    assert "Scenario: A rich start.\n  The guilds are rich this year." in out
    header = json.loads(save.read_text(encoding="utf-8").splitlines()[0])
    assert header["powers"] == {"1": "crown-tax"} and header["layers"]["scenario"] == "rich-start"
    assert cli.main(["play", str(game_dir), "-n", "4", "--scenario", "rich-start"]) == 2
    assert "scenario 'rich-start' is for 2 or 3 players, not 4" in capsys.readouterr().err


def test_an_extension_point_nothing_hooks_on_plays_as_one_whose_hooks_do_nothing(game_dir):
    # the compiler leaves out the call of a point without hooks: the game must not notice
    expansion(game_dir, "idle", "hooks:\n  round_begins: |\n    pass\n")
    base = interpreter.load(str(game_dir))
    plain = play_out(base.new_state(3, seed=5, trace=True), seed=9)
    hooked = play_out(base.new_state(3, seed=5, trace=True, expansions=["idle"]), seed=9)
    assert plain.history == hooked.history and plain.scores() == hooked.scores()
    strip = [{k: v for k, v in e.items() if k not in ("n", "expansions")} for e in plain.trace[1:]]
    assert strip == [{k: v for k, v in e.items() if k not in ("n", "expansions")} for e in hooked.trace[1:]]
def test_an_expansion_board_joins_the_game_s_board(tmp_path):
    from gamekit import CARDS, GAME
    folder = tmp_path / "tiny"
    (folder / "expansions" / "east").mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME.format(procedures="  game: |\n    pass\n"), encoding="utf-8")
    (folder / "cards.yaml").write_text(CARDS, encoding="utf-8")
    (folder / "map.yaml").write_text("kind: board\ngame: tiny\nid: map\nnodes:\n  - {id: a, kind: site}\n"
                                     "  - {id: b, kind: site}\nedges:\n  - [a, b]\n", encoding="utf-8")
    east = folder / "expansions" / "east"
    (east / "expansion.yaml").write_text("kind: expansion\nid: east\ntitle: East\ngame: tiny\n", encoding="utf-8")
    (east / "map.yaml").write_text("kind: board\ngame: tiny\nid: east-map\nnodes:\n  - {id: c, kind: site}\n"
                                   "edges:\n  - [b, c]\n", encoding="utf-8")
    game = interpreter.load(str(folder), expansions=["east"])
    adj = game.program.adj
    assert sorted(adj["b"]) == ["a", "c"] and adj["c"] == ["b"]
    # a node declared twice, and an edge to no node, are errors at their place
    (east / "map.yaml").write_text("kind: board\ngame: tiny\nid: east-map\nnodes:\n  - {id: a, kind: site}\n"
                                   "edges:\n  - [b, zz]\n", encoding="utf-8")
    with pytest.raises(interpreter.LoadError) as err:
        interpreter.load(str(folder), expansions=["east"])
    text = str(err.value)
    assert "node 'a' is declared by two boards ('map' and 'east-map')" in text
    assert "map.yaml:7:9: error[N014]: edge names unknown node 'zz'" in text


def test_requires_of_the_wrong_kind_is_a_located_error(tmp_path, capsys):
    # found by the property test: `requires: 12` was an internal error
    folder = tmp_path / "robots"
    shutil.copytree(FIXTURES / "robots", folder)
    exp = folder / "expansions" / "solo" / "expansion.yaml"
    exp.write_text(exp.read_text(encoding="utf-8").replace("solo: {option: level}", "solo: {option: level}\nrequires: 12"),
                   encoding="utf-8")
    assert cli.main(["check", str(folder)]) == 1
    out, err = capsys.readouterr()
    assert "internal error" not in out + err
    assert "requires: expected a list, found a whole number" in out + err
