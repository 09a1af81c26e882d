"""Write the table of error codes in docs/errors.md from the records of `interpreter.codes`.

    python docs/gen_error_codes.py            # rewrite the table
    python docs/gen_error_codes.py --check    # exit 1 if the committed page is out of date

The codes are records in the engine (each raised where its code is named); the errors page shows the same rows between its
`<!-- table: error codes -->` and `<!-- end table -->` markers.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PAGE = ROOT / "docs" / "errors.md"

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pagegen import cell, marked, write_or_check  # noqa: E402
from interpreter.codes import CODES  # noqa: E402


def table() -> str:
    rows = [f"| `{c.id}` | {c.name} | {c.wing} | {cell(c.description)} | {cell(c.example)} |" for c in CODES]
    return "\n".join(["| code | name | wing | what it reports | example |", "|---|---|---|---|---|", *rows]) + "\n"


def page(text: str) -> str:
    return marked(text, "error codes", table(), PAGE)


def main(argv) -> int:
    return write_or_check(PAGE, page(PAGE.read_text(encoding="utf-8")), argv, "python docs/gen_error_codes.py", ROOT)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
