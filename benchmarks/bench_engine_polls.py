"""Requests a poll of a long thread costs, engine by engine (issue 28: "polls cost what is
new, not the whole thread").

Each engine's adapter reads a long thread on a fake board that serves it as that engine
does, its pages made from the engine's saved page: phpBB's synthetic topic (`phpbb_server`),
Discourse's JSON API (`tests.discourse_board`, the topic envelope and post objects of real
answers), vBulletin 5's thread page (`tests.forums.vbulletin.helpers_vb5`: the real 5.5.2
page, its posts made from one real post, its page buttons renumbered), XenForo's pages as
its tests derive them from the real thread 8276 and its REST API (post objects of the
official schema's fields), and SMF 2.1, FluxBB 1.5, PunBB 1.4,
vBulletin 3.8 and MyBB 1.8 through the fakes of their adapter tests (a topic page is the saved one with each
post one saved post under another id and number, and its page links made anew,
`SavedThread`). After the login (not counted), four steps are counted in requests: the
first read of the whole thread, an idle poll from its cursor, a poll after 3 new posts on
the last page, and a poll after a new page has begun. Each engine is measured on a 10-page and on a 50-page thread: a poll
that costs what is new costs the same on both. (PunBB's saved page holds 4 posts: its 3
new posts begin a new page.)
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from functools import cache
from typing import Any
from urllib.parse import parse_qsl
from zoneinfo import ZoneInfo

import httpx
from bench_common import Row
from phpbb_server import BASE as PHPBB_BASE
from phpbb_server import GM as PHPBB_GM
from phpbb_server import SyntheticPhpbb

from forums import Board
from forums.discourse.board import DiscourseBoard
from forums.local import ManualClock
from forums.phpbb import PhpbbBoard
from forums.smf import pages as smf_pages
from forums.xenforo import XenforoBoard, xenforo_board
from tests.adapter_helpers import FakeTime
from tests.discourse_board import BASE as DISCOURSE_BASE
from tests.discourse_board import GM as DISCOURSE_GM
from tests.discourse_board import KEY, FakeDiscourse
from tests.forums.fluxbb import test_fluxbb_board as fluxbb
from tests.forums.fluxbb.helpers_fluxbb import SEEN_EN
from tests.forums.mybb import helpers_mybb as mybb
from tests.forums.punbb import test_punbb_board as punbb
from tests.forums.punbb import test_punbb_pages as punbb_pages
from tests.forums.smf import test_smf_board as smf
from tests.forums.vbulletin import helpers_vb as vb_helpers
from tests.forums.vbulletin import helpers_vb5 as vb5
from tests.forums.vbulletin import test_vb_board as vb
from tests.forums.xenforo import xf_helpers as xf

STEPS = ("first", "idle", "three_new", "new_page")
LENGTHS = (10, 50)
"""The thread's length in pages."""
POLL_LIMIT = 3
"""The most requests an idle poll or a poll of 3 new posts may cost, beyond the login."""
PLAYERS = ("Alu", "Бармалей", "Shirohige", "Quartz")
T0 = datetime(2026, 11, 20, 6, 0, tzinfo=UTC)


def _posts(pages: int, per_page: int) -> int:
    """A thread of `pages` pages whose last is half full: 3 new posts stay on it."""
    return (pages - 1) * per_page + per_page // 2


@dataclass
class Rig:
    """One engine's board on its fake, the requests the fake was sent, and how a player
    adds posts at the thread's end."""

    board: Board
    thread: str
    per_page: int
    sent: list[httpx.Request]
    add: Callable[[int], None]


# -- phpBB ----------------------------------------------------------------------------


class _Sleep:
    def __init__(self, clock: ManualClock) -> None:
        self.clock = clock

    async def __call__(self, seconds: float) -> None:
        self.clock.advance(seconds=max(seconds, 0))


def phpbb(pages: int) -> Rig:
    server = SyntheticPhpbb(_posts(pages, 10), T0)
    clock = ManualClock(T0 + timedelta(days=1))
    board = PhpbbBoard(
        PHPBB_BASE,
        PHPBB_GM,
        "bench-password",
        client=server.client(),
        tz=ZoneInfo("Europe/Moscow"),
        clock=clock,
        sleep=_Sleep(clock),
        allow_insecure_http=True,
    )
    return Rig(board, "2", server.per_page, server.requests, server.add)


# -- Discourse --------------------------------------------------------------------------


def discourse(pages: int) -> Rig:
    fake = FakeDiscourse()
    for name in PLAYERS:
        fake.add_user(name)
    topic = 4100
    fake.add_topic(topic, "Mafia: a long day", [])

    def add(count: int) -> None:
        for _ in range(count):
            number = len(fake.topics[topic].posts) + 1
            fake.now += timedelta(minutes=1)
            fake.post(topic, PLAYERS[number % len(PLAYERS)], f"Post {number}: vote Quartz")

    add(_posts(pages, fake.chunk_size))
    clock = FakeTime(datetime(2026, 2, 1, tzinfo=UTC))
    board = DiscourseBoard(
        DISCOURSE_BASE,
        DISCOURSE_GM,
        "",
        api_key=KEY,
        client=fake.client(),
        clock=clock,
        sleep=clock.sleep,
        min_delay=0,
    )
    return Rig(board, str(topic), fake.chunk_size, fake.requests, add)


# -- vBulletin 5 --------------------------------------------------------------------------


@cache
def _vb5_post() -> str:
    """One post of the saved page, its id, author, time, number and text as placeholders."""
    return vb5.made_post("990000001", "Authorzz", "990000002", 990000003, 990000004, "TEXTZZ")


def _vb5_block(node: int, author: str, stamp: int, number: int) -> str:
    return (
        _vb5_post()
        .replace("990000001", str(node))
        .replace("990000002", str(300 + PLAYERS.index(author)))
        .replace("990000003", str(stamp))
        .replace(">#990000004<", f">#{number}<")
        .replace("authorzz", author.lower())
        .replace("Authorzz", author)
        .replace("TEXTZZ", f"Post {number}: vote Quartz")
    )


class LongVb5(vb5.Vb5Fake):
    """The fake vBulletin 5 board with a thread of any length: page `n` is the saved page
    with that page's posts, its page buttons saying page n of however many there are."""

    per_page = 15  # the saved page's

    def __init__(self, posts: int) -> None:
        super().__init__()
        self.posts: list[tuple[int, str, int]] = []
        self.more(posts)

    def more(self, count: int) -> None:
        for _ in range(count):
            n = len(self.posts)
            self.posts.append((800000 + n, PLAYERS[n % len(PLAYERS)], 1554900000 + 60 * n))

    def pages(self) -> int:
        return max(1, -(-len(self.posts) // self.per_page))

    def thread(self, number: int) -> str:
        text = vb5.page(vb5.VB5)
        if self.logged_in:
            text = vb5.as_member(text, self.token)
        head, _, tail = vb5._blocks(text)
        first = (number - 1) * self.per_page
        blocks = [
            _vb5_block(node, author, stamp, first + i + 1)
            for i, (node, author, stamp) in enumerate(self.posts[first : first + self.per_page])
        ]
        chrome = [
            part.replace(
                'js-pagenav-current-button js-pagenav-first-button" data-page="1"',
                f'js-pagenav-current-button js-pagenav-first-button" data-page="{number}"',
            ).replace(
                'js-pagenav-last-button" data-page="2"',
                f'js-pagenav-last-button" data-page="{self.pages()}"',
            )
            for part in (head, tail)
        ]
        return chrome[0] + "\n".join(blocks) + chrome[1]

    def __call__(self, request: httpx.Request) -> httpx.Response | None:
        path = request.url.path
        if request.method == "GET" and path.startswith(f"/node/{vb5.THREAD}"):
            rest = path.removeprefix(f"/node/{vb5.THREAD}")
            target = vb5.BOARD.rstrip("/") + vb5.CANONICAL + rest
            return httpx.Response(301, headers={"Location": target})
        if request.method == "GET" and path.startswith(vb5.CANONICAL):
            rest = path.removeprefix(vb5.CANONICAL).strip("/")
            number = int(rest.removeprefix("page")) if rest.startswith("page") else 1
            return vb5.html(self.thread(min(number, self.pages())))
        return super().__call__(request)


def vbulletin5(pages: int) -> Rig:
    fake = LongVb5(_posts(pages, LongVb5.per_page))
    board, _, sent, _ = vb5.vb5_board(fake)
    return Rig(board, vb5.THREAD, fake.per_page, sent, fake.more)


# -- pages made from a saved page -------------------------------------------------------


@dataclass(frozen=True)
class SavedThread:
    """A saved thread page cut around its posts: what comes before the first post, one
    post from the middle (`block`, whose id is `block_id`) and what follows the last."""

    head: str
    block: str
    block_id: str
    tail: str

    @classmethod
    def cut(cls, text: str, post_start: str, after_last: str) -> SavedThread:
        """`post_start`: a pattern where each post begins, its group 1 the post's id;
        `after_last`: the text that follows the last post."""
        starts = list(re.finditer(post_start, text))
        end = text.index(after_last, starts[-1].start())
        return cls(
            head=text[: starts[0].start()],
            block=text[starts[1].start() : starts[2].start()],
            block_id=starts[1].group(1),
            tail=text[end:],
        )


# -- SMF ---------------------------------------------------------------------------------


class LongSmf(smf.FakeSmf):
    """The fake SMF 2.1 board with a topic of any length: a page is the saved first page
    with that page's posts (each the saved post 3 with another id) and its page links."""

    per_page = 15  # the saved page's

    def __init__(self, posts: int) -> None:
        super().__init__()
        self.count = posts
        self.saved = SavedThread.cut(
            smf.page("topic_p1_en.html"), r'<div class="windowbg" id="msg(\d+)">', "\t\t\t</form>"
        )

    def more(self, count: int) -> None:
        self.count += count

    def pages(self) -> int:
        return max(1, -(-self.count // self.per_page))

    def _links(self, number: int) -> str:
        shown = sorted({1, 2, number - 1, number + 1, self.pages()} - {number})
        links = [
            f'<a class="nav_page" href="{smf.BASE}index.php?topic={smf.TOPIC}.'
            f'{(n - 1) * self.per_page}">{n}</a>'
            for n in shown
            if 1 <= n <= self.pages()
        ]
        return f'<span class="current_page">{number}</span> ' + " ".join(links)

    def thread(self, number: int) -> str:
        first = (number - 1) * self.per_page
        old = self.saved.block_id
        blocks = [
            re.sub(rf"(msg_?|msg=|data-msgid=\"){old}\b", rf"\g<1>{1000 + n}", self.saved.block)
            for n in range(first, min(first + self.per_page, self.count))
        ]
        head, tail = (
            re.sub(r'<span class="current_page">\d+</span>[^\n]*', self._links(number), part)
            for part in (self.saved.head, self.saved.tail)
        )
        return head + "".join(blocks) + tail

    def answer(self, request: httpx.Request) -> httpx.Response:
        query = smf_pages.params(str(request.url))
        me = self.logged_in and "SMFCookie11" in request.headers.get("cookie", "")
        topic, _, start = query.get("topic", "").partition(".")
        if me and topic == smf.TOPIC and "action" not in query and start.isdigit():
            self.requests.append(request)
            number = min(int(start) // self.per_page + 1, self.pages())
            return httpx.Response(200, text=self.thread(number))
        return super().answer(request)


def smf_board(pages: int) -> Rig:
    fake = LongSmf(_posts(pages, LongSmf.per_page))
    return Rig(smf.board(fake), smf.TOPIC, fake.per_page, fake.requests, fake.more)


# -- FluxBB -----------------------------------------------------------------------------


class LongFluxbb(fluxbb.FakeFluxbb):
    """The fake FluxBB 1.5 board with a topic of any length: a page is the saved first page
    with that page's posts (each the saved post 3 with another id and number) and its page
    links."""

    per_page = 25  # the saved page's

    def __init__(self, posts: int) -> None:
        super().__init__()
        self.count = posts
        self.saved = SavedThread.cut(
            fluxbb.page("topic_p1_en.html"),
            r'<div id="p(\d+)" class="blockpost',
            '<div class="postlinksb">',
        )

    def more(self, count: int) -> None:
        self.count += count

    def pages(self) -> int:
        return max(1, -(-self.count // self.per_page))

    def _links(self, number: int) -> str:
        shown = sorted({1, number - 1, number, number + 1, self.pages()})
        items = [
            f'<strong class="item1">{n}</strong>'
            if n == number
            else f'<a href="viewtopic.php?id=2&amp;p={n}">{n}</a>'
            for n in shown
            if 1 <= n <= self.pages()
        ]
        return '<span class="pages-label">Pages: </span>' + " ".join(items) + "</p>"

    def thread(self, number: int) -> str:
        first = (number - 1) * self.per_page
        old = self.saved.block_id
        blocks = [
            re.sub(rf'(id="p|pid=|#p){old}\b', rf"\g<1>{1000 + n}", self.saved.block).replace(
                '<span class="conr">#2</span>', f'<span class="conr">#{n + 1}</span>'
            )
            for n in range(first, min(first + self.per_page, self.count))
        ]
        head, tail = (
            re.sub(r'<span class="pages-label">.*?</p>', self._links(number), part)
            for part in (self.saved.head, self.saved.tail)
        )
        return (head + "".join(blocks) + tail).replace("http://127.0.0.1:8080/", fluxbb.BASE)

    def answer(self, request: httpx.Request) -> httpx.Response:
        query = dict(parse_qsl(request.url.query.decode()))
        me = fluxbb.COOKIE in request.headers.get("cookie", "") and self.logged_in
        if me and request.url.path == "/viewtopic.php" and query.get("id") == "2":
            self.requests.append(request)
            number = min(int(query.get("p", "1")), self.pages())
            headers = {"Date": format_datetime(SEEN_EN.astimezone(UTC), usegmt=True)}
            return httpx.Response(200, text=self.thread(number), headers=headers)
        return super().answer(request)


def fluxbb_board(pages: int) -> Rig:
    fake = LongFluxbb(_posts(pages, LongFluxbb.per_page))
    board, _ = fluxbb.board(fake)
    return Rig(board, "2", fake.per_page, fake.requests, fake.more)


# -- vBulletin 3 and 4 ------------------------------------------------------------------


class LongVb3(vb.Board):
    """The fake vBulletin 3.8 board with a thread of any length: a page is the saved page
    152 with that page's posts (each the saved post 5768676 with another id and number)
    and its "Page k of n"."""

    per_page = 20  # the saved page's

    def __init__(self, posts: int) -> None:
        super().__init__()
        self.count = posts
        self.saved = SavedThread.cut(
            vb_helpers.page(vb_helpers.VB3), r"<!-- post #(\d+) -->", '<div id="lastpost">'
        )

    def more(self, count: int) -> None:
        self.count += count

    def pages(self) -> int:
        return max(1, -(-self.count // self.per_page))

    def page_text(self, number: int) -> str:
        first = (number - 1) * self.per_page
        old = self.saved.block_id
        blocks = [
            re.sub(
                r'(postcount=|name="|<strong>)3022\b', rf"\g<1>{n + 1}", self.saved.block
            ).replace(old, str(6000000 + n))
            for n in range(first, min(first + self.per_page, self.count))
        ]
        head, tail = (
            part.replace("Page 152 of 155", f"Page {number} of {self.pages()}")
            for part in (self.saved.head, self.saved.tail)
        )
        return head + "".join(blocks) + tail

    def __call__(self, request: httpx.Request) -> httpx.Response | None:
        if self.logged_in and request.method == "GET" and request.url.path == "/showthread.php":
            number = min(int(request.url.params.get("page", "1")), self.pages())
            return vb_helpers.html(self.page_text(number))
        return super().__call__(request)


def vbulletin(pages: int) -> Rig:
    fake = LongVb3(_posts(pages, LongVb3.per_page))
    board, _, sent = vb.board(fake)
    return Rig(board, "128882", fake.per_page, sent, fake.more)


# -- MyBB ---------------------------------------------------------------------------------


class LongMybb(mybb.FakeMybb):
    """The fake MyBB 1.8 board with a thread of any length: a page is the saved page 2 with
    that page's posts (each the saved post 12 with another id and number), "Pages (n)" and
    the current page."""

    per_page = 10  # the saved page's

    def __init__(self, posts: int) -> None:
        super().__init__()
        self.with_login()
        self.count = posts
        self.saved = SavedThread.cut(
            mybb.page("showthread_p2"),
            r'<div class="post [^"]*" style="" id="post_(\d+)">',
            "<!-- end: postbit -->",
        )

    def more(self, count: int) -> None:
        self.count += count

    def pages(self) -> int:
        return max(1, -(-self.count // self.per_page))

    def page_text(self, number: int) -> str:
        first = (number - 1) * self.per_page
        old = self.saved.block_id
        blocks = [
            re.sub(
                rf"(post_|pid=|#pid|edited_by_|pid_|post_meta_){old}\b",
                rf"\g<1>{1000 + n}",
                self.saved.block.replace(f">#{old}<", f">#{n + 1}<"),
            )
            for n in range(first, min(first + self.per_page, self.count))
        ]
        head, tail = (
            part.replace("Pages (7):", f"Pages ({self.pages()}):").replace(
                '<span class="pagination_current">2</span>',
                f'<span class="pagination_current">{number}</span>',
            )
            for part in (self.saved.head, self.saved.tail)
        )
        return head + "".join(blocks) + tail

    def _dispatch(self, request: httpx.Request) -> httpx.Response:
        query = request.url.params
        if request.url.path == "/showthread.php" and query.get("tid") == "1":
            self.requests.append(request)
            number = min(int(query.get("page", "1")), self.pages())
            return mybb.html(self.page_text(number))
        return super()._dispatch(request)


def mybb_board(pages: int) -> Rig:
    fake = LongMybb(_posts(pages, LongMybb.per_page))
    return Rig(mybb.mybb_board(fake), "1", fake.per_page, fake.requests, fake.more)


# -- XenForo -----------------------------------------------------------------------------


class LongXenforo(xf.FakeXenforo):
    """The fake XenForo 2 board with a thread of any length, its pages as its tests derive
    them from the real thread 8276 (`xf_helpers.render_page`): each post the real last post
    with another id and number; `/threads/8276/page-N` redirects to the slug's URL."""

    per_page = 20  # XenForo's stock page size

    def __init__(self, posts: int) -> None:
        super().__init__()
        self.with_login()
        self.count = posts

    def more(self, count: int) -> None:
        self.count += count

    def pages(self) -> int:
        return max(1, -(-self.count // self.per_page))

    def page_text(self, number: int) -> str:
        first = (number - 1) * self.per_page
        articles = [
            xf.ARTICLES[-1].replace("1358710", str(2000000 + n)).replace("#8", f"#{n + 1}")
            for n in range(first, min(first + self.per_page, self.count))
        ]
        return xf.render_page(articles, number, self.pages())

    def _dispatch(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        for prefix in ("/threads/8276/", f"/{xf.SLUG}"):
            rest = path.removeprefix(prefix)
            if request.method != "GET" or rest == path or rest not in ("", *self._suffixes()):
                continue
            self.requests.append(request)
            if prefix == "/threads/8276/":
                return xf.redirect(f"{xf.BASE}{xf.SLUG}{rest}", status=301)
            number = int(rest.removeprefix("page-")) if rest else 1
            return xf.html(self.page_text(min(number, self.pages())))
        return super()._dispatch(request)

    def _suffixes(self) -> list[str]:
        return [f"page-{n}" for n in range(2, self.pages() + 3)]


def xenforo(pages: int) -> Rig:
    fake = LongXenforo(_posts(pages, LongXenforo.per_page))
    clock = FakeTime()
    board = XenforoBoard(
        xf.BASE,
        xf.USER,
        xf.PASSWORD,
        client=fake.client(),
        clock=clock,
        sleep=clock.sleep,
        allow_insecure_http=True,
    )
    return Rig(board, "8276", fake.per_page, fake.requests, fake.more)


# -- PunBB 1.4 ----------------------------------------------------------------------------


class LongPunbb(punbb.FakePunbb):
    """The fake PunBB 1.4 board with a topic of any length: a page is the saved first page
    as the member sees it, with that page's posts (each the saved post 3 with another id
    and number), its paging line and its "Posts: a to b of n"."""

    per_page = 4  # the saved page's

    def __init__(self, posts: int) -> None:
        super().__init__()
        self.count = posts
        self.saved = SavedThread.cut(
            punbb_pages.page("topic_p1_member.html"),
            r'\t\t<div class="post [^"]*">\s*<div id="p(\d+)"',
            '\t</div>\n\n\t<div class="main-foot">',
        )

    def more(self, count: int) -> None:
        self.count += count

    def pages(self) -> int:
        return max(1, -(-self.count // self.per_page))

    def page_text(self, number: int) -> str:
        first = (number - 1) * self.per_page
        last = min(first + self.per_page, self.count)
        old = self.saved.block_id
        blocks = [
            re.sub(
                rf'(id="p|pid=|#p|report=|delete\.php\?id=|edit\.php\?id=|qid=){old}\b',
                rf"\g<1>{1000 + n}",
                self.saved.block.replace(
                    '<span class="post-num">2</span>', f'<span class="post-num">{n + 1}</span>'
                ),
            )
            for n in range(first, last)
        ]
        shown = sorted({1, number - 1, number, number + 1, self.pages()})
        items = [
            f'<strong class="first-item">{n}</strong>'
            if n == number
            else f'<a href="{punbb.BASE}viewtopic.php?id=2&amp;p={n}">{n}</a>'
            for n in shown
            if 1 <= n <= self.pages()
        ]
        paging = '<span class="pages">Pages</span> ' + " ".join(items) + "</p>"
        head, tail = (
            re.sub(
                r"Posts: \d+ to \d+ of \d+",
                f"Posts: {first + 1} to {last} of {self.count}",
                re.sub(r'<span class="pages">Pages</span>.*?</p>', paging, part),
            )
            for part in (self.saved.head, self.saved.tail)
        )
        return (head + "".join(blocks) + tail).replace("http://127.0.0.1:8090/", punbb.BASE)

    def answer(self, request: httpx.Request) -> httpx.Response:
        query = dict(parse_qsl(request.url.query.decode()))
        me = self.logged_in and punbb.COOKIE in request.headers.get("cookie", "")
        if me and request.url.path == "/viewtopic.php" and query.get("id") == "2":
            self.requests.append(request)
            number = min(int(query.get("p", "1")), self.pages())
            headers = {"Date": format_datetime(punbb_pages.seen(), usegmt=True)}
            return httpx.Response(200, text=self.page_text(number), headers=headers)
        return super().answer(request)


def punbb_board(pages: int) -> Rig:
    fake = LongPunbb(_posts(pages, LongPunbb.per_page))
    board, _ = punbb.board(fake)
    return Rig(board, "2", fake.per_page, fake.requests, fake.more)


# -- XenForo's REST API -------------------------------------------------------------------


class LongXenforoApi(xf.FakeXenforo):
    """XenForo's REST API with a thread of any length: `GET /api/threads/2/posts?page=N`
    answers that page's post objects and its pagination, with the fields of the official
    document's schema (as `tests/forums/xenforo/test_xf_api.py` builds them); `/api/me/`
    the GM."""

    per_page = 20  # XenForo's stock page size

    def __init__(self, posts: int) -> None:
        super().__init__()
        self.count = posts

    def more(self, count: int) -> None:
        self.count += count

    def pages(self) -> int:
        return max(1, -(-self.count // self.per_page))

    def _post(self, n: int) -> dict[str, Any]:
        user_id, name = (58, xf.USER) if n == 0 else (65 + n % 3, PLAYERS[n % len(PLAYERS)])
        return {
            "post_id": 3000 + n,
            "thread_id": 2,
            "user_id": user_id,
            "username": name,
            "post_date": 1796000000 + 60 * n,
            "message": f"Post {n + 1}: vote Quartz",
            "message_state": "visible",
            "position": n,
            "last_edit_date": 0,
            "is_first_post": n == 0,
            "view_url": f"{xf.BASE}threads/igra.2/post-{3000 + n}",
            "User": {"user_id": user_id, "username": name},
        }

    def _dispatch(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path == "/api/me/":
            self.requests.append(request)
            return xf.as_json({"me": {"user_id": 58, "username": xf.USER}})
        if path == "/api/threads/2/posts":
            self.requests.append(request)
            number = min(int(request.url.params.get("page", "1")), self.pages())
            first = (number - 1) * self.per_page
            posts = [self._post(n) for n in range(first, min(first + self.per_page, self.count))]
            pagination = {
                "current_page": number,
                "last_page": self.pages(),
                "per_page": self.per_page,
                "shown": len(posts),
                "total": self.count,
            }
            return xf.as_json({"posts": posts, "pagination": pagination})
        return super()._dispatch(request)


def xenforo_api(pages: int) -> Rig:
    fake = LongXenforoApi(_posts(pages, LongXenforoApi.per_page))
    clock = FakeTime()
    board = xenforo_board(
        xf.BASE,
        xf.USER,
        "",
        api_key="bench-api-key",
        client=fake.client(),
        clock=clock,
        sleep=clock.sleep,
        allow_insecure_http=True,
    )
    return Rig(board, "2", fake.per_page, fake.requests, fake.more)


ENGINES: dict[str, Callable[[int], Rig]] = {
    "phpbb": phpbb,
    "discourse": discourse,
    "vbulletin5": vbulletin5,
    "smf": smf_board,
    "fluxbb": fluxbb_board,
    "vbulletin": vbulletin,
    "mybb": mybb_board,
    "xenforo": xenforo,
    "xenforo-api": xenforo_api,
    "punbb": punbb_board,
}


# -- the measure ------------------------------------------------------------------------


async def _steps(rig: Rig) -> dict[str, Any]:
    """Requests per step, the posts each step returned (`_posts`) and how many of them no
    earlier step had returned (`_new`)."""
    board = rig.board
    counts: dict[str, Any] = {}
    seen: set[str] = set()
    try:
        await board.login()

        async def step(name: str, since: Any) -> Any:
            before = len(rig.sent)
            page = await board.thread_posts(rig.thread, since)
            counts[name] = len(rig.sent) - before
            counts[f"{name}_posts"] = len(page.items)
            ids = {p.id for p in page.items}
            counts[f"{name}_new"] = len(ids - seen)
            seen.update(ids)
            return page.cursor

        cursor = await step("first", None)
        cursor = await step("idle", cursor)
        rig.add(3)
        cursor = await step("three_new", cursor)
        rig.add(rig.per_page)
        await step("new_page", cursor)
    finally:
        await board.close()
    return counts


def measure(engine: str, pages: int) -> dict[str, Any]:
    """Requests and posts per step on a thread of `pages` pages (`thread_posts`: how many
    posts the thread had when first read; `per_page`: how many the last step added)."""
    rig = ENGINES[engine](pages)
    counts = asyncio.run(_steps(rig))
    counts["thread_posts"] = _posts(pages, rig.per_page)
    counts["per_page"] = rig.per_page
    return counts


def rows(quick: bool) -> list[Row]:
    out: list[Row] = []
    for engine in ENGINES:
        by_length = {pages: measure(engine, pages) for pages in LENGTHS}
        short, long = by_length[LENGTHS[0]], by_length[LENGTHS[-1]]
        figure = "; ".join(
            f"{pages} pages: " + ", ".join(f"{s.replace('_', ' ')} {c[s]}" for s in STEPS)
            for pages, c in by_length.items()
        )
        cheap = all(c[s] <= POLL_LIMIT for c in by_length.values() for s in ("idle", "three_new"))
        constant = all(short[s] == long[s] for s in ("idle", "three_new", "new_page"))
        read_whole = all(c["first_posts"] == c["thread_posts"] for c in by_length.values())
        new_seen = all(
            (c["idle_new"], c["three_new_new"], c["new_page_new"]) == (0, 3, c["per_page"])
            for c in by_length.values()
        )
        out.append(
            Row(
                f"requests: polls of a long thread on {engine}",
                figure,
                f"idle poll and 3-new-posts poll ≤ {POLL_LIMIT} requests beyond the login, "
                f"the same on {LENGTHS[0]} and {LENGTHS[-1]} pages",
                cheap and constant and read_whole and new_seen,
                note="requests per step after the login: the first read of the whole thread, "
                "an idle poll, a poll after 3 new posts, a poll after a new page began; each "
                "poll must also return exactly the posts made since the last (none, 3, a "
                "page's worth) and the first read every post",
                values={str(pages): c for pages, c in by_length.items()},
            )
        )
    return out
