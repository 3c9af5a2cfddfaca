"""``chesskit progress``: print your progress, or write it to a file to hand in.

>>> progress_main(["--help"])  # doctest: +SKIP
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import asdict
from pathlib import Path

from chesskit.i18n import t
from chesskit.learner import store
from chesskit.learner.view import show


def progress_main(argv: list[str] | None = None) -> int:
    """``chesskit progress [--export FILE] [--lang zh-Hans]``: print, or write a file to hand in."""
    parser = argparse.ArgumentParser(prog="chesskit progress", description=t("learner.cli_help"))
    parser.add_argument("--export", metavar="FILE", help=t("learner.cli_export"))
    parser.add_argument("--lang", default=None, help=t("worksheet.cli_lang"))
    args = parser.parse_args(argv)
    summary = show(store.model_state(), now=time.time(), lang=args.lang, notes=store.notes())
    if args.export:
        model = summary.model
        record = {"rating": summary.rating, "rd": model.rd if model else None,
                  "mastery": dict(model.mastery) if model else {},
                  "lessons": [asdict(p) for p in summary.lessons],
                  "review": [list(r) for r in summary.review],
                  "attempts": [asdict(a) for a in store.attempts()]}
        try:
            Path(args.export).write_text(json.dumps(record, ensure_ascii=False, indent=1,
                                                    sort_keys=True) + "\n", encoding="utf-8")
        except OSError as error:
            print("Error: " + t("learner.export_failed", lang=args.lang, path=args.export,
                                error=error.strerror or error))
            return 1
        for note in store.notes():
            print(note)
        print(t("learner.exported", lang=args.lang, path=args.export))
    else:
        print(summary)
    return 0
