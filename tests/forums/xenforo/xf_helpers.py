"""A XenForo 2 board played back over respx for the HTTP tests, from the saved pages.

`FakeXenforo` answers each (method, path, query) with the responses queued for it, in order
(the last one repeats), and records every request. The thread is the real xenforo.com
thread 8276 (8 posts); the pages a logged-in GM would see are *derived* from it here
(`thread_page`): the visitor block of a member ("Ведущий", user 58) replaces the guest one,
`data-logged-in` becomes "true", the 8 posts are split 3 to a page with a `pageNav`, and a
reply by the GM can be appended. Login, two-step, error and conversation pages are the
synthetic ones in fixtures/xenforo/synthetic/ (see its README).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import httpx
import respx

from tests.adapter_helpers import FakeTime as FakeTime
from tests.adapter_helpers import run as run

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "fixtures" / "xenforo"
BASE = "http://127.0.0.1:8082/"
USER = "Ведущий"
PASSWORD = "s3cret-Пароль-42"
CSRF = "1796006587,5f2b3c0d1e4a6b7c8d9e0f1a2b3c4d5e"
SLUG = "threads/a-dark-theme-option.8276/"
PER_PAGE = 3
NEW_POST = "1358711"


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


Responder = str | httpx.Response | Exception | Callable[[httpx.Request], httpx.Response]


def html(body: str, status: int = 200, **headers: str) -> httpx.Response:
    return httpx.Response(
        status, text=body, headers={"Content-Type": "text/html; charset=UTF-8", **headers}
    )


def as_json(value: Any, status: int = 200) -> httpx.Response:
    return httpx.Response(
        status,
        text=json.dumps(value, ensure_ascii=False),
        headers={"Content-Type": "application/json; charset=utf-8"},
    )


def redirect(
    location: str, *, status: int = 303, cookies: dict[str, str] | None = None
) -> httpx.Response:
    headers = [("Location", location)]
    for name, value in (cookies or {}).items():
        headers.append(("Set-Cookie", f"{name}={value}; path=/; HttpOnly"))
    return httpx.Response(status, headers=headers, text="")


def _key(method: str, target: str) -> tuple[str, str, frozenset[tuple[str, str]]]:
    parts = urlsplit(target)
    return method.upper(), parts.path, frozenset(parse_qsl(parts.query))


# -- pages derived from the real thread page -----------------------------------------------

_REAL = fixture("xenforo.com/thread_view.html")
_START = '\t<article class="message message--post'
_FIRST = _REAL.index(_START)
_END = "\n\t</article>"  # the post's own closing tag (the body's is indented deeper)
_LAST_END = _REAL.rindex(_END) + len(_END)
ARTICLES = [
    _START + chunk.split(_END)[0] + _END for chunk in _REAL[_FIRST:_LAST_END].split(_START)[1:]
]
MEMBER_NAV = """<div class="p-navgroup p-account p-navgroup--member">
	<a href="/account/" class="p-navgroup-link p-navgroup-link--iconic p-navgroup-link--user" title="Ведущий">
		<span class="avatar avatar--xxs" data-user-id="58" title="Ведущий"><span class="avatar-u58-s">В</span></span>
		<span class="p-navgroup-linkText">Ведущий</span>
	</a>
</div>"""


def gm_post(text: str = "Итоги дня 1", post_id: str = NEW_POST) -> str:
    """A post by the GM, built from the real page's last post (derived: its author, id,
    time and body replaced)."""
    article = ARTICLES[-1]
    article = article.replace('data-author="sub_ubi"', f'data-author="{USER}"')
    article = article.replace("1358710", post_id)
    article = re.sub(r'data-user-id="53960"', 'data-user-id="58"', article)
    article = article.replace(">sub_ubi<", f">{USER}<")
    article = re.sub(r'data-time="\d+"', 'data-time="1796155200"', article)
    article = article.replace("#8", "#9")
    return re.sub(
        r'(<div class="bbWrapper">).*?(</div>)',
        lambda m: m.group(1) + text + m.group(2),
        article,
        count=1,
        flags=re.S,
    )


def thread_page(
    page: int, *, logged_in: bool = True, extra: tuple[str, ...] = (), per_page: int = PER_PAGE
) -> str:
    """Page `page` of the real thread as the GM sees it (derived, see the module docstring)."""
    posts = [*ARTICLES, *extra]
    pages = max(1, -(-len(posts) // per_page))
    chosen = posts[(page - 1) * per_page : page * per_page]
    return render_page(chosen, page, pages, logged_in=logged_in)


def render_page(
    articles: list[str],
    page: int,
    pages: int,
    *,
    logged_in: bool = True,
    slug: str = SLUG,
    thread_id: str | None = None,
    title: str | None = None,
) -> str:
    """The real page's frame around `articles`, with a pageNav (and, when `thread_id` or
    `title` is given, that thread's id and title in place of 8276's)."""
    head, tail = _REAL[:_FIRST], _REAL[_LAST_END:]
    if logged_in:
        head = head.replace('data-logged-in="false"', 'data-logged-in="true"', 1)
        head = re.sub(
            r'<div class="p-navgroup p-account p-navgroup--guest">.*?</div>\s*</div>',
            MEMBER_NAV,
            head,
            count=1,
            flags=re.S,
        )
    if thread_id is not None:
        head = head.replace(
            'data-content-key="thread-8276"', f'data-content-key="thread-{thread_id}"'
        )
        head = head.replace("a-dark-theme-option.8276", slug.removeprefix("threads/").rstrip("/"))
    if title is not None:
        head = head.replace(">a dark theme option<", f">{title}<")
    items = "".join(
        f'<li class="pageNav-page{" pageNav-page--current" if n == page else ""}">'
        f'<a href="/{slug}page-{n}">{n}</a></li>'
        for n in range(1, pages + 1)
    )
    nav = (
        '<nav class="pageNavWrapper"><div class="pageNav"><ul class="pageNav-main">'
        f"{items}</ul></div></nav>"
    )
    after = '<div class="block-outer block-outer--after">'
    return head + "\n".join(articles) + tail.replace(after, nav + after, 1)


def post_ids(page: int, extra: int = 0) -> list[str]:
    ids = [re.search(r'data-content="post-(\d+)"', a).group(1) for a in ARTICLES]  # type: ignore[union-attr]
    ids += [NEW_POST] * extra
    return ids[(page - 1) * PER_PAGE : page * PER_PAGE]


class FakeXenforo:
    """The board at 127.0.0.1:8082."""

    def __init__(self) -> None:
        self._queues: dict[tuple[str, str, frozenset[tuple[str, str]]], list[Responder]] = {}
        self.router = respx.MockRouter(assert_all_called=False)
        self.router.route().mock(side_effect=self._dispatch)
        self.requests: list[httpx.Request] = []

    def on(self, method: str, target: str, *responses: Responder) -> FakeXenforo:
        self._queues[_key(method, target)] = list(responses)
        return self

    def client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(transport=httpx.MockTransport(self.router.async_handler))

    def _dispatch(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        queue = self._queues.get(_key(request.method, str(request.url)))
        if not queue:
            return html(
                f"<html><body>no page saved for {request.method} {request.url}</body></html>", 404
            )
        answer = queue.pop(0) if len(queue) > 1 else queue[0]
        if isinstance(answer, Exception):
            raise answer
        if isinstance(answer, str):
            return html(fixture(answer) if answer.endswith(".html") else answer)
        if isinstance(answer, httpx.Response):
            return answer
        return answer(request)

    def targets(self, method: str = "GET") -> list[str]:
        out = []
        for r in self.requests:
            if r.method == method:
                out.append(r.url.path + (f"?{r.url.query.decode()}" if r.url.query else ""))
        return out

    def posted(self, path: str) -> list[dict[str, str]]:
        return [
            dict(parse_qsl(r.content.decode(), keep_blank_values=True))
            for r in self.requests
            if r.method == "POST" and r.url.path == path
        ]

    # -- the usual pages -----------------------------------------------------------------

    def with_login(self) -> FakeXenforo:
        """The login page; a correct POST sets the session cookies and redirects home."""
        self.on("GET", "/login/", "synthetic/synthetic-login.html")
        self.on(
            "POST",
            "/login/login",
            redirect(BASE, cookies={"xf_session": "f3a1c2", "xf_user": "58%2Cabcdef"}),
        )
        self.on("GET", "/", html(thread_page(1)))
        return self

    def with_thread(self, *, extra: tuple[str, ...] = ()) -> FakeXenforo:
        """Thread 8276: `/threads/8276/page-N` redirects to the slug URL, as XenForo does."""
        pages = max(1, -(-(len(ARTICLES) + len(extra)) // PER_PAGE))
        for n in range(1, pages + 1):
            suffix = f"page-{n}" if n > 1 else ""
            self.on("GET", f"/threads/8276/{suffix}", redirect(f"{BASE}{SLUG}{suffix}", status=301))
            self.on("GET", f"/{SLUG}{suffix}", html(thread_page(n, extra=extra)))
        return self

    def with_conversations(self) -> FakeXenforo:
        self.on("GET", "/conversations/", "synthetic/synthetic-conversation-list.html")
        self.on(
            "GET",
            "/conversations/proverka-noch-1.412/",
            "synthetic/synthetic-conversation-view.html",
        )
        self.on("GET", "/conversations/rol.411/", html(role_conversation()))
        return self


def role_conversation() -> str:
    """Conversation 411 ("Роль"), started by the GM to Alu and Бармалей, with Alu's reply:
    derived from the synthetic view (ids, title, authors and texts changed)."""
    view = fixture("synthetic/synthetic-conversation-view.html")
    view = view.replace("proverka-noch-1.412", "rol.411").replace(
        "conversation-412", "conversation-411"
    )
    view = view.replace("Проверка, ночь 1", "Роль")
    first, second = view.split('<article class="message message--conversationMessage', 2)[1:]
    head = view.split('<article class="message message--conversationMessage', 1)[0]
    gm = ('<article class="message message--conversationMessage' + second).split(
        "\t\t\t</article>"
    )[0] + "\t\t\t</article>"
    gm = gm.replace("905", "880").replace("Принято: проверка Бармалея.", "Ваша роль: Комиссар.")
    gm = gm.replace('data-time="1796162400"', 'data-time="1796072400"')
    alu = ('<article class="message message--conversationMessage' + first).split(
        "\t\t\t</article>"
    )[0] + "\t\t\t</article>"
    alu = re.sub(
        r'(<div class="bbWrapper">).*?(</div>\s*<div class="js-selectToQuoteEnd)',
        r"\1Спасибо, понял.\2",
        alu,
        flags=re.S,
    )
    alu = alu.replace("903", "881").replace('data-time="1796158800"', 'data-time="1796076000"')
    rest = second.split("\t\t\t</article>", 1)[1]
    return head + gm + "\n" + alu + rest


_MESSAGE = '\t\t\t<article class="message message--conversationMessage'
_MESSAGE_END = "\t\t\t</article>"


def conversation_parts(view: str) -> tuple[str, list[str], str]:
    """A synthetic conversation page cut into (what precedes the messages, each message's
    article, what follows them), to build a page with other messages."""
    starts = [m.start() for m in re.finditer(re.escape(_MESSAGE), view)]
    ends = [view.index(_MESSAGE_END, start) + len(_MESSAGE_END) for start in starts]
    return (
        view[: starts[0]],
        [view[a:b] for a, b in zip(starts, ends, strict=True)],
        view[ends[-1] :],
    )


def with_new_conversation(fake: FakeXenforo, target: str) -> FakeXenforo:
    """The new-conversation form, and a submission the board answers by naming `target`
    (a conversation's path below the board)."""
    fake.on("GET", "/conversations/add", "synthetic/synthetic-conversation-add.html")
    fake.on("POST", "/conversations/add", as_json({"status": "ok", "redirect": f"{BASE}{target}"}))
    return fake
