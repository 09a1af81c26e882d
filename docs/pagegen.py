"""What the page generators of docs/ share: write a generated page, or check it is current.

    write_or_check(PAGE, text, argv, "python docs/gen_X.py")

With `--check` in argv it returns 1 (after saying so) when the committed page
differs from `text`, else 0; without, it writes the page. `marked(text, name,
table, page)` puts a generated table between the page's `<!-- table: NAME -->`
and `<!-- end table -->` marks; `cell(text)` makes a text safe in a table cell.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path


def write_or_check(page: Path, text: str, argv, command: str, root: Path) -> int:
    if "--check" in argv:
        current = page.read_text(encoding="utf-8") if page.exists() else ""
        if current != text:
            print(f"{page.relative_to(root)} is out of date: run '{command}'", file=sys.stderr)
            return 1
        return 0
    page.write_text(text, encoding="utf-8")
    print(f"wrote {page.relative_to(root)}")
    return 0


def cell(text: str) -> str:
    """A text safe in a cell of a Markdown table."""
    return text.replace("|", "\\|")


def marked(text: str, name: str, table: str, page: Path) -> str:
    """`text` with `table` between its `<!-- table: NAME -->` and `<!-- end table -->` marks."""
    marks = re.compile(rf"(<!-- table: {re.escape(name)} -->\n)(.*?)(<!-- end table -->)", re.S)
    if not marks.search(text):
        raise SystemExit(f"{page.name} has no marked table of {name}")
    return marks.sub(lambda m: m.group(1) + table + m.group(3), text)
