"""Every locale pair has the same keys and fields; Traditional Chinese is derived correctly."""

import re
import tomllib
from pathlib import Path

import chess
import pytest

from chesskit import i18n

LOCALE = Path(i18n.__file__).parent / "locale"
MODULES = sorted(path.stem for path in (LOCALE / "en").glob("*.toml"))
FIELD = re.compile(r"\{(\w*)\}")


def _load(lang: str, module: str) -> dict[str, object]:
    return tomllib.loads((LOCALE / lang / f"{module}.toml").read_text(encoding="utf-8"))


def _fields(value: object) -> set[str]:
    texts = value if isinstance(value, list) else [value]
    return {name for text in texts for name in FIELD.findall(str(text))}


@pytest.mark.parametrize("module", MODULES)
def test_locale_pairs_match(module: str) -> None:
    english, chinese = _load("en", module), _load("zh-Hans", module)
    assert sorted(english) == sorted(chinese), f"{module}: keys differ"
    for key in english:
        assert _fields(english[key]) == _fields(chinese[key]), f"{module}.{key}: fields differ"


def test_no_hand_written_traditional_files() -> None:
    assert not (LOCALE / "zh-Hant").exists()


@pytest.mark.parametrize(("simplified", "traditional"), [
    ("后", "後"), ("车", "車"), ("马", "馬"), ("将军", "將軍"), ("白后在后面", "白後在後面"),
    ("王车易位", "王車易位"), ("长将", "長將"), ("皇后", "皇后"),
])
def test_chess_characters_are_pinned(simplified: str, traditional: str) -> None:
    assert i18n.to_traditional(simplified) == traditional


def test_language_names() -> None:
    assert i18n.normalize_language("zh_CN.UTF-8") == "zh-Hans"
    assert i18n.normalize_language("zh-TW") == "zh-Hant"
    assert i18n.normalize_language("en_GB") == "en"
    with pytest.raises(ValueError, match="Unknown language"):
        i18n.normalize_language("klingon")


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
    assert i18n.piece_on(chess.QUEEN, chess.D8, color=chess.BLACK, lang="zh-Hant") == "d8的黑後"
    assert i18n.t("core.side_to_move", side="black", lang="en") == "Black to move."
    assert i18n.localize({"en": "Rook", "zh": "车"}, lang="zh-Hant") == "車"
    assert i18n.join_words(["e4", "d5", "c6"], lang="en") == "e4, d5 and c6"
