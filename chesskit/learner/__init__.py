"""The learner: a child's own record, the learner model, practice and progress.

``store`` (attempts and the model's checkpoint in SQLite), ``model`` (the fold: Glicko-2
rating from first tries, spaced review), ``skills`` (the course's skills), ``estimates`` (the
model as data: mastery, weak skills), ``selection`` (the next exercise: ck.practice), ``answering``
(``ck.answer``), ``hint`` (the IPython hook), ``view`` (``ck.progress()``) and ``command``
(``chesskit progress``).

>>> from chesskit.learner import answer
>>> answer("99.99", "e4").code
'unknown_exercise'
"""

from __future__ import annotations

from chesskit.learner.answering import answer
from chesskit.learner.button import practice_button
from chesskit.learner.command import progress_main
from chesskit.learner.estimates import LearnerModel
from chesskit.learner.hint import install_answer_hint
from chesskit.learner.model import Attempt
from chesskit.learner.selection import learner_model, practice
from chesskit.learner.skills import SKILLS
from chesskit.learner.store import attempts, data_dir, record_attempt
from chesskit.learner.view import Progress, progress, summarize

__all__ = ["SKILLS", "Attempt", "LearnerModel", "Progress", "answer", "attempts", "data_dir",
           "install_answer_hint", "learner_model", "practice", "practice_button", "progress",
           "progress_main",
           "record_attempt", "summarize"]
