"""Stage 5, reasons: conditions kept as content wrote them, able to say why they are false.

The compiler keeps, beside the code of each choice, menu option and action, the
condition that decides whether a candidate or an action is offered, as an
`engine.specs.Condition`: its text as written (from the content file, or written
back from its tree when the file cannot give it whole), its place, and `why`,
which says which part of it is false in a given frame, with the values it read:

- through `and`, the first part that is false;
- into a game function whose result is false, the part of its body that is, its
  parameters bound to the arguments of the call;
- of a comparison, the value of each side that is not a literal
  ('count(you.hand) is 0').

Each part is compiled from the checked tree on first need, never re-parsed, and
kept. The same reading serves a rules test's false `then` (rulings.ruletest) and the
answer to "why not?" (engine.why).
"""
from __future__ import annotations

from ..diagnostics import lines_of
from ..engine import machine as vm
from ..engine.code import Code, CodeKind
from ..engine.library import iterate
from ..engine.phrases import Joined, Phrase, Value
from ..engine.specs import Among, Because, Condition
from ..engine.state import Frame, GameFault
from ..language import nodes as N
from ..engine.values import Comp, ZoneRef
from ..language.written import written
from ..names import fold
from .context import ClassName, Ctx

_LITERALS = (N.Number, N.String, N.Bool, N.NoneLit)
_NO_BINDINGS: dict = {}  # of a game function's body: its names are its parameters
SHOWN_LEFT_OUT = 6  # the members a game function leaves out that are said, at most
MAX_CALLS = 8  # game functions followed one into another at most, to find the false part
_ERRORS = (GameFault, TypeError, ValueError, KeyError, IndexError, AttributeError, ZeroDivisionError, OverflowError)


class Reasons:
    """Makes the `Condition`s and `Among`s of one compiled program."""

    def __init__(self, program, compiler, sources=None):
        self.program = program
        self.compiler = compiler
        self.sources = sources or {}  # path -> text of each content file read (diagnostics.Report.sources)
        self._lines: dict = {}
        self._compiled: dict = {}  # (node, its bindings, the locals) -> its compiled function

    # what content wrote ------------------------------------------------------------
    def text(self, node) -> str:
        """The text of expression `node` as written: its span in its file when it lies on one
        line that no escape moves, else written back from its tree."""
        pos = node.pos
        if pos.end_column is not None and pos.path in self.sources:
            lines = self._lines.get(pos.path)
            if lines is None:
                lines = self._lines[pos.path] = lines_of(self.sources[pos.path])
            if 0 < pos.line <= len(lines):
                line = lines[pos.line - 1]
                piece = line[pos.column - 1:pos.end_column - 1].strip()
                # in a quoted YAML string, an escape before the span moves its columns
                if piece and "\\" not in line[:pos.end_column - 1] and "\t" not in line:
                    return piece
        return written(node)

    def condition(self, node, ctx: Ctx) -> Condition:
        """`node`, a condition compiled in `ctx`, kept with the means to say why it is false."""
        consts, names = ctx.consts, frozenset(ctx.locals)
        return Condition(self.text(node), node.pos, lambda st, fr: self.why(node, consts, names, st, fr))

    def among(self, node, ctx: Ctx) -> Among:
        """Where candidates come from (`node`, compiled in `ctx`): every member, unfiltered."""
        consts, names = ctx.consts, frozenset(ctx.locals)

        def members(st, fr):
            return list(iterate(st, self.fn(node, consts, names)(st, fr)))
        return Among(self.text(node), node.pos, members)

    def checked(self, text: str, pos, test, values) -> Condition:
        """A condition the compiler checks itself (a cost): `test(st, fr)` whether it holds,
        `values(st, fr)` what it read."""
        def why(st, fr):
            try:
                if test(st, fr):
                    return None
                return Because(text, pos, tuple(values(st, fr)))
            except _ERRORS as exc:
                return Because(text, pos, (_failed(exc),))
        return Condition(text, pos, why)

    # why a condition is false ---------------------------------------------------
    def fn(self, node, consts, names):
        key = (id(node), id(consts), names)
        got = self._compiled.get(key)
        if got is None:
            got = self._compiled[key] = (node, consts, self.compiler.expr(node, Ctx(Code("why", CodeKind.WHY), consts, names)))
        return got[2]

    def why(self, node, consts, names, st, fr, depth: int = 0):
        """The false part of condition `node` in frame `fr` (a Because), or None when it holds;
        `consts` (None: none) and `names` are the bindings and locals it is compiled with."""
        if consts is None:
            consts = _NO_BINDINGS
        if isinstance(node, N.Condition):
            node = node.expr
        try:
            if self.fn(node, consts, names)(st, fr):
                return None
        except _ERRORS as exc:
            return Because(self.text(node), node.pos, (_failed(exc),))
        while isinstance(node, N.BoolOp) and node.op == "and":  # the first part that is false
            try:
                left = bool(self.fn(node.left, consts, names)(st, fr))
            except _ERRORS:
                left = False
            node = node.right if left else node.left
        if isinstance(node, N.BoolOp) and node.op == "or":  # false: each side is, and says why
            sides = [self.why(side, consts, names, st, fr, depth) for side in (node.left, node.right)]
            values, via = [], []
            for side, because in zip((node.left, node.right), sides):
                if because is None:  # a side that holds when read alone (an error of the whole)
                    continue
                values.extend(because.values or (Phrase("quoted_false", because.text),))
                via.extend(v for v in because.via if v not in via)
            if values:
                return Because(self.text(node), node.pos, tuple(values), tuple(via))
        if isinstance(node, N.Call) and node.func in self.program.defn.functions and depth < MAX_CALLS:
            inner = self.inside(node, consts, names, st, fr, depth)
            if inner is not None:
                return inner
        values = []
        if isinstance(node, N.Compare):
            classed = node.op in ("is", "isnot") and self.class_name(node.right, consts, names) is not None
            for side in (node.left, node.right):
                if isinstance(side, _LITERALS) or self.class_name(side, consts, names) is not None:
                    continue  # written as its value: a literal, or a class named as such
                said = self.said(side, consts, names, st, fr)
                if classed:
                    said = Joined((said, self.classes(side, consts, names, st, fr)), "")
                values.append(said)
            # what the game functions a side calls read, to give what they gave
            inner = [x for side in (node.left, node.right) for call in _calls(side)
                     if call.func in self.program.defn.functions
                     for x in self.gave(call, consts, names, st, fr, depth)]
            return Because(self.text(node), node.pos, tuple(values), tuple(dict.fromkeys(inner)))
        return Because(self.text(node), node.pos, tuple(values))

    def gave(self, call, consts, names, st, fr, depth) -> list:
        """What the game function `call` calls gave and why, read from its body with its
        parameters bound: of a function that gives the members of a set where a condition
        holds, which part of the condition is false for each member left out."""
        f = self.program.defn.functions[call.func]
        if depth >= MAX_CALLS or f.tree is None:
            return []
        try:
            args = [self.fn(a, consts, names)(st, fr) for a in call.args]
        except _ERRORS:
            return []
        env = dict(zip(f.params, args))
        bound = _bound(env, st)
        head = Phrase("call_where", self.text(call), bound) if bound else self.text(call)
        if f.description:
            head = Phrase("described", head, f.description.rstrip("."))
        body = f.tree.expr if isinstance(f.tree, N.Condition) else f.tree
        inner_fr = Frame(None, 0, env, fr.me, fr.you)
        params = frozenset(f.params)
        if isinstance(body, N.ListLit) and len(body.items) == 1:
            body = body.items[0]
        if isinstance(body, N.Call) and body.func in self.program.defn.functions:
            return [Phrase("gives", head, self.text(body))] + self.gave(body, _NO_BINDINGS, params, st, inner_fr,
                                                                         depth + 1)
        if isinstance(body, N.Each) and body.where is not None:
            try:
                members = list(iterate(st, self.fn(body.source, _NO_BINDINGS, params)(st, inner_fr)))
            except _ERRORS:
                return []
            if not members:
                return [Phrase("gives_nothing", head, self.text(body.source))]
            names_in = params | {body.var}
            left_out = []
            for m in members:
                because = self.why(body.where, _NO_BINDINGS, names_in, st,
                                   Frame(None, 0, {**env, body.var: m}, fr.me, fr.you), depth + 1)
                if because is None:
                    continue
                who = Value(m, vm.label_of(st, m))
                if because.values or because.via:
                    left_out.append(Phrase("left_out_why", who, because.text, Joined(because.values + because.via)))
                else:
                    left_out.append(Phrase("left_out", who, because.text))
            if not left_out:
                return []
            shown = left_out[:SHOWN_LEFT_OUT] + ([Phrase("more", len(left_out) - SHOWN_LEFT_OUT)]
                                                 if len(left_out) > SHOWN_LEFT_OUT else [])
            return [Phrase("leaves_out", head, Joined(shown, "; "))]
        return []

    def class_name(self, node, consts, names):
        """The class `node` names, when it is a class's name (not a local's), else None."""
        if not isinstance(node, N.Name) or node.name in names:
            return None
        bound = consts.get(node.name)
        if isinstance(bound, ClassName):
            return bound.key
        if bound is None and fold(node.name) in self.program.defn.classes:
            return fold(node.name)
        return None

    def classes(self, node, consts, names, st, fr) -> str:
        """' (of Tool, Marked)': the classes and tags of the component `node` gives."""
        try:
            c = self.fn(node, consts, names)(st, fr)
        except _ERRORS:
            return ""
        if type(c) is not Comp:
            return ""
        known = self.program.defn.classes
        held = set(self.program.comp_classes[c]) | {fold(t) for t in st.tags.get(c, ())}
        shown = sorted(known[k][1] if k in known else k for k in held)
        return Phrase("of_classes", Joined(shown)) if shown else Phrase("of_no_class")

    def inside(self, call, consts, names, st, fr, depth):
        """The false part of the body of the game function `call` calls, its parameters bound
        to the call's arguments; the call itself is named in the values."""
        f = self.program.defn.functions[call.func]
        try:
            args = [self.fn(a, consts, names)(st, fr) for a in call.args]
        except _ERRORS:
            return None
        env = dict(zip(f.params, args))
        inner = self.why(f.tree, _NO_BINDINGS, frozenset(f.params), st, Frame(None, 0, env, fr.me, fr.you), depth + 1)
        if inner is None:
            return None
        bound = _bound(env, st)
        called = Phrase("in_call_where", self.text(call), bound) if bound else Phrase("in_call", self.text(call))
        return inner._replace(via=inner.via + (called,))

    def said(self, node, consts, names, st, fr) -> str:
        """'you.coins is 2'; of a zone, what it holds ('players[1].hand holds One, Two'), not its key."""
        try:
            v = self.fn(node, consts, names)(st, fr)
        except _ERRORS as exc:
            return Phrase("is", self.text(node), _failed(exc))
        if type(v) is ZoneRef:
            held = list(st.zones.get(v) or [])
            if not held:
                return Phrase("is_empty", self.text(node))
            return Phrase("holds", self.text(node), Value(held, vm.label_of(st, held)))
        return Phrase("is", self.text(node), Value(v, vm.label_of(st, v)))

    def value(self, node, consts, names, st, fr) -> str:
        try:
            return vm.label_of(st, self.fn(node, consts, names)(st, fr))
        except _ERRORS as exc:
            return _failed(exc)


def _calls(node):
    """The calls of functions in expression `node`, outermost first."""
    if isinstance(node, N.Call):
        yield node
    if isinstance(node, (N.Each, N.Mapped)):
        return  # its condition reads a member, not the frame the condition is read in
    for value in vars(node).values():
        for child in value if isinstance(value, list) else (value,):
            if isinstance(child, N.Node):
                yield from _calls(child)


def _failed(exc) -> str:
    message = exc.message if isinstance(exc, GameFault) else f"{type(exc).__name__}: {exc}"
    return Phrase("an_error", message)


def _bound(env: dict, st) -> str:
    """'p is player 1, c is Gold Mine': the parameters of a game function, bound."""
    return Joined(Phrase("is", p, Value(v, vm.label_of(st, v))) for p, v in env.items()) if env else ""
