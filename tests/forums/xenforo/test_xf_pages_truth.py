"""The real XenForo pages parse as their truth files say: ids, authors, times, flags."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from forums import LayoutChanged, TextRun
from forums.xenforo import PageKind, classify, parse_thread_page, xf_body
from forums.xenforo.dates import parse_xf_time, server_offset
from forums.xenforo.pages import csrf_token, visitor

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "xenforo"


def load(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8-sig")


def truth(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    return data


XF2 = truth("xenforo.com/thread_view.truth.json")
XF1 = truth("sufficientvelocity/thread_page54.truth.json")
CHICAGO = ZoneInfo(XF1["timezone"])


def test_xf2_thread_page_every_post_as_the_truth_file_says() -> None:
    view = parse_thread_page(
        load(XF2["source"]), XF2["url"], tz=None, now=datetime(2019, 7, 3, tzinfo=UTC)
    )
    assert (view.thread_id, view.title, view.page, view.pages) == (
        XF2["thread_id"],
        XF2["title"],
        XF2["page"],
        XF2["pages"],
    )
    assert view.version == 2 and view.visitor is None and view.csrf == XF2["csrf"]
    assert len(view.posts) == len(XF2["posts"]) == 8
    for post, expected in zip(view.posts, XF2["posts"], strict=True):
        assert post.id == expected["id"]
        assert post.number == expected["number"]
        assert post.author == expected["author"]
        assert post.author_id == expected["author_id"]
        assert post.posted_at == datetime.fromisoformat(expected["posted_at"])
        assert post.posted_at.tzinfo is not None
        assert post.body.full_text().startswith(expected["text_start"].split("\n")[0])
        assert [r.text for r in post.body.runs if r.bold] == expected["bold"]
        assert post.edit is None and not post.deleted
        assert not any(r.quoted or r.struck or r.spoiler for r in post.body.runs)
        assert post.url == f"{XF2['url']}post-{post.id}"
    # Reactions ("Like", "Love", "Niro, Dadparvar…") are not part of any body.
    assert not any("Dadparvar" in p.body.full_text() for p in view.posts)
    assert view.posts[6].body.links[0].url.endswith("/resources/default-style-dark.3656/")


def test_xf1_thread_page_every_post_as_the_truth_file_says() -> None:
    view = parse_thread_page(
        load(XF1["source"]), XF1["url"], tz=CHICAGO, now=datetime(2017, 7, 3, 20, tzinfo=UTC)
    )
    assert (view.thread_id, view.title, view.page, view.pages, view.version) == (
        XF1["thread_id"],
        XF1["title"],
        XF1["page"],
        XF1["pages"],
        1,
    )
    assert view.visitor is not None
    assert (view.visitor.name, view.visitor.id) == (XF1["logged_in_as"], XF1["user_id"])
    assert view.per_page == 25 and view.start == 53 * 25
    assert len(view.posts) == len(XF1["posts"]) == 25
    for post, expected in zip(view.posts, XF1["posts"], strict=True):
        assert (post.id, post.number, post.author, post.author_id) == (
            expected["id"],
            expected["number"],
            expected["author"],
            expected["author_id"],
        )
        assert post.posted_at == datetime.fromisoformat(expected["posted_at"])
        authors = []
        for run in post.body.runs:
            if run.quoted and (not authors or authors[-1] != run.quote_author):
                authors.append(run.quote_author)
        assert authors == expected["quote_authors"], post.id
        bold = [" ".join(r.text.split()) for r in post.body.runs if r.bold and not r.quoted]
        assert bold == expected["bold"], post.id
        assert not any(r.struck or r.spoiler for r in post.body.runs), post.id
        # "X said:" and "Click to expand..." are the board's, not the player's.
        assert " said:" not in post.body.full_text()
        assert "Click to expand" not in post.body.full_text()
        if expected["edited"]:
            assert post.edit is not None
            assert post.edit.by == post.author
            assert post.edit.at == datetime.fromisoformat(expected["edited"]["at"])
        else:
            assert post.edit is None
    # The one strike-through on the page is in a signature: signatures are not read.
    striker = next(p for p in view.posts if p.id == XF1["signature_strike_post"])
    assert not any(r.struck for r in striker.body.runs)
    assert "Ryouga" not in striker.body.full_text()


def test_xf1_without_a_configured_zone_uses_the_offset_the_page_states() -> None:
    html = load(XF1["source"])
    offset = server_offset(html)
    assert offset is not None and offset.utcoffset(None).total_seconds() == -5 * 3600
    view = parse_thread_page(html, XF1["url"], tz=None, now=datetime(2017, 7, 3, tzinfo=UTC))
    assert view.posts[0].posted_at.isoformat() == "2014-10-30T22:48:00-05:00"


def test_xf1_russian_date_strings_from_a_real_thread() -> None:
    data = json.loads((FIXTURES / "forumscraper/xf1_thread_409354.json").read_text("utf-8"))
    moscow = ZoneInfo("Europe/Moscow")
    now = datetime(2025, 6, 1, tzinfo=UTC)
    times = [parse_xf_time(p["date"], tz=moscow, now=now) for p in data["posts"]]
    assert times[0] == datetime(2017, 6, 16, 14, 51, tzinfo=moscow)
    assert times[-1] == datetime(2024, 12, 9, 5, 58, tzinfo=moscow)
    assert times == sorted(times)
    # Their bodies are XF1 `blockquote.messageText`: bold is bold, the wrapper is no quote.
    body = xf_body(data["posts"][0]["text"])
    assert any(r.bold and "Реклама" in r.text for r in body.runs)
    assert not any(r.quoted for r in body.runs)


def test_relative_times() -> None:
    now = datetime(2017, 7, 3, 20, 23, tzinfo=UTC)  # a Monday, 15:23 in Chicago
    assert parse_xf_time("Today at 3:15 PM", tz=CHICAGO, now=now).hour == 15
    saturday = parse_xf_time("Saturday at 9:05 AM", tz=CHICAGO, now=now)
    assert (saturday.day, saturday.hour, saturday.minute) == (1, 9, 5)
    monday = parse_xf_time("Monday at 1:00 PM", tz=CHICAGO, now=now)
    assert monday.day == 26  # a week back: "Monday" is never today
    assert parse_xf_time("Вчера, в 23:10", tz=CHICAGO, now=now).day == 2
    with pytest.raises(ValueError):
        parse_xf_time("someday soon", tz=CHICAGO, now=now)


def test_real_xf2_quote_markup_from_a_real_thread() -> None:
    data = json.loads((FIXTURES / "forumscraper/xf2_thread_125681.json").read_text("utf-8"))
    quoted = [p for p in data["posts"] if "bbCodeBlock--quote" in p["text"]]
    assert len(quoted) == 2
    body = xf_body(quoted[0]["text"])
    runs = [r for r in body.runs if r.quoted]
    assert runs and {r.quote_author for r in runs} == {"XAFBX"}
    assert "Nobody cares" in "".join(r.text for r in runs)
    assert "said:" not in body.full_text() and "Click to expand" not in body.full_text()
    assert "your a" in body.text()  # the reply itself stays unquoted
    # Smilies become their text; no post loses its words.
    for post in data["posts"]:
        assert xf_body(post["text"]).full_text().strip() or "<img" in post["text"]


def test_a_real_xf2_body_excerpt() -> None:
    body = xf_body(load("f95zone/post_body.html"))
    assert body.full_text().startswith("This looks great, can't wait to try it out!\n\nDo the")
    assert "\xa0" not in body.full_text()


def test_flags_xf2_spoilers_strike_inline_spoiler_code_and_unfurls() -> None:
    # XF2 BB code renderings (the page templates of XenForo 2.2), in one body.
    html = (
        "<b>Голосую</b> <s>Лёха</s> Бармалей<br />"
        '<div class="bbCodeSpoiler"><button type="button" class="button bbCodeSpoiler-button">'
        '<span class="button-text"><span>Spoiler: для своих</span></span></button>'
        '<div class="bbCodeSpoiler-content"><div class="bbCodeBlock bbCodeBlock--spoiler">'
        '<div class="bbCodeBlock-content">убить Васю</div></div></div></div>'
        '<span class="bbCodeInlineSpoiler" data-xf-click="toggle-class">тайна</span>'
        '<div class="bbCodeBlock bbCodeBlock--code"><div class="bbCodeBlock-title">Code:</div>'
        '<div class="bbCodeBlock-content"><pre class="bbCodeCode"><code>vote X</code></pre></div></div>'
        '<div class="bbCodeBlock bbCodeBlock--unfurl" data-url="https://example.org/a">'
        '<div class="contentRow"><h3><a href="https://example.org/a">vote Вася</a></h3></div></div>'
    )
    body = xf_body(html)
    assert body.text().split() == ["Голосую", "Бармалей"]

    def run_of(text: str) -> TextRun:
        return next(r for r in body.runs if text in r.text)

    assert run_of("Голосую").bold and run_of("Лёха").struck
    assert run_of("убить Васю").spoiler and run_of("тайна").spoiler
    assert run_of("vote X").code
    assert "Spoiler" not in body.full_text() and "Code:" not in body.full_text()
    assert "vote Вася" not in body.full_text()  # the linked page's title, not the post's
    assert [link.url for link in body.links] == ["https://example.org/a"]


def test_page_kinds_visitor_and_token() -> None:
    assert classify(load(XF2["source"])) is PageKind.THREAD
    assert classify(load(XF1["source"])) is PageKind.THREAD
    kinds = {
        "synthetic/synthetic-login.html": PageKind.LOGIN,
        "synthetic/synthetic-login-failed.html": PageKind.LOGIN,
        "synthetic/synthetic-two-step.html": PageKind.TWO_STEP,
        "synthetic/synthetic-error.html": PageKind.ERROR,
        "synthetic/synthetic-conversation-list.html": PageKind.CONVERSATION_LIST,
        "synthetic/synthetic-conversation-view.html": PageKind.CONVERSATION_VIEW,
        "synthetic/synthetic-conversation-add.html": PageKind.CONVERSATION_ADD,
    }
    for name, kind in kinds.items():
        assert classify(load(name)) is kind, name
    assert visitor(load("synthetic/synthetic-conversation-list.html")) is not None
    assert visitor(load("synthetic/synthetic-login.html")) is None
    assert (
        csrf_token(load(XF1["source"]))
        == "4076,1499113436,8d4b44da51107c625c458332cccdd981e5cd1b37"
    )


@pytest.mark.parametrize(
    "name, what",
    [
        ("synthetic/synthetic-login.html", "login form"),
        ("synthetic/synthetic-error.html", "error message"),
        ("f95zone/conversation_list_row.html", "not a XenForo page"),
    ],
)
def test_a_page_without_posts_is_layout_changed(name: str, what: str) -> None:
    with pytest.raises(LayoutChanged) as caught:
        parse_thread_page(load(name), "http://b/threads/1/", tz=UTC, now=datetime.now(UTC))
    assert what in caught.value.what


def test_posts_that_lost_their_markup_are_layout_changed() -> None:
    html = load(XF2["source"])
    for broken, what in [
        (
            re.sub(
                r'data-author="dieketzer"(.*?)<h4 class="message-name">.*?</h4>',
                r"\1",
                html,
                count=1,
                flags=re.S,
            ),
            "no author",
        ),
        (re.sub(r'<time[^>]*data-time="1290336718".*?</time>', "", html, count=2), "no time"),
        (
            re.sub(r'<div class="bbWrapper">it would.*?</div>', "", html, count=1, flags=re.S),
            "body",
        ),
    ]:
        with pytest.raises(LayoutChanged) as caught:
            parse_thread_page(broken, XF2["url"], tz=None, now=datetime.now(UTC))
        assert what in caught.value.what
    # A renamed class is no loss: XenForo's own marks read the post (issue 26).
    served = parse_thread_page(html, XF2["url"], tz=None, now=datetime.now(UTC)).posts
    for restyled in [
        html.replace('data-time="1290336718"', "", 2),  # <time datetime> still says it
        html.replace('<div class="bbWrapper">it would', '<div class="x">it would', 1),
    ]:
        read = parse_thread_page(restyled, XF2["url"], tz=None, now=datetime.now(UTC)).posts
        assert [(p.id, p.author, p.posted_at, p.body) for p in read] == [
            (p.id, p.author, p.posted_at, p.body) for p in served
        ]


def test_xf1_recent_times_carry_data_time_and_win_over_the_zone() -> None:
    # XF1 shows times of the last week as `abbr.DateTime[data-time]` (derived: the first
    # post's date string replaced by that form, as XF1 renders "Today at …").
    html = load(XF1["source"]).replace(
        '<span class="DateTime" title="Oct 30, 2014 at 10:48 PM">Oct 30, 2014</span>',
        '<abbr class="DateTime" data-time="1499094000" data-diff="19436" '
        'data-datestring="Jul 3, 2017" data-timestring="10:00 AM">Today at 10:00 AM</abbr>',
        1,
    )
    view = parse_thread_page(html, XF1["url"], tz=CHICAGO, now=datetime(2017, 7, 3, 20, tzinfo=UTC))
    assert view.posts[0].posted_at == datetime(2017, 7, 3, 15, 0, tzinfo=UTC)
    assert view.posts[1].posted_at == datetime.fromisoformat(XF1["posts"][1]["posted_at"])


def test_a_deleted_post_a_moderator_sees_is_flagged_with_no_body() -> None:
    # Derived: the real first post marked as XF2 shows a soft-deleted post to moderators.
    html = load(XF2["source"]).replace(
        'class="message message--post js-post js-inlineModContainer  "',
        'class="message message--post message--deleted js-post js-inlineModContainer  "',
        1,
    )
    html = re.sub(r'<div class="bbWrapper">it would.*?</div>', "", html, count=1, flags=re.S)
    view = parse_thread_page(html, XF2["url"], tz=None, now=datetime.now(UTC))
    first = view.posts[0]
    assert first.deleted and first.body.full_text() == "" and first.id == "114210"
    assert not any(p.deleted for p in view.posts[1:])


def test_xf2_last_edited_notices_by_the_author_and_by_a_moderator() -> None:
    # Derived: XenForo 2 prints "Last edited:" (the author's own edit) or "Last edited by a
    # moderator:" with a <time data-time> after the body; added to two real posts here.
    def notice(label: str, stamp: int) -> str:
        return (
            f'<div class="message-lastEdit">{label} <time class="u-dt" dir="auto" '
            f'datetime="x" data-time="{stamp}" data-date-string="Nov 21, 2010" '
            f'data-time-string="3:00 PM" title="Nov 21, 2010 at 3:00 PM">Nov 21, 2010</time></div>'
        )

    html = load(XF2["source"])
    for body_end, label, stamp in [
        ("youve obviously never tried.</div>", "Last edited:", 1290351600),
        ("I think the theme should stay just as it", "Last edited by a moderator:", 1290352000),
    ]:
        at = html.index(body_end)
        at = html.index("</article>", at) + len("</article>")
        html = html[:at] + notice(label, stamp) + html[at:]
    view = parse_thread_page(html, XF2["url"], tz=None, now=datetime.now(UTC))
    edits = {p.id: p.edit for p in view.posts if p.edit is not None}
    assert set(edits) == {"114249", "114243"}
    own, moderated = edits["114249"], edits["114243"]
    assert (own.by, own.at) == ("dieketzer", datetime.fromtimestamp(1290351600, UTC))
    assert (moderated.by, moderated.at) == (None, datetime.fromtimestamp(1290352000, UTC))
    assert "Last edited" not in " ".join(p.body.full_text() for p in view.posts)
