"""Board time strings in phpBB's formats, both language packs, and time-zone detection."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from forums.phpbb.dates import detect_timezone, parse_board_time

MSK = ZoneInfo("Europe/Moscow")
# 2026-11-30 05:43:37 in Moscow, as the ru after-post page was captured.
NOW = datetime(2026, 11, 30, 2, 43, 37, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # phpBB defaults: en "D M d, Y g:i a", ru "|d M Y|, H:i"
        ("Thu Nov 26, 2026 8:00 pm", datetime(2026, 11, 26, 20, 0)),
        ("Fri Nov 27, 2026 12:10 pm", datetime(2026, 11, 27, 12, 10)),
        ("Sat Nov 28, 2026 12:10 am", datetime(2026, 11, 28, 0, 10)),
        ("26 ноя 2026, 20:00", datetime(2026, 11, 26, 20, 0)),
        ("09 сен 2026, 09:09", datetime(2026, 9, 9, 9, 9)),
        ("14 июн 2026, 10:11", datetime(2026, 6, 14, 10, 11)),
        ("05 май 2026, 07:30", datetime(2026, 5, 5, 7, 30)),
        # full and genitive month names
        ("26 ноября 2026, 20:00", datetime(2026, 11, 26, 20, 0)),
        ("1 мая 2026 г., 9:05", datetime(2026, 5, 1, 9, 5)),
        ("3 марта 2026, 23:59", datetime(2026, 3, 3, 23, 59)),
        ("November 26th, 2026, 8:00 pm", datetime(2026, 11, 26, 20, 0)),
        ("Nov 26th, '26, 20:00", datetime(2026, 11, 26, 20, 0)),
        ("Sunday, September 6, 2026 7:05 AM", datetime(2026, 9, 6, 7, 5)),
        # numeric formats
        ("26.11.2026, 20:00", datetime(2026, 11, 26, 20, 0)),
        ("2026-11-26 20:00:15", datetime(2026, 11, 26, 20, 0, 15)),
        ("|26 Nov 2026|, 20:00", datetime(2026, 11, 26, 20, 0)),
        ("Чт ноя 26, 2026 20:00", datetime(2026, 11, 26, 20, 0)),
        # relative, against the capture time (05:43:37 MSK on 30 Nov)
        ("Сегодня, 13:37", datetime(2026, 11, 30, 13, 37)),
        ("Вчера, 22:10", datetime(2026, 11, 29, 22, 10)),
        ("Today, 1:37 pm", datetime(2026, 11, 30, 13, 37)),
        ("Yesterday, 10:10 pm", datetime(2026, 11, 29, 22, 10)),
        ("менее минуты назад", datetime(2026, 11, 30, 5, 43, 37)),
        ("less than a minute ago", datetime(2026, 11, 30, 5, 43, 37)),
        ("5 минут назад", datetime(2026, 11, 30, 5, 38, 37)),
        ("1 минуту назад", datetime(2026, 11, 30, 5, 42, 37)),
        ("2 минуты назад", datetime(2026, 11, 30, 5, 41, 37)),
        ("17 minutes ago", datetime(2026, 11, 30, 5, 26, 37)),
        ("1 minute ago", datetime(2026, 11, 30, 5, 42, 37)),
    ],
)
def test_parse_board_time(text: str, expected: datetime) -> None:
    got = parse_board_time(text, tz=MSK, now=NOW)
    assert got == expected.replace(tzinfo=MSK)
    assert got.tzinfo is not None


def test_today_is_the_day_in_the_board_zone() -> None:
    # 22:30 UTC on the 29th is already the 30th in Moscow.
    late = datetime(2026, 11, 29, 22, 30, tzinfo=UTC)
    assert parse_board_time("Сегодня, 01:00", tz=MSK, now=late) == datetime(
        2026, 11, 30, 1, 0, tzinfo=MSK
    )


def test_slashes_follow_the_language() -> None:
    assert parse_board_time("11/03/2026 10:00", tz=UTC, now=NOW, lang="en").month == 11
    assert parse_board_time("11/03/2026 10:00", tz=UTC, now=NOW, lang="ru").month == 3


@pytest.mark.parametrize(
    "text", ["", "   ", "вчера вечером", "hello world", "32 ноя 2026, 20:00", "Nov 2026 25:99"]
)
def test_unreadable_times_raise_with_the_text(text: str) -> None:
    with pytest.raises(ValueError) as caught:
        parse_board_time(text, tz=MSK, now=NOW)
    assert repr(text) in str(caught.value)


@pytest.mark.parametrize(
    ("name", "offset"),
    [("ru/viewtopic_p1", timedelta(hours=3)), ("en/pm_inbox", timedelta(hours=3))],
)
def test_detect_timezone_from_the_footer(
    name: str, offset: timedelta, saved_page: Callable[[str], Any]
) -> None:
    tz = detect_timezone(saved_page(name).html)
    assert tz is not None
    assert datetime(2026, 7, 1, tzinfo=tz).utcoffset() == offset


def test_detect_timezone_prefers_the_zone_id(saved_page: Callable[[str], Any]) -> None:
    assert detect_timezone(saved_page("en/viewtopic_p1").html) == ZoneInfo("Europe/Moscow")


def test_detect_timezone_phpbb30(real_page: Callable[[str], str]) -> None:
    assert detect_timezone(real_page("viewtopic.php_t=28017.html")) == UTC
    # "All times are UTC [ DST ]": summer time on top of UTC.
    assert detect_timezone(real_page("phpBB.html")) == timezone(timedelta(hours=1))
    assert detect_timezone("<ul><li>All times are UTC - 5 hours</li></ul>") == timezone(
        timedelta(hours=-5)
    )
    assert detect_timezone("<p>no footer here</p>") is None
