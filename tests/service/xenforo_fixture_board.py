"""The saved game thread as a XenForo 2 board, for the service test that plays one phase.

The game (topic 2 of the saved phpBB 3.3.10 board: 61 posts, its truth file) is served as
XenForo 2 thread pages *derived* here: every post of every saved phpBB page, parsed, is put
into the markup of a real XF2 post (`fixtures/xenforo/xenforo.com/thread_view.html`, via
`tests/forums/xenforo/xf_helpers.py`) with the same id, author, user id, time, edit notice
and body HTML, ten to a page as on the phpBB board. The GM's conversations are the
synthetic empty list. A reply is kept by the fake board and shown on the last page after.
"""

from __future__ import annotations

import html as html_lib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import parse_qsl

import httpx

from forums.phpbb.topic import parse_topic_page
from forums.records import Post
from forums.xenforo import XenforoBoard
from tests.service.phpbb_fixture_board import helpers as phpbb

_HELPERS = Path(__file__).resolve().parents[1] / "forums" / "xenforo" / "xf_helpers.py"


def _load_helpers() -> ModuleType:
    if "xf_helpers" in sys.modules:
        return sys.modules["xf_helpers"]
    spec = importlib.util.spec_from_file_location("xf_helpers", _HELPERS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["xf_helpers"] = module
    spec.loader.exec_module(module)
    return module


xf = _load_helpers()
BASE: str = xf.BASE
USER: str = xf.USER
PASSWORD: str = xf.PASSWORD
SLUG = "threads/mafiia-7-gorod-v-tumane.2/"
NEW_POST = "65"
PAGES = 7


def _article(post: Post) -> str:
    """One post in XenForo 2's markup (the real page's post structure)."""
    name = html_lib.escape(post.author, quote=True)
    stamp = int(post.posted_at.timestamp())
    edit = ""
    if post.edit is not None and post.edit.at is not None:
        edited = int(post.edit.at.timestamp())
        edit = (
            '<div class="message-lastEdit">Last edited: <time class="u-dt" dir="auto" '
            f'datetime="{post.edit.at.isoformat()}" data-time="{edited}">{edited}</time></div>'
        )
    return f"""	<article class="message message--post js-post js-inlineModContainer  "
		data-author="{name}"
		data-content="post-{post.id}"
		id="js-post-{post.id}">
		<div class="message-inner">
			<div class="message-cell message-cell--user"><section class="message-user">
				<div class="message-userDetails"><h4 class="message-name"><a href="/members/u.{post.author_id}/" class="username " dir="auto" data-user-id="{post.author_id}">{name}</a></h4></div>
			</section></div>
			<div class="message-cell message-cell--main"><div class="message-main js-quickEditTarget">
				<header class="message-attribution message-attribution--split">
					<div class="message-attribution-main"><a href="/{SLUG}post-{post.id}" class="u-concealed" rel="nofollow"><time class="u-dt" dir="auto" datetime="{post.posted_at.isoformat()}" data-time="{stamp}">{stamp}</time></a></div>
					<ul class="message-attribution-opposite message-attribution-opposite--list"><li><a href="/{SLUG}post-{post.id}" rel="nofollow">#{post.number}</a></li></ul>
				</header>
				<div class="message-content js-messageContent"><div class="message-userContent lbContainer js-lbContainer">
					<article class="message-body js-selectToQuote">
						<div class="bbWrapper">{post.raw or ""}</div>
						<div class="js-selectToQuoteEnd">&nbsp;</div>
					</article>
				</div>{edit}</div>
			</div></div>
		</div>
	</article>"""


def _posts(lang: str) -> list[Post]:
    posts: list[Post] = []
    for n in range(1, PAGES + 1):
        name = f"viewtopic_p{n}.html"
        page = parse_topic_page(
            phpbb.page(lang, name),
            f"{phpbb.BASE}viewtopic.php?t=2" + (f"&start={(n - 1) * 10}" if n > 1 else ""),
            tz=phpbb.MOSCOW,
            now=phpbb.captured_at(lang, name),
        )
        posts.extend(page.posts)
    return posts


class _Thread:
    """The thread's pages; a reply the board accepted joins the last page."""

    def __init__(self, lang: str) -> None:
        self.articles = [_article(p) for p in _posts(lang)]
        self.title = "Мафия #7: Город в тумане"

    def page(self, n: int) -> str:
        pages = max(1, -(-len(self.articles) // 10))
        chosen = self.articles[(n - 1) * 10 : n * 10]
        return xf.render_page(chosen, n, pages, slug=SLUG, thread_id="2", title=self.title)

    def add_reply(self, request: httpx.Request) -> httpx.Response:
        form = dict(parse_qsl(request.content.decode(), keep_blank_values=True))
        body = html_lib.escape(form.get("message", "")).replace("\n", "<br />\n")
        new = xf.gm_post(body, NEW_POST).replace("#9", f"#{len(self.articles) + 1}")
        self.articles.append(new)
        return xf.as_json(
            {
                "status": "ok",
                "message": "Your message has been posted.",
                "redirect": f"{BASE}posts/{NEW_POST}/",
            }
        )


def saved_board(lang: str = "ru") -> Any:
    """Login, thread 2 (7 pages of 10), the empty conversation list, and replies."""
    fake = xf.FakeXenforo().with_login()
    thread = _Thread(lang)
    for n in range(1, PAGES + 2):
        suffix = f"page-{n}" if n > 1 else ""
        fake.on("GET", f"/threads/2/{suffix}", lambda r, n=n: xf.html(thread.page(n)))
    fake.on("GET", "/conversations/", "synthetic/synthetic-conversation-list-empty.html")
    fake.on("POST", "/threads/2/add-reply", thread.add_reply)
    fake.on("GET", f"/posts/{NEW_POST}/", xf.redirect(f"{BASE}threads/2/page-{PAGES}", status=301))
    return fake


def make_board(fake: Any, time: Any | None = None) -> XenforoBoard:
    time = time or phpbb.FakeTime()
    return XenforoBoard(
        BASE,
        USER,
        PASSWORD,
        client=fake.client(),
        clock=time,
        sleep=time.sleep,
        allow_insecure_http=True,
    )
