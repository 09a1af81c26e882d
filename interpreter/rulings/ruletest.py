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
from ..engine.code import Code, CodeKind
from ..engine.events import ANSWERS, DECIDE
from ..engine.game import Game, GameState
from ..engine.state import Frame, GameFault
from ..names import fold


@dataclass
class TestResult:
    name: str
    file: str
    line: int
    rules: list
    passed: bool
    message: str = ""
    trace: list = field(default_factory=list)
    asked: list = field(default_factory=list)  # every question of the test, in order (Asked)


@dataclass
class Asked:
    """A question asked while a test ran: who, what, the options, the answer and what gave it
    (an answer of 'choices', the only option, an automaton, or none: the test stops there)."""
    player: str
    prompt: str
    options: list
    answer: str | None
    by: str
    at: str = ""

    def line(self) -> str:
        offered = "; ".join(self.options)
        shown = f"{self.player}, '{self.prompt}': [{offered}]"
        if self.answer is None:
            return f"{shown}, the test stops here ({self.by})"
        return f"{shown} -> {self.answer} ({self.by})"


def compile_part(game: Game, test, part: str, tree, locals_):
    """The code of one part (given, when) of a rules test, with the locals the earlier parts bound."""
    program = game.program
    # a script: a phase it calls may end (`exit` of a procedure the test did not call), and the
    # test goes on with its next statement
    code = Code(f"test:{test.file}:{test.pos.line}:{part}", CodeKind.SCRIPT, proc=f"test-{part}")
    ctx = Ctx(code, locals_=locals_)
    program.compiler.body(tree.body, ctx)
    return code, ctx.locals


def run_test(game: Game, test) -> TestResult:
    res = TestResult(test.name, test.file, test.pos.line, list(test.rules), False)
    data = test.data
    players = int(data.get("players", game.min_players))
    try:
        where = (test.file, test.pos.line)
        if isinstance(data.get("expansions"), list):  # the same test, with these expansions only ([]: the game alone)
            game = game.with_layers(expansions=[str(x) for x in data["expansions"]])
            test = next((t for t in game.program.defn.tests if (t.file, t.pos.line) == where), None)
            if test is None:
                res.message = (f"the test is not part of {game.title} with "
                               + (", ".join(map(str, data["expansions"])) or "no expansion")
                               + ": its file belongs to an expansion its 'expansions' leaves out")
                return res
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
    asked = res.asked
    seen = 0  # the events of the trace read for the questions that answered themselves
    given_answers = len(answers)
    try:
        for part, tree in (("given", test.given), ("when", test.when)):
            if tree is None:
                continue
            code, names = compile_part(game, test, part, tree, names)
            fr = vm.push(st, code, env, None, None, tree.pos)
            vm.run(st)
            seen = _answered_alone(st, seen, asked)
            while st.pending is not None:
                d = st.pending
                labels = list(d.labels_for(st))
                question = Asked(game.program.player_name(int(d.player)), d.prompt, labels, None, "",
                                 f"{d.pos.path}:{d.pos.line}" if d.pos is not None else "")
                if part == "given":
                    raise GameFault(f"'given' asked a choice ({d.prompt}: "
                                    f"{'; '.join(labels)}): set the situation up without choices", d.pos)
                if not answers:
                    if part == "when" and stops:
                        question.by = "'offered' checks its options"
                        asked.append(question)
                        break  # the choice the test stops at, checked below
                    raise GameFault(f"a choice was asked and 'choices' has no answer left: "
                                    f"{d.prompt}: {'; '.join(labels)}" + _alone_since(asked), d.pos)
                answer, k = answers.pop(0), given_answers - len(answers) - 1
                question.by = f"choices[{k}]"
                try:
                    index = _option_index(st, labels, answer)
                except GameFault as exc:
                    astray = _alone_since(asked)
                    question.by = f"choices[{k}] {answer!r} is none of its options"
                    asked.append(question)
                    raise GameFault(f"choices[{k}] {answer!r} answers '{d.prompt}' ({question.player}): "
                                    f"{exc.message}" + astray, d.pos) from None
                question.answer = labels[index]
                asked.append(question)
                seen = len(st.trace)  # the answer's own event is this question
                GameState.apply(st, index)
                seen = _answered_alone(st, seen, asked)
            env = fr.env
    except GameFault as exc:
        res.message = f"{exc.pos}: {exc.message}" if exc.pos else exc.message
        res.trace = st.trace
        return res
    if answers:
        res.message = (f"{len(answers)} answer(s) in 'choices' were never asked for: {answers}"
                       + _alone_since(asked, everywhere=True))
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
        fn = program.compiler.expr(tree, Ctx(Code("then", CodeKind.THEN), locals_=names))
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


def _option_index(st, labels: list, answer) -> int:
    """The option an answer of 'choices' names: a label (as written, else folded) or an index."""
    if isinstance(answer, str):
        if answer in labels:
            return labels.index(answer)
        matches = [i for i, label in enumerate(labels) if fold(label) == fold(answer)]
        if not matches:
            raise GameFault(f"no option '{answer}' here; options: " + "; ".join(labels))
        return matches[0]
    if isinstance(answer, bool) or not isinstance(answer, int) or not 0 <= answer < len(labels):
        raise GameFault(f"illegal answer {answer!r}: options are 0..{len(labels) - 1}")
    return answer


def _answered_alone(st, seen: int, asked: list) -> int:
    """Add to `asked` the questions the trace shows were decided without an answer of the test
    since event `seen` (a choice of one option, a seat an automaton plays); the new mark."""
    trace = st.trace or []
    for ev in trace[seen:]:
        if ev.get("type") in ANSWERS and ev.get("auto"):
            by = "its only option: no answer of 'choices' used"
        elif ev.get("type") == DECIDE and ev.get("automaton"):
            by = f"automaton {ev['automaton']}, 1 of {ev.get('options')} options"
        else:
            continue
        player = st.program.player_name(int(ev["player"]) - 1) if "player" in ev else "?"
        asked.append(Asked(player, str(ev.get("prompt")), [str(ev.get("label"))], str(ev.get("label")), by,
                           str(ev.get("asked_at") or ev.get("at") or "")))
    return len(trace)


def _alone_since(asked: list, everywhere: bool = False) -> str:
    """What to add to a message about an answer that went astray: the questions that answered
    themselves since the last answer of 'choices' (or in the whole test), which an author may
    have written an answer for."""
    alone = []
    for q in reversed(asked):
        if q.by.startswith("choices[") and not everywhere:
            break
        if q.by.startswith("its only option"):
            alone.append(q)
    if not alone:
        return ""
    said = "; ".join(f"'{q.prompt}' ({q.player}) -> {q.answer}" for q in reversed(alone))
    return (f"; a question with one option answers itself and takes no answer of 'choices': {said}")


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
