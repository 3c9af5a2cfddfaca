"""Run inside the browser site: keep the learner's progress in the browser's own storage.

SQLite cannot work on JupyterLite's ``/drive`` (the notebooks' folder: "disk I/O error"), but it
works in Pyodide's in-memory file system.  :func:`keep_progress` mounts Emscripten's IDBFS on
:func:`chesskit.learner.data_dir` (``CHESSKIT_DATA_DIR``, set by the site) and loads what
IndexedDB holds there.  After every cell and every two seconds (answers given on the board
arrive between cells) it writes the folder back if this notebook changed it, and otherwise
loads it again: every open notebook has its own copy, and a notebook that only looks (a lesson
open beside its exercises) must never write its old copy over the answers another one saved.
Anywhere but Pyodide it does nothing.

>>> import asyncio; asyncio.run(keep_progress())  # a real Python: nothing to do
False
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable
from typing import Any

SAVE_EVERY_MS = 2000
_mounted: set[str] = set()


def _sync(fs: Any, *, load: bool) -> asyncio.Future[object]:
    """FS.syncfs as a future: ``load`` True reads IndexedDB into memory, False writes it."""
    from pyodide.ffi import create_once_callable  # noqa: PLC0415 (only in Pyodide)

    done: asyncio.Future[object] = asyncio.get_event_loop().create_future()

    def finished(error: object = None) -> None:
        if not done.done():
            done.set_result(error)

    fs.syncfs(load, create_once_callable(finished))
    return done


def stamp(folder: str) -> list[tuple[str, int, int]]:
    """What changes when a file under ``folder`` is written: names, sizes, times.

    >>> stamp("/no/such/folder")
    []
    """
    return sorted((os.path.join(top, name), (info := os.stat(os.path.join(top, name))).st_size,
                   info.st_mtime_ns) for top, _, names in os.walk(folder) for name in names)


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
    import js  # noqa: PLC0415 (only in Pyodide)
    import pyodide_js  # noqa: PLC0415 (only in Pyodide)
    from pyodide.ffi import create_proxy  # noqa: PLC0415 (only in Pyodide)

    from chesskit.learner import data_dir  # noqa: PLC0415 (the store only once the kernel runs)

    folder = str(data_dir())
    if folder in _mounted:
        return False
    fs = pyodide_js.FS
    fs.mkdirTree(folder)
    fs.mount(fs.filesystems.IDBFS, js.Object.new(), folder)
    _mounted.add(folder)
    await _sync(fs, load=True)

    synced = [stamp(folder)]

    def save_or_load() -> asyncio.Future[object]:
        now = stamp(folder)
        ours = now != synced[0]  # this notebook wrote an answer since the last sync
        done = _sync(fs, load=not ours)
        done.add_done_callback(lambda _: synced.__setitem__(0, now if ours else stamp(folder)))
        return done

    sync = one_at_a_time(save_or_load)
    js.setInterval(create_proxy(sync), SAVE_EVERY_MS)
    shell = _shell()
    if shell is not None:
        shell.events.register("post_run_cell", sync)
    return True


def _shell() -> Any:
    try:
        from IPython import get_ipython  # noqa: PLC0415 (only inside a kernel)
    except ImportError:
        return None
    return get_ipython()
