"""`regles profile`: the content lines and game functions that take a game's time."""
from __future__ import annotations

import json
import textwrap

import interpreter
from interpreter.runs import profile as P
from interpreter.cli import main
from tests.gamekit import make_game

# a game whose time goes, by design, to one function called from one line
HOT = textwrap.dedent("""\
    game: |
      repeat 40 times:
        add 1 to ticks
        choose by players[1] "Go":
          option "Slow":
            set players[1].points = heavy()
          option "Quick":
            add 1 to players[1].points
      win players[1]
    """)
FUNCTIONS = textwrap.dedent("""\
    functions:
      heavy:
        params: []
        body: "count(each k in range(3000) where k % 7 == ticks % 7)"
    """)


def test_the_line_and_function_that_take_the_time_come_first(tmp_path):
    game = make_game(tmp_path, HOT, functions=FUNCTIONS)
    found = P.profile(game, 2, game.options({}), games=6, seed=1, agents=["random", "random"])
    assert found.decisions == 6 * 40 and found.errors == 0
    top = found.statements[0]
    assert top.text == "set players[1].points = heavy()" and top.where.endswith("game.yaml:37:11")
    assert found.functions[0].name == "heavy" and found.functions[0].calls == top.calls
    # each pick of "Slow" ran that line once: about half of the 240 decisions
    assert 60 < top.calls < 180
    assert top.seconds > 0.5 * sum(r.seconds for r in found.statements)
    quick = next(r for r in found.statements if r.text == "add 1 to players[1].points")
    assert top.seconds / top.calls > 10 * quick.seconds / quick.calls


def test_profiling_leaves_the_game_as_it_was(tmp_path):
    """The timing wrappers are taken off: the same operations and functions, and games that
    play as before (the fenced comparison of the profiled path with the plain one)."""
    game = interpreter.load("karman-swap")
    program = game.program
    for code in program.codes.values():
        code.ready()  # what profiling does first: the stubs of codes not run yet compiled
    ops = {name: list(code.ops) for name, code in program.codes.items()}
    fns = dict(program.compiler.src.ns["FN"])
    before = game.new_state(3, seed=5, trace=True)
    _random_game(before, 5)
    found = P.profile(game, 3, game.options({}), games=3, seed=2, agents=["random"] * 3)
    assert found.decisions > 0 and found.statements and found.functions
    assert {name: list(code.ops) for name, code in program.codes.items()} == ops
    assert program.compiler.src.ns["FN"] == fns
    after = game.new_state(3, seed=5, trace=True)
    _random_game(after, 5)
    assert after.to_json() == before.to_json() and after.trace == before.trace


def _random_game(st, seed):
    import random
    rng = random.Random(seed)
    while not st.is_terminal():
        st.apply(rng.randrange(len(st.legal_actions())))


def test_the_command_lists_content_lines_and_writes_json(tmp_path, capsys):
    out = tmp_path / "profile.json"
    assert main(["profile", "karman-swap", "-n", "2", "--games", "4", "--top", "3", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("karman-swap, 2 players: 4 games,")
    assert "Statements (" in text and "Game functions (" in text and "content/karman-swap/game.yaml:" in text
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["decisions"] > 0 and data["games"] == 4
    statements = data["statements"]
    assert len(statements) > 3 and all(r["where"].startswith("content/karman-swap/") for r in statements)
    assert 0 < sum(r["share"] for r in statements) <= 1.0
    assert statements == sorted(statements, key=lambda r: -r["seconds"])


def test_usage_errors(capsys):
    assert main(["profile", "karman-swap", "--games", "0"]) == 2
    assert "--games must be at least 1" in capsys.readouterr().err
    assert main(["profile", "karman-swap", "-n", "9"]) == 2
    assert main(["profile", "karman-swap", "--agents", "nobody"]) == 2
