"""The checker's shortcuts against what they replace: the locals of a block found without
walking its expressions, and the values of a class attribute gathered once per check."""
from __future__ import annotations

import pytest

import interpreter
from interpreter.language import checker as C
from interpreter.language import nodes as N
from interpreter.diagnostics import Report
from interpreter.names import fold

BINDERS = (N.Let, N.Choose, N.For, N.Roll, N.Option)


def _trees(defn):
    for card in defn.cards:
        for ab in card.abilities:
            yield ab.tree
    for kw in defn.keywords:
        yield from kw.trees
    for proc in defn.procedures.values():
        yield getattr(proc, "tree", None)
    for sc in defn.scenarios:
        yield getattr(sc, "setup_tree", None)
        for _, tree in getattr(sc, "procedure_trees", {}).values():
            yield tree
    for t in defn.tests:
        yield t.given
        yield t.when


@pytest.mark.parametrize("game_id", ["karman-swap", "seeders-exodus"])
def test_locals_are_found_in_the_same_order_without_walking_expressions(game_id):
    defn = interpreter.load(game_id).program.defn
    trees = [t for t in _trees(defn) if t is not None]
    assert len(trees) > 50
    binders = 0
    for tree in trees:
        plain = [n for n in N.walk(tree) if isinstance(n, BINDERS)]
        quick = [n for n in N.walk(tree, (N.Expr, N.Word)) if isinstance(n, BINDERS)]
        assert [id(n) for n in quick] == [id(n) for n in plain]
        binders += len(plain)
    assert binders > 20


@pytest.mark.parametrize("game_id", ["karman-swap", "seeders-exodus"])
def test_values_of_a_class_attribute_are_those_gathered_each_time(game_id):
    defn = interpreter.load(game_id).program.defn
    check = C.Checker(defn, Report())
    classes = [a for a in defn.attributes.values() if a.type == "class"]
    assert classes
    for attr in classes:
        plain = {fold(x) for x in attr.values} | {k for k, (a, _) in defn.classes.items() if a == attr.name}
        assert check._class_values(attr) == plain
        assert check._class_values(attr) is check._class_values(attr)


def test_the_expressions_in_a_menu_prompt_and_an_action_label_are_checked(tmp_path):
    """Every text with {expressions} is read and checked, and what the checker read is what the
    compiler renders: a menu's prompt and an action's label as much as a log."""
    import textwrap

    import interpreter
    from gamekit import CARDS, make_game
    cards = CARDS.replace("Cash in", "Cash {self.titl}")
    assert cards != CARDS
    with pytest.raises(interpreter.LoadError) as err:
        make_game(tmp_path, textwrap.dedent("""\
            game: |
              choose by players[1] "Pick, {you.nam}":
                option "One":
                  pass
                option "Two":
                  pass
            """), cards)
    text = str(err.value)
    assert "unknown attribute 'nam'" in text
    assert "unknown attribute 'titl'" in text


@pytest.mark.parametrize("closed", [False, True])
def test_a_chain_of_keywords_longer_than_python_s_recursion_limit_is_checked(closed, tmp_path):
    """1,500 keywords, each defined by the next: checked without recursion (once 'the content nests
    too deeply to be read', with no line); a cycle closing the chain is still found, and an open
    chain is refused where it would stop doing anything."""
    from gamekit import CARDS, GAME
    n = 1500
    last = '"Kw0"' if closed else '"when played:\\n  gain 1 coins"'
    lines = ["kind: keywords", "game: tiny", "keywords:"]
    lines += [f'  - {{pattern: "Kw{i}", ability: {f"Kw{i + 1}" if i + 1 < n else last}}}' for i in range(n)]
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME.format(procedures="  game: pass\n"), encoding="utf-8")
    (folder / "cards.yaml").write_text(CARDS, encoding="utf-8")
    (folder / "keywords.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(interpreter.LoadError) as err:
        interpreter.load(str(folder))
    errors = [d.message for d in err.value.report.diagnostics if d.severity == "error"]
    if closed:
        assert len(errors) == 1 and errors[0].startswith("keyword 'Kw0' is defined in terms of itself (Kw0 -> Kw1 -> "), errors
    else:  # an open chain is checked to its end, where a keyword is written as one that does something
        assert errors == [f"keyword 'Kw{n - 2}' is written as another keyword; it would do nothing"], errors


def test_a_keyword_pattern_of_too_many_words_is_refused_at_the_pattern(tmp_path):
    """A pattern is matched word by word: 1,500 words went past Python's recursion limit."""
    from gamekit import CARDS, GAME
    words = " ".join(["Big"] * 1500)
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME.format(procedures="  game: pass\n"), encoding="utf-8")
    (folder / "cards.yaml").write_text(CARDS.replace('"when played: gain 1 coins"', f'"{words}"'), encoding="utf-8")
    (folder / "keywords.yaml").write_text(f'kind: keywords\ngame: tiny\nkeywords:\n  - {{pattern: "{words}", '
                                          f'ability: "when played:\\n  gain 1 coins"}}\n', encoding="utf-8")
    with pytest.raises(interpreter.LoadError) as err:
        interpreter.load(str(folder))
    errors = {(d.position.path.rpartition("/")[2], d.message) for d in err.value.report.diagnostics}
    assert ("keywords.yaml", "a keyword pattern of 1500 words: at most 64") in errors
    assert ("cards.yaml", "unknown keyword 'Big Big Big Big Big Big Big Big Big Big Big Big ...'") in errors


def test_a_keyword_word_spelled_otherwise_than_its_pattern_is_a_warning_where_it_is_written(tmp_path):
    """'Recolte 2' matches 'Récolte X' (words are folded), but the card's face prints 'Recolte'."""
    from gamekit import CARDS, GAME
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME.format(procedures="  game: pass\n"), encoding="utf-8")
    (folder / "cards.yaml").write_text(CARDS.replace('"when played: gain 1 coins"', '"Recolte 2"'), encoding="utf-8")
    (folder / "keywords.yaml").write_text('kind: keywords\ngame: tiny\nkeywords:\n  - {pattern: "Récolte X", '
                                          'params: {X: number}, ability: "when played:\\n  gain X coins"}\n',
                                          encoding="utf-8")
    report = Report()
    interpreter.read_and_check(folder, report)
    found = [(d.severity, d.code, d.position.line, d.message) for d in report.diagnostics if d.code.startswith("K")]
    line = next(i for i, text in enumerate((folder / "cards.yaml").read_text().splitlines(), 1) if "Recolte" in text)
    assert found == [("warning", "K003", line, "'Recolte' is spelled 'Récolte' in keyword 'Récolte X'")]
    # spelled as the pattern: nothing to say
    (folder / "cards.yaml").write_text(CARDS.replace('"when played: gain 1 coins"', '"Récolte 2"'), encoding="utf-8")
    report = Report()
    interpreter.read_and_check(folder, report)
    assert not [d for d in report.diagnostics if d.code.startswith("K")] and report.ok


def test_a_node_attribute_named_like_a_zone_counter_or_property_is_an_error(tmp_path):
    from gamekit import CARDS, GAME
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME.format(procedures="  game: |\n    pass\n"), encoding="utf-8")
    (folder / "cards.yaml").write_text(CARDS, encoding="utf-8")
    (folder / "board.yaml").write_text("""\
kind: board
game: tiny
id: map
nodes:
  - {id: a, kind: site, hand: 2, size: 1, coins: 3, height: 2}
  - {id: b, kind: site}
edges:
  - [a, b]
""", encoding="utf-8")
    with pytest.raises(interpreter.LoadError) as err:
        interpreter.load(str(folder))
    text = str(err.value)
    assert "node attribute 'hand' has the name of a zone" in text
    assert "node attribute 'size' has the name of a property" in text
    assert "node attribute 'coins' has the name of a counter" in text
    assert "'height'" not in text and "3 errors" in text


def test_report_seats_by_names_counters_of_the_players(tmp_path):
    import shutil
    from gamekit import FIXTURES
    folder = tmp_path / "robots"
    shutil.copytree(FIXTURES / "robots", folder)
    game = folder / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("counters: [points]", "counters: [pointz]"),
                    encoding="utf-8")
    with pytest.raises(interpreter.LoadError) as err:
        interpreter.load(str(folder))
    assert "report_seats_by: 'pointz' is no counter of the players" in str(err.value)
    assert "points" in str(err.value)  # the hint


def test_a_text_passed_on_with_braces_or_naming_what_is_unbound_is_an_error_where_it_is_written(tmp_path):
    """A text with {expressions} is filled in only where it is shown (log, fail, a prompt, an
    option's label): written as a value (an argument, a local), its braces would reach the
    players as written, so the check refuses it (T009) at its file:line:col; a shown text
    naming what is not bound there is refused too (N010)."""
    import textwrap

    import interpreter
    from gamekit import make_game
    with pytest.raises(interpreter.LoadError) as err:
        make_game(tmp_path, textwrap.dedent("""\
            game: |
              call say(players[1], "cannot move to {dest}")
              log "{players[1]} has {coins_left}"
            say:
              params: [player, what]
              body: |
                log "{player} {what}"
            """))
    diags = {d.message: d for d in err.value.report.diagnostics}
    [passed] = [d for m, d in diags.items() if "cannot move to {dest}" in m]
    assert passed.code == "T009"
    path = str(tmp_path / "tiny" / "game.yaml")
    lines = (tmp_path / "tiny" / "game.yaml").read_text(encoding="utf-8").splitlines()
    assert passed.position.path == path
    assert lines[passed.position.line - 1][passed.position.column - 1:].startswith('"cannot move to {dest}"')
    [unbound] = [d for m, d in diags.items() if "coins_left" in m]
    assert unbound.code == "N010"
    assert "coins_left" in lines[unbound.position.line - 1]
    # the shipped games load, so have no such error (tests/rulings check them with `regles check`)


def test_names_folded_quickly_are_folded_as_any_name():
    """`fold` of a name of plain ASCII letters (a fast path) is the fold of any name."""
    from interpreter.names import _fold_any
    names = ["Ecluse", "ecluse", "R&D", "Bonus-2", "two words", "Étoile", "ÉCLUSE", "l'Orée", "ab_CD-ef gh", "", "ß",
             "Ǆ", "x\u2019y", "ﬁ", "İ"]
    for name in names:
        assert fold(name) == _fold_any(name), name
    assert fold("Étoile") == fold("etoile") and fold("Bonus-2") == "bonus_2"
