"""What a check keeps for the next one in the same process, as a language server checks a
pack again at each edit: the files loaded (`source.KEPT_LOADS`, by their bytes), the trees
of rules texts (`texts.KEPT_TREES`) and, for a check made to be made again
(`check_paths(..., again=True)`), what the checks of abilities and rules tests found
(`check_reuse.KEPT_CHECKS`, taken again where what they read is alike). Only the files and
texts an edit changed are read again, and what a check says is what a check from scratch says."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gamekit import FIXTURES
from interpreter.content import source
from interpreter.content.source import edited_texts
from interpreter.language import check_reuse, texts
from interpreter.rulings.check import check_paths

ROOT = Path(__file__).resolve().parents[2]


def _said(report) -> list:
    return [(d.code, d.position, d.message, d.hint) for d in report.sorted()]


def _counting(monkeypatch) -> list:
    parsed = []
    real = texts.parse

    def parse(text, start, where=None, path="<text>"):
        parsed.append(text)
        return real(text, start, where, path)
    monkeypatch.setattr(texts, "parse", parse)
    return parsed


def _nothing_kept(monkeypatch) -> None:
    monkeypatch.setattr(texts, "KEPT_TREES", {})
    monkeypatch.setattr(source, "KEPT_LOADS", {})
    monkeypatch.setattr(check_reuse, "KEPT_CHECKS", {})


def _from_scratch(paths, monkeypatch) -> list:
    _nothing_kept(monkeypatch)
    return _said(check_paths(paths))


def _found(report_and_packs) -> list:
    """What each pack's check found, by place: the types of expressions, the parts of labels
    (their texts, and the sources of their expressions: a tree parsed anew is another object),
    function types."""
    return [(sorted((type(node).__name__, node.pos.path, node.pos.line, node.pos.column, str(t))
                    for node, t in found.types.items()),
             {k: [part if isinstance(part, str) else (part.source, part.error is None) for part in parts]
              for k, parts in found.labels.items()},
             found.function_types)
            for _, found in report_and_packs if found is not None]


def _check(paths) -> tuple:
    """A check as a language server makes it, to check again after an edit."""
    packs = []
    report = check_paths(paths, lambda defn, found: packs.append((defn, found)), again=True)
    return report, packs


@pytest.mark.parametrize("folder", ["content/karman-swap", "content/seeders-exodus", "content/etherium",
                                    "tests/corpus"])
def test_a_check_again_says_what_a_check_from_scratch_says(folder, monkeypatch):
    """Nothing a check does to what it loaded or parsed shows in the next one: the same
    files, checked again with what the first kept, give the same diagnostics and sources."""
    paths = [str(ROOT / folder)]
    _nothing_kept(monkeypatch)
    first, first_packs = _check(paths)
    assert source.KEPT_LOADS and texts.KEPT_TREES and check_reuse.KEPT_CHECKS
    again, again_packs = _check(paths)
    assert _said(again) == _said(first) == _from_scratch(paths, monkeypatch)
    assert again.sources == first.sources and again.checked == first.checked
    assert _found(again_packs) == _found(first_packs)  # what an editor shows of the types


def test_a_check_again_checks_again_only_what_reads_an_edited_declaration(tmp_path, monkeypatch):
    """Every clean ability and rules test is taken again from the check before, but those that
    read a declaration the edit changed: the function the Banker gains by becomes a condition."""
    game = tmp_path / "docs-game"
    shutil.copytree(FIXTURES / "docs-game", game)
    game_file = game / "game.yaml"
    line = '  market_value: "sum(c.cost for each c in market)"\n'
    text = game_file.read_text(encoding="utf-8")
    assert line in text
    game_file.write_text(text.replace(line, line + '  price: "market_value()"\n'), encoding="utf-8")
    (game / "cards" / "reads.yaml").write_text(
        "kind: cards\ngame: docs-game\ncomponent: card\nstart: deck\ncards:\n"
        "  - id: banker\n    title: Banker\n    abilities:\n      - |\n        when played:\n"
        "          gain price() coins\n"
        "  - id: mason\n    title: Mason\n    abilities:\n      - |\n        when played:\n"
        "          gain self.cost coins\n", encoding="utf-8")
    _nothing_kept(monkeypatch)
    checked = []
    real = check_reuse.AbilityChecks._check
    monkeypatch.setattr(check_reuse.AbilityChecks, "_check",
                        lambda self, item, *rest: (checked.append(item), real(self, item, *rest)))
    first = check_paths([str(game)], again=True)
    assert first.ok and checked
    checked.clear()
    again = check_paths([str(game)], again=True)
    assert not checked and _said(again) == _said(first)  # nothing edited: nothing checked again
    edited = game_file.read_text(encoding="utf-8").replace(line, '  market_value: "count(market) > 2"\n')
    with edited_texts({str(game_file): edited}):
        got = check_paths([str(game)], again=True)
        texts_checked = [str(getattr(item, "text", "")) for item in checked]
        want = _from_scratch([str(game)], monkeypatch)
    assert _said(got) == want
    assert any(d[1].path.endswith("reads.yaml") and d[1].line == 11 for d in want)  # the Banker, in error
    assert any("price()" in t for t in texts_checked) and not any("self.cost" in t for t in texts_checked)


def test_a_file_edited_is_loaded_again_and_the_others_are_not(tmp_path, monkeypatch):
    game = tmp_path / "docs-game"
    shutil.copytree(FIXTURES / "docs-game", game)
    cards = game / "cards" / "market.yaml"
    monkeypatch.setattr(source, "KEPT_LOADS", {})
    loaded = []
    real = source._load_text
    monkeypatch.setattr(source, "_load_text", lambda path, text: loaded.append(path) or real(path, text))
    check_paths([str(game)])
    assert len(loaded) > 1
    loaded.clear()
    with edited_texts({str(cards): cards.read_text(encoding="utf-8").replace('"Income 1"', '"Incom 1"', 1)}):
        report = check_paths([str(game)])
    assert len(loaded) == 1 and loaded[0].endswith("market.yaml")
    assert any("unknown keyword 'Incom 1'" in d.message for d in report.errors)


def test_a_check_that_reads_more_bytes_than_are_kept_keeps_no_file(tmp_path, monkeypatch):
    game = tmp_path / "docs-game"
    shutil.copytree(FIXTURES / "docs-game", game)
    monkeypatch.setattr(source, "KEPT_LOADS", {})
    check_paths([str(game)])
    read = sum(len(raw) for _, raw in source.KEPT_LOADS)
    assert read
    monkeypatch.setattr(source, "KEPT_BYTES", read - 1)
    check_paths([str(game)])
    assert not source.KEPT_LOADS


def test_a_check_again_parses_only_the_texts_an_edit_changed_or_moved(tmp_path, monkeypatch):
    game = tmp_path / "docs-game"
    shutil.copytree(FIXTURES / "docs-game", game)
    cards = game / "cards" / "market.yaml"
    text = cards.read_text(encoding="utf-8")
    monkeypatch.setattr(texts, "KEPT_TREES", {})
    monkeypatch.setattr(source, "KEPT_LOADS", {})
    parsed = _counting(monkeypatch)
    first = check_paths([str(game)])
    first_parsed = len(parsed)
    assert first_parsed and texts.KEPT_TREES
    parsed.clear()
    again = check_paths([str(game)])
    assert not parsed and _said(again) == _said(first)  # nothing changed: nothing parsed
    # an edit of one ability's text: that text is parsed again, and the texts after it on
    # the same file only where the edit moved them
    edited = text.replace('"Income 1"', '"Incom 1"', 1)
    assert edited != text
    with edited_texts({str(cards): edited}):
        got = check_paths([str(game)])
        parsed_after_edit = list(parsed)
        want = _from_scratch([str(game)], monkeypatch)
    assert _said(got) == want and any("unknown keyword 'Incom 1'" in d[2] for d in want)
    assert 0 < len(parsed_after_edit) < first_parsed
    assert "Incom 1" in "".join(parsed_after_edit)


def test_a_block_text_moved_under_another_indent_is_parsed_again(tmp_path, monkeypatch):
    """A block's text read at the same place with another indent has its errors elsewhere:
    kept trees are keyed by the indent too."""
    from interpreter.diagnostics import Report
    from interpreter.content.source import parse_yaml
    monkeypatch.setattr(texts, "KEPT_TREES", {})
    positions = []
    for indent in (2, 6):
        pad = " " * indent
        data, _ = parse_yaml("b.yaml", f"rules: |\n{pad}if 1 ?? 2:\n{pad}  pass\n")
        report = Report()
        with texts.shared_parses(kept=True):
            texts.parse_text(data["rules"], "procedure", report)
        (d,) = report.errors
        positions.append(d.position.column)
    assert positions[1] == positions[0] + 4


@pytest.mark.parametrize("module, kept, most", [(texts, "KEPT_TREES", "KEPT_MOST"),
                                                (check_reuse, "KEPT_CHECKS", "KEPT_MOST")],
                         ids=["trees", "findings"])
def test_a_check_that_would_keep_more_than_is_kept_keeps_none(module, kept, most, tmp_path, monkeypatch):
    game = tmp_path / "docs-game"
    shutil.copytree(FIXTURES / "docs-game", game)
    _nothing_kept(monkeypatch)
    check_paths([str(game)], again=True)
    held = len(getattr(module, kept))
    assert held
    monkeypatch.setattr(module, most, held - 1)
    monkeypatch.setattr(texts, "KEPT_TREES", {})  # new trees: as many to keep again, findings too
    check_paths([str(game)], again=True)
    assert not getattr(module, kept)


def test_after_random_edits_a_check_again_says_and_finds_what_a_check_from_scratch_does(tmp_path, monkeypatch):
    """A line of a file of the game edited at random (a character dropped, a word or a number
    changed, a word put in), the clean edits piling up: each check again, with what the checks
    before kept, gives what a check with nothing kept gives."""
    import random
    import re
    game = tmp_path / "docs-game"
    shutil.copytree(FIXTURES / "docs-game", game)
    files = sorted(str(p) for p in game.rglob("*.yaml"))
    now = {f: Path(f).read_text(encoding="utf-8") for f in files}
    rng = random.Random(7)
    words = ["coins", "points", "count", "card", "you", "move", "gain", "hand", "deck", "if", "true", "2", "none"]
    _nothing_kept(monkeypatch)
    _check([str(game)])
    errors = 0
    for _ in range(25):
        f = rng.choice(files)
        lines = now[f].split("\n")
        k = rng.randrange(len(lines))
        toks = lines[k].split(" ")
        j = rng.randrange(len(toks))
        how = rng.randrange(4)
        if how == 0:
            toks[j] = toks[j][1:]
        elif how == 1:
            toks[j] = rng.choice(words)
        elif how == 2:
            toks[j] = re.sub(r"\d+", lambda m: str(rng.randrange(6)), toks[j])
        else:
            toks.insert(j, rng.choice(words))
        lines[k] = " ".join(toks)
        edited = {**now, f: "\n".join(lines)}
        with edited_texts(edited):
            again, again_packs = _check([str(game)])
            with monkeypatch.context() as m:
                _nothing_kept(m)
                scratch, scratch_packs = _check([str(game)])
        assert _said(again) == _said(scratch)
        assert _found(again_packs) == _found(scratch_packs)
        errors += not again.ok
        if again.ok and rng.random() < 0.5:
            now = edited  # an edit that keeps the game clean may stay; the others are undone
    assert 0 < errors < 25  # some edits broke the game, some did not
