"""`regles balance`: a baseline written, the same content passing against it, a deliberately
unbalancing change failing, and a baseline that does not read said so."""
from __future__ import annotations

import json
import shutil

import pytest

from test_compare import run_cli, write_duel


@pytest.fixture
def duel_copy(tmp_path):
    return write_duel(tmp_path / "duel")


def test_unchanged_content_passes_and_an_unbalancing_change_fails(duel_copy, tmp_path, capsys):
    base = tmp_path / "base.json"
    status, out, err = run_cli(capsys, "balance", duel_copy, "--write-baseline", str(base), "--games", "300",
                               "--card", "crown", "-q")
    assert status == 0, err
    data = json.loads(base.read_text(encoding="utf-8"))
    assert data["format"] == "regles balance baseline" and len(data["games"]) == 300
    assert data["settings"]["games"] == 300 and "crown" in data["cards"]

    report = tmp_path / "same.json"
    status, out, err = run_cli(capsys, "balance", duel_copy, "--baseline", str(base), "-q", "--json", str(report))
    assert status == 0, err
    figures = json.loads(report.read_text(encoding="utf-8"))["figures"]
    assert {f["figure"] for f in figures} >= {"win rate, seat 1", "win rate, seat 2", "decisions per game"}
    assert all(not f["moved"] and f["before"] == f["now"] for f in figures)
    assert "0 of 4 figures moved" in out

    cards = tmp_path / "duel" / "cards.yaml"  # the crown made worth as little as a copper
    cards.write_text(cards.read_text(encoding="utf-8").replace("value: 5", "value: 1"), encoding="utf-8")
    status, out, err = run_cli(capsys, "balance", duel_copy, "--baseline", str(base), "-q", "--json", str(report))
    assert status == 1, err
    moved = {f["figure"]: f for f in json.loads(report.read_text(encoding="utf-8"))["figures"] if f["moved"]}
    assert moved["win rate, seat 1"]["difference"] > 0.15 and moved["win rate, seat 2"]["difference"] < -0.15
    assert "MOVED" in out and "win rate, seat 1" in out


@pytest.mark.parametrize("text,message", [
    ("not json", "Expecting value"),
    ('{"format": "something else"}', "not a balance baseline"),
    ('{"format": "regles balance baseline", "version": 1, "game": "other", "settings": {}, "games": [], '
     '"cards": {}}', "a baseline of 'other', not of 'duel'"),
    ('{"format": "regles balance baseline", "version": 1, "game": "duel", "settings": {}, "games": [[0, "x", 1, []]], '
     '"cards": {}}', "a game row that does not read"),
    ('{"format": "regles balance baseline", "version": 9, "game": "duel"}', "write it again with --write-baseline"),
    ('{"format": "regles balance baseline", "version": 1, "game": "duel", "settings": {"players": 99, "seed": 1, '
     '"games": 1, "agents": ["random"], "options": {}, "powers": {}, "expansions": [], "scenario": null, "mods": []}, '
     '"games": [[0, [0], 5, []]], "cards": {}}', "its settings do not read (players 99"),
    ('{"format": "regles balance baseline", "version": 1, "game": "duel", "settings": {"players": 2, "seed": 1, '
     '"games": 1, "agents": 7, "options": {}, "powers": {}, "expansions": [], "scenario": null, "mods": []}, '
     '"games": [[0, [0], 5, []]], "cards": {}}', "its settings do not read"),
])
def test_a_baseline_that_does_not_read_is_said_so(duel_copy, tmp_path, capsys, text, message):
    bad = tmp_path / "bad.json"
    bad.write_text(text, encoding="utf-8")
    status, _, err = run_cli(capsys, "balance", duel_copy, "--baseline", str(bad), "-q")
    assert status == 2 and message in err


def test_a_baseline_of_other_layers_is_refused(duel_copy, tmp_path, capsys):
    base = tmp_path / "base.json"
    assert run_cli(capsys, "balance", duel_copy, "--write-baseline", str(base), "--games", "10", "-q")[0] == 0
    mod = tmp_path / "spare.yaml"
    mod.write_text("kind: cards\ngame: duel\ncards:\n  - {id: spare, title: Spare}\n", encoding="utf-8")
    status, _, err = run_cli(capsys, "balance", duel_copy, "--with", str(mod), "--baseline", str(base), "-q")
    assert status == 2 and "it was written with no expansion, scenario, mod or value set" in err
