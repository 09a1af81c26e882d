"""Write the tables of built-ins in docs/language.md from their records.

    python docs/gen_language_tables.py            # rewrite the tables in docs/language.md
    python docs/gen_language_tables.py --check    # exit 1 if the committed page is out of date

Each built-in function, property and special name of the rules language is one
record in interpreter/language/builtins/; the reference shows them from the
same records, between the page's `<!-- table: ... -->` and `<!-- end table -->`
markers, so that a new built-in appears in the reference as soon as it exists.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PAGE = ROOT / "docs" / "language.md"

from interpreter.language.builtins import FUNCTIONS, PROPERTIES, SPECIAL_NAMES  # noqa: E402


def special_names() -> str:
    rows = [f"| `{s.name}` | {_md(s.doc)} |" for s in SPECIAL_NAMES.values()]
    return "\n".join(["| name | what it is |", "|---|---|", *rows])


def properties() -> str:
    rows = [f"| `{p.name}` | {p.of} | {_md(p.doc)} |" for p in PROPERTIES.values()]
    return "\n".join(["| property | of | what it is |", "|---|---|---|", *rows])


def functions() -> str:
    rows = [f"| {', '.join(f'`{form}`' for form in f.forms)} | {_md(f.doc)} |" for f in FUNCTIONS.values()]
    return "\n".join(["| function | gives |", "|---|---|", *rows])


TABLES = {"special names": special_names, "properties": properties, "functions": functions}
_TABLE = re.compile(r"(<!-- table: ([a-z ]+) -->\n)(.*?)(\n<!-- end table -->)", re.S)


def _md(text: str) -> str:
    """A record's doc as a table cell: names in parentheses read as code (options.NAME)."""
    return re.sub(r"\((\w+\.NAME)\)", r"(`\1`)", text).replace("|", "\\|")


def page(text: str) -> str:
    """`text` with every marked table made anew from the records."""
    found = set()

    def table(m):
        found.add(m.group(2))
        return m.group(1) + TABLES[m.group(2)]() + m.group(4)
    out = _TABLE.sub(table, text)
    missing = set(TABLES) - found
    if missing:
        raise SystemExit(f"{PAGE.relative_to(ROOT)} has no marked table for: {', '.join(sorted(missing))}")
    return out


def main(argv) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from pagegen import write_or_check
    return write_or_check(PAGE, page(PAGE.read_text(encoding="utf-8")), argv, "python docs/gen_language_tables.py", ROOT)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
