"""Lessons 33-35 (attacking the king, strategy words, the second part's test): every claim of
their bank items proved with python-chess, where each Lichess puzzle comes from, and the engine's
verdict on every move and line item (from the engine cache, filled by ``chesskit check-bank``)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from importlib import resources

import chess
import pytest

from chesskit.exercises import Exercise, bank_engine
from chesskit.exercises.catalog import bank
from chesskit.rules.tactics import motifs
from tests._lichess import NEW_THEMES, puzzle_part, sample

LESSONS = (33, 34, 35)
VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9,
          chess.KING: 0}
ROWS = {row["PuzzleId"]: row for row in sample()}


def items(lesson: int, topic: str | None = None) -> list[Exercise]:
    return list(bank(lesson=lesson, topic=topic))


def puzzle_id(ex: Exercise) -> str:
    return ex.source.removeprefix("lichess:")


def solution(ex: Exercise) -> list[chess.Move]:
    """The learner's side of the Lichess solution: the moves after the opponent's first."""
    return [chess.Move.from_uci(uci) for uci in ROWS[puzzle_id(ex)]["Moves"].split()[1:]]


def relative_rank(square: chess.Square, color: chess.Color) -> int:
    """0 for a side's home rank, 6 for its seventh rank."""
    rank = chess.square_rank(square)
    return rank if color == chess.WHITE else 7 - rank


def material(board: chess.Board, color: chess.Color) -> int:
    """The side's points minus the other side's, counted 1 3 3 5 9."""
    return sum(VALUES[p.piece_type] * (1 if p.color == color else -1)
               for p in board.piece_map().values())


def cover_pawns(board: chess.Board, color: chess.Color) -> chess.SquareSet:
    """The pawns of ``color`` that shield its king: on the king's file or next to it, one or two
    ranks in front of a king on its first two ranks."""
    king = board.king(color)
    assert king is not None
    if relative_rank(king, color) > 1:
        return chess.SquareSet()
    return chess.SquareSet(
        s for s in board.pieces(chess.PAWN, color)
        if abs(chess.square_file(s) - chess.square_file(king)) <= 1
        and 1 <= relative_rank(s, color) - relative_rank(king, color) <= 2)


def forced_exchange(board: chess.Board, move: chess.Move) -> bool:
    """``move`` takes a piece worth as much as the taker, some reply takes back on that square,
    and every reply that does not leaves the mover ahead by the piece taken."""
    taken, taker = board.piece_at(move.to_square), board.piece_at(move.from_square)
    if taken is None or taker is None or VALUES[taken.piece_type] != VALUES[taker.piece_type]:
        return False
    me, before = board.turn, material(board, board.turn)
    after = board.copy()
    after.push(move)
    retakes = False
    for reply in after.legal_moves:
        if reply.to_square == move.to_square:
            retakes = True
            continue
        after.push(reply)
        ahead = material(after, me) >= before + VALUES[taken.piece_type]
        after.pop()
        if not ahead:
            return False
    return retakes


def pawn_defenders(board: chess.Board, square: chess.Square, color: chess.Color) -> bool:
    return bool(board.attackers(color, square) & board.pieces(chess.PAWN, color))


def backward_pawns(board: chess.Board) -> set[chess.Square]:
    """Pawns that no pawn of their side can ever protect (no own pawn on a next file level with
    or behind them) and whose next square an enemy pawn guards."""
    found = set()
    for color in chess.COLORS:
        for square in board.pieces(chess.PAWN, color):
            rank = relative_rank(square, color)
            helpers = [s for s in board.pieces(chess.PAWN, color)
                       if abs(chess.square_file(s) - chess.square_file(square)) == 1
                       and relative_rank(s, color) <= rank]
            front = square + (8 if color == chess.WHITE else -8)
            if not helpers and pawn_defenders(board, front, not color):
                found.add(square)
    return found


def chain_bases(board: chess.Board, color: chess.Color) -> set[chess.Square]:
    """The bases of the pawn chains of ``color`` (three pawns or more protecting each other on
    a diagonal): the pawn of the chain that no pawn protects."""
    pawns = board.pieces(chess.PAWN, color)
    protects = {s: {t for t in board.attacks(s) & pawns} for s in pawns}
    bases = set()
    for square in pawns:
        if pawn_defenders(board, square, color):
            continue
        length, front = 1, protects[square]
        while front:
            length, front = length + 1, set().union(*(protects[s] for s in front))
        if length >= 3:
            bases.add(square)
    return bases


def test_each_attack_on_the_king_has_at_least_twelve_verified_exercises() -> None:
    counts = Counter(ex.topic for ex in items(33))
    assert {t: counts[t] for t in ("seventh_rank", "pawn_cover", "forced_exchange")} == {
        "seventh_rank": 15, "pawn_cover": 17, "forced_exchange": 12}


def test_the_puzzles_are_tuning_puzzles_of_no_other_tactic_and_no_other_lesson() -> None:
    mine = [ex for lesson in LESSONS for ex in items(lesson) if ex.source.startswith("lichess:")]
    ids = [puzzle_id(ex) for ex in mine]
    assert len(ids) == len(set(ids))
    bank_dir = resources.files("chesskit") / "bank"
    others = {pid for entry in bank_dir.iterdir()
              if entry.name.endswith(".toml") and not entry.name.startswith(("33-", "34-", "35-"))
              for pid in re.findall(r'"lichess:(\w+)"', entry.read_text(encoding="utf-8"))}
    for ex in mine:
        row = ROWS[puzzle_id(ex)]
        assert puzzle_part(row["PuzzleId"]) == "tuning", ex.id
        assert not set(row["Themes"].split()) & set(NEW_THEMES), ex.id
        assert row["PuzzleId"] not in others, ex.id
        assert ex.difficulty == int(row["Rating"]), ex.id
        board = chess.Board(row["FEN"])
        board.push_uci(row["Moves"].split()[0])
        assert ex.board().fen() == board.fen(), ex.id


def _mates(board: chess.Board) -> Iterator[chess.Move]:
    for move in board.legal_moves:
        board.push(move)
        if board.is_checkmate():
            yield move
        board.pop()


@pytest.mark.parametrize("ex", items(33, "seventh_rank"), ids=lambda ex: ex.id)
def test_the_seventh_rank_mates_happen_on_the_seventh_rank(ex: Exercise) -> None:
    board, me = ex.board(), ex.board().turn
    for move in solution(ex):
        board.push(move)
    assert ex.kind == "line" and board.is_checkmate()
    last = board.peek()
    assert board.piece_type_at(last.to_square) in (chess.ROOK, chess.QUEEN)
    assert relative_rank(last.to_square, me) == 6
    king = board.king(not me)
    assert king is not None and relative_rank(king, not me) == 0
    assert ex.check(ex.board().san(solution(ex)[0])).correct
    if ex.data["mate_in"] == 1:  # every mate in one of these lands on the seventh rank
        assert all(relative_rank(m.to_square, me) == 6 for m in _mates(ex.board()))


@pytest.mark.parametrize("ex", items(33, "pawn_cover"), ids=lambda ex: ex.id)
def test_breaking_the_cover_takes_a_pawn_of_the_kings_shield(ex: Exercise) -> None:
    board = ex.board()
    first = solution(ex)[0]
    assert first.to_square in cover_pawns(board, not board.turn)
    assert ex.check(board.san(first)).correct
    assert ex.kind == "line" or ex.goal == "win_material"


@pytest.mark.parametrize("ex", items(33, "forced_exchange"), ids=lambda ex: ex.id)
def test_the_exchange_is_forced_against_every_reply(ex: Exercise) -> None:
    board = ex.board()
    first = solution(ex)[0]
    assert forced_exchange(board, first)
    assert ex.check(board.san(first)).correct


def test_the_lesson_board_of_the_forced_exchange_leaves_no_choice() -> None:
    board = chess.Board("8/p7/1p6/5k1p/4q2P/3Q4/PPP5/3K4 b - - 2 31")
    assert forced_exchange(board, board.parse_san("Qxd3+"))
    assert not forced_exchange(board, board.parse_san("Kg6"))  # no trade offered


def test_the_strategy_lesson_counts_from_the_board() -> None:
    for ex in items(34):
        if ex.kind == "count" and ex.data["count"] == "material":
            assert ex.solutions() == [str(material(ex.board(), chess.WHITE))], ex.id
        elif ex.kind == "count":
            square = chess.parse_square(ex.data["square"])
            board = ex.board()
            board.turn = board.color_at(square) is chess.WHITE
            assert ex.solutions() == [str(sum(1 for m in board.legal_moves
                                              if m.from_square == square))], ex.id
    by_topic = Counter(ex.topic for ex in items(34))
    assert set(by_topic) == {"the_exchange", "bishop_pair", "gambit", "pawn_chain",
                             "backward_pawn", "space"}


GAMBITS = ("e4 e5 f4 exf4", "d4 d5 c4 dxc4", "e4 e5 Nf3 Nc6 Bc4 Bc5 b4 Bxb4",
           "e4 c5 d4 cxd4 c3 dxc3 Nxc3", "e4 e5 d4 exd4 c3 dxc3 Bc4 cxb2 Bxb2")


def test_each_gambit_is_played_from_the_start_and_white_is_down_pawns() -> None:
    fens = {ex.fen: ex for ex in items(34, "gambit")}
    for line in GAMBITS:
        board = chess.Board()
        for san in line.split():
            board.push_san(san)
        ex = fens[board.fen()]
        assert int(ex.solutions()[0]) < 0


@pytest.mark.parametrize("ex", items(34, "backward_pawn"), ids=lambda ex: ex.id)
def test_the_backward_pawn_is_the_only_one(ex: Exercise) -> None:
    assert backward_pawns(ex.board()) == {chess.parse_square(ex.data["square"])}
    assert ex.check(ex.data["square"]).correct


@pytest.mark.parametrize("ex", [ex for ex in items(34, "pawn_chain") if ex.kind == "square"],
                         ids=lambda ex: ex.id)
def test_the_chain_base_is_computed(ex: Exercise) -> None:
    board = ex.board()
    color = chess.WHITE if "white" in (ex.prompt or {}).get("en", "") else chess.BLACK
    assert chain_bases(board, color) == {chess.parse_square(ex.data["square"])}


def test_winning_the_exchange_gives_a_minor_piece_for_a_rook() -> None:
    wins = [ex for ex in items(34, "the_exchange") if ex.kind == "move"]
    assert len(wins) == 3
    for ex in wins:
        board = ex.board()
        for san in ex.solutions():
            move = board.parse_san(san)
            assert board.piece_type_at(move.from_square) in (chess.KNIGHT, chess.BISHOP)
            assert board.piece_type_at(move.to_square) == chess.ROOK
            assert board.attackers(not board.turn, move.to_square)  # the rook was protected


def test_no_strategy_item_pretends_a_choice_has_one_answer() -> None:
    """Lesson 34 asks only what the rules, counting or an opening's book decide: no ``best``
    item but the French Advance Variation's moves (``named_opening``, as lesson 18's)."""
    assert all(ex.kind in ("count", "choice", "square") or ex.goal == "win_material"
               or ex.data.get("named_opening") for ex in items(34))
    assert all(ex.data.get("question") in (None, "evaluation") for ex in items(34))


def test_the_part_two_test_mixes_tactics_and_names_none() -> None:
    test = items(35)
    assert 25 <= len(test) <= 32
    assert all(ex.prompt is None and not ex.hints for ex in test)
    topics = Counter(ex.topic for ex in test)
    assert {"decoy", "removing_the_defender", "seventh_rank", "pawn_cover", "fork", "pin",
            "skewer", "discovered_attack", "back_rank", "smothered"} <= set(topics)
    assert max(topics.values()) <= 5


@pytest.mark.parametrize("ex", [ex for ex in items(35) if not ex.source], ids=lambda ex: ex.id)
def test_the_composed_test_items_use_the_tactic_they_are_filed_under(ex: Exercise) -> None:
    board = ex.board()
    answers = ex.solutions()
    assert answers
    assert all(ex.topic in motifs(board, board.parse_san(san)) for san in answers)


@pytest.mark.slow
def test_every_move_and_line_item_passes_the_engine() -> None:
    """From the engine cache (``check-bank`` fills it); a missing entry is evaluated here. Slow
    (about 3 minutes): a refused move that scores as well is searched for the material it wins."""
    mine = [ex for lesson in LESSONS for ex in items(lesson)]
    assert bank_engine.verify(mine, write=False) == []
