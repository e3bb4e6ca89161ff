"""A host's mistakes on the command line, made as a host makes them — a game file in a
temporary folder, its rehearsal board, a chosen clock: each ends in one clear line and a
non-zero exit, never a traceback, and no password shows in what is printed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.rehearsal import Rehearsal

AT = "2026-12-01T17:00+03:00"


@pytest.fixture
def game(tmp_path: Path) -> Rehearsal:
    rehearsal = Rehearsal(tmp_path)
    rehearsal(AT, "board", "local", "init", "GAME")
    return rehearsal


def one_line(out: str) -> str:
    """The command's whole output, checked to be one line with no traceback."""
    assert "Traceback" not in out and out.count("\n") == 1, out
    return out.strip()


def test_a_store_that_cannot_be_opened_never_shows_its_password(game: Rehearsal) -> None:
    closed = "postgresql+psycopg://forumgm:s3cret-db-pass@127.0.0.1:1/forumgm"
    for args in (("status", "--db", closed), ("review", "GAME", "--db", closed)):
        out = one_line(game(AT, *args, code=2))
        assert out == (
            "cannot open the store postgresql+psycopg://forumgm:***@127.0.0.1:1/forumgm: "
            "OperationalError"
        )


def test_a_board_url_that_names_no_database_is_one_line(game: Rehearsal, tmp_path: Path) -> None:
    not_a_database = tmp_path / "notes.txt"
    not_a_database.write_text("not a database\n", encoding="utf-8")
    text = game.game.read_text(encoding="utf-8")
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(text.replace(game.board_url, f"sqlite:///{not_a_database}"), "utf-8")
    for args in (
        ("board", "local", "init", str(wrong)),
        ("board", "local", "post", str(wrong), "--as", "Вася", "привет"),
        ("board", "local", "show", str(wrong)),
        ("board", "local", "show", str(not_a_database)),
    ):
        out = one_line(game(AT, *args, code=2))
        assert out == f"cannot open the local board sqlite:///{not_a_database}: DatabaseError"
    out = one_line(game(AT, "board", "local", "show", "bogus://board", code=2))
    assert out == "cannot open the local board bogus://board: NoSuchModuleError"
