"""The built-ins of the rules language: one record each.

A built-in function is one class, in the manner of sqlglot's `class Ceil(Func)`:
its forms (`max(L)`, `max(A, B)`) give its arity, `types` the type of each
argument, `returns` the type of its value, `reads` what it reads of the state
and `iterates` whether it reads a zone given to it as a value, `run` what it
does, `python` how the code generator writes it when it can do better than
calling `run`, and `prose` how a card written as prose says it in each language. `check` adds what the checker can say of a call beyond types.
Properties (`x.owner`) and special names (`you`) are records too.

Every other table is derived from these records: the checker's arities and
types (`language.checker`), the analysis of what a game function reads
(`compile.analysis`), the code generator's special cases
(`compile.expressions`), the prose of cards (`language.prose`), and the tables of
the language reference (`docs/gen_language_tables.py`). Adding a built-in is one class in the module of its kind.

They are generic: sets, numbers, players, graphs; nothing here knows a game.
"""
from __future__ import annotations

# the records register in the order they are imported, which is the order of the reference
from .base import FUNCTIONS, Function
from . import numbers, players, board, components, game  # noqa: F401, I001 - the functions' records, in order
from .properties import PROPERTIES, Property
from .special import ALSO_CALLED, CONTEXT_NAMES, SPECIAL_NAMES, SpecialName

__all__ = ["ALSO_CALLED", "CONTEXT_NAMES", "FUNCTIONS", "PROPERTIES", "SPECIAL_NAMES", "Function", "Property",
           "SpecialName"]
