"""Rules files (`kind: rules`): procedures and functions of a game in files of their own,
merged into the game as if its game file declared them."""
from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

import interpreter
from interpreter.rulings.check import check_paths

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "docs-game"


@pytest.fixture
def pack(tmp_path, monkeypatch) -> Path:
    shutil.copytree(FIXTURE, tmp_path / "docs-game")
    (tmp_path / "docs-game" / "rules").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path / "docs-game"


def write(path: Path, text: str) -> None:
    path.write_text(textwrap.dedent(text), encoding="utf-8")


def diagnostics(target: str) -> list[tuple[str, int, int, str, str]]:
    report = check_paths([target])
    return [(d.position.path, d.position.line, d.position.column, d.code, d.message)
            for d in report.diagnostics]


def test_a_rules_file_adds_its_procedures_and_functions_to_the_game(pack):
    write(pack / "rules" / "bonus.yaml", """\
        kind: rules
        game: docs-game
        title: Bonuses
        procedures:
          bonus:
            params: [p]
            body: |
              gain twice(1) coins to p
        functions:
          twice: {params: [n], body: "n * 2"}
        """)
    assert diagnostics("docs-game") == []
    game = interpreter.load(str(pack))
    assert "bonus" in game.program.defn.procedures and "twice" in game.program.defn.functions
    assert game.program.defn.procedures["bonus"].pos.path.endswith("rules/bonus.yaml")


def test_a_procedure_declared_twice_is_an_error_at_its_second_place(pack):
    write(pack / "rules" / "again.yaml", """\
        kind: rules
        game: docs-game
        procedures:
          fresh: |
            pass
          setup: |
            pass
        """)
    write(pack / "rules" / "twice.yaml", """\
        kind: rules
        game: docs-game
        procedures:
          fresh: |
            pass
        """)
    found = diagnostics("docs-game")
    assert [(Path(p).name, line, col, code) for p, line, col, code, _ in found] == [
        ("again.yaml", 6, 3, "N013"), ("twice.yaml", 4, 3, "N013")]
    assert "procedure 'setup' is declared already, at docs-game/game.yaml:" in found[0][4]
    assert "procedure 'fresh' is declared already, at docs-game/rules/again.yaml:4" in found[1][4]


def test_a_rules_file_naming_another_game_is_an_error(pack):
    write(pack / "rules" / "other.yaml", """\
        kind: rules
        game: no-such-game
        procedures:
          fresh: |
            pass
        """)
    found = diagnostics("docs-game")
    assert [(Path(p).name, line, col, code) for p, line, col, code, _ in found] == [("other.yaml", 2, 7, "N012")]


def test_a_rules_file_alone_naming_an_unknown_game_is_an_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "lone.yaml", """\
        kind: rules
        game: no-such-game
        procedures:
          fresh: |
            pass
        """)
    found = diagnostics("lone.yaml")
    assert [(p, line, col, code) for p, line, col, code, _ in found] == [("lone.yaml", 2, 7, "N012")]
    assert "unknown game 'no-such-game'" in found[0][4]
