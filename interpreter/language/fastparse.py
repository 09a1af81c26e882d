"""The fast parser: Lark's own LALR tables and lexers, run by a loop that builds
`nodes` as it reduces, with no Lark tree in between (see `FastParser`).

Whatever it does not take exactly as Lark would, it leaves to Lark (`parser`),
which parses the text again and reports its errors.
"""
from __future__ import annotations

import re
from enum import IntEnum
from typing import NamedTuple

from lark import Lark, Token

from .tonodes import ToNodes

MAX_DEPTH = 100  # trees nested deeper are refused (the later stages walk them recursively)


# The fast path: Lark's own tables, run by a loop that builds `nodes` as it reduces -----------

class _Meta(NamedTuple):
    """The span that Lark's `propagate_positions` gives a tree or a token, read by `ToNodes._p`
    as it reads Lark's Meta (a tree with no place has None for all four)."""

    line: int | None
    column: int | None
    end_line: int | None
    end_column: int | None


_NOWHERE = _Meta(None, None, None, None)


class RuleKind(IntEnum):
    """What a reduction by a rule makes (numbered as the loop in C numbers them, `lalr_loop.c`)."""

    UNIT = 0     # `?rule: child`: the child itself, its span unchanged
    INLINE = 1   # `_rule`: its children go into the rule that holds it
    EXPAND1 = 2  # `?rule`: its child, when it has one
    NODE = 3     # the `ToNodes` method of the rule, given the children's values
    LARK = 4     # a rule with no method: the text is left to Lark


class RuleSpec(NamedTuple):
    """What a reduction by one rule makes: of `kind`, with the `ToNodes` method `func` (given
    the children's span first when `wants_meta`). `include` lists the children kept: (index,
    inlined, placeholders before it); `trailing`, placeholders after."""

    size: int
    origin: str
    kind: RuleKind
    include: tuple
    trailing: int
    func: object
    wants_meta: bool


class _GiveUp(Exception):
    """The fast parser met something it leaves to Lark: a syntax error, a bad dedent, a deep tree."""


# Kinds of the values on the fast parser's stack.
_TOKEN, _TREE, _INLINE, _NOTHING = range(4)
_NONE_ENTRY = (None, None, 0, _NOTHING)  # a placeholder of an absent `[item]`


class FastParser:
    """Parses with the grammar's LALR tables and contextual lexers exactly as Lark does, but
    calls the `ToNodes` methods at each reduction instead of building a Tree to transform.

    Lark spends most of a parse building Trees and their positions, then `ToNodes` walks them
    again. Here each stack entry is `(value, span, height, kind)`, the span (a `_Meta`, or None)
    being the one Lark's `PropagatePositions` gives the tree (or token) the value stands for:
    a rule spans from its first to its last child that has a place, keywords and newlines
    included; the height is that of the Lark tree, for MAX_DEPTH.

    The language accepted is Lark's own (same tables, same lexers, same indentation rules);
    whatever this loop does not take exactly as Lark would (any syntax error, a bad dedent, a
    tree deeper than MAX_DEPTH) raises `_GiveUp`, and the text is parsed again by Lark, which
    reports it as before. tests/language/test_parser.py compares both on every shipped text.
    """

    def __init__(self, lark: Lark):
        from lark.parse_tree_builder import maybe_create_child_filter
        from lark.parsers.lalr_analysis import Shift
        from lark.visitors import _VArgsWrapper, _vargs_meta

        table = self.table = lark.parser.parser.parser.parse_table
        self.start_states = table.start_states
        self.end_states = table.end_states
        self.ends = frozenset(table.end_states.values())
        rules, kept = {}, set()
        self.specs = {}  # Lark's rule -> its `RuleSpec` (read by the loop in C, `native_parse`)
        for rule in lark.rules:
            spec = self.specs[rule] = self._rule(rule, lark.options.maybe_placeholders, maybe_create_child_filter,
                                                 _VArgsWrapper, _vargs_meta)
            rules[rule] = (spec.size, spec.origin, None if spec.kind is RuleKind.UNIT else
                           _builder(spec.size, spec.include, spec.trailing, spec.kind, spec.func, spec.wants_meta))
            kept.update(str(rule.expansion[i].name) for i, _, _ in spec.include if rule.expansion[i].is_term)
        self.kept = frozenset(kept)  # the tokens some rule keeps as a child; others only give a place
        self.span_type, self.nowhere = _Meta, _NOWHERE  # what a rule's method is given as its span
        # Token(...) without the check of Token.__new__ for a deprecated keyword argument
        self.new_token = getattr(Token, "_future_new", Token)
        # names as plain str: Lark's are often Tokens, whose == is a Python call at every look-up
        self.states = {state: {str(sym): (True, arg) if action is Shift else (False, rules[arg])
                               for sym, (action, arg) in actions.items()}
                       for state, actions in table.states.items()}
        self.gotos = {state: {str(sym): arg for sym, (action, arg) in actions.items() if action is Shift}
                      for state, actions in table.states.items()}  # where a reduced rule leads
        self.units = {}  # (state below, state, next token) -> state after the `?rule: child` reductions
        # the lexer of each parser state, made the first time a text reaches that state: Lark
        # compiles a state's regular expressions when its scanner is first asked for, and most
        # loads reach few of the states (a first start made all of them: 60-80 ms)
        self.lexers = _Lexers(lark.parser.lexer.lexer.lexers)
        indenter = lark.options.postlex
        self.indenter = (str(indenter.NL_type), str(indenter.INDENT_type), str(indenter.DEDENT_type),
                         frozenset(map(str, indenter.OPEN_PAREN_types)),
                         frozenset(map(str, indenter.CLOSE_PAREN_types)), indenter.tab_len)

    @staticmethod
    def _rule(rule, placeholders, child_filter, wrapper_type, meta_wrapper) -> "RuleSpec":
        """What a reduction of `rule` makes, from Lark's own tree-building choices."""
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
        func, wants_meta = None, False
        if expand1 and size == 1 and include == ((0, False, 0),) and not trailing:
            kind = RuleKind.UNIT
        elif origin.startswith("_") and expand1:
            kind = RuleKind.LARK  # not in this grammar
        elif origin.startswith("_"):
            kind = RuleKind.INLINE
        else:
            kind = RuleKind.EXPAND1 if expand1 else RuleKind.NODE
            name = str(rule.alias or rule.options.template_source or origin)
            func = ToNodes.__dict__.get(name)
            if isinstance(func, wrapper_type):
                func, wants_meta = (func.base_func, True) if func.visit_wrapper is meta_wrapper else (None, False)
            elif not callable(func):
                func = None
            if kind is RuleKind.NODE and func is None:
                kind = RuleKind.LARK
        return RuleSpec(size, origin, kind, include, trailing, func, wants_meta)

    def parse(self, text: str, start: str, where):
        """The tree of `text`, or None to let Lark parse it (and report what is wrong)."""
        try:
            return self._parse(text, start, ToNodes(where))
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


class _Lexers(dict):
    """Parser state -> (scan, words of each keyword terminal, ignored types, newline types,
    whether blanks are skipped before scanning), made from Lark's lexer of the state when first
    asked for. A lexer whose callbacks are not those this parser knows leaves the text to Lark."""

    def __init__(self, basics: dict):
        super().__init__()
        self.basics = basics
        # Lark shares one lexer between the states that accept the same terminals (a few dozen
        # lexers for a few hundred states): each is made once, by the lexer's identity
        self.made = {}
        self.blank_starts = {}  # terminal name -> whether it may start with a blank

    def __missing__(self, state):
        basic = self.basics[state]
        made = self.made.get(id(basic))
        if made is None or made[0] is not basic:
            made = self.made[id(basic)] = (basic, self._make(basic))
        self[state] = made[1]
        return made[1]

    def _make(self, basic):
        from lark.lexer import UnlessCallback
        scanner = basic.scanner
        unless = {}
        for type_, callback in basic.callback.items():
            if not isinstance(callback, UnlessCallback) or type_ in basic.ignore_types:
                raise _GiveUp  # an unexpected lexer callback
            words = {}
            for t in callback.scanner.terminals:  # a full match of literal words is a look-up
                if t.pattern.type != "str" or t.pattern.flags:
                    raise _GiveUp  # an unexpected keyword terminal
                words.setdefault(str(t.pattern.value), str(t.name))
            unless[str(type_)] = words
        return (_scan_function(scanner._mres), unless, frozenset(map(str, basic.ignore_types)),
                frozenset(map(str, basic.newline_types)), _skips_blanks(scanner, basic.ignore_types, self.blank_starts))


_BLANKS = re.compile(r"[\t ]+")
_PROBES = (" ", "\t", " a", "\t1", ' "x"', " #", " \n", " -", " (", " =", " .", "\t\t")  # texts that start blank


def _skips_blanks(scanner, ignore, blank_starts: dict) -> bool:
    """Whether spaces and tabs are always ignored by this lexer, whole: then they can be skipped
    before scanning (which would find them, as one ignored token, and scan again).
    `blank_starts`: what is known of each terminal (by name: one grammar's terminals)."""
    ignored = [t for t in scanner.terminals if t.name in ignore]
    if not any(t.pattern.to_regexp() in ("[\t ]+", "[ \t]+", r"[\t ]+", r"[ \t]+") for t in ignored):
        return False
    # and no other terminal starts with a blank: tried on a few texts that do
    for t in scanner.terminals:
        if t.name in ignore:
            continue
        starts = blank_starts.get(t.name)
        if starts is None:
            pattern = re.compile(t.pattern.to_regexp())  # its flags written in it, as (?i:...)
            starts = blank_starts[t.name] = any(pattern.match(p) for p in _PROBES)
        if starts:
            return False
    return True


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
    ExpandSingleChild and PropagatePositions make of the children, then the `ToNodes` method.
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

    if kind is RuleKind.INLINE:  # `_rule`: its children go into the rule that holds it
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
    elif kind is RuleKind.EXPAND1:
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
    elif kind is RuleKind.LARK:
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
