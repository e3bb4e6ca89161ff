"""phpBB 3.0 pages (prosilver 3.0 and a custom theme with `div.author` and `sid=` links), and
layout drift: pages that must raise `LayoutChanged` naming the URL and what is missing."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from forums.errors import LayoutChanged
from forums.phpbb.dates import detect_timezone
from forums.phpbb.topic import parse_topic_page, query_param, user_id_from

NOW = datetime(2026, 11, 30, tzinfo=UTC)
ILP_URL = "http://www.ilovephilosophy.com/viewtopic.php?f=1&t=194998&start=25"
RPI_URL = "http://www.raspberrypi.org/phpBB3/viewtopic.php?f=35&t=28017"


def test_phpbb30_prosilver(real_page: Callable[[str], str]) -> None:
    html = real_page("phpBB.html")
    tz = detect_timezone(html)
    assert tz == timezone(timedelta(hours=1))
    page = parse_topic_page(html, ILP_URL, tz=tz, now=NOW)
    assert (page.thread_id, page.title) == ("194998", "Biological Will")
    assert (page.page, page.pages, page.per_page, page.start, page.total_posts) == (
        2,
        10,
        25,
        25,
        247,
    )
    assert page.logged_in_as is None
    assert len(page.posts) == 25
    assert [p.number for p in page.posts] == list(range(26, 51))
    first = page.posts[0]
    assert (first.id, first.author, first.author_id) == ("2729870", "Jakob", "5996")
    assert first.posted_at == datetime(2019, 5, 26, 16, 34, tzinfo=tz)
    assert first.url == "http://www.ilovephilosophy.com/viewtopic.php?p=2729870#p2729870"

    # Signatures: flagged, so they never count.
    signed = [p for p in page.posts if any(r.signature for r in p.body.runs)]
    assert signed
    for post in signed:
        assert "For behold" not in post.body.text()
    assert any("For behold" in p.body.text(include_signature=True) for p in signed)

    # Edit notices ("Last edited by Jakob on Sun May 26, 2019 5:35 pm, edited 2 times in total.")
    edited = [p for p in page.posts if p.edit is not None]
    assert len(edited) == 2
    assert any(
        p.edit is not None
        and (p.edit.by, p.edit.at, p.edit.count)
        == ("Jakob", datetime(2019, 5, 26, 17, 35, tzinfo=tz), 2)
        for p in edited
    )

    # 15 quotes, some nested: each quoted run carries its (innermost) author.
    # 9 cited quotes (Jakob, Silhouette, Urwrongx1000, promethean75) and 6 uncited ones.
    quoted = [r for p in page.posts for r in p.body.runs if r.quoted]
    assert {r.quote_author for r in quoted} == {
        "Jakob",
        "Silhouette",
        "Urwrongx1000",
        "promethean75",
        None,
    }
    nested = [
        p
        for p in page.posts
        if p.raw is not None
        and re.search(r"<blockquote>(?:(?!</blockquote>).)*<blockquote>", p.raw, re.S)
    ]
    assert nested
    for post in nested:
        authors = {r.quote_author for r in post.body.runs if r.quoted}
        assert len(authors) >= 2


def test_phpbb30_custom_theme_div_author_and_sid(real_page: Callable[[str], str]) -> None:
    html = real_page("viewtopic.php_t=28017.html")
    tz = detect_timezone(html)
    assert tz == UTC
    page = parse_topic_page(html, RPI_URL, tz=tz, now=NOW)
    assert page.thread_id == "28017"
    assert page.title == "omxplayer playing from pipe / standard input on Raspbian"
    assert (page.page, page.pages, page.start, page.total_posts) == (1, 1, 0, 5)
    assert [(p.author, p.author_id) for p in page.posts] == [
        ("madman_xxx", "46698"),
        ("KenT", "8981"),
        ("Max", "3713"),
        ("KenT", "8981"),
        ("Max", "3713"),
    ]
    assert page.posts[0].posted_at == datetime(2013, 1, 2, 19, 14, tzinfo=UTC)
    assert all("sid=" not in (p.url or "") for p in page.posts)

    code = "".join(r.text for r in page.posts[0].body.runs if r.code)
    assert code == "mkfifo omxpipe\ncat video.mp4 >omxpipe &\nomxplayer omxpipe\n"
    assert "Select all" not in page.posts[0].body.full_text()

    nested = page.posts[3]
    quoted = [(r.quote_author, r.text.strip()) for r in nested.body.runs if r.quoted]
    assert ("KenT", "pyomxplayer uses pipes.") in quoted
    assert quoted[0][0] == "Max"
    assert nested.body.text().strip().startswith("Whoops sorry")
    assert ";)" in nested.body.text()


# --- layout drift -------------------------------------------------------------------------


def _parse(html: str, url: str) -> None:
    parse_topic_page(html, url, tz=UTC, now=NOW)


@pytest.mark.parametrize(
    ("name", "what"),
    [
        ("ru/index", "not a topic page"),
        ("en/pm_inbox", "not a topic page"),
        ("en/memberlist", "not a topic page"),
        ("en/login_page", "login form"),
        ("ru/posting_reply_not_logged_in", "login form"),
    ],
)
def test_unrelated_pages(name: str, what: str, saved_page: Callable[[str], Any]) -> None:
    page = saved_page(name)
    with pytest.raises(LayoutChanged) as caught:
        _parse(page.html, page.url)
    assert caught.value.url == page.url
    assert what in caught.value.what
    assert page.url in str(caught.value)


def test_page_with_posts_stripped(saved_page: Callable[[str], Any]) -> None:
    page = saved_page("ru/viewtopic_p2")
    html = re.sub(r'<div id="p\d+" class="post.*?<div class="back2top">', "", page.html, flags=re.S)
    assert 'class="post ' not in html
    with pytest.raises(LayoutChanged) as caught:
        _parse(html, page.url)
    assert caught.value.url == page.url
    assert "no posts" in caught.value.what


def test_posts_renamed_by_a_new_theme(saved_page: Callable[[str], Any]) -> None:
    # Issue 26: the author line's class is the fast path; the profile link and <time> of
    # each post read it all the same.
    page = saved_page("en/viewtopic_p3")
    html = page.html.replace('class="author"', 'class="byline"')
    restyled = parse_topic_page(html, page.url, tz=UTC, now=NOW)
    served = parse_topic_page(page.html, page.url, tz=UTC, now=NOW)
    assert [(p.id, p.author, p.posted_at, p.body) for p in restyled.posts] == [
        (p.id, p.author, p.posted_at, p.body) for p in served.posts
    ]


def test_post_without_a_time(saved_page: Callable[[str], Any]) -> None:
    page = saved_page("ru/viewtopic_p1")
    html = re.sub(
        r'&raquo; </span><time datetime="[^"]*">[^<]*</time>', "&raquo; </span>", page.html, count=1
    )
    with pytest.raises(LayoutChanged) as caught:
        _parse(html, page.url)
    assert caught.value.url == page.url
    assert caught.value.what == "post p2 has no time"


def test_post_with_an_unreadable_time(saved_page: Callable[[str], Any]) -> None:
    page = saved_page("en/viewtopic_p1")
    html = re.sub(
        r'<time datetime="[^"]*">[^<]*</time>', "<time>at some point</time>", page.html, count=1
    )
    with pytest.raises(LayoutChanged) as caught:
        _parse(html, page.url)
    assert "p2" in caught.value.what and "at some point" in caught.value.what


def test_post_without_an_author(saved_page: Callable[[str], Any]) -> None:
    page = saved_page("ru/viewtopic_p1")
    start = page.html.index('<div id="p3"')
    end = page.html.index('<div id="p4"')
    post = re.sub(
        r'<a href="./memberlist.php\?mode=viewprofile[^"]*"[^>]*>[^<]*</a>',
        "",
        page.html[start:end],
    )
    html = page.html[:start] + post + page.html[end:]
    with pytest.raises(LayoutChanged) as caught:
        _parse(html, page.url)
    assert caught.value.what == "post p3 has no author"


def test_post_whose_content_class_is_renamed(saved_page: Callable[[str], Any]) -> None:
    # The content block is found by the post's marks (issue 26), not only by div.content.
    page = saved_page("ru/viewtopic_p1")
    html = page.html.replace('<div class="content">', '<div class="message">', 1)
    restyled = parse_topic_page(html, page.url, tz=UTC, now=NOW)
    served = parse_topic_page(page.html, page.url, tz=UTC, now=NOW)
    assert [p.body for p in restyled.posts] == [p.body for p in served.posts]


def test_post_without_content(saved_page: Callable[[str], Any]) -> None:
    page = saved_page("ru/viewtopic_p1")
    html = re.sub(r'<div class="content">.*?</div>', "", page.html, count=1, flags=re.S)
    with pytest.raises(LayoutChanged) as caught:
        _parse(html, page.url)
    assert caught.value.what.startswith("post p2 has no content")


def test_print_view_is_not_read_as_an_empty_topic(saved_page: Callable[[str], Any]) -> None:
    page = saved_page("en/viewtopic_print_p1")
    with pytest.raises(LayoutChanged):
        _parse(page.html, page.url)


_PIECES = st.sampled_from(
    ["", "./", "/", "//", "b/", "http:", "?", "&", "&amp;", "#p", "٣", "u=1&", "?u=1&"]
)


@given(
    st.tuples(
        _PIECES,
        st.sampled_from(["memberlist.php?mode=viewprofile&u=", "memberlist.php?u=", "x.php?u="]),
        st.text("0123456789٣a", max_size=4),
        _PIECES,
    ).map("".join)
)
@example("?u=1&memberlist.php?mode=viewprofile&u=5")
@example("//b/memberlist.php?mode=viewprofile&u=5#p")
@settings(max_examples=300, deadline=None)
def test_a_profile_links_user_id_is_the_urls_u(href: str) -> None:
    """phpBB's plain profile link is read without parsing the URL: the same `u` as parsing."""
    expected = query_param(href, "u") if "memberlist.php" in href else None
    assert user_id_from(href) == expected
    plain = "./memberlist.php?mode=viewprofile&u=5996"
    assert user_id_from(plain) == query_param(plain, "u") == "5996"
