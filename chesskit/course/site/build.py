"""Build the course as a static JupyterLite site: it runs in the browser with Pyodide, offline.

``chesskit site --out DIR`` writes a folder any web server can serve: every lesson and exercise
notebook in the three languages, the board (anywidget), feedback and hints, progress kept in the
browser, and nothing fetched from any other host.  Building needs the package registries once
(PyPI through pip, npm for the Pyodide runtime); what they give is kept in a cache folder.

How it fits together:

- the Pyodide runtime (the npm package ``pyodide``, core only) goes to ``static/pyodide``;
- every wheel the kernel and the course import at run time sits beside it, listed in our own
  ``pyodide-lock.json`` (sha256 of each file) and preloaded by ``loadPyodideOptions.packages``,
  so no ``%pip`` cell and no index is needed in the browser; each wheel also carries its
  modules' bytecode, compiled by the site's own Python (Pyodide in Node.js,
  :func:`compile_wheels`), so the browser does not compile IPython and the course at every start;
  the standard library modules they import before the first board get the same treatment in
  the site's ``python_stdlib.zip`` (Pyodide ships its standard library as source only);
- ``loadPyodideOptions.env`` sets ``CHESSKIT_DATA_DIR``, and a hidden first cell of every
  notebook runs :func:`chesskit.course.site.browser.keep_progress`, which keeps that folder in the
  browser's IndexedDB, so progress survives a reload;
- JupyterLite's session lookup is corrected in the built app (:func:`sessions_by_path`): it
  took a notebook for another one with the same file name (``lessons/en/00-start-here.ipynb``
  and ``lessons/zh-Hans/00-start-here.ipynb``), whose kernel then stayed "Initializing";
- the kernel's web worker starts Pyodide, the wheels and IPython while JupyterLab itself loads,
  and the first kernel JupyterLab starts takes that worker (:func:`early_kernel`, exact text
  replacements in the built app, ``EARLY_PATCHES``).

>>> browser_requirements("Requires-Dist: pexpect; sys_platform != 'emscripten'\\n")
[]
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import hashlib
import html
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import zipfile
from collections.abc import Iterable, Iterator, Mapping
from importlib import metadata
from pathlib import Path

from chesskit.errors import SiteError as SiteError  # also importable from here
from chesskit.i18n import language, languages, t

ROOT = Path(__file__).resolve().parents[3]
DEFAULT_CACHE = ROOT / ".cache" / "site"
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
DATA_DIR = "/home/pyodide/chesskit"
KEEP_PROGRESS = ("# keeps your progress in this browser\n"
                 "from chesskit.course.site.browser import keep_progress\n\nawait keep_progress()")
# What the course needs in the browser, beyond what its packages require.
ROOTS = ("micropip", "piplite", "pyodide-kernel", "ipykernel", "widgetsnbextension",
         "chesskit-course")
# Requirements that are never shipped to the browser, and why.
NOT_IN_BROWSER = {
    "cairosvg": "PNG and PDF boards need the cairo C library; the browser draws SVG",
    "opencc": "a C extension; chesskit falls back to opencc-purepy (same output, tested)",
    "nbformat": "only the notebook builder uses it, on a real Python",
    "jupyterlab-widgets": "the widget frontend is part of the site itself",
}
# Packages whose Python side must match the frontend built into the site.
MATCH_BUILD_ENV = ("anywidget", "ipywidgets", "chess")
LABEXTENSIONS = ("anywidget", "@jupyter-widgets/jupyterlab-manager",
                 "@jupyterlite/pyodide-kernel-extension")
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
START = "lessons/{lang}/00-start-here.ipynb"
# The kernel a site notebook names and the language its kernel reports (jupyterlite-pyodide-
# kernel 0.8.6's own words): JupyterLab writes both on open, so a different value showed every
# notebook as changed (tests/test_site.py opens one and checks).
PYODIDE_KERNELSPEC = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}
PYODIDE_LANGUAGE_INFO = {"codemirror_mode": {"name": "python", "version": 3},
                         "file_extension": ".py", "mimetype": "text/x-python", "name": "python",
                         "nbconvert_exporter": "python", "pygments_lexer": "ipython3",
                         "version": "3.8"}
# JupyterLite's LiteSessionClient.startNew (minified) returns the running session whose *name*
# (JupyterLab passes the file name) is asked for, before it starts a kernel.
SESSION_BY_NAME = re.compile(r"let\{path:(?P<path>[\w$]+),name:(?P<name>[\w$]+)\}=(?P<opts>[\w$]+),"
                             r"(?P<found>[\w$]+)=this\._sessions\.find\("
                             r"(?P<s>[\w$]+)=>(?P=s)\.name===(?P=name)\)")


def canonical(name: str) -> str:
    """A package name as the lock file keys it: ``"Prompt_Toolkit"`` -> ``"prompt-toolkit"``.

    >>> canonical("opencc_python.reimplemented")
    'opencc-python-reimplemented'
    """
    return name.lower().replace("_", "-").replace(".", "-")


def _emscripten_environment() -> dict[str, str]:
    return {"sys_platform": "emscripten", "platform_system": "Emscripten",
            "platform_machine": "wasm32", "os_name": "posix", "implementation_name": "cpython",
            "platform_python_implementation": "CPython", "python_version": "3.14",
            "python_full_version": "3.14.2", "extra": ""}


def browser_requirements(metadata_text: str) -> list[str]:
    """The names a wheel's METADATA requires in Pyodide (markers evaluated there, no extras).

    >>> browser_requirements("Requires-Dist: comm>=0.1.3\\nRequires-Dist: ipython\\n")
    ['comm', 'ipython']
    """
    from packaging.requirements import Requirement  # noqa: PLC0415 (a build-time tool)

    names = []
    for line in metadata_text.splitlines():
        if not line.startswith("Requires-Dist:"):
            continue
        requirement = Requirement(line.partition(":")[2].strip())
        if requirement.marker is None or requirement.marker.evaluate(_emscripten_environment()):
            names.append(canonical(requirement.name))
    return sorted(set(names))


def _wheel_metadata(wheel: Path) -> str:
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        return archive.read(name).decode("utf-8")


def _wheel_imports(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        tops = {name.split("/")[0] for name in archive.namelist()}
    names = {top.removesuffix(".py") for top in tops}
    return sorted(name for name in names if name.isidentifier())


def _wheel_name(wheel: Path) -> tuple[str, str]:
    name, version = wheel.name.split("-")[:2]
    return canonical(name), version


def _run(command: list[str], *, what: str, cwd: Path | None = None) -> None:
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        tail = "\n".join((result.stderr or result.stdout).strip().splitlines()[-5:])
        raise SiteError(f"{what} failed (is the package registry reachable?):\n{tail}")


# ---------------------------------------------------------------- fetching once, into the cache

def pyodide_version() -> str:
    """The Pyodide version the installed Pyodide kernel expects (``"314.0.6"``)."""
    try:
        from jupyterlite_pyodide_kernel.constants import PYODIDE_VERSION  # noqa: PLC0415 (build-time)
    except ImportError as error:
        raise SiteError("jupyterlite-pyodide-kernel is not installed: pip install -e '.[site]'.") \
            from error
    return str(PYODIDE_VERSION)


def fetch_pyodide(cache: Path, *, version: str) -> Path:
    """The npm package ``pyodide`` (the runtime, no package wheels) in ``cache``; npm once."""
    folder = cache / f"pyodide-{version}"
    package = folder / "node_modules" / "pyodide"
    if all((package / name).exists() for name in (*PYODIDE_FILES, "pyodide-lock.json")):
        return package
    npm = shutil.which("npm")
    if npm is None:
        raise SiteError("npm is needed once to fetch the Pyodide runtime: apt-get install npm.")
    folder.mkdir(parents=True, exist_ok=True)
    _run([npm, "install", "--prefix", str(folder), "--no-audit", "--no-fund", "--no-save",
          "--silent", f"pyodide@{version}"], what=f"npm install pyodide@{version}")
    return package


def _download(requirements: list[str], dest: Path) -> None:
    """Pure-Python wheels from PyPI; a package with only a source release is built to one."""
    pure = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
            "--platform", "any", "--implementation", "py", "--abi", "none",
            "--python-version", "3.14", "-d", str(dest)]
    for requirement in requirements:
        result = subprocess.run([*pure, requirement], capture_output=True, text=True)
        if result.returncode != 0:
            _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(dest),
                  requirement], what=f"pip wheel {requirement}")


def _pins(lock: Mapping[str, Mapping[str, object]]) -> dict[str, str]:
    """Versions to ship: the build environment's for frontend-bound packages, else Pyodide's."""
    pins = {name: str(entry["version"]) for name, entry in lock.items()}
    for name in MATCH_BUILD_ENV:
        try:
            pins[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return pins


def collect_wheels(local: Iterable[Path], cache: Path, *, lock: Mapping[str, Mapping[str, object]],
                   roots: Iterable[str] = ROOTS) -> dict[str, Path]:
    """Every wheel the browser needs, by canonical name: ``local`` ones, the rest from PyPI.

    Requirements are followed as Pyodide sees them (sys_platform emscripten); NOT_IN_BROWSER
    is left out.
    """
    wheels = {_wheel_name(path)[0]: path for path in local}
    store = cache / "wheels"
    store.mkdir(parents=True, exist_ok=True)
    pins = _pins(lock)
    pending = sorted(set(map(canonical, roots)))
    seen: set[str] = set()
    while pending:
        missing = []
        for name in pending:
            if name in wheels:
                continue
            version = pins.get(name)
            found = sorted(path for path in store.glob("*.whl") if _wheel_name(path)[0] == name
                           and (version is None or _wheel_name(path)[1] == version))
            if found:
                wheels[name] = found[-1]
            else:
                missing.append(f"{name}=={version}" if version else name)
        if missing:
            _download(missing, store)
            continue  # look again: the downloads are in the store now
        seen.update(pending)
        pending = sorted({dep for name in pending
                          for dep in browser_requirements(_wheel_metadata(wheels[name]))
                          if dep not in seen and dep not in NOT_IN_BROWSER})
    return {name: wheels[name] for name in sorted(seen)}


def build_chesskit_wheel(dest: Path, *, root: Path = ROOT) -> Path:
    """The chesskit wheel built from the checkout at ``root``."""
    dest.mkdir(parents=True, exist_ok=True)
    _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(dest), str(root)],
         what="building the chesskit wheel")
    return next(dest.glob("chesskit_course-*.whl"))  # the distribution is chesskit-course


def lock_entries(wheels: Mapping[str, Path]) -> dict[str, dict[str, object]]:
    """The ``packages`` of a pyodide-lock.json that lists exactly ``wheels``."""
    entries: dict[str, dict[str, object]] = {}
    for name, wheel in sorted(wheels.items()):
        depends = [dep for dep in browser_requirements(_wheel_metadata(wheel)) if dep in wheels]
        entries[name] = {
            "name": name, "version": _wheel_name(wheel)[1], "file_name": wheel.name,
            "install_dir": "site", "sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(),
            "package_type": "package", "imports": _wheel_imports(wheel), "depends": depends,
            "unvendored_tests": False,
        }
    return entries


# Wheels shipped with bytecode only (no .py beside it): big, imported at every kernel start,
# never read by a learner (tracebacks through them show no source lines): 1.5 MB less.
SOURCELESS = ("pygments", "prompt_toolkit")
# What the kernel imports before the first board: the Pyodide kernel, then lesson 0's first cells.
FIRST_BOARD_IMPORTS = ("micropip", "piplite.piplite", "pyodide_kernel", "chesskit",
                       "chesskit.course.site.browser", "chesskit.widgets.board",
                       "chesskit.drawing.diagram", "chesskit.learner",
                       "chesskit.exercises.catalog")
STDLIB_ZIP = "python_stdlib.zip"

# Run by Pyodide in Node.js: each wheel of /work/in is copied to /work/out with bytecode for its
# modules (unchecked hash: used without reading the source): __pycache__/*.pyc beside every
# module, or, for the SOURCELESS ones, a .pyc instead of each .py.  Then the standard library's
# modules that FIRST_BOARD_IMPORTS import (with the wheels installed) are compiled into
# /work/out/python_stdlib.zip the same way, .pyc instead of .py: Pyodide ships its standard
# library as source only, so the browser compiled email, argparse, pydoc... at every start.
COMPILE_PY = """
import importlib, importlib.util, json, pathlib, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc
SOURCELESS, IMPORTS, STDLIB = json.loads(pathlib.Path("/work/names.json").read_text())

def pyc(data, filename):
    try:
        code = compile(data, filename, "exec", dont_inherit=True)
    except SyntaxError:
        return None
    return _code_to_hash_pyc(code, importlib.util.source_hash(data), False)

for source in sorted(pathlib.Path("/work/in").glob("*.whl")):
    sourceless = source.name.split("-")[0].lower() in SOURCELESS
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(
            pathlib.Path("/work/out") / source.name, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            data = old.read(info)
            code = pyc(data, info.filename) if info.filename.endswith(".py") else None
            if code is None or not sourceless:
                new.writestr(info, data)
            if code is not None:
                new.writestr(info.filename + "c" if sourceless
                             else importlib.util.cache_from_source(info.filename), code)
    with zipfile.ZipFile(source) as wheel:
        wheel.extractall("/tmp/site-packages")
sys.path.insert(0, "/tmp/site-packages")
for name in IMPORTS:
    importlib.import_module(name)
prefix = "/lib/python314.zip/"
first = {module.__file__.removeprefix(prefix) for module in list(sys.modules.values())
         if (getattr(module, "__file__", None) or "").startswith(prefix)}
with zipfile.ZipFile(STDLIB) as old, zipfile.ZipFile("/work/out/" + STDLIB.rsplit("/", 1)[1],
                                                      "w", zipfile.ZIP_DEFLATED) as new:
    for info in old.infolist():
        data = old.read(info)
        code = pyc(data, prefix + info.filename) if info.filename in first else None
        if code is None:
            new.writestr(info, data)
        else:
            new.writestr(info.filename + "c", code)
"""
COMPILE_JS = """
const [runtime, folder, program] = process.argv.slice(1);
const { loadPyodide } = await import(runtime + "/pyodide.mjs");
const py = await loadPyodide({ env: { HOME: "/home/pyodide" } });
py.FS.mkdir("/work");
py.FS.mount(py.FS.filesystems.NODEFS, { root: folder }, "/work");
py.runPython(program);
"""


def compile_wheels(wheels: Mapping[str, Path], cache: Path, *,
                   pyodide: Path) -> tuple[dict[str, Path], Path]:
    """``wheels`` with bytecode for Pyodide's Python added, and Pyodide's standard library with
    the modules the first board imports compiled; all kept in ``cache/compiled``.

    Pyodide's own packages ship compiled the same way; without it the browser compiles
    IPython, ipykernel, the standard library and the course from source at every kernel start
    (measured in Node.js: importing them took 5.7 s instead of 2.1 s on the 2-core machine).
    """
    digest = hashlib.sha256(json.dumps([SOURCELESS, FIRST_BOARD_IMPORTS]).encode())
    for wheel in sorted(wheels.values()):
        digest.update(wheel.name.encode() + hashlib.sha256(wheel.read_bytes()).digest())
    folder = cache / "compiled" / digest.hexdigest()[:16]
    stdlib = folder / STDLIB_ZIP
    if not stdlib.exists():
        node = shutil.which("node")
        if node is None:
            raise SiteError("Node.js is needed to compile the wheels for the browser: "
                            "apt-get install nodejs.")
        with tempfile.TemporaryDirectory(prefix="chesskit-pyc-") as temp:
            (Path(temp) / "in").mkdir()
            (Path(temp) / "out").mkdir()
            for wheel in wheels.values():
                shutil.copyfile(wheel, Path(temp) / "in" / wheel.name)
            shutil.copyfile(pyodide / STDLIB_ZIP, Path(temp) / "in" / STDLIB_ZIP)
            (Path(temp) / "names.json").write_text(json.dumps(
                [SOURCELESS, FIRST_BOARD_IMPORTS, f"/work/in/{STDLIB_ZIP}"]), encoding="utf-8")
            _run([node, "--input-type=module", "-e", COMPILE_JS, str(pyodide.resolve()), temp,
                  COMPILE_PY], what="compiling the wheels with Pyodide in Node.js")
            folder.mkdir(parents=True, exist_ok=True)
            for wheel in wheels.values():
                shutil.copyfile(Path(temp) / "out" / wheel.name, folder / wheel.name)
            shutil.copyfile(Path(temp) / "out" / STDLIB_ZIP, stdlib)
    return {name: folder / wheel.name for name, wheel in wheels.items()}, stdlib


# ---------------------------------------------------------------- the site

def _joined(value: object) -> object:
    return "".join(value) if isinstance(value, list) and all(
        isinstance(part, str) for part in value) else value


# The pieces of every saved board, kept once in the site (PIECES_FILE) instead of in each board.
PIECES_FILE = "static/chesskit-pieces.svg"
# How a notebook output finds it: relative to the app page (lab/index.html), so a site served
# from a sub-folder works too.  JupyterLab leaves the href of an SVG <use> as it is.
PIECES_HREF = "../" + PIECES_FILE
# The parts every board of one size and side repeats: its squares and its coordinates.
BOARD_PART = re.compile(r'<rect x="\d+" y="\d+" width="\d+" height="\d+" fill="#ffce9e"/>'
                        r'<path d="[^"]*" fill="#d18b47"/>|<g font-family="[^"]*" font-size="\d+" '
                        r'fill="#444" text-anchor="middle">.*?</g>', re.S)
PIECE_DEF = re.compile(r'<g id="(?P<id>ck-[A-Za-z])"[^>]*>(?:(?!<g id="ck-).)*?</g>'
                       r'(?=<g id=|</defs>|<radialGradient)', re.S)


def shared_pieces(html_text: str, pieces: dict[str, str]) -> str:
    """A saved board with its piece drawings moved out: each ``<use>`` names ``PIECES_HREF``.

    The drawings go into ``pieces`` by id (every board draws a piece the same way), and so do
    the squares and coordinates (BOARD_PART, by a hash of their text); the check gradient stays
    (a paint server is not read from another file).  About 80 % of a saved board.

    >>> pieces = {}
    >>> shared_pieces('<svg><defs><g id="ck-P"><path/></g></defs><use href="#ck-P"/></svg>', pieces)
    '<svg><use href="../static/chesskit-pieces.svg#ck-P"/></svg>'
    >>> pieces
    {'ck-P': '<g id="ck-P"><path/></g>'}
    """
    def moved(found: re.Match[str]) -> str:
        pieces.setdefault(found["id"], found.group(0))
        return ""

    def defs(found: re.Match[str]) -> str:
        rest = PIECE_DEF.sub(moved, found.group(0))
        return "" if rest == "<defs></defs>" else rest

    def part(found: re.Match[str]) -> str:
        name = "ck-part-" + hashlib.sha256(found.group(0).encode()).hexdigest()[:8]
        pieces.setdefault(name, f'<g id="{name}">{found.group(0)}</g>')
        return f'<use href="{PIECES_HREF}#{name}"/>'

    text = BOARD_PART.sub(part, re.sub(r"<defs>.*?</defs>", defs, html_text, flags=re.S))
    return re.sub(r'href="#(ck-[A-Za-z])"', rf'href="{PIECES_HREF}#\1"', text)


def pieces_svg(pieces: Mapping[str, str]) -> str:
    """The site's one file of piece drawings (:func:`shared_pieces` collected them)."""
    return ('<svg xmlns="http://www.w3.org/2000/svg"><defs>'
            + "".join(pieces[name] for name in sorted(pieces)) + "</defs></svg>\n")


def site_notebook(text: str, pieces: dict[str, str] | None = None) -> str:
    """A course notebook as the site serves it: trusted, texts joined, outputs kept.

    A hidden first cell keeps the learner's progress in the browser (KEEP_PROGRESS).
    The kernelspec and language are the Pyodide kernel's (JupyterLab would rewrite them on open
    and show the notebook as changed).  Code cells are marked trusted (the course's own
    notebooks, as ``dev.py course`` trusts them), so their stored SVG boards show; multi-line
    texts become single strings, as the JupyterLab frontend expects.  Every notebook keeps its
    stored outputs, so its boards and tasks show before Python has started; with ``pieces``,
    their piece drawings are shared (:func:`shared_pieces`).

    >>> text = site_notebook('{"cells": [{"cell_type": "code", "source": ["a", "b"],'
    ...                      ' "metadata": {}, "outputs": [], "execution_count": 3}]}')
    >>> json.loads(text)["cells"][1]["source"], json.loads(text)["cells"][1]["metadata"]
    ('ab', {'trusted': True})
    """
    notebook = json.loads(text)
    notebook.setdefault("metadata", {}).update(kernelspec=dict(PYODIDE_KERNELSPEC),
                                               language_info=dict(PYODIDE_LANGUAGE_INFO))
    notebook["cells"].insert(0, {
        "cell_type": "code", "id": "site-progress", "execution_count": None, "outputs": [],
        "source": KEEP_PROGRESS,
        "metadata": {"tags": ["setup"], "jupyter": {"source_hidden": True}}})
    for cell in notebook["cells"]:
        cell["source"] = _joined(cell["source"])
        if cell["cell_type"] != "code":
            continue
        cell["metadata"]["trusted"] = True
        for output in cell["outputs"]:
            if "text" in output:
                output["text"] = _joined(output["text"])
            for mime, value in output.get("data", {}).items():
                output["data"][mime] = _joined(value)
                if pieces is not None and mime in ("text/html", "image/svg+xml"):
                    output["data"][mime] = shared_pieces(output["data"][mime], pieces)
    return json.dumps(notebook, ensure_ascii=False)


def _course_files(root: Path, files: Path, pieces: dict[str, str]) -> int:
    count = 0
    for folder in ("lessons", "exercises"):
        for lang in languages():
            notebooks = sorted((root / folder / lang).glob("*.ipynb"))
            if not notebooks:
                raise SiteError(f"{folder}/{lang} has no notebooks: run 'chesskit build' first.")
            (files / folder / lang).mkdir(parents=True, exist_ok=True)
            for notebook in notebooks:
                text = site_notebook(notebook.read_text(encoding="utf-8"), pieces)
                (files / folder / lang / notebook.name).write_text(text, encoding="utf-8")
                count += 1
    return count


def lite_config(packages: Iterable[str]) -> dict[str, object]:
    """The ``jupyter-lite.json`` of the site: preload every package, keep progress in /drive."""
    kernel = {
        "disablePyPIFallback": True,
        "loadPyodideOptions": {"packages": sorted(packages),
                               "env": {"HOME": "/home/pyodide", "CHESSKIT_DATA_DIR": DATA_DIR}},
    }
    return {"jupyter-lite-schema-version": 0,
            "jupyter-config-data": {"appName": "chesskit",
                                    "litePluginSettings": {KERNEL_PLUGIN: kernel}}}


def build_config(lite: Path, out: Path) -> dict[str, object]:
    """``jupyter_lite_config.json``: only the course's extensions, no source maps, lab only."""
    return {
        "LiteBuildConfig": {"output_dir": str(out), "contents": [str(lite / "files")],
                            "apps": ["lab"], "no_sourcemaps": True,
                            "no_unused_shared_packages": True, "ignore_sys_prefix": True},
        "FederatedExtensionAddon": {"extra_labextensions_path": [str(lite / "labextensions")]},
    }


def start_page(config_script: str = "") -> str:
    """The site's front page: one link per language, and how to hand work in.

    ``config_script`` is JupyterLite's ``jupyter-config-data`` element of the page it replaces:
    the apps below read it from ``../index.html``.
    """
    links = "\n".join(
        f'<li><a href="lab/index.html?path={START.format(lang=lang)}" lang="{lang}">'
        f"{language(lang).name}</a></li>" for lang in languages())
    notes = "\n".join(f'<section lang="{lang}"><h2>'
                      f'{html.escape(t("site.hand_in_title", lang=lang))}</h2>'
                      f"<p>{html.escape(t('site.hand_in', lang=lang))}</p></section>"
                      for lang in languages())
    return ("<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>chesskit</title>"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            "<style>body{font:18px/1.5 sans-serif;max-width:40em;margin:2em auto;padding:0 1em}"
            "li{margin:.4em 0;font-size:1.3em}</style>\n"
            f"{config_script}\n</head><body>\n<h1>chesskit</h1>\n"
            f"<ul>\n{links}\n</ul>\n{notes}\n</body></html>\n")


def _labextension(name: str) -> Path:
    for folder in (Path(sys.prefix) / "share" / "jupyter" / "labextensions",
                   *(Path(p) / "labextensions" for p in _jupyter_data_paths())):
        if (folder / name / "package.json").exists():
            return folder / name
    raise SiteError(f"the JupyterLab extension {name} is not installed: "
                    "pip install -e '.[site]'.")


def _jupyter_data_paths() -> list[str]:
    from jupyter_core.paths import jupyter_path  # noqa: PLC0415 (a build-time tool)

    return list(jupyter_path())


def build_site(out: Path, *, cache: Path = DEFAULT_CACHE, root: Path = ROOT) -> Path:
    """Write the browser course into ``out`` (replaced); returns ``out``."""
    version = pyodide_version()
    pyodide = fetch_pyodide(cache, version=version)
    lock = json.loads((pyodide / "pyodide-lock.json").read_text(encoding="utf-8"))
    kernel_wheels = _labextension("@jupyterlite/pyodide-kernel-extension") / "static" / "pypi"
    with tempfile.TemporaryDirectory(prefix="chesskit-site-") as temp:
        lite = Path(temp)
        local = [build_chesskit_wheel(lite / "dist", root=root)]
        local += [w for w in sorted(kernel_wheels.glob("*.whl"))
                  if not w.name.startswith("widgetsnbextension-3.")]
        wheels, stdlib = compile_wheels(collect_wheels(local, cache, lock=lock["packages"]),
                                        cache, pyodide=pyodide)
        target = lite / "static" / "pyodide"
        target.mkdir(parents=True)
        for name in PYODIDE_FILES:
            shutil.copyfile(stdlib if name == STDLIB_ZIP else pyodide / name, target / name)
        for wheel in wheels.values():
            shutil.copyfile(wheel, target / wheel.name)
        (target / "pyodide-lock.json").write_text(json.dumps(
            {"info": lock["info"], "packages": lock_entries(wheels)}, indent=1), encoding="utf-8")
        for name in LABEXTENSIONS:
            shutil.copytree(_labextension(name), lite / "labextensions" / name)
        (lite / "jupyter-lite.json").write_text(json.dumps(lite_config(wheels), indent=1),
                                                encoding="utf-8")
        overrides = root / "chesskit" / "jupyter" / "overrides.json"
        if overrides.exists():
            shutil.copyfile(overrides, lite / "overrides.json")
        pieces: dict[str, str] = {}
        _course_files(root, lite / "files", pieces)
        if out.exists():
            shutil.rmtree(out)
        (lite / "jupyter_lite_config.json").write_text(json.dumps(
            build_config(lite, out.resolve()), indent=1), encoding="utf-8")
        _run([sys.executable, "-m", "jupyterlite_core", "build", "--lite-dir", str(lite)],
             what="jupyter lite build", cwd=lite)
    correct_sessions(out)
    early_kernel(out)
    for font in font_fallbacks(out / "build"):
        font.unlink()
    (out / PIECES_FILE).write_text(pieces_svg(pieces), encoding="utf-8")
    root_page = out / "index.html"
    config = re.search(r'<script id="jupyter-config-data".*?</script>',
                       root_page.read_text(encoding="utf-8"), re.S)
    root_page.write_text(start_page(config.group(0) if config else ""), encoding="utf-8")
    return out


def font_fallbacks(build: Path) -> list[Path]:
    """The built app's font files no browser the site runs in reads: Font Awesome's .eot, .ttf,
    .svg and .woff beside a .woff2 of the same name (every ``@font-face`` lists the woff2 first
    among the formats a current browser reads).  About 2.7 MB."""
    return sorted(path for path in build.glob("*")
                  if path.suffix in (".eot", ".ttf", ".svg", ".woff")
                  and path.with_suffix(".woff2").exists())


def sessions_by_path(script: str) -> tuple[str, int]:
    """JupyterLite's app code with a running session found by its path, not its file name.

    Returns the new text and how many lookups were changed.

    >>> sessions_by_path("let{path:a,name:i}=e,o=this._sessions.find(e=>e.name===i);")
    ('let{path:a,name:i}=e,o=this._sessions.find(e=>e.path===a);', 1)
    """
    def by_path(found: re.Match[str]) -> str:
        path, s = found["path"], found["s"]
        return (f"let{{path:{path},name:{found['name']}}}={found['opts']},{found['found']}="
                f"this._sessions.find({s}=>{s}.path==={path})")

    return SESSION_BY_NAME.subn(by_path, script)


def correct_sessions(out: Path) -> None:
    """Apply :func:`sessions_by_path` to the built app in ``out``: exactly one lookup."""
    changed = 0
    for script in sorted((out / "build").glob("*.js")):
        text, count = sessions_by_path(script.read_text(encoding="utf-8"))
        if count:
            script.write_text(text, encoding="utf-8")
            changed += count
    if changed != 1:
        raise SiteError(f"JupyterLite's session lookup by file name was found {changed} times "
                        f"instead of once (jupyterlite-core {metadata.version('jupyterlite-core')}"
                        "): check chesskit.course.site.build.SESSION_BY_NAME against its code.")


# ---------------------------------------------------------------- the kernel's worker, early

# The Pyodide kernel's files in the built site (jupyterlite-pyodide-kernel 0.8.6).
KERNEL_STATIC = "extensions/@jupyterlite/pyodide-kernel-extension/static"
KERNEL_WORKER = f"{KERNEL_STATIC}/comlink.worker.*.js"
# How long an early worker no kernel took is kept before it is stopped (a lab page that opens
# no notebook): the time a loaded machine may need to start JupyterLab and open one.
EARLY_WORKER_KEPT_MS = 120_000
# The page's part: before JupyterLab loads, lab/index.html starts the kernel's web worker and
# asks it to start Pyodide with every preloaded wheel and import the kernel (IPython); the
# first Pyodide kernel JupyterLab then creates takes that worker instead of a new one.  Not
# when the page is cross-origin isolated (the kernel uses another worker then) or opens a file
# that is not a notebook.  @WORKER@, @PYODIDE@ and @OPTIONS@ are filled in by the build.
EARLY_SCRIPT = """<script id="chesskit-early-kernel">
      /* chesskit: the Python kernel's worker starts now, while JupyterLab loads. */
      (function () {
        const path = new URLSearchParams(location.search).get("path");
        if (self.crossOriginIsolated || (path && !path.endsWith(".ipynb"))) return;
        const root = new URL("..", location.href);
        const pyodideUrl = new URL(@PYODIDE@, root).href;
        const worker = new Worker(new URL(@WORKER@, root), {type: "module"});
        worker.postMessage({ckEarly: {pyodideUrl: pyodideUrl,
          indexUrl: pyodideUrl.slice(0, pyodideUrl.lastIndexOf("/") + 1),
          loadPyodideOptions: @OPTIONS@}});
        self.ckEarlyWorker = worker;
        self.ckTakeEarlyWorker = function (kernelId) {
          const taken = self.ckEarlyWorker;
          self.ckEarlyWorker = null;
          if (taken) self.ckEarlyKernelId = kernelId;
          return taken;
        };
        setTimeout(function () {
          if (self.ckEarlyWorker === worker) { self.ckEarlyWorker = null; worker.terminate(); }
        }, @KEPT@);
      })();
    </script>
    """
# The worker's part: a message {ckEarly: options} starts the runtime and imports the kernel's
# modules (what the kernel's first steps would do, with the same options); the kernel's
# initialize then waits for that instead of starting the runtime again, and records its id in
# the worker (``self.ckEarlyKernelId``) to show it ran there.  Any failure of the early start
# falls back to the kernel's own.
EARLY_WORKER_LISTENER = (
    'self.addEventListener("message",ckEvent=>{let ckOptions=ckEvent.data&&ckEvent.data.ckEarly;'
    "if(ckOptions){ckEvent.stopImmediatePropagation();self.ckEarly=self.ckEarly||"
    "ku.initRuntime(ckOptions).then(()=>ku._pyodide.runPythonAsync("
    '"import piplite.piplite\\nimport pyodide_kernel"))}});')
# Exact text replacements in the built site: (file, as a glob under the site, text, new text).
# Each text must be found exactly once, or the build stops (a JupyterLite upgrade changed it).
EARLY_PATCHES: tuple[tuple[str, str, str], ...] = (
    ("lab/index.html", '<link id="jupyter-lite-main" rel="preload"',
     '@EARLY_SCRIPT@<link id="jupyter-lite-main" rel="preload"'),
    (f"{KERNEL_STATIC}/*.js",  # the page's PyodideKernel: the early worker, else a new one
     "return crossOriginIsolated?t(new URL(s(831),s.b)):t(new URL(s(932),s.b))}",
     "return crossOriginIsolated?t(new URL(s(831),s.b)):(self.ckTakeEarlyWorker&&"
     "self.ckTakeEarlyWorker(e.id))||t(new URL(s(932),s.b))}"),
    (KERNEL_WORKER, "ku=new rr;Nt(ku);", f"ku=new rr;{EARLY_WORKER_LISTENER}Nt(ku);"),
    (KERNEL_WORKER, "await this.initRuntime(e),",
     "await(self.ckEarly?self.ckEarly.then(()=>{self.ckEarlyKernelId=e.kernelId},"
     "()=>this.initRuntime(e)):this.initRuntime(e)),"),
)


def patch_site(out: Path, patches: Iterable[tuple[str, str, str]]) -> list[Path]:
    """Apply ``patches`` (file glob, text, new text) to the built site in ``out``; returns the
    files changed.  Raises SiteError, changing nothing, when a text is not found exactly once
    in the files its glob names."""
    texts: dict[Path, str] = {}

    def text(path: Path) -> str:
        return texts[path] if path in texts else path.read_text(encoding="utf-8")

    for pattern, old, new in patches:
        counts = {path: text(path).count(old) for path in sorted(out.glob(pattern))}
        found = [path for path, count in counts.items() if count]
        if sum(counts.values()) != 1:
            raise SiteError(
                f"a patch of the built site found its text {sum(counts.values())} times instead "
                f"of once in {pattern} (jupyterlite-core {metadata.version('jupyterlite-core')}, "
                f"jupyterlite-pyodide-kernel {_version('jupyterlite-pyodide-kernel')}): check "
                f"chesskit.course.site.build.EARLY_PATCHES against its code: {old[:60]!r}")
        path = found[0]
        texts[path] = text(path).replace(old, new, 1)
    for path, patched in texts.items():
        path.write_text(patched, encoding="utf-8")
    return sorted(texts)


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


def early_script(out: Path) -> str:
    """The page's part of :func:`early_kernel` for the built site in ``out``: its kernel worker's
    file and the Pyodide options of its ``jupyter-lite.json``."""
    workers = sorted(out.glob(KERNEL_WORKER))
    if len(workers) != 1:
        raise SiteError(f"the built site has {len(workers)} files {KERNEL_WORKER}, not one: "
                        "check chesskit.course.site.build.KERNEL_WORKER against JupyterLite.")
    config = json.loads((out / "jupyter-lite.json").read_text(encoding="utf-8"))
    kernel = config["jupyter-config-data"]["litePluginSettings"][KERNEL_PLUGIN]
    values = {"@WORKER@": workers[0].relative_to(out).as_posix(),
              "@PYODIDE@": kernel["pyodideUrl"],
              "@OPTIONS@": kernel.get("loadPyodideOptions", {})}
    script = EARLY_SCRIPT.replace("@KEPT@", str(EARLY_WORKER_KEPT_MS))
    for key, value in values.items():
        script = script.replace(key, json.dumps(value, sort_keys=True).replace("</", "<\\/"))
    return script


def early_kernel(out: Path) -> list[Path]:
    """Start the kernel's worker (Pyodide, the wheels, IPython) before JupyterLab in the built
    site in ``out``: EARLY_PATCHES with the page's script filled in.  Returns the files changed.

    JupyterLab's own start (about 6 s on the 2-core machine) and the kernel's (Pyodide and 27
    wheels, about 5 s) ran one after the other; now they overlap.
    """
    script = early_script(out)
    return patch_site(out, [(pattern, old, new.replace("@EARLY_SCRIPT@", script))
                            for pattern, old, new in EARLY_PATCHES])


def inputs_hash(root: Path = ROOT) -> str:
    """A short hash of everything a site is built from: the package, the notebooks, the tools.

    >>> len(inputs_hash())
    16
    """
    digest = hashlib.sha256()
    files = [root / "pyproject.toml", *sorted((root / "chesskit").rglob("*")),
             *sorted((root / "lessons").glob("*/*.ipynb")),
             *sorted((root / "exercises").glob("*/*.ipynb"))]
    for path in files:
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    for tool in ("jupyterlite-core", "jupyterlite-pyodide-kernel", "anywidget", "ipywidgets"):
        with contextlib.suppress(metadata.PackageNotFoundError):
            digest.update(f"{tool}={metadata.version(tool)}".encode())
    return digest.hexdigest()[:16]


def cached_site(*, cache: Path = DEFAULT_CACHE, root: Path = ROOT) -> Path:
    """The site for the current inputs, built into ``cache/build-<hash>`` only when missing."""
    out = cache / f"build-{inputs_hash(root)}"
    stamp = out / ".chesskit-site"
    if not stamp.exists():
        for old in cache.glob("build-*"):
            shutil.rmtree(old, ignore_errors=True)
        build_site(out, cache=cache, root=root)
        stamp.write_text(inputs_hash(root), encoding="utf-8")
    return out


def registries_reachable() -> bool:
    """True when pip and npm can reach their package registries (checked with their clients)."""
    npm = shutil.which("npm")
    if npm is None:
        return False
    checks = [[npm, "view", f"pyodide@{pyodide_version()}", "version"],
              [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "-d",
               tempfile.gettempdir(), "--only-binary=:all:", "six"]]
    return all(subprocess.run(command, capture_output=True, timeout=120).returncode == 0
               for command in checks)


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".mjs": "text/javascript", ".wasm": "application/wasm",
                      ".whl": "application/zip", ".json": "application/json"}

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the base's name)
        return


@contextlib.contextmanager
def serve(folder: Path, *, port: int = 0) -> Iterator[str]:
    """Serve ``folder`` on http://127.0.0.1 (``port`` 0: a free one); yields the base URL."""
    handler = functools.partial(_Handler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def site_size(folder: Path) -> int:
    """Bytes in every file under ``folder``."""
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


def main(argv: list[str]) -> int:
    """``chesskit site [--out DIR] [--cache DIR]``: build the browser course."""
    parser = argparse.ArgumentParser(prog="chesskit site", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("site"),
                        help="folder to write the site into (replaced; default ./site)")
    parser.add_argument("--serve", type=int, metavar="PORT", default=None,
                        help="then serve it on http://127.0.0.1:PORT until Ctrl+C")
    parser.add_argument("--cache", type=Path, default=Path(os.environ.get(
        "CHESSKIT_SITE_CACHE", DEFAULT_CACHE)),
        help="where the Pyodide runtime and the wheels are kept between builds")
    options = parser.parse_args(argv)
    out = build_site(options.out, cache=options.cache)
    print(f"Site written to {out} ({site_size(out) / 1e6:.1f} MB). Serve it with: "
          f"python3 -m http.server --directory {out}", file=sys.stderr)
    if options.serve is not None:
        with serve(out, port=options.serve) as url:
            print(f"Serving the course at {url}/ (stop with Ctrl+C)", file=sys.stderr)
            with contextlib.suppress(KeyboardInterrupt):
                threading.Event().wait()
    return 0
