"""What the page generators of docs/ share: write a generated page, or check it is current.

    write_or_check(PAGE, text, argv, "python docs/gen_X.py")

With `--check` in argv it returns 1 (after saying so) when the committed page
differs from `text`, else 0; without, it writes the page.
"""
from __future__ import annotations

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
