"""``ck.progress()``: the open learner model a child reads.

A row of skill meters (how sure you are at each skill), your practice rating and its trend,
what to practise next, each lesson's exercises solved, and the reviews coming up.

>>> from chesskit.learner.model import Attempt
>>> shown = summarize([Attempt("01.01", 1, 800, True, "correct", "Ra8#", 0.0)], now=0.0,
...                   lang="en")  # doctest: +SKIP
"""

from __future__ import annotations

import contextlib
import html
import math
import time
from collections.abc import Mapping
from dataclasses import dataclass

from chesskit.errors import BankError
from chesskit.exercises import catalog
from chesskit.i18n import get_language, join_words, localize, t
from chesskit.learner import store
from chesskit.learner.estimates import LearnerModel, estimate
from chesskit.learner.model import DAY, START_RATING, Attempt, State, fold
from chesskit.learner.skills import SKILLS, bank_skills, skill_name

REVIEW_SHOWN = 6  # exercise ids on one review line; the rest are counted
REVIEW_DAYS_SHOWN = 7  # reviews further away are not listed
STARS = 5
METER_HEIGHT = 64
METER_COLOR = "#3b82c4"  # calm blue; no red anywhere
TREND_SHOWN = 7


@dataclass(frozen=True)
class LessonProgress:
    lesson: int
    title: str
    solved: int
    total: int


@dataclass(frozen=True)
class Progress:
    """What ``ck.progress()`` shows; displays itself as HTML: skill meters, rating, lessons."""

    lessons: tuple[LessonProgress, ...]
    review: tuple[tuple[str, int], ...]  # (exercise id, whole days until due; 0 = today)
    rating: int
    attempts: int
    lang: str
    notes: tuple[str, ...] = ()  # what happened to the store, one sentence each
    model: LearnerModel | None = None
    meters: tuple[tuple[str, float | None], ...] = ()  # (skill, mastery or None: not tried)

    # -- sentences ---------------------------------------------------------------------
    def _rating_lines(self) -> list[str]:
        tries = self.model.first_tries if self.model else 0
        if tries == 0:
            return [t("learner.rating_none", lang=self.lang, start=START_RATING)]
        key = "learner.rating_one" if tries == 1 else "learner.rating"
        lines = [t(key, lang=self.lang, rating=self.rating, attempts=tries),
                 t("learner.rating_explained", lang=self.lang, start=START_RATING)]
        trend = self.model.trend[-TREND_SHOWN:] if self.model else ()
        if len(trend) >= 2:
            lines.append(t("learner.trend", lang=self.lang,
                           ratings=" → ".join(str(r) for _, r in trend)))
        return lines

    def _next_line(self) -> str:
        model = self.model
        if model is not None and model.weak_skills:
            skill = model.weak_skills[0]
            return t("learner.next_weak", lang=self.lang, skill=skill_name(skill, lang=self.lang),
                     skill_key=skill)
        if model is not None and model.due:
            return t("learner.next_review", lang=self.lang, n=len(model.due))
        return t("learner.next_new", lang=self.lang)

    def _review_lines(self) -> list[str]:
        """One short line per day: today, tomorrow, in N days."""
        days: dict[int, list[str]] = {}
        for exercise_id, due in self.review:
            days.setdefault(due, []).append(exercise_id)
        lines = []
        for due, ids in sorted(days.items()):
            shown = ids[:REVIEW_SHOWN]
            if len(ids) > REVIEW_SHOWN:
                shown.append(t("learner.review_more", lang=self.lang,
                               n=len(ids) - REVIEW_SHOWN))
            key = {0: "review_today", 1: "review_tomorrow"}.get(due, "review_days")
            lines.append(t(f"learner.{key}", lang=self.lang, days=due,
                           ids=join_words(shown, lang=self.lang)))
        return lines

    def _meter_text(self, skill: str, mastery: float | None) -> str:
        name = skill_name(skill, lang=self.lang)
        if mastery is None:
            return t("learner.meter_not_yet", lang=self.lang, skill=name)
        stars = round(mastery * STARS)
        return t("learner.meter", lang=self.lang, skill=name,
                 stars="★" * stars + "☆" * (STARS - stars))

    def __str__(self) -> str:
        lines = [*self.notes, *self._rating_lines()]
        if self.meters:
            lines.append(t("learner.skills_title", lang=self.lang))
            lines += [f"- {self._meter_text(s, m)}" for s, m in self.meters]
        lines.append(self._next_line())
        lines += [t("learner.lesson_line", lang=self.lang, title=p.title, solved=p.solved,
                    total=p.total) for p in self.lessons]
        review = self._review_lines()
        if review:
            lines += [t("learner.review_title", lang=self.lang), *(f"- {r}" for r in review)]
        else:
            lines.append(t("learner.nothing_to_review", lang=self.lang))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return str(self)

    # -- pictures ----------------------------------------------------------------------
    def _meter_html(self, skill: str, mastery: float | None) -> str:
        name = html.escape(skill_name(skill, lang=self.lang))
        label = html.escape(self._meter_text(skill, mastery))
        filled = 0 if mastery is None else round(mastery * METER_HEIGHT)
        outline = ' stroke-dasharray="3 3"' if mastery is None else ""
        bar = (f'<svg width="28" height="{METER_HEIGHT + 2}" role="img" aria-label="{label}">'
               f"<title>{label}</title>"
               f'<rect x="1" y="1" width="26" height="{METER_HEIGHT}" rx="4" fill="#eef2f6"'
               f' stroke="#9aa5b1"{outline}/>'
               f'<rect x="1" y="{1 + METER_HEIGHT - filled}" width="26" height="{filled}"'
               f' rx="4" fill="{METER_COLOR}"/></svg>')
        return (f'<div style="display:inline-block;width:76px;margin:4px;text-align:center;'
                f'vertical-align:top;font-size:12px">{bar}<div>{name}</div></div>')

    def _trend_svg(self) -> str:
        trend = self.model.trend[-TREND_SHOWN:] if self.model else ()
        if len(trend) < 2:
            return ""
        values = [r for _, r in trend]
        low, high = min(values), max(values)
        span = max(high - low, 1)
        points = " ".join(f"{10 + 30 * i},{50 - round(40 * (v - low) / span)}"
                          for i, v in enumerate(values))
        label = html.escape(t("learner.trend", lang=self.lang,
                              ratings=" → ".join(str(v) for v in values)))
        return (f'<svg width="{20 + 30 * (len(values) - 1)}" height="60" role="img"'
                f' aria-label="{label}"><title>{label}</title><polyline points="{points}"'
                f' fill="none" stroke="{METER_COLOR}" stroke-width="3"/></svg>')

    def _repr_html_(self) -> str:
        notes = "".join(f"<p>{html.escape(n)}</p>" for n in self.notes)
        rating = "".join(f"<p>{html.escape(line)}</p>" for line in self._rating_lines())
        meters = ""
        if self.meters:
            meters = (f"<p><b>{html.escape(t('learner.skills_title', lang=self.lang))}</b></p>"
                      f"<div>{''.join(self._meter_html(s, m) for s, m in self.meters)}</div>")
        upnext = f"<p>{html.escape(self._next_line())}</p>"
        rows = "".join(
            f"<tr><td>{html.escape(p.title)}</td><td><progress value=\"{p.solved}\" "
            f"max=\"{max(p.total, 1)}\" aria-label=\"{html.escape(p.title)}\"></progress></td>"
            f"<td>{html.escape(t('learner.solved', lang=self.lang, **counts))}</td></tr>"
            for p in self.lessons for counts in [{"solved": p.solved, "total": p.total}])
        review = self._review_lines()
        listed = ("<p>" + html.escape(t("learner.review_title", lang=self.lang)) + "</p><ul>"
                  + "".join(f"<li>{html.escape(r)}</li>" for r in review) + "</ul>"
                  if review else
                  f"<p>{html.escape(t('learner.nothing_to_review', lang=self.lang))}</p>")
        title = html.escape(t("learner.chart_title", lang=self.lang))
        return (f'<div lang="{self.lang}">{notes}{rating}{self._trend_svg()}{meters}{upnext}'
                f"<table><caption>{title}</caption>{rows}</table>{listed}</div>")


def _lesson_titles(lang: str | None) -> dict[int, str]:
    titles: dict[int, str] = {}
    with contextlib.suppress(AttributeError, BankError):
        for info in catalog.lessons():
            number = getattr(info, "lesson", getattr(info, "number", None))
            title = getattr(info, "title", None)
            if isinstance(number, int) and isinstance(title, str | Mapping):
                titles[number] = t("learner.lesson_title", lang=lang, n=number,
                                   title=localize(title, lang=lang))
    return titles


def show(state: State, *, now: float, lang: str | None = None,
         notes: tuple[str, ...] = ()) -> Progress:
    """The progress shown for the model ``state`` at time ``now`` (a pure function)."""
    skills = bank_skills()
    model = estimate(state, now=now, skills=skills)
    totals: dict[int, list[int]] = {}
    reached: set[str] = set()
    for item in catalog.bank():
        counts = totals.setdefault(item.lesson, [0, 0])
        counts[0] += item.id in model.solved
        counts[1] += 1
        if item.lesson <= model.reach:
            reached.update(skills.get(item.id, ()))
    titles = _lesson_titles(lang)
    lessons = tuple(LessonProgress(n, titles.get(n, t("learner.lesson", lang=lang, n=n)), s, k)
                    for n, (s, k) in sorted(totals.items()))
    review = tuple(sorted(((e, max(0, math.floor((due - now) / DAY)))
                           for e, (_, due) in state.reviews.items()
                           if due - now < REVIEW_DAYS_SHOWN * DAY), key=lambda r: (r[1], r[0])))
    meters = tuple((s, model.mastery.get(s)) for s in SKILLS
                   if s in model.mastery or (model.answers and s in reached))
    return Progress(lessons, review, model.rating, model.answers, get_language(lang), notes,
                    model, meters)


def summarize(history: list[Attempt], *, now: float, lang: str | None = None) -> Progress:
    """The progress shown for ``history`` at time ``now`` (a pure function of both)."""
    return show(fold(State(), history), now=now, lang=lang, notes=store.notes())


def progress(*, lang: str | None = None) -> Progress:
    """Your skills, your practice rating, what to practise next, each lesson's completion and
    the reviews coming up; never raises (what went wrong with the store is said in a
    sentence)."""
    state = store.model_state()
    return show(state, now=time.time(), lang=lang, notes=store.notes())
