"""docs/rulings.md says what the content rules and authors (it is generated from it)."""
import importlib.util
import subprocess
import sys
import textwrap

from gamekit import ROOT


def test_rulings_page_is_in_step_with_the_content():
    r = subprocess.run([sys.executable, str(ROOT / "docs" / "gen_rulings.py"), "--check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def _gen_rulings():
    spec = importlib.util.spec_from_file_location("gen_rulings_under_test", ROOT / "docs" / "gen_rulings.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")


def test_rulings_page_lists_the_rulings_and_authored_items_of_each_game(tmp_path, monkeypatch):
    content = tmp_path / "content"
    _write(content / "alpha" / "game.yaml", """\
        kind: game
        id: alpha
        title: Alpha Quest
        notes:
          - "ruling (AQ-1): ties go to the youngest player."
        """)
    _write(content / "alpha" / "cards" / "cards.yaml", """\
        kind: cards
        game: alpha
        cards:
          - {id: sun, title: Sun Card, authored: "its value"}
          - {id: moon, title: Moon Card}
          - {id: star, title: Star Card, authored: true}
        """)
    _write(content / "alpha" / "keywords.yaml", """\
        kind: keywords
        game: alpha
        keywords:
          - {pattern: "Swift", authored: "the cost | and the range"}
        """)
    _write(content / "beta" / "game.yaml", "kind: game\nid: beta\ntitle: Beta\n")
    _write(content / "beta" / "board.yaml", "kind: board\ngame: beta\nauthored: the whole board\n")
    _write(content / "gamma" / "cards.yaml", "kind: cards\ngame: gamma\ncards: [{id: x, authored: yes}]\n")
    gen = _gen_rulings()
    monkeypatch.setattr(gen, "CONTENT", content)
    text = gen.page()
    alpha, beta = text.index("## Alpha Quest"), text.index("## Beta")
    assert alpha < beta  # games in folder order
    alpha_part, beta_part = text[alpha:beta], text[beta:]
    assert "Game folder: `content/alpha/`." in alpha_part
    assert "### Rulings\n\n- ruling (AQ-1): ties go to the youngest player.\n" in alpha_part
    assert "| `cards/cards.yaml` | Sun Card | its value |" in alpha_part
    assert "| `cards/cards.yaml` | Star Card | authored |" in alpha_part
    assert "| `keywords.yaml` | Swift | the cost / and the range |" in alpha_part
    assert "Moon Card" not in text  # nothing authored on it
    # a game without notes has no rulings section; a whole authored file is listed as such
    assert "### Rulings" not in beta_part
    assert "| `board.yaml` | (the whole file) | the whole board |" in beta_part
    # a folder without a game file is no game
    assert "gamma" not in text
    # nothing of the real content
    assert "Karman" not in text and "Seeders" not in text


def test_a_card_files_notes_are_rulings_of_its_game_or_expansion(tmp_path, monkeypatch):
    content = tmp_path / "content"
    _write(content / "alpha" / "game.yaml", "kind: game\nid: alpha\ntitle: Alpha Quest\n")
    _write(content / "alpha" / "cards" / "peoples.yaml", """\
        kind: cards
        game: alpha
        notes: ["ruling (AQ-2): the elves start with one guide."]
        cards: [{id: elf, title: Elf}]
        """)
    _write(content / "alpha" / "expansions" / "more" / "expansion.yaml",
           "kind: expansion\ngame: alpha\nid: more\ntitle: More\n")
    _write(content / "alpha" / "expansions" / "more" / "cards" / "powers.yaml", """\
        kind: cards
        game: alpha
        notes: ["ruling (AQ-3): the power costs 3."]
        cards: [{id: p, title: P}]
        """)
    gen = _gen_rulings()
    monkeypatch.setattr(gen, "CONTENT", content)
    text = gen.page()
    base, more = text[:text.index("### Expansion: More")], text[text.index("### Expansion: More"):]
    assert "- (`cards/peoples.yaml`) ruling (AQ-2): the elves start with one guide." in base
    assert "AQ-3" not in base
    assert "- (`expansions/more/cards/powers.yaml`) ruling (AQ-3): the power costs 3." in more


def test_rulings_entries_are_listed_as_the_notes_they_replace(tmp_path, monkeypatch):
    content = tmp_path / "content"
    _write(content / "alpha" / "game.yaml", """\
        kind: game
        id: alpha
        title: Alpha Quest
        notes: ["authored: the board."]
        rulings:
          - {rules: [AQ-1, AQ-2], text: "ties go to the youngest player."}
          - {rules: [AQ-3], authored: true, text: "the box has no dice."}
          - {text: "a turn always ends."}
        """)
    gen = _gen_rulings()
    monkeypatch.setattr(gen, "CONTENT", content)
    assert "### Rulings\n\n- authored: the board.\n- ruling (AQ-1, AQ-2): ties go to the youngest player.\n" \
           "- ruling (AQ-3, authored): the box has no dice.\n- ruling: a turn always ends.\n" in gen.page()


def _pack(tmp_path, monkeypatch, head: str):
    import shutil
    shutil.copytree(ROOT / "tests" / "fixtures" / "docs-game", tmp_path / "docs-game")
    game = tmp_path / "docs-game" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + textwrap.dedent(head), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "docs-game"


def test_regles_explain_shows_the_rulings_that_name_a_card(tmp_path, monkeypatch, capsys):
    from interpreter import cli
    _pack(tmp_path, monkeypatch, """\
        rulings:
          - {rules: [DG-1], text: "a Farm bought in the last round still scores."}
          - {text: "nothing else is ruled."}
        """)
    assert cli.main(["explain", "docs-game", "Farm"]) == 0
    out = capsys.readouterr().out
    assert "Rulings and notes that name it:\n  - ruling (DG-1): a Farm bought in the last round still scores." in out
    assert "nothing else is ruled" not in out


def test_a_ruling_written_as_a_note_is_still_read_with_a_warning(tmp_path, monkeypatch, capsys):
    from interpreter import cli
    _pack(tmp_path, monkeypatch, """\
        notes:
          - "ruling (DG-1): a Farm bought in the last round still scores."
          - "authored: a free note."
        """)
    assert cli.main(["explain", "docs-game", "Farm"]) == 0
    assert "  - ruling (DG-1): a Farm bought in the last round still scores." in capsys.readouterr().out
    cli.main(["check", "docs-game"])
    out = capsys.readouterr().out
    assert "warning[W003]: a ruling written as a note" in out and "write it under 'rulings:'" in out
    assert out.count("warning[") == 1


def test_regles_explain_shows_the_rulings_of_the_card_s_own_file(tmp_path, monkeypatch, capsys):
    from interpreter import cli
    folder = _pack(tmp_path, monkeypatch, "")
    market = folder / "cards" / "market.yaml"
    market.write_text(market.read_text(encoding="utf-8").replace(
        "start: deck\n", "start: deck\nrulings:\n  - {rules: [DG-1], text: \"a Farm costs what its card prints.\"}\n"),
        encoding="utf-8")
    assert cli.main(["explain", "docs-game", "Farm"]) == 0
    assert "  - ruling (DG-1): a Farm costs what its card prints." in capsys.readouterr().out
