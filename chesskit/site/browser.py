"""Run inside the browser site: keep the learner's progress in the browser's own storage.

SQLite cannot work on JupyterLite's ``/drive`` (the notebooks' folder: "disk I/O error"), but it
works in Pyodide's in-memory file system.  :func:`keep_progress` mounts Emscripten's IDBFS on
:func:`chesskit.learner.data_dir` (``CHESSKIT_DATA_DIR``, set by the site), loads what
IndexedDB holds there, and writes it back after every cell and every two seconds (answers
given on the board arrive between cells), one write at a time.  Anywhere but Pyodide it does
nothing.

>>> import asyncio; asyncio.run(keep_progress())  # a real Python: nothing to do
False
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from typing import Any

SAVE_EVERY_MS = 2000
_mounted: set[str] = set()


def _sync(fs: Any, *, load: bool) -> asyncio.Future[object]:
    """FS.syncfs as a future: ``load`` True reads IndexedDB into memory, False writes it."""
    from pyodide.ffi import create_once_callable

    done: asyncio.Future[object] = asyncio.get_event_loop().create_future()

    def finished(error: object = None) -> None:
        if not done.done():
            done.set_result(error)

    fs.syncfs(load, create_once_callable(finished))
    return done


def one_at_a_time(start: Callable[[], asyncio.Future[object]]) -> Callable[..., None]:
    """A trigger for ``start``: asked while a run is under way, it starts one more run after it.

    >>> loop = asyncio.new_event_loop(); runs = []
    >>> def start():
    ...     runs.append(loop.create_future()); return runs[-1]
    >>> save = one_at_a_time(start); save(); save(); save()
    >>> len(runs)
    1
    >>> runs[0].set_result(None); loop.run_until_complete(asyncio.sleep(0)); len(runs)
    2
    """
    state = {"running": False, "again": False}

    def finished(_: object) -> None:
        state["running"] = False
        if state["again"]:
            state["again"] = False
            trigger()

    def trigger(*_: object) -> None:
        if state["running"]:
            state["again"] = True
            return
        state["running"] = True
        start().add_done_callback(finished)

    return trigger


async def keep_progress() -> bool:
    """Make the progress folder persistent in this browser; True when it was mounted now."""
    if sys.platform != "emscripten":
        return False
    import js
    import pyodide_js
    from pyodide.ffi import create_proxy

    from chesskit.learner import data_dir

    folder = str(data_dir())
    if folder in _mounted:
        return False
    fs = pyodide_js.FS
    fs.mkdirTree(folder)
    fs.mount(fs.filesystems.IDBFS, js.Object.new(), folder)
    _mounted.add(folder)
    await _sync(fs, load=True)

    save = one_at_a_time(lambda: _sync(fs, load=False))
    js.setInterval(create_proxy(save), SAVE_EVERY_MS)
    shell = _shell()
    if shell is not None:
        shell.events.register("post_run_cell", save)
    return True


def _shell() -> Any:
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    return get_ipython()
