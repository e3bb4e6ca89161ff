"""`forumgm board check` against the real FluxBB 1.5.11: the engine found from the page, the
GM logged in, his zone read from his profile, the thread read, the inbox said to be none (no
PMs in FluxBB), a test post through FluxBB's 60 s flood interval, and a wrong password
refused with the board's own words."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from tests.live.boards import GM_PASSWORD, LiveBoard
from tests.live.games import gm_reader
from tests.live.members import Member
from tests.live.test_board_check import check

MSK = ZoneInfo("Europe/Moscow")
START = datetime(2026, 12, 1, 12, 0, tzinfo=MSK)


def test_board_check_on_fluxbb(fluxbb: LiveBoard) -> None:
    assert fluxbb.clock is not None
    fluxbb.clock.set(START)
    gm = gm_reader(fluxbb)
    thread = gm.open_topic("Проверка", "Первый пост.")
    gm.close()
    fluxbb.clock.advance(120)
    member = Member(fluxbb, "Маша")
    member.post(thread, "Второй пост, от игрока.")
    member.close()

    code, out = check(fluxbb, fluxbb.gm, GM_PASSWORD, thread)
    assert code == 0, out
    assert "Detected FluxBB" in out, out
    assert f"Logged in as {fluxbb.gm}" in out, out
    assert "Time zone: UTC+03:00" in out, out  # the GM's profile: UTC+3, no DST
    # FluxBB prints no count: the last page's last post number gives it (6964c02)
    assert "'Проверка', 2 posts on 1 page(s)" in out, out
    posted = f"{START + timedelta(minutes=2):%Y-%m-%d %H:%M}"
    assert f"by Маша at {posted}" in out and "Второй пост, от игрока." in out, out
    assert "Inbox: none — fluxbb has no private messages" in out, out
    assert "Flood interval" in out, out

    # Two test posts in a row: the second meets FluxBB's 60 s between posts and waits.
    for _ in range(2):
        code, out = check(fluxbb, fluxbb.gm, GM_PASSWORD, thread, "--post-test")
        assert code == 0 and "Test post: id " in out, out
    times = [r[0] for r in fluxbb.rows("SELECT posted FROM posts WHERE topic_id = ?", int(thread))]
    assert len(times) == 4 and times[3] - times[2] >= 60, times


def test_board_check_on_fluxbb_with_a_wrong_password(fluxbb: LiveBoard) -> None:
    code, out = check(fluxbb, fluxbb.gm, "not-the-password", "1", "--engine", "fluxbb")
    assert code == 1, out
    assert "Wrong username and/or password" in out, out
