"""FluxBB 1.5.11's real pages (English and the Russian pack) read by the pure readers:
what each page is, every post of a topic against the board's own database, the edit
notice, the GM's zone and date format from his profile, flood control's wait."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from forums.errors import LayoutChanged
from forums.fluxbb import pages
from forums.fluxbb.pages import PageKind, classify, parse_topic_page
from forums.records import User
from tests.forums.fluxbb.helpers_fluxbb import BASE, MSK, SEEN_EN, SEEN_RU, page, stamp, truth

KINDS = {
    "topic_p1_en.html": PageKind.TOPIC,
    "topic_p2_ru.html": PageKind.TOPIC,
    "topic_guest_en.html": PageKind.TOPIC,
    "login_form_en.html": PageKind.LOGIN_FORM,
    "login_form_ru.html": PageKind.LOGIN_FORM,
    "login_failed_en.html": PageKind.LOGIN_FAILED,
    "login_failed_ru.html": PageKind.LOGIN_FAILED,
    "login_redirect_en.html": PageKind.POSTED,
    "posted_redirect_en.html": PageKind.POSTED,
    "posted_redirect_ru.html": PageKind.POSTED,
    "flood_en.html": PageKind.FLOOD,
    "flood_ru.html": PageKind.FLOOD,
    "bad_request_en.html": PageKind.MESSAGE,
    "bad_request_ru.html": PageKind.MESSAGE,
    "bad_referrer_en.html": PageKind.MESSAGE,
    "post_form_en.html": PageKind.POSTING_FORM,
    "profile_essentials_en.html": PageKind.PREFERENCES,
    "userlist_en.html": PageKind.MEMBERLIST,
    "index_en.html": PageKind.INDEX,
}


@pytest.mark.parametrize(("name", "kind"), sorted(KINDS.items()))
def test_each_page_is_what_it_is(name: str, kind: PageKind) -> None:
    assert classify(page(name), BASE + name) is kind


@pytest.mark.parametrize(
    ("name", "order", "seen", "to_the_second"),
    [
        ("topic_p{}_en.html", "ymd", SEEN_EN, True),  # 2026-11-20 12:05:02, Today 14:25:04
        ("topic_p{}_ru.html", "dmy", SEEN_RU, False),  # 20-11-2026 12:05 pm, Вчера 6:25 pm
    ],
)
def test_every_post_of_the_topic_is_the_boards(
    name: str, order: str, seen: object, to_the_second: bool
) -> None:
    rows = truth()
    read = []
    for number in (1, 2):
        view = parse_topic_page(
            page(name.format(number)),
            BASE + f"viewtopic.php?id=2&p={number}",
            tz=MSK,
            now=seen,  # type: ignore[arg-type]
            order=order,
        )
        assert (view.page, view.pages, view.thread_id) == (number, 2, "2")
        assert view.title == "Мафия: дневное голосование"
        assert view.logged_in_as == "Ведущий"
        read += view.posts
        # No count printed: the total is the last page's last post number (board check).
        assert view.total_posts == (len(read) if number == 2 else None)
    assert [p.number for p in read] == list(range(1, len(read) + 1))
    assert len(read) >= 32  # the opening, 30 players' posts, Вася's last (and the GM's)
    for post in read:
        row = rows[post.id]
        assert post.author == row["poster"]
        shown = post.posted_at
        stored = stamp(row["posted"])
        if to_the_second:
            assert shown == stored, (post.id, shown, stored)
        else:
            assert shown == stored.replace(second=0), (post.id, shown, stored)
        assert shown.utcoffset() == timedelta(hours=3)
        if row["edited"] is None:
            assert post.edit is None, post.id
        else:
            assert post.edit is not None and post.edit.by == row["edited_by"]
            assert post.edit.at is not None
            edited = stamp(row["edited"])
            assert post.edit.at == (edited if to_the_second else edited.replace(second=0))


def test_what_a_post_says_is_read_with_its_formatting() -> None:
    view = parse_topic_page(
        page("topic_p1_en.html"), BASE + "viewtopic.php?id=2", tz=MSK, now=SEEN_EN
    )
    posts = {p.id: p for p in view.posts}
    # Маша's post, edited: Вася's quote, then her own words; the edit notice is no text.
    masha = posts["4"].body
    assert masha.text() == "а я голосую за Петю"
    assert masha.text(include_quoted=True).startswith("Голосую за Петю")
    assert {r.quote_author for r in masha.runs if r.quoted} == {"Вася"}
    assert "Last edited" not in masha.full_text()
    # Петя: a white «голосую за Машу» is hidden; smilies read as typed.
    petya = posts["5"].body
    assert any(r.hidden and "голосую за Машу" in r.text for r in petya.runs)
    assert petya.text(include_hidden=False).split() == [
        "снимаю", "голос", "курсив", "подчёркнуто", "ссылка", ":)", ";)", ":lol:"
    ]  # fmt: skip
    assert [link.url for link in petya.links] == ["http://example.org"]
    # Коля: a vote inside [code] is code.
    kolya = posts["6"].body
    assert kolya.text() == "голосую за Васю" and "голосую за Олю" in kolya.text(include_code=True)
    # Оля: quotes two deep, a struck vote ([del]), a list.
    olya = posts["7"].body
    assert olya.text().split() == ["раз", "два"]
    assert "голосую за Колю" in olya.text(include_struck=True)
    assert {r.quote_author for r in olya.runs if r.quoted} == {"Маша", "Вася"}
    # Вася: bold.
    assert [r.text for r in posts["3"].body.runs if r.bold] == ["Петю"]


def test_russian_pages_say_the_same() -> None:
    view = parse_topic_page(
        page("topic_p1_ru.html"), BASE + "viewtopic.php?id=2", tz=MSK, now=SEEN_RU, order="dmy"
    )
    masha = next(p for p in view.posts if p.id == "4")
    assert masha.edit is not None and masha.edit.by == "Маша"  # «Изменено Маша (Вчера 6:25 pm)»
    assert masha.body.text() == "а я голосую за Петю"
    assert {r.quote_author for r in masha.body.runs if r.quoted} == {"Вася"}  # «Вася пишет:»


def test_a_guests_page_is_a_guests() -> None:
    tree = pages.tree_of(page("topic_guest_en.html"))
    assert pages.is_guest(tree) and pages.logged_in_as(tree) is None
    tree = pages.tree_of(page("topic_p1_ru.html"))
    assert not pages.is_guest(tree) and pages.logged_in_as(tree) == "Ведущий"
    assert pages.my_id(pages.tree_of(page("index_en.html"))) == "3"


@pytest.mark.parametrize("name", ["flood_en.html", "flood_ru.html"])
def test_flood_control_says_how_long_to_wait(name: str) -> None:
    said = pages.message(pages.tree_of(page(name)))
    assert pages.flood_wait(said) == 58.0


def test_the_boards_words_on_its_answers() -> None:
    assert pages.message(pages.tree_of(page("login_failed_en.html"))) == (
        "Wrong username and/or password."
    )
    assert pages.message(pages.tree_of(page("login_failed_ru.html"))) == (
        "Неверное имя и/или пароль."
    )
    assert pages.message(pages.tree_of(page("bad_request_ru.html"))).startswith("Неверный запрос")
    assert "HTTP_REFERER" in pages.message(pages.tree_of(page("bad_referrer_en.html")))
    target = pages.redirect_target(page("posted_redirect_en.html"), BASE + "post.php")
    assert target == BASE + "viewtopic.php?pid=34#p34"


def test_the_gms_zone_and_date_format_come_from_his_profile() -> None:
    # English: the board's default format (value 0), told by its example of today.
    zone = pages.read_zone(page("profile_essentials_en.html"), date(2026, 11, 25))
    assert zone.tz.utcoffset(None) == timedelta(hours=3) and zone.order == "ymd"
    # Russian: d-m-Y chosen (value 3).
    zone = pages.read_zone(page("profile_essentials_ru.html"), None)
    assert zone.order == "dmy" and "UTC+3" in zone.shown


def test_the_member_list() -> None:
    assert pages.parse_members(page("userlist_en.html"), BASE) == [User(id="6", name="Маша")]


def test_a_page_without_posts_is_a_layout_change_not_an_empty_thread() -> None:
    with pytest.raises(LayoutChanged, match="without posts"):
        parse_topic_page(page("bad_request_en.html"), BASE, tz=MSK, now=SEEN_EN)
