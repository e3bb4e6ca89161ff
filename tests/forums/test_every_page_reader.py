"""What a player can write into a post cannot change how any engine reads its thread page.

Checked alike on the saved thread page of every engine read by pages (phpBB, MyBB, XenForo,
SMF, FluxBB, PunBB 1.4, vBulletin 3, 4 and 5) and on Discourse's `cooked` HTML: the first
post of a real page gets what a hostile player can make the board print, and the page must
read as before, every other post untouched.

- Deep nesting (quotes in quotes, unclosed tags): read in linear time, the words at the
  bottom read as written (forums.html bounds what the parser walks; an engine that parsed
  its posts some other way would fail here with a RecursionError or never return).
- A huge post (about 600 KB of markup) is read whole.
- A post crafted to look like a login, error or flood page: the words of the engine's own
  such pages (the player copies them), and links to its login and posting pages. A board
  prints a post's text escaped, so the words and the links are all a player can place; the
  page must still be a thread page, not "session expired" (which would log the GM in
  again and again) or "flood control" (which would hold the results back).
"""

from __future__ import annotations

import html as htmllib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from selectolax.lexbor import LexborHTMLParser

from forums.discourse.body import cooked_body
from forums.fluxbb import pages as fluxbb
from forums.fluxbb.selectors import DEFAULT as FLUXBB
from forums.mybb.forms import classify as mybb_classify
from forums.mybb.forms import logged_in_user as mybb_user
from forums.mybb.thread import parse_thread_page as mybb_thread
from forums.pages import PageKind
from forums.phpbb.forms import classify as phpbb_classify
from forums.phpbb.forms import logged_in_as as phpbb_logged_in_as
from forums.phpbb.topic import parse_topic_page as phpbb_topic
from forums.punbb import pages as punbb
from forums.punbb.selectors import DEFAULT as PUNBB
from forums.punfamily import is_guest, logged_in_as, tree_of
from forums.records import Post, PostBody
from forums.smf import pages as smf
from forums.vbulletin import pages as vb_pages
from forums.vbulletin import vb5
from forums.vbulletin.pages import classify as vb_classify
from forums.vbulletin.thread import parse_thread_page as vb_thread
from forums.xenforo import PageKind as XfPageKind
from forums.xenforo import classify as xf_classify
from forums.xenforo import parse_thread_page as xf_thread
from forums.xenforo.pages import visitor as xf_visitor

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
NOW = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
N = 20_000


@dataclass(frozen=True)
class Engine:
    """One engine's saved thread page and its readers.

    `body` is a pattern of the first post's body as the page opens it; what a player wrote
    goes right after it. `pages` are the engine's own saved login, error and flood pages,
    whose words a player copies into the post. `reader` is whom the page was served to, as
    the adapter tells a member's page from a guest's (a lost session)."""

    page: str
    url: str
    body: str
    posts: Callable[[str, str], Sequence[Post]]
    kind: Callable[[str, str], Any]
    thread: Any
    pages: tuple[str, ...]
    reader: Callable[[str], object]

    def html(self) -> str:
        raw = (FIXTURES / self.page).read_bytes()
        try:
            return raw.decode("utf-8-sig")
        except UnicodeDecodeError:  # vBulletin 3 serves ISO-8859-1
            return raw.decode("latin-1")

    def with_post(self, written: str) -> str:
        """The saved page with `written` at the start of its first post's body."""
        page = self.html()
        found = re.search(self.body, page)
        assert found, self.page
        return page[: found.end()] + written + page[found.end() :]


def _pun(html: str, selectors: Any) -> object:
    tree = tree_of(html)
    return is_guest(tree, selectors), logged_in_as(tree, selectors)


def _vb_reader(html: str) -> object:
    return vb_pages.logged_in_user(html), vb_pages.security_token(html)


def _vb(html: str, url: str) -> Sequence[Post]:
    return vb_thread(html, url, now=NOW).posts


VB_PAGES = tuple(
    f"vbulletin/templated/{name}.html"
    for name in (
        "flood_reply",
        "invalid_thread",
        "login_failed",
        "login_redirect",
        "login_strikes",
        "not_logged_in",
        "pm_flood",
        "post_redirect",
        "token_invalid",
    )
)

ENGINES = {
    "phpbb": Engine(
        "phpbb/3.3.10/en/viewtopic_p1.html",
        "http://127.0.0.1:8081/viewtopic.php?t=2",
        r'<div class="content">',
        lambda h, u: phpbb_topic(h, u, tz=UTC, now=NOW).posts,
        phpbb_classify,
        PageKind.TOPIC,
        (
            "phpbb/3.3.10/en/login_page.html",
            "phpbb/3.3.10/en/login_failed_wrong_password.html",
            "phpbb/3.3.10/en/pm_inbox_not_logged_in.html",
            "phpbb/3.3.10/en/pm_inbox_session_expired.html",
            "phpbb/3.3.10/en/posting_flood_error.html",
            "phpbb/3.3.10/en/posting_form_token_invalid.html",
        ),
        phpbb_logged_in_as,
    ),
    "mybb": Engine(
        "mybb/1.8.37/showthread_p1.html",
        "http://127.0.0.1:8082/showthread.php?tid=2",
        r'<div class="post_body[^"]*" id="pid_\d+">',
        lambda h, u: mybb_thread(h, u, tz=UTC, now=NOW).posts,
        mybb_classify,
        PageKind.TOPIC,
        (
            "mybb/1.8.37/login_page.html",
            "mybb/1.8.37/login_failed_wrong_password.html",
            "mybb/1.8.37/newreply_not_logged_in.html",
            "mybb/1.8.37/newreply_flood_error.html",
            "mybb/1.8.37/newreply_bad_post_key.html",
            "mybb/1.8.37/private_session_expired.html",
        ),
        mybb_user,
    ),
    "xenforo": Engine(
        "xenforo/xenforo.com/thread_view.html",
        "https://xenforo.com/community/threads/1/",
        r'<div class="bbWrapper">',
        lambda h, u: xf_thread(h, u, tz=None, now=NOW).posts,
        lambda h, u: xf_classify(h),
        XfPageKind.THREAD,
        tuple(
            f"xenforo/synthetic/synthetic-{name}.html"
            for name in ("error", "login", "login-failed", "two-step")
        ),
        lambda h: xf_visitor(h),
    ),
    "smf": Engine(
        "smf/2.1.4/topic_p1_en.html",
        "http://127.0.0.1:8080/index.php?topic=2.0",
        r'<div class="inner" data-msgid="\d+" id="msg_\d+">',
        lambda h, u: smf.parse_topic_page(h, u, tz=UTC, now=NOW).posts,
        smf.classify,
        PageKind.TOPIC,
        (
            "smf/2.1.4/login_form_en.html",
            "smf/2.1.4/login_failed_en.html",
            "smf/2.1.4/login_failed_ru.html",
            "smf/2.1.4/pm_guest_en.html",
            "smf/2.1.4/pm_per_hour_en.html",
            "smf/2.1.4/post_stale_en.html",
            "smf/2.1.4/topic_missing_en.html",
        ),
        lambda h: (smf.is_guest(h), smf.logged_in_user(h)),
    ),
    "fluxbb": Engine(
        "fluxbb/1.5.11/topic_p1_en.html",
        "http://127.0.0.1:8080/viewtopic.php?id=2",
        r'<div class="postmsg">',
        lambda h, u: fluxbb.parse_topic_page(h, u, tz=UTC, now=NOW).posts,
        fluxbb.classify,
        PageKind.TOPIC,
        tuple(
            f"fluxbb/1.5.11/{name}"
            for name in (
                "login_form_en.html",
                "login_failed_en.html",
                "login_failed_ru.html",
                "flood_en.html",
                "flood_ru.html",
                "bad_request_en.html",
                "bad_request_ru.html",
                "bad_referrer_en.html",
                "posted_redirect_en.html",
            )
        ),
        lambda h: _pun(h, FLUXBB),
    ),
    "punbb": Engine(
        "punbb/1.4.4/topic_p1_member.html",
        "http://127.0.0.1:8080/viewtopic.php?id=2",
        r'<div class="entry-content">',
        lambda h, u: punbb.parse_topic_page(h, u, tz=UTC, now=NOW).posts,
        punbb.classify,
        PageKind.TOPIC,
        tuple(
            f"punbb/1.4.4/{name}"
            for name in (
                "login_form.html",
                "login_failed.html",
                "flood.html",
                "flood_ru.html",
                "message.html",
                "posted_redirect.html",
            )
        ),
        lambda h: _pun(h, PUNBB),
    ),
    "vbulletin3": Engine(
        "vbulletin/real/vb3_animesuki_showthread_p152.html",
        "https://forums.animesuki.com/showthread.php?t=1&page=152",
        r'id="post_message_\d+"[^>]*>',
        _vb,
        vb_classify,
        PageKind.TOPIC,
        VB_PAGES,
        _vb_reader,
    ),
    "vbulletin4": Engine(
        "vbulletin/real/vb4_militarytimes_showthread_p1.html",
        "https://forums.militarytimes.com/showthread.php?t=1",
        r'<blockquote class="postcontent restore[^"]*">',  # the body inside div#post_message_N
        _vb,
        vb_classify,
        PageKind.TOPIC,
        VB_PAGES,
        _vb_reader,
    ),
    "vbulletin5": Engine(
        "vbulletin/real-vb5/vb5_fandompost_showthread_p1.html",
        "https://www.fandompost.com/forum/node/1",
        r'<div class="js-post__content-text[^"]*"[^>]*>',
        _vb,
        lambda h, u: vb5.classify(h),
        PageKind.TOPIC,
        (
            "vbulletin/templated5/login_form_badlogin.html",
            "vbulletin/templated5/login_redirect.html",
        ),
        _vb_reader,
    ),
}


SCRIPTS = (
    "var smf_member_id = 0;",
    'var SECURITYTOKEN = "guest"; var LOGGEDIN = 0 > 0;',
    '"userid":"0","username":"Guest"',
    'data-logged-in="false" data-csrf="x"',
    "You are not logged in. Welcome, Guest. Please login or register.",
    "Вы не вошли. Здравствуйте, гость! Войдите или зарегистрируйтесь.",
)
"""What the engines' own scripts and headers say of a guest, typed into a post: the page
must still be the GM's (a post that made it a guest's would log him in at every read)."""


def _words(path: str) -> str:
    """The visible words of a saved page, as a player would copy them into a post."""
    tree = LexborHTMLParser((FIXTURES / path).read_bytes().decode("utf-8", "replace"))
    body = tree.body
    text = " ".join((body.text(separator=" ") if body else "").split())
    return text[:4000]


def _links(url: str) -> str:
    """Links a player can post ([url]), to the pages an engine reads as login or errors."""
    base = url.split("?")[0].rsplit("/", 1)[0] + "/"
    targets = (
        "ucp.php?mode=login",
        "member.php?action=login",
        "login/login",
        "index.php?action=login2",
        "login.php?action=in",
        "login.php?do=login",
        "auth/login",
        "post.php?tid=2",
        "newreply.php?do=postreply&t=1",
        "private.php",
    )
    links = "".join(f'<a href="{base}{t}" class="postlink">{t}</a><br>' for t in targets)
    # What a member's header shows, as a player can make it with [url] and [b].
    header = (
        f'<a href="{base}login.php?do=logout&amp;logouthash=1">Log out</a> '
        f'<strong>Welcome, <a href="{base}member.php?u=1">Admin</a>.</strong> '
        f'<b>Logged in as <a href="{base}profile.php?id=1">Admin</a></b>'
    )
    return links + header


def _votes(body: PostBody) -> tuple[bool, bool]:
    """Whether the struck vote is read struck and only struck, and the standing one standing
    and only standing."""
    struck = "".join(r.text for r in body.runs if r.struck)
    rest = "".join(r.text for r in body.runs if not r.struck)
    return (
        "vote Bob" in struck and "vote Bob" not in rest,
        "vote Ann" in rest and "vote Ann" not in struck,
    )


def _texts(posts: Sequence[Post]) -> str:
    return " ".join("".join(r.text for r in p.body.runs) for p in posts)


SHAPES = {
    "quotes": ("<blockquote><div>", "</div></blockquote>"),
    "divs": ("<div>", "</div>"),
    "formatting": ("<b><i><u><span style='color:red'>", "</span></u></i></b>"),
    "lists": ("<ul><li>", "</li></ul>"),
}
"""Nesting as a board prints it: its BBCode closes every tag it opens, however deep."""


@pytest.mark.parametrize("engine", ENGINES.values(), ids=ENGINES.keys())
@pytest.mark.parametrize("shape", SHAPES.values(), ids=SHAPES.keys())
def test_a_deeply_nested_post_reads_as_written_and_the_others_are_untouched(
    engine: Engine, shape: tuple[str, str]
) -> None:
    opens, closes = shape
    plain = engine.posts(engine.html(), engine.url)
    written = opens * N + "<s>vote Bob</s> vote Ann" + closes * N
    hostile = engine.posts(engine.with_post(written), engine.url)
    assert [p.id for p in hostile] == [p.id for p in plain]
    assert _votes(hostile[0].body) == (True, True)
    assert hostile[1:] == plain[1:]


@pytest.mark.parametrize("engine", ENGINES.values(), ids=ENGINES.keys())
def test_a_huge_post_is_read_whole(engine: Engine) -> None:
    plain = engine.posts(engine.html(), engine.url)
    huge = "<b>vote Вася</b> ?. [quote=" * 25_000 + "vote Ann"
    hostile = engine.posts(engine.with_post(huge), engine.url)
    assert [p.id for p in hostile] == [p.id for p in plain]
    assert _texts(hostile[:1]).count("vote Вася") == 25_000
    assert hostile[1:] == plain[1:]


@pytest.mark.parametrize("engine", ENGINES.values(), ids=ENGINES.keys())
def test_a_post_that_looks_like_a_login_or_error_page_leaves_the_page_a_thread(
    engine: Engine,
) -> None:
    copied = [_words(p) for p in engine.pages]
    written = "<br>".join(htmllib.escape(w) for w in [*copied, *SCRIPTS]) + _links(engine.url)
    page = engine.with_post(written)
    assert engine.kind(page, engine.url) is engine.thread
    assert engine.reader(page) == engine.reader(engine.html())  # the GM's session goes on
    plain = engine.posts(engine.html(), engine.url)
    hostile = engine.posts(page, engine.url)
    assert [p.id for p in hostile] == [p.id for p in plain]
    assert hostile[1:] == plain[1:]
    for words in copied:
        assert words.split()[0] in _texts(hostile[:1])


NOTICES = (
    "Last edited by Ведущий; Today at 10:00 AM.",
    "Last edited by Ведущий; 12-01-2026 at 10:00 PM. Reason: votes",
    "Последний раз редактировалось Ведущий; Сегодня в 10:00.",
    "Last edited by Ведущий (Today 10:00:00)",
    "Изменено Ведущий (Сегодня 10:00:00)",
    "(edited by Ведущий Today 10:00:00)",
    "Last edited by Ведущий on Tue Dec 01, 2026 10:00 pm, edited 3 times in total.",
    "Last edited: Dec 1, 2026",
    "« Last Edit: December 01, 2026, 10:00:00 PM by Ведущий »",
    "This message has been deleted by Ведущий. Reason: spam",
    "Ведущий wrote: Originally Posted by Ведущий Quote from: Ведущий on Today at 10:00",
    "Posted by Ведущий — Today, 10:00 PM #1",
)
"""What a player can type to pass for an edit, a deletion or another author, in the
words of each engine's own notices, English and Russian."""


@pytest.mark.parametrize("engine", ENGINES.values(), ids=ENGINES.keys())
def test_a_post_typing_another_posts_notices_keeps_its_own_author_time_and_edit(
    engine: Engine,
) -> None:
    written = "<br>".join(htmllib.escape(n) for n in NOTICES)
    plain = engine.posts(engine.html(), engine.url)
    hostile = engine.posts(engine.with_post(written), engine.url)
    first, was = hostile[0], plain[0]
    assert (first.author, first.author_id, first.posted_at) == (
        was.author,
        was.author_id,
        was.posted_at,
    )
    assert (first.edit, first.deleted) == (was.edit, was.deleted)
    assert NOTICES[0] in _texts(hostile[:1])
    assert hostile[1:] == plain[1:]


def test_discourse_reads_deep_and_huge_cooked_html_as_written() -> None:
    """Discourse sends each post's HTML in JSON, so a post cannot make its topic look like
    another answer; what the cooked HTML nests is read as on a page."""
    for opens, closes in SHAPES.values():
        body: PostBody = cooked_body(opens * N + "<s>vote Bob</s> vote Ann" + closes * N)
        assert _votes(body) == (True, True), opens
    huge = cooked_body("<p><strong>vote Вася</strong> ?. [quote=</p>" * 25_000)
    assert "".join(r.text for r in huge.runs).count("vote Вася") == 25_000


GUEST_PAGES = {
    "phpbb": "phpbb/3.3.10/en/viewtopic_p1_guest.html",
    "mybb": "mybb/1.8.37/showthread_p1_guest.html",
    "xenforo": "xenforo/xenforo.com/thread_view.html",
    "smf": "smf/2.1.4/topic_guest_en.html",
    "fluxbb": "fluxbb/1.5.11/topic_guest_en.html",
    "punbb": "punbb/1.4.4/topic_p1_guest.html",
    "vbulletin4": "vbulletin/real/vb4_militarytimes_showthread_p1.html",
    "vbulletin5": "vbulletin/real-vb5/vb5_fandompost_showthread_p1.html",
}
"""Each engine's saved thread page as served to a guest (vB3's real page is a member's)."""
LOGOUTS = (
    "ucp.php?mode=logout&amp;sid=x",
    "member.php?action=logout&amp;logoutkey=x",
    "logout/?t=x",
    "index.php?action=logout;x",
    "login.php?action=out&amp;id=1&amp;csrf_token=x",
    "login.php?do=logout&amp;logouthash=x",
)


@pytest.mark.parametrize("name", GUEST_PAGES)
def test_a_guests_page_stays_a_guests_whatever_header_a_post_imitates(name: str) -> None:
    """A post with every engine's log-out link and a bold welcome naming a member: on a
    page served to a guest, the adapter must still see a guest (else a lost session, or a
    login that did not take, would pass for the GM's)."""
    engine = ENGINES[name]
    guest = replace(engine, page=GUEST_PAGES[name])
    base = engine.url.split("?")[0].rsplit("/", 1)[0] + "/"
    logouts = "".join(f'<a href="{base}{path}">Log out</a> ' for path in LOGOUTS)
    page = guest.with_post(logouts + _links(engine.url))
    assert engine.reader(page) == engine.reader(guest.html())
    assert [p.id for p in engine.posts(page, engine.url)] == [
        p.id for p in engine.posts(guest.html(), engine.url)
    ]
