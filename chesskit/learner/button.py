"""The "Practise" button of a lesson's last page: each click shows the next exercise.

>>> practice_button(upto=3).children[0].description
'Practise'
"""

from __future__ import annotations

import ipywidgets
from IPython.display import display

from chesskit.i18n import t
from chesskit.learner.selection import practice


class PracticeButton(ipywidgets.VBox):  # type: ignore[misc]
    """The button and the exercise under it; saved without its widget, it reads as a sentence
    (what a reopened notebook shows before its kernel runs)."""

    lang = ""

    def __repr__(self) -> str:
        return t("learner.practise_static", lang=self.lang or None)


def practice_button(*, upto: int | None = None, lang: str | None = None) -> PracticeButton:
    """A "Practise" button and, under it, the exercise each click picks for you
    (``ck.practice(upto=upto)``: lessons 0 to ``upto``, at your level).

    >>> practice_button(upto=12, lang="zh-Hans").children[0].description
    '练习'
    """
    button = ipywidgets.Button(description=t("learner.practise_button", lang=lang),
                               layout=ipywidgets.Layout(min_height="44px"))  # a finger
    shown = ipywidgets.Output()

    def next_exercise(_: object) -> None:
        with shown:
            shown.clear_output(wait=True)
            display(practice(upto=upto, lang=lang))

    button.on_click(next_exercise)
    box = PracticeButton([button, shown])
    box.lang = lang or ""
    return box
