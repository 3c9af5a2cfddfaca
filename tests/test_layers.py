"""The layers of DESIGN.md hold: a module imports only its own layer and the layers below it.

The one exception is an object that displays itself: it may import the layer that draws it
inside the method that does (listed in ``DISPLAYS``), never at the top of the module.
"""

from __future__ import annotations

import ast
from importlib import resources
from pathlib import Path

import pytest

LAYERS = ("foundation", "rules", "drawing", "exercises", "learner", "widgets", "course",
          "classroom", "teacher", "entry")
"""From the bottom up, as DESIGN.md draws them."""
FOUNDATION = {"errors", "i18n"}
ENTRY = {"", "__init__", "__main__", "cli"}
DISPLAYS = {
    ("chesskit.exercises.display", "chesskit.widgets.board"),  # an Exercise shows its board
    ("chesskit.rules.openings", "chesskit.drawing.diagram"),  # an Opening draws itself
}
PACKAGE = Path(str(resources.files("chesskit")))


def layer_of(module: str) -> str:
    """The layer a module of chesskit belongs to.

    >>> layer_of("chesskit.rules.search"), layer_of("chesskit.i18n"), layer_of("chesskit")
    ('rules', 'foundation', 'entry')
    """
    first = module.split(".")[1] if "." in module else ""
    if first in FOUNDATION:
        return "foundation"
    return "entry" if first in ENTRY else first


def _modules() -> list[tuple[str, Path]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = ("chesskit", *path.relative_to(PACKAGE).with_suffix("").parts)
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found.append((name, path))
    return found


def _imports(path: Path) -> list[tuple[str, bool]]:
    """(imported chesskit module, at the top of the module?) for every import that runs
    (those under ``if TYPE_CHECKING:`` are for the type checker only)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            node.body = []
    top = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("chesskit"):
            names = ([f"chesskit.{alias.name}" for alias in node.names]
                     if node.module == "chesskit" else [str(node.module)])
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names if alias.name.startswith("chesskit")]
        else:
            continue
        found += [(name, id(node) in top) for name in names]
    return found


def test_every_module_belongs_to_a_layer() -> None:
    assert {layer_of(name) for name, _ in _modules()} <= set(LAYERS)


@pytest.mark.parametrize("module", [name for name, _ in _modules()])
def test_imports_point_down(module: str) -> None:
    mine = LAYERS.index(layer_of(module))
    upward = [(name, at_top) for name, at_top in _imports(dict(_modules())[module])
              if name != "chesskit.__version__" and layer_of(name) in LAYERS
              and LAYERS.index(layer_of(name)) > mine]
    assert [name for name, at_top in upward if at_top] == []
    assert {(module, name) for name, _ in upward} <= DISPLAYS
