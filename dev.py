#!/usr/bin/env python3
"""Set up and run the course, or set up and run every test.

    python3 dev.py course    # install what is missing, then open the course in JupyterLab
    python3 dev.py course zh-Hans   # the same, in Simplified (zh-Hans) or Traditional (zh-Hant)
    python3 dev.py test      # install what is missing, then run the whole test suite (CI)
    python3 dev.py test tests/test_kinds.py -x   # the same set-up, then pytest with these options
    python3 dev.py lint      # ruff and mypy, as the whole run does them
    python3 dev.py build     # rebuild and execute every notebook from its source
    python3 dev.py site      # write ./site: the whole course for the browser, offline (see
                             # docs/browser-course.md); extra options go to 'chesskit site'

Only Python 3.11+ is needed. Run as root, missing Debian packages are installed with apt-get;
otherwise the command says which ones to install and why.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / "bin"
PYTHON = BIN / "python"

SYSTEM_PACKAGES = {
    "fonts-noto-cjk": "Chinese text in PNG and PDF boards and worksheets",
    "poppler-utils": "the worksheet tests read PDFs back (pdffonts, pdftoppm)",
    "chromium": "the browser tests drive the board in JupyterLab",
}
OPTIONAL_PACKAGES = {"stockfish": "a stronger practice opponent and defender (optional)"}


def say(text: str) -> None:
    print(f"[dev] {text}", flush=True)


def run(*command: str | Path, check: bool = True, env: dict[str, str] | None = None) -> int:
    result = subprocess.run([str(part) for part in command], cwd=ROOT, env=env)
    if check and result.returncode != 0:
        say(f"failed ({result.returncode}): {' '.join(str(part) for part in command)}")
        sys.exit(result.returncode)
    return result.returncode


def installed(package: str) -> bool:
    result = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package],
                            capture_output=True, text=True)
    return result.returncode == 0 and "install ok installed" in result.stdout


def system_packages() -> None:
    if shutil.which("dpkg-query") is None:
        say("not a Debian system: install " + ", ".join(SYSTEM_PACKAGES) + " by hand.")
        return
    missing = [name for name in SYSTEM_PACKAGES if not installed(name)]
    optional = [name for name in OPTIONAL_PACKAGES if not installed(name)]
    if not missing and not optional:
        return
    if os.geteuid() != 0:
        for name in missing:
            say(f"please install the Debian package {name}: {SYSTEM_PACKAGES[name]}.")
        for name in optional:
            say(f"optional: Debian package {name}: {OPTIONAL_PACKAGES[name]}.")
        say("e.g. sudo apt-get install " + " ".join(missing + optional))
        return
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    say("installing Debian packages: " + " ".join(missing + optional))
    run("apt-get", "update", "-qq", env=env)
    run("apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing, env=env)
    if optional and run("apt-get", "install", "-y", "-qq", *optional, check=False, env=env):
        say("stockfish could not be installed; the built-in opponent is used instead.")


NODE_TOOLS = VENV / "node"


def hub_proxy() -> None:
    """configurable-http-proxy (npm) for the JupyterHub trial test, kept in .venv/node."""
    if (NODE_TOOLS / "node_modules" / ".bin" / "configurable-http-proxy").exists():
        return
    if not shutil.which("npm"):
        say("npm is missing: the JupyterHub trial test is skipped (install nodejs and npm).")
        return
    say("installing configurable-http-proxy (npm) into .venv/node for the JupyterHub test")
    run("npm", "install", "--silent", "--no-audit", "--no-fund", "--prefix", NODE_TOOLS,
        "configurable-http-proxy", check=False)


def virtualenv() -> None:
    stamp = VENV / ".chesskit-installed"
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if stamp.exists() and stamp.read_text() == wanted and PYTHON.exists():
        return
    if not PYTHON.exists():
        say("creating .venv")
        if run(sys.executable, "-m", "venv", VENV, check=False) != 0:
            # Debian's own python3 keeps venv in a separate package
            if os.geteuid() != 0 or shutil.which("apt-get") is None:
                sys.exit("python3 -m venv failed: install python3-venv, then run this again.")
            shutil.rmtree(VENV, ignore_errors=True)
            env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
            run("apt-get", "update", "-qq", env=env)
            run("apt-get", "install", "-y", "-qq", "python3-venv", env=env)
            run(sys.executable, "-m", "venv", VENV)
    if any(VENV.glob("lib/python*/site-packages/chesskit-*.dist-info")):
        # installed before the distribution was renamed chesskit-course: one copy only
        run(PYTHON, "-m", "pip", "uninstall", "-y", "-q", "chesskit")
    say("installing chesskit and its dependencies into .venv")
    run(PYTHON, "-m", "pip", "install", "-q", "--upgrade", "pip")
    run(PYTHON, "-m", "pip", "install", "-q", "-e", ".[course,test,site,dev]")
    stamp.write_text(wanted)


def jupyter_settings() -> None:
    """Save widget state with the notebook, so answers given on the board can be graded."""
    source = ROOT / "chesskit" / "jupyter" / "overrides.json"
    target = VENV / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    if source.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)


def setup() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 (dev.py may be run by an older python3)
        sys.exit("chesskit needs Python 3.11 or newer.")
    system_packages()
    virtualenv()
    jupyter_settings()


def trust_notebooks() -> None:
    """JupyterLab shows SVG boards only in trusted notebooks; the course's own are trusted."""
    notebooks = sorted(str(p) for folder in ("lessons", "exercises")
                       for p in (ROOT / folder).glob("*/*.ipynb"))
    if notebooks:
        say(f"trusting the course's {len(notebooks)} notebooks, so their boards show")
        subprocess.run([str(BIN / "jupyter"), "trust", *notebooks], cwd=ROOT,
                       stdout=subprocess.DEVNULL, check=False)


def languages() -> dict[str, list[str]]:
    """The course's languages (the folders of chesskit/locale that hold a language.toml), each
    with the locale names that mean it: ``{"en": ["en"], "zh-Hans": ["zh"], ...}``."""
    found = {}
    for path in sorted((ROOT / "chesskit" / "locale").glob("*/language.toml")):
        code = path.parent.name
        found[code] = tomllib.loads(path.read_text(encoding="utf-8")).get("locales", [code])
    return found


def course_language(asked: str | None, environment: str) -> str:
    """The course language: the one asked for, else the locale's (zh_TW -> zh-Hant).

    >>> course_language(None, "zh_TW.UTF-8"), course_language("zh-hans", "")
    ('zh-Hant', 'zh-Hans')
    """
    codes = languages()
    if asked is not None:
        for code in codes:
            if code.lower() == asked.lower():
                return code
        sys.exit(f"Error: the course speaks {', '.join(codes)}, not {asked!r}.")
    key = environment.replace("_", "-").lower()
    matches = [(len(start), code) for code, starts in codes.items()
               for start in (code.lower(), *starts) if key.startswith(start)]
    return max(matches)[1] if matches else "en"


def course_command(language: str) -> list[str]:
    """JupyterLab serving the whole repository, opened at the start page of ``language``."""
    start = f"lessons/{language}/00-start-here.ipynb"
    command = [str(BIN / "jupyter"), "lab", f"--ServerApp.root_dir={ROOT}",
               f"--LabApp.default_url=/lab/tree/{start}"]
    if os.geteuid() == 0:
        command.append("--allow-root")  # JupyterLab refuses root otherwise
    return command


def course() -> None:
    asked = sys.argv[2] if len(sys.argv) > 2 else None
    language = course_language(asked, os.environ.get("LC_ALL") or os.environ.get("LANG", ""))
    setup()
    trust_notebooks()
    say(f"opening the course at lessons/{language}/00-start-here.ipynb (stop with Ctrl+C);"
        " every lesson and exercise notebook in every language is in the file browser")
    command = course_command(language)
    os.execv(command[0], command)


LINTED = ("chesskit", "tests", "benchmarks", "dev.py", "conftest.py", "jupyterhub_config.py")


def lint_checks() -> None:
    """ruff over every Python file, mypy (strict) over the package."""
    run(BIN / "ruff", "check", *LINTED)
    run(BIN / "mypy")


def lint() -> None:
    setup()
    lint_checks()


def test_env() -> dict[str, str]:
    """The environment of every test run: fixed hash seed, English, no progress recorded."""
    env = dict(os.environ, PYTHONHASHSEED="0", CHESSKIT_LANG="en", CHESSKIT_RECORD="0")
    env["PATH"] = f"{NODE_TOOLS / 'node_modules' / '.bin'}{os.pathsep}{env.get('PATH', '')}"
    env.pop("CHESSKIT_DATA_DIR", None)
    return env


def test() -> None:
    """No options: everything CI runs. With options: pytest with exactly those options."""
    setup()
    hub_proxy()
    env = test_env()
    if len(sys.argv) > 2:
        sys.exit(run(PYTHON, "-m", "pytest", *sys.argv[2:], check=False, env=env))
    lint_checks()
    run(BIN / "chesskit", "check-bank", env=env)
    run(PYTHON, "-m", "chesskit.exercises.generators", "--check", env=env)
    run(BIN / "chesskit", "build", "--check", env=env)
    run(PYTHON, "-m", "pytest", "-n", "2", "--dist", "loadfile", "-q", "tests",
        "--nbval", "lessons", "exercises", env=env)


def build() -> None:
    setup()
    run(BIN / "chesskit", "build", *sys.argv[2:])


def site() -> None:
    setup()
    if shutil.which("npm") is None:
        say("npm is needed once to fetch the Pyodide runtime: apt-get install npm.")
    run(BIN / "chesskit", "site", *(sys.argv[2:] or ["--out", "site"]))


COMMANDS = {"course": course, "test": test, "lint": lint, "build": build, "site": site}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        print(__doc__)
        sys.exit(2)
    COMMANDS[sys.argv[1]]()
