"""What keeps the language server standing under hostile or heavy use, part by part, without
the protocol: messages read whatever the editor sends, columns counted once per line, the
problems of a file found in one pass, packs shared and kept within bounds, checks queued,
put off and merged. tests/lsp/test_lsp.py drives the same through the server's stdio."""
from __future__ import annotations

import asyncio
import io
import os
import random
import shutil

import pytest

from interpreter.diagnostics import Diagnostic, Position, end_of, lines_of
from interpreter.lsp import analysis as analysis_module
from interpreter.lsp.analysis import analyse, problem
from interpreter.lsp.columns import Columns
from interpreter.lsp.frames import MAX_LINE, MAX_MESSAGE, Frames
from interpreter.lsp.packs import Packs, check_pack, pack_of, still_holds
from interpreter.lsp.schedule import Checks
from tests.gamekit import FIXTURES


def frame(body: bytes, header: bytes | None = None) -> bytes:
    return (b"Content-Length: %d\r\n" % len(body) if header is None else header) + b"\r\n" + body


def read_all(raw: bytes) -> tuple[list[bytes], list[str]]:
    """The bodies pygls would be handed from input `raw`, and why messages were dropped."""
    dropped: list[str] = []
    frames = Frames(io.BufferedReader(io.BytesIO(raw)), dropped.append)
    bodies = []
    while True:
        header = frames.readline()
        if not header:
            return bodies, dropped
        assert header.startswith(b"Content-Length: ") and frames.readline() == b"\r\n"
        bodies.append(frames.read(int(header.split(b":")[1])))


GOOD = frame(b'{"jsonrpc": "2.0", "id": 7, "method": "shutdown"}')


@pytest.mark.parametrize("bad, why", [
    (frame(b'{"id": 1}', b"Content-Type: application/vscode-jsonrpc\r\n"), "has no Content-Length"),
    (frame(b'{"id": 1}', b"Content-Length: -9\r\n"), "is not a length: '-9'"),
    (frame(b'{"id": 1}', b"Content-Length: nine\r\n"), "is not a length: 'nine'"),
    (frame(b'{"id": 1}', b"Content-Length: 1000000000000\r\n"), "larger than 16 MiB"),
    (frame(b'{"id": 1}', b"Content-Length: 0\r\n"), "Content-Length is 0"),
    (frame(b'{"id": 1}', b"Content-Length: 9\r\nContent-Length: 10\r\n"), "two different Content-Length"),
    (b"hello\r\n", "header does not read"),
    (b"X-Long: " + b"x" * 100_000 + b"\r\n\r\n{}", "header does not read"),
])
def test_a_malformed_message_is_dropped_and_the_next_one_read(bad, why):
    bodies, dropped = read_all(GOOD + bad + GOOD + GOOD)
    assert bodies == [GOOD.partition(b"\r\n\r\n")[2]] * 3
    assert len(dropped) == 1 and why in dropped[0]


def test_a_body_shorter_than_its_length_gives_way_to_the_next_message():
    body = GOOD.partition(b"\r\n\r\n")[2]
    cut = b"Content-Length: 80\r\n\r\n" + b'{"jsonrpc": "2.0", "id": 3, "meth'  # 80 told, 33 sent
    bodies, dropped = read_all(GOOD + cut + GOOD + GOOD)
    # the cut body is handed on as it came (pygls says it is no JSON); the two after it are whole
    assert bodies == [body, b'{"jsonrpc": "2.0", "id": 3, "meth', body, body]
    assert dropped == ["a message's body is shorter than its Content-Length"]


@pytest.mark.parametrize("more", [1, 5, 40])
def test_a_length_longer_than_the_body_leaves_the_next_message_whole(more):
    body = GOOD.partition(b"\r\n\r\n")[2]
    bodies, dropped = read_all(frame(body, b"Content-Length: %d\r\n" % (len(body) + more)) + GOOD + GOOD)
    assert bodies == [body, body, body]
    assert dropped == ["a message's body is shorter than its Content-Length"]


def test_a_body_holding_the_words_of_a_header_is_one_message():
    said = b'{"jsonrpc": "2.0", "method": "x", "params": {"text": "Content-Length: 12\\r\\n\\r\\n"}}'
    whole = b'{"jsonrpc": "2.0", "method": "x", "params": {"text": "a\nContent-Length: 12\r\n"}}'
    for body in (said, whole.replace(b"\n", b"\\n").replace(b"\r", b"\\r")):
        bodies, dropped = read_all(frame(body) + GOOD)
        assert bodies == [body, GOOD.partition(b"\r\n\r\n")[2]] and not dropped


def test_a_message_too_large_is_skipped_without_being_held():
    body = b'{"text": "' + b"a" * MAX_MESSAGE + b'"}'
    read = []

    class Counting(io.BufferedReader):
        def readline(self, size=-1):
            line = super().readline(size)
            read.append(len(line))
            return line

        def read(self, size=-1):
            data = super().read(size)
            read.append(len(data))
            return data

    dropped: list[str] = []
    frames = Frames(Counting(io.BytesIO(frame(body) + GOOD)), dropped.append)
    assert frames.readline() == b"Content-Length: %d\r\n" % (len(GOOD) - len(b"Content-Length: 48\r\n\r\n"))
    assert dropped == [f"a message is larger than 16 MiB (Content-Length: {len(body)})"]
    assert max(read) <= MAX_LINE  # read in lines of bounded size, never the whole of it at once


def test_a_header_of_many_lines_is_read_in_little_memory():
    import tracemalloc
    raw = b"".join(b"Content-Length: %d\r\n" % i for i in range(1, 200_000)) + b"\r\n{}" + GOOD
    tracemalloc.start()
    try:
        bodies, dropped = read_all(raw)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert bodies == [GOOD.partition(b"\r\n\r\n")[2]] and dropped == [
        "a message has two different Content-Length headers"]
    assert peak < len(raw) // 4  # not one value kept a line


def test_the_next_message_is_found_though_a_read_cuts_its_header_in_two():
    for cut in range(1, 16):  # "Content-Length:" cut after each of its characters by the end of a read
        noise = b"x" * (MAX_LINE - cut)
        bodies, dropped = read_all(b"Content-Length: no\r\n\r\n" + noise + GOOD)
        assert bodies == [GOOD.partition(b"\r\n\r\n")[2]] and len(dropped) == 1


def test_the_input_ending_inside_a_message_ends_the_reading():
    for cut in (5, 17, 22, 30):
        bodies, _ = read_all(GOOD + GOOD[:cut])
        assert bodies[0] == GOOD.partition(b"\r\n\r\n")[2] and len(bodies) <= 2


def test_columns_are_counted_as_pygls_counts_them_and_each_line_once():
    T = pytest.importorskip("lsprotocol.types", reason="pygls counts columns: pip install 'regles[lsp]'")
    PositionCodec = pytest.importorskip("pygls.workspace.position_codec").PositionCodec
    rnd = random.Random(3)
    lines = ["".join(rnd.choice("ab é😋\u2028") for _ in range(rnd.randrange(0, 40))) for _ in range(20)]
    for encoding in (T.PositionEncodingKind.Utf16, T.PositionEncodingKind.Utf8, T.PositionEncodingKind.Utf32):
        codec = PositionCodec(encoding)
        calls: list[str] = []

        def units(text: str, calls=calls, codec=codec) -> int:
            calls.append(text)
            return codec.client_num_units(text)
        columns = Columns(lines, units)
        for _ in range(3000):
            line, column = rnd.randrange(0, 22), rnd.randrange(0, 45)
            want = codec.position_to_client_units(lines, T.Position(line, column)) if line < 20 else \
                T.Position(line, column)
            assert columns.at(line, column) == (want.line, want.character)
        assert len(calls) <= sum(len(x) for x in lines)  # each character measured once at most


def test_a_file_with_many_problems_is_split_in_lines_once(tmp_path, monkeypatch):
    game = tmp_path / "docs-game"
    shutil.copytree(FIXTURES / "docs-game", game)
    cards = ["kind: cards", "game: docs-game", "cards:"]
    for i in range(400):
        cards += [f"  - id: made{i}", f"    title: Made {i}", "    type: Building", f"    bogus{i}: 1"]
    many = game / "cards" / "many.yaml"
    many.write_text("\n".join(cards) + "\n", encoding="utf-8")
    splits = []
    monkeypatch.setattr(analysis_module, "lines_of", lambda text: splits.append(text) or lines_of(text))
    found = analyse(str(many), {}).problems[str(many)]
    assert len(found) == 400 and len(splits) == 1  # not once a problem
    assert [(p.line, p.column, p.end_column) for p in found[:2]] == [(6, 4, 10), (10, 4, 10)]


def test_a_problem_spans_what_regles_check_says_it_spans():
    text = "kind: cards\n  cots: 2\n  x: é😋word-it's\n"
    samples = [Diagnostic(Position("a.yaml", line, column, end), "m")
               for line in (1, 2, 3, 4) for column in range(1, 16) for end in (None, column + 3)]
    for d in samples:
        p = problem(d, lines_of(text))
        assert (p.end_line + 1, p.end_column + 1) == end_of(d.position, text), d.position


def test_a_pack_is_named_by_the_folder_its_check_reads(tmp_path):
    game = FIXTURES / "docs-game"
    assert pack_of(str(game / "cards" / "market.yaml")) == pack_of(str(game / "game.yaml")) == ("game", str(game))
    lone = tmp_path / "mine.yaml"
    assert pack_of(str(lone)) == ("file", str(lone))


def test_a_check_is_made_again_only_when_what_it_read_reads_otherwise(tmp_path):
    game = tmp_path / "docs-game"
    shutil.copytree(FIXTURES / "docs-game", game)
    market, pawns = str(game / "cards" / "market.yaml"), str(game / "cards" / "pawns.yaml")
    first, made = check_pack({market}, {}, None)
    assert made and still_holds(first, {market, pawns}, {})
    again, made = check_pack({pawns}, {}, first)
    assert again is first and not made  # another document of the same pack: the same check
    text = (game / "cards" / "market.yaml").read_text(encoding="utf-8")
    assert not still_holds(first, {market}, {market: text + "# typed\n"})  # an unsaved edit
    (game / "cards" / "pawns.yaml").write_text(text, encoding="utf-8")
    assert not still_holds(first, {market}, {})  # a file changed on disk
    (game / "cards" / "new.yaml").write_text("kind: cards\ngame: docs-game\ncards: []\n", encoding="utf-8")
    assert not still_holds(first, {str(game / "cards" / "new.yaml")}, {})  # a file the check did not read
    os.remove(pawns)
    assert not still_holds(first, {market}, {})  # a file gone


def test_packs_kept_are_bounded_the_least_recently_used_dropped_first():
    packs = Packs(size=3)
    for name in "abcd":
        packs.put(("game", name), name)
        packs.get(("game", "a"))  # a used every time
    assert list(packs.checks) == [("game", "c"), ("game", "d"), ("game", "a")]


class Recorded:
    """A `run` for Checks that records what it is asked, and waits for `release` when told."""

    def __init__(self):
        self.runs: list[tuple] = []
        self.release: asyncio.Event | None = None
        self.stale: list[bool] = []

    async def __call__(self, pack, paths, stale):
        self.runs.append((pack, frozenset(paths)))
        if self.release is not None:
            await self.release.wait()
        self.stale.append(stale())
        return not stale()


def test_edits_in_a_row_make_one_check_once_they_pause():
    async def scenario():
        run = Recorded()
        checks = Checks(0.05, run)
        for i in range(50):
            checks.request(("game", "g"), f"doc{i % 3}", wait=True)
        assert checks.worker is None  # nothing checked while the edits come
        while checks.worker is None or not checks.worker.done():
            await asyncio.sleep(0.01)
        return run, checks
    run, checks = asyncio.run(scenario())
    assert run.runs == [(("game", "g"), frozenset({"doc1"}))]  # for the last edit's document
    assert (checks.started, checks.skipped) == (1, 49)


def test_requests_made_while_a_check_runs_are_merged_into_one_next_check():
    async def scenario():
        run = Recorded()
        run.release = asyncio.Event()
        checks = Checks(10, run)
        checks.request(("game", "g"), "a", wait=False)
        await asyncio.sleep(0)  # the check of a starts, and waits
        for doc in "bcdefb":
            checks.request(("game", "g"), doc, wait=False)
        run.release.set()
        while checks.worker is not None and not checks.worker.done():
            await asyncio.sleep(0)
        return run, checks
    run, checks = asyncio.run(scenario())
    assert run.runs == [(("game", "g"), frozenset("a")), (("game", "g"), frozenset("abcdef"))]
    assert run.stale == [True, False]  # the first made stale by the others: it publishes nothing
    assert (checks.started, checks.skipped) == (2, 5)


def test_a_pack_waited_for_is_checked_before_the_others_queued():
    async def scenario():
        run = Recorded()
        run.release = asyncio.Event()
        checks = Checks(10, run)
        for pack in "xabc":
            checks.request(("game", pack), pack, wait=False)
        await asyncio.sleep(0)
        checks.hurry(("game", "c"))
        run.release.set()
        while not checks.worker.done():
            await asyncio.sleep(0)
        return run
    assert [pack[1] for pack, _ in asyncio.run(scenario()).runs] == ["x", "c", "a", "b"]
