"""FluxBB's seven date formats and four time formats, «Сегодня»/"Yesterday", its zones
(an offset in hours, a DST tick) and the date order told from a profile's example."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest

from forums.fluxbb.dates import order_of_example, parse_fluxbb_time, zone_of

TZ = timezone(timedelta(hours=3))
NOW = datetime(2026, 12, 5, 15, 0, tzinfo=TZ)


@pytest.mark.parametrize(
    ("shown", "order", "expected"),
    [
        ("2026-12-01 19:05:07", "ymd", datetime(2026, 12, 1, 19, 5, 7, tzinfo=TZ)),
        ("2026-01-12 19:05", "ydm", datetime(2026, 12, 1, 19, 5, tzinfo=TZ)),
        ("01-12-2026 7:05 pm", "dmy", datetime(2026, 12, 1, 19, 5, tzinfo=TZ)),
        ("12-01-2026 7:05:30 am", "mdy", datetime(2026, 12, 1, 7, 5, 30, tzinfo=TZ)),
        ("12-01-2026 12:10 am", "mdy", datetime(2026, 12, 1, 0, 10, tzinfo=TZ)),
        ("12-01-2026 12:10 pm", "mdy", datetime(2026, 12, 1, 12, 10, tzinfo=TZ)),
        ("Dec 1 2026 19:05:07", "words", datetime(2026, 12, 1, 19, 5, 7, tzinfo=TZ)),
        ("1st Dec 2026 7:05 pm", "words", datetime(2026, 12, 1, 19, 5, tzinfo=TZ)),
        ("Today 14:59:59", "ymd", datetime(2026, 12, 5, 14, 59, 59, tzinfo=TZ)),
        ("Сегодня 2:59 pm", "dmy", datetime(2026, 12, 5, 14, 59, tzinfo=TZ)),
        ("Yesterday 23:00", "ymd", datetime(2026, 12, 4, 23, 0, tzinfo=TZ)),
        ("Вчера 6:25 pm", "dmy", datetime(2026, 12, 4, 18, 25, tzinfo=TZ)),
    ],
)
def test_each_format_reads(shown: str, order: str, expected: datetime) -> None:
    assert parse_fluxbb_time(shown, tz=TZ, now=NOW, order=order) == expected


@pytest.mark.parametrize("shown", ["31-31-2026 10:00", "01-12-2026 25:99", "never"])
def test_what_is_no_time_is_an_error(shown: str) -> None:
    with pytest.raises(ValueError):
        parse_fluxbb_time(shown, tz=TZ, now=NOW, order="dmy")


def test_zones_are_offsets_with_a_dst_tick() -> None:
    assert zone_of("3", False).utcoffset(None) == timedelta(hours=3)
    assert zone_of("-3.5", True).utcoffset(None) == timedelta(hours=-2.5)
    assert zone_of("5.75", False).utcoffset(None) == timedelta(hours=5, minutes=45)


def test_the_date_order_from_todays_example() -> None:
    today = date(2026, 11, 25)
    assert order_of_example("2026-11-25", today) == "ymd"
    assert order_of_example("2026-25-11", today) == "ydm"
    assert order_of_example("25-11-2026", today) == "dmy"
    assert order_of_example("11-25-2026", today) == "mdy"
    assert order_of_example("Nov 25 2026", today) == "words"
    # On the 12th of December d-m-Y and m-d-Y look alike: not to be told.
    assert order_of_example("12-12-2026", date(2026, 12, 12)) is None
    assert order_of_example("2026-11-24", today) is None  # not today at all
