"""A document checked as `regles check` checks it, with the editor's unsaved texts.

`analyse(path, texts)` checks the packs the file belongs to (found as `regles
check` finds them: its game folder, the expansion around it, or the game it
names), reading the open documents `texts` in place of the files on disk, and
returns every problem of every file of those packs, with ranges as an editor
takes them (lines and columns from 0, the end excluded), and the definitions
and findings of the packs, for completion, hover and definition.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..content.folders import find_expansion_root, find_game_root, is_file
from ..content.source import edited_texts
from ..diagnostics import Diagnostic, lines_of
from ..rulings.check import check_paths

_WORD = re.compile(r"[\w'-]+")  # what a problem without an end spans, as diagnostics.end_of reads it
_CONTENT = re.compile(r"^kind:\s*['\"]?(game|expansion|cards|keywords|board|scenario|rules-test|rules)\b", re.M)


@dataclass(frozen=True)
class Problem:
    """A diagnostic of `regles check` as an editor shows it."""
    line: int
    column: int
    end_line: int
    end_column: int
    severity: str  # "error" or "warning"
    message: str  # the message, and its hint on a line of its own
    code: str | None = None  # the stable code of the kind of error (interpreter.codes)


@dataclass
class Analysis:
    """What checking a document found: the problems of each file (by absolute path) of the
    packs it belongs to, the texts of those files, and the packs checked whole."""
    problems: dict = field(default_factory=dict)  # absolute path -> [Problem]
    sources: dict = field(default_factory=dict)  # absolute path -> its text, as checked
    packs: list = field(default_factory=list)  # (GameDef, Findings) of each pack checked


def is_content(path: str, text: str) -> bool:
    """Whether a YAML file is content a check reads: inside a game or expansion folder, or
    naming its kind. Other YAML files (a CI workflow, a config) are left alone."""
    if not path.endswith((".yaml", ".yml")):
        return False
    p = Path(path)
    return find_game_root(p) is not None or find_expansion_root(p) is not None or bool(_CONTENT.search(text))


def analyse(path: str, texts: dict) -> Analysis:
    """Check the packs file `path` belongs to, the documents `texts` (absolute path -> text)
    read in place of their files."""
    out = Analysis()
    if not is_file(Path(path)):  # a document never saved: no pack holds it yet
        return out
    try:
        with edited_texts(texts):
            report = check_paths([_shown(path)], lambda defn, found: out.packs.append((defn, found))
                                 if defn is not None else None, again=True)
    except RecursionError:  # as `regles check` says it
        out.packs = []
        out.problems[path] = [Problem(0, 0, 0, 1, "error", "the content nests too deeply to be read")]
        return out
    out.sources = {os.path.abspath(p): t for p, t in report.sources.items()}
    lines: dict[str, list[str]] = {}  # each file's lines, split once however many problems it has
    for d in report.sorted():
        where = os.path.abspath(d.position.path)
        if where not in lines:
            lines[where] = lines_of(out.sources.get(where) or "")
        out.problems.setdefault(where, []).append(problem(d, lines[where]))
    return out


def _shown(path: str) -> str:
    """A path as `regles check` would be given it (relative to the working folder when
    inside it), so that its messages name files as the command line does."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def problem(d: Diagnostic, lines: list[str]) -> Problem:
    """A diagnostic's range, as `regles check --format json` gives it (as `diagnostics.end_of`
    does: its own end, or the word it points at, one character at least), and its stable code.
    The word is read in the line it is on (`lines`, of its file), not in the whole text, so
    that a file's problems take a time in proportion to their number, not to it times the
    file's length."""
    pos = d.position
    end = pos.column + 1
    if pos.end_column is not None and pos.end_column > pos.column:
        end = pos.end_column
    elif 0 < pos.line <= len(lines) and pos.column > 0:
        word = _WORD.match(lines[pos.line - 1], pos.column - 1)
        if word:
            end = word.end() + 1
    message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
    line = max(0, pos.line - 1)
    return Problem(line, max(0, pos.column - 1), line, max(0, end - 1), d.severity, message, d.code)
