"""The ``chesskit`` command: each subcommand lives in the module that does the work.

The library raises; this layer reports ``Error: ...`` on stderr and exits 1 (2 for usage).
"""

from __future__ import annotations

import importlib
import sys

from chesskit.errors import ChessKitError

COMMANDS = {
    "check-bank": ("exercises.catalog", "check_bank_main", "verify every exercise of the bank"),
    "grade": ("teacher.grading", "main", "grade exercise notebooks without running them"),
    "worksheet": ("teacher.worksheet", "main", "print a PDF worksheet with an answer key"),
    "homework": ("teacher.homework", "main", "build a homework notebook from the bank"),
    "author": ("teacher.author_output", "main", "make a verified exercise set from your own PGN, "
               "study, FEN list or puzzles"),
    "certificate": ("teacher.certificate", "main", "print a certificate for each student who "
                    "passed an exam"),
    "progress": ("learner.command", "progress_main", "show or export your own progress"),
    "build": ("course.notebooks", "main", "rebuild the course notebooks from their sources"),
    "site": ("course.site", "main", "build the course as a static site that runs offline"),
    "classroom": ("teacher.live_cli", "classroom_main", "run the live classroom on this computer; "
                  "report and grade its rounds afterwards"),
}


def _usage() -> str:
    lines = ["usage: chesskit COMMAND [options]", "", "commands:"]
    lines += [f"  {name:<11} {help_}" for name, (_, _, help_) in COMMANDS.items()]
    lines.append("\nRun 'chesskit COMMAND --help' for a command's options.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand and return its exit code."""
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help"):
        print(_usage())
        return 0
    if args[0] not in COMMANDS:
        print(f"Error: unknown command {args[0]!r}.\n\n{_usage()}", file=sys.stderr)
        return 2
    module, function, _ = COMMANDS[args[0]]
    run = getattr(importlib.import_module(f"chesskit.{module}"), function)
    try:
        return int(run(args[1:]) or 0)
    except ChessKitError as error:
        print(f"Error: {error}", file=sys.stderr)
        return 1
    except OSError as error:  # a path that cannot be read or written: say which and why
        where = f" {error.filename}" if error.filename else ""
        print(f"Error: cannot use{where}: {error.strerror or error}.", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("Error: interrupted.", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
