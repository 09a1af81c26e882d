"""The loader's quick paths against the plain ones they replace: the test for a file holding
only comments, and the size of documents whose aliases repeat values and texts."""
from __future__ import annotations

import datetime
import random

import pytest
import yaml

from interpreter.content import source
from interpreter.diagnostics import ContentError, lines_of


def _only_comments_plainly(text):
    return all(not line.strip() or line.lstrip().startswith("#") for line in lines_of(text))


def test_only_comments_reads_lines_as_lines_of_cuts_them():
    rng = random.Random(7)
    pieces = ["", " ", "\t", "#", "# c", "  # c", "kind: x", "a", "\r\n", "\n", "\r", "\x85", "\u2028", "\u2029",
              "\x0c", "\x1c", "\u00a0", " #x\n"]
    texts = ["", "\n", "# a\n# b", "#\r\n  \r\nkind: cards\n", "a\u2028#", "#\u2028a", "# a\x1cb"]
    texts += ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 12))) for _ in range(5000)]
    for text in texts:
        assert source._only_comments(text) == _only_comments_plainly(text), repr(text)


class _AliasesKept(yaml.SafeLoader):
    """The pure-Python loader, keeping each alias where it is written: ('alias', mark, node)."""

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            mark = self.peek_event().start_mark
            return ("alias", mark, super().compose_node(parent, index))
        return super().compose_node(parent, index)


def _fault_plainly(path, text, most_values, most_chars):
    """Where a document goes past the bounds, its aliases expanded: each value counted in the
    order it is written, an alias as the whole value it names, by plain recursion."""
    def size(node):
        if isinstance(node, tuple):
            return size(node[2])
        if isinstance(node, yaml.ScalarNode):
            return 1, len(node.value)
        sizes = [size(c) for c in source._children(node)]
        return 1 + sum(v for v, _ in sizes), sum(c for _, c in sizes)

    total = [0, 0]

    def walk(node):
        mark = node[1] if isinstance(node, tuple) else node.start_mark
        v, c = size(node) if isinstance(node, tuple) else (1, len(node.value) if isinstance(node, yaml.ScalarNode) else 0)
        total[0] += v
        total[1] += c
        if total[0] > most_values or total[1] > most_chars:
            return mark
        if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)):
            for child in source._children(node):
                found = walk(child)
                if found is not None:
                    return found
        return None

    mark = walk(_AliasesKept(text).get_single_node())
    return None if mark is None else (mark.line + 1, mark.column + 1)


def _aliased_document(rng):
    lines, anchors = [], []
    for i in range(rng.randint(1, 6)):
        kind = rng.random()
        if anchors and kind < 0.4:
            lines.append(f"k{i}: [{', '.join('*' + rng.choice(anchors) for _ in range(rng.randint(1, 5)))}]")
        elif kind < 0.7:
            lines.append(f"k{i}: &a{i} [{', '.join(str(n) for n in range(rng.randint(0, 6)))}]")
            anchors.append(f"a{i}")
        elif anchors and kind < 0.85:
            lines.append(f"k{i}: &a{i} {{x: *{rng.choice(anchors)}, y: *{rng.choice(anchors)}, z: 1}}")
            anchors.append(f"a{i}")
        else:
            lines.append(f"k{i}: &a{i} word{i}")
            anchors.append(f"a{i}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("values, chars", [(5, 1000), (12, 30), (40, 100), (1000, 12)])
def test_the_size_check_refuses_what_plain_expansion_refuses_where_it_goes_past(values, chars, monkeypatch):
    monkeypatch.setattr(source, "MAX_NODES", values)
    monkeypatch.setattr(source, "MAX_TEXT", chars)
    rng = random.Random(values * chars)
    outcomes = set()
    for _ in range(400):
        text = _aliased_document(rng)
        # a file's own text never passes the bound of text (it is the largest file's): only the
        # text of a file with aliases is counted
        expected = _fault_plainly("f.yaml", text, values, chars if "*" in text else float("inf"))
        try:
            source.parse_yaml("f.yaml", text)
            got = None
        except ContentError as exc:
            got = (exc.position.line, exc.position.column)
            if "*" in text.splitlines()[got[0] - 1][got[1] - 1:got[1]]:  # at an alias: it is named
                assert "at alias '*" in exc.message, exc.message
        assert got == expected, text
        outcomes.add(got is None)
    assert outcomes == {True, False}


def test_positions_made_fast_are_positions():
    import dataclasses

    from interpreter.diagnostics import Position
    for args in [("f.yaml", 3, 7), ("f.yaml", 3, 7, 12), ("<text>", 1, 1, None)]:
        fast, plain = source.position(*args), Position(*args)
        assert type(fast) is Position
        assert fast == plain and hash(fast) == hash(plain) and repr(fast) == repr(plain) and str(fast) == str(plain)
        assert dataclasses.astuple(fast) == dataclasses.astuple(plain) == tuple(args) + (None,) * (4 - len(args))
    assert source.position("a", 1, 2) < Position("a", 1, 3) < source.position("a", 2, 1)
    with pytest.raises(AttributeError):
        source.position("a", 1, 2).line = 3  # still frozen


def test_positions_pickled_come_back_the_same():
    """A warm start's store pickles positions by their fields (`Position.__reduce__`)."""
    import pickle

    from interpreter.diagnostics import Position
    for pos in [Position("f.yaml", 3, 7), Position("f.yaml", 3, 7, 12), source.position("<text>", 1, 1)]:
        back = pickle.loads(pickle.dumps(pos, protocol=pickle.HIGHEST_PROTOCOL))
        assert type(back) is Position and back == pos and back.end_column == pos.end_column
        assert hash(back) == hash(pos)
    shared = Position("g.yaml", 2, 2)
    a, b = pickle.loads(pickle.dumps([shared, shared]))
    assert a is b  # one object still, as pickle keeps what is shared


def test_checking_puts_the_collector_s_thresholds_back(tmp_path):
    import gc

    from interpreter.rulings.check import check_paths
    before = gc.get_threshold()
    check_paths([str(tmp_path / "missing")])
    (tmp_path / "bad.yaml").write_text("kind: [\n", encoding="utf-8")
    check_paths([str(tmp_path / "bad.yaml")])
    assert gc.get_threshold() == before


def test_a_text_s_span_is_its_start_position_stretched_to_the_end_column():
    text = ("kind: cards\nplain: gain 1 x\nquoted: \"gain \\\"2\\\" x\"\nblock: |\n  if x:\n    pass\n"
            "folded: >\n  a b\n  c d\nescaped: \"a\\nb\"\n")
    data, _ = source.parse_yaml("f.yaml", text)
    for key in ("plain", "quoted", "block", "folded", "escaped"):
        s = data[key]
        for line in (1, 2, 3):
            for column in (1, 2, 5):
                for end in (column, column + 1, column + 4):
                    start = s.text_position(line, column)
                    assert s.text_position(line, column, end) == source.position(
                        start.path, start.line, start.column, start.column + (end - column))


@pytest.mark.parametrize("value, message", [
    ("9007199254740991", None),  # the largest number a game keeps
    ("-9007199254740991", None),
    ("9007199254740992", "number too large"),
    ("-9007199254740992", "number too large"),
    ("0x20000000000000", "number too large"),
    ("9" * 5000, "number too large"),  # more digits than Python reads from a text
    ("1.0e+400", "number too large"),  # infinite, as a float
    ("-.inf", "number too large"),
    (".nan", "'.nan' is not a number"),
    ("1.5", None),
    ("1e400", None),  # no dot: a string for YAML 1.1 (the schema says what it wants there)
], ids=lambda v: v if v is None or len(v) < 30 else f"{len(v)} digits")
def test_numbers_a_game_cannot_keep_are_refused_where_they_are_written(value, message):
    raw = f"kind: cards\ncards:\n  - {{id: a, value: {value}}}\n".encode()
    if message is None:
        src, _ = source.load_file("n.yaml", raw)
        assert str(src.data["cards"][0]["value"]) == str(source.plain_data(yaml.safe_load(value)))
        return
    with pytest.raises(ContentError) as err:
        source.load_file("n.yaml", raw)
    assert err.value.message.startswith(message)
    assert (err.value.position.line, err.value.position.column) == (3, 20)
    assert len(err.value.message) < 120


def test_a_value_that_does_not_read_is_shown_shortened(monkeypatch):
    """A scalar a YAML constructor refuses is named by its start, not by its 5,000 characters."""
    def refuse(loader, node):
        raise ValueError("x" * 5000)
    monkeypatch.setitem(yaml.SafeLoader.yaml_constructors, "tag:yaml.org,2002:timestamp", refuse)
    with pytest.raises(ContentError) as err:
        source.load_file("t.yaml", b"kind: cards\nwhen: 2001-12-14\n")
    assert err.value.message.startswith("cannot read value '2001-12-14': xxx")
    assert len(err.value.message) < 120


def test_the_largest_number_of_a_file_is_the_largest_a_game_keeps():
    from interpreter.limits import MAX_NUMBER
    assert source.MAX_NUMBER == MAX_NUMBER


def test_edited_texts_are_checked_in_place_of_the_files_on_disk(tmp_path):
    import shutil
    from interpreter.rulings.check import check_paths
    from tests.gamekit import FIXTURES
    game = tmp_path / "docs-game"
    shutil.copytree(FIXTURES / "docs-game", game)
    cards = game / "cards" / "market.yaml"
    on_disk = cards.read_text(encoding="utf-8")
    edited = on_disk.replace('"Income 1"', '"Incom 1"')
    assert check_paths([str(cards)]).ok
    with source.edited_texts({str(cards): edited}):
        report = check_paths([str(cards)])
    (d,) = report.errors
    assert "unknown keyword 'Incom 1'" in d.message and d.position.line == 14
    assert report.sources[d.position.path] == edited  # what the editor holds is what is shown
    assert cards.read_text(encoding="utf-8") == on_disk and check_paths([str(cards)]).ok  # only within the block


def test_an_edited_text_that_does_not_read_is_reported_from_the_edited_text(tmp_path):
    path = tmp_path / "cards.yaml"
    path.write_text("kind: cards\n", encoding="utf-8")
    with source.edited_texts({str(path): "kind: cards\ncards:\n\t- x\n"}):
        with pytest.raises(ContentError) as exc:
            source.load_file(str(path))
    assert "tab character" in exc.value.message and exc.value.position.line == 3
    src, _ = source.load_file(str(path))
    assert src.text == "kind: cards\n"


def test_the_tags_kept_for_short_values_are_those_the_safe_loader_gives():
    """content.source._Loader keeps the tag of each short value (a fast path): every plain,
    quoted and block value, read twice, has the type the safe loader gives it."""
    import yaml
    from interpreter.content import source
    values = ["yes", "no", "on", "Off", "true", "False", "null", "~", "", "1", "-3", "+7", "0x1F", "0o17", "1_000",
              "1e3", "1.5", ".inf", "-.Inf", ".nan", "2001-12-14", "2001-12-14t21:59:43.10-05:00", "12:30", "a b",
              "card", "Rouge", "x" * 25, "1" * 25, "<<"]
    lines = [f"p{i}: {v}" if v not in ("", "<<") else f"p{i}: '{v}'" for i, v in enumerate(values)]
    lines += [f"q{i}: '{v}'" for i, v in enumerate(values)] + [f"r{i}: \"{v}\"" for i, v in enumerate(values)]
    text = "\n".join(lines + ["s: |\n  12\n", "t: [1, yes, x]"]) + "\n"
    want = yaml.load(text, Loader=yaml.SafeLoader)
    source._Loader._resolved.clear()
    for _ in range(2):  # the second reading takes the kept tags
        got = yaml.load(text, Loader=source._Loader)
        assert got == want and [type(v) for v in got.values()] == [type(v) for v in want.values()]
    assert source._Loader._resolved  # kept
    assert not any(len(k) > source._RESOLVED_LONGEST for k in source._Loader._resolved)


def test_the_values_built_are_those_the_safe_loader_gives():
    """`_Builder.build` reads a plain decimal number itself (a fast path) and keeps the style
    and last line of a text only where they are not the defaults: every value, plain, quoted,
    in a block and as a key, has the value and type the safe loader gives it, and each text its
    style and the line it ends on."""
    values = ["0", "7", "-3", "+7", "012", "0x1F", "0o17", "0b101", "1_000", "190:20:30", "123456789012345",
              "9007199254740991", "1e3", "1.5", "yes", "No", "~", "null", "a b", "2001-12-14", "!!int '42'",
              "!!str 12", "'12'", '"x\\ny"', "|\n    one\n    two\n", ">\n    one\n    two\n", "[1, '2', x]",
              "{3: x, '4': y}", "\"two\n    lines\""]
    text = "".join(f"v{i}: {v}\n" for i, v in enumerate(values))
    data, errors = source.parse_yaml("v.yaml", text)
    assert not errors
    want = yaml.safe_load(text)
    for i in range(len(values)):
        got, wanted = data[f"v{i}"], want[f"v{i}"]
        if isinstance(wanted, dict):  # numbers as keys are read as their text
            wanted = {str(k): v for k, v in wanted.items()}
        elif isinstance(wanted, datetime.date):  # and so are timestamps
            wanted = values[i]
        assert source.plain_data(got) == wanted and type(source.plain_data(got)) is type(wanted), values[i]
    node = yaml.compose(text, Loader=source._Loader)
    for (key, value_node), (k, v) in zip(node.value, data.items(), strict=True):
        assert k == key.value
        if isinstance(v, str):
            assert v.pos.line == value_node.start_mark.line + 1
            assert v.style == value_node.style
            assert (v.end_line or v.pos.line) == value_node.end_mark.line + 1


@pytest.mark.parametrize("value", ["!!int ²", "!!int 0x", "!!int ''"])
def test_a_number_tagged_by_hand_that_is_none_is_refused(value):
    with pytest.raises(ContentError) as err:
        source.parse_yaml("n.yaml", f"v: {value}\n")
    assert err.value.code == "Y003" and "cannot read value" in err.value.message
