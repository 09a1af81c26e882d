"""The grammar's LALR tables shipped with regles, so that a first start does not build them.

Building the tables of `grammar/regles.lark` is most of a first start (about half a second:
Lark's LALR analysis), and gives the same tables every time for the same grammar and the same
Lark. They are kept beside the grammar, in `grammar/regles.tables`: Lark's own serialised form
of the parser (`Lark.memo_serialize`, plain dicts, lists, texts and numbers), compressed, with
the hash of the grammar's text and the version of Lark that made them. A process uses them only
when both match its own; otherwise (a newer Lark, an edited grammar) it builds the tables as
before and keeps them in the user's cache folder (`parser.table_cache`).

The file is the engine's own, never content's. It is written by

    python -m interpreter.language.write_tables

after an edit of the grammar; `tests/language/test_grammar_tables.py` fails until it is, and
compares the shipped tables with those Lark builds.
"""
from __future__ import annotations

import hashlib
import marshal
import zlib
from pathlib import Path

from lark import Lark, __version__ as lark_version
from lark.grammar import Rule
from lark.lexer import TerminalDef

FORMAT = 1  # the layout of the file's header; another layout is another number
_LEFT_OUT = ("postlex", "cache")  # options given when loading (objects, paths), not stored


def tables_path(grammar: Path) -> Path:
    return grammar.with_suffix(".tables")


def grammar_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def serialised(lark) -> tuple[dict, dict]:
    """(data, memo) of a built Lark parser, as Lark serialises it, without the options that are
    objects of this process (the indenter) or places (the cache file)."""
    data, memo = lark.memo_serialize([TerminalDef, Rule])
    data["options"] = {k: v for k, v in data["options"].items() if k not in _LEFT_OUT}
    return data, memo


def dumps(lark, grammar_text: str) -> bytes:
    data, memo = serialised(lark)
    header = {"format": FORMAT, "lark": lark_version, "grammar": grammar_hash(grammar_text)}
    return zlib.compress(marshal.dumps((header, data, memo), 4), 9)


def read(grammar_text: str, path: Path) -> tuple[dict, dict] | None:
    """(data, memo) of the shipped tables when they are those of `grammar_text` and of the
    Lark of this process; None otherwise (no file, another grammar or Lark, a damaged file)."""
    try:
        header, data, memo = marshal.loads(zlib.decompress(path.read_bytes()))
    except (OSError, ValueError, EOFError, TypeError, zlib.error):
        return None
    if not isinstance(header, dict) or not isinstance(data, dict) or not isinstance(memo, dict):
        return None
    if header.get("format") != FORMAT or header.get("lark") != lark_version \
            or header.get("grammar") != grammar_hash(grammar_text):
        return None
    return data, memo


def load(grammar_text: str, path: Path, postlex):
    """The Lark parser made from the shipped tables, or None when they do not match (see `read`)."""
    found = read(grammar_text, path)
    if found is None:
        return None
    try:
        return Lark._load_from_dict(found[0], found[1], postlex=postlex)
    except Exception:  # tables a Lark of the same version does not take: built instead
        return None
