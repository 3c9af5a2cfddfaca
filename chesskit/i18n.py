"""Three languages for every learner-facing text: English, Simplified and Traditional Chinese.

Texts live in ``chesskit/locale/<lang>/<module>.toml`` as ``key = "template"``; a key is named
``"module.key"``.  English and Simplified Chinese are written by hand; Traditional Chinese is
derived from Simplified with OpenCC (``s2twp``: Taiwan wording), never maintained twice.

The queen is 后 in both scripts (皇后; 後 means "behind, after"), so a Simplified 后 is the queen
unless it is part of a word that means "after" or "behind" (以后, 后面, 最后, 落后, ...):
``to_traditional`` writes 後 only there.  A 后 that a reader could take either way ("走了后就丢了")
is found by ``ambiguous_queens`` and reworded in the Simplified text.

>>> t("core.white", lang="zh-Hant")
'白方'
"""

from __future__ import annotations

import functools
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from importlib import resources

import chess

from chesskit.errors import LanguageError

LANGUAGES = ("en", "zh-Hans", "zh-Hant")
_ALIASES = {
    "en": "en", "english": "en", "en-us": "en", "en-gb": "en",
    "zh": "zh-Hans", "zh-hans": "zh-Hans", "zh-cn": "zh-Hans", "zh-sg": "zh-Hans",
    "zh-hant": "zh-Hant", "zh-tw": "zh-Hant", "zh-hk": "zh-Hant", "zh-mo": "zh-Hant",
}
_current: str | None = None
_LOWER_WORD = re.compile(r"[a-z]+\b")


def normalize_language(lang: str) -> str:
    """The canonical code for a language name such as ``"zh_CN"`` or ``"zh-TW"``.

    >>> normalize_language("zh_TW.UTF-8")
    'zh-Hant'
    """
    if not isinstance(lang, str):
        raise LanguageError(
            f"A language is a text like 'en', 'zh-Hans' or 'zh-Hant', not {lang!r}.")
    key = lang.split(".")[0].replace("_", "-").strip().lower()
    if key in _ALIASES:
        return _ALIASES[key]
    if key.startswith("zh-hant") or key.startswith("zh-tw") or key.startswith("zh-hk"):
        return "zh-Hant"
    if key.startswith("zh"):
        return "zh-Hans"
    if key.startswith("en"):
        return "en"
    raise LanguageError(f"Unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}.")


def _language_from_environment() -> str:
    for name in ("CHESSKIT_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name, "")
        if value and value not in ("C", "POSIX") and not value.startswith("C."):
            try:
                return normalize_language(value)
            except LanguageError:
                continue
    return "en"


def set_language(lang: str) -> None:
    """Choose the language of every later message: ``"en"``, ``"zh-Hans"`` or ``"zh-Hant"``."""
    global _current
    _current = normalize_language(lang)


def get_language(lang: str | None = None) -> str:
    """The language to use: ``lang`` if given, else the one set, else the environment's."""
    if lang is not None:
        return normalize_language(lang)
    return _current if _current is not None else _language_from_environment()


# Words in which 后 means "after" or "behind"; every other 后 is the queen.
AFTER_WORDS = (
    "一前一后", "以后", "之后", "然后", "最后", "随后", "此后", "今后", "往后", "过后", "稍后",
    "事后", "日后", "落后", "身后", "背后", "前后", "后面", "后边", "后头", "后方", "后排",
    "后退", "后撤", "后来", "后悔", "后者", "后续", "后果", "后子",
)
_AFTER = re.compile("|".join(sorted(AFTER_WORDS, key=len, reverse=True)))
_QUEEN_MARK = "\ue000"  # stands for the queen's 后 while OpenCC converts the rest
# Where OpenCC's Taiwan phrases read wrong or its two implementations disagree.
_TAIWAN_FIXES = (("開啟", "打開"), ("隻有", "只有"))
# Lone 后 (the queen) right after these reads as "after ..." ("走了后", "易位后", "d5后").
_AFTER_A_DEED = re.compile(r"[了完位题天步次局变A-Za-z0-9+#)）]")
_QUEEN_BEFORE = ("白", "黑", "的")
_CLAUSE = re.compile(r"[，。；：！？、（）()“”\"「」\n|]")


def _after_spans(text: str) -> set[int]:
    """The indices of the 后 characters in ``text`` that mean "after" or "behind"."""
    return {match.start() + match.group().index("后") for match in _AFTER.finditer(text)}


def ambiguous_queens(text: str) -> list[str]:
    """The places in a Simplified text where 后 reads as the queen and as "after" alike.

    Such a text must be reworded: Traditional Chinese writes the two differently (后 / 後).

    >>> ambiguous_queens("马可以走，但走了后就丢了。")
    ['走了后就丢']
    >>> ambiguous_queens("马一走，d8的后就丢了。以后再说。")
    []
    """
    found = []
    for clause in _CLAUSE.split(text):
        after = _after_spans(clause)
        queens = [i for i, ch in enumerate(clause) if ch == "后" and i not in after]
        for i in queens:
            before, next_ = clause[i - 1:i], clause[i + 1:i + 2]
            if (_AFTER_A_DEED.fullmatch(before) or next_ == "后"
                    or (next_ in ("就", "再", "才", "便", "又") and before not in _QUEEN_BEFORE)
                    or after):
                found.append(clause[max(0, i - 2):i + 3])
        for i in after:
            if clause.startswith("后", i) and clause[i - 1:i] in ("白", "黑", "和", "或", "与"):
                found.append(clause[max(0, i - 2):i + 3])
    return found


@functools.lru_cache(maxsize=2)
def _engine(engine: str) -> Callable[[str], str]:
    """OpenCC s2twp: "c" the C extension (package opencc), else the pure-Python opencc-purepy."""
    if engine == "c":
        import opencc

        return opencc.OpenCC("s2twp").convert
    from opencc_purepy import OpenCC

    return OpenCC("s2twp").convert


@functools.lru_cache(maxsize=1)
def _default_engine() -> str:
    """"c" (OpenCC's C extension) where it loads, else "python" (opencc-purepy, e.g. Pyodide)."""
    try:
        _engine("c")
    except (ImportError, OSError):
        return "python"
    return "c"


@functools.lru_cache(maxsize=4096)
def to_traditional(text: str, *, engine: str | None = None) -> str:
    """Traditional Chinese (Taiwan) for a Simplified text: 后 stays the queen, 後 is "after".

    ``engine`` is "c" or "python" (both give the same text); by default the C one if it loads.

    >>> to_traditional("后车杀王以后，运行代码")
    '后車殺王以後，執行程式碼'
    """
    after = _after_spans(text)
    marked = "".join(("後" if i in after else _QUEEN_MARK) if ch == "后" else ch
                     for i, ch in enumerate(text))
    result = _engine(engine or _default_engine())(marked).replace(_QUEEN_MARK, "后")
    for wrong, right in _TAIWAN_FIXES:
        result = result.replace(wrong, right)
    return result


@functools.cache
def _catalogue(lang: str, module: str) -> Mapping[str, object]:
    path = resources.files("chesskit") / "locale" / lang / f"{module}.toml"
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}


def _template(key: str, lang: str) -> object | None:
    module, _, name = key.partition(".")
    if lang == "zh-Hant":
        value = _template(key, "zh-Hans")
        if isinstance(value, str):
            return to_traditional(value)
        if isinstance(value, list):
            return [to_traditional(v) for v in value]
        return value
    return _catalogue(lang, module).get(name)


def t(key: str, *, lang: str | None = None, **fields: object) -> str:
    """The text for ``key`` ("module.name") in the language, with ``{fields}`` filled in.

    An English sentence (a template ending in . ! or ?) that starts with a field gets a capital
    first letter when the field starts with a word ("the bishop ..."), never a move or square
    ("exd6 ...").

    >>> t("core.side_to_move", side="white", lang="en")
    'White to move.'
    """
    code = get_language(lang)
    value = _template(key, code)
    if not isinstance(value, str):
        value = _template(key, "en")
    if not isinstance(value, str):
        return key
    text = value.format(**fields) if fields else value
    if code == "en" and value[:1] == "{" and value.rstrip()[-1:] in ".!?" \
            and _LOWER_WORD.match(text):
        text = text[0].upper() + text[1:]
    return text


def localize(value: str | Mapping[str, str], *, lang: str | None = None) -> str:
    """Pick one language out of ``{"en": ..., "zh": ...}`` (zh-Hant derived); a str passes through.

    >>> localize({"en": "Castling", "zh": "王车易位"}, lang="zh-Hant")
    '王車易位'
    """
    if isinstance(value, str):
        return value
    code = get_language(lang)
    hans = value.get("zh-Hans", value.get("zh"))
    if code == "zh-Hant":
        if "zh-Hant" in value:
            return value["zh-Hant"]
        if hans is not None:
            return to_traditional(hans)
    if code == "zh-Hans" and hans is not None:
        return hans
    return value.get("en", next(iter(value.values()), ""))


def color_name(color: chess.Color, *, lang: str | None = None) -> str:
    """ "white" / "black" ("白方" / "黑方" in Chinese)."""
    return t("core.white" if color else "core.black", lang=lang)


def piece_name(piece_type: chess.PieceType, *, color: chess.Color | None = None,
               lang: str | None = None) -> str:
    """The name of a piece: ``"knight"``, ``"white knight"``, ``"马"``, ``"白马"``.

    >>> piece_name(chess.KNIGHT, color=chess.WHITE, lang="zh-Hans")
    '白马'
    """
    name = t(f"core.{chess.piece_name(piece_type)}", lang=lang)
    if color is None:
        return name
    return t("core.colored_piece", lang=lang,
             color=t("core.white_adj" if color else "core.black_adj", lang=lang), piece=name)


def piece_on(piece_type: chess.PieceType, square: chess.Square, *,
             color: chess.Color | None = None, lang: str | None = None) -> str:
    """A piece on its square as a sentence part: ``"the bishop on c1"`` / ``"c1的象"``.

    >>> piece_on(chess.BISHOP, chess.C1, lang="en")
    'the bishop on c1'
    """
    return t("core.piece_on", lang=lang, piece=piece_name(piece_type, color=color, lang=lang),
             square=chess.square_name(square))


def join_words(items: list[str], *, lang: str | None = None) -> str:
    """``"a, b and c"`` / ``"a、b和c"``."""
    if len(items) <= 1:
        return "".join(items)
    sep = t("core.list_sep", lang=lang)
    return t("core.list_and", lang=lang, first=sep.join(items[:-1]), last=items[-1])
