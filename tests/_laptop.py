"""``chesskit classroom`` as a teacher runs it: a process of its own, stopped as a laptop is.

:func:`laptop_process` starts the command on 127.0.0.1 (a free port unless one is given),
reads the join code and the teacher's link from what it prints, and stops it (SIGTERM, then
SIGKILL) however the block ends, so that every connection to it is closed as when the laptop
goes away.  Started again with the same ``db`` and port, it is the same classroom.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

from _classroom import Laptop, free_port

START_LIMIT = 60.0
"""Seconds the command may take to print its addresses."""
SITE_START_MS = int(os.environ.get("CHESSKIT_SITE_WAIT_MS", 300_000))
"""Milliseconds the browser course may take to open a notebook: a cold Pyodide start on a busy
machine (CI's full run took over 60 s); ``CHESSKIT_SITE_WAIT_MS`` changes it."""


@contextlib.contextmanager
def laptop_process(db: Path, *, port: int | None = None, site: Path | None = None
                   ) -> Iterator[Laptop]:
    """``python -m chesskit classroom --host 127.0.0.1 --port P --db DB [--site SITE]``."""
    port = free_port() if port is None else port
    command = [sys.executable, "-m", "chesskit", "classroom", "--host", "127.0.0.1",
               "--port", str(port), "--db", str(db), "--lang", "en"]
    if site is not None:
        command += ["--site", str(site)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    printed: list[str] = []
    teacher_line = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            printed.append(line)
            if "teacher?token=" in line:
                teacher_line.set()

    threading.Thread(target=read, name="laptop-output", daemon=True).start()
    try:
        if not teacher_line.wait(START_LIMIT):
            raise RuntimeError("chesskit classroom did not start:\n" + "".join(printed))
        text = "".join(printed)
        code = re.search(r"Join code: (\S+)", text)
        token = re.search(r"teacher\?token=(\S+)", text)
        assert code and token, text
        yield Laptop(f"http://127.0.0.1:{port}/", code.group(1), token.group(1))
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
