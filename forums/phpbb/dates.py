"""phpBB date strings → aware datetimes, in both the Russian and the English language pack.

phpBB prints times with the user's date format (`D M d, Y g:i a`, `|d M Y|, H:i`,
`d.m.Y, H:i`, `|F jS, Y|, g:i a`, …) in the user's time zone, and "relative" formats
(the `|…|` part) as «Сегодня, 13:37» / "Yesterday, 10:10 pm" and, within the last hour,
«менее минуты назад» / "5 minutes ago". Those resolve against `now` (the fetch time).

`parse_board_time` does not need the format string: it reads a month name, a day, a year
and a time wherever they stand, so a board with another default format still parses.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from selectolax.lexbor import LexborHTMLParser

__all__ = ["detect_timezone", "parse_board_time"]

_MONTHS_EN = {
    "jan": 1,
    "feb": 2,
    "mar": 3,
    "apr": 4,
    "may": 5,
    "jun": 6,
    "jul": 7,
    "aug": 8,
    "sep": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
}
# Russian month stems: nominative, genitive and the 3-letter short forms share them.
_MONTHS_RU = (
    ("янв", 1),
    ("фев", 2),
    ("мар", 3),
    ("апр", 4),
    ("май", 5),
    ("мая", 5),
    ("июн", 6),
    ("июл", 7),
    ("авг", 8),
    ("сен", 9),
    ("окт", 10),
    ("ноя", 11),
    ("дек", 12),
)
_WEEKDAYS = frozenset(
    [
        "mon",
        "tue",
        "wed",
        "thu",
        "fri",
        "sat",
        "sun",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "пн",
        "вт",
        "ср",
        "чт",
        "пт",
        "сб",
        "вс",
        "пнд",
        "втр",
        "срд",
        "чтв",
        "птн",
        "сбт",
        "вск",
        "понедельник",
        "вторник",
        "среда",
        "среду",
        "четверг",
        "пятница",
        "пятницу",
        "суббота",
        "субботу",
        "воскресенье",
    ]
)
_FILLER = frozenset(["on", "at", "of", "the", "в", "г", "года", "год"])
_TODAY = frozenset({"сегодня", "today"})
_YESTERDAY = frozenset({"вчера", "yesterday"})

_TIME = re.compile(
    r"(?<!\d)(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.|дп|пп)?(?![\w])",
    re.IGNORECASE,
)
_DMY_DOTS = re.compile(r"(?<!\d)(\d{1,2})\.(\d{1,2})\.(\d{4}|\d{2})(?!\d)")
_YMD = re.compile(r"(?<!\d)(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)")
_SLASHES = re.compile(r"(?<!\d)(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})(?!\d)")
_WORD = re.compile(r"'\d{2}\b|\d+(?:st|nd|rd|th|-?го|-?е)?|[^\W\d_]+", re.IGNORECASE)

_LESS_THAN_MINUTE = re.compile(r"^(менее минуты назад|less than a minute ago|just now|только что)$")
_MINUTES_AGO = re.compile(r"^(\d+)\s*(минут[ауы]?|мин\.?|minutes?|mins?)\s*(назад|ago)$")
_HOURS_AGO = re.compile(r"^(\d+)\s*(час(?:а|ов)?|hours?)\s*(назад|ago)$")


_SPACES = re.compile(r"\s+")


def _normalise(text: str) -> str:
    text = text.replace("\xa0", " ").replace("\u202f", " ").replace("|", " ")
    text = text.lower().replace("ё", "е")
    return _SPACES.sub(" ", text).strip(" \t\n,;»«")


def _month(word: str) -> int | None:
    word = word.rstrip(".")
    if len(word) < 3:
        return None
    for stem, number in _MONTHS_RU:
        if word.startswith(stem):
            return number
    if word.isascii() and word.isalpha():
        if word in {"sept"}:
            return 9
        english = _MONTHS_EN.get(word[:3])
        full_names = {
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        }
        if english is not None and (len(word) == 3 or word in full_names):
            return english
    return None


def _year(text: str) -> int:
    value = int(text.lstrip("'"))
    return value + 2000 if value < 100 else value


def parse_board_time(text: str, *, tz: tzinfo, now: datetime, lang: str | None = None) -> datetime:
    """Read a time as phpBB displays it; aware, in `tz`. ValueError (with the text) if unreadable.

    `now` resolves relative forms («Сегодня», "5 minutes ago"); `lang` only decides the
    order of an all-numeric `a/b/Y` date ("en": month first, otherwise day first).
    """
    original = text
    norm = _normalise(text)
    if not norm:
        raise ValueError(f"not a board time: {original!r}")
    if (quick := _quick(norm, tz)) is not None:
        return quick
    local_now = (now if now.tzinfo is not None else now.replace(tzinfo=UTC)).astimezone(tz)
    if _LESS_THAN_MINUTE.match(norm):
        return local_now
    if match := _MINUTES_AGO.match(norm):
        return local_now - timedelta(minutes=int(match.group(1)))
    if match := _HOURS_AGO.match(norm):
        return local_now - timedelta(hours=int(match.group(1)))

    hour = minute = second = 0
    time_match = _TIME.search(norm)
    if time_match is not None:
        hour, minute = int(time_match.group(1)), int(time_match.group(2))
        second = int(time_match.group(3) or 0)
        hour = _hour24(hour, (time_match.group(4) or "").replace(".", ""))
        rest = norm[: time_match.start()] + " " + norm[time_match.end() :]
    else:
        rest = norm

    day_value: date | None = None
    words = set(_WORD.findall(rest))
    if words & _TODAY:
        day_value = local_now.date()
    elif words & _YESTERDAY:
        day_value = local_now.date() - timedelta(days=1)
    elif match := _YMD.search(rest):
        day_value = _date(int(match.group(1)), int(match.group(2)), int(match.group(3)), original)
    elif match := _DMY_DOTS.search(rest):
        day_value = _date(_year(match.group(3)), int(match.group(2)), int(match.group(1)), original)
    elif match := _SLASHES.search(rest):
        first, second_part = int(match.group(1)), int(match.group(2))
        month_first = (lang == "en" and first <= 12) or second_part > 12
        month, day = (first, second_part) if month_first else (second_part, first)
        day_value = _date(_year(match.group(3)), month, day, original)
    else:
        day_value = _date_from_words(rest, local_now, original)

    if day_value is None:
        raise ValueError(f"not a board time: {original!r}")
    if time_match is None and not _has_date_only_shape(rest):
        raise ValueError(f"not a board time: {original!r}")
    try:
        return datetime(
            day_value.year, day_value.month, day_value.day, hour, minute, second, tzinfo=tz
        )
    except ValueError as exc:
        raise ValueError(f"not a board time: {original!r} ({exc})") from None


_DEFAULT_EN = re.compile(
    r"(?:([a-z]+) )?([a-z]{3}) (\d{1,2}), (\d{4}) (\d{1,2}):(\d{2})(?: (am|pm))?"
)
"""phpBB's default English date format ("Sun May 26, 2019 4:34 pm"), normalised."""


def _quick(norm: str, tz: tzinfo) -> datetime | None:
    """The default English format read in one match, as the general reading reads it; None
    sends anything else (or anything odd) the general way."""
    match = _DEFAULT_EN.fullmatch(norm)
    if match is None:
        return None
    weekday, month_word, day, year, hour, minute, meridiem = match.groups()
    month = _MONTHS_EN.get(month_word)
    if month is None or (weekday is not None and weekday not in _WEEKDAYS):
        return None
    try:
        return datetime(
            int(year), month, int(day), _hour24(int(hour), meridiem or ""), int(minute), tzinfo=tz
        )
    except ValueError:
        return None


def _hour24(hour: int, meridiem: str) -> int:
    """The hour on a 24-hour clock: 12 am is 0, 1 pm is 13 (no meridiem: as written)."""
    if meridiem in ("am", "дп") and hour == 12:
        return 0
    if meridiem in ("pm", "пп") and hour != 12:
        return hour + 12
    return hour


def _has_date_only_shape(rest: str) -> bool:
    """A date without a time is accepted (join dates); anything else needs a time."""
    return bool(re.search(r"\d", rest))


def _date(year: int, month: int, day: int, original: str) -> date:
    try:
        return date(year, month, day)
    except ValueError:
        raise ValueError(f"not a board time: {original!r}") from None


def _date_from_words(rest: str, local_now: datetime, original: str) -> date | None:
    month: int | None = None
    year: int | None = None
    day: int | None = None
    for token in _WORD.findall(rest):
        if token.startswith("'"):
            year = _year(token)
            continue
        digits = re.match(r"\d+", token)
        if digits is not None:
            value = int(digits.group(0))
            if len(digits.group(0)) == 4:
                year = value
            elif day is None and 1 <= value <= 31:
                day = value
            else:
                raise ValueError(f"not a board time: {original!r}")
            continue
        if token in _WEEKDAYS or token in _FILLER:
            continue
        number = _month(token)
        if number is not None and month is None:
            month = number
            continue
        raise ValueError(f"not a board time: {original!r} (unknown word {token!r})")
    if month is None or day is None:
        return None
    if year is None:
        # A format without a year: the latest such date not after tomorrow.
        year = local_now.year
        if date(year, month, min(day, 28)) > local_now.date() + timedelta(days=1):
            year -= 1
    return _date(year, month, day, original)


# --- the user's time zone as the page states it ---------------------------------------

_OFFSET = re.compile(
    r"(?:UTC|GMT)\s*(?:([+\-−])\s*(\d{1,2})(?:[:.](\d{2}))?(?:\s*(?:hours?|час\w*))?)?",
    re.IGNORECASE,
)
_FOOTER_HINTS = ("All times are", "Часовой пояс", "Все время", "Время: UTC")


def detect_timezone(html: str) -> tzinfo | None:
    """The time zone the page's times are in, from phpBB's footer, or None.

    phpBB 3.1+ prints `All times are <span title="Europe/Moscow">UTC+03:00</span>` (the
    title is the zone id, translated in some language packs: then the fixed offset is
    used); phpBB 3.0 prints "All times are UTC + 3 hours [ DST ]".
    """
    try:
        tree = LexborHTMLParser(html)
    except Exception:
        return None
    for node in tree.css("li, p, div.copyright"):
        text = node.text(deep=True, separator=" ", strip=False)
        if len(text) > 400 or not any(hint.lower() in text.lower() for hint in _FOOTER_HINTS):
            continue
        span = node.css_first("span[title]")
        if span is not None:
            zone_name = (span.attributes.get("title") or "").strip()
            if zone_name and zone_name.isascii():
                try:
                    return ZoneInfo(zone_name)
                except (ZoneInfoNotFoundError, ValueError):
                    pass
        offset = _parse_offset(text)
        if offset is not None:
            return offset
    return None


def _parse_offset(text: str) -> tzinfo | None:
    match = _OFFSET.search(text)
    if match is None:
        return None
    minutes = 0
    if match.group(2):
        minutes = int(match.group(2)) * 60 + int(match.group(3) or 0)
        if match.group(1) in {"-", "−"}:
            minutes = -minutes
    if re.search(r"\[\s*(DST|летнее)", text, re.IGNORECASE):
        minutes += 60
    if minutes == 0:
        return UTC
    return timezone(timedelta(minutes=minutes))
