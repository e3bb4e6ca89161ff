"""The time zone a phpBB page prints its times in; the times themselves are read by
`forums.dates.parse_board_time` (board-independent, re-exported here)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from selectolax.lexbor import LexborHTMLParser

from forums.dates import parse_board_time
from forums.datewords import language_of
from forums.html import page_tree

__all__ = ["clock_offset", "detect_timezone", "parse_board_time", "server_date"]


_OFFSET = re.compile(
    r"(?:UTC|GMT)\s*(?:([+\-−])\s*(\d{1,2})(?:[:.](\d{2}))?(?:\s*[^\W\d_]{0,12})?)?",
    re.IGNORECASE,
)
_FOOTER_HINTS = ("All times are", "Часовой пояс", "Все время", "Время: UTC")
_ZONE_TEXT = re.compile(r"^\s*(?:UTC|GMT)\s*(?:[+\-−]\s*\d{1,2}(?:[:.]\d{2})?)?\s*$", re.I)
_FOOTER_OFFSET = re.compile(
    r"(?:UTC|GMT)\s*[+\-−]\s*\d{1,2}(?![\d:])|(?:UTC|GMT)\s*[+\-−]\d{2}:\d{2}"
)
_DST = re.compile(r"\[\s*[^\[\]\d]{2,40}\]")
"""phpBB 3.0's daylight-saving mark after the offset: «[ DST ]», «[ ora legale ]», «[ летнее
время ]» — a bracketed word in the footer's language."""
_REGIONS = {
    "europa": "Europe",
    "europe": "Europe",
    "европа": "Europe",
    "amerika": "America",
    "america": "America",
    "amérique": "America",
    "америка": "America",
    "asia": "Asia",
    "asie": "Asia",
    "asien": "Asia",
    "азия": "Asia",
    "africa": "Africa",
    "afrique": "Africa",
    "afrika": "Africa",
    "африка": "Africa",
    "australia": "Australia",
    "australie": "Australia",
    "australien": "Australia",
    "pacific": "Pacific",
    "pacifico": "Pacific",
    "pacifique": "Pacific",
    "atlantic": "Atlantic",
    "atlantico": "Atlantic",
    "atlantique": "Atlantic",
}


def detect_timezone(html: str, server_date: datetime | None = None) -> tzinfo | None:
    """The time zone the page's times are in, or None.

    phpBB 3.1+ prints `All times are <span title="Europe/Moscow">UTC+03:00</span>` in the
    footer, in the board's language («Tutti gli orari sono <span title="Europa/Roma">
    UTC+02:00</span>»): the span is read whatever the words around it; a translated zone
    name is matched back to its IANA zone («Europa/Roma» → Europe/Rome) when the offsets
    agree, else the printed offset is used. phpBB 3.0 prints "All times are UTC + 3 hours
    [ DST ]" (and «UTC + 1 ora [ ora legale ]»). When nothing names the zone and the caller
    has the server's clock (its `Date` header), the page's own "It is currently …" clock
    gives the offset.
    """
    try:
        tree = page_tree(html)
    except Exception:
        return None
    for span in tree.css("span[title]"):
        shown = span.text(deep=True, separator="", strip=True)
        if not _ZONE_TEXT.match(shown):
            continue
        offset = _parse_offset(shown)
        named = _zone_named((span.attributes.get("title") or "").strip(), offset)
        return named or offset
    for node in tree.css("li, p, div.copyright"):
        text = node.text(deep=True, separator=" ", strip=False)
        if len(text) > 400:
            continue
        if not (
            any(hint.lower() in text.lower() for hint in _FOOTER_HINTS)
            or _FOOTER_OFFSET.search(text)
        ):
            continue
        offset = _parse_offset(text)
        if offset is not None:
            return offset
    if server_date is not None:
        return clock_offset(tree, server_date)
    return None


@cache
def _zone_names() -> tuple[str, ...]:
    """Every IANA zone this Python knows, sorted (read from disk once: 60 ms a time)."""
    from zoneinfo import available_timezones

    return tuple(sorted(available_timezones()))


def _zone_named(title: str, offset: tzinfo | None) -> tzinfo | None:
    if not title:
        return None
    if title.isascii():
        try:
            return ZoneInfo(title)
        except (ZoneInfoNotFoundError, ValueError):
            pass
    # A translated zone name: the region word, then a city whose name begins alike.
    region, _, city = title.partition("/")
    english = _REGIONS.get(region.strip().lower())
    city = city.strip().lower()
    if english is None or len(city) < 3 or offset is None:
        return None
    # The printed offset is the zone's on the day the page was served: winter or summer.
    year = datetime.now(UTC).year
    seasons = (datetime(year, 1, 15, tzinfo=UTC), datetime(year, 7, 15, tzinfo=UTC))
    shown = offset.utcoffset(None)
    matches = [
        name
        for name in _zone_names()
        if name.startswith(english + "/")
        and name.split("/")[-1].lower().replace("_", " ")[:3] == city[:3]
        and shown in {ZoneInfo(name).utcoffset(day) for day in seasons}
    ]
    return ZoneInfo(matches[0]) if len(matches) == 1 else None


_CLOCK_SELECTORS = "p.time, p.right, li.time, span.time, div.time, p.datetime"
_SKEW = 150
"""Seconds a printed clock (minutes only) and the server's `Date` may stray from a whole
quarter hour apart: the dropped seconds plus a little clock skew."""


def clock_offset(tree: LexborHTMLParser, server_date: datetime) -> tzinfo | None:
    """The zone in which the page's printed clock ("It is currently Sat Dec 05, 2026
    8:16 am", «Oggi è sabato 17 marzo 2018, 14:04») is the server's `Date`: the difference,
    a whole number of quarter hours as every real zone's is. Of the times printed in the
    header ("Last visit was: …" is one too) the one that fits best; None when none fits."""
    html = tree.css_first("html")
    language = language_of(html.attributes.get("lang") if html is not None else None)
    reference = server_date.astimezone(UTC)
    best: tuple[float, int] | None = None
    for node in tree.css(_CLOCK_SELECTORS):
        words = node.text(deep=True, separator=" ", strip=True).split()
        if not 2 < len(words) <= 16:
            continue
        for start in range(len(words) - 2):
            try:
                shown = parse_board_time(
                    " ".join(words[start:]), tz=UTC, now=reference, lang=language
                )
            except ValueError:
                continue
            seconds = (shown - reference).total_seconds()
            quarters = round(seconds / 900)
            miss = abs(seconds - quarters * 900)
            if miss <= _SKEW and abs(quarters) <= 14 * 4 and (best is None or miss < best[0]):
                best = (miss, quarters)
            break
    if best is None:
        return None
    return UTC if not best[1] else timezone(timedelta(minutes=best[1] * 15))


def _parse_offset(text: str) -> tzinfo | None:
    match = _OFFSET.search(text)
    if match is None:
        return None
    minutes = 0
    if match.group(2):
        minutes = int(match.group(2)) * 60 + int(match.group(3) or 0)
        if match.group(1) in {"-", "−"}:
            minutes = -minutes
    if _DST.search(text[match.end() :]):
        minutes += 60
    if minutes == 0:
        return UTC
    return timezone(timedelta(minutes=minutes))


def server_date(header: str | None) -> datetime | None:
    """The server's clock from an HTTP `Date` header, None when absent or unreadable."""
    if not header:
        return None
    from email.utils import parsedate_to_datetime

    try:
        when = parsedate_to_datetime(header)
    except (TypeError, ValueError, IndexError):
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)
