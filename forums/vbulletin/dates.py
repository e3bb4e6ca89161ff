"""vBulletin times → aware datetimes, and the zone a page prints them in.

vBulletin 3 and 4 print times in the reader's zone with the board's date and time formats
(4.x default `m-d-Y` and `h:i A`: «06-15-2016, 03:03 PM»; 3.x boards often `Y-m-d` and
`H:i`; Russian boards `d.m.Y`), «Today»/«Yesterday» («Сегодня»/«Вчера») for recent days,
and say the zone in the footer: "All times are GMT -5. The time now is 00:08." (Russian
«Часовой пояс GMT +3, время: 15:03.»). vBulletin 5 puts the Unix time of each post in
`data-node-publishdate`: no zone to guess.

An all-numeric date with dashes is ambiguous (04-09-2019): the caller says the order
("mdy", vBulletin's default, or "dmy"); dotted dates are day first, ISO dates year first,
the rest is the shared reader's (`forums.dates`).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone, tzinfo

from forums.dates import DAY_MONTH_ORDERS, parse_board_time, shown_time

__all__ = ["ORDERS", "footer_zone", "parse_vb_time"]

ORDERS = DAY_MONTH_ORDERS
_DASHED = re.compile(r"(?<![\d-])(\d{1,2})-(\d{1,2})-(\d{4}|\d{2})(?![\d-])")
_ZONE = re.compile(r"(?:GMT|UTC)\s*(?:([+-])\s*(\d{1,2})(?:[.:,](\d{1,2}))?)?(?!\w)", re.I)


def parse_vb_time(text: str, *, tz: tzinfo, now: datetime, order: str = "mdy") -> datetime:
    """A time as vBulletin prints it, aware in `tz`; ValueError (naming the text) if not one."""
    norm = shown_time(text, order, " ,.")
    dashed = _DASHED.search(norm)
    if dashed is not None:
        a, b, year = int(dashed.group(1)), int(dashed.group(2)), int(dashed.group(3))
        month, day = (a, b) if order == "mdy" else (b, a)
        if year < 100:
            year += 2000
        # Rewritten as ISO (year first): the shared reader reads the time around it.
        iso = f"{year:04d}-{month:02d}-{day:02d}"
        norm = norm[: dashed.start()] + iso + norm[dashed.end() :]
    return parse_board_time(norm, tz=tz, now=now, lang="en" if order == "mdy" else None)


def footer_zone(text: str) -> tzinfo | None:
    """The zone of "All times are GMT -5." / «Часовой пояс GMT +3» (a fixed offset), or None."""
    found = _ZONE.search(text)
    if found is None:
        return None
    if found.group(1) is None:
        return UTC
    hours = int(found.group(2))
    minutes = int(found.group(3) or 0)
    if minutes and minutes < 10 and len(found.group(3) or "") == 1:
        minutes *= 6  # "GMT +5.5": a decimal hour
    if hours > 14 or minutes >= 60:
        return None
    offset = timedelta(hours=hours, minutes=minutes)
    offset = -offset if found.group(1) == "-" else offset
    return UTC if not offset else timezone(offset)


def from_unix(stamp: str, tz: tzinfo) -> datetime | None:
    """vBulletin 5's `data-node-publishdate` (seconds since 1970) in `tz`."""
    if not stamp.strip().isdigit():
        return None
    return datetime.fromtimestamp(int(stamp), UTC).astimezone(tz)
