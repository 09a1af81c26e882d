"""One `regles check` lays a game's expansions over it in several packs, which read the same
files: each file is loaded (YAML and schema) once, and what it says is said once and the same."""
from __future__ import annotations

from collections import Counter

from interpreter.content import source, validate
from interpreter.rulings.check import check_paths
from interpreter.resources import content_dir

from test_layers import SHIPS, expansion, write


def test_a_check_loads_each_file_once_however_many_packs_read_it(monkeypatch):
    loaded, schema_checked = Counter(), Counter()
    parse_yaml, check_schema = source.parse_yaml, validate.validate

    def counting_parse(path, text):
        loaded[path] += 1
        return parse_yaml(path, text)

    def counting_check(src):
        schema_checked[src.path] += 1
        return check_schema(src)

    monkeypatch.setattr(source, "parse_yaml", counting_parse)
    monkeypatch.setattr("interpreter.content.pack.validate", counting_check)
    packs = []
    report = check_paths([str(content_dir() / "seeders-exodus")], lambda defn, found: packs.append(defn))
    assert report.ok and len(packs) >= 3  # the game, with its expansions, with its solo mode
    base = [p for p in loaded if "/cards/" in p and "/expansions/" not in p]
    assert base and all(loaded[p] == 1 for p in base)
    assert max(loaded.values()) == 1 and max(schema_checked.values()) == 1


LANTERN = """\
    kind: cards
    game: docs-game
    component: card
    cards:
      - id: lantern
        title: Lantern
"""


def test_a_file_read_by_several_packs_says_its_errors_once_where_they_are(game_dir):
    expansion(game_dir, "harbour", SHIPS)
    write(game_dir / "cards" / "extra.yaml", LANTERN + "        title: Lamp\n        copies: many\n")
    report = check_paths([str(game_dir)])
    said = [(d.code, d.position.line) for d in report.diagnostics if d.position.path.endswith("extra.yaml")]
    assert said.count(("Y004", 7)) == 1, said  # the duplicate key, once, on its line
    assert len(said) == len(set(said)) and len(said) >= 2  # the colour too, and nothing twice


def test_a_file_changed_between_two_checks_is_read_again(game_dir):
    cards = write(game_dir / "cards" / "extra.yaml", LANTERN)
    assert check_paths([str(game_dir)]).ok
    cards.write_text(cards.read_text().replace("title: Lantern", "titel: Lantern"), encoding="utf-8")
    report = check_paths([str(game_dir)])
    assert not report.ok and any(d.position.path.endswith("extra.yaml") and d.position.line == 6
                                 for d in report.errors)
