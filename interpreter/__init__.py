"""regles: a rules-as-data interpreter for tabletop games.

The pipeline, one module per stage: `source` (load YAML with positions),
`validate` (JSON Schema), `parser` (the rules language, with `nodes` for its
tree), `checker` (names, arities, types), `compiler` with `pygen` (statements
and expressions compiled once per pack; `library` holds the built-in
functions). `checking.check_paths` runs the stages behind `regles check`.

Running: `game` is the front door (`load`, `Game.new_state`, the step API of
`GameState`), `state` the plain-data state, `vm` the machine that runs the
compiled code, `observe` what a seat may see, `serial` the JSON form.
Around it: `agents`, `simulate`, `play`, `narrate`, `trace` (and replay),
`invariants`, `ruletest`; `cli` is the `regles` command.
"""
__version__ = "0.1.0"


def load(name_or_path: str):
    """Load, check and compile a game: a shipped game by id, or a game folder."""
    from .game import load as _load
    return _load(name_or_path)
