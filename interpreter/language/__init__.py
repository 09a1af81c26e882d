"""Stages 3 and 4: the rules language read and checked.

`nodes` is the typed syntax tree; `parser` reads a text into it (the fast
parser of `fastparse`, Lark as the fallback, `syntax_errors` for readable
messages, `tonodes` for the tree); `checker` resolves names, arities and
types; `builtins` holds the built-in functions and properties of the language.
"""
