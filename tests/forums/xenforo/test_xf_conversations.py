"""Conversation pages: the real list row (F95zone) and the synthetic list and view."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from forums import LayoutChanged
from forums.xenforo import parse_conversation_list, parse_conversation_view

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "xenforo"
NOW = datetime(2026, 12, 2, tzinfo=UTC)


def load(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def test_the_real_conversation_row() -> None:
    url = "https://f95zone.to/conversations/"
    listing = parse_conversation_list(
        load("f95zone/conversation_list_row.html"), url, tz=None, now=NOW
    )
    (row,) = listing.rows
    assert row.id == "3000000" and row.title == "Conversation's title"
    assert row.url == "https://f95zone.to/conversations/title-conversation.3000000/"
    # The starter's first link is an icon with no text: the name comes from the second.
    assert (row.starter, row.starter_id) == ("USER_0", "1000000")
    assert row.recipients == (("USER_1", "2000000"),)
    assert row.participants == ("USER_0", "USER_1")
    assert row.latest_at == datetime(2021, 1, 23, 17, 32, 59, tzinfo=UTC)  # data-time 1611423179
    assert not row.unread


def test_the_synthetic_list_and_an_empty_one() -> None:
    url = "http://127.0.0.1:8082/conversations/"
    listing = parse_conversation_list(
        load("synthetic/synthetic-conversation-list.html"), url, tz=None, now=NOW
    )
    assert [r.id for r in listing.rows] == ["412", "411"]
    assert listing.rows[0].unread and not listing.rows[1].unread
    assert listing.rows[1].participants == ("Ведущий", "Alu", "Бармалей")
    assert listing.visitor is not None and listing.visitor.name == "Ведущий"
    empty = parse_conversation_list(
        load("synthetic/synthetic-conversation-list-empty.html"), url, tz=None, now=NOW
    )
    assert empty.rows == []
    # A row class renamed by a style: each row is still found by its conversation link
    # (issue 26); a list page that lost its rows (and links) without saying it is empty is a
    # layout change.
    served = load("synthetic/synthetic-conversation-list.html")
    restyled = parse_conversation_list(
        served.replace("structItem--conversation", "x"), url, tz=None, now=NOW
    )
    assert [r.id for r in restyled.rows] == [
        r.id for r in parse_conversation_list(served, url, tz=None, now=NOW).rows
    ]
    broken = (
        re.sub(
            r'<div class="structItem structItem--conversation.*?</div>\s*</div>\s*</div>',
            "",
            served.replace("structItem--conversation", "structItem structItem--conversation", 0),
            flags=re.S,
        )
        .replace("structItem--conversation", "x")
        .replace("conversations/", "c/")
    )
    with pytest.raises(LayoutChanged):
        parse_conversation_list(broken, url, tz=None, now=NOW)


def test_the_synthetic_view_gives_each_message_with_its_recipients_and_flags() -> None:
    url = "http://127.0.0.1:8082/conversations/proverka-noch-1.412/"
    view = parse_conversation_view(
        load("synthetic/synthetic-conversation-view.html"),
        url,
        participants=("Alu", "Ведущий"),
        tz=None,
        now=NOW,
    )
    assert view.conversation_id == "412" and view.title == "Проверка, ночь 1"
    first, second = view.messages
    assert (first.id, first.sender, first.sender_id, first.recipients) == (
        "903",
        "Alu",
        "65",
        ("Ведущий",),
    )
    assert (second.id, second.sender, second.recipients) == ("905", "Ведущий", ("Alu",))
    assert first.sent_at == datetime(2026, 12, 1, 21, 0, tzinfo=UTC)
    assert first.subject == "Проверка, ночь 1"
    assert first.url == "http://127.0.0.1:8082/conversations/messages/903/"
    assert first.body.text().split() == ["Проверяю", "Бармалей", "этой", "ночью."]
    quoted = [r for r in first.body.runs if r.quoted]
    assert quoted and quoted[0].quote_author == "Ведущий" and "Кого проверяешь?" in quoted[0].text
    assert any(r.struck and "Лёху" in r.text for r in first.body.runs)
    with pytest.raises(LayoutChanged):
        parse_conversation_view(load("synthetic/synthetic-login.html"), url, tz=None, now=NOW)


def test_xenforo_1_conversation_pages() -> None:
    # Synthetic in the frame of the real XF1 page; the messages are two real XF1 posts.
    base = "https://forums.sufficientvelocity.com/"
    listing = parse_conversation_list(
        load("synthetic/synthetic-xf1-conversation-list.html"),
        f"{base}conversations/",
        tz=None,
        now=NOW,
    )
    (row,) = listing.rows
    assert (row.id, row.title, row.starter, row.starter_id) == (
        "550",
        "Голосование, день 1",
        "Crow",
        "1923",
    )
    assert row.url == f"{base}conversations/golosovanie-den-1.550/"  # against the page's <base>
    assert row.participants == ("Crow", "Kinematics", "TheBleachDoctor") and row.unread
    assert row.replies == 1  # "Replies: 1", not the participants' 3 beside it
    # No zone given: the page's own offset (serverTimeInfo, UTC-5) reads "Jul 1, 2017 at 9:05 PM".
    assert row.latest_at is not None and row.latest_at.isoformat() == "2017-07-01T21:05:00-05:00"
    assert listing.visitor is not None and listing.visitor.name == "Kinematics"
    view = parse_conversation_view(
        load("synthetic/synthetic-xf1-conversation-view.html"),
        row.url,
        participants=row.participants,
        tz=None,
        now=NOW,
    )
    assert view.conversation_id == "550" and view.title == "Голосование, день 1"
    crow, doctor = view.messages
    assert (crow.id, crow.sender, crow.sender_id) == ("7701", "Crow", "1923")
    assert crow.recipients == ("Kinematics", "TheBleachDoctor")
    assert [r.quote_author for r in crow.body.runs if r.quoted][:1] == ["Higure"]
    assert "OOC behavior? which part?" in crow.body.text()
    assert (doctor.id, doctor.sender, doctor.recipients) == (
        "7702",
        "TheBleachDoctor",
        ("Crow", "Kinematics"),
    )
    assert view.csrf == "4076,1499113436,8d4b44da51107c625c458332cccdd981e5cd1b37"
