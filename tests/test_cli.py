"""The chesskit command reports errors as 'Error: ...' with an exit code, never a traceback."""

import subprocess
import sys

from chesskit.cli import main


def test_help_lists_every_command(capsys) -> None:
    assert main([]) == 0
    out = capsys.readouterr().out
    for command in ("check-bank", "grade", "worksheet", "homework", "progress", "build"):
        assert command in out


def test_unknown_command(capsys) -> None:
    assert main(["frobnicate"]) == 2
    assert capsys.readouterr().err.startswith("Error: unknown command 'frobnicate'")


def test_console_script_runs_as_module() -> None:
    result = subprocess.run([sys.executable, "-m", "chesskit", "--help"],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0 and "usage: chesskit" in result.stdout
