"""Stage 5, statements: checked trees become the operations of `Code`, once per pack.

Each statement of a procedure or ability becomes a few lines of Python source,
with its expressions inline (written by `expressions`), and jumps for loops and
branches, so that a running game is plain data: a stack of frames, each a code
object, a position in it and its locals. A choice suspends the game between two
operations. `assemble` then turns each straight run of operations into one
Python function, and `native` compiles branches and loops that never wait into
one Python block. Nothing is re-parsed or re-walked while playing.
"""
from __future__ import annotations

from ..diagnostics import ContentError, Position
from ..engine import machine as vm
from ..engine.library import EXPORTED
from ..limits import TEXT_BUDGET
from ..engine.specs import ChooseSpec, DecideSpec, MenuOption, MenuSpec
from ..engine.state import GameFault
from ..language import nodes as N
from ..language.texts import label_parts
from ..language.visitor import NodeVisitor
from ..names import fold
from . import assemble
from .assemble import Flow
from .context import Ctx, Effect
from .expressions import ExprGen, Scope, Source
from .native import MAX_BRANCHES, NativeBlocks

# False: `untag S as T` looks at every member of S, as it did (the plain path a test compares with)
UNTAG_AMONG_TAGGED = True


class Compiler(NativeBlocks, NodeVisitor):
    """Compiles the statements of one checked pack into the operations of `Code`s: `visit(s, ctx)`
    writes statement `s` into `ctx.code`, by the `visit_` method of its class (language.visitor)."""

    # every statement has its method: none is compiled by walking its children
    GENERIC = frozenset()

    def __init__(self, program, analysis):
        self.program = program  # the tables of the compiled game (engine.program, filled by compile.program)
        self.defn = program.defn
        self.src = Source(EXPORTED)
        self.src.ns["FN"] = {}  # the game's functions, compiled on first call (see ExprGen.game_function)
        self.gen = ExprGen(program, analysis, self.src)
        self.reasons = None  # compile.reasons.Reasons: the conditions kept to say why they are false

    def expr(self, e, ctx: Ctx):
        """A function (state, frame) -> value: the expression compiled to Python (see expressions)."""
        return self.gen.function(e, ctx)

    # labels -----------------------------------------------------------------
    def label(self, text: str, pos: Position, ctx: Ctx):
        """A text with {expressions} inside, rendered with the values' readable names: the
        parts the checker read, or (a text it never saw, as an action's default label) read now;
        an expression that does not read or resolve stays as it is written."""
        parts = []
        for part in self.program.found.labels.get((text, pos)) or label_parts(text, pos):
            if isinstance(part, str):
                parts.append(part)
                continue
            try:
                if part.error is not None:
                    raise part.error
                parts.append(self.expr(part.tree, ctx))
            except (ContentError, GameFault):
                parts.append("{" + part.source + "}")
        if all(isinstance(p, str) for p in parts):
            s = "".join(parts)
            return lambda st, fr: s

        def render(st, fr):
            # a text has a budget of work of its own (interpreter.limits.TEXT_BUDGET): whether a
            # text is rendered (for a trace, for a person) never changes how the game goes
            saved, st.fuel = st.fuel, TEXT_BUDGET
            try:
                return "".join(p if isinstance(p, str) else vm.label_of(st, p(st, fr)) for p in parts)
            except (GameFault, TypeError, ValueError, KeyError, IndexError, AttributeError, ZeroDivisionError):
                return text  # as written: a text read only when traced must not stop the game
            finally:
                st.fuel = saved
        return render

    # statements -------------------------------------------------------------
    # Each statement becomes a few lines of Python source (see `assemble`), with
    # the source of its expressions inline: no closure calls another closure.
    def body(self, body, ctx: Ctx) -> None:
        """Compile a whole body into `ctx.code`, then turn its operations into functions."""
        self.block(body, ctx)
        assemble.finish(ctx.code, self.src.ns)

    def block(self, body, ctx: Ctx) -> None:
        visitors = self._methods
        for s in body:
            visitors[type(s)](self, s, ctx)  # self.visit(s, ctx), without its *args

    def generic_visit(self, s, ctx):
        raise GameFault(f"{type(s).__name__} is not a statement", s.pos)

    def source(self, e, ctx) -> str:
        """The Python source of expression `e`."""
        return self.gen.gen(e, ctx, Scope())

    def scope(self) -> Scope:
        return Scope()

    def const(self, value, prefix="K") -> str:
        """The name of a constant of the generated code."""
        return self.src.const(value, prefix)

    def number(self, e, ctx) -> str:
        """The Python source of number expression `e`."""
        return self.gen.num(e, ctx, Scope())

    def visit_Pass(self, s, ctx):
        pass

    def visit_Move(self, s, ctx):
        p = self.const(s.pos, "P")
        bottom = s.end == "bottom"
        ctx.emit_src([f"_w = {self.source(s.what, ctx)}",
                      f"_z = {self.source(s.to, ctx)}",
                      f"if type(_w) is Comp: st.move(_w, _z, {bottom}, {p})",
                      f"elif _w is not None: R_move(st, _w, _z, {bottom}, {p})"], s.pos)

    def counter_key(self, e, ctx) -> tuple:
        """(source of the key, counter definition) of a counter reference."""
        defn = self.defn
        if isinstance(e, N.Name) and e.name in defn.counters and e.name not in ctx.locals:
            return repr(e.name), self.program.counters[e.name]
        if isinstance(e, N.Attr) and e.name in defn.counters:
            cdef = self.program.counters[e.name]
            return self.gen.counter_key(self.source(e.obj, ctx), cdef, self.const(e.pos, "P"), self.gen.said(e.obj)), cdef
        if isinstance(e, N.Index) and isinstance(e.obj, N.Attr) and e.obj.name in defn.counters:
            cdef = self.program.counters[e.obj.name]
            return self.gen.pair_key(cdef, self.source(e.obj.obj, ctx), self.source(e.key, ctx)), cdef
        raise GameFault("not a counter", e.pos)

    def _amount_op(self, s, ctx, sign: int, kind: str):
        key, cdef = self.counter_key(s.target, ctx)
        p, c = self.const(s.pos, "P"), self.const(cdef, "C")
        amount = self.number(s.amount, ctx)
        if kind == "pay":
            ctx.emit_src([f"_n = {amount}",
                          f"_k = {key}",
                          f"if st.counters.get(_k, {cdef.initial!r}) < _n:",
                          f"    R_cannot_pay(st, fr, _k, {c}, _n, {p})",
                          "    return",
                          f"st.add(_k, {c}, -_n, {p}, 'pay')"], s.pos, Flow.BRANCH)
            return
        ctx.emit_src([f"st.add({key}, {c}, {'-' if sign < 0 else ''}{amount}, {p}, {kind!r})"], s.pos)

    def visit_Add(self, s, ctx):
        self._amount_op(s, ctx, 1, "add")

    def visit_Remove(self, s, ctx):
        self._amount_op(s, ctx, -1, "remove")

    def visit_Pay(self, s, ctx):
        self._amount_op(s, ctx, -1, "pay")

    def owned_counter(self, name, owner, ctx, pos) -> tuple:
        cdef = self.program.counters[name]
        obj = self.source(owner, ctx) if owner is not None else "fr.you"
        said = self.gen.said(owner) if owner is not None else repr("you")
        return self.gen.counter_key(obj, cdef, self.const(pos, "P"), said), cdef

    def visit_Gain(self, s, ctx):
        key, cdef = self.owned_counter(s.counter, s.owner, ctx, s.pos)
        ctx.emit_src([f"st.add({key}, {self.const(cdef, 'C')}, {self.number(s.amount, ctx)}, {self.const(s.pos, 'P')}, 'gain')"],
                     s.pos)

    def visit_Lose(self, s, ctx):
        key, cdef = self.owned_counter(s.counter, s.owner, ctx, s.pos)
        ctx.emit_src([f"st.add({key}, {self.const(cdef, 'C')}, -{self.number(s.amount, ctx)}, {self.const(s.pos, 'P')}, 'lose')"],
                     s.pos)

    def visit_Score(self, s, ctx):
        key, cdef = self.owned_counter(self.defn.score, s.owner, ctx, s.pos)
        source = self.source(s.source, ctx) if s.source is not None else "fr.me"
        ctx.emit_src([f"_k = {key}",
                      f"_n = {self.number(s.amount, ctx)}",
                      f"R_score(st, _k, {self.const(cdef, 'C')}, _n, {self.const(s.pos, 'P')}, {source})"], s.pos)

    def visit_SetStmt(self, s, ctx):
        t, defn = s.target, self.defn
        p = self.const(s.pos, "P")
        counter = (isinstance(t, N.Name) and t.name not in ctx.locals and t.name in defn.counters) or \
            (isinstance(t, N.Attr) and t.name in defn.counters) or \
            (isinstance(t, N.Index) and isinstance(t.obj, N.Attr) and t.obj.name in defn.counters)
        if counter:
            key, cdef = self.counter_key(t, ctx)
            ctx.emit_src([f"_n = {self.number(s.value, ctx)}",
                          f"st.set_counter({key}, {self.const(cdef, 'C')}, _n, {p})"], s.pos)
            return
        if isinstance(t, N.Name):
            ctx.emit_src([f"fr.env[{t.name!r}] = {self.kept(s.value, ctx)}"], s.pos)
            return
        if isinstance(t, N.Attr) and t.name in defn.attributes:
            kind = defn.attributes[t.name].type
            canon = {k: v[1] for k, v in defn.classes.items()} if kind == "class" else "number" if kind == "number" else None
            ctx.emit_src([f"_o = {self.source(t.obj, ctx)}",
                          f"R_set_attr(st, _o, {t.name!r}, {self.source(s.value, ctx)}, {self.const(canon)}, {p})"], s.pos)
            return
        raise GameFault("this cannot be set", s.pos)

    def visit_Let(self, s, ctx):
        ctx.locals.add(s.name)
        ctx.emit_src([f"fr.env[{s.name!r}] = {self.kept(s.value, ctx)}"], s.pos)

    def kept(self, e, ctx) -> str:
        """The source of a value a variable keeps: a sum or a product is checked against the
        largest number a game may keep (interpreter.limits), so that a number squared over and over
        in a loop stops the game rather than filling the memory."""
        if any(isinstance(n, N.BinOp) and n.op in "+-*" for n in N.walk(e)):
            return f"R_big({self.source(e, ctx)}, {self.const(e.pos, 'P')})"
        return self.source(e, ctx)

    def visit_Signal(self, s, ctx):
        args = ", ".join(self.source(a, ctx) for a in s.args)
        ctx.emit_src([f"vm.signal(st, fr, {s.event!r}, [{args}], {self.const(s.pos, 'P')})"], s.pos, Flow.END)

    def visit_CallProc(self, s, ctx):
        proc = self.defn.procedures[s.proc]
        if proc.point and not proc.hooks and all(isinstance(a, N.Name) for a in s.args):
            return  # an extension point nothing hooks on does nothing (its arguments are names: nothing to run)
        env = ", ".join(f"{str(p)!r}: {self.source(a, ctx)}" for p, a in zip(proc.params, s.args))
        # a procedure acts for the player its 'acting' parameter names, else for its caller's
        you = f"_e[{str(proc.acting)!r}]" if proc.acting is not None else "fr.you"
        ctx.emit_src([f"_e = {{{env}}}",
                      f"if len(st.frames) >= {vm.MAX_DEPTH}: R_too_deep({self.const(s.pos, 'P')})",
                      f"st.frames.append(Frame({self.const(self.program.procs[s.proc], 'CODE')}, 0, _e, fr.me, {you}))"],
                     s.pos, Flow.END)

    def visit_Shuffle(self, s, ctx):
        ctx.emit_src([f"st.shuffle({self.source(s.zone, ctx)}, {self.const(s.pos, 'P')})"], s.pos)

    def visit_Tag(self, s, ctx):
        key = fold(self.defn.classes[fold(s.tag)][1])
        p = self.const(s.pos, "P")
        if UNTAG_AMONG_TAGGED and not s.on and self.gen.components(s.what, ctx, Scope()):
            # untagging components (what is in play, say) that seldom hold the tag: the few that
            # do are found among the tagged ones first, and none is looked at when none holds
            # it; those that do are untagged in the order of the set, as by the loop below
            ctx.emit_src([f"_l = R_it(st, {self.source(s.what, ctx)}, {p})",
                          f"_h = {{_c for _c, _t in st.tags.items() if {key!r} in _t}} if st.tags else None",
                          "if _h:",
                          "    for _c in list(_l):",
                          "        if _c in _h:",
                          f"            st.tag(_c, {key!r}, False, {p})"], s.pos)
            return
        # only the components whose tags change are touched
        ctx.emit_src([f"for _c in list(R_it(st, {self.source(s.what, ctx)}, {p})):",
                      f"    if type(_c) is not Comp or ({key!r} {'not in' if s.on else 'in'} st.tags.get(_c, ())):",
                      f"        st.tag(_c, {key!r}, {s.on}, {p})"], s.pos)

    def visit_TapStmt(self, s, ctx):
        p = self.const(s.pos, "P")
        ctx.emit_src([f"for _c in list(R_it(st, {self.source(s.what, ctx)}, {p})):",
                      f"    st.tap(_c, {s.on}, {p})"], s.pos)

    def visit_Reveal(self, s, ctx):
        ctx.emit_src([f"_v = {self.source(s.what, ctx)}",
                      "if st.trace is not None:",
                      f"    st.emit(EV_REVEAL, {self.const(s.pos, 'P')}, what=vm.plain(_v), label=vm.label_of(st, _v) if st.recording() else None)"],
                     s.pos)

    def visit_Log(self, s, ctx):
        # the text is only rendered for a trace: bots playing thousands of games never read it
        text = self.const(self.label(s.text, s.pos, ctx), "L")
        ctx.emit_src(["if st.trace is not None:",
                      f"    st.emit(EV_LOG, {self.const(s.pos, 'P')}, text={text}(st, fr) if st.recording() else None)"], s.pos)

    def visit_Win(self, s, ctx):
        ctx.emit_src([f"vm.win(st, {self.source(s.who, ctx)}, {self.const(s.pos, 'P')})"], s.pos, Flow.END)

    def visit_Exit(self, s, ctx):
        ctx.emit_src([f"vm.exit_proc(st, {s.proc!r}, {self.const(s.pos, 'P')})"], s.pos, Flow.END)

    def visit_Return(self, s, ctx):
        ctx.emit_src(["st.frames.pop()"], s.pos, Flow.END)

    def visit_Fail(self, s, ctx):
        text = self.const(self.label(s.text, s.pos, ctx), "L")
        ctx.emit_src([f"vm.fail(st, fr, {text}(st, fr), {self.const(s.pos, 'P')})"], s.pos, Flow.END)

    def jump(self, cell, ctx, pos) -> None:
        ctx.emit_src(lambda: [f"fr.pc = {cell[0]}", "return"], pos, Flow.END)

    def visit_Break(self, s, ctx):
        if ctx.capture is not None:  # in a native loop (see native)
            ctx.capture.append((["break"], Flow.NEXT, s.pos))
            return
        cell = [None]
        ctx.loops[-1][1].append(cell)
        self.jump(cell, ctx, s.pos)

    def visit_Continue(self, s, ctx):
        if ctx.capture is not None:
            ctx.capture.append((["continue"], Flow.NEXT, s.pos))
            return
        self.jump(ctx.loops[-1][0], ctx, s.pos)

    def visit_Roll(self, s, ctx):
        ctx.locals.add(s.name)
        sides = self.number(s.sides, ctx) if s.sides is not None else "6"
        ctx.emit_src([f"fr.env[{s.name!r}] = R_roll(st, {self.number(s.count, ctx)}, {sides}, {self.const(s.pos, 'P')})"],
                     s.pos)

    def visit_Choose(self, s, ctx):
        ctx.locals.add(s.var)
        src = self.gen.members_where(s.var, s.source, s.where, ctx, s.pos)
        chooser = self.expr(s.chooser, ctx) if s.chooser is not None else None
        prompt = self.label(s.prompt, s.pos, ctx) if s.prompt else None
        spec = ChooseSpec(s.var, src, chooser, s.optional, prompt, s.pos, s.secret, self.reasons.among(s.source, ctx),
                          self.reasons.condition(s.where, ctx) if s.where is not None else None)
        # a choice with one possible answer is made at once, and the run goes on
        at = ctx.emit_src([f"vm.choose(st, fr, {self.const(spec, 'S')})",
                           "if st.pending is not None:",
                           "    return"], s.pos, Flow.BRANCH)
        if at >= 0:
            ctx.code.choices[at] = spec

    def visit_Decide(self, s, ctx):
        ctx.locals.add(s.var)
        chooser = self.expr(s.chooser, ctx) if s.chooser is not None else None
        prompt = self.label(s.prompt, s.pos, ctx) if s.prompt else None
        rules = [(self.expr(r.cond, ctx) if r.cond is not None else None, self.expr(r.value, ctx), r.pos)
                 for r in s.rules]
        spec = DecideSpec(s.var, chooser, prompt, rules, s.pos)
        ctx.emit_src([f"vm.decide(st, fr, {self.const(spec, 'S')})"], s.pos)

    def visit_Use(self, s, ctx):
        who = self.source(s.chooser, ctx) if s.chooser is not None else "fr.you"
        # an action that starts runs first, and this code goes on after it
        ctx.emit_src([f"if vm.use(st, fr, {self.source(s.card, ctx)}, {who}, {s.free}, {self.const(s.pos, 'P')}):",
                      "    return"], s.pos, Flow.BRANCH)

    def visit_Menu(self, s, ctx):
        chooser = self.expr(s.chooser, ctx) if s.chooser is not None else None
        prompt = self.label(s.prompt, s.pos, ctx) if s.prompt else None
        options = []
        spec = MenuSpec(chooser, prompt, options, [None], s.pos, s.secret)
        ctx.code.menus[ctx.emit_src([f"vm.menu(st, fr, {self.const(spec, 'S')})"], s.pos, Flow.END)] = spec
        ends = []
        for o in s.options:
            if isinstance(o, N.ActionsOption):
                options.append(MenuOption(None, None, None, None, None, o.window, o.pos))
                continue
            if o.var:
                ctx.locals.add(o.var)
            if o.source is not None:  # the values the option is offered for
                src, cond = self.gen.members_where(o.var, o.source, o.cond, ctx, o.pos), None
            else:
                src, cond = None, self.expr(o.cond, ctx) if o.cond is not None else None
            label = self.label(o.label, o.pos, ctx)
            start = ctx.here()
            among = self.reasons.among(o.source, ctx) if o.source is not None else None
            guard = self.reasons.condition(o.cond, ctx) if o.cond is not None else None
            options.append(MenuOption(label, o.var, src, cond, start, None, o.pos, among, guard))
            self.block(o.body, ctx)
            cell = [None]
            ends.append(cell)
            self.jump(cell, ctx, o.pos)
        end = ctx.here()
        spec.end[0] = end
        for cell in ends:
            cell[0] = end

    def branch_unless(self, test: str, cell, ctx, pos) -> None:
        """Go on when `test` holds, else jump to the position in `cell`."""
        ctx.emit_src(lambda: [f"if not ({test}):", f"    fr.pc = {cell[0]}", "    return"], pos, Flow.BRANCH)

    def visit_If(self, s, ctx):
        if len(s.branches) <= MAX_BRANCHES and self.can_inline([b for _, b in s.branches] + [s.orelse or []], ctx, False):
            self.native_if(s, ctx)
            return
        ends = []
        for i, (cond, body) in enumerate(s.branches):
            skip = [None]
            self.branch_unless(self.gen.test(cond, ctx, Scope()), skip, ctx, cond.pos)
            self.block(body, ctx)
            if i < len(s.branches) - 1 or s.orelse:
                end = [None]
                ends.append(end)
                self.jump(end, ctx, cond.pos)
            skip[0] = ctx.here()
        if s.orelse:
            self.block(s.orelse, ctx)
        for end in ends:
            end[0] = ctx.here()

    def _loop(self, ctx, head, exit_cell, body, pos) -> None:
        """The body of a loop, the jump back to its head, and its exit (where 'break' goes)."""
        breaks: list = []
        ctx.loops.append((head, breaks))
        self.block(body, ctx)
        ctx.loops.pop()
        self.jump(head, ctx, pos)
        exit_cell[0] = ctx.here()
        for b in breaks:
            b[0] = exit_cell[0]

    def visit_For(self, s, ctx):
        if self.can_inline([s.body], ctx, True):
            self.native_for(s, ctx)
            return
        ctx.locals.add(s.var)
        items, index, var = ctx.fresh("items"), ctx.fresh("i"), s.var
        p = self.const(s.pos, "P")
        ctx.emit_src([f"fr.env[{items!r}] = tuple(R_it(st, {self.source(s.source, ctx)}, {p}))",
                      f"fr.env[{index!r}] = 0"], s.pos)
        cond = self.source(s.where, ctx) if s.where is not None else None
        head = [ctx.here()]
        exit_cell = [None]
        take = [f"    _env[{var!r}] = _s[_i]", "    _i += 1"]
        take += [f"    if {cond}:", "        break"] if cond is not None else ["    break"]
        ctx.emit_src(lambda: ["_env = fr.env",
                              f"_s = _env[{items!r}]",
                              f"_i = _env[{index!r}]",
                              "while True:",
                              "    if _i >= len(_s):",
                              f"        _env[{index!r}] = _i",
                              f"        fr.pc = {exit_cell[0]}",
                              "        return",
                              *take,
                              f"_env[{index!r}] = _i"], s.pos, Flow.BRANCH)
        self._loop(ctx, head, exit_cell, s.body, s.pos)

    def visit_Repeat(self, s, ctx):
        if self.can_inline([s.body], ctx, True):
            self.native_repeat(s, ctx)
            return
        exit_cell = [None]
        if s.count is not None:
            left = ctx.fresh("left")
            ctx.emit_src([f"fr.env[{left!r}] = {self.number(s.count, ctx)}"], s.pos)
            head = [ctx.here()]
            ctx.emit_src(lambda: [f"_n = fr.env[{left!r}]",
                                  "if _n <= 0:",
                                  f"    fr.pc = {exit_cell[0]}",
                                  "    return",
                                  f"fr.env[{left!r}] = _n - 1"], s.pos, Flow.BRANCH)
        else:
            head = [ctx.here()]
        self._loop(ctx, head, exit_cell, s.body, s.pos)

    def visit_While(self, s, ctx):
        if self.can_inline([s.body], ctx, True):
            self.native_while(s, ctx)
            return
        exit_cell = [None]
        head = [ctx.here()]
        self.branch_unless(self.gen.test(s.cond, ctx, Scope()), exit_cell, ctx, s.pos)
        self._loop(ctx, head, exit_cell, s.body, s.pos)

    def visit_Phrase(self, s, ctx):
        # only the effect parameter of a keyword reaches here: splice the card's body in
        name = s.words[0].value
        effect: Effect = ctx.consts[name]
        saved = ctx.consts
        ctx.consts = effect.consts
        self.block(effect.body, ctx)
        ctx.consts = saved
