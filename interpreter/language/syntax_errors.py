"""Readable syntax errors: what was found, what was expected, which construct is still open.

Lark reports a syntax error as an unexpected token or character and the set of
terminals it would have taken. Here that becomes a sentence a modder reads:
the token in words, the expected words (a statement, an expression, ':'...),
the bracket or statement still open, and a hint for the usual mistakes.
"""
from __future__ import annotations

import re

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

from ..diagnostics import ContentError


# Readable names of terminals, for "expected ..." --------------------------------

_TERMINAL_WORDS = {
    "NAME": "a name", "NUMBER": "a number", "STRING": "a quoted string", "_NL": "end of line",
    "_INDENT": "an indented block", "_DEDENT": "the end of the block", "$END": "end of text",
    "CMP": "a comparison", "ADDOP": "'+' or '-'", "MULOP": "'*', '/' or '%'", "DASH": "'-'",
    "COLON": "':'", "COMMA": "','", "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'",
    "DOT": "'.'", "EQUAL": "'='", "TOP": "'top'", "BOTTOM": "'bottom'",
}

# The statements and clauses whose first word names what is still open.
_OPENERS = ("move", "add", "remove", "pay", "gain", "lose", "set", "let", "score", "signal",
            "call", "shuffle", "tag", "untag", "tap", "untap", "reveal", "log", "win", "exit",
            "fail", "roll", "choose", "option", "if", "elif", "else", "for", "repeat", "while",
            "when", "whenever", "action")


def _describe_terminal(name: str, parser: Lark) -> str:
    if name in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[name]
    try:
        pattern = parser.get_terminal(name).pattern
        if pattern.type == "str":
            return f"'{pattern.value}'"
    except KeyError:
        pass
    return name.lower()


def _describe_token(tok) -> str:
    if tok is None or tok.type == "$END":
        return "end of text"
    if tok.type == "_NL":
        return "end of line"
    if tok.type == "_INDENT":
        return "indentation"
    if tok.type == "_DEDENT":
        return "end of the block"
    if tok.type == "NAME":
        return f"name '{tok}'"
    if tok.type == "NUMBER":
        return f"number {tok}"
    if tok.type == "STRING":
        return f"string {tok}"
    return f"'{tok}'"


_STATEMENT_STARTS = {"MOVE", "ADD", "GAIN", "SCORE", "LET", "SET", "IF", "FOR", "CHOOSE", "BREAK"}


def _expected_list(expected, parser: Lark) -> str:
    expected = set(expected)
    if {"NUMBER", "NAME", "LPAR", "STRING"} <= expected:
        # an expression could start here
        rest = {e for e in expected if e in ("_NL", "RPAR", "RSQB", "COLON")}
        words = ["an expression"] + sorted({_describe_terminal(e, parser) for e in rest})
        return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
    if len(expected & _STATEMENT_STARTS) >= 6:
        # a statement could start here: say so rather than list forty words
        expected = {e for e in expected if e in ("_NL", "_DEDENT", "$END", "COLON")}
        words = ["a statement"] + sorted({_describe_terminal(e, parser) for e in expected})
        return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
    words = sorted({_describe_terminal(e, parser) for e in expected if not e.startswith("__")})
    # a long list helps nobody: name the few most useful
    preferred = [w for w in words if w in ("':'", "end of line", "'to'", "'from'", "')'", "']'", "an indented block")]
    if len(words) > 6:
        rest = [w for w in words if w not in preferred]
        words = preferred + rest[: max(0, 5 - len(preferred))] + ["..."]
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _blank_strings(line: str) -> str:
    """`line` with the inside of its double-quoted strings blanked, so brackets there are not counted."""
    return re.sub(r'"([^"\\]|\\.)*"?', lambda m: '"' + " " * (len(m.group(0)) - 1), line)


def _no_comment(line: str) -> str:
    """`line` without its comment: a '#' outside double quotes starts one."""
    m = re.match(r'(?:[^"#]|"(?:[^"\\]|\\.)*"?)*', line)
    return m.group(0) if m else line


def _open_construct(text: str, line: int, column: int, where=None) -> str | None:
    """The bracket still open at an error, or the statement or clause begun earlier on its line."""
    lines = text_lines(text)
    if not 1 <= line <= len(lines):
        return None
    before = lines[line - 1][: max(0, column - 1)]
    unmatched = []  # brackets may span lines: scan every line up to the error
    for n in range(1, line + 1):
        upto = lines[n - 1] if n < line else before
        for i, ch in enumerate(_blank_strings(_no_comment(upto))):
            if ch in "([":
                unmatched.append((ch, n, i + 1))
            elif ch in ")]" and unmatched and unmatched[-1][0] == "(["[")]".index(ch)]:
                unmatched.pop()
    if unmatched:
        ch, n, col = unmatched[-1]
        if where is not None:  # the place in the file, not in the text
            place = where(n, col)
            n, col = place.line, place.column
            here = where(line, max(1, column)).line
        else:
            here = line
        at = f"column {col}" if n == here else f"line {n}, column {col}"
        return f"the '{ch}' at {at} is still open"
    first = re.match(r"\s*([^\W\d][\w']*)", before)
    if not (first and first.group(1) in _OPENERS):
        # a statement after a header on the same line: 'Activation: gain 1 resource'
        plain = _blank_strings(_no_comment(before))
        if ":" in plain:
            first = re.match(r"\s*([^\W\d][\w']*)", before[plain.rindex(":") + 1:])
    if first and first.group(1) in _OPENERS:
        word = first.group(1)
        kind = {"when": "trigger", "whenever": "trigger", "action": "action",
                "option": "option", "elif": "elif clause", "else": "else clause"}.get(word, f"'{word}' statement")
        if kind in ("trigger", "action", "option"):
            kind = f"'{word}' {kind}"
        return f"in the {kind}"
    return None


def _syntax_hint(found, expected) -> str | None:
    exp = set(expected or ())
    if found is not None and getattr(found, "type", None) == "_NL" and "COLON" in exp:
        return "a block header ends with ':'"
    if found is not None and getattr(found, "type", None) == "EQUAL" and "EQUAL" not in exp:
        return "compare with '==', assign with 'set' or 'let'"
    if found is not None and getattr(found, "type", None) == "_INDENT":
        return "indent only the lines of a block, after a line ending with ':'"
    if found is not None and getattr(found, "type", None) in ("LPAR", "NAME") and {"COLON", "OPTIONALLY"} <= exp:
        # after `when EVENT`: `when played(c):` is how many languages bind an event's arguments
        return ("a trigger names its event alone, 'when EVENT:'; the event's arguments are names in its "
                "block, those its declaration gives (events:)")
    return None


_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_BLOCK_AFTER_COLON = re.compile(r":\s*(if|for|while|repeat)\b")


def _line_hint(lines: list, line: int, found) -> str | None:
    """A hint read off the line of the error, for mistakes the token alone does not tell."""
    here = _STRING.sub('""', lines[line - 1]).split("#")[0] if line and 0 < line <= len(lines) else ""
    block = _BLOCK_AFTER_COLON.search(here)
    if block is not None:
        # `when played: if x > 1: gain 1 coins`: what follows a header's ':' on its line is one
        # simple statement, never a block ('if x: gain 1 coins' alone on its line is one)
        word = "for each" if block.group(1) == "for" else block.group(1)
        return (f"'{word}' opens a block of its own: write it on a line of its own, indented under the "
                f"line ending with ':', and its statements on the lines below it, indented further")
    if found is not None and str(found) == "of" and getattr(found, "type", None) == "NAME":
        return "what belongs to a player or a component is written with a dot: 'you.NAME', 'c.NAME'"
    return None


def dedent_position(text, where):
    levels = [0]
    for n, line in enumerate(text_lines(text), 1):
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip(" \t"))
        if indent > levels[-1]:
            levels.append(indent)
        else:
            while indent < levels[-1]:
                levels.pop()
            if indent != levels[-1]:
                return where(n, indent + 1)
    return where(1, 1)


def text_lines(text: str) -> list[str]:
    """The lines of a rules text as the lexer counts them: split at '\n' only (str.splitlines
    also splits at form feeds, U+2028 and others, which the grammar reads as characters)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _content_lines(text: str) -> list[str]:
    """The lines of `text` up to the last one holding more than blanks or a comment."""
    lines = text_lines(text)
    while lines and (not lines[-1].strip() or lines[-1].strip().startswith("#")):
        lines.pop()
    return lines


def _content_after(text: str, line: int) -> bool:
    return len(_content_lines(text)) > line


def syntax_error(exc, text: str, where, parser: Lark) -> ContentError:
    if isinstance(exc, UnexpectedCharacters):
        line, col = exc.line, exc.column
        ch = text_lines(text)[line - 1][col - 1] if line - 1 < len(text_lines(text)) else "?"
        hint = None
        if ch == "'":
            hint = "strings are written between double quotes"
        elif ch in "=!" :
            hint = "compare with '==' or '!=', assign with 'set' or 'let'"
        elif ch == "\t":
            hint = "indent with spaces"
        shown = {"'": '"\'"', "\t": "'\\t' (a tab)"}.get(ch, f"'{ch}'" if ch.isprintable() else f"U+{ord(ch):04X}")
        message = f"syntax error: unexpected character {shown}"
        opened = _open_construct(text, line, col, where)
        if opened:
            message += f" ({opened})"
        return ContentError("P002", message, where(line, col), hint)
    token = getattr(exc, "token", None)
    expected = getattr(exc, "expected", None) or getattr(exc, "accepts", None) or set()
    if isinstance(exc, UnexpectedToken) and getattr(exc, "accepts", None):
        expected = exc.accepts
    if token is not None and token.type in ("_INDENT", "_DEDENT") and not _content_after(text, token.line or 0):
        # the post-lexer closes every open block at the end of the text
        token = Token("$END", "")
    if token is None or token.type == "$END" or isinstance(exc, UnexpectedEOF):
        lines = _content_lines(text) or [""]
        line, col = len(lines), len(lines[-1].rstrip()) + 1
    else:
        line, col = token.line, token.column
        if token.type in ("_NL",):
            # the newline token starts at the end of the offending line
            line = token.line
            col = token.column
        if token.type in ("_INDENT", "_DEDENT"):
            # the post-lexer makes these from the newline before the line they open
            all_lines = text_lines(text)
            line = token.line or 1
            for n in range(line + 1, len(all_lines) + 1):
                content = all_lines[n - 1].strip()
                if content and not content.startswith("#"):
                    line = n
                    break
            here = all_lines[line - 1] if line <= len(all_lines) else ""
            col = len(here) - len(here.lstrip(" \t")) + 1
    message = f"syntax error: unexpected {_describe_token(token)}; expected {_expected_list(expected, parser)}"
    opened = _open_construct(text, line, col, where)
    if opened:
        message += f" ({opened})"
    blocks = {"_INDENT", "_DEDENT"}
    code = "P001" if getattr(token, "type", None) in blocks or blocks & set(expected) else "P002"
    hint = _syntax_hint(token, expected) or _line_hint(text_lines(text), line, token)
    return ContentError(code, message, where(max(1, line or 1), max(1, col or 1)), hint)
