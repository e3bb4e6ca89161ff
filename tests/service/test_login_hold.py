"""One refused login stops the service's logins to that board until the host acts.

With a wrong password the service used to log in at every poll (and once per item to
publish): three refusals in four minutes put a phpBB GM account behind the CAPTCHA. Now the
first refusal is recorded for the board, `status` says so, no login is tried on its own
again, and `forumgm board login` or a changed password lets it go on.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from engine.service.driver import GameDriver
from engine.service.logins import RETRY, LoginGuard, LoginHeld
from engine.store import open_store
from forums.errors import BoardUnavailable, LoginFailed
from forums.local import ManualClock
from forums.records import User
from tests.service.helpers import GM_PASSWORD, cli_game

MSK = ZoneInfo("Europe/Moscow")
NAMES = ["Вася", "Петя", "Маша", "Коля", "Оля"]
ROLES = {"Вася": "commissar", "Петя": "mafioso", "Маша": "doctor", "Коля": "citizen"}
WRONG = "not-the-password"


def test_a_refused_login_waits_for_the_host(tmp_path: Path) -> None:
    g = cli_game(tmp_path, NAMES, roles={**ROLES, "Оля": "citizen"})
    path, board, thread = g.path, g.board, g.thread
    store = open_store(g.db)

    def cli(*words: str, at: str, password: str = WRONG, code: int = 0) -> str:
        return g.cli(*words, at=at, password=password, code=code)

    # `game start` logs in (the password was right then); the board's admin changed it after.
    cli("game", "start", str(path), at="2026-12-01T18:00+03:00", password=GM_PASSWORD)
    first = cli("run", str(path), "--once", at="2026-12-01T19:01+03:00", code=1)
    assert "not logged in: LoginFailed" in first
    [row] = store.boards()
    assert row.login_failed_at is not None and row.login_tried_at is not None
    tried = row.login_tried_at
    for minute in ("19:03", "19:20", "21:00"):  # polls go on: no login is tried again
        again = cli("run", str(path), "--once", at=f"2026-12-01T{minute}+03:00", code=1)
        assert "not logged in" in again and "forumgm board login" in again
        assert store.boards()[0].login_tried_at == tried
    status = cli("status", at="2026-12-01T21:01+03:00")
    assert "refused the login of 'Ведущий'" in status and "forumgm board login" in status
    assert "at 2026-12-01 19:01 MSK" in status  # the game's zone, as its deadline
    refused = cli("board", "login", str(path), at="2026-12-01T21:02+03:00", code=1)
    assert "LoginFailed" in refused and "no more on its own" in refused
    assert b"not-the-password" not in (tmp_path / "store.sqlite").read_bytes()

    # The host fixes the password the game file points to: the next run logs in and goes on.
    fixed = cli("run", str(path), "--once", at="2026-12-01T21:05+03:00", password=GM_PASSWORD)
    assert "open until" in fixed
    assert store.boards()[0].login_failed_at is None
    assert "refused" not in cli("status", at="2026-12-01T21:06+03:00", password=GM_PASSWORD)
    opening = [p for p in board.posts_after(thread, 0) if p.author == "Ведущий"]
    assert len(opening) == 1


def test_board_login_lifts_the_hold(tmp_path: Path) -> None:
    g = cli_game(tmp_path, NAMES, roles={**ROLES, "Оля": "citizen"})
    at = "2026-12-01T19:01+03:00"
    g.cli("game", "start", str(g.path), at=at)
    g.cli("run", str(g.path), "--once", at=at, password=WRONG, code=1)
    assert open_store(g.db).boards()[0].login_failed_at is not None
    # The board's password was changed back by its admin: the host logs in once by hand.
    said = g.cli("board", "login", str(g.path), at=at, password=GM_PASSWORD)
    assert "logs in there on its own again" in said
    assert open_store(g.db).boards()[0].login_failed_at is None


class _Flaky:
    """A board whose login fails as told, counting the tries."""

    engine = "local"

    def __init__(self) -> None:
        self.tries = 0
        self.error: Exception | None = BoardUnavailable("502 Bad Gateway")

    async def login(self) -> User:
        self.tries += 1
        if self.error is not None:
            raise self.error
        return User("1", "Ведущий")


def test_at_most_one_login_per_15_minutes_after_one_went_wrong(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 's.sqlite'}")
    row = store.create_board("local", "sqlite://", "Ведущий")
    clock = ManualClock(datetime(2026, 12, 1, 19, tzinfo=MSK))
    board: Any = _Flaky()
    LoginGuard(store, row.id, "pw-1", clock).install(board)

    def login() -> object:
        try:
            return asyncio.run(board.login())
        except Exception as exc:
            return exc

    assert isinstance(login(), BoardUnavailable) and board.tries == 1
    clock.advance(minutes=5)
    assert isinstance(login(), LoginHeld) and board.tries == 1
    clock.set(clock() + RETRY)
    board.error = LoginFailed("wrong password")
    assert isinstance(login(), LoginFailed) and board.tries == 2
    clock.advance(hours=3)
    assert isinstance(login(), LoginHeld) and board.tries == 2  # refused: held for good
    board = _Flaky()  # the next run, with the password changed
    board.error = None
    LoginGuard(store, row.id, "pw-2", clock).install(board)
    assert isinstance(login(), User) and board.tries == 1
    clock.advance(seconds=1)
    assert isinstance(login(), User) and board.tries == 2  # logins that go through: never held


def test_the_saved_phpbb_board_sees_one_login_attempt(tmp_path: Path) -> None:
    """The saved phpBB 3.3.10 login form answering «wrong password»: polls and publishing go
    on, and the form is posted to once."""
    from tests.service import phpbb_fixture_board as saved

    config = saved.game_config("ru")
    fake = saved.FakePhpbb("ru")
    fake.on("GET", "/ucp.php?mode=login", "login_page.html")
    fake.on("POST", "/ucp.php?mode=login", "login_failed_wrong_password.html")
    store = open_store(f"sqlite:///{tmp_path / 's.sqlite'}")
    clock = ManualClock(datetime(2026, 11, 27, 14, tzinfo=MSK))
    driver = GameDriver(store, saved.make_board(fake), config, clock=clock)
    board_id = store.get_game(driver.game_id).board_id
    LoginGuard(store, board_id, saved.PASSWORD, clock).install(driver.board)
    driver.start()
    said = []
    for _ in range(4):
        with pytest.raises(LoginFailed):
            asyncio.run(driver.step(clock()))
        said.append(store.get_board(board_id).login_error)
        clock.advance(minutes=2)
    assert len(fake.posted("/ucp.php")) == 1
    assert all(s and "LoginFailed" in s for s in said)
    assert saved.PASSWORD not in (said[0] or "")
    clock.set(clock() + timedelta(hours=1))
    with pytest.raises(LoginHeld):
        asyncio.run(driver.step(clock()))
    assert len(fake.posted("/ucp.php")) == 1
