"""Every language's locale files have English's keys and fields; the languages are the locale
folders; Traditional Chinese is derived correctly."""

import builtins
import re
import tomllib
from pathlib import Path

import chess
import pytest

from chesskit import i18n

LOCALE = Path(i18n.__file__).parent / "locale"
MODULES = sorted(path.stem for path in (LOCALE / "en").glob("*.toml") if path.stem != "language")
FIELD = re.compile(r"\{(\w*)\}")


def _load(locale: Path, lang: str, module: str) -> dict[str, object]:
    return tomllib.loads((locale / lang / f"{module}.toml").read_text(encoding="utf-8"))


def _fields(value: object) -> set[str]:
    texts = value if isinstance(value, list) else [value]
    return {name for text in texts for name in FIELD.findall(str(text))}


def mismatches(locale: Path, lang: str, module: str) -> list[str]:
    """How ``lang``'s file of ``module`` differs from the English one in keys and fields."""
    english, other = _load(locale, "en", module), _load(locale, lang, module)
    if sorted(english) != sorted(other):
        return [f"{lang}/{module}: keys differ: {sorted(set(english) ^ set(other))}"]
    return [f"{lang}/{module}.{key}: fields differ" for key in english
            if _fields(english[key]) != _fields(other[key])]


@pytest.mark.parametrize("lang", [code for code in i18n.languages(written=True) if code != "en"])
@pytest.mark.parametrize("module", MODULES)
def test_locale_files_match_english(lang: str, module: str) -> None:
    assert not mismatches(LOCALE, lang, module)


def test_every_language_is_described_and_derived_ones_are_not_written() -> None:
    folders = sorted(path.name for path in LOCALE.iterdir() if path.is_dir())
    assert list(i18n.languages()) == folders
    assert "en" in folders
    names = [i18n.language(code).name for code in i18n.languages()]
    assert all(names) and len(set(names)) == len(names), names
    for code in i18n.languages():
        written = sorted(path.name for path in (LOCALE / code).glob("*.toml"))
        if i18n.language(code).derived_from:
            assert written == ["language.toml"], code
        else:
            assert written == sorted([f"{module}.toml" for module in MODULES]
                                     + ["language.toml"]), code
    assert i18n.language("zh-Hant").derived_from == "zh-Hans"


@pytest.mark.parametrize(("text", "message"), [
    ('block = "x"', "locale/xx/language.toml: the field 'name' is missing."),
    ('name = "X"\n[derived]\nfrom = "en"', "the field 'opencc' is missing."),
    ('name = "X"\nlocales = 3', "locale/xx/language.toml: "),
    ("name = ", "locale/xx/language.toml: "),
])
def test_a_broken_language_file_is_named(text: str, message: str) -> None:
    with pytest.raises(i18n.LanguageError, match=re.escape(message)):
        i18n._read_language("xx", text)  # noqa: SLF001 (the reader of one file, alone)


@pytest.mark.parametrize(("simplified", "traditional"), [
    ("后", "后"), ("车", "車"), ("马", "馬"), ("将军", "將軍"), ("白后在后面", "白后在後面"),
    ("王车易位", "王車易位"), ("长将", "長將"), ("皇后", "皇后"), ("后翼弃兵", "后翼棄兵"),
    ("后兵开局", "后兵開局"), ("黑皇后黑，白皇后白", "黑皇后黑，白皇后白"),
    ("牵制在后或车的前面", "牽制在后或車的前面"), ("之后", "之後"), ("然后", "然後"),
    ("以后", "以後"), ("最后", "最後"), ("后退", "後退"), ("落后兵", "落後兵"),
    ("一前一后", "一前一後"), ("易位以后，后被吃了", "易位以後，后被吃了"),
])
def test_queen_is_hou_and_after_is_hou_behind(simplified: str, traditional: str) -> None:
    """The queen is 后 in Traditional too (皇后); 後 is only "after, behind"."""
    assert i18n.to_traditional(simplified) == traditional


@pytest.mark.parametrize(("simplified", "traditional"), [
    ("运行代码", "執行程式碼"), ("软件", "軟體"), ("打开练习本", "打開練習簿"),
    ("最多只有八个兵", "最多只有八個兵"), ("兵走一步也能打开线路。", "兵走一步也能打開線路。"),
])
def test_taiwan_wording(simplified: str, traditional: str) -> None:
    assert i18n.to_traditional(simplified) == traditional


@pytest.mark.parametrize("text", ["马可以走，但走了后就丢了。", "后面的子是后或车的时候",
                                  "**后就不要再走了**", "白后退到d1", "王易位后", "d7-d5后，"])
def test_ambiguous_queen_is_caught(text: str) -> None:
    assert i18n.ambiguous_queens(text)


@pytest.mark.parametrize("text", ["马一走，d8的后就丢了。", "王车易位以后，白后在d1。",
                                  "就不要再动后了", "被牵制的子身后的子会被吃掉", "升变成后。"])
def test_clear_queen_passes(text: str) -> None:
    assert not i18n.ambiguous_queens(text)


def test_pure_python_converter_is_used_where_the_c_one_cannot_load(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("opencc_purepy")
    real_import = builtins.__import__

    def no_opencc(name: str, *args: object, **kwargs: object) -> object:
        if name == "opencc":
            raise ImportError("no C extension here")
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    i18n._engine.cache_clear()  # noqa: SLF001 (the converters are cached: forget them)
    i18n._default_engine.cache_clear()  # noqa: SLF001
    i18n.to_traditional.cache_clear()
    monkeypatch.setattr(builtins, "__import__", no_opencc)
    try:
        assert i18n._default_engine("s2twp") == "python"  # noqa: SLF001
        assert i18n.to_traditional("白后在后面，运行代码") == "白后在後面，執行程式碼"
    finally:
        monkeypatch.undo()
        i18n._engine.cache_clear()  # noqa: SLF001
        i18n._default_engine.cache_clear()  # noqa: SLF001
        i18n.to_traditional.cache_clear()


def test_language_names() -> None:
    assert i18n.normalize_language("zh_CN.UTF-8") == "zh-Hans"
    assert i18n.normalize_language("zh-TW") == "zh-Hant"
    assert i18n.normalize_language("en_GB") == "en"
    assert [i18n.normalize_language(name) for name in ("english", "zh_HK", "zh-MO", "zh-SG")] \
        == ["en", "zh-Hant", "zh-Hant", "zh-Hans"]
    with pytest.raises(ValueError, match="Unknown language 'klingon': choose one of en, zh-Hans, "
                                         "zh-Hant."):
        i18n.normalize_language("klingon")
    with pytest.raises(ValueError, match="like 'en', 'zh-Hans' or 'zh-Hant', not 7"):
        i18n.normalize_language(7)  # type: ignore[arg-type]


def test_environment_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "_current", None)
    monkeypatch.setenv("CHESSKIT_LANG", "zh_TW")
    assert i18n.get_language() == "zh-Hant"
    monkeypatch.setenv("CHESSKIT_LANG", "")
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    assert i18n.get_language() == "en"


def test_piece_phrases() -> None:
    assert i18n.piece_on(chess.BISHOP, chess.C1, lang="en") == "the bishop on c1"
    assert i18n.piece_on(chess.QUEEN, chess.D8, color=chess.BLACK, lang="zh-Hant") == "d8的黑后"
    assert i18n.t("core.side_to_move", side="black", lang="en") == "Black to move."
    assert i18n.localize({"en": "Rook", "zh": "车"}, lang="zh-Hant") == "車"
    assert i18n.join_words(["e4", "d5", "c6"], lang="en") == "e4, d5 and c6"
