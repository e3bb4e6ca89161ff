"""`forumgm board check` against the real boards: the engine found from the page (and given
with --engine), the GM logged in, the thread's first and last page and the inbox read —
and what it says on MyBB/SQLite of a GM whose name has a capital Cyrillic letter."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from typer.testing import CliRunner

from engine.app.cli import app
from tests.live.boards import GM_PASSWORD, LiveBoard, password_of
from tests.live.games import gm_reader
from tests.live.members import Member

MSK = ZoneInfo("Europe/Moscow")
START = datetime(2026, 12, 1, 12, 0, tzinfo=MSK)


def check(board: LiveBoard, user: str, password: str, thread: str, *extra: str) -> tuple[int, str]:
    args = ["board", "check", board.url, "--user", user, "--thread", thread]
    args += ["--allow-insecure-http", *extra]
    env = {"FORUMGM_GM_PASSWORD": password, "COLUMNS": "250"}
    result = CliRunner().invoke(app, args, env=env)
    return result.exit_code, result.output


def _thread(board: LiveBoard, player: str) -> tuple[str, datetime]:
    """A topic by the GM, a post and a PM by `player` two and four minutes later; the
    topic's time. Each call a day after the board's last one (the board's flood limits
    count from its members' last post)."""
    assert board.clock is not None
    start = max(START, board.now().astimezone(MSK) + timedelta(days=1)).replace(
        hour=12, minute=0, second=0, microsecond=0
    )
    board.clock.set(start)
    gm = gm_reader(board)
    thread = gm.open_topic("Проверка", "Первый пост.")
    gm.close()
    board.clock.advance(120)
    member = Member(board, player)
    member.post(thread, "Второй пост, от игрока.")
    board.clock.advance(120)
    member.pm([board.gm], "Привет", "Личное сообщение ведущему.")
    member.close()
    return thread, start


def _shown(start: datetime, minutes: int, zone: str) -> str:
    return f"{(start + timedelta(minutes=minutes)).astimezone(ZoneInfo(zone)):%Y-%m-%d %H:%M}"


@pytest.mark.parametrize("engine", ["--engine", None])
def test_board_check_on_phpbb(phpbb: LiveBoard, engine: str | None) -> None:
    thread, start = _thread(phpbb, "Маша")
    extra = ("--engine", "phpbb") if engine else ()
    code, out = check(phpbb, phpbb.gm, GM_PASSWORD, thread, *extra)
    assert code == 0, out
    if engine is None:
        assert "Detected phpBB" in out, out
    assert f"Logged in as {phpbb.gm}" in out
    assert "Time zone: Europe/Moscow" in out, out
    assert "'Проверка', 2 posts on 1 page(s)" in out, out
    posted, sent = _shown(start, 2, "Europe/Moscow"), _shown(start, 4, "Europe/Moscow")
    assert f"by Маша at {posted}" in out and "Второй пост, от игрока." in out, out
    assert f"newest: 'Привет' from Маша at {sent}" in out, out


@pytest.mark.parametrize("engine", ["--engine", None])
def test_board_check_on_mybb(mybb: LiveBoard, engine: str | None) -> None:
    thread, start = _thread(mybb, "маша")
    extra = ("--engine", "mybb") if engine else ()
    code, out = check(mybb, mybb.gm, GM_PASSWORD, thread, *extra)
    assert code == 0, out
    if engine is None:
        assert "Detected MyBB" in out, out
    assert f"Logged in as {mybb.gm}" in out
    assert "'Проверка', 2 posts on 1 page(s)" in out, out
    posted, sent = _shown(start, 2, "UTC"), _shown(start, 4, "UTC")  # MyBB's zone: UTC
    assert f"by маша at {posted}" in out and "Второй пост, от игрока." in out, out
    assert f"newest: 'Привет' from маша at {sent}" in out, out


def test_board_check_says_why_mybb_on_sqlite_cannot_find_a_capital_cyrillic_name(
    mybb: LiveBoard,
) -> None:
    """`Ведущая` exists (MyBB's own user handler added her) and her password is right, but
    MyBB on SQLite looks her up with LOWER(), which leaves «В» as it is."""
    assert mybb.rows("SELECT uid FROM mybb_users WHERE username = 'Ведущая'")
    code, out = check(mybb, "Ведущая", password_of("Ведущая"), "1", "--engine", "mybb")
    assert code == 1, out
    assert "LoginFailed" in out and "SQLite's LOWER()" in out and "'В'" in out, out


def test_a_pm_reaches_a_capital_cyrillic_name_on_mybb_sqlite(mybb: LiveBoard) -> None:
    """forumgm finds `Ведущая` through the member list's LIKE search (MyBB's exact search,
    with LOWER(), finds nobody on SQLite), and MyBB's PM form takes her name as written."""
    assert mybb.clock is not None
    mybb.clock.advance(3600)
    sender = Member(mybb, "коля")
    try:
        found = sender.run(sender.adapter.find_user("Ведущая"))
        assert found is not None and found.name == "Ведущая"
        sender.pm(["Ведущая"], "Вопрос", "Когда начинаем?")
    finally:
        sender.close()
    [(message,)] = mybb.rows(
        "SELECT message FROM mybb_privatemessages WHERE folder = 1 AND toid = "
        "(SELECT uid FROM mybb_users WHERE username = 'Ведущая')"
    )
    assert message == "Когда начинаем?"


def test_board_check_on_smf(smf_live: LiveBoard) -> None:
    """Found from its page, the GM logged in, his zone read from his profile, the thread and
    the inbox read, as the board's own rows say."""
    thread, start = _thread(smf_live, "Маша")
    code, out = check(smf_live, smf_live.gm, GM_PASSWORD, thread)
    assert code == 0, out
    assert "Detected SMF 2.1.4" in out, out
    assert f"Logged in as {smf_live.gm}" in out
    assert "zone Europe/Moscow (from the GM's profile)" in out, out
    assert "'Проверка', 2 posts on 1 page(s)" in out, out
    # SMF's default format shows minutes: "Today at 12:02 PM"
    posted, sent = _shown(start, 2, "Europe/Moscow"), _shown(start, 4, "Europe/Moscow")
    assert f"by Маша at {posted}" in out and "Второй пост, от игрока." in out, out
    assert f"newest: 'Привет' from Маша at {sent}" in out, out
