"""Stage 3, parse: rules texts into the typed tree of `nodes`.

The Lark grammar (`grammar/regles.lark`) is built once per process with the
LALR algorithm and an indentation post-lexer. Syntax errors say what was found,
what was expected, and which construct is still open, in words a modder knows.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken, UnexpectedEOF
from lark.indenter import DedentError, Indenter

from . import nodes as N
from .diagnostics import ContentError, Position
from .resources import grammar_path
from .source import PStr, position

START_SYMBOLS = ("procedure", "ability", "condition")


class _Indent(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8


@lru_cache(maxsize=1)
def lark_parser() -> Lark:
    return Lark(grammar_path().read_text(encoding="utf-8"), parser="lalr", postlex=_Indent(),
                start=list(START_SYMBOLS), propagate_positions=True, maybe_placeholders=True,
                cache=False)


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
    lines = _text_lines(text)
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
    return None


class Located(str):
    """A name from a rules text, equal to the plain string, with its `pos` in the file
    (so that a message about it can point at it rather than at its statement)."""

    pos: Position


class _ToNodes(Transformer):
    """Lark tree to `nodes`; positions mapped back into the content file."""

    def __init__(self, locate):
        super().__init__()
        self._locate = locate  # (line, column) inside text -> Position
        # the place of a text of a file also spans to an end column in one go
        self._locate_span = locate if getattr(locate, "__func__", None) is PStr.text_position else None

    def _p(self, meta_or_tok) -> Position:
        line = getattr(meta_or_tok, "line", None)
        if line is None:
            return self._locate(1, 1)
        col = meta_or_tok.column
        end = getattr(meta_or_tok, "end_column", None)
        if end is not None and getattr(meta_or_tok, "end_line", line) == line:
            if self._locate_span is not None:
                return self._locate_span(line, col, end)
            pos = self._locate(line, col)
            return position(pos.path, pos.line, pos.column, pos.column + (end - col))
        return self._locate(line, col)

    # top level
    @v_args(meta=True)
    def procedure(self, meta, children):
        return N.Procedure(self._p(meta), [c for c in children if c is not None])

    @v_args(meta=True)
    def ability(self, meta, children):
        return [c for c in children if c is not None][0]

    @v_args(meta=True)
    def condition(self, meta, children):
        return N.Condition(self._p(meta), [c for c in children if c is not None][0])

    @v_args(meta=True)
    def phrase_ability(self, meta, children):
        phrase = children[0]
        if len(children) > 1 and children[1] is not None:
            phrase.body = children[1]
        return N.PhraseAbility(self._p(meta), phrase)

    @v_args(meta=True)
    def phrase(self, meta, children):
        words = []
        for c in children:
            if isinstance(c, Token):
                kind = {"NAME": "name", "NUMBER": "number", "STRING": "string", "DASH": "dash"}[c.type]
                value = int(c) if kind == "number" else (_unquote(c) if kind == "string" else str(c))
                words.append(N.Word(self._p(c), kind, value))
            else:
                words.append(N.Word(c.pos, "expr", c))
        return N.Phrase(self._p(meta), words)

    @v_args(meta=True)
    def trigger_ability(self, meta, ch):
        trig, event, optional, cond, body = ch
        return N.Trigger(self._p(meta), self._located(event), str(trig) == "whenever", optional is not None,
                         cond, body)

    def optional(self, _):
        return True

    @v_args(meta=True)
    def action_ability(self, meta, ch):
        label, windows, costs, limit, cond, body = ch
        return N.Action(self._p(meta), _unquote(label) if label else None, windows or [], costs or [],
                        limit, cond, body)

    def windows(self, ch):
        return [self._located(c) for c in ch]

    def _located(self, tok) -> "Located":
        """A name of the text (an event, a window) that knows where it is written."""
        out = Located(str(tok))
        out.pos = self._p(tok)
        return out

    def costs(self, ch):
        return list(ch)

    @v_args(meta=True)
    def tap_cost(self, meta, ch):
        return N.Cost(self._p(meta), "tap")

    @v_args(meta=True)
    def pay_cost(self, meta, ch):
        return N.Cost(self._p(meta), "pay", ch[0], str(ch[1]))

    @v_args(meta=True)
    def spend_cost(self, meta, ch):
        return N.Cost(self._p(meta), "spend", ch[0], str(ch[1]))

    @v_args(meta=True)
    def sacrifice_cost(self, meta, ch):
        return N.Cost(self._p(meta), "sacrifice", None, str(ch[0]))

    def limit(self, ch):
        return str(ch[0])

    def suite(self, ch):
        return [c for c in ch if c is not None]

    # statements
    @v_args(meta=True)
    def move_stmt(self, meta, ch):
        return N.Move(self._p(meta), ch[0], ch[1], ch[2])

    def position(self, ch):
        return str(ch[0])

    @v_args(meta=True)
    def add_stmt(self, meta, ch):
        return N.Add(self._p(meta), ch[0], ch[1])

    @v_args(meta=True)
    def remove_stmt(self, meta, ch):
        return N.Remove(self._p(meta), ch[0], ch[1])

    @v_args(meta=True)
    def pay_stmt(self, meta, ch):
        return N.Pay(self._p(meta), ch[0], ch[1])

    @v_args(meta=True)
    def gain_stmt(self, meta, ch):
        return N.Gain(self._p(meta), ch[0], str(ch[1]), ch[2])

    @v_args(meta=True)
    def lose_stmt(self, meta, ch):
        return N.Lose(self._p(meta), ch[0], str(ch[1]), ch[2])

    @v_args(meta=True)
    def set_stmt(self, meta, ch):
        return N.SetStmt(self._p(meta), ch[0], ch[1])

    @v_args(meta=True)
    def let_stmt(self, meta, ch):
        return N.Let(self._p(meta), str(ch[0]), ch[1])

    @v_args(meta=True)
    def score_stmt(self, meta, ch):
        return N.Score(self._p(meta), ch[0], ch[1], ch[2])

    @v_args(meta=True)
    def signal_stmt(self, meta, ch):
        return N.Signal(self._p(meta), str(ch[0]), ch[1] or [])

    @v_args(meta=True)
    def call_stmt(self, meta, ch):
        return N.CallProc(self._p(meta), str(ch[0]), ch[1] or [])

    @v_args(meta=True)
    def shuffle_stmt(self, meta, ch):
        return N.Shuffle(self._p(meta), ch[0])

    @v_args(meta=True)
    def tag_stmt(self, meta, ch):
        return N.Tag(self._p(meta), ch[0], str(ch[1]), True)

    @v_args(meta=True)
    def untag_stmt(self, meta, ch):
        return N.Tag(self._p(meta), ch[0], str(ch[1]), False)

    @v_args(meta=True)
    def tap_stmt(self, meta, ch):
        return N.TapStmt(self._p(meta), ch[0], True)

    @v_args(meta=True)
    def untap_stmt(self, meta, ch):
        return N.TapStmt(self._p(meta), ch[0], False)

    @v_args(meta=True)
    def reveal_stmt(self, meta, ch):
        return N.Reveal(self._p(meta), ch[0])

    @v_args(meta=True)
    def log_stmt(self, meta, ch):
        return N.Log(self._p(meta), _unquote(ch[0]))

    @v_args(meta=True)
    def win_stmt(self, meta, ch):
        return N.Win(self._p(meta), ch[0])

    @v_args(meta=True)
    def exit_stmt(self, meta, ch):
        return N.Exit(self._p(meta), str(ch[0]))

    @v_args(meta=True)
    def return_stmt(self, meta, ch):
        return N.Return(self._p(meta))

    @v_args(meta=True)
    def break_stmt(self, meta, ch):
        return N.Break(self._p(meta))

    @v_args(meta=True)
    def continue_stmt(self, meta, ch):
        return N.Continue(self._p(meta))

    @v_args(meta=True)
    def pass_stmt(self, meta, ch):
        return N.Pass(self._p(meta))

    @v_args(meta=True)
    def fail_stmt(self, meta, ch):
        return N.Fail(self._p(meta), _unquote(ch[0]))

    def phrase_stmt(self, ch):
        return ch[0]

    @v_args(meta=True)
    def roll_stmt(self, meta, ch):
        return N.Roll(self._p(meta), str(ch[0]), ch[1], ch[2])

    @v_args(meta=True)
    def choose_stmt(self, meta, ch):
        var, source, where, chooser, optional, prompt = ch
        return N.Choose(self._p(meta), str(var), source, where, chooser, optional is not None,
                        _unquote(prompt) if prompt else None)

    def where(self, ch):
        return ch[0]

    def chooser(self, ch):
        return ch[0]

    @v_args(meta=True)
    def menu_stmt(self, meta, ch):
        chooser, prompt, *options = ch
        return N.Menu(self._p(meta), chooser, _unquote(prompt) if prompt else None, list(options))

    @v_args(meta=True)
    def option(self, meta, ch):
        label, var, source, cond, body = ch
        return N.Option(self._p(meta), _unquote(label), str(var) if var else None, source, cond, body)

    @v_args(meta=True)
    def actions_option(self, meta, ch):
        return N.ActionsOption(self._p(meta), str(ch[0]) if ch[0] else None)

    @v_args(meta=True)
    def if_stmt(self, meta, ch):
        cond, body, *rest = ch
        branches = [(cond, body)]
        orelse = None
        for r in rest:
            if r is None:
                continue
            if r[0] == "elif":
                branches.append((r[1], r[2]))
            else:
                orelse = r[1]
        return N.If(self._p(meta), branches, orelse)

    def elif_clause(self, ch):
        return ("elif", ch[0], ch[1])

    def else_clause(self, ch):
        return ("else", ch[0])

    @v_args(meta=True)
    def for_stmt(self, meta, ch):
        return N.For(self._p(meta), str(ch[0]), ch[1], ch[2], ch[3])

    @v_args(meta=True)
    def repeat_stmt(self, meta, ch):
        return N.Repeat(self._p(meta), ch[0], ch[1])

    @v_args(meta=True)
    def while_stmt(self, meta, ch):
        return N.While(self._p(meta), ch[0], ch[1])

    # expressions
    @v_args(meta=True)
    def or_(self, meta, ch):
        return N.BoolOp(self._p(meta), "or", ch[0], ch[1])

    @v_args(meta=True)
    def and_(self, meta, ch):
        return N.BoolOp(self._p(meta), "and", ch[0], ch[1])

    @v_args(meta=True)
    def not_(self, meta, ch):
        return N.Not(self._p(meta), ch[0])

    @v_args(meta=True)
    def cmp(self, meta, ch):
        return N.Compare(self._p(meta), str(ch[1]), ch[0], ch[2])

    @v_args(meta=True)
    def is_(self, meta, ch):
        return N.Compare(self._p(meta), "is", ch[0], ch[1])

    @v_args(meta=True)
    def is_not(self, meta, ch):
        return N.Compare(self._p(meta), "isnot", ch[0], ch[1])

    @v_args(meta=True)
    def in_(self, meta, ch):
        return N.Compare(self._p(meta), "in", ch[0], ch[1])

    @v_args(meta=True)
    def not_in(self, meta, ch):
        return N.Compare(self._p(meta), "notin", ch[0], ch[1])

    @v_args(meta=True)
    def binop(self, meta, ch):
        op = str(ch[1])
        if op in ("\u2013", "\u2014"):
            op = "-"
        return N.BinOp(self._p(meta), op, ch[0], ch[2])

    @v_args(meta=True)
    def neg(self, meta, ch):
        return N.Neg(self._p(meta), ch[1])

    @v_args(meta=True)
    def attr(self, meta, ch):
        return N.Attr(self._p(meta), ch[0], str(ch[1]))

    @v_args(meta=True)
    def index(self, meta, ch):
        return N.Index(self._p(meta), ch[0], ch[1])

    @v_args(meta=True)
    def call(self, meta, ch):
        return N.Call(self._p(meta), str(ch[0]), ch[1] or [])

    def args(self, ch):
        return list(ch)

    @v_args(meta=True)
    def each(self, meta, ch):
        return N.Each(self._p(meta), str(ch[0]), ch[1], ch[2])

    @v_args(meta=True)
    def mapped(self, meta, ch):
        return N.Mapped(self._p(meta), ch[0], str(ch[1]), ch[2], ch[3])

    @v_args(meta=True)
    def number(self, meta, ch):
        return N.Number(self._p(meta), int(ch[0]))

    @v_args(meta=True)
    def string(self, meta, ch):
        return N.String(self._p(meta), _unquote(ch[0]))

    @v_args(meta=True)
    def true(self, meta, ch):
        return N.Bool(self._p(meta), True)

    @v_args(meta=True)
    def false(self, meta, ch):
        return N.Bool(self._p(meta), False)

    @v_args(meta=True)
    def none(self, meta, ch):
        return N.NoneLit(self._p(meta))

    @v_args(meta=True)
    def name(self, meta, ch):
        return N.Name(self._p(ch[0]), str(ch[0]))

    @v_args(meta=True)
    def list_(self, meta, ch):
        return N.ListLit(self._p(meta), ch[0] or [])


# The fast path: Lark's own tables, run by a loop that builds `nodes` as it reduces -----------

class _Meta(NamedTuple):
    """The span that Lark's `propagate_positions` gives a tree or a token, read by `_ToNodes._p`
    as it reads Lark's Meta (a tree with no place has None for all four)."""

    line: int | None
    column: int | None
    end_line: int | None
    end_column: int | None


_NOWHERE = _Meta(None, None, None, None)


class _GiveUp(Exception):
    """The fast parser met something it leaves to Lark: a syntax error, a bad dedent, a deep tree."""


# Kinds of the values on the fast parser's stack.
_TOKEN, _TREE, _INLINE, _NOTHING = range(4)
_NONE_ENTRY = (None, None, 0, _NOTHING)  # a placeholder of an absent `[item]`


class _FastParser:
    """Parses with the grammar's LALR tables and contextual lexers exactly as Lark does, but
    calls the `_ToNodes` methods at each reduction instead of building a Tree to transform.

    Lark spends most of a parse building Trees and their positions, then `_ToNodes` walks them
    again. Here each stack entry is `(value, span, height, kind)`, the span (a `_Meta`, or None)
    being the one Lark's `PropagatePositions` gives the tree (or token) the value stands for:
    a rule spans from its first to its last child that has a place, keywords and newlines
    included; the height is that of the Lark tree, for MAX_DEPTH.

    The language accepted is Lark's own (same tables, same lexers, same indentation rules);
    whatever this loop does not take exactly as Lark would (any syntax error, a bad dedent, a
    tree deeper than MAX_DEPTH) raises `_GiveUp`, and the text is parsed again by Lark, which
    reports it as before. tests/test_fast_parse.py compares both on every shipped text.
    """

    def __init__(self, lark: Lark):
        from lark.lexer import UnlessCallback
        from lark.parse_tree_builder import maybe_create_child_filter
        from lark.parsers.lalr_analysis import Shift
        from lark.visitors import _VArgsWrapper, _vargs_meta

        table = lark.parser.parser.parser.parse_table
        self.start_states = table.start_states
        self.end_states = table.end_states
        self.ends = frozenset(table.end_states.values())
        rules, kept = {}, set()
        for rule in lark.rules:
            rules[rule], include = self._rule(rule, lark.options.maybe_placeholders, maybe_create_child_filter,
                                              _VArgsWrapper, _vargs_meta)
            kept.update(str(rule.expansion[i].name) for i, _, _ in include if rule.expansion[i].is_term)
        self.kept = frozenset(kept)  # the tokens some rule keeps as a child; others only give a place
        # Token(...) without the check of Token.__new__ for a deprecated keyword argument
        self.new_token = getattr(Token, "_future_new", Token)
        # names as plain str: Lark's are often Tokens, whose == is a Python call at every look-up
        self.states = {state: {str(sym): (True, arg) if action is Shift else (False, rules[arg])
                               for sym, (action, arg) in actions.items()}
                       for state, actions in table.states.items()}
        self.gotos = {state: {str(sym): arg for sym, (action, arg) in actions.items() if action is Shift}
                      for state, actions in table.states.items()}  # where a reduced rule leads
        self.units = {}  # (state below, state, next token) -> state after the `?rule: child` reductions
        contextual = lark.parser.lexer.lexer
        self.lexers = {}
        for state, basic in contextual.lexers.items():
            scanner = basic.scanner
            unless = {}
            for type_, callback in basic.callback.items():
                if not isinstance(callback, UnlessCallback) or type_ in basic.ignore_types:
                    raise TypeError(f"unexpected lexer callback for {type_}")
                words = {}
                for t in callback.scanner.terminals:  # a full match of literal words is a look-up
                    if t.pattern.type != "str" or t.pattern.flags:
                        raise TypeError(f"unexpected keyword terminal {t.name}")
                    words.setdefault(str(t.pattern.value), str(t.name))
                unless[str(type_)] = words
            self.lexers[state] = (_scan_function(scanner._mres), unless, frozenset(map(str, basic.ignore_types)),
                                  frozenset(map(str, basic.newline_types)), _skips_blanks(scanner, basic.ignore_types))
        indenter = lark.options.postlex
        self.indenter = (str(indenter.NL_type), str(indenter.INDENT_type), str(indenter.DEDENT_type),
                         frozenset(map(str, indenter.OPEN_PAREN_types)),
                         frozenset(map(str, indenter.CLOSE_PAREN_types)), indenter.tab_len)

    @staticmethod
    def _rule(rule, placeholders, child_filter, wrapper_type, meta_wrapper):
        """(size, goto symbol, builder or None for `?rule: child`) of one rule, and the children
        it keeps, from Lark's own tree-building choices."""
        size = len(rule.expansion)
        origin = str(rule.origin.name)
        expand1 = bool(rule.options.expand1) and not rule.alias
        made = child_filter(rule.expansion, rule.options.keep_all_tokens, False,
                            rule.options.empty_indices if placeholders else None)
        if made is None:  # every child kept as it is
            include, trailing = [(i, False, 0) for i in range(size)], 0
        elif len(made.args) == 2:  # ChildFilterLALR: (to_include, nones_to_add)
            include, trailing = made.args
        else:  # ChildFilterLALR_NoPlaceholders: (to_include,)
            include, trailing = [(i, x, 0) for i, x in made.args[0]], 0
        include = tuple(include)
        if expand1 and size == 1 and include == ((0, False, 0),) and not trailing:
            return (size, origin, None), include  # the child itself, its span unchanged
        if origin.startswith("_") and expand1:
            kind, func, wants_meta = "node", None, False  # not in this grammar: left to Lark
        elif origin.startswith("_"):
            kind, func, wants_meta = "inline", None, False
        else:
            kind = "expand1" if expand1 else "node"
            name = str(rule.alias or rule.options.template_source or origin)
            func, wants_meta = _ToNodes.__dict__.get(name), False
            if isinstance(func, wrapper_type):
                func, wants_meta = (func.base_func, True) if func.visit_wrapper is meta_wrapper else (None, False)
            elif not callable(func):
                func = None
        return (size, origin, _builder(size, include, trailing, kind, func, wants_meta)), include

    def parse(self, text: str, start: str, where):
        """The tree of `text`, or None to let Lark parse it (and report what is wrong)."""
        try:
            return self._parse(text, start, _ToNodes(where))
        except _GiveUp:
            return None
        except Exception:  # whatever it is, Lark meets it as before (the tests check it never happens)
            return None

    def _parse(self, text, start, tn):
        states, gotos, lexers, units, kept = self.states, self.gotos, self.lexers, self.units, self.kept
        new_meta, blanks, new_token = tuple.__new__, _BLANKS.match, self.new_token
        nl_type, indent_type, dedent_type, opening, closing, tab_len = self.indenter
        end_state, ends = self.end_states[start], self.ends
        stack = [self.start_states[start]]
        entries = []
        pos, end, line, line_start = 0, len(text), 1, 0
        paren, levels, last = 0, [0], None
        done = False
        while not done:
            scan, unless, ignore, newlines, skips_blanks = lexers[stack[-1]]
            entry = None
            while pos < end:
                if skips_blanks and text[pos] in " \t":  # most tokens follow a space: no need to scan it
                    pos = blanks(text, pos).end()
                    if pos == end:
                        break
                m = scan(text, pos)
                if m is None:
                    raise _GiveUp  # Lark reports the unexpected character
                value, type_ = m.group(), m.lastgroup
                tok_line, tok_column, tok_pos = line, pos - line_start + 1, pos
                if type_ in newlines:
                    count = value.count("\n")
                    if count:
                        line += count
                        line_start = pos + value.rindex("\n") + 1
                pos += len(value)
                if type_ in ignore:
                    continue
                if type_ in unless:
                    type_ = unless[type_].get(value, type_)
                tok_end = pos - line_start + 1
                tok = new_token(type_, value, tok_pos, tok_line, tok_column, line, tok_end, pos) if type_ in kept else None
                entry = (tok, new_meta(_Meta, (tok_line, tok_column, line, tok_end)), 0, _TOKEN)
                break
            if entry is None:  # the end of the text: the Indenter closes the open blocks, then $END
                todo = [((None, last[1], 0, _TOKEN), dedent_type)] * (len(levels) - 1)
                todo.append((None, "$END"))
                done = True
            elif type_ == nl_type:  # Lark's Indenter
                last = entry
                if paren:
                    continue
                if "\n" not in value:
                    raise _GiveUp
                indent_str = value.rsplit("\n", 1)[1]
                indent = indent_str.count(" ") + indent_str.count("\t") * tab_len
                # INDENT and DEDENT take the place of the newline token
                borrowed = (None, entry[1], 0, _TOKEN)
                if indent > levels[-1]:
                    levels.append(indent)
                    todo = ((entry, type_), (borrowed, indent_type))
                else:
                    todo = [(entry, type_)]
                    while indent < levels[-1]:
                        levels.pop()
                        todo.append((borrowed, dedent_type))
                    if indent != levels[-1]:
                        raise _GiveUp  # DedentError
            else:
                last = entry
                todo = ((entry, type_),)
                if type_ in opening:
                    paren += 1
                elif type_ in closing:
                    paren -= 1
                    if paren < 0:
                        raise _GiveUp
            for entry, type_ in todo:  # Lark's LALR parser, fed one token
                while True:
                    top = stack[-1]
                    action = states[top].get(type_)
                    if action is None:
                        raise _GiveUp  # Lark reports the unexpected token
                    if action[0]:
                        if entry is None:
                            raise _GiveUp
                        stack.append(action[1])
                        entries.append(entry)
                        break
                    size, origin, build = action[1]
                    if build is None:  # `?rule: child`, often several in a row: their end state kept
                        key = (stack[-2], top, type_)
                        after = units.get(key)
                        if after is None:
                            below, after = stack[-2], gotos[stack[-2]][origin]
                            while True:
                                nxt = states[after].get(type_)
                                if nxt is None or nxt[0] or nxt[1][2] is not None or after in ends:
                                    break
                                after = gotos[below][nxt[1][1]]
                            units[key] = after
                        stack[-1] = after
                    else:
                        if size:
                            kids = entries[-size:]
                            del stack[-size:]
                            del entries[-size:]
                        else:
                            kids = []
                        entries.append(build(kids, tn))
                        stack.append(gotos[stack[-1]][origin])
                    if done and stack[-1] == end_state and type_ == "$END":
                        root = entries[-1]
                        if root[2] > MAX_DEPTH:
                            raise _GiveUp  # Lark's tree is checked and refused
                        return root[0]
        raise _GiveUp


_BLANKS = re.compile(r"[\t ]+")


def _skips_blanks(scanner, ignore) -> bool:
    """Whether spaces and tabs are always ignored by this lexer, whole: then they can be skipped
    before scanning (which would find them, as one ignored token, and scan again)."""
    ignored = [t for t in scanner.terminals if t.name in ignore]
    if not any(t.pattern.to_regexp() in ("[\t ]+", "[ \t]+", r"[\t ]+", r"[ \t]+") for t in ignored):
        return False
    # and no other terminal starts with a blank: tried on a few texts that do
    probes = (" ", "\t", " a", "\t1", ' "x"', " #", " \n", " -", " (", " =", " .", "\t\t")
    return not any(re.match(t.pattern.to_regexp(), p) for t in scanner.terminals if t.name not in ignore
                   for p in probes)


def _scan_function(mres):
    """Lark's Scanner.match: the first of its regular expressions that matches."""
    if len(mres) == 1:
        return mres[0].match

    def scan(text, pos):
        for mre in mres:
            m = mre.match(text, pos)
            if m is not None:
                return m
        return None
    return scan


def _span(kids):
    """What Lark's PropagatePositions gives a rule: from the start of its first child that has a
    place to the end of its last."""
    if kids:
        first, last = kids[0][1], kids[-1][1]
        if first is not None and last is not None:  # most often
            return first if first is last else tuple.__new__(_Meta, (first[0], first[1], last[2], last[3]))
    for k in kids:
        first = k[1]
        if first is not None:
            break
    else:
        return None
    for k in reversed(kids):
        last = k[1]
        if last is not None:
            break
    if first is last:
        return first
    return _Meta(first[0], first[1], last[2], last[3])


def _builder(size, include, trailing, kind, func, wants_meta):
    """The function making the stack entry of one reduction: what Lark's ChildFilter,
    ExpandSingleChild and PropagatePositions make of the children, then the `_ToNodes` method.
    Written out for the frequent cases (every child kept; first and last children placed)."""
    plain = not trailing and all(not expand and not nones for _, expand, nones in include)
    picks = tuple(i for i, _, _ in include)
    whole = plain and size > 0 and picks == tuple(range(size))  # the children are the kids
    new = tuple.__new__

    def children_of(kids):
        if whole:
            return kids
        if plain:
            return [kids[i] for i in picks]
        children = []
        for i, expand, nones in include:
            if nones:
                children += [_NONE_ENTRY] * nones
            if expand:
                if children:
                    children += kids[i][0]
                else:  # left recursion: go on with the list of the inlined rule
                    children = kids[i][0]
            else:
                children.append(kids[i])
        if trailing:
            children += [_NONE_ENTRY] * trailing
        return children

    if kind == "inline":  # `_rule`: its children go into the rule that holds it
        if whole:
            def build(kids, tn):
                first, last = kids[0][1], kids[-1][1]
                if first is None or last is None:
                    return (kids, _span(kids), 0, _INLINE)
                return (kids, first if first is last else new(_Meta, (first[0], first[1], last[2], last[3])),
                        0, _INLINE)
        else:
            def build(kids, tn):
                return (children_of(kids), _span(kids), 0, _INLINE)
    elif kind == "expand1":
        def build(kids, tn):
            children = children_of(kids)
            if len(children) != 1:
                raise _GiveUp  # a Tree of a `?rule` (this grammar has none)
            child = children[0]
            span = _span(kids)
            if child[3] == _TREE and span is not None:
                if child[1] is None:
                    raise _GiveUp  # an empty tree given a place afterwards (this grammar has none)
                # Lark gives the tree the span of this rule (brackets included), keeping its own
                return (child[0], span, child[2], _TREE)
            return child
    elif func is None:
        def build(kids, tn):
            raise _GiveUp
    elif size > 0:
        def build(kids, tn):
            children = kids if whole else children_of(kids)
            first, last = kids[0][1], kids[-1][1]
            if first is None or last is None:
                span = _span(kids)
            else:
                span = first if first is last else new(_Meta, (first[0], first[1], last[2], last[3]))
            values = [c[0] for c in children]
            height = 1 + max([c[2] for c in children], default=0)
            if wants_meta:
                return (func(tn, span or _NOWHERE, values), span, height, _TREE)
            return (func(tn, values), span, height, _TREE)
    else:
        def build(kids, tn):
            children = children_of(kids)
            values = [c[0] for c in children]
            height = 1 + max([c[2] for c in children], default=0)
            return (func(tn, _NOWHERE, values) if wants_meta else func(tn, values), None, height, _TREE)
    return build


@lru_cache(maxsize=1)
def _fast_parser() -> _FastParser | None:
    try:
        return _FastParser(lark_parser())
    except Exception:  # a Lark whose insides are not those this loop knows: Lark alone
        return None


def _unquote(tok) -> str:
    s = str(tok)
    if len(s) >= 2 and s[0] == '"' and s[-1] == '"':
        s = s[1:-1]
    return s.replace('\\"', '"').replace("\\\\", "\\")


def parse(text: str, start: str, where=None, path: str = "<text>"):
    """Parse `text` from grammar rule `start`.

    `where(line, column)` maps a place in `text` to a file Position (by default
    the text is its own file). Raises ContentError with a readable message.
    """
    if where is None:
        def where(line, column, _path=path):
            return Position(_path, line, column)
    parser = lark_parser()
    source = text if text.endswith("\n") else text + "\n"
    for n, line in enumerate(_text_lines(source), 1):
        lead = line[: len(line) - len(line.lstrip(" \t"))]
        if "\t" in lead and line.strip():
            raise ContentError("syntax error: tab character used for indentation", where(n, lead.index("\t") + 1),
                               "indent with spaces")
    if start == "ability":
        fast = _printed_phrase(source, where)
        if fast is not None:
            return fast
    fast = _fast_parser()
    if fast is not None:
        node = fast.parse(source, start, where)
        if node is not None:
            return node
    tree = _TREES.get((source, start))
    if tree is None:
        try:
            tree = parser.parse(source, start=start)
        except UnexpectedInput as exc:
            raise _syntax_error(exc, source, where, parser) from None
        except DedentError:
            raise ContentError("syntax error: this line is indented less than its block but more than the "
                               "enclosing one", _dedent_position(source, where),
                               "indent each line of a block by the same amount") from None
        _check_depth(tree, where)
        if len(_TREES) < 50_000:
            _TREES[(source, start)] = tree  # texts repeat across cards: parse each once per process
    return _ToNodes(where).transform(tree)


_TREES: dict = {}
_PHRASE_LINE = re.compile(r"[^\W\d][\w']*(?:[ ]+(?:[^\W\d][\w']*|\d+|[-\u2013\u2014]))*[ ]*\n")
_PHRASE_WORD = re.compile(r"[^\W\d][\w']*|\d+|[-\u2013\u2014]")


@lru_cache(maxsize=1)
def _language_words() -> frozenset:
    """The reserved words of the language (they never stand in a printed phrase)."""
    words = set()
    for t in lark_parser().terminals:
        if t.pattern.type == "str" and re.fullmatch(r"[^\W\d][\w']*", t.pattern.value):
            words.add(t.pattern.value)
    return frozenset(words)


def _printed_phrase(source: str, where):
    """A printed keyword line ('Affinité 2 - Module'), read without the LALR parser.

    Most card abilities are such lines; they give the same tree as the grammar's
    `phrase_ability`, with the same positions, at a fraction of the cost."""
    if not _PHRASE_LINE.fullmatch(source):
        return None
    words = []
    reserved = _language_words()
    for m in _PHRASE_WORD.finditer(source):
        text = m.group(0)
        if text in reserved:
            return None  # let the grammar decide
        col = m.start() + 1
        pos = where(1, col)
        pos = position(pos.path, pos.line, pos.column, pos.column + len(text))
        if text[0].isdigit():
            words.append(N.Word(pos, "number", int(text)))
        elif text in ("-", "\u2013", "\u2014"):
            words.append(N.Word(pos, "dash", text))
        else:
            words.append(N.Word(pos, "name", text))
    first, last = words[0].pos, words[-1].pos
    phrase = N.Phrase(position(first.path, first.line, first.column, last.end_column), words)
    return N.PhraseAbility(position(first.path, first.line, first.column), phrase)


MAX_DEPTH = 100


def _check_depth(tree, where) -> None:
    """Refuse trees nested deeper than MAX_DEPTH, which the later stages walk recursively."""
    stack = [(tree, 1)]
    while stack:  # iteratively: the tree may be far deeper than Python's recursion limit
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            meta = node.meta if isinstance(node, Tree) else node
            line, col = getattr(meta, "line", None), getattr(meta, "column", None)
            raise ContentError(f"syntax error: blocks or expressions nested more than {MAX_DEPTH} levels deep",
                               where(line or 1, col or 1), "split the expression with 'let', or the block into procedures")
        if isinstance(node, Tree):
            stack.extend((c, depth + 1) for c in reversed(node.children) if isinstance(c, Tree))


def _dedent_position(text, where):
    levels = [0]
    for n, line in enumerate(_text_lines(text), 1):
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


def _text_lines(text: str) -> list[str]:
    """The lines of a rules text as the lexer counts them: split at '\n' only (str.splitlines
    also splits at form feeds, U+2028 and others, which the grammar reads as characters)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _content_lines(text: str) -> list[str]:
    """The lines of `text` up to the last one holding more than blanks or a comment."""
    lines = _text_lines(text)
    while lines and (not lines[-1].strip() or lines[-1].strip().startswith("#")):
        lines.pop()
    return lines


def _content_after(text: str, line: int) -> bool:
    return len(_content_lines(text)) > line


def _syntax_error(exc, text: str, where, parser: Lark) -> ContentError:
    if isinstance(exc, UnexpectedCharacters):
        line, col = exc.line, exc.column
        ch = _text_lines(text)[line - 1][col - 1] if line - 1 < len(_text_lines(text)) else "?"
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
        return ContentError(message, where(line, col), hint)
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
            all_lines = _text_lines(text)
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
    return ContentError(message, where(max(1, line or 1), max(1, col or 1)), _syntax_hint(token, expected))
