"""Lark's parse trees turned into the typed tree of `nodes`, with positions in the file.

One method per grammar rule, named after it (as in Lark's create_ast example).
The fast parser (`fastparse`) calls the same methods as it reduces, so both
ways of parsing give the same nodes.
"""
from __future__ import annotations

from lark import Token, Transformer, v_args

from . import nodes as N
from ..diagnostics import Position
from ..content.source import PStr, position


# digits of a number literal worked out at most: far more than the largest number a game keeps
# (which the checker refuses past), and fewer than Python reads from a text (640 at the least)
_MAX_DIGITS = 600


def number_value(digits: str) -> int:
    """The value of a number as written, when it has at most _MAX_DIGITS significant digits; else
    that of its first _MAX_DIGITS, as much too large for a game as the number itself."""
    if len(digits) <= _MAX_DIGITS:
        return int(digits)
    first = next((i for i, d in enumerate(digits) if int(d) != 0), len(digits))  # zeros of any script
    return int(digits[first:first + _MAX_DIGITS] or "0")


def places_in(text: PStr):
    """`ToNodes._p` for a text of a file: the place of a span or token of the text (from 1) in
    the file, as `PStr.text_position` maps it, worked out with what the text says of its place
    read once. A check makes a place for every node and most tokens of every text (a fifth of a
    parse went into the three calls of the plain path); `tests/language/test_parser.py`
    compares the two."""
    base = text.pos
    path, first, column = base.path, base.line, base.column
    style = text.style
    block = style in ("|", ">")
    indent = text.lines or 0  # of a block: the column its lines start at (it starts on the next line)
    shift = column + (1 if style in ('"', "'") else 0) - 1  # on its first line: after the quote
    last = text.end_line or first

    def place(meta_or_tok) -> Position:
        line = getattr(meta_or_tok, "line", None)
        if line is None:
            line = col = 1
            end = None
        else:
            col = meta_or_tok.column
            end = getattr(meta_or_tok, "end_column", None)
            if end is not None and getattr(meta_or_tok, "end_line", line) != line:
                end = None
        if block:
            at_line, at_column = first + line, indent + col
        elif line == 1:
            at_line, at_column = first, shift + col
        elif first + line - 1 > last:  # line breaks of escapes or folding: the text's own place
            at_line, at_column = first, column
        else:
            at_line, at_column = first + line - 1, col
        return position(path, at_line, at_column, None if end is None else at_column + (end - col))
    return place


class Located(str):
    """A name from a rules text, equal to the plain string, with its `pos` in the file
    (so that a message about it can point at it rather than at its statement)."""

    pos: Position


class ToNodes(Transformer):
    """Lark tree to `nodes`; positions mapped back into the content file."""

    def __init__(self, locate):
        super().__init__()
        self._locate = locate  # (line, column) inside text -> Position
        # the place of a text of a file also spans to an end column in one go
        self._locate_span = locate if getattr(locate, "__func__", None) is PStr.text_position else None
        if self._locate_span is not None:
            self._p = places_in(locate.__self__)

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
                kind = {"NAME": N.WordKind.NAME, "NUMBER": N.WordKind.NUMBER, "STRING": N.WordKind.STRING,
                        "DASH": N.WordKind.DASH}[c.type]
                value = number_value(c) if kind is N.WordKind.NUMBER else (_unquote(c) if kind is N.WordKind.STRING else str(c))
                words.append(N.Word(self._p(c), kind, value))
            else:
                words.append(N.Word(c.pos, N.WordKind.EXPR, c))
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
        return N.Cost(self._p(meta), N.CostKind.TAP)

    @v_args(meta=True)
    def pay_cost(self, meta, ch):
        return N.Cost(self._p(meta), N.CostKind.PAY, ch[0], str(ch[1]))

    @v_args(meta=True)
    def spend_cost(self, meta, ch):
        return N.Cost(self._p(meta), N.CostKind.SPEND, ch[0], str(ch[1]))

    @v_args(meta=True)
    def sacrifice_cost(self, meta, ch):
        return N.Cost(self._p(meta), N.CostKind.SACRIFICE, None, str(ch[0]))

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
        var, source, where, chooser, optional, secret, prompt = ch
        return N.Choose(self._p(meta), str(var), source, where, chooser, optional is not None,
                        _unquote(prompt) if prompt else None, secret is not None)

    def where(self, ch):
        return ch[0]

    def chooser(self, ch):
        return ch[0]

    @v_args(meta=True)
    def menu_stmt(self, meta, ch):
        chooser, secret, prompt, *options = ch
        return N.Menu(self._p(meta), chooser, _unquote(prompt) if prompt else None, list(options), secret is not None)

    @v_args(meta=True)
    def decide_stmt(self, meta, ch):
        var, chooser, prompt, *rules = ch
        return N.Decide(self._p(meta), str(var), chooser, _unquote(prompt) if prompt else None, list(rules))

    @v_args(meta=True)
    def prefer_rule(self, meta, ch):
        return N.Prefer(self._p(meta), ch[0], ch[1])

    @v_args(meta=True)
    def use_stmt(self, meta, ch):
        card, chooser, free = ch
        return N.Use(self._p(meta), card, chooser, free is not None)

    def free(self, _):
        return True

    def secret(self, _):
        return True

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
        return N.Number(self._p(meta), number_value(ch[0]))

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


def _unquote(tok) -> str:
    s = str(tok)
    if len(s) >= 2 and s[0] == '"' and s[-1] == '"':
        s = s[1:-1]
    return s.replace('\\"', '"').replace("\\\\", "\\")
