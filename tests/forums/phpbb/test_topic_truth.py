"""Every post of `thread_truth.json`, read from the saved topic pages in both languages."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest

from forums.bbcode import parse_bbcode
from forums.phpbb.dates import detect_timezone
from forums.phpbb.topic import TopicPage, parse_topic_page
from forums.records import Post, PostBody

LANGS = ("ru", "en")
PAGES = [f"viewtopic_p{n}" for n in range(1, 8)]


def norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def parse(page: Any) -> TopicPage:
    tz = detect_timezone(page.html)
    assert tz is not None
    return parse_topic_page(page.html, page.url, tz=tz, now=page.captured_at)


def kinds(body: PostBody) -> dict[str, str]:
    """The text of each kind of run, whitespace-normalised, for comparing HTML with BBCode."""
    runs = [r for r in body.runs if not r.signature]
    return {
        "counted": norm(PostBody(tuple(runs)).text()),
        "quoted": norm("".join(r.text for r in runs if r.quoted)),
        "struck": norm("".join(r.text for r in runs if r.struck and not r.quoted)),
        "spoiler": norm("".join(r.text for r in runs if r.spoiler and not r.quoted)),
        "bold": norm(" ".join(r.text for r in runs if r.bold and not r.quoted)),
    }


@pytest.fixture(scope="module", params=LANGS)
def thread(
    request: pytest.FixtureRequest, saved_page: Callable[[str], Any]
) -> tuple[str, list[TopicPage]]:
    lang = request.param
    return lang, [parse(saved_page(f"{lang}/{name}")) for name in PAGES]


def utc(stamp: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(stamp["utc"])


def test_pages_paginate_the_thread(thread: tuple[str, list[TopicPage]]) -> None:
    _, pages = thread
    for index, page in enumerate(pages):
        assert page.thread_id == "2"
        assert page.title == "Мафия #7: Город в тумане — игровая тема"
        assert (page.page, page.pages, page.per_page) == (index + 1, 7, 10)
        assert page.start == index * 10
        assert page.total_posts == 61
        assert page.logged_in_as == "Ведущий"
        for offset, post in enumerate(page.posts):
            assert post.number == page.start + offset + 1
    assert [len(p.posts) for p in pages] == [10, 10, 10, 10, 10, 10, 1]


def test_every_truth_post(
    thread: tuple[str, list[TopicPage]], thread_truth: dict[str, Any]
) -> None:
    lang, pages = thread
    by_id: dict[str, Post] = {}
    for page in pages:
        for post in page.posts:
            assert post.id not in by_id
            by_id[post.id] = post
    visible = [t for t in thread_truth["posts"] if t["visible_to_regular_users"]]
    assert sorted(by_id, key=int) == [str(t["post_id"]) for t in visible]

    for truth in visible:
        post = by_id[str(truth["post_id"])]
        label = truth["label"]
        assert post.author == truth["author"], label
        assert post.author_id == str(truth["author_user_id"]), label
        assert post.thread_id == "2"
        assert post.posted_at == utc(truth["posted_at"]), label
        assert post.posted_at.utcoffset() == timedelta(hours=3)
        assert post.url == f"http://127.0.0.1:8081/viewtopic.php?p={post.id}#p{post.id}"
        assert not post.deleted
        assert post.raw is not None and post.raw.strip()
        page_of = next(i + 1 for i, p in enumerate(pages) if post in p.posts)
        assert page_of == truth["page"], label

        if truth["edits"]:
            last = truth["edits"][-1]
            assert post.edit is not None, label
            assert post.edit.by == last["editor"], label
            assert (
                post.edit.count == len(truth["edits"]) == truth["db_edit_state"]["post_edit_count"]
            )
            # The notice shows minutes only.
            assert post.edit.at == utc(last["at"]).replace(second=0), label
        else:
            assert post.edit is None, label

        expected = kinds(parse_bbcode(truth["final_bbcode"]))
        got = kinds(post.body)
        assert got == expected, f"{label} ({lang})"


def test_signatures_are_flagged_not_counted(thread: tuple[str, list[TopicPage]]) -> None:
    _, pages = thread
    posts = [p for page in pages for p in page.posts]
    fiks = [p for p in posts if p.author == "Mr. Fiks"]
    alu = [p for p in posts if p.author == "Alu"]
    assert fiks and alu
    for post in fiks:
        signature = "".join(r.text for r in post.body.runs if r.signature)
        assert "Голосую за здравый смысл." in signature
        assert "здравый смысл" not in post.body.text()
    for post in alu:
        signature = "".join(r.text for r in post.body.runs if r.signature)
        assert norm(signature) == "Комиссар в душе. vote responsibly."
        assert "responsibly" not in post.body.text()
        assert "responsibly" in post.body.text(include_signature=True)


@pytest.mark.parametrize("lang", LANGS)
def test_moderator_view_shows_the_soft_deleted_post(
    lang: str, saved_page: Callable[[str], Any], thread_truth: dict[str, Any]
) -> None:
    page = parse(saved_page(f"{lang}/viewtopic_p5_as_moderator"))
    assert page.logged_in_as == "Admin"
    truth = next(t for t in thread_truth["posts"] if t["label"] == "P44b")
    deleted = [p for p in page.posts if p.deleted]
    assert [p.id for p in deleted] == [str(truth["post_id"])]
    stub = deleted[0]
    assert stub.author == "вася2" and stub.author_id == "60"
    assert stub.posted_at == utc(truth["posted_at"])
    assert norm(stub.body.text()) == norm(truth["final_bbcode"])
    # The permanently deleted post is on no page at all.
    assert all(p.id != "34" for p in page.posts)


@pytest.mark.parametrize("lang", LANGS)
def test_permalink_page_lands_on_page_four(lang: str, saved_page: Callable[[str], Any]) -> None:
    page = parse(saved_page(f"{lang}/viewtopic_by_post_id"))
    assert (page.thread_id, page.page, page.start, page.per_page) == ("2", 4, 30, 10)
    assert "39" in [p.id for p in page.posts]
    assert page.posts[0].number == 31


@pytest.mark.parametrize("lang", LANGS)
def test_guest_view_has_no_user(lang: str, saved_page: Callable[[str], Any]) -> None:
    page = parse(saved_page(f"{lang}/viewtopic_p1_guest"))
    assert page.logged_in_as is None
    assert [p.id for p in page.posts] == [str(n) for n in range(2, 12)]


def test_after_post_relative_times(
    saved_page: Callable[[str], Any], thread_truth: dict[str, Any]
) -> None:
    live = {p["post_id"]: p for p in thread_truth["live_posts_made_during_capture"]}
    ru = parse(saved_page("ru/after_post_viewtopic"))
    new = next(p for p in ru.posts if p.id == "65")
    assert new.posted_at == utc(live[65]["posted_at"])
    # Page wins over the README: the en page shows an absolute time, not "less than a minute ago".
    en = parse(saved_page("en/after_post_viewtopic"))
    thanks = next(p for p in en.posts if p.id == "66")
    assert thanks.posted_at == utc(live[66]["posted_at"])
    assert norm(thanks.body.text()) == norm(parse_bbcode(live[66]["submitted_bbcode"]).text())
