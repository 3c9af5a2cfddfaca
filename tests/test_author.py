"""chesskit author: sources read, goals worked out and verified, refusals named, the set written
whole in the course's own form (check-bank clean, notebooks, assignment, worksheets, rounds)."""

from __future__ import annotations

import csv
import io
import json
import random
from importlib import resources
from pathlib import Path

import chess
import nbformat
import pytest

from chesskit import cli
from chesskit.exercises import catalog
from chesskit.rules import engine
from chesskit.teacher import author_output
from chesskit.teacher.author import make_items
from chesskit.teacher.author_sources import SourceError, decode, read_any
from chesskit.teacher.grading import grade

needs_engine = pytest.mark.skipif(not engine.available(), reason="Stockfish is not installed")

STUDY = """[Event "Club tactics: Back rank"]
[Site "https://lichess.org/study/abcd1234/ch1"]
[Result "*"]
[Annotator "https://lichess.org/@/coach"]
[ChapterName "Back rank"]
[FEN "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"]
[SetUp "1"]
[ChapterMode "gamebook"]
[Orientation "black"]

{ Look at Black's king: it has no room. [%csl Gg8,Rf7,Rg7,Rh7][%cal Ga1a8] } 1. Ra8# { The rook
checks on the back rank. } *

[Event "Club tactics: A queen for free"]
[Site "https://lichess.org/study/abcd1234/ch2"]
[Result "*"]
[FEN "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1"]
[SetUp "1"]

{ 白先，得子！ } 1. Rxd5 { 后没有保护。 } *

[Event "Club tactics: Opening"]
[Site "https://lichess.org/study/abcd1234/ch3"]
[Result "*"]

{ What would you play? } 1. e4 *
"""

PROBLEMS = """[Event "Composed: mate in 2"]
[FEN "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1"]
[SetUp "1"]

1. Nf6+ gxf6 2. Bxf7# *

[Event "Not forced"]
[FEN "6k1/5pp1/7p/8/8/8/5PPP/R5K1 w - - 0 1"]
[SetUp "1"]

{ Mate in 2 } 1. Ra8+ Kh7 *

[Event "Illegal"]
[FEN "6k1/5ppp/8/8/8/8/5PPP/R5KK w - - 0 1"]
[SetUp "1"]

1. Ra8# *
"""

CSV_TEXT = """fen,goal,answer,note
6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1,,Ra8#,back rank
4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1,win material,,
8/8/8/4k3/8/8/8/4K2Q w - - 0 1,,Qh5+,two equally good
4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1,,,no win at all
"""


def _built(made: list) -> dict[str, dict]:
    return {m.label: m.item for m in made if m.item is not None}


def _refused(made: list) -> dict[str, str]:
    return {m.label: m.refused for m in made if m.item is None}


def _write_set(tmp_path: Path, text: str, name: str = "club", **options: object
               ) -> author_output.AuthorResult:
    source = tmp_path / "source.txt"
    source.write_text(text, encoding="utf-8")
    return author_output.author(source, out=tmp_path / name, **options)  # type: ignore[arg-type]


# ---- reading -----------------------------------------------------------------------------------

def test_study_chapters_become_marks_arrows_note_and_hints() -> None:
    entries = read_any(STUDY)
    assert [e.title for e in entries] == ["Back rank", "A queen for free", "Opening"]
    first = entries[0]
    assert first.marks == {"green": ["g8"], "red": ["f7", "g7", "h7"]}
    assert first.arrows == ("a1a8",)
    assert first.note == "Look at Black's king: it has no room."
    assert first.hints == ("The rook checks on the back rank.",)
    assert first.orientation == "black" and first.moves == ("Ra8#",)
    assert entries[1].note == "白先，得子！" and entries[1].goal == "win material"
    assert entries[2].fen == chess.STARTING_FEN


def test_text_lines_and_csv_with_and_without_answers() -> None:
    lines = read_any("# mine\n6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1 | Ra8# | mate in 1\n\n"
                     "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1\n")
    assert [(e.label, e.goal, e.moves) for e in lines] == [
        ("line 2", "mate in 1", ("Ra8#",)), ("line 4", "", ())]
    rows = read_any(CSV_TEXT)
    assert [(e.label, e.goal, e.moves, e.note) for e in rows][:2] == [
        ("line 2", "", ("Ra8#",), "back rank"), ("line 3", "win material", (), "")]


def test_puzzles_start_after_the_opponents_move() -> None:
    text = ("PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,"
            "OpeningTags\n000rZ,2kr1b1r/p1p2pp1/2pqb3/7p/3N2n1/2NPB3/PPP2PPP/R2Q1RK1 w - - 2 "
            "13,d4e6 d6h2,633,93,100,616,kingsideAttack mate mateIn1 oneMove opening,x,\n")
    (entry,) = read_any(text)
    board = chess.Board("2kr1b1r/p1p2pp1/2pqb3/7p/3N2n1/2NPB3/PPP2PPP/R2Q1RK1 w - - 2 13")
    board.push_uci("d4e6")
    assert entry.fen == board.fen() and entry.moves == ("d6h2",)
    assert (entry.goal, entry.source, entry.difficulty) == ("mate in 1", "lichess:000rZ", 633)


def test_garbage_bytes_and_huge_comments() -> None:
    with pytest.raises(SourceError, match="is not a text file"):
        decode(bytes(range(256)) * 40, name="x.pgn")
    assert decode("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1".encode("utf-16"), name="x.txt") == (
        "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")  # a list saved by Windows Notepad
    big = ('[FEN "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"]\n\n{ ' + "blah " * 2_000_000
           + '} 1. Ra8# *\n\n[FEN "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1"]\n\n1. Rxd5 *\n')
    entries = read_any(big)
    assert "comments are longer" in entries[0].problem and entries[1].moves == ("Rxd5",)


# ---- goals --------------------------------------------------------------------------------------

def test_mates_are_found_by_search_without_the_engine() -> None:
    made = make_items(read_any(PROBLEMS), use_engine=False)
    built, refused = _built(made), _refused(made)
    assert built["game 1 (Composed: mate in 2)"]["kind"] == "line"
    assert built["game 1 (Composed: mate in 2)"]["mate_in"] == 2
    assert refused["game 2 (Not forced)"] == (
        "the mate is not forced: after Ra8+ the defender plays Kh7 and there is no mate in 2.")
    assert refused["game 3 (Illegal)"].startswith("the position is illegal: ")


def test_a_wrong_mate_length_is_said_not_guessed() -> None:
    made = make_items(read_any("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1; mate in 2"),
                      use_engine=False)
    assert made[0].item is not None and made[0].item["goal"] == "mate"
    assert made[0].note == "the source says mate in 2; it is a mate in 1"


def test_an_answer_that_misses_the_mate_is_refused() -> None:
    made = make_items(read_any("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1; Ra7"), use_engine=False)
    assert made[0].refused == ("the answer Ra7 does not force mate, but Ra8# mates in 1: a set "
                               "needs the best answer.")


@pytest.mark.slow
@needs_engine
def test_csv_goals_and_refusals_with_the_engine() -> None:
    made = make_items(read_any(CSV_TEXT))
    built, refused = _built(made), _refused(made)
    assert built["line 2"]["goal"] == "mate"
    assert built["line 3"]["goal"] == "win_material" or built["line 3"]["goal"] == "best"
    assert refused["line 4"].startswith("two moves are about equally good (Qh5+ and ")
    assert refused["line 5"].startswith("there is no win to find")


# ---- the set ----------------------------------------------------------------------------------

@pytest.mark.slow
@needs_engine
def test_every_built_item_passes_check_bank_engine_included(tmp_path: Path) -> None:
    result = _write_set(tmp_path, STUDY + "\n" + PROBLEMS, worksheets=False)
    assert result.ids == ("club.01", "club.02", "club.03")
    assert catalog.check_bank([tmp_path / "club" / "club.toml"]) == []
    csv_set = _write_set(tmp_path, CSV_TEXT, name="csv", worksheets=False)
    assert csv_set.ids == ("csv.01", "csv.02")
    assert catalog.check_bank([tmp_path / "csv" / "csv.toml"]) == []


def test_study_set_is_written_whole_in_the_courses_form(tmp_path: Path) -> None:
    result = _write_set(tmp_path, STUDY + "\n" + PROBLEMS, engine=False)
    folder = tmp_path / "club"
    assert result.ids == ("club.01", "club.02", "club.03")
    assert sorted(p.name for p in folder.iterdir()) == [
        "assignment.toml", "club.en.ipynb", "club.toml", "club.zh-Hans.ipynb",
        "club.zh-Hant.ipynb", "report.md", "rounds.json", "worksheet.en.pdf",
        "worksheet.zh-Hans.pdf", "worksheet.zh-Hant.pdf"]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    notebook = nbformat.read(folder / "club.zh-Hans.ipynb", as_version=4)
    text = "\n".join(cell.source for cell in notebook.cells)
    assert 'ck.load_bank_file("club.toml")' in text and 'ck.answer("club.03", "")' in text
    assert "**老师写的话**：Look at Black's king: it has no room." in text  # kept as written
    assert "marks={'green': ['g8'], 'red': ['f7', 'g7', 'h7']}, arrows=['a1a8']" in text
    assert catalog.exercise("club.01").hint(0) == "The rook checks on the back rank."
    rounds = json.loads((folder / "rounds.json").read_text(encoding="utf-8"))
    assert rounds[0]["exercise"] == "club.01" and set(rounds[0]["prompt"]) == {
        "en", "zh-Hans", "zh-Hant"}
    assert "| game 5 (Not forced) | refused |" in (folder / "report.md").read_text("utf-8")


def test_nothing_half_written_when_writing_fails(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "club").mkdir()
    (tmp_path / "club" / "old.txt").write_text("the old set", encoding="utf-8")

    def broken(*args: object, **kwargs: object) -> bytes:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("chesskit.teacher.author_output.worksheet", broken)
    with pytest.raises(OSError):
        _write_set(tmp_path, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1; Ra8#", engine=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club", "source.txt"]
    assert [p.name for p in (tmp_path / "club").iterdir()] == ["old.txt"]


def test_the_grader_finds_the_sets_items(tmp_path: Path) -> None:

    _write_set(tmp_path, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1; Ra8#\n"
                         "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1; Rxd5", name="hw", engine=False,
               worksheets=False, pass_mark=0.5)
    notebook = nbformat.read(tmp_path / "hw" / "hw.zh-Hant.ipynb", as_version=4)
    for cell in notebook.cells:
        cell.source = cell.source.replace('ck.answer("hw.01", "")', 'ck.answer("hw.01", "Ra8")')
    (tmp_path / "subs" / "lin").mkdir(parents=True)
    nbformat.write(notebook, tmp_path / "subs" / "lin" / "hw.zh-Hant.ipynb")
    report = grade([tmp_path / "subs" / "lin"], out=tmp_path / "graded",
                   assignment=tmp_path / "hw" / "assignment.toml", jobs=1)
    rows = list(csv.reader(io.StringIO(report.csv.read_text(encoding="utf-8-sig"))))
    assert rows[1][:6] == ["lin", "lin", "zh-Hant", "1", "2", "50"]


# ---- the command ----------------------------------------------------------------------------

def test_help_has_an_example_per_source(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["author", "--help"])
    out = capsys.readouterr().out
    for example in (".pgn -o", "lichess_study", "positions.txt", "positions.csv",
                    "lichess_db_puzzle.csv", "--pass 0.8"):
        assert example in out


def test_unusable_sources_exit_1_with_one_sentence(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    garbage = tmp_path / "garbage.pgn"
    garbage.write_bytes(bytes(range(256)) * 100)
    assert cli.main(["author", str(garbage), "-o", str(tmp_path / "x")]) == 1
    assert capsys.readouterr().err == ("Error: The file garbage.pgn is not a text file (it "
                                       "holds binary data).\n")
    bad = tmp_path / "bad.txt"
    bad.write_text("8/8/8/8/8/8/8/8 w - - 0 1\nnot a fen at all\n", encoding="utf-8")
    assert cli.main(["author", str(bad), "-o", str(tmp_path / "x"), "--no-engine"]) == 1
    captured = capsys.readouterr()
    assert "line 1  refused  the position is illegal" in captured.out
    assert captured.err.startswith("Error: no exercise could be made from bad.txt")
    assert not (tmp_path / "x").exists()
    assert cli.main(["author", str(tmp_path / "missing.pgn"), "-o", "x"]) == 1


# ---- the Lichess sample -----------------------------------------------------------------------

MATE_DEPTH = 8
"""Deep enough for Stockfish to see every mate in 3 (5 plies) among all legal moves."""


@pytest.mark.slow
@needs_engine
def test_a_hundred_lichess_puzzles(tmp_path: Path) -> None:
    """100 puzzles of the course's sample: the set is check-bank clean, engine included (no
    accepted move is bad, no refused move as good as the best accepted one), and each mate
    accepts exactly the moves Stockfish says mate as fast."""
    path = Path(str(resources.files("chesskit") / "data" / "lichess-puzzles-sample.csv"))
    lines = path.read_text(encoding="utf-8").splitlines()
    sample = random.Random(21).sample(lines[1:], 100)
    result = _write_set(tmp_path, "\n".join([lines[0], *sample]) + "\n", name="sample",
                        worksheets=False)
    assert len(result.built) >= 80, result.table()
    bank = tmp_path / "sample" / "sample.toml"
    assert catalog.check_bank([bank]) == []
    with engine.open_engine() as sf:
        for ex in catalog.load_bank_file(bank):
            if ex.kind == "line" or ex.goal == "mate":
                board = ex.board()
                plies = 2 * int(ex.data.get("mate_in", 1)) - 1
                scores = engine.analyse_moves(sf, board, depth=MATE_DEPTH)
                mates = {m.uci() for m, s in scores.items() if s >= engine.MATE - plies}
                assert {board.parse_san(san).uci() for san in ex.solutions()} == mates, ex.id


def test_a_set_file_never_takes_a_course_id(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('set = "07"\ntitle = "x"\n\n[[item]]\nid = "07.01"\nkind = "move"\n'
                   'goal = "mate"\nfen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"\ntopic = "mate"\n'
                   'difficulty = 800\n', encoding="utf-8")
    with pytest.raises(catalog.BankError, match="a set name is a lowercase letter"):
        catalog.load_bank_file(bad)
    assert catalog.exercise("07.01").lesson == 7
    assert [p.field for p in catalog.check_bank([bad])] == ["set"]
    assert author_output.set_name(tmp_path / "07") == "set-07"
