"""How compiled code runs: straight runs of statements assembled into one function,
branches and loops that never wait compiled as native Python blocks, game functions
kept while what they read stands still, a trace that changes nothing, a saved state
that names the layout of its code, and the generated code against the reference
closure compiler. Each test checks an outcome of the rules language (values, errors
and their lines, resumed choices), not the generated text."""
from __future__ import annotations

import random
import textwrap

import pytest

import interpreter
from gamekit import make_game, source_line
from interpreter.compile.context import Ctx
from interpreter.engine.code import Code
from interpreter.engine.savefile import SaveError
from interpreter.engine.state import Frame, GameFault
from interpreter.language import nodes as N
from reference_closures import ClosureCompiler


def _run(tmp_path, procedures: str, players: int = 2):
    game = make_game(tmp_path, textwrap.dedent(procedures))
    return game, game.new_state(players=players, seed=3)


def test_native_loops_break_continue_and_nest(tmp_path):
    _, st = _run(tmp_path, """\
        game: |
          for each c in deck:
            if c.value == 2:
              continue
            add c.value to ticks
          repeat 5 times:
            add 10 to ticks
            if ticks > 30:
              break
          let n = 0
          while n < 3:
            set n = n + 1
            for each c in deck where c.suit == "Sun":
              add 100 to ticks
        """)
    # 1 + 3 + 4 (the 2 skipped), then three tens until ticks > 30, then 3 rounds of the two Suns
    assert st.counters["ticks"] == 8 + 30 + 3 * 2 * 100
    assert st.is_terminal()


def test_loops_nested_deeper_than_python_allows_run(tmp_path):
    """24 loops nested in one another (Python compiles at most 20 in a function): the outer ones
    are compiled as operations, the inner ones natively, and all of them run (issue 10)."""
    repeats = "".join("  " * (i + 1) + "repeat 1 times:\n" for i in range(21))
    inner = textwrap.indent(textwrap.dedent("""\
        let k = 0
        while k < 3:
          set k = k + 1
          for each b in [10, 20, 30]:
            if b == 30:
              break
            add b to ticks
        """), "  " * 22)
    game = make_game(tmp_path, "game: |\n" + textwrap.indent("for each a in [1, 2]:\n" + repeats + inner, "  "))
    st = game.new_state(players=2, seed=3)
    assert st.counters["ticks"] == 2 * 3 * (10 + 20)
    assert st.is_terminal()


def test_an_error_inside_a_native_loop_names_its_ownsource_line(tmp_path):
    game = make_game(tmp_path, textwrap.dedent("""\
        game: |
          for each c in deck:
            if c.value == 3:
              add 1 to ticks
              move 3 to pile
        """))
    with pytest.raises(GameFault) as err:
        game.new_state(players=2)
    assert "only components can be moved" in err.value.message
    assert source_line(err.value.pos).strip() == "move 3 to pile"
    assert err.value.state.counters["ticks"] == 1  # the statements before it ran


def test_an_endless_native_while_is_stopped_naming_itssource_line(tmp_path):
    game = make_game(tmp_path, "game: |\n  while ticks >= 0:\n    add 1 to ticks\n")
    game.program.step_budget = 5_000
    with pytest.raises(GameFault) as err:
        game.new_state(players=2)
    assert "runaway rules" in err.value.message
    assert source_line(err.value.pos).strip() == "while ticks >= 0:"


def test_a_choice_in_a_straight_run_resumes_after_itself(tmp_path):
    game, st = _run(tmp_path, """\
        game: |
          add 1 to ticks
          choose c from deck by players[1] "Pick"
          add c.value to ticks
          move c to players[1].hand
          choose d from deck by players[2] "Pick again"
          add 10 * d.value to ticks
        """)
    assert st.counters["ticks"] == 1 and st.prompt == "Pick"
    saved = st.to_json()
    st.apply("Three")
    assert st.counters["ticks"] == 4 and st.prompt == "Pick again"
    st.apply("Two")
    assert st.counters["ticks"] == 24 and st.is_terminal()
    again = game.state_from_json(saved)  # restored in the middle of the run
    again.apply("Three")
    again.apply("Two")
    assert again.counters == st.counters and again.history == st.history


def test_a_failed_payment_in_a_native_branch_abandons_the_ability(tmp_path):
    cards = textwrap.dedent("""\
        kind: cards
        game: tiny
        start: deck
        cards:
          - {id: one, title: One, value: 1, suit: Sun, abilities: ["when played:\\n  if true:\\n    pay 5 from you.coins\\n    add 100 to ticks\\n  add 1000 to ticks"]}
        """)
    game = make_game(tmp_path, textwrap.dedent("""\
        game: |
          move card("one") to players[1].table
          signal played(card("one"))
          add 1 to ticks
        """), cards)
    st = game.new_state(players=2)
    assert st.counters["ticks"] == 1  # the ability stopped at the payment; the game went on


@pytest.fixture
def fn_game(tmp_path):
    from gamekit import GAME, CARDS
    folder = tmp_path / "fn"
    folder.mkdir()
    game = GAME.format(procedures=textwrap.indent(textwrap.dedent("""\
        game: |
          let a = [size_of(players[1].hand), hand_count(), sun_count(), ticks_plus(), marked_count()]
          move card("one") to players[1].hand
          add 5 to ticks
          tag card("two") as Marked
          let b = [size_of(players[1].hand), hand_count(), sun_count(), ticks_plus(), marked_count()]
          set ticks = 0
          add a[1] + 10 * a[2] + 100 * a[3] + 1000 * a[4] + 10000 * a[5] to ticks
          add b[1] + 10 * b[2] + 100 * b[3] + 1000 * b[4] + 10000 * b[5] to players[1].points
        """), "  "))
    game += textwrap.dedent("""\
        functions:
          size_of: {params: [z], body: "count(z)"}
          hand_count: {params: [], body: "count(players[1].hand)"}
          sun_count: {params: [], body: "count(each c in deck where c.suit == \\"Sun\\")"}
          ticks_plus: {params: [], body: "ticks + 1"}
          marked_count: {params: [], body: "count(each c in deck where c is Marked)"}
        """)
    (folder / "game.yaml").write_text(game, encoding="utf-8")
    (folder / "cards.yaml").write_text(CARDS, encoding="utf-8")
    import interpreter
    return interpreter.load(str(folder))


def test_kept_results_follow_each_kind_of_change(fn_game):
    st = fn_game.new_state(players=2)
    # before: hand empty, 2 Suns in the deck (one and three of four cards), ticks 0 -> 1, nothing marked
    assert st.counters["ticks"] == 0 + 10 * 0 + 100 * 2 + 1000 * 1 + 10000 * 0
    # after: one in the hand (a Sun gone from the deck), ticks 5 -> 6, two marked in the deck
    assert st.counters["points#0"] == 1 + 10 * 1 + 100 * 1 + 1000 * 6 + 10000 * 1


def test_set_keeps_class_spellings_and_numbers(tmp_path):
    game, st = _run(tmp_path, """\
        game: |
          set card("two").suit = "sun"
          if card("two").suit == card("one").suit:
            add 1 to ticks
          set card("two").value = 5
          add card("two").value + card("one").value to ticks
        """)
    assert st.counters["ticks"] == 1 + 6
    (tmp_path / "b").mkdir()
    with pytest.raises(GameFault) as err:
        make_game(tmp_path / "b", 'game: |\n  set card("two").value = "many"\n').new_state(players=2)
    assert "expected a number" in err.value.message


def test_a_parameter_compared_with_a_class_name_and_a_select_of_numbers(tmp_path):
    """`colour == "Sun"` with the parameter written first is compared as `"Sun" == colour` would
    be: equal names by `==`, other spellings (case, accents) and other values the general way; a
    select of two numbers, or a function made of one, is used as a number without a test, and a
    select that may give a text is still tested."""
    functions = textwrap.dedent("""\
        functions:
          weight:
            params: [c, colour]
            body: "select(colour == \\"Sun\\", c.value, select(\\"Moon\\" == colour, c.value * 2, 0))"
          light:
            params: [c, colour]
            body: "count(each x in pile where x.suit == colour and x != c) < weight(c, colour)"
        """)
    game = make_game(tmp_path, textwrap.dedent("""\
        game: |
          move deck to pile
          for each c in pile:
            add weight(c, "Sun") to ticks
            add 10 * weight(c, "moon") to ticks
            add 100 * weight(c, 3) to ticks
            add 1000 * weight(c, none) to ticks
            if light(c, c.suit):
              add 1 to players[1].points
          add select(ticks > 0, 7, "seven") to players[2].points
        """), functions=functions)
    st = game.new_state(players=2)
    # every card weighs its value as a Sun (1 + 2 + 3 + 4), twice it as a "moon"; 3 and none weigh 0
    assert st.counters["ticks"] == 10 + 10 * 20
    # light: fewer other cards of its suit in the pile (1 each) than its weight: three (3), two (4), four (8)
    assert st.counters["points#0"] == 3 and st.counters["points#1"] == 7
    (tmp_path / "b").mkdir()
    with pytest.raises(GameFault) as err:
        make_game(tmp_path / "b", 'game: |\n  add select(ticks == 0, "seven", 7) to ticks\n').new_state(players=2)
    assert err.value.message == "`select(ticks == 0, \"seven\", 7)` is the text 'seven' here, not a number"


@pytest.mark.parametrize("game_id", ["karman-swap", "seeders-exodus"])
def test_a_trace_changes_nothing_of_the_game(game_id):
    """Some work is done only for a trace (log texts, moves one by one): with or without
    it, the same seed and choices give the same game, down to the order of every zone."""
    import random

    import interpreter
    game = interpreter.load(game_id)
    for players, seed in [(2, s) for s in range(8)] + [(4, 1), (4, 6)]:
        ends = []
        for traced in (True, False):
            st = game.new_state(players=players, seed=seed, trace=traced)
            rng = random.Random(seed)
            while not st.is_terminal():
                st.apply(rng.randrange(len(st.legal_actions())))
            ends.append((st.history, st.returns(), list(st.zones.items()), st.counters, st.tags))
        assert ends[0] == ends[1]
        assert len(ends[0][0]) > 50  # a whole game was played


def test_a_state_saved_under_other_rules_is_refused(tmp_path):
    game, st = _run(tmp_path, """\
        game: |
          choose c from deck by players[1] "Pick"
          add c.value to ticks
        """)
    saved = st.to_json()
    assert game.state_from_json(saved).prompt == "Pick"  # the same rules resume it
    (tmp_path / "edited").mkdir()
    edited = make_game(tmp_path / "edited", textwrap.dedent("""\
        game: |
          add 1 to ticks
          choose c from deck by players[1] "Pick"
          add c.value to ticks
        """))
    with pytest.raises(SaveError, match="saved under other rules of tiny .*it cannot be restored"):
        edited.state_from_json(saved)


@pytest.mark.parametrize("game_id", ["karman-swap", "seeders-exodus"])
def test_generated_python_agrees_with_the_closure_compiler(game_id):
    """Every game function without parameters gives the same value compiled to Python
    source (what the engine runs) and compiled to closures, along random games."""
    game = interpreter.load(game_id)
    cg = game.program
    reference = ClosureCompiler(cg)
    funcs = {name: f for name, f in cg.defn.functions.items() if not f.params}
    assert funcs
    pairs = {}
    for name, f in funcs.items():
        generated = cg.compiler.expr(N.Condition(f.tree.pos, N.Call(f.tree.pos, name, [])), Ctx(Code("t", "t")))
        closure = reference.closure(f.tree, Ctx(Code("t", "t")))
        pairs[name] = (generated, closure)
    compared = 0
    for seed in range(3):
        st = game.new_state(players=game.max_players, seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not st.is_terminal() and steps < 150:
            if steps % 10 == 0:
                fr = Frame(None, 0, {}, None, None)
                for name, (generated, closure) in pairs.items():
                    a, b = generated(st, fr), closure(st, fr)
                    assert (list(a) if isinstance(a, tuple) else a) == (list(b) if isinstance(b, tuple) else b), name
                    compared += 1
            st.apply(rng.choice(st.legal_actions()))
            steps += 1
    assert compared > 20


def test_a_new_built_in_is_one_record(tmp_path):
    """A built-in written as one record is known to the checker (arity, types), to the code
    generator and to the analysis at once: nothing else is edited."""
    from interpreter.engine.library import number
    from interpreter.language.builtins import FUNCTIONS, Function

    class Twice(Function):
        name, forms, types, returns, doc = "twice", ("twice(N)",), {"N": "number"}, "number", "a number doubled"

        @staticmethod
        def run(st, pos, n):
            return 2 * number(n, pos)
    (tmp_path / "good").mkdir()
    (tmp_path / "bad").mkdir()
    try:
        game = make_game(tmp_path / "good", textwrap.dedent("""\
            game: |
              add twice(3) + twice(ticks) to ticks
            """))
        assert game.new_state(players=2).counters["ticks"] == 6
        with pytest.raises(interpreter.LoadError) as err:
            make_game(tmp_path / "bad", textwrap.dedent("""\
                game: |
                  add twice(1, 2) + twice(players) to ticks
                """))
        assert "twice() takes 1 argument, got 2" in str(err.value)
        assert "twice() takes a number here, not a list" in str(err.value)
    finally:
        del FUNCTIONS["twice"]


# comparisons whose generated code could read, for Python, as `is` with a literal (a SyntaxWarning
# printed on the user's terminal when the game loads), with their truth
ODD_COMPARISONS = [("3 != none", True), ("none == 3", False), ("\"a\" == none", False), ("1 + 2 == none", False),
                   ("-3 != none", True), ("none != (2 * 3)", True), ("Sun == none", False), ("-(1) == none", False),
                   ("not (3 == none)", True), ("3 is none", False), ("3 is not 3", False), ("none == none", True),
                   ("[1] == none", False), ("true != none", True), ("count([1, 2]) != none", True),
                   ("\"Sun\" == Sun", True), ("3 is 3", True)]


def test_generated_code_never_makes_python_warn(tmp_path):
    """No content makes Python warn about the code generated for it: the shipped games, their rules
    tests, and comparisons with literals (`if 3 != none` printed a SyntaxWarning)."""
    import warnings

    from interpreter.content.folders import shipped_games
    from interpreter.rulings.ruletest import compile_part

    body = "".join(f"  if {text}:\n    add {2 ** i} to ticks\n  let v{i} = {text}\n  repeat 1 times:\n"
                   f"    if v{i} == ({text}):\n      add 1 to players[1].points\n" for i, (text, _) in enumerate(ODD_COMPARISONS))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for game_id in shipped_games():
            game = interpreter.load(game_id, tests=True)
            for code in game.program.codes.values():
                code.ready()  # compiled now, not when first run
            for test in game.program.defn.tests:
                names: set = set()
                for part, tree in (("given", test.given), ("when", test.when)):
                    if tree is not None:
                        code, names = compile_part(game, test, part, tree, names)
                        code.ready()
                for _, cond in test.then:
                    game.program.compiler.expr(cond, Ctx(Code("then", "then"), locals_=names))
        game = make_game(tmp_path, "game: |\n" + body)
        st = game.new_state(players=2, seed=3)
    truth = sum(2 ** i for i, (_, true) in enumerate(ODD_COMPARISONS) if true)
    assert st.counters["ticks"] == truth
    assert st.counters["points#0"] == len(ODD_COMPARISONS)  # the same truth in a native block


def _function_chain(tmp_path, n: int):
    """A game whose function f0 calls f1, which calls f2... down to f{n-1}: f0(1) is n."""
    from gamekit import CARDS, GAME
    folder = tmp_path / "chain"
    folder.mkdir()
    functions = "functions:\n" + "".join(f'  f{i}: {{params: [n], body: "f{i + 1}(n) + 1"}}\n' for i in range(n - 1)) \
        + f'  f{n - 1}: {{params: [n], body: "n"}}\n'
    text = GAME.format(procedures="  game: |\n    add f0(1) to ticks\n").replace("procedures:", functions + "procedures:")
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    (folder / "cards.yaml").write_text(CARDS, encoding="utf-8")
    return interpreter.load(str(folder))


def test_a_chain_of_small_functions_is_compiled_within_python_s_parentheses(tmp_path):
    """120 small functions, each calling the next: written inline 8 deep at most, the others called
    (all inline, the source nested more parentheses than Python reads: an internal error)."""
    st = _function_chain(tmp_path, 120).new_state(players=2)
    assert st.counters["ticks"] == 120


def test_a_chain_of_functions_longer_than_python_s_recursion_is_checked_and_stops_at_its_line(tmp_path):
    """1,500 functions: checked, analysed and compiled without recursion (once 'the content nests
    too deeply to be read', with no line); calling them all stops the game at the call."""
    game = _function_chain(tmp_path, 1500)
    with pytest.raises(GameFault) as err:
        game.new_state(players=2)
    assert "nest too deeply" in err.value.message
    assert source_line(err.value.pos).strip() == "add f0(1) to ticks"
