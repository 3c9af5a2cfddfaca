"""The chesskit command reports errors as 'Error: ...' with an exit code, never a traceback."""

import re
import subprocess
import sys

import pytest

from chesskit.cli import COMMANDS, main


def test_help_lists_every_command(capsys) -> None:
    assert main([]) == 0
    out = capsys.readouterr().out
    for command, (_, _, help_) in COMMANDS.items():
        assert f"  {command:<11} {help_}" in out


def test_unknown_command(capsys) -> None:
    assert main(["frobnicate"]) == 2
    assert capsys.readouterr().err.startswith("Error: unknown command 'frobnicate'")


def test_console_script_runs_as_module() -> None:
    result = subprocess.run([sys.executable, "-m", "chesskit", "--help"],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0 and "usage: chesskit" in result.stdout


def _error_line(capsys) -> str:
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    lines = [line for line in captured.err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), captured.err
    return lines[0]


@pytest.mark.parametrize("command", [
    ["worksheet", "--lesson", "12", "-o", "{tmp}/sheet.pdf"],
    ["homework", "--topic", "fork", "-o", "{tmp}/hw.ipynb"],
    ["progress"],
    ["grade", "{tmp}", "--out", "{tmp}/graded"],
])
def test_an_unknown_language_is_one_error_line(command, tmp_path, capsys) -> None:
    args = [part.format(tmp=tmp_path) for part in command] + ["--lang", "fr"]
    assert main(args) == 1
    assert "'fr'" in _error_line(capsys)


def test_an_output_path_that_cannot_be_written_is_one_error_line(tmp_path, capsys) -> None:
    target = tmp_path / "missing-folder" / "sheet.pdf"
    assert main(["worksheet", "--lesson", "12", "--count", "1", "-o", str(target)]) == 1
    assert str(target) in _error_line(capsys)


def test_an_unknown_topic_lists_the_topics(capsys) -> None:
    assert main(["worksheet", "--topic", "forks", "-o", "sheet.pdf"]) == 1
    line = _error_line(capsys)
    assert "'forks'" in line and "fork, " in line and "pin" in line


def test_an_unknown_lesson_says_which_lessons_exist(capsys) -> None:
    assert main(["worksheet", "--lesson", "99", "-o", "sheet.pdf"]) == 1
    assert "0 to 35" in _error_line(capsys)
    assert main(["build", "--lesson", "99", "--no-execute"]) == 1
    assert "99" in _error_line(capsys)


def _options_without_help(help_text: str) -> list[str]:
    lines = help_text.splitlines()
    missing = []
    for n, line in enumerate(lines):
        if not line.startswith("  -") or line.strip() in ("-h, --help", ):
            continue
        same_line = re.match(r"^  -\S.*?\S\s{2,}\S", line)
        next_line = n + 1 < len(lines) and re.match(r"^ {10,}\S", lines[n + 1])
        if not (same_line or next_line):
            missing.append(line.strip())
    return missing


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_option_has_help(command, capsys) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    assert _options_without_help(capsys.readouterr().out) == []


def test_the_console_script_reports_errors_in_the_learners_language() -> None:
    result = subprocess.run([sys.executable, "-m", "chesskit", "worksheet", "--lesson", "99",
                             "-o", "x.pdf", "--lang", "zh-Hans"],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 1
    assert result.stderr.startswith("Error: 没有第99课")
