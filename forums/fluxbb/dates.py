"""FluxBB's times → aware datetimes.

FluxBB prints a time as `<date> <time>` in the reader's zone (`format_time`): the date is
«Сегодня» / "Today" or «Вчера» / "Yesterday" when it is, else the reader's date format —
the board's default or one of `Y-m-d`, `Y-d-m`, `d-m-Y`, `m-d-Y`, `M j Y`, `jS M Y` — and
the time `H:i:s`, `H:i`, `g:i:s a` or `g:i a`. The month names are PHP's English ones in
every language pack. The three dashed orders cannot be told apart from one date: the
account's own setting says which (`DATE_ORDERS`, read from its profile by the board).

A zone is an offset in hours with a "daylight saving" tick (`zone_of`), not a named zone.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone, tzinfo

from forums.dates import parse_board_time

__all__ = ["DATE_ORDERS", "order_of_example", "parse_fluxbb_time", "zone_of"]

DATE_ORDERS = {"1": "ymd", "2": "ydm", "3": "dmy", "4": "mdy", "5": "words", "6": "words"}
"""The account's date format (profile → Essentials) by its value: 1 `Y-m-d`, 2 `Y-d-m`,
3 `d-m-Y`, 4 `m-d-Y`, 5 `M j Y`, 6 `jS M Y`; 0 is the board's default (`order_of_example`)."""

_DASHED = re.compile(r"^\s*(\d{1,4})-(\d{1,2})-(\d{1,4})(?=\s|$)(.*)$", re.S)
_CLOCK = re.compile(r"^\s*(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?\s*$")


def zone_of(offset: str, dst: bool) -> tzinfo:
    """The zone of FluxBB's offset in hours ("3", "-3.5", "5.75") and its DST tick."""
    hours = float(offset) + (1 if dst else 0)
    return timezone(timedelta(minutes=round(hours * 60)))


def order_of_example(example: str, today: date) -> str | None:
    """The date order of a format shown as today's date (`05-12-2026`): "words" for a
    month name; None when it fits none of the orders, or more than one (on the 12th of
    December d-m-Y and m-d-Y show the same)."""
    found = _DASHED.match(example)
    if found is None:
        return "words" if re.search(r"[A-Za-z]{3}", example) else None
    parts = (found.group(1), found.group(2), found.group(3))
    fits = [o for o in ("ymd", "ydm", "dmy", "mdy") if _dated(parts, o) == today]
    return fits[0] if len(fits) == 1 else None


def _dated(parts: tuple[str, str, str], order: str) -> date | None:
    a, b, c = (int(p) for p in parts)
    year, month, day = {
        "ymd": (a, b, c),
        "ydm": (a, c, b),
        "dmy": (c, b, a),
        "mdy": (c, a, b),
    }[order]
    if (order.startswith("y") and len(parts[0]) != 4) or (
        not order.startswith("y") and len(parts[2]) != 4
    ):
        return None
    try:
        return date(year, month, day)
    except ValueError:
        return None


def parse_fluxbb_time(text: str, *, tz: tzinfo, now: datetime, order: str = "ymd") -> datetime:
    """A FluxBB time as the page prints it, in the reader's zone `tz`; `order`: the dashed
    date's order (`DATE_ORDERS`). ValueError when it is not one."""
    found = _DASHED.match(text)
    if found is not None and order in ("ydm", "dmy", "mdy"):
        day = _dated((found.group(1), found.group(2), found.group(3)), order)
        clock = _CLOCK.match(found.group(4)) if found.group(4).strip() else None
        if day is None or (found.group(4).strip() and clock is None):
            raise ValueError(f"not a FluxBB time: {text!r}")
        hour = minute = second = 0
        if clock is not None:
            hour, minute, second = (
                int(clock.group(1)),
                int(clock.group(2)),
                int(clock.group(3) or 0),
            )
            meridiem = (clock.group(4) or "").lower()
            if meridiem:
                hour = hour % 12 + (12 if meridiem == "pm" else 0)
        return datetime(day.year, day.month, day.day, hour, minute, second, tzinfo=tz)
    return parse_board_time(text, tz=tz, now=now)
