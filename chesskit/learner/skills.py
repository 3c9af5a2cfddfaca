"""The skills of the course: a fixed list, and the skills each exercise practises.

An exercise's skills come from its goal (a fork, a pin, castling ...), its kind (a mate in 2 is
a ``line`` with ``mate_in = 2``) and its topic (the piece, the lesson's idea); the first skill
is the main one. An exercise about the course itself practises no skill.

>>> from chesskit.exercises import Exercise
>>> skills_of(Exercise(id="23.01", lesson=23, kind="move", goal="fork", topic="fork",
...                    fen="6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"))
('fork',)
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from statistics import median

import chess

from chesskit.exercises import Exercise, catalog
from chesskit.i18n import t

SKILLS = (
    "board", "rook", "bishop", "queen", "king", "knight", "pawn", "promotion", "en_passant",
    "castling", "capture", "protection", "check", "escape_check", "mate_in_1", "mate_in_2",
    "basic_mates", "stalemate", "notation", "opening", "fork", "pin", "skewer",
    "discovered_attack", "double_check", "perpetual", "passed_pawn", "ratings",
    # the second part (lessons 30-35)
    "decoy", "deflection", "removing_the_defender", "interference", "clearance",
    "in_between_move", "zugzwang", "king_attack", "strategy",
)
"""In the order of the course; each has a name ``learner.skill_<name>`` in the locale files."""

_BY_GOAL = {"fork": "fork", "pin": "pin", "skewer": "skewer",
            "discovered_attack": "discovered_attack", "double_check": "double_check",
            "en_passant": "en_passant", "castle": "castling", "promote": "promotion",
            "perpetual": "perpetual", "stalemate": "stalemate", "check": "check",
            "escape_check": "escape_check"}
_BY_TOPIC = {"coordinates": "board", "rook": "rook", "bishop": "bishop", "queen": "queen",
             "king": "king", "knight": "knight", "pawn": "pawn", "promotion": "promotion",
             "en_passant": "en_passant", "castling": "castling", "capture": "capture",
             "attack": "capture", "values": "capture", "material": "capture",
             "legal_moves": "capture", "counter_attack": "capture", "protection": "protection",
             "defence": "protection", "check": "check", "checkmate": "mate_in_1",
             "mate": "mate_in_1", "back_rank": "mate_in_1", "smothered": "mate_in_1",
             "stalemate": "stalemate", "draw": "stalemate", "notation": "notation",
             "opening": "opening", "fork": "fork", "pin": "pin", "skewer": "skewer",
             "discovered_attack": "discovered_attack", "discovered_check": "discovered_attack",
             "double_check": "double_check", "perpetual": "perpetual",
             "passed_pawn": "passed_pawn", "rating": "ratings", "scoring": "ratings",
             # the sub-topics of issue 24, each in its lesson's skill
             "mutual_attack": "capture", "trapped_piece": "capture",
             "repeated_attack": "capture", "relative_pin": "pin",
             "mutual_protection": "protection", "making_passed_pawn": "passed_pawn",
             "draw_agreement": "stalemate", "touch_move": "stalemate",
             "seventh_rank_mate": "mate_in_1", "titles": "ratings",
             # the second part: its tactics, attacking the king, strategy words
             "decoy": "decoy", "deflection": "deflection",
             "removing_the_defender": "removing_the_defender", "interference": "interference",
             "clearance": "clearance", "in_between_move": "in_between_move",
             "zugzwang": "zugzwang", "seventh_rank": "king_attack", "pawn_cover": "king_attack",
             "forced_exchange": "king_attack", "the_exchange": "strategy",
             "bishop_pair": "strategy", "gambit": "strategy", "pawn_chain": "strategy",
             "backward_pawn": "strategy", "space": "strategy"}
_PIECE_SKILL = {"R": "rook", "B": "bishop", "Q": "queen", "K": "king", "N": "knight",
                "P": "pawn"}


def _route_piece(ex: Exercise) -> str | None:
    """The piece a ``route`` item moves (the one on its ``square``)."""
    try:
        piece = ex.board().piece_at(chess.parse_square(str(ex.data.get("square", "")).lower()))
    except ValueError:
        return None
    return _PIECE_SKILL.get(piece.symbol().upper()) if piece else None


def skills_of(ex: Exercise) -> tuple[str, ...]:
    """The skills ``ex`` practises, the main one first; () for an item about the course."""
    found: list[str | None] = []
    mate_in = ex.data.get("mate_in")
    if ex.kind == "line" and isinstance(mate_in, int):
        found.append("mate_in_1" if mate_in <= 1 else "mate_in_2")
    elif ex.kind == "move" and ex.goal == "mate":
        found.append("mate_in_1")
    found.append(_BY_GOAL.get(ex.goal))
    if ex.topic.startswith("mate_") and ex.topic != "mate_in_1":
        found.append("basic_mates")  # the mates with a queen or rooks against a lone king
    elif ex.kind == "route":
        found.append(_route_piece(ex))
    elif ex.kind == "playout":
        found.append("basic_mates")
    found.append(_BY_TOPIC.get(ex.topic))
    return tuple(dict.fromkeys(s for s in found if s))


@functools.lru_cache(maxsize=2)
def _bank_skills(folder: str) -> dict[str, tuple[str, ...]]:
    return {ex.id: skills_of(ex) for ex in catalog.bank()}


def bank_skills() -> Mapping[str, tuple[str, ...]]:
    """Exercise id -> its skills, for the whole bank (computed once per bank folder)."""
    return _bank_skills(str(catalog.bank_dir()))


def skill_name(skill: str, *, lang: str | None = None) -> str:
    """The skill's name for a child ("Forks", "捉双").

    >>> skill_name("fork", lang="en")
    'Forks'
    """
    return t(f"learner.skill_{skill}", lang=lang)


def find_skill(text: str) -> str | None:
    """The skill a child named: its key ("fork"), or its name in a language ("Forks").

    >>> find_skill("Forks"), find_skill("mate in 1"), find_skill("chess")
    ('fork', 'mate_in_1', None)
    """
    wanted = " ".join(text.replace("_", " ").split()).casefold()
    for skill in SKILLS:
        names = {skill.replace("_", " ")} | {
            skill_name(skill, lang=lang).casefold() for lang in ("en", "zh-Hans", "zh-Hant")}
        if wanted in names or wanted.rstrip("s") == skill.replace("_", " "):
            return skill
    return None


@functools.lru_cache(maxsize=2)
def _typical(folder: str) -> dict[str, float]:
    found: dict[str, list[int]] = {}
    for ex in catalog.bank():
        for skill in bank_skills().get(ex.id, ()):
            found.setdefault(skill, []).append(ex.difficulty)
    return {skill: float(median(values)) for skill, values in found.items()}


def typical_difficulties() -> Mapping[str, float]:
    """Skill -> the median difficulty of the bank's exercises of it: a skill's mastery is the
    chance to solve an exercise this hard (800 for a skill without any)."""
    return _typical(str(catalog.bank_dir()))


def typical_difficulty(skill: str) -> float:
    """The median difficulty of the bank's exercises of a skill (800 for a skill without any).

    >>> typical_difficulty("no such skill")
    800.0
    """
    return typical_difficulties().get(skill, 800.0)
