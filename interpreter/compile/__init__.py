"""Stage 5: checked trees compiled to Python, once per pack.

`program` holds the compiled program's tables; `statements` compiles
statements to operations, `expressions` writes expressions as Python source,
`native` compiles branches and loops that never wait into one block, and
`assemble` turns runs of operations into Python functions; `warm` keeps the
parsed texts and compiled code of a load on disk, for the next process.
"""
from .build import compile_game

__all__ = ["compile_game"]
