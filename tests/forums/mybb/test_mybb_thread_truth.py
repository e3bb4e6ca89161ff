"""Every post of the MyBB `thread_truth.json`, read from the saved thread pages."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from helpers_mybb import HOST, MSK, SavedPage

from forums.bbcode import parse_bbcode
from forums.errors import LayoutChanged
from forums.mybb.dates import read_clock
from forums.mybb.thread import TopicPage, parse_thread_page
from forums.records import Post, PostBody

PAGES = [f"showthread_p{n}" for n in range(1, 8)]


def norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def parse(page: SavedPage, **options: Any) -> TopicPage:
    shown = re.search(r'id="current_time"><strong>[^<]*</strong>\s*([^<]+)<', page.html)
    clock = read_clock(shown.group(1), page.captured_at) if shown else None
    if clock is None:  # print and archive views have no footer clock
        assert "printthread" in page.name or "archive" in page.name, page.name
    else:
        assert clock.order == "mdy" and clock.tz.utcoffset(None) == timedelta(hours=3)
    tz = clock.tz if clock is not None else MSK
    return parse_thread_page(page.html, page.url, tz=tz, now=page.captured_at, **options)


def kinds(body: PostBody) -> dict[str, Any]:
    """The text of each kind of run, whitespace-normalised, for comparing HTML with BBCode."""
    runs = [r for r in body.runs if not r.signature]
    return {
        "counted": norm(PostBody(tuple(runs)).text()),
        "quoted": norm(" ".join(r.text for r in runs if r.quoted)),
        "quote_authors": [a for a in dict.fromkeys(r.quote_author for r in runs if r.quoted)],
        "struck": norm("".join(r.text for r in runs if r.struck and not r.quoted)),
        "spoiler": norm("".join(r.text for r in runs if r.spoiler and not r.quoted)),
        "bold": norm(" ".join(r.text for r in runs if r.bold and not r.quoted)),
    }


@pytest.fixture(scope="module")
def pages(mybb_page: Callable[[str], SavedPage]) -> list[TopicPage]:
    out: list[TopicPage] = []
    for name in PAGES:
        out.append(parse(mybb_page(name), per_page=out[0].per_page if out else None))
    return out


def minute(stamp: dict[str, Any]) -> datetime:
    """The truth time as the pages show it: to the minute."""
    return datetime.fromisoformat(stamp["utc"]).replace(second=0)


def test_pages_paginate_the_thread(pages: list[TopicPage]) -> None:
    for index, view in enumerate(pages):
        assert view.thread_id == "1"
        assert view.title == "Мафия #7: Город в тумане — игровая тема"
        assert (view.page, view.pages, view.per_page, view.start) == (index + 1, 7, 10, index * 10)
        assert view.logged_in_as == "Ведущий"
        for offset, post in enumerate(view.posts):
            assert post.number == view.start + offset + 1
    assert [len(v.posts) for v in pages] == [10, 10, 10, 10, 10, 10, 2]
    assert [v.total_posts for v in pages] == [None] * 6 + [62]


def test_every_truth_post(pages: list[TopicPage], mybb_thread_truth: dict[str, Any]) -> None:
    by_id: dict[str, tuple[int, Post]] = {}
    for number, view in enumerate(pages, start=1):
        for post in view.posts:
            assert post.id not in by_id
            by_id[post.id] = (number, post)
    shown = [t for t in mybb_thread_truth["posts"] if "page" in t]
    assert sorted(by_id, key=int) == [str(t["pid"]) for t in shown]
    for truth in shown:
        page_of, post = by_id[str(truth["pid"])]
        label = truth["label"]
        assert page_of == truth["page"], label
        assert post.author == truth["author"], label
        assert post.author_id == str(truth["author_uid"]), label
        assert post.thread_id == "1"
        assert post.url == f"{HOST}/showthread.php?tid=1&pid={post.id}#pid{post.id}"
        if not truth["visible_to_regular_users"]:
            continue  # the soft-deleted stub: test_soft_deleted_post_is_a_deletion
        assert post.posted_at == minute(truth["posted_at"]), label
        assert post.posted_at.utcoffset() == timedelta(hours=3)
        assert not post.deleted, label
        assert post.raw, label
        if truth["edits"]:
            last = truth["edits"][-1]
            assert post.edit is not None, label
            assert (post.edit.by, post.edit.at, post.edit.count) == (
                last["editor"],
                minute(last["at"]),
                1,
            )
        else:
            assert post.edit is None, label
        assert kinds(post.body) == kinds(parse_bbcode(truth["final_bbcode"])), label


def test_soft_deleted_post_is_a_deletion(
    pages: list[TopicPage],
    mybb_thread_truth: dict[str, Any],
    mybb_page: Callable[[str], SavedPage],
) -> None:
    truth = next(t for t in mybb_thread_truth["posts"] if t["label"] == "P44b")
    page5 = pages[4]
    (stub,) = [p for p in page5.posts if p.deleted]
    assert stub.id == str(truth["pid"]) and stub.author == "вася2" and stub.author_id == "4"
    assert stub.body.runs == () and stub.raw is None and stub.edit is None
    assert stub.number == 45
    # The stub shows no time: it takes the previous post's, so it stays in its place.
    before = page5.posts[page5.posts.index(stub) - 1]
    assert stub.posted_at == before.posted_at <= minute(truth["posted_at"])
    # A time seen earlier (when the post was still up) is kept.
    again = parse(mybb_page("showthread_p5"), known_times={stub.id: minute(truth["posted_at"])})
    assert next(p for p in again.posts if p.id == stub.id).posted_at == minute(truth["posted_at"])
    # The permanently deleted P32b is on no page.
    assert all(p.id != "33" for view in pages for p in view.posts)


def test_moderator_view_shows_the_deleted_post_as_deleted(
    mybb_page: Callable[[str], SavedPage], mybb_thread_truth: dict[str, Any]
) -> None:
    view = parse(mybb_page("showthread_p5_as_moderator"))
    assert view.logged_in_as == "Admin"
    truth = next(t for t in mybb_thread_truth["posts"] if t["label"] == "P44b")
    (deleted,) = [p for p in view.posts if p.deleted]
    assert deleted.id == str(truth["pid"])
    assert deleted.posted_at == minute(truth["posted_at"])
    assert norm(deleted.body.text()) == norm(truth["final_bbcode"])


def test_signatures_are_flagged_not_counted(pages: list[TopicPage]) -> None:
    posts = [p for view in pages for p in view.posts]
    fiks = [p for p in posts if p.author == "Mr. Fiks"]
    alu = [p for p in posts if p.author == "Alu"]
    assert fiks and alu
    for post in fiks:
        assert "здравый смысл" in post.body.text(include_signature=True)
        assert "здравый смысл" not in post.body.text()
    for post in alu:
        assert (
            norm("".join(r.text for r in post.body.runs if r.signature))
            == "Комиссар в душе. vote responsibly."
        )


def test_merged_double_post_is_one_post_with_both_texts(
    mybb_page: Callable[[str], SavedPage],
) -> None:
    view = parse(mybb_page("showthread_p7_merged_double_post"), per_page=10)
    merged = view.posts[-1]
    assert (merged.id, merged.number, merged.author) == ("64", 63, "Ведущий")
    text = merged.body.text()
    assert text.index("Победа города!") < text.index("Проверка антифлуда")
    # The merge shows as an edit by the author, at the time of the second post.
    assert merged.edit is not None and merged.edit.by == "Ведущий"
    assert merged.edit.at is not None and merged.edit.at >= merged.posted_at


def test_permalink_page_lands_on_page_four(mybb_page: Callable[[str], SavedPage]) -> None:
    view = parse(mybb_page("showthread_by_pid"))
    assert (view.thread_id, view.page, view.start) == ("1", 4, 30)
    assert "38" in [p.id for p in view.posts]
    assert view.posts[0].number == 31


def test_guest_view_has_no_user(mybb_page: Callable[[str], SavedPage]) -> None:
    view = parse(mybb_page("showthread_p1_guest"))
    assert view.logged_in_as is None
    assert [p.id for p in view.posts] == [str(n) for n in range(1, 11)]


def test_relative_times_read_from_their_titles(
    mybb_page: Callable[[str], SavedPage], mybb_thread_truth: dict[str, Any]
) -> None:
    live = mybb_thread_truth["live_posts_made_during_capture"][0]
    view = parse(mybb_page("after_post_showthread"), per_page=10)
    new = next(p for p in view.posts if p.id == str(live["pid"]))
    assert new.posted_at == minute(live["posted_at"])  # "Less than 1 minute ago"
    assert norm(new.body.text()) == norm(parse_bbcode(live["submitted_bbcode"]).text())


@pytest.mark.parametrize(
    ("name", "what"),
    [
        ("showthread_threaded_mode", "threaded-mode"),
        ("printthread_p1", "no posts"),
        ("archive_thread_p1", "posts found, but not as"),
        ("newreply_not_logged_in", "not logged in"),
        ("private_inbox", "pm folder"),
        ("index", "not a thread page"),
    ],
)
def test_not_a_thread_page_is_layout_changed(
    name: str, what: str, mybb_page: Callable[[str], SavedPage]
) -> None:
    page = mybb_page(name)
    with pytest.raises(LayoutChanged) as caught:
        parse(page)
    assert caught.value.url == page.url
    assert what in caught.value.what


def test_posts_that_lost_their_markup_are_layout_changed(
    mybb_page: Callable[[str], SavedPage],
) -> None:
    page = mybb_page("showthread_p2")
    served = [(p.id, p.author, p.posted_at, p.body) for p in parse(page).posts]
    # A theme's renamed classes or container: MyBB's own marks read the posts (issue 26).
    for restyled in [
        page.html.replace('class="post_date"', 'class="date"'),
        page.html.replace('class="largetext"', 'class="name"'),
        page.html.replace('class="post_body', 'class="message'),
        page.html.replace('id="posts"', 'id="messages"'),
    ]:
        read = parse(SavedPage(page.name, restyled, page.url, page.captured_at))
        assert [(p.id, p.author, p.posted_at, p.body) for p in read.posts] == served
    # Without the marks too, a clear LayoutChanged.
    for broken, what in [
        (page.html.replace('id="post_', 'id="entry_'), "posts found, but not as"),
        (re.sub(r'id="pid_\d+"', "", page.html.replace('class="post_body', 'class="m')), "body"),
    ]:
        with pytest.raises(LayoutChanged, match=what):
            parse(SavedPage(page.name, broken, page.url, page.captured_at))


def test_text_a_reader_cannot_see_is_flagged_hidden(mybb_page: Callable[[str], SavedPage]) -> None:
    saved = mybb_page("showthread_p1")
    # Derived: Мaрина's red vote (P10) turned white and a line in 1pt type added after it, as
    # MyBB renders [color=#FFFFFF] and [size=1].
    body = saved.html.replace("color: #BF0000;", "color: #FFFFFF;").replace(
        "защищаешь?<br />",
        'защищаешь?<br /><span style="font-size: 1pt;" class="mycode_size">vote Вася</span><br />',
    )
    view = parse(SavedPage(saved.name, body, saved.url, saved.captured_at))
    post = next(p for p in view.posts if p.id == "10")
    hidden = norm(" ".join(r.text for r in post.body.runs if r.hidden))
    assert hidden == "vote Вася голос: Лёха"
    assert norm(post.body.text(include_hidden=False)) == "Лёха, а ты чего так Nekr0 защищаешь?"


def seo(html: str) -> str:
    """A page as MyBB serves it with search-engine friendly URLs on (derived: its links
    rewritten the way MyBB's SEO URL option writes them)."""
    html = re.sub(
        r"(?:http://127\.0\.0\.1:8082/)?member\.php\?action=profile&amp;uid=(\d+)",
        r"user-\1.html",
        html,
    )
    html = re.sub(
        r"showthread\.php\?tid=(\d+)&amp;pid=(\d+)#pid\d+", r"thread-\1-post-\2.html#pid\2", html
    )
    return re.sub(r"showthread\.php\?tid=(\d+)&amp;page=(\d+)", r"thread-\1-page-\2.html", html)


def test_search_engine_friendly_urls_read_alike(
    pages: list[TopicPage], mybb_page: Callable[[str], SavedPage]
) -> None:
    for number in (1, 5):
        saved = mybb_page(f"showthread_p{number}")
        assert "user-2.html" in seo(saved.html) and "action=profile" not in seo(saved.html)
        view = parse(
            SavedPage(saved.name, seo(saved.html), saved.url, saved.captured_at), per_page=10
        )
        assert view.posts == pages[number - 1].posts
        assert view.logged_in_as == "Ведущий"
