"""Stage 3, parse: rules texts into the typed tree of `nodes` (the front door).

The Lark grammar (`grammar/regles.lark`) is built once per process with the
LALR algorithm and an indentation post-lexer. A text is read by the first of:
the reader of printed keyword lines (`Bonus 2 - Harbour`), the fast parser
(`fastparse`, Lark's tables without Lark's trees; its loop in C, `native_parse`,
in a process that has parsed many texts), and Lark itself, which alone
reports syntax errors (`syntax_errors`: what was found, what was expected,
which construct is still open, in words a modder knows). `tonodes` makes the
typed tree either way.
"""
from __future__ import annotations

import os
import re
from functools import lru_cache

from lark import Lark, Tree
from lark.exceptions import UnexpectedInput
from lark.indenter import DedentError, Indenter

from . import grammar_tables, nodes as N
from ..diagnostics import ContentError, Position
from .fastparse import MAX_DEPTH, FastParser
from .native_parse import native_loop
from ..resources import cache_folder, grammar_path
from ..content.source import position
from .syntax_errors import dedent_position, syntax_error, text_lines
from .tonodes import ToNodes, number_value

START_SYMBOLS = ("procedure", "ability", "condition")
# texts parsed by the Python loop in a process before the loop in C takes over, when it was
# built on this machine before: its setup (about 60 ms) is paid back after a few hundred texts.
# It is built (0.6 s, once a machine) only by a process that has parsed BUILD_AFTER texts: a
# check of a game with its expansions (2,695 texts for the largest shipped) or of a large
# pack, never a load of a game (a few hundred texts) nor a check of a small pack
NATIVE_AFTER = 500
BUILD_AFTER = 2_000


class _Indent(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8


@lru_cache(maxsize=1)
def lark_parser() -> Lark:
    """The grammar's parser: from the tables shipped beside it when they are those of this
    grammar and this Lark (`grammar_tables`), else built (and kept in the user's cache)."""
    grammar = grammar_path()
    shipped = grammar_tables.load(grammar.read_text(encoding="utf-8"), grammar_tables.tables_path(grammar), _Indent())
    return shipped if shipped is not None else build_lark(table_cache())


def build_lark(cache: str | bool = False) -> Lark:
    """The grammar's LALR parser; its tables read from file `cache` when it holds those of this
    grammar and this Lark (else built, and written there)."""
    return Lark(grammar_path().read_text(encoding="utf-8"), parser="lalr", postlex=_Indent(),
                start=list(START_SYMBOLS), propagate_positions=True, maybe_placeholders=True,
                cache=cache)


def table_cache() -> str | bool:
    """Where Lark keeps the grammar's LALR tables between processes (building them is most of
    a cold start), or False for no cache. The file is the engine's own, never content's: it is
    in the user's cache folder (`$XDG_CACHE_HOME/regles`, else `~/.cache/regles`), made private,
    and used only when it is the user's; Lark names it by the grammar's and its own version's
    hash. `REGLES_NO_CACHE=1` turns it off."""
    folder = cache_folder()
    if folder is None:
        return False
    return os.path.join(folder, "lark-tables.pickle")


@lru_cache(maxsize=1)
def _fast_parser() -> FastParser | None:
    try:
        return FastParser(lark_parser())
    except Exception:  # a Lark whose insides are not those this loop knows: Lark alone
        return None


def parse(text: str, start: str, where=None, path: str = "<text>"):
    """Parse `text` from grammar rule `start`.

    `where(line, column)` maps a place in `text` to a file Position (by default
    the text is its own file). Raises ContentError with a readable message.
    """
    if where is None:
        def where(line, column, _path=path):
            return Position(_path, line, column)
    parser = lark_parser()
    source = text if text.endswith("\n") else text + "\n"
    for n, line in enumerate(text_lines(source), 1):
        lead = line[: len(line) - len(line.lstrip(" \t"))]
        if "\t" in lead and line.strip():
            raise ContentError("Y002", "syntax error: tab character used for indentation", where(n, lead.index("\t") + 1),
                               "indent with spaces")
    if start == "ability":
        fast = _printed_phrase(source, where)
        if fast is not None:
            return fast
    fast = _fast_parser()
    if fast is not None:
        node = _fast_parse(fast, source, start, where)
        if node is not None:
            return node
    tree = _TREES.get((source, start))
    if tree is None:
        try:
            tree = parser.parse(source, start=start)
        except UnexpectedInput as exc:
            raise syntax_error(exc, source, where, parser) from None
        except DedentError:
            raise ContentError("P001", "syntax error: this line is indented less than its block but more than the "
                               "enclosing one", dedent_position(source, where),
                               "indent each line of a block by the same amount") from None
        _check_depth(tree, where)
        if len(_TREES) < 50_000:
            _TREES[(source, start)] = tree  # texts repeat across cards: parse each once per process
    return ToNodes(where).transform(tree)


def _fast_parse(fast: FastParser, source: str, start: str, where):
    """The tree of `source` by the fast parser's loop in C, else in Python; None to let Lark
    parse it. What the loop in C gives up on is a text the Python loop gives up on too (the
    tests compare them), an error: Lark parses it."""
    global _LOOPED
    if _LOOPED >= NATIVE_AFTER:
        loop = native_loop(fast, build=_LOOPED >= BUILD_AFTER)
        if loop is not None:
            return loop.parse(source, start, where)
    if _LOOPED < BUILD_AFTER:
        _LOOPED += 1
    return fast.parse(source, start, where)


_LOOPED = 0  # texts parsed by the Python loop in this process (up to BUILD_AFTER)
_TREES: dict = {}
_PHRASE_LINE = re.compile(r"[^\W\d][\w']*(?:[ ]+(?:[^\W\d][\w']*|\d+|[-\u2013\u2014]))*[ ]*\n")
_PHRASE_WORD = re.compile(r"[^\W\d][\w']*|\d+|[-\u2013\u2014]")


@lru_cache(maxsize=1)
def _language_words() -> frozenset:
    """The reserved words of the language (they never stand in a printed phrase)."""
    words = set()
    for t in lark_parser().terminals:
        if t.pattern.type == "str" and re.fullmatch(r"[^\W\d][\w']*", t.pattern.value):
            words.add(t.pattern.value)
    return frozenset(words)


def _printed_phrase(source: str, where):
    """A printed keyword line ('Bonus 2 - Harbour'), read without the LALR parser.

    Most card abilities are such lines; they give the same tree as the grammar's
    `phrase_ability`, with the same positions, at a fraction of the cost."""
    if not _PHRASE_LINE.fullmatch(source):
        return None
    words = []
    reserved = _language_words()
    for m in _PHRASE_WORD.finditer(source):
        text = m.group(0)
        if text in reserved:
            return None  # let the grammar decide
        col = m.start() + 1
        pos = where(1, col)
        pos = position(pos.path, pos.line, pos.column, pos.column + len(text))
        if text[0].isdigit():
            words.append(N.Word(pos, N.WordKind.NUMBER, number_value(text)))
        elif text in ("-", "\u2013", "\u2014"):
            words.append(N.Word(pos, N.WordKind.DASH, text))
        else:
            words.append(N.Word(pos, N.WordKind.NAME, text))
    first, last = words[0].pos, words[-1].pos
    phrase = N.Phrase(position(first.path, first.line, first.column, last.end_column), words)
    return N.PhraseAbility(position(first.path, first.line, first.column), phrase)


def _check_depth(tree, where) -> None:
    """Refuse trees nested deeper than MAX_DEPTH, which the later stages walk recursively."""
    stack = [(tree, 1)]
    while stack:  # iteratively: the tree may be far deeper than Python's recursion limit
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            meta = node.meta if isinstance(node, Tree) else node
            line, col = getattr(meta, "line", None), getattr(meta, "column", None)
            raise ContentError("P002", f"syntax error: blocks or expressions nested more than {MAX_DEPTH} levels deep",
                               where(line or 1, col or 1), "split the expression with 'let', or the block into procedures")
        if isinstance(node, Tree):
            stack.extend((c, depth + 1) for c in reversed(node.children) if isinstance(c, Tree))
