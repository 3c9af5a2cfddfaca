"""Every Simplified Chinese text of the course: 后 never ambiguous, one Traditional text whichever
OpenCC implementation converts it, the course's terms, no stray spaces."""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest

from chesskit import i18n
from chesskit.course.lessons import lesson_sources, read_lesson
from chesskit.course.notebooks import exercise_notebook, lesson_notebook
from chesskit.rules.openings import OPENINGS

PACKAGE = Path(i18n.__file__).parent
LESSONS = PACKAGE.parent / "lessons" / "src"
CJK = re.compile(r"[\u4e00-\u9fff]")


def _zh_values(node: object) -> Iterator[str]:
    """The Simplified texts in a bank item: every ``zh`` of a ``{"en", "zh"}`` table."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "zh" and isinstance(value, str):
                yield value
            else:
                yield from _zh_values(value)
    elif isinstance(node, list):
        for value in node:
            yield from _zh_values(value)


def course_texts() -> Iterator[tuple[str, str]]:
    """(where, text) for every Simplified text: locale files, bank, lesson sources, openings."""
    for path in sorted((PACKAGE / "locale" / "zh-Hans").glob("*.toml")):
        for key, value in tomllib.loads(path.read_text(encoding="utf-8")).items():
            for text in value if isinstance(value, list) else [value]:
                yield f"locale/zh-Hans/{path.name}: {key}", str(text)
    for path in sorted((PACKAGE / "bank").glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        yield from ((f"bank/{path.name}", text) for text in _zh_values(data.get("title")))
        for item in data.get("item", []):
            yield from ((f"bank/{path.name}: {item['id']}", text) for text in _zh_values(item))
    for path in sorted(LESSONS.glob("*.md")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if CJK.search(line):
                yield f"lessons/src/{path.name}:{number}", line
    for item in OPENINGS:
        yield f"openings: {item.key}", item.name["zh"]
        yield f"openings: {item.key}", item.idea["zh"]


TEXTS = list(course_texts())


def test_the_course_has_texts_of_every_kind() -> None:
    kinds = {where.split("/")[0].split(":")[0] for where, _ in TEXTS}
    assert kinds == {"locale", "bank", "lessons", "openings"}
    assert len(TEXTS) > 3000


def test_no_queen_reads_as_after() -> None:
    """A 后 that reads as the queen and as "after" alike would become 后 or 後 by guesswork."""
    found = [f"{where}: {hits}" for where, text in TEXTS if (hits := i18n.ambiguous_queens(text))]
    assert not found, "reword (write 以后/之后 for 'after', 白后/黑后/的后 for the queen):\n" + \
        "\n".join(found)


def test_both_converters_give_the_same_traditional_text() -> None:
    pytest.importorskip("opencc")
    pytest.importorskip("opencc_purepy")
    differ = [f"{where}: {i18n.to_traditional(text, engine='c')} | "
              f"{i18n.to_traditional(text, engine='python')}" for where, text in TEXTS
              if i18n.to_traditional(text, engine="c") != i18n.to_traditional(text,
                                                                              engine="python")]
    assert not differ, "\n".join(differ)


def test_traditional_queen_is_hou() -> None:
    for where, text in TEXTS:
        converted = i18n.to_traditional(text)
        assert "白後" not in converted and "黑後" not in converted, where
        assert "後翼" not in converted and "後兵開局" not in converted, where


def test_traditional_text_uses_taiwan_characters() -> None:
    """OpenCC reads 一个中心兵 as 一 + 个中 ("therein"), giving 一箇中心兵 (Taiwan writes 個),
    棋钟 as 棋鍾 (a surname; a clock is 鐘), 盘上复习 as 盤上覆習 (review is 複習) and leaves
    练习本里 as 練習本里 (inside is 裡; 里 only in 西西里): reword such texts."""
    found = [f"{where}: {word}" for where, text in TEXTS for word in ("箇", "鍾", "覆習", "里")
             if word in i18n.to_traditional(text).replace("西西里", "")]
    assert not found, found


# Words the course does not use, and the word it uses instead.
NOT_OUR_WORDS = {
    "两步杀": "二步杀", "傻瓜将杀": "愚人杀", "傻瓜将死": "愚人杀", "中战术": "中计",
    "后翼弃兵拒绝变例": "拒后翼弃兵", "到现在都对": "前面都写对了", "走快一点": "用更少的步数",
    "救回这盘棋": "保住和棋", "跳过的那一格": "经过的那一格", "两个大子": "两个比它值钱的子",
    "才算输": "算输", "规则书上说": "(say the rule itself)", "资料上说": "(say the fact itself)",
    "discovered_check": "闪将", "安静的棋": "静着",
}


@pytest.mark.parametrize(("word", "ours"), NOT_OUR_WORDS.items())
def test_course_terms(word: str, ours: str) -> None:
    assert not [where for where, text in TEXTS if word in text], f"write {ours}"


def test_no_space_after_a_chinese_full_stop() -> None:
    stray = [where for where, text in TEXTS if re.search(r"[。，；：！？](\*\*)? +[^\s|]", text)]
    assert not stray, stray


WIDE = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef“”]")
BLOCK = re.compile(r"\s*([-*+] |\d+\. |\||#|```|:::|\+\+\+|<)")


def _soft_breaks(lines: list[str]) -> list[int]:
    """Line numbers where a Chinese paragraph goes on on the next line: Markdown shows a space."""
    found, chinese, code = [], False, False
    for number, (line, after) in enumerate(zip(lines, lines[1:], strict=False), 1):
        code = code != line.startswith("```")
        if line.startswith(":::"):
            chinese = line.strip() == "::: zh"
        quote = line.startswith(">")
        text, rest = (line[1:], after[1:]) if quote else (line, after)
        if (not chinese or code or not text.strip() or not rest.strip() or line.endswith("  ")
                or quote != after.startswith(">") or BLOCK.match(rest)
                or text.lstrip().startswith(("|", "#", "```", "<", ":::"))):
            continue
        if WIDE.match(text.rstrip()[-1:]) or WIDE.match(rest.lstrip()[:1]):
            found.append(number)
    return found


@pytest.mark.parametrize("path", sorted(LESSONS.glob("*.md")), ids=lambda p: p.stem)
def test_chinese_paragraphs_are_one_line(path: Path) -> None:
    """A line break inside a Chinese paragraph shows as a stray space ("。 下一句")."""
    assert not _soft_breaks(path.read_text(encoding="utf-8").splitlines())


# Mainland words and forms that Taiwan writes otherwise (the table in locale/zh-Hant/
# language.toml replaces them after OpenCC): none may reach a Traditional text.
MAINLAND = ("國際象棋", "“", "”", "U 盤", "U盤", "回車", "同桌", "提交", "練習本", "通過閱讀",
            "本后", "完后", "單元格", "反饋", "構建")
TAIWAN_TOO = {"后", "划"}
"""Characters OpenCC changes alone that Taiwan writes too: 后 the queen, 划 in 划算."""


def _traditional_texts() -> Iterator[tuple[str, str]]:
    """(where, text) of every zh-Hant text: the converted locale, bank, lesson and opening
    texts, and the Markdown of every zh-Hant notebook the builder writes."""
    for where, text in TEXTS:
        yield where, i18n.to_traditional(text)
    for source in lesson_sources(LESSONS.parents[1]):
        lesson = read_lesson(source)
        for build in (lesson_notebook, exercise_notebook):
            for cell in build(lesson, "zh-Hant").cells:
                yield f"{build.__name__} {lesson.number:02d}", cell.source


def test_traditional_texts_have_no_mainland_words_or_simplified_characters() -> None:
    found = [f"{where}: {word}" for where, text in _traditional_texts() for word in MAINLAND
             if word in text]
    simplified = sorted({f"{where}: {char}" for where, text in _traditional_texts()
                         for char in set(CJK.findall(text.replace("西西里", ""))) - TAIWAN_TOO
                         if i18n.to_traditional(char) != char})
    assert not found, found
    assert not simplified, simplified


def _bold_that_stays_stars(text: str) -> list[str]:
    """``**...**`` spans that Markdown leaves as stars: a span ending with a punctuation mark
    closes only before a space or punctuation (CommonMark's flanking rule), e.g. ``**注意：**看``
    shows its stars while ``**注意**：看`` is bold.

    >>> _bold_that_stays_stars("**注意：**看"), _bold_that_stays_stars("**注意**：看")
    (['**注意：**看'], [])
    """
    def punctuation(char: str) -> bool:
        return unicodedata.category(char).startswith(("P", "S"))

    stuck = []
    for match in re.finditer(r"\*\*([^*]+?)\*\*", text):
        after = text[match.end():match.end() + 1]
        before = text[match.start() - 1:match.start()] if match.start() else ""
        closes = not punctuation(match.group(1)[-1]) or not after or after.isspace() \
            or punctuation(after)
        opens = not punctuation(match.group(1)[0]) or not before or before.isspace() \
            or punctuation(before)
        if not (closes and opens):
            stuck.append(text[match.start():match.end() + 1])
    return stuck


def test_bold_chinese_text_shows_no_stars() -> None:
    stuck = [(where, span) for where, text in TEXTS for span in _bold_that_stays_stars(text)]
    assert not stuck, stuck
