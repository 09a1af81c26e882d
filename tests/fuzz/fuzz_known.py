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
    "control-names": "issue 10 item: names with NUL or control characters",
    "nesting": "issue 10 item: blocks nested deeper than 20 (Python's limit on nested blocks)",
    "digits": "issue 10 item: number literals over 4,300 digits",
    "unbound-text": "issue 10 item: prompts and labels reading unbound names",
    "before-let": "issue 10 item: names used before their let",
    "none-warning": "issue 10 item: 'if 3 != none' gives a SyntaxWarning",
    "budget": "issue 10 item: runaway loops, huge ranges, integers and lists (step budget)",
    "fullmatch": "issue 10 item: ids matched with re.search instead of fullmatch",
    "separators": "issue 10 item: names containing internal separators such as '#'",
    "elif-chain": "found by fuzzing: a long elif chain overflows Python's compiler (RecursionError)",
    "many-statements": "found by fuzzing: a procedure of 20,000 statements exhausts memory when compiled",
    "function-chain": "found by fuzzing: a chain of 100 or more game functions, each calling the next, "
                      "overflows the compiler or the checker",
    "many-diagnostics": "found by fuzzing: a text of 300,000 errors takes over 10 s to report (no cap on diagnostics)",
}

# (issue, failure kinds, pattern searched in the failure's detail, its frames and the case's mutations)
RULES = [
    ("digits", ("exception",), r"Exceeds the limit \(4300 digits\) for integer string conversion"),
    ("nesting", ("exception",), r"too many statically nested blocks"),
    ("none-warning", ("warning",), r'SyntaxWarning: "is( not)?" with a literal'),
    ("elif-chain", ("exception",), r"RecursionError: maximum recursion depth exceeded during compilation"
                                    r".*compile/assemble\.py"),
    ("function-chain", ("exception",), r"too many nested parentheses.*compile/assemble\.py"),
    ("function-chain", ("exception",), r"RecursionError.*(language/check_expressions\.py|compile/expressions\.py)"),
    ("budget", ("exception",), r"OverflowError: Python int too large to convert to C ssize_t"
                               r".*language/builtins\.py"),
    ("budget", ("memory", "hang"), r"hostile/(growing_value|huge_count|runaway_loop|recursion|huge_literal)"),
    # loops of loops: 20 'for each' nested run 2**20 rounds and more, none counted by the budget
    ("budget", ("hang",), r"hostile/nested_blocks .*'for each p in players:'"),
    # a name holding '#' makes keys that split wrong ('co#ins#0' is read as counter 'co')
    ("separators", ("invariant", "exception"), r"hostile/odd_names a \w+ named '[^']*[#$|][^']*'"),
    ("many-statements", ("memory", "hang"), r"hostile/many_statements"),
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
