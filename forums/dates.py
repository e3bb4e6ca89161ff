"""Board date strings → aware datetimes, in Russian and English and the languages of
`forums.datewords`; every engine's reader uses it.

The shapes are phpBB's, whose reader came first: phpBB prints times with the user's date
format (`D M d, Y g:i a`, `|d M Y|, H:i`, `d.m.Y, H:i`, `|F jS, Y|, g:i a`, …) in the user's
time zone, and "relative" formats (the `|…|` part) as «Сегодня, 13:37» / "Yesterday,
10:10 pm" and, within the last hour, «менее минуты назад» / "5 minutes ago". Those resolve
against `now` (the fetch time).

`parse_board_time` does not need the format string: it reads a month name, a day, a year
and a time wherever they stand, so a board with another default format still parses — MyBB's
and XenForo's readers hand it what is left once their own shapes are read.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta, timezone, tzinfo

from forums.datewords import lookup, words_for

__all__ = [
    "DASHED_DATE_ORDERS",
    "DAY_MONTH_ORDERS",
    "hour_offset_zone",
    "order_of_example",
    "parse_board_time",
    "parse_ordered_time",
    "shown_time",
]

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


DAY_MONTH_ORDERS = ("mdy", "dmy")
"""How an engine whose all-numeric dates are ambiguous (MyBB's and vBulletin's 04-09-2019)
is told which comes first."""


def shown_time(text: str, order: str, strip: str) -> str:
    """A time as an engine of `DAY_MONTH_ORDERS` prints it, its white space folded and the
    characters of `strip` trimmed; ValueError for an order not one of those, or no text."""
    if order not in DAY_MONTH_ORDERS:
        raise ValueError(f"date order must be one of {DAY_MONTH_ORDERS}, not {order!r}")
    norm = " ".join(text.replace("\xa0", " ").split()).strip(strip)
    if not norm:
        raise ValueError(f"not a board time: {text!r}")
    return norm


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

    `now` resolves relative forms («Сегодня», "5 minutes ago"); `lang` is the page's
    language (`<html lang>`): it decides the order of an all-numeric `a/b/Y` date ("en":
    month first, otherwise day first) and which language's month and weekday names a word
    the Russian and English names do not know is read in (any language when None).
    """
    original = text
    if (stamped := _with_offset(text)) is not None:  # it says its own zone: nothing to guess
        return stamped.astimezone(tz)
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
    relative = _relative_day(rest, words, lang)
    if relative is not None:
        day_value = local_now.date() - timedelta(days=relative)
    elif match := _YMD.search(rest):
        day_value = _date(int(match.group(1)), int(match.group(2)), int(match.group(3)), original)
    elif match := _DMY_DOTS.search(rest):
        day_value = _date(_year(match.group(3)), int(match.group(2)), int(match.group(1)), original)
    elif match := _SLASHES.search(rest):
        first, second_part = int(match.group(1)), int(match.group(2))
        month_first = (lang == "en" and first <= 12) or second_part > 12
        month, day = (first, second_part) if month_first else (second_part, first)
        day_value = _date(_year(match.group(3)), month, day, original)
    elif match := _DAY_MON_YY.search(rest):
        day_value = _day_mon_yy(match, lang, original)
    else:
        day_value = _date_from_words(rest, local_now, original, lang)

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


_ISO_OFFSET = re.compile(
    r"\s*(?:»\s*)?(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?\s?"
    r"(Z|[+-]\d{2}:?\d{2})\s*"
)
"""A time with its offset, as the GM's own date format prints it where the host let forumgm
set one (`forums.userprefs`; phpBB's `Y-m-d H:i:s P`: «2026-12-05 19:04:00 +03:00»)."""


def is_stamped(text: str) -> bool:
    """Whether `text` is a time that names its own offset (read without a zone)."""
    return _ISO_OFFSET.fullmatch(text) is not None


def _with_offset(text: str) -> datetime | None:
    match = _ISO_OFFSET.fullmatch(text)
    if match is None:
        return None
    year, month, day, hour, minute, second, offset = match.groups()
    if offset == "Z":
        zone: tzinfo = UTC
    else:
        sign = -1 if offset[0] == "-" else 1
        hours, minutes = int(offset[1:3]), int(offset[-2:])
        if hours > 23 or minutes > 59:
            return None
        zone = timezone(sign * timedelta(hours=hours, minutes=minutes))
    try:
        return datetime(
            int(year), int(month), int(day), int(hour), int(minute), int(second or 0), tzinfo=zone
        )
    except ValueError:
        return None


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


_DAY_MON_YY = re.compile(r"(?<![\w.])(\d{1,2})-([^\W\d_]{3,12})\.?-(\d{2}|\d{4})(?![\w.])")
"""TorrentPier's and some styles' «14-Ноя-15» (day, short month, two- or four-digit year)."""


def _day_mon_yy(match: re.Match[str], lang: str | None, original: str) -> date:
    month = _month_number(match.group(2), lang)
    if month is None:
        raise ValueError(f"not a board time: {original!r} (unknown month {match.group(2)!r})")
    return _date(_year(match.group(3)), month, int(match.group(1)), original)


def _month_number(word: str, lang: str | None) -> int | None:
    """A month name in Russian or English, else in the page's language (any when None);
    None when the word is no month or names different months in different languages."""
    number = _month(word)
    if number is not None:
        return number
    months = lookup(word, lang).months
    return next(iter(months)) if len(months) == 1 else None


def _relative_day(rest: str, words: set[str], lang: str | None) -> int | None:
    """0 for «Сегодня»/"Today"/«oggi», 1 for "Yesterday"/«hier»; None for a dated time."""
    if words & _TODAY:
        return 0
    if words & _YESTERDAY:
        return 1
    if lang is None or lang in ("ru", "en") or _has_digit_date(rest):
        return None
    table = words_for(lang)
    if table is None:
        return None
    # «aujourd'hui» is one word with an apostrophe: the language's words are matched whole.
    spaced = " " + re.sub(r"[,;|]", " ", rest) + " "
    if any(f" {w} " in spaced for w in table.today):
        return 0
    if any(f" {w} " in spaced for w in table.yesterday):
        return 1
    return None


def _has_digit_date(rest: str) -> bool:
    return re.search(r"\d", rest) is not None


def _date_from_words(
    rest: str, local_now: datetime, original: str, lang: str | None = None
) -> date | None:
    """A date written with a month name: the day, the month and an optional year, in any
    order, with weekdays and fillers («de», «à», "of") between them."""
    year: int | None = None
    day: int | None = None
    month_words: list[tuple[str, frozenset[int]]] = []
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
            elif year is None and month_words and len(digits.group(0)) == 2:
                year = 2000 + value  # «14 ноя 15»: a two-digit year after day and month
            else:
                raise ValueError(f"not a board time: {original!r}")
            continue
        if token in _WEEKDAYS or token in _FILLER:
            continue
        number = _month(token)
        if number is not None:
            month_words.append((token, frozenset({number})))
            continue
        meaning = lookup(token, lang)
        if meaning.months:
            month_words.append((token, meaning.months))
        elif not (meaning.weekday or meaning.filler):
            raise ValueError(f"not a board time: {original!r} (unknown word {token!r})")
    month = _pick_month(month_words, lang, original)
    if month is None or day is None:
        return None
    if year is None:
        # A format without a year: the latest such date not after tomorrow.
        year = local_now.year
        if date(year, month, min(day, 28)) > local_now.date() + timedelta(days=1):
            year -= 1
    return _date(year, month, day, original)


def _pick_month(
    month_words: list[tuple[str, frozenset[int]]], lang: str | None, original: str
) -> int | None:
    """The month among the words that can name one. «Mar 13 Jan 2015» (French: «Mar» is
    mardi) and «martedì»: a word that is also a weekday gives way to one that is not."""
    if not month_words:
        return None
    if len(month_words) > 1:
        month_words = [
            (word, months)
            for word, months in month_words
            if not (word in _WEEKDAYS or lookup(word, lang).weekday)
        ]
    if len(month_words) != 1 or len(month_words[0][1]) != 1:
        raise ValueError(f"not a board time: {original!r} (which word is the month?)")
    return next(iter(month_words[0][1]))


# -- PunBB's family (FluxBB, PunBB 1.2 and 1.4): dashed dates in the reader's order -----------

DASHED_DATE_ORDERS = {"1": "ymd", "2": "ydm", "3": "dmy", "4": "mdy", "5": "words", "6": "words"}
"""The account's date format in PunBB's family (FluxBB, PunBB 1.4: profile → settings) by
its value: 1 `Y-m-d`, 2 `Y-d-m`, 3 `d-m-Y`, 4 `m-d-Y`, 5 `M j Y`, 6 `jS M Y`; 0 is the
board's default (`order_of_example`). The three dashed orders cannot be told apart from
one date: the account's setting says which."""

_DASHED = re.compile(r"^\s*(\d{1,4})-(\d{1,2})-(\d{1,4})(?=\s|$)(.*)$", re.S)
_CLOCK = re.compile(r"^\s*(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?\s*$")


def hour_offset_zone(offset: str, dst: bool) -> tzinfo:
    """The zone of an offset in hours ("3", "-3.5", "5.75") and a daylight-saving tick, as
    PunBB's family keeps an account's zone (no named zones)."""
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
    fits = [o for o in ("ymd", "ydm", "dmy", "mdy") if _dashed_date(parts, o) == today]
    return fits[0] if len(fits) == 1 else None


def _dashed_date(parts: tuple[str, str, str], order: str) -> date | None:
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


def parse_ordered_time(text: str, *, tz: tzinfo, now: datetime, order: str = "ymd") -> datetime:
    """A time of PunBB's family as the page prints it (`<date> <time>`: «Сегодня» /
    "Today", «Вчера» / "Yesterday", else the reader's date format; the time `H:i:s`, `H:i`,
    `g:i:s a` or `g:i a`) in the reader's zone `tz`; `order`: a dashed date's order
    (`DASHED_DATE_ORDERS`). ValueError when it is not one."""
    found = _DASHED.match(text)
    if found is not None and order in ("ydm", "dmy", "mdy"):
        day = _dashed_date((found.group(1), found.group(2), found.group(3)), order)
        clock = _CLOCK.match(found.group(4)) if found.group(4).strip() else None
        if day is None or (found.group(4).strip() and clock is None):
            raise ValueError(f"not a board time: {text!r}")
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
