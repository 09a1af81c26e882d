"""A game's rules index: the text of each rule by its ID, from the files `rules_index:` names.

A rules index is a Markdown file of the game's own folder listing every rule of
its rulebook, one a line: `- SX-NEG-3 The text of the rule.` (other lines are
headings and prose, skipped). Cards, keywords and tests name rules by these IDs;
`regles explain` shows their text. Only a plain file name of the game's folder
is read, at most `MAX_BYTES` of it: never a path elsewhere, whatever the
content says.
"""
from __future__ import annotations

import re
from pathlib import Path

from .folders import is_file

MAX_BYTES = 1 << 20  # a rules index is a page of text
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*\.md")
_RULE = re.compile(r"^\s*[-*]\s+\**([A-Z0-9]+(?:-[A-Z0-9]+)*-[0-9]+)\**[\s:.\u2014-]+(.+?)\s*$")


def index_files(defn) -> list:
    """(name, path or None) of each file the game's `rules_index:` names: None when it is not a
    file of the game's folder."""
    folder = Path(defn.file).parent
    out = []
    for name in defn.rules_index:
        path = folder / name
        out.append((name, path if _NAME.fullmatch(name) and is_file(path) else None))
    return out


def read_rules(text: str) -> dict:
    """The rules a rules index lists: ID -> text, in their order."""
    rules = {}
    for line in text.splitlines():
        found = _RULE.match(line)
        if found:
            rules.setdefault(found.group(1), found.group(2))
    return rules


def rules_of(defn) -> dict:
    """Every rule of the game's rules index: ID -> text (empty when it names none)."""
    rules: dict = {}
    for _name, path in index_files(defn):
        if path is None:
            continue
        try:
            with open(path, "rb") as fh:
                text = fh.read(MAX_BYTES).decode("utf-8", "replace")
        except OSError:
            continue
        for rule, said in read_rules(text).items():
            rules.setdefault(rule, said)
    return rules
