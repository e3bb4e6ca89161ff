"""Board times in the languages boards speak, and the zone when the page names it in its own
language or not at all (issue 26). The strings are the ones real boards print."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from selectolax.lexbor import LexborHTMLParser

from forums.datewords import language_of, lookup
from forums.phpbb.dates import clock_offset, detect_timezone, parse_board_time, server_date

NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("shown", "lang", "expected"),
    [
        ("martedì 21 gennaio 2020, 14:24", "it", datetime(2020, 1, 21, 14, 24)),
        ("martedì 21 gennaio 2020, 14:24", None, datetime(2020, 1, 21, 14, 24)),
        ("Mer 22 Oct 2014, 18:19", "fr", datetime(2014, 10, 22, 18, 19)),
        # French «Mar» is mardi; the month is the other word.
        ("Mar 13 Jan 2015", "fr", datetime(2015, 1, 13)),
        ("Mar 13 Jan 2015", None, datetime(2015, 1, 13)),
        ("Ven 08 Août 2014, 20:43", "fr", datetime(2014, 8, 8, 20, 43)),
        ("Dim 25 Fév 2018, 19:22", None, datetime(2018, 2, 25, 19, 22)),
        ("21 de enero de 2020 14:24", "es", datetime(2020, 1, 21, 14, 24)),
        ("Mo 3. Feb 2020, 09:05", "de", datetime(2020, 2, 3, 9, 5)),
        # TorrentPier: day, short month, two-digit year.
        ("14-Ноя-15 00:40", None, datetime(2015, 11, 14, 0, 40)),
        ("28-Авг-25 18:09", "ru", datetime(2025, 8, 28, 18, 9)),
        ("ieri, 13:31", "it", datetime(2025, 12, 31, 13, 31)),
        ("oggi, 09:00", "it", datetime(2026, 1, 1, 9, 0)),
        ("aujourd'hui, 10:00", "fr", datetime(2026, 1, 1, 10, 0)),
        ("Hier, 10:00", "fr", datetime(2025, 12, 31, 10, 0)),
        ("Heute, 10:00", "de", datetime(2026, 1, 1, 10, 0)),
    ],
)
def test_times_in_other_languages(shown: str, lang: str | None, expected: datetime) -> None:
    assert parse_board_time(shown, tz=UTC, now=NOW, lang=lang) == expected.replace(tzinfo=UTC)


def test_the_fast_path_is_unchanged() -> None:
    assert parse_board_time("Sun May 26, 2019 4:34 pm", tz=UTC, now=NOW) == datetime(
        2019, 5, 26, 16, 34, tzinfo=UTC
    )
    assert parse_board_time("26 мая 2019, 16:34", tz=UTC, now=NOW) == datetime(
        2019, 5, 26, 16, 34, tzinfo=UTC
    )


@pytest.mark.parametrize(
    "shown",
    [
        "Blub 13 Jan 2015",  # a word no language knows
        "13 listopad 2015",  # November in Polish and Czech, October in Croatian
        "13 Jan Feb 2015",  # two months
    ],
)
def test_unreadable_or_ambiguous_times_are_refused(shown: str) -> None:
    with pytest.raises(ValueError, match="not a board time"):
        parse_board_time(shown, tz=UTC, now=NOW)


def test_the_page_language_settles_a_word_languages_disagree_on() -> None:
    assert parse_board_time("13 listopad 2015", tz=UTC, now=NOW, lang="pl").month == 11
    assert parse_board_time("13 listopad 2015", tz=UTC, now=NOW, lang="hr").month == 10
    assert lookup("mer", "fr").weekday and not lookup("mer", "fr").months
    assert language_of("it-IT") == "it" and language_of("en-gb") == "en"
    assert language_of(None) is None


def test_zones_named_in_the_footer_in_other_languages() -> None:
    page = '<ul><li>Tutti gli orari sono <span title="Europa/Roma">UTC+02:00</span></li></ul>'
    assert detect_timezone(page) == ZoneInfo("Europe/Rome")
    page = '<ul><li>Все время <span title="Европа/Москва">UTC+03:00</span></li></ul>'
    assert detect_timezone(page) == timezone(timedelta(hours=3))  # the printed offset
    # phpBB 3.0: the offset and a translated daylight-saving mark.
    page = "<li>Tutti gli orari sono UTC + 1 ora [ <abbr>ora legale</abbr> ]</li>"
    assert detect_timezone(page) == timezone(timedelta(hours=2))
    assert detect_timezone("<p>Heures au format UTC + 1 heure</p>") == timezone(timedelta(hours=1))


def test_the_zone_from_the_printed_clock_and_the_server_date() -> None:
    page = '<html lang="it"><p class="right">Oggi è sabato 17 marzo 2018, 14:04</p></html>'
    found = clock_offset(LexborHTMLParser(page), datetime(2018, 3, 17, 13, 3, 10, tzinfo=UTC))
    assert found == timezone(timedelta(hours=1))
    assert detect_timezone(page) is None  # nothing names it
    date = server_date("Sat, 17 Mar 2018 13:03:10 GMT")
    assert detect_timezone(page, date) == timezone(timedelta(hours=1))
    assert server_date("not a date") is None and server_date(None) is None


def test_the_current_clock_wins_over_the_last_visit(saved_page_html: str) -> None:
    # phpBB 3.3 prints "Last visit was: …" and "It is currently …" alike (p.time); the
    # capture of en/index.html was at 05:43 Moscow time, 02:43 UTC.
    tree = LexborHTMLParser(saved_page_html)
    date = datetime(2026, 11, 30, 2, 43, 20, tzinfo=UTC)
    assert clock_offset(tree, date) == timezone(timedelta(hours=3))
    assert clock_offset(tree, date + timedelta(minutes=7)) is None  # fits no quarter hour


@pytest.fixture
def saved_page_html() -> str:
    from pathlib import Path

    root = Path(__file__).resolve().parents[3] / "fixtures" / "phpbb" / "3.3.10" / "en"
    return (root / "index.html").read_text(encoding="utf-8")
