"""Text on boards and pages: the font, how wide a text is and where it breaks into lines.

A Chinese character is one em wide, anything else about half; Chinese breaks between any two
characters (a closing punctuation mark stays with the character before it), English between
words.

>>> wrap("Find the mate in one move.", width=6)
['Find the', 'mate in', 'one move.']
>>> wrap("白先走，一步杀。", width=4)
['白先走，', '一步杀。']
"""

from __future__ import annotations

import re

from chesskit.i18n import get_language

FONT_FAMILY = "Noto Sans CJK SC"
"""The font every chesskit SVG names first: cairosvg uses only the first family it is given."""
_FONTS = {"zh-Hant": "Noto Sans CJK TC"}
"""Languages set in another face of the same font: Traditional Chinese in its own glyph forms."""


def font_family(lang: str | None = None) -> str:
    """The font of texts in ``lang`` (the current language by default).

    >>> font_family("zh-Hant"), font_family("zh-Hans"), font_family("en")
    ('Noto Sans CJK TC', 'Noto Sans CJK SC', 'Noto Sans CJK SC')
    """
    return _FONTS.get(get_language(lang), FONT_FAMILY)
_CJK = 0x2E80
_TOKENS = re.compile(r"[\u2e80-\uffff][，。、；：！？）」』]*|[^\s\u2e80-\uffff]+|\s+")


def ems(text: str) -> float:
    """The width of ``text`` in ems: CJK characters are one em, others about half.

    >>> ems("e4"), ems("白后")
    (1.1, 2.0)
    """
    return sum(1.0 if ord(char) > _CJK else 0.55 for char in text)


def wrap(text: str, *, width: float) -> list[str]:
    """Lines of at most ``width`` ems (a single longer word stays whole), paragraph by paragraph.

    >>> wrap("one\\n\\ntwo", width=10)
    ['one', 'two']
    """
    lines: list[str] = []
    for paragraph in text.splitlines():
        line = ""
        for token in _TOKENS.findall(paragraph):
            if line.strip() and ems((line + token).rstrip()) > width:
                lines.append(line.rstrip())
                line = token.lstrip()
            else:
                line += token
        if line.strip():
            lines.append(line.strip())
    return lines

