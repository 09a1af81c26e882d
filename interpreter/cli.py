"""The `regles` command: check content, and (with the engine) play and simulate.

Usage errors exit with status 2, content errors with 1, success with 0; no
input, however broken, makes this command print a Python traceback.
"""
from __future__ import annotations

import argparse
import sys

from . import __version__


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # usage errors: status 2, as argparse does, but never a traceback
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="regles", description="regles: a rules-as-data interpreter for tabletop games.")
    parser.add_argument("--version", action="version", version=f"regles {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    check = sub.add_parser("check", help="check content files or game folders and report every error",
                           description="Check content: YAML, schema, rules-language syntax, names and types. "
                                       "Exit status 0 when clean, 1 on content errors, 2 on usage errors.")
    check.add_argument("paths", nargs="*", metavar="PATH", help="game folders or content files (default: the shipped content)")
    check.add_argument("--format", choices=["text", "json"], default="text", help="how to print the report")
    check.add_argument("--color", choices=["auto", "always", "never"], default="auto")
    check.add_argument("--strict", action="store_true", help="treat warnings as errors")
    check.set_defaults(subparser=check)
    return parser


def cmd_check(args) -> int:
    import os

    from .checking import check_paths
    from .diagnostics import render_json, render_text
    from .resources import content_dir
    missing = [p for p in args.paths if not os.path.exists(p)]
    if missing:  # a path that names nothing is a mistake in the command, not in the content
        args.subparser.print_usage(sys.stderr)
        for p in missing:
            print(f"regles check: error: no such file or folder: {p}", file=sys.stderr)
        return 2
    paths = args.paths or [str(content_dir())]
    report = check_paths(paths)
    if args.format == "json":
        print(render_json(report))
    else:
        color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
        print(render_text(report, color=color))
    failed = not report.ok or (args.strict and report.diagnostics)
    return 1 if failed else 0


def main(argv=None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # usage errors (2), --help and --version (0): a status, not an exception
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    handler = globals()["cmd_" + args.command.replace("-", "_")]
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
    except Exception as exc:  # a fault of regles itself: say so in one line, never a traceback
        print(f"regles: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
