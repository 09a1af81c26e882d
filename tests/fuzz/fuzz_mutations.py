"""Seeded mutations of the shipped content files, for the fuzz suite.

`mutant(seed, index)` makes case number `index` of a run seeded `seed`: one
shipped content file (a game file, a keyword library, cards, a board, a rules
test) changed by one to three mutations, each drawn with a generator seeded
from `"{seed}:{index}"`, so that a case is remade exactly from its two
numbers. The mutations:

- lines: delete, duplicate, swap, re-indent (spaces or a tab), truncate the file;
- tokens of the rules language: an operator, a word of the grammar (`if`,
  `each`, `repeat`...), a number or a name replaced by another of its kind,
  or two tokens of a line swapped;
- odd text inserted: NUL and control characters, bidi marks, combining
  characters, non-ASCII digits, digit strings thousands long, YAML escapes
  of lone surrogates and line separators, separators such as `#` and `{`;
- numbers anywhere (counts, copies, bounds, player counts) replaced by edge
  values, or by other small numbers (a mutant that still loads, and plays
  another game).

The file is drawn by kind first (game file, keyword library, cards, boards,
rules tests), then among the files of that kind. A case is a `Case`: the
folder it starts from and the files it replaces.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONTENT = ROOT / "content"
GRAMMAR = ROOT / "grammar" / "regles.lark"


@dataclass
class Case:
    """One fuzz input: a game folder (`base`, or none for a game written whole) and the
    files written over it, by path relative to the folder."""

    name: str                      # "SEED:INDEX", how the case is remade
    kind: str                      # "mutant", "hostile", "yaml-tree", "aliases", "grammar", "web", "lsp"
    base: Path | None
    files: dict = field(default_factory=dict)
    what: list = field(default_factory=list)  # the mutations, in words
    target: str = ""               # the file changed, as "game/path"
    expansions: tuple = ()         # expansions (ids) the game is loaded with: those of the file changed
    scenario: str | None = None    # and the scenario, when the file changed is one
    driver: str = "load"           # how the case is run: "load" (loaded and played), "web" or "lsp"
    data: object = None            # what a "web" or "lsp" case sends (see fuzz_web.py, fuzz_lsp.py)

    def describe(self) -> str:
        return f"{self.name} {self.target}: " + "; ".join(self.what)


@lru_cache(maxsize=1)
def shipped_files() -> tuple:
    """(game folder, path inside it) of every shipped content file, in a fixed order."""
    out = []
    for game in sorted(p.parent for p in CONTENT.glob("*/game.yaml")):
        for path in sorted(game.rglob("*.yaml")):
            out.append((game, path.relative_to(game).as_posix()))
    return tuple(out)


def _kind(rel: str) -> str:
    return rel.split("/", 1)[0] if "/" in rel else rel


@lru_cache(maxsize=None)
def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def grammar_words() -> tuple:
    """The words of the rules language, read from the grammar."""
    return tuple(sorted(set(re.findall(r'"([a-z_]+)"', read(GRAMMAR)))))


OPERATORS = ("==", "!=", "<=", ">=", "<", ">", "+", "-", "*", "/", "%", "=", ".", ",", ":", "(", ")", "[", "]",
             "–", "—")
EDGE_NUMBERS = ("0", "-1", "1", "-0", "2147483648", "9223372036854775808", "1" + "0" * 30, "9" * 4301,
                "1" * 5000, "00", "007", "1e309", ".inf", "-.nan", "0x10", "1_000", "٣", "１２", "²")
ODD_TEXT = (
    "\x00", "\x01", "\x07", "\x08", "\x0b", "\x0c", "\x1b", "\x1f", "\x7f", "\x85", "\u2028", "\u2029",
    "\u200b", "\u200d", "\u200e", "\u200f", "\u202a", "\u202e", "\u2066", "\u2069", "\ufeff", "\ufffd",
    "\u0301", "e\u0301", "\u0301" * 40, "\u034f", "\u20dd", "İ", "ß", "ﬁ", "ǅ", "𝔘", "😀", "\U0010ffff",
    "٣", "１２", "²", "9" * 4301, "1" * 5000, "#", "{", "}", "{{", "{x}", "{1 / 0}", "\"", "\\", "'", "%s", "\t", "\r",
    "a#b", "x:y", "\\ud800", "\\udfff", "\\x00", "\\0", "\\N", "\\L", "\\P", "\\e", "\\U0001F600", "\\u202e",
)
TOKEN = re.compile(r"\d+|[^\W\d][\w']*|==|!=|<=|>=|\S")


def mutant(seed: int, index: int) -> Case:
    """Case `index` of a run seeded `seed`: a shipped file with one to three mutations."""
    rng = random.Random(f"mutant:{seed}:{index}")
    # a kind of file first (game, keywords, cards, boards, tests), so that the two game files
    # are mutated as often as the many cards and tests files
    kinds = sorted({_kind(rel) for _, rel in shipped_files()})
    kind = rng.choice(kinds)
    game, rel = rng.choice([f for f in shipped_files() if _kind(f[1]) == kind])
    text = read(game / rel)
    case = Case(f"{seed}:{index}", "mutant", game, target=f"{game.name}/{rel}")
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        op = rng.choice(OPERATIONS)
        text, said = op(rng, text)
        case.what.append(said)
    case.files[rel] = text
    return case


# -- lines --------------------------------------------------------------------------------------------

def _lines(text: str) -> list:
    return text.split("\n")


def _rules_line(rng: random.Random, lines: list) -> int:
    """A line likely to hold rules text (a word or an operator of the language), else any line."""
    words = set(grammar_words())
    likely = [i for i, line in enumerate(lines)
              if any(t in words for t in TOKEN.findall(line)) or re.search(r"==|!=|<=|>=|\(", line)]
    if likely and rng.random() < 0.8:
        return rng.choice(likely)
    return rng.randrange(len(lines))


def delete_line(rng, text):
    lines = _lines(text)
    i = rng.randrange(len(lines))
    del lines[i]
    return "\n".join(lines), f"line {i + 1} deleted"


def duplicate_line(rng, text):
    lines = _lines(text)
    i = rng.randrange(len(lines))
    lines.insert(i, lines[i])
    return "\n".join(lines), f"line {i + 1} duplicated"


def swap_lines(rng, text):
    lines = _lines(text)
    i = rng.randrange(len(lines))
    j = min(len(lines) - 1, i + 1) if rng.random() < 0.6 else rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines), f"lines {i + 1} and {j + 1} swapped"


def reindent_line(rng, text):
    lines = _lines(text)
    i = _rules_line(rng, lines)
    line = lines[i]
    body = line.lstrip(" ")
    indent = len(line) - len(body)
    how = rng.choice(("+1", "-1", "+2", "-2", "+4", "0", "tab"))
    if how == "tab":
        lines[i] = "\t" + line
    else:
        lines[i] = " " * max(0, indent + int(how) if how != "0" else 0) + body
    return "\n".join(lines), f"line {i + 1} re-indented ({how})"


def truncate(rng, text):
    at = rng.randrange(len(text) + 1)
    return text[:at], f"truncated at character {at}"


# -- tokens -------------------------------------------------------------------------------------------

def _token_spans(line: str) -> list:
    return [m.span() for m in TOKEN.finditer(line)]


def _names_of(text: str) -> list:
    return sorted(set(re.findall(r"[^\W\d][\w']*", text)) - set(grammar_words()))


def replace_token(rng, text):
    lines = _lines(text)
    i = _rules_line(rng, lines)
    spans = _token_spans(lines[i])
    if not spans:
        return text, "no token to replace"
    a, b = rng.choice(spans)
    old = lines[i][a:b]
    if old in grammar_words():
        new = rng.choice(grammar_words())
    elif old in OPERATORS:
        new = rng.choice(OPERATORS)
    elif old.isdigit():
        new = rng.choice(EDGE_NUMBERS)
    elif rng.random() < 0.5:
        new = rng.choice(_names_of(text) or ["x"])
    else:
        new = rng.choice(grammar_words() + OPERATORS)
    lines[i] = lines[i][:a] + new + lines[i][b:]
    return "\n".join(lines), f"line {i + 1}: {_short(old)!r} replaced by {_short(new)!r}"


def swap_tokens(rng, text):
    lines = _lines(text)
    i = _rules_line(rng, lines)
    spans = _token_spans(lines[i])
    if len(spans) < 2:
        return text, "no tokens to swap"
    (a, b), (c, d) = sorted(rng.sample(spans, 2))
    line = lines[i]
    lines[i] = line[:a] + line[c:d] + line[b:c] + line[a:b] + line[d:]
    return "\n".join(lines), f"line {i + 1}: {_short(line[a:b])!r} and {_short(line[c:d])!r} swapped"


def edge_number(rng, text):
    spots = [m.span() for m in re.finditer(r"(?<![\w.])\d+(?![\w.])", text)]
    if not spots:
        return text, "no number"
    a, b = rng.choice(spots)
    new = rng.choice(EDGE_NUMBERS)
    line = text.count("\n", 0, a) + 1
    return text[:a] + new + text[b:], f"line {line}: number {text[a:b]} replaced by {_short(new)!r}"


def small_number(rng, text):
    """A number changed to another small one: the file most often still loads, and plays otherwise."""
    spots = [m.span() for m in re.finditer(r"(?<![\w.])\d+(?![\w.])", text)]
    if not spots:
        return text, "no number"
    a, b = rng.choice(spots)
    new = str(rng.choice((0, 1, 2, 3, 5, 10, 100)))
    line = text.count("\n", 0, a) + 1
    return text[:a] + new + text[b:], f"line {line}: number {text[a:b]} replaced by {new}"


# -- odd text -----------------------------------------------------------------------------------------

def insert_odd(rng, text):
    lines = _lines(text)
    i = _rules_line(rng, lines) if rng.random() < 0.5 else rng.randrange(len(lines))
    line = lines[i]
    spans = _token_spans(line)
    if spans and rng.random() < 0.7:
        a, b = rng.choice(spans)  # inside or at the edge of a token, where names and numbers are read
        at = rng.randint(a, b)
    else:
        at = rng.randint(0, len(line))
    odd = rng.choice(ODD_TEXT)
    lines[i] = line[:at] + odd + line[at:]
    return "\n".join(lines), f"line {i + 1} column {at + 1}: {_short(odd)!r} inserted"


def escape_in_string(rng, text):
    """A YAML escape (or odd text) inside a double-quoted string, where YAML reads escapes."""
    spots = [m.start() + 1 for m in re.finditer(r'"(?:[^"\\\n]|\\.)*"', text)]
    if not spots:
        return insert_odd(rng, text)
    at = rng.choice(spots)
    odd = rng.choice([t for t in ODD_TEXT if t.startswith("\\")] + ["\\\\", "\\\""])
    line = text.count("\n", 0, at) + 1
    return text[:at] + odd + text[at:], f"line {line}: {odd!r} inserted in a quoted string"


def _short(s: str) -> str:
    return s if len(s) <= 24 else f"{s[:10]}...({len(s)} characters)"


OPERATIONS = (delete_line, duplicate_line, swap_lines, reindent_line, truncate, replace_token, replace_token,
              swap_tokens, edge_number, small_number, small_number, insert_odd, insert_odd, escape_in_string)
