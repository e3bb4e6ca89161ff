"""MyBB date strings → aware datetimes, and the reader's time zone from the board's own clock.

MyBB prints times in the reading user's zone with the board's `dateformat`/`timeformat`
(default `m-d-Y, h:i A`; also `d.m.Y`, `Y-m-d`, `F jS, Y`, … and `H:i`). Recent times are
"relative": `<span title="11-29-2026, 10:02 PM">7 hours ago</span>`, or
`<span title="11-29-2026">Yesterday</span>, 11:05 AM` — the `title` holds the absolute
date, so relative words are only a fallback here.

Numeric dates are ambiguous (`03-04-2026`): the caller says the order ("mdy", MyBB's
default, or "dmy"). `read_clock` finds both the zone and, when the day allows, the order by
comparing the footer's "Current time: …" with the server's UTC time (its `Date` header) —
MyBB pages name no time zone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, timezone, tzinfo

from selectolax.lexbor import LexborNode

from forums.dates import DAY_MONTH_ORDERS, parse_board_time, shown_time

__all__ = ["BoardClock", "node_time", "parse_mybb_time", "read_clock"]

ORDERS = DAY_MONTH_ORDERS

_NUMERIC = re.compile(r"(?<!\d)(\d{1,4})([-./])(\d{1,2})\2(\d{2,4})(?!\d)")
_TIME = re.compile(r"(?<!\d)(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([ap]\.?m\.?)?(?![\w])", re.I)
_LESS_THAN_MINUTE = re.compile(
    r"^(?:less than (?:1|one|a) minute ago|just now|менее (?:1|одной) минуты назад)$", re.I
)
_AGO = re.compile(r"^(\d+)\s+(minute|minutes|hour|hours|минут\w*|час\w*)\s+(?:ago|назад)$", re.I)


def _date(year: int, month: int, day: int, original: str) -> date:
    try:
        return date(year + 2000 if year < 100 else year, month, day)
    except ValueError:
        raise ValueError(f"not a board time: {original!r}") from None


def _numeric_date(match: re.Match[str], order: str, original: str) -> date:
    first, _, second, third = match.groups()
    if len(first) == 4:  # Y-m-d
        return _date(int(first), int(second), int(third), original)
    if len(third) not in (2, 4):
        raise ValueError(f"not a board time: {original!r}")
    a, b = int(first), int(second)
    month, day = (a, b) if order == "mdy" else (b, a)
    return _date(int(third), month, day, original)


def _clock_time(text: str) -> tuple[int, int, int] | None:
    match = _TIME.search(text)
    if match is None:
        return None
    hour, minute, second = int(match.group(1)), int(match.group(2)), int(match.group(3) or 0)
    meridiem = (match.group(4) or "").lower().replace(".", "")
    if meridiem == "am" and hour == 12:
        hour = 0
    elif meridiem == "pm" and hour != 12:
        hour += 12
    if hour > 23 or minute > 59 or second > 59:
        return None
    return hour, minute, second


def parse_mybb_time(text: str, *, tz: tzinfo, now: datetime, order: str = "mdy") -> datetime:
    """A time as MyBB prints it, aware in `tz`; ValueError (naming the text) if unreadable."""
    norm = shown_time(text, order, " ,()")
    local_now = (now if now.tzinfo is not None else now.replace(tzinfo=UTC)).astimezone(tz)
    if _LESS_THAN_MINUTE.match(norm):
        return local_now.replace(second=0, microsecond=0)
    if match := _AGO.match(norm):
        amount = int(match.group(1))
        unit = timedelta(hours=1) if match.group(2).lower().startswith(("hour", "час")) else None
        return local_now - (unit or timedelta(minutes=1)) * amount
    numeric = _NUMERIC.search(norm)
    if numeric is None:
        # Month names, "Today"/"Yesterday" and their Russian forms: the phpBB reader knows them.
        return parse_board_time(norm, tz=tz, now=now, lang="en" if order == "mdy" else None)
    day = _numeric_date(numeric, order, text)
    rest = norm[: numeric.start()] + " " + norm[numeric.end() :]
    clock = _clock_time(rest)
    if clock is None and _TIME.search(rest):
        raise ValueError(f"not a board time: {text!r}")
    return datetime(day.year, day.month, day.day, *(clock or (0, 0, 0)), tzinfo=tz)


def node_time(
    node: LexborNode, *, tz: tzinfo, now: datetime, order: str = "mdy", skip: str = ""
) -> datetime:
    """The time a `span.post_date` (or any node) shows, preferring a relative form's `title`.

    `skip` is a selector of child nodes whose text is not part of the time (the edit
    notice nested inside a post's date)."""
    skipped = {n.mem_id for n in node.css(skip)} if skip else set()
    titled = node.css_first("span[title]")
    parts: list[str] = []
    for child in node.iter(include_text=True):
        if child.mem_id in skipped or (titled is not None and child.mem_id == titled.mem_id):
            continue
        parts.append(child.text(deep=True) or "")
    rest = " ".join(parts)
    if titled is not None and titled.mem_id not in skipped:
        title = titled.attributes.get("title") or ""
        # "Yesterday, 11:05 AM": the title holds only the date, the time follows the span.
        if _clock_time(title) is None and (clock := _TIME.search(rest)) is not None:
            title = f"{title} {clock.group(0)}"
        return parse_mybb_time(title, tz=tz, now=now, order=order)
    return parse_mybb_time(rest, tz=tz, now=now, order=order)


@dataclass(frozen=True)
class BoardClock:
    """What the footer's clock says about how the page prints times."""

    tz: tzinfo
    order: str | None
    """"mdy" or "dmy" when the day tells them apart (not on the 4th of April…), else None."""


_QUARTER = 15 * 60


def read_clock(shown: str, reference: datetime) -> BoardClock | None:
    """The zone (and date order) in which `shown` ("11-30-2026, 05:47 AM") is `reference`.

    `reference` is the server's UTC time (its `Date` header) or our own clock. The offset is
    rounded to a quarter hour, as every real zone is, which also absorbs the minute the
    footer drops and a few minutes of clock skew."""
    ref = reference.astimezone(UTC).replace(tzinfo=None)
    found: dict[str, tzinfo] = {}
    for order in ORDERS:
        try:
            local = parse_mybb_time(shown, tz=UTC, now=reference, order=order)
        except ValueError:
            continue
        seconds = (local.replace(tzinfo=None) - ref).total_seconds()
        quarters = round(seconds / _QUARTER)
        if abs(seconds - quarters * _QUARTER) > 7.5 * 60 or abs(quarters) > 14 * 4:
            continue
        offset = timedelta(seconds=quarters * _QUARTER)
        found[order] = UTC if not offset else timezone(offset)
    if not found:
        return None
    if len(found) == 2:
        mdy, dmy = found["mdy"], found["dmy"]
        same = mdy.utcoffset(None) == dmy.utcoffset(None)
        return BoardClock(mdy, None) if same else None
    (order, tz), *_ = found.items()
    return BoardClock(tz, order)
