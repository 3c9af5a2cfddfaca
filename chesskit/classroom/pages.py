"""The laptop pages' data: ``static/generated.js``, written from the course's own sources.

The classroom's pages are static files (no build step, no network at school) and cannot ask
Python for a text or a piece drawing; this module writes them into one script instead: the
``client_*`` texts of ``locale/<lang>/classroom.toml`` in every language (Traditional derived
as everywhere), the languages' names, and the piece drawings and colours of
:mod:`chesskit.drawing.diagram`.  ``tests/test_classroom_client.py`` fails when the file is
not what this module writes; ``python -m chesskit.classroom.pages`` rewrites it.

>>> texts("zh-Hant")["join_title"]
'加入課堂'
"""

from __future__ import annotations

import json
import sys
import tomllib
from importlib import resources

from chesskit.drawing import diagram
from chesskit.drawing.text import FONT_FAMILY
from chesskit.i18n import language, languages, t

GENERATED = resources.files("chesskit.classroom") / "static" / "generated.js"


def text_keys() -> list[str]:
    """The ``client_*`` keys of the English classroom texts, sorted."""
    path = resources.files("chesskit") / "locale" / "en" / "classroom.toml"
    keys = tomllib.loads(path.read_text(encoding="utf-8"))
    return sorted(key for key in keys if key.startswith("client_"))


def texts(lang: str) -> dict[str, str]:
    """The pages' texts in ``lang``, keyed without the ``client_`` prefix."""
    return {key.removeprefix("client_"): t(f"classroom.{key}", lang=lang) for key in text_keys()}


def generated_js() -> str:
    """The text of ``static/generated.js``."""
    # the diagrams' own pieces, drawn by the one function that draws them for every diagram
    pieces = {symbol: diagram._piece_def(symbol) for symbol in "KQRBNPkqrbnp"}  # noqa: SLF001
    style = {"light": diagram.SQUARE_COLORS["light"], "dark": diagram.SQUARE_COLORS["dark"],
             "arrows": diagram.ARROW_COLORS, "font": f"'{FONT_FAMILY}', sans-serif"}
    names = {code: language(code).name for code in languages()}
    dump = {"ensure_ascii": False, "sort_keys": True, "separators": (",", ":")}
    lines = ["// Written by `python -m chesskit.classroom.pages` from the course's texts and",
             "// diagrams: do not edit (tests/test_classroom_client.py checks it is fresh).",
             f"const CK_PIECES = {json.dumps(pieces, **dump)};",  # type: ignore[arg-type]
             f"const CK_STYLE = {json.dumps(style, **dump)};",  # type: ignore[arg-type]
             f"const CK_LANGUAGES = {json.dumps(names, **dump)};",  # type: ignore[arg-type]
             "const CK_TEXTS = {"]
    lines += [f"  {json.dumps(code)}: {json.dumps(texts(code), **dump)},"  # type: ignore[arg-type]
              for code in languages()]
    return "\n".join([*lines, "};", ""])


def main(argv: list[str] | None = None) -> int:
    """Rewrite ``static/generated.js``; print where."""
    path = GENERATED
    with resources.as_file(path) as real:
        real.write_text(generated_js(), encoding="utf-8")
        print(real)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
