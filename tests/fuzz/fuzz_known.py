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
    "lsp-frames": "being mended (language server hardening): a malformed frame (a Content-Length missing, "
                  "negative, huge, not a number, given twice, a line ended by LF alone; a body cut short, longer "
                  "than told, deep or not JSON; JSON of the wrong shape; a request of a method nobody knows; a "
                  "position out of range) leaves the server out of step, so that the next request is never "
                  "answered, or writes a pygls traceback on its standard error",
    "lsp-odd-document": "found by fuzzing: a hover, completion or definition on a document never opened whose "
                        "URI names a folder ('', a folder's path) raises IsADirectoryError in "
                        "tools/lsp/server.py (lines_and_position, pygls reading the 'document' from disk); the "
                        "request is answered with an error and a traceback goes to standard error",
}

# (issue, failure kinds, pattern searched in the failure's detail, its frames and the case's mutations)
RULES = [
    ("many-diagnostics", ("hang",), r"diagnostics\.py.*(render_text|sorted|sort_key|source_line|lines_of)"),
    # the failing burst (named in the detail, "burst N (...)") holds a malformed frame, or pygls's own
    # reading of a frame wrote the traceback
    ("lsp-frames", ("dead server", "bad answer"),
     r"^burst \d+ \([^\n]*?(header: Content-Length|body: |JSON of the wrong shape|of the method)"),
    # a traceback of pygls's own reading or checking of a message, with no frame of regles's
    ("lsp-frames", ("exception",), r"^a traceback on the server's standard error: Traceback (?:(?!interpreter/)[^\n])*$"),
    ("lsp-odd-document", ("exception",), r"^a traceback on the server's standard error: Traceback .*"
                                         r"interpreter/tools/lsp/server\.py\S*, line \d+, in lines_and_position"),
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
