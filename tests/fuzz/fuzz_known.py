"""Failures the fuzz suite knows of, each with the issue that tracks it.

`known_issue(outcome)` names the issue a failing outcome shows, or None for a
failure nobody knows of yet (the default fuzz test fails on those). Each
issue is told apart by what the failure says and where it happened, as
narrowly as it can be, so that a new failure is never taken for a known one.
When an issue is mended, its entry goes, and the fuzz tests and corpus
entries marked with its reason start to pass.
"""
from __future__ import annotations

import re

ISSUES = {
    "many-diagnostics": "found by fuzzing: a text of 300,000 errors takes over 10 s to report (no cap on diagnostics)",
}

# (issue, failure kinds, pattern searched in the failure's detail, its frames and the case's mutations)
RULES = [
    ("many-diagnostics", ("hang",), r"diagnostics\.py.*(render_text|sorted|sort_key|source_line|lines_of)"),
]


def known_issue(outcome) -> str | None:
    """The key in ISSUES of the known issue a failing outcome shows, or None."""
    if not outcome.failure:
        return None
    said = " ".join([outcome.detail, *outcome.frames, outcome.target, *outcome.what])
    for issue, kinds, pattern in RULES:
        if outcome.failure in kinds and re.search(pattern, said, re.S):
            return issue
    return None
