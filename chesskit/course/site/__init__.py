"""The course as a static JupyterLite site that runs in the browser, offline.

:mod:`chesskit.course.site.build` writes the site (``chesskit site --out DIR``);
:mod:`chesskit.course.site.browser` runs inside it and keeps the learner's progress in the browser.
"""

from __future__ import annotations


def main(argv: list[str]) -> int:
    """``chesskit site``: see :func:`chesskit.course.site.build.main`."""
    from chesskit.course.site.build import main as build_main  # noqa: PLC0415 (the browser imports this package, never the builder)

    return build_main(argv)
