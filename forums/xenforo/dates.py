"""XenForo times → aware datetimes.

XenForo 2 stamps every time with `data-time` (Unix seconds): no time zone is needed. XenForo
1 stamps only recent times (`abbr.DateTime[data-time]`, the last week); older ones are
`span.DateTime` whose `title` is a date string in the *viewer's* time zone ("Oct 30, 2014
at 10:48 PM", «16.06.17 в 14:54»). Those are read with the board's time zone: the one the
host configured, else the offset the page itself states in `XenForo.serverTimeInfo`
(`today` is local midnight as a Unix time), which is right for dates in the same DST period.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone, tzinfo

from selectolax.lexbor import LexborNode

from forums.dates import parse_board_time

__all__ = ["node_time", "parse_xf_time", "server_offset"]

_WEEKDAYS = {
    "monday": 0,
    "tuesday": 1,
    "wednesday": 2,
    "thursday": 3,
    "friday": 4,
    "saturday": 5,
    "sunday": 6,
    "понедельник": 0,
    "вторник": 1,
    "среда": 2,
    "среду": 2,
    "четверг": 3,
    "пятница": 4,
    "пятницу": 4,
    "суббота": 5,
    "субботу": 5,
    "воскресенье": 6,
}
_WEEKDAY_AT = re.compile(r"^\s*([^\W\d_]+)\s*(?:,\s*)?(?:at|в)\s+(.+)$", re.IGNORECASE)
_MOMENT = re.compile(r"^\s*(a moment ago|только что|минуту назад|1 minute ago)\s*$", re.I)
_SERVER_TIME = re.compile(
    r"serverTimeInfo\s*:\s*\{\s*now\s*:\s*(\d+)\s*,\s*today\s*:\s*(\d+)", re.IGNORECASE
)


def parse_xf_time(text: str, *, tz: tzinfo, now: datetime) -> datetime:
    """A XenForo date string in `tz`; ValueError with the text when unreadable.

    Adds XenForo's own relative forms to the shared reader: "Monday at 3:15 PM" (the last
    such weekday, within the week) and "A moment ago"."""
    local_now = now.astimezone(tz)
    if _MOMENT.match(text):
        return local_now
    match = _WEEKDAY_AT.match(text)
    if match is not None and match.group(1).casefold() in _WEEKDAYS:
        wanted = _WEEKDAYS[match.group(1).casefold()]
        back = (local_now.weekday() - wanted) % 7 or 7
        day = local_now.date() - timedelta(days=back)
        clock = parse_board_time(f"{day.isoformat()} {match.group(2)}", tz=tz, now=now)
        return clock
    return parse_board_time(text, tz=tz, now=now)


def node_time(node: LexborNode, *, tz: tzinfo | None, now: datetime) -> datetime:
    """The time a `<time>`/`<abbr>`/`<span class="DateTime">` shows; ValueError if none."""
    stamp = (node.attributes.get("data-time") or "").strip()
    if stamp.isdigit():
        moment = datetime.fromtimestamp(int(stamp), UTC)
        return moment.astimezone(tz) if tz is not None else moment
    shown = (node.attributes.get("title") or "").strip() or node.text(deep=True).strip()
    if not shown:
        raise ValueError("an empty time")
    if tz is None:
        raise ValueError(f"{shown!r} needs the board's time zone, and none is known")
    return parse_xf_time(shown, tz=tz, now=now)


def server_offset(html: str) -> tzinfo | None:
    """The viewer's UTC offset from XenForo 1's `serverTimeInfo` script block, or None."""
    match = _SERVER_TIME.search(html)
    if match is None:
        return None
    now, today = int(match.group(1)), int(match.group(2))
    if not 0 <= now - today < 86400 + 3600:
        return None
    # `today` is local midnight: its distance from UTC midnight is the offset (westward
    # positive), rounded to a quarter hour.
    seconds = -(today % 86400)
    if seconds < -12 * 3600:
        seconds += 86400
    minutes = round(seconds / 900) * 15
    return UTC if minutes == 0 else timezone(timedelta(minutes=minutes))
