"""An expansion or scenario file that does not read is reported where it goes wrong, never
hidden behind "no expansion 'x'" (content.layers): `regles check` of the game, loading the
game with it, and expansions that require it all show the file's own error."""
from __future__ import annotations

from pathlib import Path

import pytest

import interpreter
from interpreter import LoadError
from interpreter.rulings.check import check_paths

HEAD = "kind: expansion\ngame: docs-game\nid: harbour\ntitle: Harbour\n"
SHIPS = "counters:\n  ships: {scope: player, supply: 20}\n"

# (what is wrong, the expansion file's text, where its error is, the start of its message)
BROKEN = [
    ("a YAML syntax error", HEAD + SHIPS + "notes: a: b\n", "7:9", "YAML syntax error: mapping values"),
    ("bytes that are not UTF-8", (HEAD + SHIPS + "notes: caf\udce9\n"), "7:11", "file is not valid UTF-8"),
    ("a byte order mark in mid-file", HEAD + "\ufeffcounters:\n  ships: {scope: player}\n", "5:1",
     "YAML syntax error: a byte order mark (U+FEFF)"),
    ("an alias inside the value it names", HEAD + "notes: &loop [a, *loop]\n", "5:18", "YAML error: alias"),
    ("a complex key", HEAD + SHIPS + "? [a, b]\n: c\n", "7:3", "a key must be a text"),
    ("a control character", HEAD + SHIPS + "notes: [a, b]\ndescription: bell \x07 here\n", "8:19",
     "file holds a control character (U+0007)"),
    ("no id", HEAD.replace("id: harbour\n", "") + SHIPS, "1:1", "missing required key 'id'"),
]


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    return path


def said(report) -> list:
    return [f"{Path(d.position.path).name}:{d.position.line}:{d.position.column}: {d.message}"
            for d in report.sorted()]


@pytest.mark.parametrize("what, text, where, message", BROKEN, ids=[b[0] for b in BROKEN])
def test_checking_the_game_shows_the_expansion_file_s_own_error(game_dir, what, text, where, message):
    write(game_dir / "expansions" / "harbour" / "expansion.yaml", text)
    found = said(check_paths([str(game_dir)]))
    assert any(line.startswith(f"expansion.yaml:{where}: {message}") for line in found), found
    assert not any("no expansion" in line for line in found), found


@pytest.mark.parametrize("what, text, where, message", BROKEN, ids=[b[0] for b in BROKEN])
def test_loading_the_game_with_it_or_with_what_requires_it_shows_its_error(game_dir, what, text, where,
                                                                          message):
    write(game_dir / "expansions" / "harbour" / "expansion.yaml", text)
    write(game_dir / "expansions" / "quay" / "expansion.yaml",
          "kind: expansion\ngame: docs-game\nid: quay\ntitle: Quay\nrequires: [harbour]\n")
    for chosen in (["harbour"], ["quay"]):
        with pytest.raises(LoadError) as exc:
            interpreter.load(str(game_dir), chosen)
        found = said(exc.value.report)
        assert found[0].startswith(f"expansion.yaml:{where}: {message}"), found


def test_the_other_files_of_an_expansion_that_does_not_read_add_no_errors_of_their_own(game_dir):
    folder = game_dir / "expansions" / "harbour"
    write(folder / "expansion.yaml", HEAD + SHIPS + "notes: [\n")
    write(folder / "cards" / "ships.yaml", "kind: cards\ngame: docs-game\nstart: deck\ncards:\n"
                                           "  - {id: sloop, title: Sloop, abilities: ['when played: gain 1 ships']}\n")
    found = said(check_paths([str(game_dir)]))
    assert [line.split(": YAML")[0] for line in found] == ["expansion.yaml:7:9"], found  # no 'unknown counter'


def test_an_unknown_expansion_is_still_unknown(game_dir):
    write(game_dir / "expansions" / "harbour" / "expansion.yaml", HEAD + "notes: [\n")
    with pytest.raises(ValueError, match="no expansion 'quay'"):
        interpreter.load(str(game_dir), ["quay"])


SCENARIO = "kind: scenario\ngame: docs-game\nid: rich-start\ntitle: A rich start\n"


@pytest.mark.parametrize("folder", ["scenarios", "expansions/harbour/scenarios"])
def test_a_scenario_file_that_does_not_read_shows_its_own_error(game_dir, folder):
    write(game_dir / "expansions" / "harbour" / "expansion.yaml", HEAD + SHIPS)
    write(game_dir / folder / "rich.yaml", SCENARIO + "options: {short: true\n")
    with pytest.raises(LoadError) as exc:
        interpreter.load(str(game_dir), scenario="rich-start")
    found = said(exc.value.report)
    assert found and found[0].startswith("rich.yaml:5:10: YAML syntax error: '{' never closed"), found
    with pytest.raises(ValueError, match="no scenario 'poor-start'"):
        interpreter.load(str(game_dir), scenario="poor-start")


def test_a_mod_whose_expansion_file_does_not_read_is_reported(game_dir, tmp_path):
    mod = tmp_path / "my-mod"
    write(mod / "expansion.yaml", f"kind: expansion\ngame: {game_dir}\nid: my-mod\ntitle: Mine\nnotes: [\n")
    found = said(check_paths([str(mod)]))
    assert found and found[0].startswith("expansion.yaml:5:9: YAML syntax error"), found
    with pytest.raises(LoadError) as exc:
        interpreter.load(str(game_dir), mods=[str(mod)])
    assert said(exc.value.report)[0].startswith("expansion.yaml:5:9"), said(exc.value.report)


def test_an_expansion_in_a_folder_of_another_name_is_found_by_the_id_its_text_shows(game_dir):
    write(game_dir / "expansions" / "harbour-v2" / "expansion.yaml", HEAD + SHIPS + "notes: a: b\n")
    with pytest.raises(LoadError) as exc:
        interpreter.load(str(game_dir), ["harbour"])
    assert said(exc.value.report)[0].startswith("expansion.yaml:7:9: YAML syntax error"), said(exc.value.report)
    assert [line.split(": YAML")[0] for line in said(check_paths([str(game_dir)]))] == ["expansion.yaml:7:9"]
