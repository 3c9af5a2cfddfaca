"""The live classroom in Chromium: the teacher's page and two students' pages (laptop mode).

A laptop classroom runs in this process (``tests/_classroom.py``); each page is its own browser
context (its own storage, as on its own tablet).  The students join with the code, the teacher
opens a round, a student's click-click and another's drag appear as weighted arrows on the
teacher's board, a typed illegal move gets the server's sentence, and closing the round shows
the solution on every board.  The last test runs ``chesskit classroom --site`` itself with the
course's built site, every request to another host than 127.0.0.1 refused.  Every wait is
event-driven with a generous limit; screenshots go to ``$CHESSKIT_SHOTS`` (default: a temp
folder) to be looked at.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from _classroom import Laptop, free_port, running_classroom
from _laptop import laptop_process

from chesskit.course.site import build

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
MS = 60_000
"""Milliseconds any wait may take (each ends as soon as its event happens)."""
MATE = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"
"""White mates with Ra8#: a judged free position (the service finds the mate in one)."""
LESSON = "4k3/8/4K3/8/8/8/8/R7 w - - 0 1"
"""A lesson's board the teacher sends to the class with its "Ask the class" button."""
pytestmark = pytest.mark.browser

if not os.access(CHROMIUM, os.X_OK):
    pytest.skip("needs Debian's chromium at /usr/bin/chromium", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="needs playwright for Python")
from playwright.sync_api import Browser, Page, Route, sync_playwright  # noqa: E402
from test_browser import click as click_square  # noqa: E402
from test_browser import open_and_run, running_lab  # noqa: E402

SHOTS = Path(os.environ.get("CHESSKIT_SHOTS") or tempfile.mkdtemp(prefix="chesskit-shots-"))


@pytest.fixture(scope="module")
def laptop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Laptop]:
    with running_classroom(tmp_path_factory.mktemp("classroom") / "classroom.sqlite") as room:
        yield room


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


def page_of(browser: Browser, *, width: int, height: int, locale: str = "en",
            touch: bool = False) -> Page:
    """A page in a context of its own (a tablet of its own), failing on any script error."""
    context = browser.new_context(viewport={"width": width, "height": height}, locale=locale,
                                  has_touch=touch)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_default_timeout(MS)
    page.errors = errors  # type: ignore[attr-defined]
    return page


def square_centre(page: Page, square: str, *, within: str = ".ckc-board svg") -> tuple[float,
                                                                                      float]:
    """Where a square of the board is on the page (the board drawn for the side to move)."""
    box: Any = page.eval_on_selector(within, """(svg, sq) => {
        const b = svg.getBoundingClientRect(), k = b.width / 377;
        const black = (svg.closest('.ckc') || document).dataset.orientation === 'black';
        const f = 'abcdefgh'.indexOf(sq[0]), r = +sq[1] - 1;
        const col = black ? 7 - f : f, row = black ? r : 7 - r;
        return [b.left + (16 + col * 45 + 22.5) * k, b.top + (1 + row * 45 + 22.5) * k];
    }""", square)
    return float(box[0]), float(box[1])


def click(page: Page, square: str) -> None:
    x, y = square_centre(page, square)
    page.mouse.click(x, y)


def drag(page: Page, source: str, target: str) -> None:
    (x1, y1), (x2, y2) = square_centre(page, source), square_centre(page, target)
    page.mouse.move(x1, y1)
    page.mouse.down()
    page.mouse.move((x1 + x2) / 2, (y1 + y2) / 2, steps=4)
    page.mouse.move(x2, y2, steps=4)
    page.mouse.up()


def join(page: Page, laptop: Laptop, name: str) -> None:
    page.goto(laptop.url)
    page.fill("#ckc-code", laptop.code.lower())  # typed in lower case: still right
    page.fill("#ckc-name", name)
    page.click(".ckc-joinbtn")
    page.wait_for_selector(".ckc-board svg")


def shoot(page: Page, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_two_students_answer_and_the_teacher_sees_their_arrows(
        browser: Browser, laptop: Laptop) -> None:
    teacher = page_of(browser, width=1280, height=800)
    teacher.goto(f"{laptop.url}teacher?token={laptop.teacher}")
    teacher.wait_for_selector(".ckc-teacher")
    assert "token" not in teacher.url  # the projected address bar never shows the secret
    assert laptop.code in teacher.inner_text(".ckc-joininfo")  # the code on the projector
    ana = page_of(browser, width=768, height=1024)  # a tablet
    ming = page_of(browser, width=820, height=1180, locale="zh-CN")
    join(ana, laptop, "Ana")
    ming.goto(laptop.url)
    assert ming.inner_text("label[for=ckc-code]") == "加入码"  # the tablet's language
    join(ming, laptop, "小明")
    shoot(ming, "student-waiting-zh")

    teacher.fill(".ckc-ask .ckc-input", MATE)
    teacher.click(".ckc-askbtn")
    teacher.wait_for_selector(".ckc-head.ckc-open")
    for student in (ana, ming):
        student.wait_for_function("!document.querySelector('.ckc-send').disabled")
    assert ming.inner_text(".ckc-prompt") and ana.inner_text(".ckc-prompt")

    click(ana, "a1")  # click-click: Ra8#
    ana.wait_for_selector(".ckc-selected")
    click(ana, "a8")
    ana.wait_for_selector(".ckc-arrow[data-move=a1a8]")
    assert "Ra8#" in ana.inner_text(".ckc-msg")
    drag(ming, "h2", "h3")  # a drag: h3, not the mate
    ming.wait_for_selector(".ckc-arrow[data-move=h2h3]")
    teacher.wait_for_selector(".ckc-arrow[data-move=a1a8]")
    teacher.wait_for_selector(".ckc-arrow[data-move=h2h3]")
    assert teacher.inner_text(".ckc-answered .ckc-n").replace(" ", "") == "2/2"
    shoot(teacher, "teacher-two-answers")

    ming.fill(".ckc-input", "Kg2")  # onto its own pawn: refused, with the reason
    ming.click(".ckc-send")
    ming.wait_for_selector(".ckc-msg.ckc-error")
    shoot(ming, "student-refused-zh")
    ming.fill(".ckc-input", "车a8")  # changes the answer, typed with the Chinese piece name
    ming.click(".ckc-send")
    ming.wait_for_selector(".ckc-arrow[data-move=a1a8]")
    teacher.wait_for_function(
        "document.querySelector('.ckc-arrow[data-move=h2h3]') === null")
    assert teacher.inner_text(".ckc-right .ckc-n") == "2"

    teacher.click(".ckc-reveal")
    assert "小明" in teacher.inner_text(".ckc-names")
    teacher.click(".ckc-close")
    teacher.wait_for_selector(".ckc-head.ckc-closed")
    for student in (ana, ming):
        student.wait_for_selector(".ckc-msg.ckc-ok")
        assert student.eval_on_selector(".ckc-send", "b => b.disabled")
    assert "Ra8#" in ana.inner_text(".ckc-msg")
    shoot(teacher, "teacher-closed")
    shoot(ana, "student-closed-en")
    shoot(ming, "student-closed-zh")
    for page in (teacher, ana, ming):
        assert page.errors == []  # type: ignore[attr-defined]


def test_a_reload_rejoins_as_the_same_student_with_the_current_round(
        browser: Browser, laptop: Laptop) -> None:
    status, opened = laptop.call("POST", "api/rounds", {"fen": MATE, "prompt": "Mate!"},
                                 token=laptop.teacher)
    assert status == 201
    bo = page_of(browser, width=800, height=900, touch=True)  # a tablet: taps, no mouse
    join(bo, laptop, "Bo")
    bo.wait_for_function("!document.querySelector('.ckc-send').disabled")
    bo.touchscreen.tap(*square_centre(bo, "g2"))
    bo.touchscreen.tap(*square_centre(bo, "g3"))
    bo.wait_for_selector(".ckc-arrow[data-move=g2g3]")
    bo.reload()  # the tablet went to sleep, the page came back: same name, same answer
    bo.wait_for_selector(".ckc-arrow[data-move=g2g3]")
    assert "Bo" in bo.inner_text(".ckc-head")
    status, summary = laptop.call("GET", f"api/rounds/{opened['id']}/summary",
                                  token=laptop.teacher)
    assert [a["student"] for a in summary["answers"]] == ["Bo"]


def test_next_round_on_the_teachers_page(browser: Browser, laptop: Laptop) -> None:
    teacher = page_of(browser, width=1280, height=800)
    teacher.goto(f"{laptop.url}teacher?token={laptop.teacher}")
    teacher.fill(".ckc-ask .ckc-input", "06.12")
    teacher.click(".ckc-askbtn")
    teacher.wait_for_selector(".ckc-next:not([disabled])")  # an exercise's round is shown
    first = teacher.inner_text(".ckc-head")
    teacher.click(".ckc-next")
    teacher.wait_for_function("([h]) => document.querySelector('.ckc-head').textContent !== h",
                              arg=[first])
    status, current = laptop.call("GET", "api/rounds/current", token=laptop.teacher)
    assert status == 200 and current["exercise"] > "06.12"
    assert teacher.errors == []  # type: ignore[attr-defined]


def test_the_boards_in_jupyterlab(browser: Browser, laptop: Laptop) -> None:
    """The teacher's widget and a student's widget in a JupyterLab notebook (one kernel, two
    tokens): a round opened elsewhere reaches both; a click-click on the student's board
    appears as an arrow on the teacher's."""
    student = laptop.join("Dee")
    with running_lab() as lab:
        page = page_of(browser, width=1100, height=1500)
        open_and_run(
            lab, page, "classroom.ipynb",
            f"room = ck.classroom.connect({laptop.url!r}, {laptop.teacher!r})\n"
            "big = ck.classroom.teacher(size=440)\nbig",
            "from chesskit.classroom.client import Classroom, Connection\n"
            f"mine = Classroom(Connection({laptop.url!r}, {student!r})).join(size=360)\nmine",
            f"lesson = ck.Board({LESSON!r}, size=300).draw('a1a8')\nlesson", boards=2)
        page.wait_for_selector(".ckc-teacher")
        status, opened = laptop.call("POST", "api/rounds", {"fen": MATE, "prompt": "Mate!"},
                                     token=laptop.teacher)
        assert status == 201
        page.wait_for_selector(".ckc-teacher .ckc-head.ckc-open")
        page.wait_for_function("[...document.querySelectorAll('.ck-prompt')]"
                               ".some((p) => p.textContent.includes('Mate!'))")
        click_square(page, "a1")
        click_square(page, "a8")
        page.wait_for_selector(".ckc-teacher .ckc-arrow[data-move=a1a8]")
        page.wait_for_function("[...document.querySelectorAll('.ck-msg')]"
                               ".some((m) => m.textContent.includes('Ra8#'))")
        mine, lesson = page.locator(".ck").nth(0), page.locator(".ck").nth(1)
        assert mine.locator(".ck-clear").is_hidden()  # its arrow is the answer: no clearing
        assert mine.locator(".ck-ask").is_hidden() and lesson.locator(".ck-clear").is_visible()
        shoot(page, "jupyterlab-widgets")
        lesson.locator(".ck-ask").click()  # shown: this kernel is the classroom's teacher
        lesson.locator(".ck-msg", has_text="Sent to the class.").wait_for()
        status, current = laptop.call("GET", "api/rounds/current", token=laptop.teacher)
        assert status == 200 and current["fen"] == LESSON and current["id"] > opened["id"]
        page.locator(".ckc-teacher .ckc-head.ckc-open", has_text=f"Round {current['id']}"
                     ).wait_for()  # the teacher's board follows
        mine.locator(".ck-msg", has_text="Play your answer").wait_for()
        shoot(page, "jupyterlab-ask-the-class")
        assert page.errors == []  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def built_site() -> Path:
    """The course's browser site: ``$CHESSKIT_SITE``, else the newest build in the cache (the
    classroom only serves it: any build will do), else one built as tests/test_site.py does."""
    if os.environ.get("CHESSKIT_SITE"):
        return Path(os.environ["CHESSKIT_SITE"])
    stamps = sorted(build.DEFAULT_CACHE.glob("build-*/.chesskit-site"),
                    key=lambda stamp: stamp.stat().st_mtime)
    if stamps:
        return stamps[-1].parent
    try:
        return build.cached_site()
    except build.SiteError as error:
        pytest.skip(f"no built site, and it cannot be built here: {str(error).splitlines()[0]}")


def offline_page(browser: Browser, elsewhere: list[str], **size: int) -> Page:
    """:func:`page_of` where every request to another host than 127.0.0.1 is refused (and
    listed in ``elsewhere``)."""
    page = page_of(browser, **size)

    def route(route: Route) -> None:
        if urlparse(route.request.url).hostname != "127.0.0.1":
            elsewhere.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    page.context.route("**/*", route)
    return page


@pytest.mark.slow
def test_the_laptop_classroom_with_the_course_site_offline(
        browser: Browser, built_site: Path, tmp_path: Path) -> None:
    """``chesskit classroom --site``: a teacher page and two students' pages with no internet;
    a student's move is an arrow on the teacher's board, a student cannot act as the teacher,
    a reload rejoins as the same student, and the course itself opens from the same address."""
    elsewhere: list[str] = []
    with laptop_process(tmp_path / "classroom.sqlite", site=built_site) as laptop:
        teacher = offline_page(browser, elsewhere, width=1280, height=800)
        teacher.goto(f"{laptop.url}teacher?token={laptop.teacher}")
        teacher.wait_for_selector(".ckc-teacher")
        ana = offline_page(browser, elsewhere, width=768, height=1024)
        bo = offline_page(browser, elsewhere, width=800, height=900)
        join(ana, laptop, "Ana")
        join(bo, laptop, "Bo")
        teacher.fill(".ckc-ask .ckc-input", MATE)
        teacher.click(".ckc-askbtn")
        teacher.wait_for_selector(".ckc-head.ckc-open")
        for student in (ana, bo):
            student.wait_for_function("!document.querySelector('.ckc-send').disabled")
        click(ana, "a1")
        ana.wait_for_selector(".ckc-selected")
        click(ana, "a8")
        teacher.wait_for_selector(".ckc-arrow[data-move=a1a8]")
        drag(bo, "g2", "g3")
        teacher.wait_for_selector(".ckc-arrow[data-move=g2g3]")
        shoot(teacher, "laptop-site-teacher")

        refused = ana.evaluate("""async (fen) => {
            const token = localStorage.getItem('chesskit-classroom-student');
            const r = await fetch('api/rounds', {method: 'POST', body: JSON.stringify({fen}),
                headers: {Authorization: 'token ' + token, 'Content-Type': 'application/json'}});
            return [!!token, r.status];
        }""", MATE)
        assert refused == [True, 403]  # her own token: a student's, whatever she sends
        posing = offline_page(browser, elsewhere, width=800, height=600)
        join(posing, laptop, "Cy")
        posing.goto(f"{laptop.url}teacher")  # the teacher's page with a student's session
        posing.wait_for_selector(".ckc-msg.ckc-error")
        assert "teacher link" in posing.inner_text(".ckc-msg")

        bo.reload()  # the same student comes back, with the answer given
        bo.wait_for_selector(".ckc-arrow[data-move=g2g3]")
        assert "Bo" in bo.inner_text(".ckc-head")
        status, summary = laptop.call("GET", "api/rounds/1/summary", token=laptop.teacher)
        assert status == 200 and sorted(a["student"] for a in summary["answers"]) == [
            "Ana", "Bo"] and summary["joined"] == 3

        bo.goto(f"{laptop.url}site/lab/index.html?path=lessons/en/00-start-here.ipynb")
        bo.locator('.lm-TabBar-tab[title*="Path: lessons/en/00-start-here.ipynb"]').wait_for()
        shoot(bo, "laptop-site-course")
        assert elsewhere == []
        for page in (teacher, ana, bo, posing):
            assert page.errors == []  # type: ignore[attr-defined]


@pytest.mark.slow
def test_the_student_page_says_the_classroom_is_lost_and_comes_back(
        browser: Browser, tmp_path: Path) -> None:
    """The laptop goes away between rounds and comes back on the same address: the tablet says
    in words that the connection is lost (not "waiting for the teacher"), then rejoins as the
    same student and shows the teacher's next round."""
    db, port = tmp_path / "classroom.sqlite", free_port()
    with laptop_process(db, port=port) as laptop:
        ana = page_of(browser, width=768, height=1024)
        join(ana, laptop, "Ana")
        ana.locator(".ckc-msg", has_text="Waiting for the teacher").wait_for()
    ana.locator(".ckc-msg.ckc-error", has_text="connection to the classroom is lost").wait_for()
    shoot(ana, "student-lost")
    with laptop_process(db, port=port) as laptop:
        ana.locator(".ckc-msg", has_text="Waiting for the teacher").wait_for()
        status, _ = laptop.call("POST", "api/rounds", {"fen": MATE, "prompt": "Mate!"},
                                token=laptop.teacher)
        assert status == 201
        ana.wait_for_function("!document.querySelector('.ckc-send').disabled")
        assert "Ana" in ana.inner_text(".ckc-head")
    assert ana.errors == []  # type: ignore[attr-defined]
