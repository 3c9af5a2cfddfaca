"""``chesskit classroom report`` and ``chesskit classroom grade``: the live rounds afterwards.

``report --store S`` writes the rounds of a classroom store as a page (who played what);
``grade --store S --gradebook G --round ID`` adds closed rounds to the gradebook of
``chesskit grade`` (one point for a right answer, never twice for the same round); without
``--round`` (or ``--all``) it lists the rounds.  The library raises; :mod:`chesskit.cli` prints
``Error: ...`` with exit code 1.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from chesskit.classroom import laptop
from chesskit.errors import ClassroomError
from chesskit.i18n import get_language, t
from chesskit.teacher.gradebook import Gradebook
from chesskit.teacher.live_rounds import grade_rounds, live_rounds, open_classroom_store
from chesskit.teacher.report import live_page


def classroom_main(argv: list[str]) -> int:
    """``chesskit classroom``: ``report`` and ``grade`` here, else the laptop service."""
    commands = {"report": report_main, "grade": grade_main}
    if argv[:1] and argv[0] in commands:
        return commands[argv[0]](argv[1:])
    return laptop.main(argv)


def report_main(argv: list[str]) -> int:
    """``chesskit classroom report --store S [--out FILE.html] [--lang L]``."""
    parser = argparse.ArgumentParser(prog="chesskit classroom report",
                                     description=t("classroom.live_help_report"))
    parser.add_argument("--store", required=True, help=t("classroom.live_help_store"))
    parser.add_argument("--out", default="live-rounds.html", help=t("classroom.live_help_out"))
    parser.add_argument("--lang", help=t("classroom.live_help_lang"))
    args = parser.parse_args(argv)
    lang = get_language(args.lang)
    store = open_classroom_store(args.store)
    try:
        rounds = live_rounds(store)
    finally:
        store.close()
    Path(args.out).write_text(live_page(rounds, lang=lang, empty=t(
        "classroom.live_none", lang=lang, path=args.store)), encoding="utf-8")
    print(t("classroom.live_written", lang=lang, path=args.out))
    return 0


def grade_main(argv: list[str]) -> int:
    """``chesskit classroom grade --store S --gradebook G [--round ID ...] [--all]``."""
    parser = argparse.ArgumentParser(prog="chesskit classroom grade",
                                     description=t("classroom.live_help_grade"))
    parser.add_argument("--store", required=True, help=t("classroom.live_help_store"))
    parser.add_argument("--gradebook", required=True, help=t("classroom.live_help_gradebook"))
    parser.add_argument("--round", type=int, action="append", dest="rounds", metavar="ID",
                        help=t("classroom.live_help_round"))
    parser.add_argument("--all", action="store_true", help=t("classroom.live_help_all"))
    parser.add_argument("--lang", help=t("classroom.live_help_lang"))
    args = parser.parse_args(argv)
    lang = get_language(args.lang)
    store = open_classroom_store(args.store)
    try:
        every = live_rounds(store)
        if not args.rounds and not args.all:
            print(t("classroom.live_choose", lang=lang))
            for rnd in every:
                print(f"  {rnd.id:>4}  {rnd.klass}  {rnd.state:<6}  {rnd.answered}/{rnd.joined}"
                      f"  {rnd.right_percent or '-':>4}  {rnd.prompt(lang)[:50]}")
            return 0
        by_id = {rnd.id: rnd for rnd in every}
        missing = [i for i in args.rounds or () if i not in by_id]
        if missing:
            raise ClassroomError("unknown_round", t("classroom.live_unknown_round", lang=lang,
                                                    id=missing[0], path=args.store))
        chosen = ([by_id[i] for i in dict.fromkeys(args.rounds)] if args.rounds
                  else [rnd for rnd in every if rnd.state == "closed"])
        folder = Path(args.gradebook)
        with Gradebook(folder / "gradebook.sqlite" if folder.is_dir() else folder) as book:
            done = grade_rounds(book, store, chosen, store_path=args.store)
    finally:
        store.close()
    for rnd, added in done:
        print(t(f"classroom.live_{'added' if added else 'already'}", lang=lang, id=rnd.id,
                item=rnd.item, right=rnd.correct or 0, answered=rnd.answered))
    print(t("classroom.live_rewrite", lang=lang))
    return 0
