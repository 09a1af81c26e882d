"""Stage 3 over a pack: every rules text of its definitions parsed.

Procedures, functions, invariants and the heuristic of the game file; the
abilities of cards; keyword patterns (read into their words and parameters)
and the abilities that define them; scenarios and rules tests. Each text is
parsed with the position of every place in it mapped back to its file, and
every syntax error goes to the report; a keyword whose pattern does not read
is left out of the pack.
"""
from __future__ import annotations

import re
from typing import NamedTuple

from ..content.model import GameDef, KeywordDef
from ..content.source import PStr
from ..diagnostics import ContentError, Position, Report
from ..names import fold
from ..shared_store import SharedStore
from . import nodes as N
from .parser import parse


def where_in(text):
    """The function mapping (line, column) inside a rules text to its file position."""
    if isinstance(text, PStr):
        return text.text_position
    return lambda line, column: Position("<text>", line, column)


def parse_text(text, start: str, report: Report):
    """Parse a rules text of a file; on error report it and return None."""
    # what the tree's places are made of: the text's place, how YAML wrote it, a block's indent
    # and the line a text ends on (PStr.text_position)
    key = (str(text), start, getattr(text, "pos", None), getattr(text, "style", None), getattr(text, "lines", None),
           getattr(text, "end_line", None))
    shared = SHARED_TREES.get()
    if shared is not None and key in shared:
        tree = shared[key]  # read already, from the same file, by another pack of this check
        if isinstance(tree, ContentError):
            report.add(tree, getattr(text, "pos", Position("<text>")))
            return None
        return tree
    try:
        tree = parse(str(text), start, where_in(text))
    except ContentError as exc:
        report.add(exc, getattr(text, "pos", Position("<text>")))
        tree = exc
    if shared is not None and key[2] is not None:
        shared[key] = tree
    return None if isinstance(tree, ContentError) else tree


# The trees of the checks of this process, kept from one check to the next: a language
# server checks a pack again at each edit, and only the texts edited, or moved by an edit,
# are parsed again. At most KEPT_MOST are kept past a check (about 3.4 kB each: 4,439 for all
# the shipped games); a check that reads more keeps none.
KEPT_TREES: dict = {}
KEPT_MOST = 10_000

# The trees of the texts read during one `shared_parses()` block, by text, rule, place and
# YAML style: a check lays a game's expansions over it in several packs, which read the same
# files; each text is parsed once. Trees are never changed by the stages after parsing.
SHARED_TREES = SharedStore("trees parsed", lambda: KEPT_TREES, lambda kept: len(kept) > KEPT_MOST)


def shared_parses(trees: dict | None = None, kept: bool = False):
    """Within the block, a text of a file read again (by another pack) is not parsed again.
    `trees`: the dict to keep them in, holding some already (a warm start's, `warm`); `kept`:
    keep them in `KEPT_TREES`, from one check to the next. Either is used only when no outer
    block is under way (in this thread)."""
    return SHARED_TREES.block(kept, trees)


class LabelPart(NamedTuple):
    """An {expression} inside a text: its source, and its tree, or why it does not read."""
    source: str
    tree: object  # nodes.Condition, or None
    error: ContentError | None


def parse_at(text: str, start: str, pos):
    """`parse` of a short text written at one place `pos` (an {expression} in a label, a
    condition in a hint): every place of its tree is `pos`. Kept as `parse_text`'s trees are
    within a `shared_parses` block; ContentError when it does not read."""
    key = (text, start, pos, "@")
    shared = SHARED_TREES.get()
    found = shared.get(key) if shared is not None else None
    if found is None:
        try:
            found = parse(text, start, lambda line, col: pos)
        except ContentError as exc:
            found = exc
        if shared is not None:
            shared[key] = found
    if isinstance(found, ContentError):
        raise found
    return found


MAX_PATTERN_WORDS = 64  # the words, dashes and parameters of a keyword pattern

_LABEL_PART = re.compile(r"\{([^{}]*)\}")


def label_parts(text: str, pos: Position) -> list:
    """A text with {expressions} inside (a log, a prompt, an option's label) as its parts:
    plain strings and LabelParts, each expression parsed at the position of the text."""
    parts: list = []
    last = 0
    for m in _LABEL_PART.finditer(text):
        if m.start() > last:
            parts.append(text[last:m.start()])
        try:
            parts.append(LabelPart(m.group(1), parse_at(m.group(1), "condition", pos), None))
        except ContentError as exc:
            parts.append(LabelPart(m.group(1), None, exc))
        last = m.end()
    if last < len(text):
        parts.append(text[last:])
    return parts


def parse_pack(defn: GameDef, report: Report) -> None:
    """Fill the parsed fields of every definition of `defn` (see content.model)."""
    for proc in defn.procedures.values():
        if proc.point:
            proc.tree = point_body(proc)
        elif proc.text is not None:
            proc.tree = parse_text(proc.text, "procedure", report)
    for f in defn.functions.values():
        f.tree = parse_text(f.text, "condition", report)
    if defn.heuristic:
        defn.heuristic_tree = parse_text(defn.heuristic, "condition", report)
    defn.heuristics = [(text, parse_text(text, "condition", report)) for text, _ in defn.heuristics]
    if defn.seat_report is not None:
        defn.seat_report_tree = parse_text(defn.seat_report[1], "condition", report)
    for auto in defn.automata.values():
        if auto.prefer:
            auto.tree = parse_text(auto.prefer, "condition", report)
    defn.invariants = [(text, parse_text(text, "condition", report)) for text, _ in defn.invariants]
    defn.keywords = [kw for kw in defn.keywords if parse_keyword(kw, report)]
    for card in defn.cards:
        for ab in card.abilities:
            ab.tree = parse_text(ab.text, "ability", report)
    for sc in defn.scenarios:
        sc.trees = {("hook", name): parse_text(text, "procedure", report) for name, text in sc.hooks.items()}
        sc.trees.update({("replace", name): parse_text(text, "condition" if name in defn.functions else "procedure",
                                                       report) for name, text in sc.replace.items()})
    for t in defn.tests:
        data = t.data
        t.given = parse_text(data["given"], "procedure", report) if isinstance(data.get("given"), str) else None
        t.when = parse_text(data["when"], "procedure", report) if isinstance(data.get("when"), str) else None
        then = data.get("then") if isinstance(data.get("then"), list) else []
        t.then = [(c, parse_text(c, "condition", report)) for c in then if isinstance(c, str)]


def point_body(point) -> N.Procedure:
    """The body of an extension point: a call of each procedure hooked on it, in order, with
    the point's own arguments."""
    pos = point.pos
    return N.Procedure(pos, [N.CallProc(pos, hook, [N.Name(pos, str(p)) for p in point.params])
                             for hook in point.hooks])


def parse_keyword(kw: KeywordDef, report: Report) -> bool:
    """Read a keyword's pattern into its words and effect parameter, and parse the abilities
    that define it; False when the pattern does not read as a keyword."""
    pattern, params = kw.pattern, kw.params
    tree = parse_text(pattern, "ability", report)
    if tree is None:
        return False
    if not isinstance(tree, N.PhraseAbility):
        report.error("K001", kw.pos, "a keyword pattern is the keyword as printed, e.g. 'Bonus X - Y'",
                     "start the pattern with the keyword's name")
        return False
    if len(tree.phrase.words) > MAX_PATTERN_WORDS:  # a pattern is matched word by word, by recursion
        report.error("K001", kw.pos, f"a keyword pattern of {len(tree.phrase.words)} words: at most {MAX_PATTERN_WORDS}",
                     "a keyword is a few words printed on a card")
        return False
    for w in tree.phrase.words:
        if w.kind is N.WordKind.NAME and w.value in params:
            kw.words.append(("param", w.value, w.pos))
        elif w.kind is N.WordKind.NAME:
            kw.words.append(("lit", fold(w.value), w.pos))
        elif w.kind is N.WordKind.DASH:
            kw.words.append(("dash", "-", w.pos))
        elif w.kind is N.WordKind.NUMBER:
            kw.words.append(("lit", str(w.value), w.pos))
        else:
            report.error("K001", w.pos, "a keyword pattern holds words, '-' and parameter names only")
    body = tree.phrase.body
    if body is not None:
        if len(body) == 1 and isinstance(body[0], N.Phrase) and len(body[0].words) == 1 \
                and body[0].words[0].value in params:
            kw.effect_param = body[0].words[0].value
        else:
            report.error("K001", body[0].pos if body else kw.pos,
                         "after ':' a keyword pattern names its effect parameter, e.g. 'Upkeep: EFFECT'")
    kw.trees = [parse_text(t, "ability", report) for t in kw.ability_texts]
    return True
