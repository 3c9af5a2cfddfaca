"""``chesskit classroom``: the live classroom on the teacher's laptop, no hub, no internet.

Serves the classroom at ``/`` (and the course's browser site at ``/site/`` with ``--site``)
on the local network, and prints the student address, a short join code and the teacher's
link.  Students join with the code and a name; the teacher's link carries a secret token.
The code and the token are kept in the store, so a restarted classroom keeps them.
``chesskit classroom report`` and ``chesskit classroom grade`` (the rounds afterwards) are
in :mod:`chesskit.teacher.live_cli`, which routes the command.

>>> len(join_code()), set(join_code()) <= set(CODE_LETTERS)
(6, True)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import secrets
import socket
import sys
from pathlib import Path

import tornado.web

from chesskit.classroom.service import Classroom, make_app, serve
from chesskit.classroom.store import open_store
from chesskit.errors import ClassroomError
from chesskit.i18n import get_language, t

CODE_LETTERS = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
"""Join code letters: no 0/O, 1/I that a child could mix up."""
PORT = 8765


def join_code() -> str:
    """A fresh join code of 6 letters and digits."""
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(6))


def lan_address() -> str:
    """This computer's address on the local network (127.0.0.1 when it has none)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))  # no packet is sent; picks the route's address
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def laptop_classroom(db: str | Path, *, site: Path | None = None
                     ) -> tuple[Classroom, tornado.web.Application, str | None]:
    """The laptop classroom on the store ``db``: (classroom, tornado app, store warning)."""
    if site is not None and not (site / "index.html").is_file():
        raise ClassroomError("site", t("classroom.service_no_site", path=str(site)))
    store, warning = open_store(db)
    code, teacher = store.class_secrets("class", join_code(), secrets.token_urlsafe(18))
    room = Classroom(store, mode="laptop", code=code, teacher_token=teacher)
    return room, make_app(room, prefix="/", site=site), warning


def main(argv: list[str]) -> int:
    """Serve until Ctrl+C (``chesskit classroom``, routed by :mod:`chesskit.teacher.live_cli`)."""
    parser = argparse.ArgumentParser(prog="chesskit classroom",
                                     description=t("classroom.service_help"))
    parser.add_argument("--site", type=Path, help=t("classroom.service_help_site"))
    parser.add_argument("--port", type=int, default=PORT, help=t("classroom.service_help_port"))
    parser.add_argument("--host", default="0.0.0.0", help=t("classroom.service_help_host"))
    parser.add_argument("--db", default="classroom.sqlite", help=t("classroom.service_help_db"))
    parser.add_argument("--lang", help=t("classroom.service_help_lang"))
    args = parser.parse_args(argv)
    lang = get_language(args.lang)
    room, app, warning = laptop_classroom(args.db, site=args.site)
    if warning:
        print(warning, file=sys.stderr)
    host = lan_address() if args.host in ("0.0.0.0", "") else args.host
    base = f"http://{host}:{args.port}/"
    room.student_url = base

    async def run() -> None:
        serve(app, args.port, args.host)
        lines = [t("classroom.service_started", lang=lang),
                 t("classroom.service_student_address", lang=lang, url=base),
                 t("classroom.service_join_code", lang=lang, code=room.code),
                 t("classroom.service_teacher_link", lang=lang,
                   url=f"{base}teacher?token={room.teacher_token}")]
        if args.site is not None:
            lines.append(t("classroom.service_site_address", lang=lang, url=f"{base}site/"))
        print("\n".join(lines), flush=True)
        await asyncio.Event().wait()

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run())
    return 0
