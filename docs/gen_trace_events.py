"""Write the table of trace events in docs/playing.md from the records of `interpreter.engine.events`.

    python docs/gen_trace_events.py            # rewrite the table
    python docs/gen_trace_events.py --check    # exit 1 if the committed page is out of date

Each kind of event a trace holds is one record in the engine, with its fields;
the page shows the same rows between its `<!-- table: trace events -->` and
`<!-- end table -->` markers, so that a new kind or field appears there as soon
as it exists.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PAGE = ROOT / "docs" / "playing.md"

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pagegen import cell, marked, write_or_check  # noqa: E402
from interpreter.engine.events import COMMON, EVENTS  # noqa: E402


def _field(f) -> str:
    return f"`{f.name}`" + (" (optional)" if f.optional else "") + f": {f.doc}"


def table() -> str:
    common = "; ".join(_field(f) for f in COMMON)
    rows = []
    for e in EVENTS:
        marks = [m for m, on in (("changes the state", e.changes), ("answers a decision", e.answers),
                                 ("narrated with --all and in replays", e.bookkeeping)) if on]
        rows.append(f"| `{e.kind}` | {cell(e.doc)}" + (f" ({', '.join(marks)})" if marks else "")
                    + f" | {cell('; '.join(_field(f) for f in e.fields))} |")
    return "\n".join([f"Every event has {cell(common)}.", "", "| type | what happened | its fields |",
                      "|---|---|---|", *rows]) + "\n"



def page(text: str) -> str:
    return marked(text, "trace events", table(), PAGE)


def main(argv) -> int:
    return write_or_check(PAGE, page(PAGE.read_text(encoding="utf-8")), argv, "python docs/gen_trace_events.py", ROOT)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
