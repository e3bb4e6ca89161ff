"""PunBB, FluxBB's parent, on real pages (fixtures/punbb/): a PunBB 1.2 board is named as
such and its topic pages read by the FluxBB readers, every post against the board's own
table, its pages sorted as FluxBB's; PunBB 1.3 and later, whose pages differ, are named
as such for their own adapter (`punbb`, tests/forums/punbb), and the FluxBB reader refuses
their topic pages rather than finding no posts in them."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from forums.detect import detect_engine
from forums.errors import LayoutChanged
from forums.fluxbb.pages import PageKind, classify, parse_topic_page, read_zone

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "punbb"
BASE = "http://127.0.0.1:8090/"


def page(version: str, name: str) -> str:
    return (FIXTURES / version / name).read_text(encoding="utf-8")


def truth(version: str) -> dict[str, dict[str, Any]]:
    rows = json.loads((FIXTURES / version / "truth.json").read_text(encoding="utf-8"))
    return {str(r["id"]): r for r in rows}


def seen(version: str) -> datetime:
    """A moment on the capture day after every post and edit: what «Today» counts from."""
    last = max(max(r["posted"], r["edited"] or 0) for r in truth(version).values())
    return datetime.fromtimestamp(last + 5, UTC)


@pytest.mark.parametrize(
    "name", ["topic_p1_guest.html", "topic_p2_member.html", "login_form.html", "index.html"]
)
def test_a_punbb_12_board_is_named_punbb_12_and_read_as_fluxbb(name: str) -> None:
    found = detect_engine(page("1.2.50", name), "text/html; charset=iso-8859-1")
    assert (found.engine, found.product) == ("fluxbb", "PunBB 1.2")
    assert "“Powered by PunBB” (punbb.org)" in found.seen and "PunBB markup" in found.seen
    assert found.describe().startswith("PunBB 1.2 (")


@pytest.mark.parametrize("who", ["member", "guest"])
def test_every_post_of_a_punbb_12_topic_is_the_boards(who: str) -> None:
    rows = truth("1.2.50")
    now = seen("1.2.50")
    read = []
    for number in (1, 2):
        view = parse_topic_page(
            page("1.2.50", f"topic_p{number}_{who}.html"),
            BASE + f"viewtopic.php?id=2&p={number}",
            tz=UTC,
            now=now,
        )
        assert (view.thread_id, view.title, view.page, view.pages) == (
            "2",
            "Mafia day 1",
            number,
            2,
        )
        assert view.logged_in_as == ("Petya" if who == "member" else None)
        read += view.posts
    assert [p.id for p in read] == sorted(rows, key=int)
    assert [p.number for p in read] == [1, 2, 3, 4, 5, 6]
    for post in read:
        row = rows[post.id]
        assert (post.author, post.author_id) == (row["poster"], str(row["poster_id"]))
        assert post.posted_at == datetime.fromtimestamp(row["posted"], UTC)
        assert (
            post.thread_id == "2" and post.url == BASE + f"viewtopic.php?pid={post.id}#p{post.id}"
        )
        if row["edited"] is None:
            assert post.edit is None
        else:
            assert post.edit is not None and post.edit.by == row["edited_by"]
            assert post.edit.at == datetime.fromtimestamp(row["edited"], UTC)
    bodies = {p.id: p.body for p in read}
    assert bodies["3"].text() == "vote Vasya"
    bold = [r.text for r in bodies["4"].runs if r.bold]
    assert bold == ["vote Petya"] and bodies["4"].text().endswith(":)")
    quoted = [r for r in bodies["5"].runs if r.quoted]
    assert [(r.text.strip(), r.quote_author) for r in quoted] == [("vote Petya", "Masha")]
    assert bodies["5"].text().strip() == "I agree: vote Petya"
    assert "wrote" not in bodies["5"].text(include_quoted=True)
    assert bodies["6"].text() == "unvote\nvote Masha (edited: she is quiet)"


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("topic_p1_member.html", PageKind.TOPIC),
        ("topic_p2_guest.html", PageKind.TOPIC),
        ("posted_redirect.html", PageKind.POSTED),
        ("login_redirect.html", PageKind.POSTED),
        ("profile_essentials.html", PageKind.PREFERENCES),
        ("login_form.html", PageKind.LOGIN_FORM),
        # The reply form with the topic's last posts under it (#postreview), not a topic.
        ("post_form.html", PageKind.POSTING_FORM),
        # A wrong password is an information page (FluxBB 1.5 serves the form again).
        ("login_failed.html", PageKind.MESSAGE),
    ],
)
def test_punbb_12_pages_are_the_kinds_fluxbbs_are(name: str, kind: PageKind) -> None:
    assert classify(page("1.2.50", name), BASE + name) is kind


@pytest.mark.parametrize("name", ["topic_p1_guest.html", "topic_p2_member.html", "index.html"])
def test_punbb_13_and_later_are_named_for_their_own_adapter(name: str) -> None:
    found = detect_engine(page("1.4.4", name), "text/html; charset=utf-8")
    assert (found.engine, found.product) == ("punbb", "PunBB 1.3+")
    said = found.describe()
    assert "not a supported engine" not in said and "the #brd-wrap layout" in said


def test_the_fluxbb_reader_refuses_a_punbb_14_topic_page_instead_of_finding_no_posts() -> None:
    with pytest.raises(LayoutChanged, match="without posts"):
        parse_topic_page(
            page("1.4.4", "topic_p1_member.html"),
            BASE + "viewtopic.php?id=2",
            tz=UTC,
            now=seen("1.4.4"),
        )


def test_a_mybb_ru_board_is_a_punbb_fork_not_mybb() -> None:
    # Not a saved page (none was found in public repositories): the blocks public scripts
    # written for mybb.ru-family boards select (#pun, #pun-main, div.post, li.pa-author).
    board = (
        '<html><body><div id="pun" class="punbb"><div id="pun-viewtopic" class="punbb">'
        '<div id="pun-main" class="main"><div id="p12" class="post topicpost" '
        'data-posted="1764950400"><h3><span><strong>1</strong> <a class="permalink" '
        'href="https://example.mybb.ru/viewtopic.php?pid=12#p12">Сегодня 19:00</a></span></h3>'
        '<div class="container"><div class="post-author"><ul><li class="pa-author">'
        '<span class="acchide">Автор:&nbsp;</span><a href="https://example.mybb.ru/'
        'profile.php?id=2">Вася</a></li></ul></div><div class="post-body"><div class="post-box">'
        '<div class="post-content"><p>голосую за Петю</p></div></div></div></div></div>'
        "</div></div></div></body></html>"
    )
    found = detect_engine(board, "text/html")
    assert (found.engine, found.product) == (None, "MyBB.ru (a PunBB fork)")
    assert "not MyBB" in found.describe() and "mybb" not in (found.engine or "")


def test_a_punbb_12_profile_has_a_zone_and_the_boards_own_date_format() -> None:
    zone = read_zone(page("1.2.50", "profile_essentials.html"))
    assert zone.tz == UTC and zone.order == "ymd"
    assert "no date format in the profile" in zone.shown


def test_the_russian_punbb_packs_edit_notice_names_its_editor() -> None:
    # The real page, its English notice worded as PunBB's Russian pack words it
    # («Отредактировано», lang/Russian/topic.php of github.com/Gemorroj/punbb-mod).
    html = page("1.2.50", "topic_p2_member.html")
    assert "Last edited by Petya (" in html
    html = html.replace("Last edited by Petya (", "Отредактировано Petya (")
    view = parse_topic_page(html, BASE + "viewtopic.php?id=2&p=2", tz=UTC, now=seen("1.2.50"))
    edited = next(p for p in view.posts if p.edit is not None)
    row = truth("1.2.50")[edited.id]
    assert edited.edit is not None and edited.edit.by == "Petya"
    assert edited.edit.at == datetime.fromtimestamp(row["edited"], UTC)
