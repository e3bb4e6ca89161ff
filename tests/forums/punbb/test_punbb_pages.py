"""PunBB 1.4's pages as the real board served them (fixtures/punbb/1.4.4, in English and
with the Russian pack of punbb/langs): every post of the topic against the board's own
posts table — id, number, author, time, edit — as a member and as a guest, in both
languages; each page sorted into its kind; the settings' zone and date format; flood
control's wait in both languages; the member list and the redirect after a post."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from forums.errors import LayoutChanged
from forums.pages import PageKind
from forums.punbb.pages import (
    classify,
    edit_notice,
    flood_wait,
    message,
    parse_members,
    parse_topic_page,
    read_zone,
    redirect_target,
    tree_of,
)
from forums.punbb.selectors import DEFAULT
from forums.records import User

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "punbb" / "1.4.4"
BASE = "http://127.0.0.1:8090/"
TOPIC = BASE + "viewtopic.php?id=2"


def page(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def truth() -> dict[str, dict[str, Any]]:
    rows = json.loads((FIXTURES / "truth.json").read_text(encoding="utf-8"))
    return {str(r["id"]): r for r in rows}


def seen() -> datetime:
    """A moment on the capture day after every post and edit: what «Today» counts from."""
    last = max(max(r["posted"], r["edited"] or 0) for r in truth().values())
    return datetime.fromtimestamp(last + 5, UTC)


TOPIC_PAGES = [
    ("topic_p1_member.html", "topic_p2_member.html", "Petya"),
    ("topic_p1_guest.html", "topic_p2_guest.html", None),
    ("topic_p1_member_ru.html", "topic_p2_member_ru.html", "Petya"),
]


@pytest.mark.parametrize(("first", "second", "reader"), TOPIC_PAGES)
def test_every_post_of_both_pages_is_the_boards_own(
    first: str, second: str, reader: str | None
) -> None:
    rows = truth()
    one = parse_topic_page(page(first), TOPIC, tz=UTC, now=seen())
    two = parse_topic_page(page(second), TOPIC + "&p=2", tz=UTC, now=seen(), per_page=4)
    posts = [*one.posts, *two.posts]
    assert [p.id for p in posts] == sorted(rows, key=int)
    for number, post in enumerate(posts, start=1):
        row = rows[post.id]
        assert post.number == number and post.thread_id == "2"
        assert (post.author, post.author_id) == (row["poster"], str(row["poster_id"]))
        assert post.posted_at == datetime.fromtimestamp(row["posted"], UTC)
        if row["edited"] is None:
            assert post.edit is None
        else:
            assert post.edit is not None and post.edit.by == row["edited_by"]
            assert post.edit.at == datetime.fromtimestamp(row["edited"], UTC)
    assert (one.page, one.pages, one.per_page, one.start) == (1, 2, 4, 0)
    assert (two.page, two.pages, two.per_page, two.start, two.total_posts) == (2, 2, 4, 4, 6)
    assert one.title == "Mafia day 1" and one.logged_in_as == reader


def test_bold_a_smilie_and_a_quote_read_as_typed() -> None:
    posts = parse_topic_page(page("topic_p1_member.html"), TOPIC, tz=UTC, now=seen()).posts
    masha, vasya = posts[2], posts[3]
    assert next((r.text, r.bold) for r in masha.body.runs if r.text.strip()) == ("vote Petya", True)
    assert ":)" in masha.body.text()
    quoted = [r for r in vasya.body.runs if r.quoted]
    assert quoted and quoted[0].text.strip() == "vote Petya" and quoted[0].quote_author == "Masha"
    assert "I agree: vote Petya" in "".join(r.text for r in vasya.body.runs if not r.quoted)


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("topic_p1_member.html", PageKind.TOPIC),
        ("topic_p2_member_ru.html", PageKind.TOPIC),
        ("login_form.html", PageKind.LOGIN_FORM),
        ("login_failed.html", PageKind.LOGIN_FAILED),
        ("login_redirect.html", PageKind.POSTED),
        ("posted_redirect.html", PageKind.POSTED),
        ("post_form.html", PageKind.POSTING_FORM),
        ("flood.html", PageKind.FLOOD),
        ("flood_ru.html", PageKind.FLOOD),
        ("message.html", PageKind.MESSAGE),
        ("profile_settings.html", PageKind.PREFERENCES),
        ("userlist.html", PageKind.MEMBERLIST),
        ("index.html", PageKind.INDEX),
    ],
)
def test_each_page_is_sorted_into_its_kind(name: str, kind: PageKind) -> None:
    assert classify(page(name), BASE) is kind


@pytest.mark.parametrize("name", ["flood.html", "flood_ru.html"])
def test_flood_control_says_how_long_to_wait_in_either_language(name: str) -> None:
    said = message(tree_of(page(name)), DEFAULT)
    assert flood_wait(said) == 60.0


def test_a_wrong_password_and_a_missing_topic_are_the_boards_words() -> None:
    assert (
        message(tree_of(page("login_failed.html")), DEFAULT)
        == "Incorrect username and/or password."
    )
    assert message(tree_of(page("message.html")), DEFAULT).startswith("Bad request.")


@pytest.mark.parametrize("name", ["profile_settings.html", "profile_settings_ru.html"])
def test_the_settings_give_the_zone_and_the_default_date_order(name: str) -> None:
    zone = read_zone(page(name), seen().date())
    assert zone.tz == UTC and zone.order == "ymd"


def test_a_chosen_date_format_and_an_offset_with_dst_are_read() -> None:
    # The saved settings with other choices ticked: UTC+05:30, DST, and d-m-Y.
    html = page("profile_settings.html").replace(' selected="selected"', "")
    html = html.replace('<option value="5.5">', '<option value="5.5" selected="selected">')
    html = html.replace('<option value="3">05-12', '<option value="3" selected>05-12')
    html = html.replace('name="form[dst]" value="1"', 'name="form[dst]" value="1" checked')
    zone = read_zone(html, seen().date())
    assert zone.tz == timezone(timedelta(hours=6.5)) and zone.order == "dmy"


@pytest.mark.parametrize(
    ("notice", "by", "at"),
    [
        ("(edited by Petya Today 17:01:57)", "Petya", datetime(2026, 12, 5, 17, 1, 57, tzinfo=UTC)),
        (
            "(изменено: Petya, Вчера 23:10:05)",
            "Petya",
            datetime(2026, 12, 4, 23, 10, 5, tzinfo=UTC),
        ),
        (
            "(edited by Big Boss 2026-12-01 09:00:00)",
            "Big Boss",
            datetime(2026, 12, 1, 9, tzinfo=UTC),
        ),
        (
            "(изменено: Вася Пупкин, Dec 1 2026 09:00)",
            "Вася Пупкин",
            datetime(2026, 12, 1, 9, tzinfo=UTC),
        ),
    ],
)
def test_the_edit_notice_gives_the_editor_and_the_time(notice: str, by: str, at: datetime) -> None:
    found = edit_notice(notice, tz=UTC, now=datetime(2026, 12, 5, 18, tzinfo=UTC), order="ymd")
    assert (found.by, found.at) == (by, at)


def test_an_edit_notice_of_an_unknown_pack_is_an_edit_all_the_same() -> None:
    found = edit_notice("(bearbeitet von Petya)", tz=UTC, now=seen(), order="ymd")
    assert (found.by, found.at) == (None, None)


def test_the_member_list_and_the_posts_redirect() -> None:
    assert parse_members(page("userlist.html")) == [User(id="5", name="Masha")]
    target = redirect_target(page("posted_redirect.html"), BASE + "post.php?tid=2")
    assert target is not None and target.endswith("viewtopic.php?pid=3#p3")


def test_a_topic_page_without_posts_is_a_changed_layout_not_an_empty_page() -> None:
    with pytest.raises(LayoutChanged, match="without posts"):
        parse_topic_page(page("index.html"), BASE + "viewtopic.php?id=2", tz=UTC, now=seen())


@pytest.mark.parametrize("shown", ["Posts: 4", "Сообщения 4"])
def test_a_topic_of_one_page_says_its_total_alone(shown: str) -> None:
    # The saved first page made a one-page topic of four posts as PunBB prints one
    # (`generate_items_info`: 'Item info single', "%s: %s" / ru "%s %s"; no paging links).
    html = page("topic_p1_member.html").replace("Posts: 1 to 4 of 6", shown)
    html = html.replace('<a href="http://127.0.0.1:8090/viewtopic.php?id=2&amp;p=2">2</a>', "")
    one = parse_topic_page(html, TOPIC, tz=UTC, now=seen())
    assert (one.page, one.pages, one.start, one.total_posts) == (1, 1, 0, 4)
