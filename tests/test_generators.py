"""chesskit.exercises.generators: seeded, reproducible drill items that pass check-bank."""

from __future__ import annotations

import chess

from chesskit.exercises import Exercise, generators


def test_same_seed_same_items() -> None:
    for lesson in generators.PLAN:
        assert generators.generate(lesson) == generators.generate(lesson)
    assert generators.generate(2, seed=1) != generators.generate(2, seed=2)


def test_ids_and_flags() -> None:
    items = generators.generate(3)
    assert [item["id"] for item in items][:2] == ["03.60", "03.61"]
    assert all(item["generated"] is True for item in items)
    assert len({generators.task_key(item) for item in items}) == len(items)


def test_items_are_valid_exercises() -> None:
    for lesson in generators.PLAN:
        for item in generators.generate(lesson):
            data = {k: v for k, v in item.items()
                    if k not in ("id", "kind", "goal", "fen", "topic", "difficulty")}
            ex = Exercise(id=item["id"], lesson=lesson, kind=item["kind"],
                          goal=item.get("goal", ""),
                          fen=item.get("fen", ""), topic=item["topic"],
                          difficulty=item["difficulty"], data=data)
            assert ex.solutions() and ex.check(ex.solutions()[0]).correct, item


def test_refresh_is_idempotent() -> None:
    text = 'lesson = 1\nslug = "x"\ntitle = { en = "x", zh = "x" }\n'
    once = generators.refresh(text, 1)
    assert generators.MARKER in once
    assert generators.refresh(once, 1) == once
    assert generators.refresh(text, 99) == text


def test_bank_files_are_fresh() -> None:
    assert generators.main(["--check"]) == 0


def test_basic_mates_need_every_piece() -> None:
    """A queen-and-knight drill is never a mate the queen gives alone."""
    for item in generators.generate(14):
        board = chess.Board(item["fen"])
        for move in board.legal_moves:
            board.push(move)
            if board.is_checkmate():
                assert generators._needs_every_piece(board, move.to_square), item["id"]
            board.pop()


def test_check_and_escape_drills_praise_only_sound_moves() -> None:
    """Every accepted check or escape is as good as the others: none hangs more material,
    none walks into a mate in one (the engine check of the bank confirms it)."""
    for lesson in (6, 21):
        for item in generators.generate(lesson):
            if item.get("goal") not in ("check", "escape_check"):
                continue
            board = chess.Board(item["fen"])
            answers = [m for m in board.legal_moves
                       if item["goal"] == "escape_check" or board.gives_check(m)]
            assert generators.sound(board, answers), item["id"]


def test_escape_drills_have_a_real_check_and_a_hint_that_helps() -> None:
    """Lessons 6 and 21: no check by a piece given away (a queen beside the king with nothing
    guarding it), and a first hint naming the checking piece and the three ways out."""
    for lesson in (6, 21):
        for item in generators.generate(lesson):
            if item.get("goal") != "escape_check":
                continue
            board = chess.Board(item["fen"])
            assert not generators._checker_given_away(board), item["id"]
            assert item["hints"][0] == generators.escape_hint(board), item["id"]


def test_a_drill_where_one_answer_hangs_a_piece_is_not_sound() -> None:
    board = chess.Board("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1")  # Kxd2 wins the rook, Kf1 does not
    assert not generators.sound(board, list(board.legal_moves))
