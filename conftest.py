"""pytest set-up: the doctests of ``chesskit`` (``--doctest-modules`` in pyproject.toml) and
the notebook checks (nbval over lessons/ and exercises/).

``chesskit/__main__.py`` runs the CLI when imported, so doctest collection skips it.

A kernel can die while it starts when two test workers start kernels at the same moment (a
port taken between choosing it and binding it); such a start is tried again, up to three
times, instead of failing every cell of that notebook.  Nothing else about nbval changes.
"""

from __future__ import annotations

import time

collect_ignore = ["chesskit/__main__.py"]

try:
    from nbval import plugin
except ImportError:  # nbval is a test dependency; without it there are no notebook checks
    plugin = None

if plugin is not None:
    _Kernel = plugin.RunningKernel

    class _RetryingKernel(_Kernel):  # type: ignore[misc,valid-type]
        def __init__(self, *args: object, **kwargs: object) -> None:
            for attempt in range(3):
                try:
                    super().__init__(*args, **kwargs)
                    return
                except RuntimeError:
                    if attempt == 2:
                        raise
                    time.sleep(1 + attempt)

    plugin.RunningKernel = _RetryingKernel
