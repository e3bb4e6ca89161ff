"""The sign-up list as the thread makes it: the words, the cap and reserve, the close."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engine.signup import SignupSettings, ThreadPost, compute_list, look_alike, parse_settings

T0 = datetime(2026, 11, 28, 10, tzinfo=UTC)


def posts(*items: tuple[str, str]) -> list[ThreadPost]:
    return [
        ThreadPost(str(n), n, who, T0 + timedelta(minutes=n), text)
        for n, (who, text) in enumerate(items, start=1)
    ]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("+", "join"),
        ("в игре!", "join"),
        ("+ жду начала", "join"),
        ("/in please", "join"),
        ("Я в игре)", "join"),
        ("-", "leave"),
        ("—", "leave"),
        ("/out", "leave"),
        ("-, не успею", "leave"),
        ("+1 к предыдущему оратору, а играть не буду", None),
        ("играю в другой игре", None),
        ("когда старт?", None),
        ("", None),
    ],
)
def test_what_counts_as_joining_and_leaving(text: str, kind: str | None) -> None:
    assert SignupSettings("2").classify(text) == kind


def test_cap_reserve_and_moving_up() -> None:
    s = SignupSettings("2", cap=2, reserve=1)
    got = compute_list(
        posts(("A1", "+"), ("B2", "+"), ("C3", "+"), ("D4", "+"), ("A1", "-")),
        s,
        gm_user="GM",
        closes=None,
    )
    assert got.names("in") == ["B2", "C3"]
    assert got.names("reserve") == ["D4"]
    assert [e.name for e in got.of("left")] == ["A1"]


def test_after_the_close_the_list_is_fixed() -> None:
    s = SignupSettings("2", cap=2, reserve=1)
    closes = T0 + timedelta(minutes=2, seconds=30)
    got = compute_list(
        posts(("A1", "+"), ("B2", "+"), ("C3", "+"), ("D4", "+"), ("A1", "-"), ("C3", "+")),
        s,
        gm_user="GM",
        closes=closes,
    )
    assert got.names("in") == ["A1", "B2"]  # A1's leave after the close is for the host
    assert got.names("reserve") == ["C3"]
    kinds = {(n.name, n.kind) for n in got.notes}
    assert ("D4", "late") in kinds and ("A1", "after_close") in kinds and ("C3", "double") in kinds


def test_the_gm_and_deleted_posts_do_not_count() -> None:
    items = posts(("GM", "+"), ("A1", "+"))
    items[1] = ThreadPost("2", 2, "A1", T0, "+", deleted=True)
    got = compute_list(items, SignupSettings("2"), gm_user="gm", closes=None)
    assert got.entries == []


def test_names_that_read_alike() -> None:
    assert look_alike("Оля", "Oля")  # a Latin O
    assert look_alike("Вася_Пупкин", "вася пупкин")
    assert look_alike("Nekr0mant", "Nekromant")
    assert not look_alike("Оля", "Коля") and not look_alike("Петя", "Петр")


def test_settings_are_checked() -> None:
    tz = UTC
    _, problems = parse_settings({"thread": "", "cap": 1, "reserve": -1, "bogus": 1}, tz)
    assert len(problems) == 4
    _, problems = parse_settings({"thread": "2", "join": ["+"], "leave": ["+"]}, tz)
    assert problems == ["`join` and `leave` share +"]
    settings, problems = parse_settings({"thread": 7, "closes": "2026-12-20 19:00"}, tz)
    assert not problems and settings is not None
    assert settings.closes == datetime(2026, 12, 20, 19, tzinfo=UTC)
