"""Engine verification of the bank: the bad-move rule, the refused-move rule, the cache."""

from __future__ import annotations

import json
import pathlib

import chess
import pytest

from chesskit.errors import EngineMissingError
from chesskit.exercises import Exercise, bank_engine
from chesskit.exercises.bank_engine import MARGIN, describe, item_problems
from chesskit.exercises.catalog import exercise
from chesskit.rules import engine
from chesskit.rules.engine import mate_score

LABEL = "engine (test)"


def _ex(goal: str, fen: str, **data: object) -> Exercise:
    return Exercise(id="99.01", lesson=99, kind="move", goal=goal, fen=fen, data=data)


def _all(fen: str, score: int, **scores: int) -> dict[str, int]:
    """Every legal move scored ``score``, the UCI moves of ``scores`` as given."""
    board = chess.Board(fen)
    return {m.uci(): scores.get(m.uci(), score) for m in board.legal_moves}


def test_describe_says_scores_as_a_reader_does() -> None:
    assert describe(mate_score(1)) == "mate in 1"
    assert describe(-mate_score(2)) == "mated in 1"
    assert describe(430) == "+4.30"


def test_an_escape_into_mate_is_bad_when_a_safe_one_exists() -> None:
    fen = "6k1/8/8/8/8/8/4BPPP/r5K1 w - - 0 1"  # 21.08: Bd1 allows Rxd1#, Bf1 is safe
    ex = _ex("escape_check", fen)
    scores = _all(fen, 0, e2d1=-mate_score(2), e2f1=0)
    assert not ex.check("Bd1").correct and ex.check("Bf1").correct  # the goal refuses it now
    assert item_problems(ex, scores, label=LABEL) == []
    loose = Exercise(id="99.02", lesson=99, kind="move", goal="check",
                     fen="4k3/8/8/8/8/8/3q4/R3K3 w - - 0 1")
    assert item_problems(loose, {"a1a8": -900, "a1e1": 0, "e1d2": 0, "e1f1": -900},
                         label=LABEL) == []  # the only check is still the best check


def test_an_accepted_move_that_throws_the_win_away_is_a_problem() -> None:
    fen = "6k1/2q2ppp/6n1/1Q2p3/8/B3P2P/2pR1PP1/6K1 b - - 0 32"  # 27.19 as it was
    ex = _ex("win_material", fen, gain=2)
    assert ex.check("c1=R+").correct
    scores = _all(fen, -200, c2c1q=430, c2c1r=-510)
    found = item_problems(ex, scores, label=LABEL)
    assert any("accepted c1=R+ is -5.10, but c1=Q+ is +4.30" in p for p in found)


def test_a_move_still_clearly_winning_is_never_bad() -> None:
    fen = "6k1/2q2ppp/6n1/1Q2p3/8/B3P2P/2pR1PP1/6K1 b - - 0 32"
    ex = _ex("win_material", fen, gain=2)
    scores = _all(fen, -200, c2c1q=2000, c2c1r=2000 - 3 * MARGIN)
    assert not any("accepted" in p for p in item_problems(ex, scores, label=LABEL))


def test_a_refused_move_as_good_as_the_answer_is_a_problem() -> None:
    fen = "N1k5/p1p5/8/8/8/8/8/4K3 b - - 0 1"  # 22.10: c6 traps the knight
    ex = _ex("best", fen, answers=["Kb7"])
    found = item_problems(ex, _all(fen, 0, c7c6=1100, c8b7=350), label=LABEL)
    assert found == ["engine (test): refused c6 is +11.00, as good as accepted Kb7 (+3.50)"]
    found = item_problems(ex, _all(fen, 0, c7c6=1100, c8b7=0), label=LABEL)
    assert found == ["engine (test): accepted Kb7 is +0.00, but c6 is +11.00"]


def test_a_refused_faster_mate_is_a_problem() -> None:
    fen = "6k1/5ppp/8/8/8/8/5PPP/R3R1K1 w - - 0 1"
    ex = _ex("best", fen, answers=["h3"])
    scores = _all(fen, 0, a1a8=mate_score(1), e1e8=mate_score(1), h2h3=mate_score(5))
    found = item_problems(ex, scores, label=LABEL)
    assert sum("refused" in p for p in found) == 2


def test_the_cache_is_sorted_and_one_position_a_line(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "cache.json"
    cache = bank_engine.Cache.load(path)
    cache.put("8/8/8/8/8/8/8/K1k5 w - - 0 1", "Stockfish 15.1", 12, {"a1a2": 0})
    cache.put("7k/8/8/8/8/8/8/K7 w - - 0 1", "Stockfish 15.1", 12, {"a1b1": 0, "a1a2": 0})
    cache.save(path, prune=False)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "{" and lines[-1] == "}" and lines[1] < lines[2]
    assert json.loads(path.read_text(encoding="utf-8"))[
        "7k/8/8/8/8/8/8/K7 w - - 0 1|Stockfish 15.1|12"] == {"a1a2": 0, "a1b1": 0}
    again = bank_engine.Cache.load(path)
    assert again.get("7k/8/8/8/8/8/8/K7 w - - 0 1", None, 12) == {"a1a2": 0, "a1b1": 0}
    assert again.get("7k/8/8/8/8/8/8/K7 w - - 0 1", "Stockfish 16", 12) is None
    again.save(path, prune=True)
    assert len(json.loads(path.read_text(encoding="utf-8"))) == 1


def test_without_stockfish_the_cache_still_verifies_and_the_rest_is_a_warning(
        tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("chesskit.rules.engine.stockfish_path", lambda: None)
    fen = "6k1/2q2ppp/6n1/1Q2p3/8/B3P2P/2pR1PP1/6K1 b - - 0 32"
    path = tmp_path / "cache.json"
    cache = bank_engine.Cache.load(path)
    cache.put(fen, "Stockfish 15.1", 12, _all(fen, -200, c2c1q=430, c2c1r=-510))
    cache.save(path, prune=False)
    covered = _ex("win_material", fen, gain=2)
    other = Exercise(id="99.02", lesson=99, kind="move", goal="mate",
                     fen="6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
    found = bank_engine.verify([covered, other], cache_path=path, depth=12, write=False)
    assert [item for item, _, _ in found] == ["99.01"]
    assert "1 items not in the engine cache" in capsys.readouterr().err


@pytest.mark.skipif(not engine.available(), reason="no Stockfish")
def test_engine_scores_every_legal_move_the_same_way_twice() -> None:
    board = chess.Board("6k1/8/8/8/8/8/4BPPP/r5K1 w - - 0 1")
    with engine.open_engine() as sf:
        first = engine.analyse_moves(sf, board, depth=8)
        second = engine.analyse_moves(sf, board, depth=8)
    assert first == second and set(first) == set(board.legal_moves)
    assert first[chess.Move.from_uci("e2d1")] == -mate_score(2)
    assert first[chess.Move.from_uci("e2f1")] > -mate_score(2) + 1000


def test_missing_stockfish_is_one_clear_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("chesskit.rules.engine.stockfish_path", lambda: None)
    with pytest.raises(EngineMissingError, match="Stockfish is not installed"), \
            engine.open_engine():
        pass


def test_the_fixed_items_accept_the_winning_moves_only() -> None:

    assert exercise("25.01").solutions() == ["Ne6+", "Nf5+"]
    assert exercise("27.19").solutions() == ["c1=Q+"]
    assert exercise("22.10").solutions() == ["c5", "c6"]
    refused = exercise("22.10").check("Kb7", lang="en")
    assert not refused.correct and "you win only 2 points" in refused.message
    escape = exercise("21.08")
    assert escape.check("Bf1").correct
    assert escape.check("Bd1", lang="en").message == "After Bd1, Black can checkmate with Rxd1#."


def test_a_weak_underpromotion_is_refused_with_the_reason() -> None:
    ex = _ex("promote", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    assert ex.solutions() == ["a8=Q+", "a8=R+"]
    assert "wins less" in ex.check("a8=N", lang="en").message


def test_a_cached_entry_without_an_accepted_move_does_not_cover_the_item(
        tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("chesskit.rules.engine.stockfish_path", lambda: None)
    fen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"
    path = tmp_path / "cache.json"
    cache = bank_engine.Cache.load(path)
    cache.put(fen, "Stockfish 15.1", 12, {"h2h3": 0})  # the mate Ra8# has no score
    cache.save(path, prune=False)
    ex = _ex("mate", fen)
    assert bank_engine.verify([ex], cache_path=path, depth=12, write=False) == []
    assert "99.01" in capsys.readouterr().err
