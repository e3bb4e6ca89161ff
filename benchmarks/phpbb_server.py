"""A phpBB 3.3 board over respx for the request-count rows: any number of pages, built from
the saved 3.3.10 pages.

Topic pages are the saved `ru/viewtopic_p1.html` with its header and footer kept (the page
count and post count rewritten) and one post's markup (post 2) repeated for each post, its
id, author, time and content replaced: the content is a post of the real game
(17378.jsonl). The login, index, inbox (the rows whose PM views were saved), PM views and
reply form are the saved pages; a reply adds the GM's post to the topic and answers 302 as
phpBB does. Every request is recorded.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import parse_qsl

import httpx
import respx
from synthetic import FIXTURES, real_game

from forums.bbcode import parse_bbcode

BASE = "http://127.0.0.1:8081/"
GM = "Ведущий"
TOPIC = "2"
SAVED = FIXTURES / "3.3.10" / "ru"
MONTHS = ["янв", "фев", "мар", "апр", "май", "июн", "июл", "авг", "сен", "окт", "ноя", "дек"]
PM_VIEWS = {"12": "N1a", "14": "N1c", "15": "N1e", "16": "N1d", "17": "N1f"}
"""The inbox PMs whose view pages were captured; the other rows are left out of the inbox."""


def _saved(name: str) -> str:
    return (SAVED / name).read_text(encoding="utf-8")


def _page(body: str, status: int = 200, **headers: str) -> httpx.Response:
    return httpx.Response(
        status, text=body, headers={"Content-Type": "text/html; charset=UTF-8", **headers}
    )


@dataclass(frozen=True)
class SyntheticPost:
    id: int
    author: str
    author_id: str
    at: datetime
    content: str


class _Template:
    def __init__(self) -> None:
        page = _saved("viewtopic_p1.html")
        first = page.index('<div id="p2" class="post')
        second = page.index('<div id="p3" class="post')
        bottom = page.index('<div class="action-bar bar-bottom">')
        self.head, self.block, self.tail = page[:first], page[first:second], page[bottom:]
        self.block = re.sub(
            r'<div class="content">.*?</div>', "<div class=\"content\">{content}</div>",
            self.block, count=1, flags=re.S,
        )  # fmt: skip
        time_tag = re.search(r"<time datetime=\"[^\"]*\">[^<]*</time>", self.block)
        assert time_tag is not None
        self.block = self.block.replace(time_tag.group(0), "{time}")
        for old, new in [
            ("p=2#p2", "p={id}#p{id}"),
            ('id="p2"', 'id="p{id}"'),
            ('id="profile2"', 'id="profile{id}"'),
            ('id="post_content2"', 'id="post_content{id}"'),
            ("post/2/report", "post/{id}/report"),
            ('p=2"', 'p={id}"'),
            ("u=58", "u={uid}"),
            (GM, "{author}"),
        ]:
            self.block = self.block.replace(old, new)

    @staticmethod
    def _chrome(text: str, page: int, pages: int, total: int) -> str:
        text = re.sub(r"\d+ сообщени\w*", f"{total} сообщений", text)
        text = text.replace(
            "Страница <strong>1</strong> из <strong>7</strong>",
            f"Страница <strong>{page}</strong> из <strong>{pages}</strong>",
        )
        return text.replace(
            '<li class="active"><span>1</span></li>', f'<li class="active"><span>{page}</span></li>'
        )

    def render(self, posts: list[SyntheticPost], page: int, pages: int, total: int) -> str:
        blocks = []
        for post in posts:
            local = post.at + timedelta(hours=3)  # the board shows Moscow time
            shown = f"{local.day:02d} {MONTHS[local.month - 1]} {local.year}, {local:%H:%M}"
            stamp = f'<time datetime="{post.at.isoformat()}">{shown}</time>'
            blocks.append(
                self.block.replace("{content}", post.content)
                .replace("{time}", stamp)
                .replace("{id}", str(post.id))
                .replace("{uid}", post.author_id)
                .replace("{author}", html.escape(post.author))
            )
        chrome = (
            self._chrome(self.head, page, pages, total),
            self._chrome(self.tail, page, pages, total),
        )
        return chrome[0] + "".join(blocks) + chrome[1]


class SyntheticPhpbb:
    """The board; `posts` is the topic, in order. `requests` records what was asked."""

    def __init__(self, posts: int, start: datetime, *, per_page: int = 10) -> None:
        self.per_page = per_page
        self.template = _Template()
        self.posts: list[SyntheticPost] = []
        self.requests: list[httpx.Request] = []
        self.start = start
        self.add(posts)
        inbox = _saved("pm_inbox.html")
        rows = re.split(r'(?=<li class="row)', inbox)
        self.inbox = "".join(
            r
            for r in rows
            if not (
                r.startswith('<li class="row')
                and not any(f"p={i}" in r.split("</li>")[0] for i in PM_VIEWS)
            )
        )
        self.router = respx.MockRouter(assert_all_called=False)
        self.router.route().mock(side_effect=self._dispatch)

    def client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(transport=httpx.MockTransport(self.router.async_handler))

    def add(self, count: int, gap: timedelta = timedelta(minutes=1)) -> None:
        game = real_game()
        for _ in range(count):
            n = len(self.posts)
            author, author_id, content, _body = game[n % len(game)]
            at = self.start + n * gap
            self.posts.append(SyntheticPost(1000 + n, author, author_id, at, content))

    def reply(self, bbcode: str) -> int:
        text = html.escape(parse_bbcode(bbcode).full_text()).replace("\n", "<br>\n")
        at = self.posts[-1].at + timedelta(minutes=1)
        self.posts.append(SyntheticPost(1000 + len(self.posts), GM, "58", at, text))
        return self.posts[-1].id

    def count(self, since: int = 0) -> dict[str, int]:
        """Requests from the `since`-th on, by kind."""
        kinds: dict[str, int] = {}
        for request in self.requests[since:]:
            path = request.url.path.lstrip("/")
            query = dict(parse_qsl(request.url.query.decode()))
            kind = {
                "viewtopic.php": "topic page",
                "posting.php": "posting",
            }.get(
                path,
                "pm folder"
                if "folder" in query
                else "pm view"
                if query.get("mode") == "view"
                else path,
            )
            if (path == "ucp.php" and query.get("mode") == "login") or path == "index.php":
                kind = "login"
            kinds[kind] = kinds.get(kind, 0) + 1
        kinds["total"] = len(self.requests) - since
        return kinds

    # -- answering -------------------------------------------------------------------

    def _topic(self, query: dict[str, str]) -> httpx.Response:
        pages = max(1, -(-len(self.posts) // self.per_page))
        if "p" in query:
            index = next(i for i, p in enumerate(self.posts) if str(p.id) == query["p"])
            start = index // self.per_page * self.per_page
        else:
            start = min(int(query.get("start", 0)), (pages - 1) * self.per_page)
        chunk = self.posts[start : start + self.per_page]
        return _page(
            self.template.render(chunk, start // self.per_page + 1, pages, len(self.posts))
        )

    def _dispatch(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        path = request.url.path.lstrip("/")
        query = dict(parse_qsl(request.url.query.decode()))
        query.pop("sid", None)
        if path == "viewtopic.php":
            return self._topic(query)
        if path == "ucp.php" and query.get("mode") == "login":
            if request.method == "POST":
                return httpx.Response(302, headers={"Location": f"{BASE}index.php"})
            return _page(_saved("login_page.html"))
        if path == "index.php":
            return _page(_saved("index.html"))
        if path == "ucp.php" and query.get("folder") == "inbox":
            return _page(self.inbox)
        if path == "ucp.php" and query.get("mode") == "view" and query.get("p") in PM_VIEWS:
            return _page(_saved(f"pm_view_{PM_VIEWS[query['p']]}.html"))
        if path == "posting.php" and query.get("mode") == "reply":
            if request.method == "GET":
                return _page(_saved("posting_reply_form.html"))
            form = dict(parse_qsl(request.content.decode(), keep_blank_values=True))
            new = self.reply(form.get("message", ""))
            return httpx.Response(302, headers={"Location": f"{BASE}viewtopic.php?p={new}#p{new}"})
        return _page(f"<html><body>nothing at {request.url}</body></html>", 404)
