"""A card built once and its ability checked once in a check of several packs
(content.pack.shared_cards, language.check_reuse): what the packs' findings say with the cards
shared and the findings reused is what they say with every pack built and checked whole."""
from __future__ import annotations

import shutil
import textwrap
from collections import Counter

import pytest

from gamekit import FIXTURES
from interpreter.content import pack as pack_module
from interpreter.content.source import shared_loads
from interpreter.language import check_reuse
from interpreter.language import checker as checker_module
from interpreter.language.prose import face_checks as faces_module
from interpreter.language.texts import shared_parses
from interpreter.language.types import Type
from interpreter.resources import content_dir
from interpreter.rulings.check import check_paths


def _checked(path: str) -> tuple:
    """The report and each pack's (definitions, findings) of `regles check PATH`."""
    packs = []
    report = check_paths([path], lambda defn, found: packs.append((defn, found)))
    return report, packs


def _by_place(types: dict) -> Counter:
    return Counter((type(node).__name__, node.pos, t) for node, t in types.items())


def _keyword_uses(found) -> dict:
    return {ab.tree: (use.keyword.pattern, use.keyword.pos, use.bindings) for ab, use in found.keyword_uses.items()}


def _both_ways(path: str, monkeypatch) -> tuple:
    """The check of `path` with reuse (of abilities' findings and faces' verdicts) and without,
    within one block of shared parses (so that both see the same trees), and how many abilities
    the first took from another pack."""
    taken = []
    take = check_reuse.AbilityChecks._take
    monkeypatch.setattr(check_reuse.AbilityChecks, "_take", lambda self, ab, entry: (taken.append(ab),
                                                                                      take(self, ab, entry)))
    with shared_parses(), shared_loads():
        reused = _checked(path)
        with monkeypatch.context() as m:
            m.setattr(checker_module, "ability_checks", lambda checker: None)
            m.setattr(pack_module.SHARED_CARDS, "get", lambda: None)
            m.setattr(faces_module, "face_checks", lambda prose: None)
            whole = _checked(path)
    return reused, whole, len(taken)


def _assert_same(reused, whole) -> None:
    (report_a, packs_a), (report_b, packs_b) = reused, whole
    assert report_a.diagnostics == report_b.diagnostics
    assert len(packs_a) == len(packs_b)
    for (_, a), (_, b) in zip(packs_a, packs_b, strict=True):
        # the same nodes the same types; the few nodes each pack makes anew (the bodies of its
        # extension points), the same types at the same places
        assert {k: t for k, t in a.types.items() if k in b.types} == {k: t for k, t in b.types.items() if k in a.types}
        assert _by_place(a.types) == _by_place(b.types)
        assert a.labels == b.labels
        assert a.function_types == b.function_types
        assert _keyword_uses(a) == _keyword_uses(b)


@pytest.mark.parametrize("game", ["seeders-exodus", "etherium", "karman-swap"])
def test_the_shipped_games_find_the_same_with_each_ability_checked_once(game, monkeypatch):
    reused, whole, taken = _both_ways(str(content_dir() / game), monkeypatch)
    _assert_same(reused, whole)
    assert reused[0].ok
    if game == "seeders-exodus":  # its expansions and its solo mode hold the base game's cards
        assert taken > 300
        # ...each built once: the three packs hold the same card, checked whole each its own
        packs, whole_packs = reused[1], whole[1]
        assert len(packs) == 3
        ids = [{c.id: c for c in defn.cards} for defn, _ in packs]
        assert all(ids[0]["cohorte-solidaire"] is other["cohorte-solidaire"] for other in ids[1:])
        again = [{c.id: c for c in defn.cards} for defn, _ in whole_packs]
        assert again[0]["cohorte-solidaire"] is not again[1]["cohorte-solidaire"]


def _write(path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")


def _cards(path, cards: str) -> None:
    """A file of cards of the docs game, starting in its deck: `cards`, the list under `cards:`
    (its first card on the file's sixth line)."""
    _write(path, "kind: cards\ngame: docs-game\ncomponent: card\nstart: deck\ncards:\n" + textwrap.dedent(cards))


@pytest.fixture
def game_with_expansion(tmp_path):
    """The docs game with cards whose abilities read a function, a keyword, a card and an
    attribute, and an expansion that changes what they read: the function the first one calls
    calls another, which the expansion replaces (the type of both changes, the first's text does
    not); its board's node has the attribute the last one reads (which may then hold a value of
    a node's, so its type is no promise)."""
    root = tmp_path / "docs-game"
    shutil.copytree(FIXTURES / "docs-game", root)
    game = (root / "game.yaml").read_text(encoding="utf-8")
    line = '  market_value: "sum(c.cost for each c in market)"\n'
    assert line in game
    (root / "game.yaml").write_text(game.replace(line, line + '  price: "market_value()"\n'), encoding="utf-8")
    _cards(root / "cards" / "reads.yaml", """\
          - id: banker
            title: Banker
            abilities:
              - |
                when played:
                  gain price() coins
          - id: miller
            title: Miller
            abilities:
              - "Income 2"
              - |
                when played:
                  move card("farm") to discard
          - id: mason
            title: Mason
            abilities:
              - |
                when played:
                  gain self.cost coins
        """)
    folder = root / "expansions" / "changes"
    _write(folder / "expansion.yaml", """\
        kind: expansion
        game: docs-game
        id: changes
        title: changes
        players: {max: 5}
        replace:
          market_value: "count(market) > 2"
        """)
    _write(folder / "keywords.yaml", """\
        kind: keywords
        game: docs-game
        keywords:
          - pattern: "Income X - Y"
            params: {X: number, Y: class}
            text: "Gain X coins for each Y card at the start of each round."
            ability: |
              whenever round_start:
                gain X * count(each c in in_play(you) where c is Y) coins
        """)
    _write(folder / "board.yaml", """\
        kind: board
        game: docs-game
        id: isle
        title: An isle
        nodes:
          - {id: isle, kind: city, cost: 2}
        """)
    return root


def test_an_ability_is_checked_again_where_an_expansion_changes_what_it_reads(game_with_expansion, monkeypatch):
    reused, whole, taken = _both_ways(str(game_with_expansion), monkeypatch)
    _assert_same(reused, whole)
    report, packs = reused
    assert len(packs) == 2
    # the function the Banker gains by is a condition in the expansion's pack only (the function
    # it calls is): its ability, clean in the game alone, is in error there, at its own line
    errors = [(d.position.path.rsplit("/", 1)[-1], d.position.line) for d in report.errors]
    assert errors == [("reads.yaml", 11)]
    assert taken > 0  # the abilities reading nothing the expansion changes were taken again
    (_, base), (_, laid) = packs
    cost = {t for node, t in base.types.items() if type(node).__name__ == "Attr" and node.name == "cost"}
    assert cost == {Type.NUMBER}
    assert {t for node, t in laid.types.items() if type(node).__name__ == "Attr" and node.name == "cost"} == {Type.ANY}


def test_an_ability_is_checked_again_where_a_declaration_it_reads_differs(game_with_expansion, monkeypatch):
    # no layer changes a counter the game declares; the check of each pack must still not take
    # what an ability found where any declaration it read differs: the expansion's pack is read
    # here with the players' coins made a counter of the game
    import interpreter
    from interpreter.scopes import Scope

    read = interpreter.read_pack

    def read_changed(root, report, extra=(), layers=(), scenario=None, tests=True):
        defn = read(root, report, extra, layers, scenario, tests)
        if layers:
            coins = defn.counters["coins"]
            defn.counters["coins"] = type(coins)(**{**coins.__dict__, "scope": Scope.of("game")})
        return defn

    monkeypatch.setattr(interpreter, "read_pack", read_changed)
    _cards(game_with_expansion / "cards" / "coins.yaml", """\
          - id: payer
            title: Payer
            abilities:
              - |
                when played:
                  gain 1 coins to you
        """)
    reused, whole, taken = _both_ways(str(game_with_expansion), monkeypatch)
    _assert_same(reused, whole)
    errors = {(d.position.path.rsplit("/", 1)[-1], d.position.line) for d in reused[0].errors}
    assert ("coins.yaml", 11) in errors
    assert taken > 0


def test_a_face_is_written_again_where_an_expansion_changes_its_words(tmp_path, monkeypatch):
    # the Banker's prose fits its face in the game alone; the expansion's long word for coins
    # makes it too long in the expansion's pack only: its verdict must not be taken again there
    root = tmp_path / "docs-game"
    shutil.copytree(FIXTURES / "docs-game", root)
    _cards(root / "cards" / "words.yaml", """\
          - id: banker
            title: Banker
            abilities:
              - |
                when played:
                  gain 2 coins
                  for each p in players:
                    gain 1 coins to p
          - id: miner
            title: Miner
            abilities:
              - |
                when played:
                  gain 1 points
        """)
    long = "shiny golden coin{} of the old northern kingdom by the sea where the kings of old kept their hoards"
    _write(root / "expansions" / "words" / "expansion.yaml", f"""\
        kind: expansion
        game: docs-game
        id: words
        title: words
        vocabulary:
          en:
            coins: ["{long.format('')}", "{long.format('s')}"]
        """)
    taken = []
    alike = check_reuse.FaceChecks.alike_entry

    def counted(self, entry, prose, ab):  # an earlier pack's verdict on the face of `ab`, taken again
        found = alike(self, entry, prose, ab)
        if found:
            taken.append(ab)
        return found

    monkeypatch.setattr(check_reuse.FaceChecks, "alike_entry", counted)
    reused, whole, _ = _both_ways(str(root), monkeypatch)
    _assert_same(reused, whole)
    warnings = [(d.code, d.position.path.rsplit("/", 1)[-1], d.position.line) for d in reused[0].diagnostics]
    assert warnings == [("W002", "words.yaml", 9)]
    # the Miner's face, which reads no coins, was taken again; the Banker's was written again
    texts = [str(ab.text) for ab in taken]
    assert any("gain 1 points" in t for t in texts) and not any("gain 2 coins" in t for t in texts)


def test_a_rules_test_is_checked_again_where_an_expansion_changes_what_it_reads(game_with_expansion, monkeypatch):
    # the game's rulings are checked in the game and again with its expansion laid over it: the
    # one that reads the function the expansion replaces (a number in the game, a condition with
    # the expansion) is in error in the expansion's pack only; the other is taken again there. The
    # expansion raises the players to 5: a test of 5 players is refused in the game alone
    _write(game_with_expansion / "tests" / "rulings.yaml", """\
        kind: rules-test
        game: docs-game
        tests:
          - name: the market is worth something
            players: 2
            when: |
              gain 1 coins
            then:
              - market_value() + 1 > 0
          - name: coins are gained
            players: 5
            when: |
              gain 2 coins
            then:
              - you.coins >= 2
        """)
    tests = []
    check = check_reuse.AbilityChecks.check_test
    monkeypatch.setattr(check_reuse.AbilityChecks, "check_test", lambda self, t: (tests.append(t.name),
                                                                                 check(self, t)))
    taken = []
    take = check_reuse.AbilityChecks._take
    monkeypatch.setattr(check_reuse.AbilityChecks, "_take",
                        lambda self, item, entry: (taken.append(getattr(item, "name", None)), take(self, item, entry)))
    with shared_parses(), shared_loads():
        reused = _checked(str(game_with_expansion))
        with monkeypatch.context() as m:
            m.setattr(checker_module, "ability_checks", lambda checker: None)
            m.setattr(pack_module.SHARED_CARDS, "get", lambda: None)
            whole = _checked(str(game_with_expansion))
    _assert_same(reused, whole)
    assert tests.count("coins are gained") == 2  # checked in both packs, once in full
    assert "coins are gained" in taken and "the market is worth something" not in taken
    errors = [(d.code, d.position.path.rsplit("/", 1)[-1], d.position.line) for d in reused[0].errors]
    assert ("D001", "rulings.yaml", 11) in errors  # 5 players: the game alone is for fewer
    assert any(name == "rulings.yaml" and line == 9 for _, name, line in errors)  # the function, a condition
    assert not any(name == "rulings.yaml" and line == 14 for _, name, line in errors)


def test_a_noted_table_is_read_whole_once_per_pack_and_copies_as_its_kind_does():
    """A table read whole is copied once per pack, so that the logs reading it hold one value
    (and are one log, `interned`); its own `copy` is still dict's and list's."""
    reads = check_reuse.Reads()
    reads.log = {}
    table = check_reuse.Noted("zones", {"deck": 1, "hand": 2}, reads)
    listed = check_reuse.NotedList("windows", ["main"], reads)
    assert len(table) == 2 and list(listed) == ["main"]
    first = dict(reads.log)
    reads.log = {}
    assert len(table) == 2 and list(listed) == ["main"]
    assert [id(v) for v in reads.log.values()] == [id(v) for v in first.values()]
    store = {}
    assert check_reuse.interned(store, first) is check_reuse.interned(store, dict(reads.log))
    assert table.copy() == {"deck": 1, "hand": 2} and listed.copy() == ["main"]
