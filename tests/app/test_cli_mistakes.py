"""A host's mistakes on the command line, made as a host makes them — a game file in a
temporary folder, its rehearsal board, a chosen clock: each ends in one clear line and a
non-zero exit, never a traceback, and no password shows in what is printed."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from engine.app.cli import app
from engine.store import open_store
from tests.app.rehearsal import PASSWORD_ENV, Rehearsal
from tests.service.helpers import GM

DOCS = Path(__file__).resolve().parents[2] / "docs"
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


def test_host_and_map_say_which_store_is_missing_or_unreadable(
    game: Rehearsal, tmp_path: Path
) -> None:
    missing = tmp_path / "typo.sqlite"
    out = one_line(game(AT, "host", "log", "--db", str(missing), code=1))
    assert out.startswith(f"no store at {missing}: no game was started with it")
    assert not missing.exists()  # reading the log creates no empty store
    twelve = tmp_path / "twelve-rooms.toml"
    twelve.write_text((DOCS / "examples" / "twelve-rooms.toml").read_text(encoding="utf-8"))
    out = one_line(game(AT, "map", str(twelve), "--db", str(missing), code=1))
    assert out.startswith(f"no store at {missing}: no game was started with it")
    not_a_store = tmp_path / "notes.txt"
    not_a_store.write_text("not a database\n", encoding="utf-8")
    for args in (
        ("host", "log", "--db", str(not_a_store)),
        ("host", "set-password", "--password-stdin", "--db", str(not_a_store)),
        ("map", str(twelve), "--db", str(not_a_store)),
    ):
        result = game.runner.invoke(app, list(args), input="a long enough password\n")
        assert result.exit_code == 2, result.output
        assert (
            one_line(result.output)
            == f"cannot open the store sqlite:///{not_a_store}: DatabaseError"
        )


def test_a_file_that_cannot_be_written_is_one_line(game: Rehearsal, tmp_path: Path) -> None:
    nowhere = tmp_path / "no such folder"
    twelve = tmp_path / "twelve-rooms.toml"
    text = (DOCS / "examples" / "twelve-rooms.toml").read_text(encoding="utf-8")
    text = text.replace("sqlite:///rehearsal-board.sqlite", f"sqlite:///{tmp_path / 'b12.sqlite'}")
    twelve.write_text(text.replace("FORUMGM_GM_PASSWORD", PASSWORD_ENV), encoding="utf-8")
    game(AT, "board", "local", "init", str(twelve))
    game(AT, "game", "start", str(twelve), "--db", game.db)
    for args in (
        ("map", str(twelve), "--svg", str(nowhere / "map.svg")),
        ("review", str(twelve), "--picture", str(nowhere / "map.svg")),
    ):
        out = game(AT, *args, "--db", game.db, code=2)
        assert "Traceback" not in out
        assert (
            out.splitlines()[-1] == f"cannot write {nowhere / 'map.svg'}: No such file or directory"
        )
    board = ("--url", game.board_url, "--engine", "local", "--thread", "1")
    login = ("--user", GM, "--password-env", PASSWORD_ENV)
    out = game(AT, "export", *board, *login, "--out", str(nowhere / "thread.jsonl"), code=2)
    assert one_line(out) == (
        f"error: cannot write {nowhere / 'thread.jsonl'}: No such file or directory"
    )


def test_a_log_file_that_cannot_be_written_is_one_line(game: Rehearsal, tmp_path: Path) -> None:
    blocked = tmp_path / "a file"
    blocked.write_text("", encoding="utf-8")
    out = game.host(AT, "run", "--once", "--log-file", str(blocked / "run.log"), code=2)
    assert one_line(out) == f"--log-file {blocked / 'run.log'}: {blocked} is a file, not a folder"


def test_a_board_url_that_is_no_board_address_is_one_line(game: Rehearsal) -> None:
    login = ("--user", GM, "--thread", "5", "--password-env", PASSWORD_ENV)
    for url in ("ftp://forum.example.org", "forum.example.org"):
        checked = one_line(game(AT, "board", "check", url, "--engine", "phpbb", *login, code=2))
        assert checked == f"'{url}' is not a board address; write e.g. https://forum.example.org/."
        exported = one_line(game(AT, "export", "--url", url, *login, code=2))
        assert exported == (
            f"error: '{url}' is not a board address; write e.g. https://forum.example.org/"
        )


def test_a_negative_last_is_refused_not_read_as_all_but_the_first(game: Rehearsal) -> None:
    for n in range(4):
        game.post(AT, "Вася", f"пост {n}")
    out = game(AT, "board", "local", "show", "GAME", "--last", "-3", code=2)
    assert "Invalid value for '--last': -3 is not in the range x>=0" in out
    assert "пост" not in out  # `[-(-3):]` printed what follows post 3, and exit 0


def test_a_game_file_replace_cannot_write_says_what_to_add(
    game: Rehearsal, monkeypatch: pytest.MonkeyPatch
) -> None:
    game(AT, "board", "local", "init", "GAME", "--account", "Лёша")
    game.host(AT, "game start")
    write_text = Path.write_text

    def read_only(self: Path, *args: Any, **kwargs: Any) -> int:
        if self == game.game:  # a game file the host may read but not write
            raise PermissionError(13, "Permission denied", str(self))
        return write_text(self, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", read_only)
    before = game.game.read_text(encoding="utf-8")
    out = game(AT, "game", "replace", "GAME", "Оля", "Лёша", "--db", game.db, code=1)
    assert "Traceback" not in out and "Лёша (replaced Оля) now plays seat Оля" in out
    # FORUMGM_NOW starts a running clock: on a loaded machine the command may read it a
    # second or two after 17:00:00.
    last = out.splitlines()[-1]
    assert re.fullmatch(
        re.escape(
            f"{game.game}: cannot write it (Permission denied): the store has the substitute; "
            'add under [players] replacements: "Лёша" = { replaces = "Оля", '
            "at = 2026-12-01T17:00:0"
        )
        + r"\d\+03:00 \}",
        last,
    ), last
    assert game.game.read_text(encoding="utf-8") == before


def test_review_votes_and_replace_of_a_game_never_started_say_so(
    game: Rehearsal, tmp_path: Path
) -> None:
    """A mistyped --db (or no `game start` yet) is said, not shown as an empty game; and a
    store that does not exist is not created."""
    open_store(f"sqlite:///{game.db}").close()  # a store, but this game never started in it
    for args in (
        ("review", "GAME"),
        ("votes", "GAME"),
        ("game", "replace", "GAME", "Вася", "Лёша"),
    ):
        out = one_line(game(AT, *args, "--db", game.db, code=1))
        assert out.startswith(f"{game.game}: the game was not started in this store"), out
        assert f"forumgm game start {game.game} first" in out
    missing = tmp_path / "typo.db"
    out = one_line(game(AT, "review", "GAME", "--db", str(missing), code=1))
    assert out.startswith(f"no store at {missing}") and not missing.exists()


def test_a_player_edits_only_his_own_posts_on_the_rehearsal_board(game: Rehearsal) -> None:
    """`board local edit --as X` edited anyone's post, the GM's included (a mistyped post id
    rewrote another player's vote): a player edits his own posts, as on a real board."""
    said = game(AT, "board", "local", "post", "GAME", "--as", "Вася", "голосую за Петю")
    vasya = said.split()[1]  # «post 3 by Вася in thread …»
    out = one_line(
        game(AT, "board", "local", "edit", "GAME", vasya, "голосую за Машу", "--as", "Петя", code=2)
    )
    assert out == f"post {vasya} is Вася's: Петя can edit only his own posts", out
    out = one_line(game(AT, "board", "local", "edit", "GAME", "9999", "x", "--as", "Петя", code=2))
    assert out.startswith("no post '9999' on the rehearsal board"), out
    said = game(AT, "board", "local", "edit", "GAME", vasya, "голосую за Машу", "--as", "вася")
    assert f"post {vasya} edited by вася" in said, said
