"""regles: a rules-as-data interpreter for tabletop games.

The pipeline, one module per stage: `source` (load YAML with positions),
`validate` (JSON Schema), `parser` (the rules language, with `nodes` for its
tree), `checker` (names, arities, types), `compiler` (closures, once per pack).
`checking.check_paths` runs the stages behind `regles check`.
"""
__version__ = "0.1.0"


def load(name_or_path: str):
    """Load, check and compile a game: a shipped game by id, or a game folder."""
    from .game import load as _load
    return _load(name_or_path)
