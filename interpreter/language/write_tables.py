"""Writes the grammar's LALR tables beside it (`grammar/regles.tables`, see grammar_tables):

    python -m interpreter.language.write_tables

to be run after an edit of `grammar/regles.lark` (tests/language/test_grammar_tables.py says so).
Lark numbers the parser's states in an order that is not fixed from one process to the next,
so two runs write different bytes for the same parser: write the file only when the grammar or
Lark changed.
"""
from __future__ import annotations

import sys

from ..resources import grammar_path
from .grammar_tables import dumps, tables_path
from .parser import build_lark


def main() -> int:
    grammar = grammar_path()
    target = tables_path(grammar)
    target.write_bytes(dumps(build_lark(False), grammar.read_text(encoding="utf-8")))
    print(f"wrote {target} ({target.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
