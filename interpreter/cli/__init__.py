"""The `regles` command: check content, and (with the engine) play and simulate.

This wing is the command line only, for whoever types `regles` at a shell: it reads
the arguments and calls the wings of the tools below it (`rulings`, `play`, `runs`,
`printing`, `lsp`, `rl`), and nothing of the package imports it but `python -m interpreter`.

Usage errors exit with status 2, content errors with 1, success with 0; no
input, however broken, makes this command print a Python traceback, unless one
asks for it: `--traceback` (or REGLES_TRACEBACK=1) shows where an internal error
was raised. The subcommands are built in `parser`; each command is a function `cmd_NAME` of the
module of its audience (`content`: check, test, explain, why, lsp, play,
replay; `runs`: simulate, compare; `designers`: sheets, report).
"""
from __future__ import annotations

import os
import sys
import traceback

from ..diagnostics import printable
from . import content, designers, runs
from .parser import build_parser

COMMANDS = {name[len("cmd_"):].replace("_", "-"): getattr(module, name)
            for module in (content, designers, runs) for name in dir(module) if name.startswith("cmd_")}


def main(argv=None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # usage errors (2), --help and --version (0): a status, not an exception
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    args.argv = list(sys.argv[1:] if argv is None else argv)
    handler = COMMANDS[args.command]
    try:
        return handler(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except RecursionError:
        print("regles: error: the content nests too deeply to be read", file=sys.stderr)
        return 1
    except Exception as exc:  # a fault of regles itself: one line, and its traceback when asked for
        if args.traceback or os.environ.get("REGLES_TRACEBACK", "") not in ("", "0"):
            traceback.print_exc(file=sys.stderr)
        print(f"regles: internal error: {type(exc).__name__}: {printable(exc)}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
