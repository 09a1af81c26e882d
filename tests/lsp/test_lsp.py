"""The language server, `regles lsp`, over the protocol: a client starts it as a subprocess,
opens documents of a copy of the docs game, and reads what the server answers."""
from __future__ import annotations

import asyncio
import gc
import json
import os
import queue
import shutil
import socket
import subprocess
import sys
import threading
import time

import pytest

from interpreter import cli
from tests.gamekit import FIXTURES, ROOT

pygls = pytest.importorskip("pygls", reason="the language server needs pygls: pip install 'regles[lsp]'")
from lsprotocol import types as T  # noqa: E402 (after the skip: lsprotocol comes with pygls)
from pygls.lsp.client import LanguageClient  # noqa: E402
from pygls.uris import from_fs_path  # noqa: E402

WAIT = 30  # seconds at most for an answer: a bound on a hang, not a measure of speed


class Editor:
    """A client standing for an editor: it keeps the diagnostics published to each file."""

    def __init__(self, loop, folder):
        self.loop, self.folder = loop, folder
        self.client = LanguageClient("test-editor", "1")
        self.diagnostics: dict[str, list] = {}
        self.published = asyncio.Condition()
        self.versions: dict[str, int] = {}

        self.logs: list[str] = []  # what the server wrote to the editor's log, in order

        @self.client.feature(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        async def on_diagnostics(params):
            async with self.published:
                self.diagnostics[params.uri] = params.diagnostics
                self.published.notify_all()

        @self.client.feature(T.WINDOW_LOG_MESSAGE)
        async def on_log(params):
            self.logs.append(params.message)

    def checks(self) -> int:
        """How many checks the server has logged so far."""
        return sum(1 for line in self.logs if line.startswith("regles: checked "))

    def run(self, coroutine):
        return self.loop.run_until_complete(asyncio.wait_for(coroutine, WAIT))

    def start(self):
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.run(self.client.start_io(sys.executable, "-m", "interpreter", "lsp", cwd=str(self.folder), env=env))
        caps = T.ClientCapabilities(text_document=T.TextDocumentClientCapabilities(
            completion=T.CompletionClientCapabilities(completion_item=T.ClientCompletionItemOptions(
                snippet_support=True))))
        result = self.run(self.client.initialize_async(T.InitializeParams(
            capabilities=caps, root_uri=from_fs_path(str(self.folder)))))
        self.client.initialized(T.InitializedParams())
        self.initialized = result

    def stop(self):
        self.run(self.client.shutdown_async(None))
        self.client.exit(None)
        self.run(self.client.stop())

    def uri(self, relative: str) -> str:
        return from_fs_path(str(self.folder / relative))

    def open(self, relative: str, text: str | None = None) -> str:
        uri = self.uri(relative)
        text = (self.folder / relative).read_text(encoding="utf-8") if text is None else text
        if uri in self.versions:  # opened by an earlier test: closed first, as an editor would
            self.client.text_document_did_close(T.DidCloseTextDocumentParams(T.TextDocumentIdentifier(uri=uri)))
        self.versions[uri] = 1
        self.client.text_document_did_open(T.DidOpenTextDocumentParams(
            T.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
        return uri

    def change(self, uri: str, text: str) -> None:
        self.versions[uri] += 1
        self.client.text_document_did_change(T.DidChangeTextDocumentParams(
            T.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            [T.TextDocumentContentChangeWholeDocument(text=text)]))

    def diagnostics_of(self, uri: str, until) -> list:
        """The diagnostics of `uri` once they satisfy `until`."""
        async def wait():
            async with self.published:
                await self.published.wait_for(lambda: uri in self.diagnostics and until(self.diagnostics[uri]))
                return self.diagnostics[uri]
        return self.run(wait())

    def request(self, method, uri: str, line: int, character: int):
        params = dict(text_document=T.TextDocumentIdentifier(uri=uri), position=T.Position(line, character))
        kind = {"completion": T.CompletionParams, "hover": T.HoverParams, "definition": T.DefinitionParams}[method]
        call = {"completion": self.client.text_document_completion_async,
                "hover": self.client.text_document_hover_async,
                "definition": self.client.text_document_definition_async}[method]
        return self.run(call(kind(**params)))


@pytest.fixture(scope="module")
def editor(tmp_path_factory):
    folder = tmp_path_factory.mktemp("workspace")
    shutil.copytree(FIXTURES / "docs-game", folder / "docs-game")
    loop = asyncio.new_event_loop()
    ed = Editor(loop, folder)
    ed.start()
    yield ed
    ed.stop()
    loop.close()


MARKET = "docs-game/cards/market.yaml"


def position_of(text: str, needle: str, offset: int = 0) -> tuple[int, int]:
    """(line, character) from 0 of `needle` in `text`, plus `offset` characters."""
    i = text.index(needle) + offset
    return text.count("\n", 0, i), i - (text.rfind("\n", 0, i) + 1)


def test_the_server_says_what_it_offers(editor):
    result = editor.initialized
    assert result.server_info.name == "regles"
    caps = result.capabilities
    assert caps.hover_provider and caps.definition_provider and "." in caps.completion_provider.trigger_characters


def test_an_error_is_published_where_regles_check_puts_it_and_cleared_once_mended(editor):
    text = (editor.folder / MARKET).read_text(encoding="utf-8")
    broken = text.replace('"Income 1"', '"Incom 1"')
    uri = editor.open(MARKET, broken)  # unsaved: the file on disk is still sound
    (d,) = editor.diagnostics_of(uri, lambda ds: len(ds) > 0)
    line, start = position_of(broken, "Incom 1")
    assert (d.range.start.line, d.range.start.character) == (line, start)
    assert (d.range.end.line, d.range.end.character) == (line, start + len("Incom"))
    assert d.message.startswith("unknown keyword 'Incom 1'") and "did you mean 'Income X'?" in d.message
    assert d.severity == T.DiagnosticSeverity.Error and d.source == "regles" and d.code == "N009"
    editor.change(uri, text)
    assert list(editor.diagnostics_of(uri, lambda ds: len(ds) == 0)) == []


def test_an_error_in_a_keyword_file_shows_on_the_cards_that_use_it(editor):
    keywords = editor.folder / "docs-game/keywords.yaml"
    text = keywords.read_text(encoding="utf-8")
    uri = editor.open("docs-game/keywords.yaml", text.replace('pattern: "Income X"', 'pattern: "Revenue X"'))
    market = editor.uri(MARKET)
    found = editor.diagnostics_of(market, lambda ds: any("unknown keyword 'Income 1'" in d.message for d in ds))
    line, start = position_of((editor.folder / MARKET).read_text(encoding="utf-8"), "Income 1")
    assert [(d.range.start.line, d.range.start.character) for d in found if "Income 1" in d.message] == \
        [(line, start)]
    editor.change(uri, text)
    assert list(editor.diagnostics_of(market, lambda ds: len(ds) == 0)) == []


def labels(result) -> dict:
    items = result.items if isinstance(result, T.CompletionList) else result
    return {i.label: i for i in items}


def test_completion_of_a_card_ability_offers_the_keywords_as_snippets(editor):
    text = (editor.folder / MARKET).read_text(encoding="utf-8").replace('"Income 1"', '"Bo"')
    uri = editor.open(MARKET, text)
    line, character = position_of(text, '"Bo"', 3)
    found = labels(editor.request("completion", uri, line, character))
    bonus = found["Bonus X - Y"]
    assert bonus.insert_text_format == T.InsertTextFormat.Snippet
    assert bonus.text_edit.new_text == "Bonus ${1:X} - ${2|Building,Damaged,Open-air,Wild,Worker|}"
    assert (bonus.text_edit.range.start.character, bonus.text_edit.range.end.character) == \
        (character - 2, character)  # it replaces the word typed
    assert {"Income X", "Sturdy", "when", "action"} <= set(found)
    assert "count" not in found  # a built-in does not open an ability


def test_completion_offers_what_fits_where_the_cursor_is(editor):
    text = (editor.folder / MARKET).read_text(encoding="utf-8")
    text = text.replace("    type: Worker\n", "    type: \n").replace(
        '"Income 1"', '|\n        when played:\n          move self to you.\n        ')
    uri = editor.open(MARKET, text)
    line, character = position_of(text, "type: \n", 6)
    assert set(labels(editor.request("completion", uri, line, character))) == {"Building", "Worker"}
    line, character = position_of(text, "you.\n", 4)
    members = labels(editor.request("completion", uri, line, character))
    assert {"hand", "tableau", "coins", "points", "cost"} <= set(members) and "deck" not in members
    line, character = position_of(text, "when played", 5)
    events = labels(editor.request("completion", uri, line, character))
    assert set(events) == {"played", "scoring", "round_start", "round_end"}


def test_hover_on_a_keyword_shows_its_printed_text_and_what_it_is_given(editor):
    uri = editor.open(MARKET)
    text = (editor.folder / MARKET).read_text(encoding="utf-8")
    line, character = position_of(text, "Income 1", 2)
    h = editor.request("hover", uri, line, character)
    assert "Gain X coins at the start of each round" in h.contents.value
    assert "X = 1" in h.contents.value and "Income X" in h.contents.value


def test_hover_on_a_card_id_shows_the_card(editor):
    uri = editor.open(MARKET)
    text = (editor.folder / MARKET).read_text(encoding="utf-8")
    line, character = position_of(text, "id: guild", 5)
    shown = editor.request("hover", uri, line, character).contents.value
    # its face: the keyword's printed text with the card's values bound (X = 1, Y = Worker)
    assert shown.startswith("**Guild**") and "Bonus 1 \\- Worker: Score 1 for each Worker card you have in play" in shown


def test_definition_of_a_keyword_used_on_a_card_is_its_pattern(editor):
    uri = editor.open(MARKET)
    text = (editor.folder / MARKET).read_text(encoding="utf-8")
    line, character = position_of(text, "Sturdy", 1)
    (where,) = [editor.request("definition", uri, line, character)]
    keywords = (editor.folder / "docs-game/keywords.yaml").read_text(encoding="utf-8")
    assert where.uri == editor.uri("docs-game/keywords.yaml")
    assert (where.range.start.line, where.range.start.character) == position_of(keywords, '"Sturdy"')


def test_definition_of_a_procedure_called_is_where_it_is_declared(editor):
    game = (editor.folder / "docs-game/game.yaml").read_text(encoding="utf-8")
    uri = editor.open("docs-game/game.yaml")
    line, character = position_of(game, "call play_round", 6)
    where = editor.request("definition", uri, line, character)
    assert where.uri == uri and where.range.start.line == position_of(game, "  play_round: |")[0]


def test_without_pygls_the_command_says_how_to_install_it(monkeypatch, capsys):
    for name in [m for m in sys.modules if m == "pygls" or m.startswith("pygls.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pygls", None)  # an import of it fails, as when it is not installed
    assert cli.main(["lsp"]) == 2
    err = capsys.readouterr().err
    assert "regles lsp: error:" in err and "pip install 'regles[lsp]'" in err


def test_a_port_already_taken_is_said_in_one_line(capsys):
    import socket
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert cli.main(["lsp", "--tcp", str(port)]) == 2
    err = capsys.readouterr().err
    assert f"regles lsp: error: cannot listen on 127.0.0.1:{port}" in err and "Traceback" not in err
    assert cli.main(["lsp", "--tcp", "70000"]) == 2
    assert "--tcp takes a port from 1 to 65535, not 70000" in capsys.readouterr().err


# --- What an editor that misbehaves, or works hard, does to the server ---------------------------

class RawEditor:
    """A client that writes the protocol's bytes itself, as a faulty editor might, and reads
    what the server sends in a thread of its own."""

    def __init__(self, reader, writer):
        self.reader, self.writer = reader, writer
        self.inbox: queue.Queue = queue.Queue()
        self.ids = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while True:
            length = None
            while True:
                line = self.reader.readline()
                if not line:
                    self.inbox.put(None)
                    return
                if line == b"\r\n":
                    break
                name, _, value = line.partition(b":")
                if name == b"Content-Length":
                    length = int(value)
            self.inbox.put(json.loads(self.reader.read(length)))

    def write(self, data: bytes) -> None:
        self.writer.write(data)
        self.writer.flush()

    def send(self, message: dict) -> None:
        body = json.dumps(message).encode("utf-8")
        self.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method: str, params) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def ask(self, method: str, params) -> int:
        self.ids += 1
        self.send({"jsonrpc": "2.0", "id": self.ids, "method": method, "params": params})
        return self.ids

    def until(self, done) -> dict:
        """The first message that satisfies `done` (those before it are read and left)."""
        while True:
            message = self.inbox.get(timeout=WAIT)
            assert message is not None, "the server closed its output"
            if done(message):
                return message

    def answer(self, id: int) -> dict:
        return self.until(lambda m: m.get("id") == id and "method" not in m)

    def start(self, folder) -> None:
        self.answer(self.ask("initialize", {"processId": None, "rootUri": from_fs_path(str(folder)),
                                            "capabilities": {}}))
        self.notify("initialized", {})

    def hover(self, uri: str) -> int:
        return self.ask("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}})


def framed(body: bytes, header: bytes) -> bytes:
    return header + b"\r\n" + body


MALFORMED = [  # each dropped, none answered: there is no telling what it asked
    framed(b'{"jsonrpc": "2.0", "id": 90, "method": "shutdown"}', b"Content-Type: application/json\r\n"),
    framed(b'{"jsonrpc": "2.0", "id": 91, "method": "shutdown"}', b"Content-Length: -51\r\n"),
    framed(b'{"jsonrpc": "2.0", "id": 92, "method": "shutdown"}', b"Content-Length: fifty\r\n"),
    framed(b'{"jsonrpc": "2.0", "id": 93, "method": "shutdown"}', b"Content-Length: 1000000000000\r\n"),
    framed(b"", b"Content-Length: 0\r\n"),
    b"this is no header\r\n",
]


def hostile_session(editor: RawEditor, folder) -> None:
    """Malformed messages, each followed by a sound request that must be answered."""
    notes = folder / "notes.yaml"
    notes.write_text("just: notes\n", encoding="utf-8")
    editor.start(folder)
    for bad in MALFORMED + [framed(b"{not json", b"Content-Length: 9\r\n")]:
        editor.write(bad)
        assert "result" in editor.answer(editor.hover(from_fs_path(str(notes))))
    editor.write(framed(b'{"jsonrpc": "2.0", "id": 95, "meth', b"Content-Length: 80\r\n"))  # cut short
    assert "result" in editor.answer(editor.hover(from_fs_path(str(notes))))
    editor.send({"jsonrpc": "2.0", "id": 96, "method": "textDocument/hover", "params": "x"})  # not its shape
    assert editor.answer(96)["error"]["code"] == -32602
    for uri in ("", from_fs_path(str(folder))):  # no document the editor opened: nothing read from disk
        assert editor.answer(editor.hover(uri)).get("result") is None


def test_malformed_messages_are_dropped_and_the_next_ones_answered(tmp_path):
    err = tmp_path / "stderr"
    with open(err, "wb") as stderr:
        server = subprocess.Popen([sys.executable, "-m", "interpreter", "lsp"], cwd=tmp_path, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=stderr, env=dict(os.environ, PYTHONPATH=str(ROOT)))
        try:
            editor = RawEditor(server.stdout, server.stdin)
            hostile_session(editor, tmp_path)
            too_large = {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": from_fs_path(str(tmp_path / "huge.yaml")), "languageId": "yaml", "version": 1,
                "text": "# " + "x" * (16 * 1024 * 1024)}}}
            editor.send(too_large)  # honest, but over the bound: dropped, not held
            assert "result" in editor.answer(editor.hover(from_fs_path(str(tmp_path / "notes.yaml"))))
            editor.answer(editor.ask("shutdown", None))
            editor.notify("exit", None)
            assert server.wait(WAIT) == 0
        finally:
            if server.poll() is None:
                server.kill()
    log = err.read_text(encoding="utf-8")
    assert log.count("regles lsp: warning: dropped a message: ") == len(MALFORMED) + 2
    assert "larger than 16 MiB" in log and "has no Content-Length" in log
    assert "Traceback" not in log


def test_malformed_messages_over_tcp_are_dropped_too(tmp_path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "interpreter", "lsp", "--tcp", str(port)], cwd=tmp_path,
                              stderr=subprocess.DEVNULL, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    try:
        for _ in range(WAIT * 10):  # until it listens
            try:
                connection = socket.create_connection(("127.0.0.1", port))
                break
            except ConnectionRefusedError:
                assert server.poll() is None
                threading.Event().wait(0.1)
        with connection, connection.makefile("rb") as reader, connection.makefile("wb") as writer:
            try:
                editor = RawEditor(reader, writer)
                hostile_session(editor, tmp_path)
                editor.answer(editor.ask("shutdown", None))
                editor.notify("exit", None)
                assert server.wait(WAIT) == 0
            finally:
                connection.shutdown(socket.SHUT_RDWR)  # the reading thread let go of its file
    finally:
        if server.poll() is None:
            server.kill()


def test_an_editor_gone_without_a_word_over_tcp_ends_the_server_quietly(tmp_path):
    import struct
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "interpreter", "lsp", "--tcp", str(port)], cwd=tmp_path,
                              stderr=subprocess.PIPE, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    try:
        for _ in range(WAIT * 10):  # until it listens
            try:
                connection = socket.create_connection(("127.0.0.1", port))
                break
            except ConnectionRefusedError:
                threading.Event().wait(0.1)
        with connection:
            body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                               "params": {"processId": None, "rootUri": None, "capabilities": {}}}).encode()
            connection.sendall(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            connection.settimeout(WAIT)
            assert connection.recv(100).startswith(b"Content-Length: ")  # it answers
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        # closed with a reset, as a crashed editor's connection is
        _, err = server.communicate(timeout=WAIT)
        assert server.returncode == 0 and b"cannot listen" not in err and b"Traceback" not in err
    finally:
        if server.poll() is None:
            server.kill()


def test_thousands_of_problems_are_published_where_their_wide_characters_put_them(tmp_path):
    shutil.copytree(FIXTURES / "docs-game", tmp_path / "docs-game")
    cards = ["kind: cards", "game: docs-game", "cards:"]
    for i in range(2000):
        cards += [f"  - id: made{i}", f"    title: Made {i}", "    type: Building", f"    😋bogus{i}: 1"]
    many = tmp_path / "docs-game" / "cards" / "many.yaml"
    many.write_text("\n".join(cards) + "\n", encoding="utf-8")
    loop = asyncio.new_event_loop()
    editor = Editor(loop, tmp_path)
    editor.start()
    try:
        found = editor.diagnostics_of(editor.open("docs-game/cards/many.yaml"), lambda ds: len(ds) > 0)
        assert len(found) == 2000 and all("unknown key '😋bogus" in d.message for d in found)
        # the key starts at column 4; the emoji it starts with counts two in UTF-16, the editor's units
        assert [(d.range.start.line, d.range.start.character, d.range.end.character) for d in found[:2]] == \
            [(6, 4, 6), (10, 4, 6)]
    finally:
        editor.stop()
        loop.close()


def settled_objects(samples: int = 5, pause: float = 0.2) -> int:
    """The fewest objects this process holds over a few samples a moment apart: on a loaded
    machine the server may still be finishing what it was doing when its diagnostics arrive
    (a check's last objects, timers of edits not yet dropped), and a leak shows in every sample."""
    counts = []
    for _ in range(samples):
        gc.collect()
        counts.append(len(gc.get_objects()))
        time.sleep(pause)
    return min(counts)


def test_edits_leave_nothing_behind_in_the_server(tmp_path):
    from interpreter.lsp.server import build_server, run_over
    shutil.copytree(FIXTURES / "docs-game", tmp_path / "docs-game")
    to_server, from_server = os.pipe(), os.pipe()
    # closed in the reverse order: the editor's output, so that the server's input ends, then the
    # server's output, so that the editor's ends (a reader waiting on a file holds it open)
    with open(from_server[0], "rb") as editor_in, open(to_server[0], "rb") as server_in, \
            open(from_server[1], "wb") as server_out, open(to_server[1], "wb") as editor_out:
        serving = threading.Thread(target=run_over, args=(build_server(), server_in, server_out), daemon=True)
        serving.start()  # in this process, to count what it keeps
        editor = RawEditor(editor_in, editor_out)
        editor.start(tmp_path)
        market = tmp_path / MARKET
        uri, text = from_fs_path(str(market)), market.read_text(encoding="utf-8") + "# a\n"
        editor.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1,
                                                                "text": text}})
        editor.until(lambda m: m.get("method") == "textDocument/publishDiagnostics")
        version = 1

        def type_in(edits: int) -> int:
            nonlocal version
            for _ in range(edits):
                version += 1
                editor.notify("textDocument/didChange", {
                    "textDocument": {"uri": uri, "version": version},
                    "contentChanges": [{"text": text.replace("# a", f"# {chr(97 + version % 26)}")}]})
            editor.answer(editor.hover(uri))  # every edit read
            editor.until(lambda m: m.get("method") == "textDocument/publishDiagnostics")  # and checked
            return settled_objects()

        before = type_in(200)
        after = type_in(1000)
        assert after - before < 250, f"{after - before} more objects after 1000 edits"  # pygls alone kept 12 an edit
        editor_out.close()  # the input ends: so does the server
        serving.join(WAIT)
        assert not serving.is_alive()


@pytest.fixture(scope="module")
def game_of_many_files(tmp_path_factory):
    """An editor on a copy of the docs game with 20 more card files."""
    folder = tmp_path_factory.mktemp("many-files")
    shutil.copytree(FIXTURES / "docs-game", folder / "docs-game")
    for i in range(20):
        (folder / "docs-game" / "cards" / f"more{i}.yaml").write_text(
            f"kind: cards\ngame: docs-game\ncards:\n  - id: more{i}\n    title: More {i}\n    type: Worker\n",
            encoding="utf-8")
    loop = asyncio.new_event_loop()
    ed = Editor(loop, folder)
    ed.start()
    yield ed
    ed.stop()
    loop.close()


def test_documents_of_one_game_share_one_check(game_of_many_files):
    editor = game_of_many_files
    files = sorted(str(p.relative_to(editor.folder)) for p in (editor.folder / "docs-game").rglob("*.yaml"))
    files.remove("docs-game/cards/more19.yaml")
    uris = [editor.open(f) for f in files + ["docs-game/cards/more19.yaml"]]
    # the classes of the game for a card's type, in the last opened: its pack was read for it
    assert set(labels(editor.request("completion", uris[-1], 5, len("    type: ")))) == {"Building", "Worker"}
    for uri in uris:
        editor.diagnostics_of(uri, lambda ds: True)  # each document told its problems (none)
    assert len(uris) == 25 and editor.checks() == 1  # one pack for all: the others read the same texts


def test_a_burst_of_edits_makes_one_check_and_completion_answers_meanwhile(game_of_many_files):
    editor = game_of_many_files
    uri = editor.uri(MARKET)
    text = (editor.folder / MARKET).read_text(encoding="utf-8")
    editor.open(MARKET, text)
    editor.diagnostics_of(uri, lambda ds: len(ds) == 0)
    checks = editor.checks()
    for i in range(40):
        editor.change(uri, text.replace('"Income 1"', f'"Income {i}"'))
    editor.change(uri, text.replace('"Income 1"', '"Incom 1"'))
    line, character = position_of(text, "Income 1", 2)
    answered = editor.request("completion", uri, line, character)
    assert editor.checks() - checks <= 1 and "Bonus X - Y" in labels(answered)  # not behind 41 checks
    (d,) = editor.diagnostics_of(uri, lambda ds: len(ds) == 1)
    assert "unknown keyword 'Incom 1'" in d.message
    # one check after the typing paused (or a few, had the machine held the server longer than
    # the pause between two edits): never one an edit
    assert 1 <= editor.checks() - checks <= 3


def test_a_pack_let_go_for_others_is_checked_again_when_needed(game_of_many_files):
    from interpreter.lsp.packs import MAX_PACKS
    editor = game_of_many_files
    uris = []
    for i in range(MAX_PACKS + 1):  # a file of no game folder, naming its game, is a pack of its own
        (editor.folder / f"lone{i}.yaml").write_text(
            f"kind: cards\ngame: docs-game\ncards:\n  - id: lone{i}\n    title: Lone {i}\n    type: Worker\n",
            encoding="utf-8")
        uris.append(editor.open(f"lone{i}.yaml"))
        editor.diagnostics_of(uris[-1], lambda ds: True)
    checks = editor.checks()
    # the first pack is the one let go: completion in its file checks it again, and waits for it
    assert set(labels(editor.request("completion", uris[0], 5, len("    type: ")))) == {"Building", "Worker"}
    assert editor.checks() == checks + 1
