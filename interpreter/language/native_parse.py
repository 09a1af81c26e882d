"""The fast parser's loop in C, for checks and loads that parse many texts.

    loop = native_loop(fast)              # fast: a `fastparse.FastParser`; None where it cannot run
    node = loop.parse(text, start, where) # as `FastParser.parse`: the tree, or None to let Lark say why

`lalr_loop.c` runs the same LALR tables and contextual lexers as `fastparse.FastParser`, and
makes each reduction's children, span and height as it does, calling the same `ToNodes`
methods: the same trees, with the same positions. Only the loop, the lexer and the building
of children and spans move into C; the nodes are made in Python. A check of many cards spends
most of its parse in that loop.

It is built once by the system's C compiler (or Zig's, as the native backend is), kept in the
user's cache folder by the fingerprint of its source, and set up in a process with the tables
read from the Python loop's. Its lexer knows the patterns of the grammar's terminals (a list of
literal texts, names, numbers, strings, comments, newlines, blanks), each matched as Python's
`re` matches it; a grammar with another pattern, or a Lark whose insides differ, runs on the
Python loop. Whatever the C loop gives up on (a text the Python loop gives up on too), Lark
parses again and reports.
`tests/language/test_native_parse.py` compares both loops on every shipped text, on damaged
ones, and on edge cases.
"""
from __future__ import annotations

import os
import threading
import weakref
from pathlib import Path

from lark.lexer import UnlessCallback
from lark.parsers.lalr_analysis import Shift

from ..cbuild import extension
from ..resources import cache_folder
from .fastparse import MAX_DEPTH
from .tonodes import ToNodes

MODULE = "_regles_lalr"
SOURCE = Path(__file__).with_name("lalr_loop.c")
KEEP = 4  # loops kept in the cache folder: one per version of regles and Python in use

# how the C lexer matches each terminal (lalr_loop.c's M_...): a list of literal texts, or one of
# the grammar's other patterns, as Lark writes them out
LITERALS = 0
PATTERNS = {
    "[^\\W\\d][\\w']*": 1,             # a name
    "\\d+": 2,                         # a number
    '"([^"\\\\\n]|\\\\.)*"': 3,        # a string
    "#[^\n]*": 4,                      # a comment
    "(\r?\n[\t ]*|#[^\n]*)+": 5,       # newlines (and comments between them)
    "[\t ]+": 6,                       # blanks
}

_LOCK = threading.Lock()
_LOOPS = weakref.WeakKeyDictionary()  # FastParser -> (its NativeLoop or None, whether that is final)


class NativeLoop:
    """The loop in C, set up with the tables of one `FastParser`."""

    def __init__(self, module, tables, states: dict):
        self.module = module
        self.tables = tables  # the grammar's tables read into C (a capsule, freed with it)
        self.states = states  # start symbol -> (start state, end state)

    def parse(self, text: str, start: str, where):
        """The tree of `text` (ending with a newline), or None to let Lark parse it (and say what is wrong)."""
        start_state, end_state = self.states[start]
        return self.module.parse(self.tables, text, start_state, end_state, ToNodes(where))


def native_loop(fast, build: bool = True) -> NativeLoop | None:
    """The loop in C for `fast`'s grammar, taken from the cache folder, or built there unless
    `build` is False; None where it cannot be (no compiler, no cache folder, a pattern or a
    Lark it does not know), or is not built yet and is not to be."""
    known = _LOOPS.get(fast)
    if known is None or (build and not known[1]):
        with _LOCK:
            known = _LOOPS.get(fast)
            if known is None or (build and not known[1]):
                known = _LOOPS[fast] = _made(fast, build)
    return known[0]


def _made(fast, build: bool) -> tuple:
    """(the loop or None, whether that is final: asking to build it may give one later)."""
    folder = cache_folder()
    if folder is None:  # it would be built in each process: more than it spares
        return None, True
    module = extension(SOURCE, MODULE, os.path.join(folder, "parser"), packaged=True, keep=KEEP, build=build)
    if module is None:
        return None, build
    try:
        setup = tables(fast)
        if setup is None:
            return None, True
        read = module.setup(*setup[0])
    except Exception:  # a Lark whose insides are not those read here, tables that do not hold: the Python loop
        return None, True
    return NativeLoop(module, read, setup[1]), True


def tables(fast):
    """(the arguments of the C loop's `setup`, start symbol -> (start state, end state)) read from
    `fast`, or None when a terminal's pattern is one the C lexer does not know."""
    table = fast.table
    states = list(table.states)
    if states != list(range(len(states))):
        return None  # Lark numbers its states from 0: the C loop indexes them so
    nonterminals = sorted({spec.origin for spec in fast.specs.values()})
    nonterminal_ids = {name: i for i, name in enumerate(nonterminals)}
    lexers, lexer_of = _lexers(fast)
    terminals = _terminals(fast, lexers, nonterminal_ids)
    if terminals is None:
        return None
    term_ids = {spec[0]: i for i, spec in enumerate(terminals)}
    lexer_specs = [([term_ids[t.name] for t in order], [term_ids[n] for n in ignored if n in term_ids],
                    [term_ids[n] for n in newlines if n in term_ids],
                    {term_ids[t]: {w: term_ids[n] for w, n in words.items()} for t, words in unless.items()})
                   for order, ignored, newlines, unless in lexers]
    rule_ids, rule_specs = {}, []
    for rule, spec in fast.specs.items():
        rule_ids[rule] = len(rule_specs)
        include = [(i, bool(expand), int(nones)) for i, expand, nones in spec.include]
        rule_specs.append((spec.size, nonterminal_ids[spec.origin], int(spec.kind), spec.wants_meta, include,
                           int(spec.trailing), spec.func))
    actions, gotos = _actions(table, term_ids, nonterminal_ids, rule_ids)
    nl, indent, dedent, _, _, tab_len = fast.indenter
    setup = (terminals, lexer_specs, lexer_of, actions, gotos, len(nonterminals), rule_specs,
             (term_ids[nl], term_ids[indent], term_ids[dedent], term_ids["$END"], tab_len),
             fast.new_token, fast.span_type, fast.nowhere, MAX_DEPTH)
    starts = {start: (state, fast.end_states[start]) for start, state in fast.start_states.items()}
    return setup, starts


def _lexers(fast) -> tuple[list, list]:
    """(each of Lark's lexers as `_lexer_spec` reads it, the lexer of each parser state by index):
    Lark shares one lexer between the states that accept the same terminals."""
    lexers, lexer_of, made = [], [], {}  # made: id of Lark's lexer -> its index in `lexers`
    for state in fast.table.states:
        basic = fast.lexers.basics[state]
        if id(basic) not in made:
            made[id(basic)] = (basic, len(lexers))
            lexers.append(_lexer_spec(basic))
        lexer_of.append(made[id(basic)][1])
    return lexers, lexer_of


def _terminals(fast, lexers: list, nonterminal_ids: dict) -> list | None:
    """(name, how it is matched, its literal texts, kept, opening, closing) of every terminal the
    tables or the lexers name, sorted by name; None when a pattern is one the C lexer does not know."""
    nl, indent, dedent, opening, closing, _ = fast.indenter
    names = {"$END", nl, indent, dedent}
    for actions in fast.table.states.values():
        names.update(str(sym) for sym in actions if str(sym) not in nonterminal_ids)
    for order, _, _, unless in lexers:
        names.update(t.name for t in order)
        names.update(str(w) for words in unless.values() for w in words.values())
    patterns = {str(t.name): t.pattern for order, _, _, _ in lexers for t in order}
    out = []
    for name in sorted(names):
        pattern = patterns.get(name)
        if pattern is None:  # a terminal the parser is fed (the end, the Indenter's), or a keyword: never lexed
            matcher, literals = LITERALS, []
        elif pattern.type == "str" and not pattern.flags:
            matcher, literals = LITERALS, [str(pattern.value)]
        else:
            regexp = pattern.to_regexp()
            literals = literal_texts(regexp)
            matcher = LITERALS if literals is not None else PATTERNS.get(regexp)
            if matcher is None:
                return None
            literals = literals or []
        out.append((name, matcher, literals, name in fast.kept, name in opening, name in closing))
    return out


def _actions(table, term_ids: dict, nonterminal_ids: dict, rule_ids: dict) -> tuple[list, list]:
    """Lark's parse table as two flat tables, [state][terminal] and [state][nonterminal]: the
    action on a terminal (0 an error, k > 0 a shift to state k - 1, k < 0 a reduction by rule
    -k - 1) and the state after a rule is reduced (-1 none)."""
    nterms, nnonterms = len(term_ids), len(nonterminal_ids)
    actions, gotos = [0] * (len(table.states) * nterms), [-1] * (len(table.states) * nnonterms)
    for state, row in table.states.items():
        for sym, (action, arg) in row.items():
            sym = str(sym)
            if sym in nonterminal_ids:
                gotos[state * nnonterms + nonterminal_ids[sym]] = arg
            elif action is Shift:
                actions[state * nterms + term_ids[sym]] = arg + 1
            else:
                actions[state * nterms + term_ids[sym]] = -(rule_ids[arg] + 1)
    return actions, gotos


def _lexer_spec(basic):
    """(the terminals tried in order, the ignored ones, those that count lines, keyword words by
    the terminal that matches them) of one of Lark's lexers, as its scanner tries them."""
    scanner = basic.scanner  # made by Lark when first asked for, with the callbacks
    unless = {}
    for type_, callback in basic.callback.items():
        if not isinstance(callback, UnlessCallback) or type_ in basic.ignore_types:
            raise ValueError(f"an unexpected lexer callback for {type_}")
        words = {}
        for t in callback.scanner.terminals:
            if t.pattern.type != "str" or t.pattern.flags:
                raise ValueError("an unexpected keyword terminal")
            words.setdefault(str(t.pattern.value), str(t.name))
        unless[str(type_)] = words
    return (list(scanner.terminals), frozenset(map(str, basic.ignore_types)),
            frozenset(map(str, basic.newline_types)), unless)


def literal_texts(regexp: str) -> list | None:
    """The texts a regular expression matches, in the order Python's `re` tries them, when it is
    only literal texts, alternatives and character sets of them (as `(?:==|<=|<)`); else None."""
    import re._parser as sre
    from re._constants import BRANCH, IN, LITERAL, SUBPATTERN
    try:
        parsed = sre.parse(regexp)
    except Exception:
        return None

    def texts(items) -> list | None:
        out = [""]
        for op, arg in items:
            if op is LITERAL:
                alternatives = [chr(arg)]
            elif op is IN and all(o is LITERAL for o, _ in arg):
                alternatives = [chr(a) for _, a in arg]
            elif op is BRANCH:
                alternatives = []
                for branch in arg[1]:
                    got = texts(branch)
                    if got is None:
                        return None
                    alternatives += got
            elif op is SUBPATTERN and arg[0] is None and not arg[1] and not arg[2]:
                alternatives = texts(arg[3])
                if alternatives is None:
                    return None
            else:
                return None
            out = [a + b for a in out for b in alternatives]  # tried in this order, backtracking
        return out

    found = texts(parsed.data)
    return found if found and all(found) else None
