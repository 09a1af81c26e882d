"""The protocol: the language server wired with pygls, over stdio or TCP.

pygls is imported only when the server is made (`build_server`), so that the rest of regles,
and its core install, never need it; `MissingServer` says it is absent. The editor's
messages are read through `frames.Frames`, so that a malformed one is dropped, not fatal.
A document's pack (`packs`) is checked when `schedule` says: at once when a document is
opened, saved or closed, a short while after the last change while it is typed; one check at
a time, in a thread of its own, so that completion and hover still answer. A pack's problems
are published to every file of it that has some, or had some.
"""
from __future__ import annotations

import logging
import os
import socket
import sys
import time

from .. import __version__
from ..diagnostics import lines_of, printable
from .analysis import Analysis, Problem, is_content
from .columns import Columns
from .completion import Item, complete
from .definition import definition
from .frames import Frames
from .hover import hover
from .packs import Packs, check_pack, pack_of, shown
from .place import place_at
from .schedule import Checks

DELAY = 0.3  # seconds of quiet after a change before the document is checked
INSTALL = "pip install 'regles[lsp]'"
log = logging.getLogger("regles.lsp")


class MissingServer(Exception):
    """pygls is not installed."""


class Session:
    """What the server knows between requests: the last check of each pack, the pack of each
    open document, the documents opened and not checked yet, and the problems last published
    to each file."""

    def __init__(self):
        self.packs = Packs()
        self.docs: dict[str, tuple] = {}  # open document path -> its pack
        self.unread: dict = {}  # document path -> the event set once a check has read its text as opened
        self.published: dict[str, list[Problem]] = {}  # file path -> the problems it shows

    def defn_of(self, path: str):
        """The definitions and findings of the pack of open document `path`, as last checked,
        and the texts it read."""
        analysis = self.packs.get(self.docs[path]) if path in self.docs else None
        if analysis is None or not analysis.packs:
            return None, None, {}
        defn, found = analysis.packs[-1]  # with expansions laid over, when the file belongs to one
        return defn, found, analysis.sources


def build_server():
    """The language server, its features registered; MissingServer without pygls."""
    import asyncio  # here, as pygls: every other command of regles starts faster without them
    from concurrent.futures import ThreadPoolExecutor
    try:
        from lsprotocol import types as T
        from pygls import uris
        from pygls.lsp.server import LanguageServer
        from pygls.exceptions import JsonRpcException
        from pygls.protocol import LanguageServerProtocol
    except ImportError:
        raise MissingServer(f"the language server needs pygls: {INSTALL}") from None

    class Protocol(LanguageServerProtocol):
        """pygls' protocol, less what it keeps of each notification for good: the future of
        its handler, filed under an id nobody looks up again (a few kB a keystroke)."""

        def _handle_notification(self, method_name, params):
            super()._handle_notification(method_name, params)
            done = [key for key, future in self._request_futures.items() if future.done()]
            for key in done:  # a request's is taken out when answered: these are notifications'
                del self._request_futures[key]

        def structure_message(self, data):
            """pygls' reading of a message, which answers nothing to a request whose params
            are not of its method's shape: such a request is answered with the error."""
            try:
                return super().structure_message(data)
            except JsonRpcException as exc:
                asked = data.get("id") if isinstance(data, dict) and "method" in data else None
                if isinstance(asked, (int, str)) and not isinstance(asked, bool):
                    self._send_response(asked, error=T.ResponseError(exc.code, "the request's params are not "
                                                                     "those of its method"))
                raise

    server = LanguageServer("regles", __version__, protocol_cls=Protocol)
    session = Session()
    worker = ThreadPoolExecutor(max_workers=1)  # one check at a time: checks share the collector's settings
    severities = {"error": T.DiagnosticSeverity.Error, "warning": T.DiagnosticSeverity.Warning}
    kinds = {"keyword": T.CompletionItemKind.Keyword, "class": T.CompletionItemKind.EnumMember,
             "zone": T.CompletionItemKind.Variable, "counter": T.CompletionItemKind.Variable,
             "event": T.CompletionItemKind.Event, "window": T.CompletionItemKind.Constant,
             "value": T.CompletionItemKind.Value, "card": T.CompletionItemKind.Reference,
             "procedure": T.CompletionItemKind.Function, "function": T.CompletionItemKind.Function,
             "builtin": T.CompletionItemKind.Function, "property": T.CompletionItemKind.Property,
             "attribute": T.CompletionItemKind.Field, "name": T.CompletionItemKind.Constant,
             "word": T.CompletionItemKind.Keyword, "key": T.CompletionItemKind.Property,
             "option": T.CompletionItemKind.Constant}

    def path_of(uri: str) -> str | None:
        path = uris.to_fs_path(uri)
        return os.path.abspath(path) if path else None

    def open_texts() -> dict:
        texts = {}
        for uri, doc in list(server.workspace.text_documents.items()):
            path = path_of(uri)
            if path:
                texts[path] = doc.source
        return texts

    def columns(lines: list[str]) -> Columns:
        return Columns(lines, server.workspace.position_codec.client_num_units)

    def lines_and_position(params):
        """The open document a request is about, its lines and the request's place in them;
        None for a document the editor has not opened (it is never read from disk here)."""
        if params.text_document.uri not in server.workspace.text_documents:
            return None
        doc = server.workspace.get_text_document(params.text_document.uri)
        lines = lines_of(doc.source)
        at = server.workspace.position_codec.position_from_client_units(lines, params.position)
        return doc, lines, at.line, at.character

    def to_client(cols: Columns, line: int, column: int):
        return T.Position(*cols.at(line, column))

    def publish(analysis: Analysis, paths: set) -> None:
        for f in sorted(set(analysis.sources) | paths):  # every file of the pack, and the documents
            problems = analysis.problems.get(f, [])
            if session.published.get(f, []) == problems and f not in paths:
                continue
            session.published[f] = problems
            cols = columns(lines_of(analysis.sources.get(f, "")))  # each line measured once
            diagnostics = [T.Diagnostic(
                range=T.Range(to_client(cols, p.line, p.column), to_client(cols, p.end_line, p.end_column)),
                message=p.message, severity=severities.get(p.severity, T.DiagnosticSeverity.Error),
                code=p.code, source="regles") for p in problems]
            server.text_document_publish_diagnostics(
                T.PublishDiagnosticsParams(uri=uris.from_fs_path(f), diagnostics=diagnostics))

    def say(kind, message: str) -> None:
        server.window_log_message(T.LogMessageParams(kind, message))

    async def run(pack: tuple, paths: set, stale) -> bool:
        """Check `pack` for documents `paths` (unless its last check still holds), and publish
        what it found unless a newer edit has made it `stale`; whether it published."""
        last = session.packs.get(pack)
        began = time.perf_counter()
        texts = open_texts()
        read = {p: e for p, e in session.unread.items() if session.docs.get(p) == pack}  # as they are now
        try:
            analysis, checked = await asyncio.get_running_loop().run_in_executor(
                worker, check_pack, paths, texts, last)
        except Exception as exc:  # a fault of regles itself: said in the editor's log, the server goes on
            say(T.MessageType.Error, f"regles: internal error while checking {shown(pack)}: "
                                     f"{type(exc).__name__}: {exc}")
            return True  # nothing to publish, now or later
        finally:
            for p, event in read.items():
                event.set()
                if session.unread.get(p) is event:
                    del session.unread[p]
        if checked:
            say(T.MessageType.Log, f"regles: checked {shown(pack)} ({len(analysis.sources)} files) "
                                   f"in {time.perf_counter() - began:.2f} s")
        if not analysis.packs and last is not None:  # the file does not read now: completion keeps the last pack that did
            analysis = Analysis(analysis.problems, analysis.sources, last.packs)
        if pack in session.docs.values():
            session.packs.put(pack, analysis)
        else:  # its documents all closed since: only the problems of the files on disk are wanted
            session.packs.drop(pack)
        if stale():
            return False
        publish(analysis, paths)
        return True

    checks = Checks(DELAY, run)

    def ask(uri: str, wait: bool, is_open: bool = True, opened: bool = False) -> None:
        """Ask for a check of the pack of document `uri`, if it is content (and, when it was
        just `opened`, have completion and hover wait for it, unless the pack's last check
        read the text it was opened with)."""
        path = path_of(uri)
        if path is None:
            return
        try:
            text = server.workspace.get_text_document(uri).source  # read from disk once closed
        except (OSError, UnicodeDecodeError):
            text = ""  # the check says what is wrong with the file
        if not is_content(path, text):
            return
        pack = session.docs.get(path) or pack_of(path)
        if is_open:
            session.docs[path] = pack
        last = session.packs.get(pack)
        if opened and (last is None or last.sources.get(path) != text):
            session.unread[path] = asyncio.Event()
        checks.request(pack, path, wait)

    async def ready(uri: str):
        """The pack of a document, once a check has read it as it was opened."""
        path = path_of(uri)
        pack = session.docs.get(path)
        if pack is not None and path not in session.unread and session.packs.get(pack) is None:
            session.unread[path] = asyncio.Event()  # its pack was let go (more packs open than kept): read again
            checks.request(pack, path, wait=False)
        unread = session.unread.get(path)
        if unread is not None:
            checks.hurry(session.docs[path])  # before the checks of other packs
            await unread.wait()
        return path, *session.defn_of(path)

    # Plain functions, not coroutines: each asks for a check and returns; checks run in their own task.
    @server.feature(T.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls, params: T.DidOpenTextDocumentParams):
        ask(params.text_document.uri, wait=False, opened=True)

    @server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls, params: T.DidChangeTextDocumentParams):
        ask(params.text_document.uri, wait=True)

    @server.feature(T.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls, params: T.DidSaveTextDocumentParams):
        ask(params.text_document.uri, wait=False)

    @server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls, params: T.DidCloseTextDocumentParams):
        path = path_of(params.text_document.uri)
        session.docs.pop(path, None)
        unread = session.unread.pop(path, None)
        if unread is not None:
            unread.set()  # nobody waits for it now
        # its unsaved changes may have been dropped: its problems are those of the file on disk
        ask(params.text_document.uri, wait=False, is_open=False)

    def item(i: Item, cols: Columns, line: int, start: int, end: int) -> T.CompletionItem:
        edit = T.TextEdit(T.Range(to_client(cols, line, start), to_client(cols, line, end)), i.insert or i.label)
        return T.CompletionItem(
            label=i.label, kind=kinds.get(i.kind), detail=i.detail or None,
            documentation=T.MarkupContent(T.MarkupKind.PlainText, i.doc) if i.doc else None,
            text_edit=edit, filter_text=i.label,
            insert_text_format=T.InsertTextFormat.Snippet if i.snippet else T.InsertTextFormat.PlainText)

    @server.feature(T.TEXT_DOCUMENT_COMPLETION,
                    T.CompletionOptions(trigger_characters=[".", " ", "\"", "(", ":", ","]))
    async def completion(ls, params: T.CompletionParams):
        path, defn, _, _ = await ready(params.text_document.uri)
        if (at := lines_and_position(params)) is None:
            return None
        doc, lines, line, column = at
        place = place_at(doc.source, lines, line, column)
        items = complete(place, defn)
        cols = columns(lines)
        return T.CompletionList(is_incomplete=False,
                                items=[item(i, cols, line, place.start, column) for i in items])

    @server.feature(T.TEXT_DOCUMENT_HOVER)
    async def on_hover(ls, params: T.HoverParams):
        path, defn, found, sources = await ready(params.text_document.uri)
        if (at := lines_and_position(params)) is None:
            return None
        doc, lines, line, column = at
        h = hover(defn, found, sources, path, lines, line, column)
        if h is None:
            return None
        cols = columns(lines)
        return T.Hover(contents=T.MarkupContent(T.MarkupKind.Markdown, h.text),
                       range=T.Range(to_client(cols, h.line, h.start), to_client(cols, h.line, h.end)))

    @server.feature(T.TEXT_DOCUMENT_DEFINITION)
    async def on_definition(ls, params: T.DefinitionParams):
        path, defn, found, sources = await ready(params.text_document.uri)
        if (at := lines_and_position(params)) is None:
            return None
        doc, lines, line, column = at
        target = definition(defn, found, path, lines, line, column)
        if target is None:
            return None
        where, at_line, at_column = target
        start = to_client(columns(lines_of(sources.get(where, "")) if where != path else lines), at_line, at_column)
        return T.Location(uri=uris.from_fs_path(where), range=T.Range(start, start))

    return server


def serve(tcp: int | None = None, host: str = "127.0.0.1") -> None:
    """Run the server over stdio, or over TCP on `port` (for one editor, until it leaves), until
    the editor stops it."""
    server = build_server()
    if tcp is None:
        quiet_logs()
        run_over(server, sys.stdin.buffer, sys.stdout.buffer)
        return
    with socket.create_server((host, tcp)) as listener:  # OSError when the port is taken
        quiet_logs()
        connection, _ = listener.accept()
    with connection, connection.makefile("rb") as reader, connection.makefile("wb") as writer:
        try:
            run_over(server, reader, writer)
        except ConnectionError:  # the editor went away without a word: the server ends, as it would
            pass


def run_over(server, reader, writer) -> None:
    """Serve the editor whose messages come in on `reader` (binary) and go out on `writer`,
    until it stops the server or the input ends."""
    server.start_io(Frames(reader, lambda why: log.warning("dropped a message: %s", why)), writer)


class _OneLine(logging.Formatter):
    """A record as one line of the editor's log: its first line, and the exception's kind and
    message, never a traceback."""

    def format(self, record: logging.LogRecord) -> str:
        text = record.getMessage().split("\n", 1)[0][:300]
        if record.exc_info and record.exc_info[1] is not None:
            text += f" ({type(record.exc_info[1]).__name__}: {str(record.exc_info[1])[:200]})"
        return printable(f"regles lsp: {record.levelname.lower()}: {text}")


def quiet_logs() -> None:
    """The server's own warnings, and pygls', written to standard error one line each (an
    editor shows it in its log), without the tracebacks pygls would print."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_OneLine())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING)
