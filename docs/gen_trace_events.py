"""Write the table of trace events in docs/playing.md from the records of `interpreter.engine.events`.

    python docs/gen_trace_events.py            # rewrite the table
    python docs/gen_trace_events.py --check    # exit 1 if the committed page is out of date

Each kind of event a trace holds is one record in the engine, with its fields;
the page shows the same rows between its `<!-- table: trace events -->` and
`<!-- end table -->` markers, so that a new kind or field appears there as soon
as it exists.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PAGE = ROOT / "docs" / "playing.md"

from interpreter.engine.events import COMMON, EVENTS  # noqa: E402

_TABLE = re.compile(r"(<!-- table: trace events -->\n)(.*?)(<!-- end table -->)", re.S)


def _field(f) -> str:
    return f"`{f.name}`" + (" (optional)" if f.optional else "") + f": {f.doc}"


def table() -> str:
    common = "; ".join(_field(f) for f in COMMON)
    rows = []
    for e in EVENTS:
        marks = [m for m, on in (("changes the state", e.changes), ("answers a decision", e.answers),
                                 ("not narrated", e.silent)) if on]
        rows.append(f"| `{e.kind}` | {_cell(e.doc)}" + (f" ({', '.join(marks)})" if marks else "")
                    + f" | {_cell('; '.join(_field(f) for f in e.fields))} |")
    return "\n".join([f"Every event has {_cell(common)}.", "", "| type | what happened | its fields |",
                      "|---|---|---|", *rows]) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def page(text: str) -> str:
    if not _TABLE.search(text):
        raise SystemExit(f"{PAGE.relative_to(ROOT)} has no marked table of trace events")
    return _TABLE.sub(lambda m: m.group(1) + table() + m.group(3), text)


def main(argv) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from pagegen import write_or_check
    return write_or_check(PAGE, page(PAGE.read_text(encoding="utf-8")), argv, "python docs/gen_trace_events.py", ROOT)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
