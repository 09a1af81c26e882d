"""Write the table of error codes in docs/errors.md from `interpreter.diagnostics.CODES`.

    python docs/gen_error_codes.py            # rewrite the table
    python docs/gen_error_codes.py --check    # exit 1 if the committed page is out of date

The codes are one table in the engine; the errors page shows the same rows between its
`<!-- table: error codes -->` and `<!-- end table -->` markers.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PAGE = ROOT / "docs" / "errors.md"

from interpreter.diagnostics import CODES  # noqa: E402

_TABLE = re.compile(r"(<!-- table: error codes -->\n)(.*?)(<!-- end table -->)", re.S)


def table() -> str:
    rows = [f"| `{code}` | {name} | {what} |" for code, name, _pattern, what in CODES]
    return "\n".join(["| code | name | what it reports |", "|---|---|---|", *rows]) + "\n"


def page(text: str) -> str:
    if not _TABLE.search(text):
        raise SystemExit(f"{PAGE.relative_to(ROOT)} has no marked table of error codes")
    return _TABLE.sub(lambda m: m.group(1) + table() + m.group(3), text)


def main(argv) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from pagegen import write_or_check
    return write_or_check(PAGE, page(PAGE.read_text(encoding="utf-8")), argv, "python docs/gen_error_codes.py", ROOT)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
