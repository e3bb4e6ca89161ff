"""vBulletin 3, 4 and 5 pages read as they really are (fixtures/vbulletin/SOURCES.md)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from forums.detect import detect_engine
from forums.errors import LayoutChanged
from forums.pages import PageKind
from forums.vbulletin import pages
from forums.vbulletin.body import vb_html_to_postbody
from forums.vbulletin.dates import footer_zone, parse_vb_time
from forums.vbulletin.pms import parse_pm_folder, parse_pm_view
from forums.vbulletin.thread import parse_edit_notice, parse_thread_page
from tests.forums.vbulletin.helpers_vb import VB3, VB4, VB5, made, page, with_deleted_post

NOW = datetime(2026, 12, 5, 17, 0, tzinfo=UTC)
EST = timezone(timedelta(hours=-5))
VB3_URL = "https://forums.animesuki.com/showthread.php?t=128882&page=152"
VB4_URL = "http://forums.militarytimes.com/showthread.php/9687-Legendary-military-columnist"
VB5_URL = (
    "https://fandompost.vbulletin.net/forum/anime-manga-discussions/general-anime-discussions/"
    "727744-isekai-quartet-discussion-thread"
)


def test_vb3_page_posts_numbers_times_and_the_reader() -> None:
    view = parse_thread_page(page(VB3), VB3_URL, now=NOW)
    assert (view.thread_id, view.page, view.pages) == ("128882", 152, 155)
    assert (view.per_page, view.start, len(view.posts)) == (20, 3020, 20)
    assert view.logged_in_as == "Kinematics"
    first = view.posts[0]
    assert (first.id, first.number, first.author, first.author_id) == (
        "5768670",
        3021,
        "Shirohige",
        "250472",
    )
    # "2016-02-01, 02:21" in the footer's zone "All times are GMT -5".
    assert first.posted_at == datetime(2016, 2, 1, 2, 21, tzinfo=EST)
    assert [p.number for p in view.posts] == list(range(3021, 3041))
    assert first.url == "https://forums.animesuki.com/showthread.php?p=5768670#post5768670"


def test_vb3_quotes_carry_their_authors_and_the_text_outside_them_stays() -> None:
    first = parse_thread_page(page(VB3), VB3_URL, now=NOW).posts[0]
    quoted = [r for r in first.body.runs if r.quoted]
    assert {r.quote_author for r in quoted} == {"TinyRedLeaf", "Romanticide", None}
    own = first.body.text()
    assert own.startswith("Let me reword it from lesbians")
    assert own.rstrip().endswith("X2")
    assert "Originally Posted by" not in first.body.full_text()
    assert "Quote:" not in first.body.full_text()
    assert "what's offensive to me" not in own


def test_an_exported_body_reads_as_the_page_did() -> None:
    for post in parse_thread_page(page(VB3), VB3_URL, now=NOW).posts:
        assert post.raw is not None
        assert vb_html_to_postbody(post.raw, base_url=VB3_URL) == post.body, post.id


def test_vb3_edit_notes_say_who_and_when() -> None:
    edits = {p.id: p.edit for p in parse_thread_page(page(VB3), VB3_URL, now=NOW).posts if p.edit}
    assert set(edits) == {"5768696", "5768715", "5778115"}
    edit = edits["5768696"]
    assert edit is not None and edit.by == "Shirohige" and edit.count == 1
    assert edit.at == datetime(2016, 2, 1, 3, 31, tzinfo=EST)
    # The Russian language pack's form of the same note.
    russian = parse_edit_notice("Последний раз редактировалось Лёха; 01.02.2016 в 03:31.", EST, NOW)
    assert russian is not None and russian.by == "Лёха"
    assert russian.at == datetime(2016, 2, 1, 3, 31, tzinfo=EST)


def test_a_soft_deleted_post_is_a_placeholder_without_text() -> None:
    view = parse_thread_page(with_deleted_post(), VB3_URL, now=NOW)
    deleted = next(p for p in view.posts if p.id == "5768676")
    assert deleted.deleted and deleted.body.runs == () and deleted.raw is None
    assert (deleted.author, deleted.author_id) == ("BBOvenGuy", "32968")
    assert deleted.posted_at == datetime(2016, 2, 1, 2, 29, tzinfo=EST)
    assert len(view.posts) == 20 and sum(p.deleted for p in view.posts) == 1


def test_vb4_page_quotes_friendly_urls_and_a_guest() -> None:
    view = parse_thread_page(page(VB4), VB4_URL, now=NOW)
    assert (view.thread_id, view.page, view.pages, len(view.posts)) == ("9687", 1, 2, 10)
    assert view.logged_in_as is None
    first = view.posts[0]
    assert (first.id, first.number, first.author, first.author_id) == (
        "365266",
        1,
        "Rainmaker",
        "13985",
    )
    assert first.posted_at == datetime(2016, 6, 15, 15, 3, tzinfo=UTC)  # "All times are GMT"
    assert view.posts[1].author == "Mjölnir"
    quoting = next(p for p in view.posts if p.id == "365272")
    quote = [r for r in quoting.body.runs if r.quoted]
    assert {r.quote_author for r in quote} == {"sandsjames"}
    assert quoting.body.text().startswith("and who could forget")


def test_vb5_page_reads_each_posts_unix_time() -> None:
    view = parse_thread_page(page(VB5), VB5_URL, now=NOW)
    assert (view.thread_id, view.page, view.pages, len(view.posts)) == ("727744", 1, 2, 15)
    first = view.posts[0]
    assert (first.id, first.number, first.author, first.author_id) == (
        "727744",
        1,
        "Buckeye",
        "1712",
    )
    assert first.posted_at == datetime.fromtimestamp(1554824243, UTC)
    reply = next(p for p in view.posts if p.id == "727761")
    assert {r.quote_author for r in reply.body.runs if r.quoted} == {"Buckeye"}


def test_a_page_that_is_no_thread_is_a_layout_change_not_no_posts() -> None:
    with pytest.raises(LayoutChanged, match=r"no posts found.*message box.*Invalid Thread"):
        parse_thread_page(made("invalid_thread.html"), VB3_URL, now=NOW)
    with pytest.raises(LayoutChanged, match="not a vBulletin page"):
        parse_thread_page("<html><body>hello</body></html>", VB3_URL, now=NOW)


@pytest.mark.parametrize(
    ("shown", "order", "expected"),
    [
        ("06-15-2016, 03:03 PM", "mdy", datetime(2016, 6, 15, 15, 3)),
        ("04-09-2019, 10:37 AM", "dmy", datetime(2019, 9, 4, 10, 37)),
        ("2016-02-01, 03:31", "mdy", datetime(2016, 2, 1, 3, 31)),
        ("15.06.2016, 15:03", "mdy", datetime(2016, 6, 15, 15, 3)),
        ("Today, 03:03 PM", "mdy", datetime(2026, 12, 5, 15, 3)),
        ("Yesterday, 10:00", "mdy", datetime(2026, 12, 4, 10, 0)),
        ("Сегодня, 15:03", "dmy", datetime(2026, 12, 5, 15, 3)),
        ("Вчера, 23:59", "dmy", datetime(2026, 12, 4, 23, 59)),
    ],
)
def test_vbulletin_times_in_english_and_russian(shown: str, order: str, expected: datetime) -> None:
    assert parse_vb_time(shown, tz=UTC, now=NOW, order=order) == expected.replace(tzinfo=UTC)


def test_an_impossible_or_empty_time_is_refused() -> None:
    with pytest.raises(ValueError, match="not a board time"):
        parse_vb_time("06-15-2016, 03:03 PM", tz=UTC, now=NOW, order="dmy")
    with pytest.raises(ValueError, match="not a board time"):
        parse_vb_time(" ", tz=UTC, now=NOW)


def test_the_footer_zone() -> None:
    assert footer_zone("All times are GMT -5. The time now is 00:08.") == EST
    assert footer_zone("All times are GMT. The time now is 05:23 AM.") == UTC
    assert footer_zone("Часовой пояс GMT +3, время: 15:03.") == timezone(timedelta(hours=3))
    assert footer_zone("All times are GMT +5.5.") == timezone(timedelta(hours=5, minutes=30))
    assert footer_zone("no zone here") is None


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("login_redirect.html", PageKind.POSTED),
        ("login_failed.html", PageKind.LOGIN_FAILED),
        ("login_strikes.html", PageKind.LOGIN_FAILED),
        ("not_logged_in.html", PageKind.NOT_LOGGED_IN),
        ("token_invalid.html", PageKind.FORM_INVALID),
        ("invalid_thread.html", PageKind.MESSAGE),
        ("pm_flood.html", PageKind.FLOOD),
        ("flood_reply.html", PageKind.FLOOD),
        ("post_redirect.html", PageKind.POSTED),
        ("newpm.html", PageKind.POSTING_FORM),
        ("pm_inbox.html", PageKind.PM_FOLDER),
        ("pm_sent_before.html", PageKind.PM_FOLDER),
    ],
)
def test_every_answer_page_is_told_apart(name: str, kind: PageKind) -> None:
    assert pages.classify(made(name), "https://forums.animesuki.com/x.php") is kind


def test_flood_messages_name_the_seconds_left() -> None:
    said = pages.message(made("flood_reply.html"))
    assert said.startswith("This forum requires that you wait 30 seconds between posts")
    assert pages.flood_seconds(said, 99) == 12
    assert pages.flood_seconds(pages.message(made("pm_flood.html")), 99) == 42
    # Words of a Russian language pack (its wording is a translator's: read by the number).
    russian = "Вы должны подождать 30 секунд между сообщениями. Попробуйте через 7 секунд."
    assert pages.flood_seconds(russian, 99) == 7
    assert pages.flood_seconds("no number", 99) == 99


def test_the_reader_and_the_token_of_each_version() -> None:
    vb3, vb4, vb5 = page(VB3), page(VB4), page(VB5)
    assert pages.logged_in_user(vb3) is not None
    assert pages.security_token(vb3) == "1562130495-6c94371919301b321336ef39cd23940fa58e0cb4"
    assert (pages.logged_in_user(vb4), pages.security_token(vb4)) == (None, "guest")
    assert (pages.logged_in_user(vb5), pages.security_token(vb5)) == (None, "guest")
    assert [pages.version_of(h) for h in (vb3, vb4, vb5)] == [3, 4, 5]
    assert pages.charset_of(vb3) == "iso-8859-1"


def test_a_pm_folder_and_a_pm() -> None:
    tz = EST
    folder = parse_pm_folder(
        made("pm_inbox.html"), "https://forums.animesuki.com/private.php?folderid=0", tz=tz, now=NOW
    )
    assert [(i.id, i.subject, i.sender, i.sender_id, i.unread) for i in folder.items] == [
        ("901234", "Night 1 orders", "Shirohige", "250472", True),
        ("901200", "Re: role", "BBOvenGuy", "32968", False),
    ]
    assert folder.items[0].sent_at == datetime(2026, 12, 5, 11, 58, tzinfo=tz)
    pm = parse_pm_view(
        made("pm_showpm.html"),
        "https://forums.animesuki.com/private.php?do=showpm&pmid=901234",
        tz=tz,
        now=NOW,
    )
    assert (pm.id, pm.sender, pm.sender_id, pm.subject) == (
        "901234",
        "Shirohige",
        "250472",
        "Night 1 orders",
    )
    assert pm.body.text() == "check BBOvenGuy\n"
    assert [r.quote_author for r in pm.body.runs if r.quoted] == ["Kinematics"]
    assert [r.text for r in pm.body.runs if r.struck] == ["kill Romanticide"]
    with pytest.raises(LayoutChanged, match="not a private message page"):
        parse_pm_view(
            made("pm_inbox.html"), "https://x/private.php?do=showpm&pmid=1", tz=tz, now=NOW
        )


def test_detection_names_the_version() -> None:
    assert detect_engine(page(VB3)).describe().startswith("vBulletin 3.8.11 (")
    assert detect_engine(page(VB4)).engine == "vbulletin"
    vb5 = detect_engine(page(VB5))
    assert (vb5.engine, vb5.product) == ("vbulletin5", "vBulletin 5.5.2")
