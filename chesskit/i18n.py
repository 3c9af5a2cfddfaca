"""Every learner-facing text in every language of the course; the languages are data.

A language is a folder ``chesskit/locale/<code>/``: its ``language.toml`` (its name, the key of
its blocks in lesson sources and the bank, the locale names that mean it, and for a derived
language what it is derived from and how) and one ``<module>.toml`` per module, holding
``key = "template"``; a key is named ``"module.key"``.  ``languages()`` lists the folders.
English and Simplified Chinese are written by hand; Traditional Chinese is derived from
Simplified with OpenCC (``s2twp``: Taiwan wording), never maintained twice.

The queen is 后 in both scripts (皇后; 後 means "behind, after"), so a Simplified 后 is the queen
unless it is part of a word that means "after" or "behind" (以后, 后面, 最后, 落后, ...):
``to_traditional`` writes 後 only there.  A 后 that a reader could take either way ("走了后就丢了")
is found by ``ambiguous_queens`` and reworded in the Simplified text.

>>> t("core.white", lang="zh-Hant")
'白方'
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable

import chess

from chesskit.errors import LanguageError

FALLBACK = "en"
"""The language every text exists in; a text missing in another language is shown in it."""
_current: str | None = None
_LOWER_WORD = re.compile(r"[a-z]+\b")


@dataclass(frozen=True)
class Language:
    """One language of the course, as ``chesskit/locale/<code>/language.toml`` describes it.

    >>> language("zh-Hans").block, language("zh_TW").derived_from
    ('zh', 'zh-Hans')
    """

    code: str  # the folder's name: "zh-Hans"
    name: str  # its name in itself: "简体中文"
    block: str  # the key of its texts in lesson sources and the bank: "zh"
    locales: tuple[str, ...]  # locale names that start with one of these mean it: ("zh",)
    capitalize: bool = False  # a sentence that starts with a field gets a capital letter
    derived_from: str | None = None  # converted from this language's texts, never written
    opencc: str = ""  # how: the OpenCC configuration ("s2twp")
    fixes: tuple[tuple[str, str], ...] = ()  # then these (wrong, right) replacements


def _locale_dir() -> Traversable:
    return resources.files("chesskit") / "locale"


def _read_language(code: str, text: str) -> Language:
    """The Language of one ``language.toml``; LanguageError names the file and what is wrong."""
    where = f"locale/{code}/language.toml"
    try:
        doc = tomllib.loads(text)
        derived = doc.get("derived", {})
        spec = Language(
            code=code, name=str(doc["name"]), block=str(doc.get("block", code)),
            locales=tuple(str(p).lower() for p in doc.get("locales", [code])),
            capitalize=doc.get("capitalize", False) is True,
            derived_from=str(derived["from"]) if derived else None,
            opencc=str(derived["opencc"]) if derived else "",
            fixes=tuple((str(wrong), str(right)) for wrong, right in derived.get("fixes", ())))
    except tomllib.TOMLDecodeError as error:
        raise LanguageError(f"{where}: {error}.") from None
    except KeyError as error:
        raise LanguageError(f"{where}: the field {error} is missing.") from None
    except (TypeError, ValueError, AttributeError) as error:
        raise LanguageError(f"{where}: {error}.") from None
    return spec


@functools.cache
def _languages() -> dict[str, Language]:
    found = {}
    for folder in sorted(_locale_dir().iterdir(), key=lambda f: f.name):
        path = folder / "language.toml"
        if path.is_file():
            found[folder.name] = _read_language(folder.name, path.read_text(encoding="utf-8"))
    written = {code for code, spec in found.items() if spec.derived_from is None}
    for spec in found.values():
        if spec.derived_from is not None and spec.derived_from not in written:
            raise LanguageError(f"locale/{spec.code}/language.toml: derived from "
                                f"{spec.derived_from!r}, which is not a written language.")
    return found


def languages(*, written: bool = False) -> tuple[str, ...]:
    """The codes of every language of the course: the folders of ``chesskit/locale``, sorted;
    with ``written=True`` only those written by hand (not derived), which have blocks.

    >>> languages(), languages(written=True)
    (('en', 'zh-Hans', 'zh-Hant'), ('en', 'zh-Hans'))
    """
    return tuple(code for code, spec in _languages().items()
                 if not written or spec.derived_from is None)


def language(lang: str | None = None) -> Language:
    """A language's description (the current language by default; any name of it works).

    >>> language("zh_CN.UTF-8").name
    '简体中文'
    """
    return _languages()[get_language(lang)]


def normalize_language(lang: str) -> str:
    """The code of a language named such as ``"zh_CN"`` or ``"zh-TW"``: the language whose
    ``locales`` (or code) is the longest start of the name.

    >>> normalize_language("zh_TW.UTF-8")
    'zh-Hant'
    """
    if isinstance(lang, str) and lang in _languages():
        return lang
    codes = languages()
    if not isinstance(lang, str):
        named = ", ".join(repr(code) for code in codes[:-1]) + f" or {codes[-1]!r}"
        raise LanguageError(f"A language is a text like {named}, not {lang!r}.")
    key = lang.split(".")[0].replace("_", "-").strip().lower()
    matches = [(len(start), code) for code, spec in _languages().items()
               for start in (code.lower(), *spec.locales) if key.startswith(start)]
    if not matches:
        raise LanguageError(f"Unknown language {lang!r}: choose one of {', '.join(codes)}.")
    return max(matches)[1]


def _language_from_environment() -> str:
    for name in ("CHESSKIT_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name, "")
        if value and value not in ("C", "POSIX") and not value.startswith("C."):
            try:
                return normalize_language(value)
            except LanguageError:
                continue
    return FALLBACK


def set_language(lang: str) -> None:
    """Choose the language of every later message: one of ``languages()``, e.g. ``"zh-Hans"``."""
    global _current
    _current = normalize_language(lang)


@contextlib.contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Every message in ``lang`` for the time of a ``with`` block, then the language before.

    >>> with speaking("zh-Hans"):
    ...     t("core.white")
    '白方'
    """
    global _current
    before = _current
    set_language(lang)
    try:
        yield
    finally:
        _current = before


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


@functools.lru_cache(maxsize=8)
def _engine(engine: str, config: str) -> Callable[[str], str]:
    """OpenCC with ``config`` ("s2twp"): "c" the C extension (package opencc), else the
    pure-Python opencc-purepy."""
    if engine == "c":
        import opencc  # noqa: PLC0415 (optional: the C extension, absent in a browser)

        return opencc.OpenCC(config).convert
    from opencc_purepy import OpenCC  # noqa: PLC0415 (loaded only when opencc is missing)

    return OpenCC(config).convert


@functools.lru_cache(maxsize=4)
def _default_engine(config: str) -> str:
    """"c" (OpenCC's C extension) where it loads, else "python" (opencc-purepy, e.g. Pyodide)."""
    try:
        _engine("c", config)
    except (ImportError, OSError):
        return "python"
    return "c"


@functools.lru_cache(maxsize=4096)
def to_traditional(text: str, *, lang: str = "zh-Hant", engine: str | None = None) -> str:
    """The text of a derived language (Traditional Chinese) from its source's Simplified text:
    OpenCC as its ``language.toml`` says, then its fixes; 后 stays the queen, 後 is "after".

    ``engine`` is "c" or "python" (both give the same text); by default the C one if it loads.

    >>> to_traditional("后车杀王以后，运行代码")
    '后車殺王以後，執行程式碼'
    """
    spec = language(lang)
    after = _after_spans(text)
    marked = "".join(("後" if i in after else _QUEEN_MARK) if ch == "后" else ch
                     for i, ch in enumerate(text))
    convert = _engine(engine or _default_engine(spec.opencc), spec.opencc)
    result = convert(marked).replace(_QUEEN_MARK, "后")
    for wrong, right in spec.fixes:
        result = result.replace(wrong, right)
    return result


@functools.cache
def _catalogue(lang: str, module: str) -> Mapping[str, object]:
    path = _locale_dir() / lang / f"{module}.toml"
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}


def _template(key: str, spec: Language) -> object | None:
    if spec.derived_from is not None:
        value = _template(key, _languages()[spec.derived_from])
        if isinstance(value, str):
            return to_traditional(value, lang=spec.code)
        if isinstance(value, list):
            return [to_traditional(v, lang=spec.code) for v in value]
        return value
    module, _, name = key.partition(".")
    return _catalogue(spec.code, module).get(name)


def t(key: str, *, lang: str | None = None, **fields: object) -> str:
    """The text for ``key`` ("module.name") in the language, with ``{fields}`` filled in.

    In a language with ``capitalize`` (English), a sentence (a template ending in . ! or ?)
    that starts with a field gets a capital first letter when the field starts with a word
    ("the bishop ..."), never a move or square ("exd6 ...").

    >>> t("core.side_to_move", side="white", lang="en")
    'White to move.'
    """
    spec = language(lang)
    value = _template(key, spec)
    if not isinstance(value, str):
        value = _template(key, _languages()[FALLBACK])
    if not isinstance(value, str):
        return key
    text = value.format(**fields) if fields else value
    if spec.capitalize and value[:1] == "{" and value.rstrip()[-1:] in ".!?" \
            and _LOWER_WORD.match(text):
        text = text[0].upper() + text[1:]
    return text


def _pick(value: Mapping[str, str], spec: Language) -> str | None:
    """The text of a language in ``value`` (by its code or block key, else derived)."""
    for key in (spec.code, spec.block):
        if key in value:
            return value[key]
    if spec.derived_from is None:
        return None
    source = _pick(value, _languages()[spec.derived_from])
    return None if source is None else to_traditional(source, lang=spec.code)


def localize(value: str | Mapping[str, str], *, lang: str | None = None) -> str:
    """Pick one language out of ``{"en": ..., "zh": ...}`` (keys: each language's ``block``;
    a derived language is converted from its source); a str passes through.

    >>> localize({"en": "Castling", "zh": "王车易位"}, lang="zh-Hant")
    '王車易位'
    """
    if isinstance(value, str):
        return value
    found = _pick(value, language(lang))
    return found if found is not None else value.get(FALLBACK, next(iter(value.values()), ""))


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


_SENTENCE_ENDS = ("。", "！", "？", "；", "：", "…", ".", "!", "?", ";", ":")


def sentences(*parts: str, lang: str | None = None) -> str:
    """Sentences one after the other, the language's way (a space between them in English,
    none in Chinese, where a part with no end mark gets a 。 so it does not run on into the next);
    empty parts are left out.

    >>> sentences("意大利开局：1. e4 e5", "将死！黑方胜。", "", lang="zh-Hans")
    '意大利开局：1. e4 e5。将死！黑方胜。'
    """
    end = t("core.sentence_end", lang=lang)
    kept = [part for part in parts if part]
    last = len(kept) - 1
    return t("core.sentence_sep", lang=lang).join(
        part if n == last or not end or part.endswith(_SENTENCE_ENDS) else part + end
        for n, part in enumerate(kept))


def join_words(items: list[str], *, lang: str | None = None) -> str:
    """``"a, b and c"`` / ``"a、b和c"``."""
    if len(items) <= 1:
        return "".join(items)
    sep = t("core.list_sep", lang=lang)
    return t("core.list_and", lang=lang, first=sep.join(items[:-1]), last=items[-1])
