"""MyBB date formats, relative times with their titles, and the zone read off the footer clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from selectolax.lexbor import LexborHTMLParser

from forums.mybb.dates import node_time, parse_mybb_time, read_clock
from forums.mybb.thread import parse_edit_notice

MSK = timezone(timedelta(hours=3))
NOW = datetime(2026, 11, 30, 2, 47, 36, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "order", "expected"),
    [
        ("11-26-2026, 10:02 PM", "mdy", datetime(2026, 11, 26, 22, 2, tzinfo=MSK)),
        ("11-26-26, 12:05 AM", "mdy", datetime(2026, 11, 26, 0, 5, tzinfo=MSK)),
        ("03.04.2026, 12:30 PM", "mdy", datetime(2026, 3, 4, 12, 30, tzinfo=MSK)),
        ("03.04.2026, 12:30", "dmy", datetime(2026, 4, 3, 12, 30, tzinfo=MSK)),
        ("26-11-2026, 22:02", "dmy", datetime(2026, 11, 26, 22, 2, tzinfo=MSK)),
        ("2026-11-26, 22:02", "dmy", datetime(2026, 11, 26, 22, 2, tzinfo=MSK)),
        ("November 26th, 2026, 10:02 PM", "mdy", datetime(2026, 11, 26, 22, 2, tzinfo=MSK)),
        ("Yesterday, 11:05 AM", "mdy", datetime(2026, 11, 29, 11, 5, tzinfo=MSK)),
        ("Less than 1 minute ago", "mdy", datetime(2026, 11, 30, 5, 47, tzinfo=MSK)),
        ("7 hours ago", "mdy", datetime(2026, 11, 29, 22, 47, 36, tzinfo=MSK)),
        ("02-01-2026", "mdy", datetime(2026, 2, 1, tzinfo=MSK)),
    ],
)
def test_formats(text: str, order: str, expected: datetime) -> None:
    assert parse_mybb_time(text, tz=MSK, now=NOW, order=order) == expected


@pytest.mark.parametrize("text", ["", "soon", "13-40-2026, 10:00 AM", "11-26-2026, 25:00"])
def test_unreadable_times_say_so(text: str) -> None:
    with pytest.raises(ValueError, match="not a board time"):
        parse_mybb_time(text, tz=MSK, now=NOW)


def _node(markup: str) -> object:
    tree = LexborHTMLParser(f"<span class='post_date'>{markup}</span>")
    return tree.css_first("span.post_date")


def test_relative_forms_read_their_title() -> None:
    assert node_time(
        _node(
            '<span title="11-29-2026, 10:02 PM">7 hours ago</span> <span class="post_edit"></span>'
        ),  # type: ignore[arg-type]
        tz=MSK,
        now=NOW,
        skip="span.post_edit",
    ) == datetime(2026, 11, 29, 22, 2, tzinfo=MSK)
    # The title holds only the date; the time follows the span.
    assert node_time(
        _node('<span title="11-29-2026">Yesterday</span>, 03:40 PM'),  # type: ignore[arg-type]
        tz=MSK,
        now=NOW,
    ) == datetime(2026, 11, 29, 15, 40, tzinfo=MSK)
    # The edit notice nested in the date is not part of it.
    assert node_time(
        _node(
            '11-26-2026, 09:47 PM <span class="post_edit"><span class="edited_post">(This post was '
            "last modified: 11-27-2026, 11:00 AM by Admin.)</span></span>"
        ),  # type: ignore[arg-type]
        tz=MSK,
        now=NOW,
        skip="span.post_edit",
    ) == datetime(2026, 11, 26, 21, 47, tzinfo=MSK)


def test_the_footer_clock_gives_the_zone_and_the_date_order() -> None:
    clock = read_clock("11-30-2026, 05:47 AM", NOW)
    assert (
        clock is not None
        and clock.order == "mdy"
        and clock.tz.utcoffset(None) == timedelta(hours=3)
    )
    clock = read_clock("30.11.2026, 03:47", NOW)  # a d.m.Y board in UTC+1
    assert (
        clock is not None
        and clock.order == "dmy"
        and clock.tz.utcoffset(None) == timedelta(hours=1)
    )
    clock = read_clock("11-30-2026, 08:17 AM", NOW)  # India: a half-hour zone
    assert clock is not None and clock.tz.utcoffset(None) == timedelta(hours=5, minutes=30)
    # On the 11th of November both orders read alike: the zone is known, the order is not.
    clock = read_clock("11-11-2026, 03:00 PM", datetime(2026, 11, 11, 12, 0, 40, tzinfo=UTC))
    assert (
        clock is not None and clock.order is None and clock.tz.utcoffset(None) == timedelta(hours=3)
    )
    # A clock that is nowhere near the reference (a stale cache?) names no zone.
    assert read_clock("01-02-2020, 05:47 AM", NOW) is None
    assert read_clock("Current time", NOW) is None


@pytest.mark.parametrize(
    ("shown", "expected"),
    [
        # A relative date: the span's title holds only the day, the time follows it.
        (
            '<span title="11-29-2026">Yesterday</span>, 07:37 PM by <a href="member.php?'
            'action=profile&amp;uid=2">Ведущий 10:15</a>.',
            datetime(2026, 11, 29, 19, 37, tzinfo=MSK),
        ),
        (
            '<span title="11-30-2026, 05:47 AM">Less than 1 minute ago</span> by <a href="'
            'member.php?action=profile&amp;uid=2">Ведущий</a>.',
            datetime(2026, 11, 30, 5, 47, tzinfo=MSK),
        ),
    ],
)
def test_an_edit_notice_with_a_relative_date_keeps_its_time(shown: str, expected: datetime) -> None:
    """A merged post on a live MyBB was read as edited at midnight: the notice's «Yesterday»
    was read from its title alone, without the time after it."""
    notice = LexborHTMLParser(
        f'<span class="edited_post">(This post was last modified: {shown})</span>'
    ).css_first("span.edited_post")
    assert notice is not None
    edit = parse_edit_notice(notice, MSK, NOW.astimezone(MSK))
    assert edit is not None and edit.at == expected, edit
    assert edit.by is not None and edit.by.startswith("Ведущий"), edit
