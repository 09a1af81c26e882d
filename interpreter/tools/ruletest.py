"""Executable rulings: running the `kind: rules-test` files of a game.

A test sets up a situation (`given`: statements run on a game whose
components are in their starting zones and whose `game` procedure has not
started), acts (`when`), answers the choices asked on the way (`choices`, by
label or index), and checks the outcome (`then`: conditions). With `offered`,
the actions stop at the choice asked once the answers are used up, and the
test checks that it offers exactly these options. A test may name a `scenario`
(laid over the game for it) and the `powers` of some seats. The result says which
condition failed, where, and what the trace of the test was.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..content.pack import test_cards
from ..diagnostics import LoadError
from ..engine import machine as vm
from ..compile.context import Ctx
from ..engine.code import Code
from ..engine.game import Game, GameState
from ..engine.state import Frame, GameFault


@dataclass
class TestResult:
    name: str
    file: str
    line: int
    rules: list
    passed: bool
    message: str = ""
    trace: list = field(default_factory=list)


def compile_part(game: Game, test, part: str, tree, locals_):
    """The code of one part (given, when) of a rules test, with the locals the earlier parts bound."""
    program = game.program
    # a script: a phase it calls may end (`exit` of a procedure the test did not call), and the
    # test goes on with its next statement
    code = Code(f"test:{test.file}:{test.pos.line}:{part}", "script", proc=f"test-{part}")
    ctx = Ctx(code, locals_=locals_)
    program.compiler.body(tree.body, ctx)
    return code, ctx.locals


def run_test(game: Game, test) -> TestResult:
    res = TestResult(test.name, test.file, test.pos.line, list(test.rules), False)
    data = test.data
    players = int(data.get("players", game.min_players))
    try:
        where = (test.file, test.pos.line)
        if isinstance(data.get("scenario"), str):  # the same test, in the game with its scenario laid
            game = game.with_layers(scenario=data["scenario"])
            test = next(t for t in game.program.defn.tests if (t.file, t.pos.line) == where)
        if test.cards:  # the same test, in the game with the cards it writes for itself
            game = game.with_sources(where, test_cards(test, game.id))
            test = next(t for t in game.program.defn.tests if (t.file, t.pos.line) == where)
        powers = {int(k): str(v) for k, v in (data.get("powers") or {}).items()}
        st = game.blank_state(players, int(data.get("seed", 0)), dict(data.get("options") or {}), trace=True,
                              powers=powers)
    except ValueError as exc:
        res.message = str(exc)
        return res
    except LoadError as exc:
        res.message = str(exc)
        return res
    answers = list(data.get("choices") or [])
    offered = data.get("offered")
    at_least, not_offered = data.get("offered_at_least"), data.get("not_offered")
    # the test stops at a choice to say what it offers: exactly these, at least these, none of these
    stops = offered is not None or at_least is not None or not_offered is not None
    env: dict = {}
    names: set = set()
    try:
        for part, tree in (("given", test.given), ("when", test.when)):
            if tree is None:
                continue
            code, names = compile_part(game, test, part, tree, names)
            fr = vm.push(st, code, env, None, None, tree.pos)
            vm.run(st)
            while st.pending is not None:
                if part == "given":
                    raise GameFault(f"'given' asked a choice ({st.pending.prompt}: "
                                    f"{'; '.join(st.pending.labels_for(st))}): set the situation up without choices",
                                    st.pending.pos)
                if not answers:
                    if part == "when" and stops:
                        break  # the choice the test stops at, checked below
                    raise GameFault(f"a choice was asked and 'choices' has no answer left: "
                                    f"{st.pending.prompt}: {'; '.join(st.pending.labels_for(st))}", st.pending.pos)
                GameState.apply(st, answers.pop(0))
            env = fr.env
    except GameFault as exc:
        res.message = f"{exc.pos}: {exc.message}" if exc.pos else exc.message
        res.trace = st.trace
        return res
    if answers:
        res.message = f"{len(answers)} answer(s) in 'choices' were never asked for: {answers}"
        res.trace = st.trace
        return res
    failures = []
    for key, given in (("offered", offered), ("offered_at_least", at_least), ("not_offered", not_offered)):
        if given is None:
            continue
        where = getattr(given, "pos", test.pos)
        wanted = [str(x) for x in given]
        if st.pending is None:
            failures.append(f"{where}: '{key}' expects a choice to be asked, but no choice is left to ask")
            continue
        labels = list(st.pending.labels_for(st))
        prompt = st.pending.prompt
        if key == "offered" and labels != wanted:
            failures.append(f"{where}: the choice '{prompt}' offers {labels}, not {wanted}")
        elif key == "offered_at_least" and any(w not in labels for w in wanted):
            failures.append(f"{where}: the choice '{prompt}' does not offer "
                            f"{[w for w in wanted if w not in labels]}; it offers {labels}")
        elif key == "not_offered" and any(w in labels for w in wanted):
            failures.append(f"{where}: the choice '{prompt}' offers {[w for w in wanted if w in labels]}, "
                            f"which the ruling says it does not; it offers {labels}")
    program = game.program
    for text, tree in test.then:
        fn = program.compiler.expr(tree, Ctx(Code("then", "then"), locals_=names))
        try:
            ok = fn(st, Frame(None, 0, env, None, None))
        except GameFault as exc:
            failures.append(f"{getattr(text, 'pos', test.pos)}: then '{text}': {exc.message}")
            continue
        except vm.RUN_ERRORS as exc:  # as the machine reports it in 'given' and 'when': never an internal error
            failures.append(f"{getattr(text, 'pos', test.pos)}: then '{text}': {type(exc).__name__}: {exc}")
            continue
        if type(ok) is not bool:  # a value the checker could not tell is not a condition
            failures.append(f"{getattr(text, 'pos', test.pos)}: then '{text}' is {vm.label_of(st, ok)}, "
                            "not true or false")
        elif not ok:
            why = _why_false(st, program, names, env, str(text), tree)
            failures.append(f"{getattr(text, 'pos', test.pos)}: then '{text}' is false" + (f": {why}" if why else ""))
    res.passed = not failures
    res.message = "\n".join(failures)
    res.trace = st.trace
    return res


def _why_false(st, program, names, env, text: str, tree) -> str:
    """The values behind a false `then` ('players[1].pp is 2'), read from its comparisons:
    through `and`, the first part that is false (compile.reasons); '' when there is nothing
    more to say than that it is false."""
    because = program.compiler.reasons.why(tree, None, frozenset(names), st, Frame(None, 0, env, None, None))
    if because is None:
        return ""
    said = ", ".join(because.values)
    if not said and because.text != text.strip():
        said = f"'{because.text}' is false"
    return "; ".join(x for x in (said, *because.via) if x)
