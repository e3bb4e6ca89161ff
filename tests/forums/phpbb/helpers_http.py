"""A phpBB board played back from the saved 3.3.10 pages, over respx, for the HTTP tests.

`FakePhpbb` answers each (method, path, query) with the pages queued for it, in order (the
last one repeats), and records every request. Pages are the real captures in
`fixtures/phpbb/3.3.10/<lang>/`; the few derived pages (a CAPTCHA login form, folders with a
row added or removed) are built here from real ones, each saying what was changed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit
from zoneinfo import ZoneInfo

import httpx
import respx

from forums.guard import BoardOrigin
from tests import adapter_helpers
from tests.adapter_helpers import run as run

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "fixtures" / "phpbb" / "3.3.10"
BASE = "http://127.0.0.1:8081/"
MOSCOW = ZoneInfo("Europe/Moscow")
USER = "Ведущий"
PASSWORD = "s3cret-Пароль-42"
COOKIE = "phpbb3_bzfgv"
NO_VIEW = {"13", "20", "21"}
"""Inbox PMs whose view pages were not captured (the folder lists still show them)."""
INBOX_VIEWS = {"12": "N1a", "14": "N1c", "15": "N1e", "16": "N1d", "17": "N1f"}
"""The GM's inbox PMs whose view pages were captured (PM id → label in pms_truth.json)."""


def page(lang: str, name: str) -> str:
    return (FIXTURES / lang / name).read_text(encoding="utf-8")


def captured_at(lang: str, name: str) -> datetime:
    for entry in json.loads((FIXTURES / "capture_log.json").read_text(encoding="utf-8")):
        if entry["file"] == f"{lang}/{name}":
            return datetime.strptime(entry["captured_at"], "%Y-%m-%dT%H:%M:%S%z")
    raise KeyError(name)


@dataclass
class FakeTime(adapter_helpers.FakeTime):
    """The board's clock at the time of the capture (so «Сегодня» reads right)."""

    now: datetime = field(default_factory=lambda: datetime(2026, 11, 30, 2, 43, tzinfo=UTC))


Responder = str | httpx.Response | Exception | Callable[[httpx.Request], httpx.Response]


def html(body: str, status: int = 200, **headers: str) -> httpx.Response:
    return httpx.Response(
        status, text=body, headers={"Content-Type": "text/html; charset=UTF-8", **headers}
    )


def redirect(location: str, *, cookies: dict[str, str] | None = None) -> httpx.Response:
    headers = [("Location", location), ("Content-Type", "text/html; charset=UTF-8")]
    for name, value in (cookies or {}).items():
        headers.append(("Set-Cookie", f"{name}={value}; path=/; HttpOnly"))
    return httpx.Response(302, headers=headers, text="")


def _key(method: str, target: str) -> tuple[str, str, frozenset[tuple[str, str]]]:
    parts = urlsplit(target)
    query = frozenset((k, v) for k, v in parse_qsl(parts.query) if k != "sid")
    return method.upper(), parts.path, query


class FakePhpbb:
    """The saved board at 127.0.0.1:8081, one language at a time."""

    def __init__(self, lang: str = "ru") -> None:
        self.lang = lang
        self._queues: dict[tuple[str, str, frozenset[tuple[str, str]]], list[Responder]] = {}
        self.router = respx.MockRouter(assert_all_called=False)
        self.router.route().mock(side_effect=self._dispatch)
        self.requests: list[httpx.Request] = []

    def on(self, method: str, target: str, *responses: Responder) -> FakePhpbb:
        """Answer `method target` (query order and `sid` ignored) with `responses` in turn."""
        self._queues[_key(method, target)] = list(responses)
        return self

    def client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(transport=httpx.MockTransport(self.router.async_handler))

    def _dispatch(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        key = _key(request.method, str(request.url))
        queue = self._queues.get(key)
        if not queue:
            return html(
                f"<html><body>no page saved for {request.method} {request.url}</body></html>", 404
            )
        answer = queue.pop(0) if len(queue) > 1 else queue[0]
        if isinstance(answer, Exception):
            raise answer
        if isinstance(answer, str):
            return html(page(self.lang, answer))
        if isinstance(answer, httpx.Response):
            return answer
        return answer(request)

    # -- what happened -------------------------------------------------------------------

    def targets(self, method: str = "GET") -> list[str]:
        """Requested path?query (sid dropped, query sorted) in order, for one method."""
        out = []
        for r in self.requests:
            if r.method == method:
                _, path, query = _key(r.method, str(r.url))
                out.append(
                    path + ("?" + "&".join(f"{k}={v}" for k, v in sorted(query)) if query else "")
                )
        return out

    def posted(self, path: str) -> list[dict[str, str]]:
        """The form data of every POST to `path`."""
        return [
            dict(parse_qsl(r.content.decode(), keep_blank_values=True))
            for r in self.requests
            if r.method == "POST" and r.url.path == path
        ]

    def strays(self, base: str) -> list[str]:
        """Requests that did not go to `base`'s scheme, host and port."""
        origin = BoardOrigin.parse(base, allow_insecure_http=True)
        return [str(r.url) for r in self.requests if not origin.owns(r.url)]

    def password_sent(self) -> bool:
        """Whether any form posted anywhere carried the GM's password."""
        forms = [dict(parse_qsl(r.content.decode())) for r in self.requests if r.method == "POST"]
        return any(PASSWORD in form.values() for form in forms)

    # -- the usual pages -----------------------------------------------------------------

    def with_login(self) -> FakePhpbb:
        """The login page; a correct POST sets the session cookies and redirects to the index."""
        self.on("GET", "/ucp.php?mode=login", "login_page.html")
        self.on(
            "POST",
            "/ucp.php?mode=login",
            redirect(
                f"{BASE}index.php",
                cookies={f"{COOKIE}_sid": "931a825c0b5415d41b07214d2114b38a", f"{COOKIE}_u": "58"},
            ),
        )
        self.on("GET", "/index.php", "index.html")
        return self

    def with_inbox(self) -> FakePhpbb:
        """The inbox without the rows of the PMs whose views were not captured (derived), and
        the views of the others."""
        body = without_pm_rows(page(self.lang, "pm_inbox.html"), NO_VIEW)
        self.on("GET", "/ucp.php?i=pm&folder=inbox", html(body))
        for pm, name in INBOX_VIEWS.items():
            self.on("GET", f"/ucp.php?i=pm&mode=view&f=0&p={pm}", f"pm_view_{name}.html")
        return self

    def with_thread(self, pages: int = 7) -> FakePhpbb:
        self.on("GET", "/viewtopic.php?t=2", "viewtopic_p1.html")
        for n in range(2, pages + 1):
            self.on("GET", f"/viewtopic.php?t=2&start={(n - 1) * 10}", f"viewtopic_p{n}.html")
        return self


def without_pm_rows(body: str, ids: set[str]) -> str:
    """A folder page with the rows of the PMs `ids` taken out (derived page: used where
    those PMs' view pages were not captured)."""
    rows = re.split(r'(?=<li class="row)', body)
    kept = [
        r for r in rows if not any(re.search(rf"[?&;]p={i}\b", r.split("</li>")[0]) for i in ids)
    ]
    return "".join(kept)


def with_pm_row_copied(body: str, source_id: str, new_id: str, subject: str) -> str:
    """A folder page with the row of `source_id` duplicated as `new_id` (derived page: the
    outbox as it would list a PM sent after the capture)."""
    match = re.search(rf'<li class="row[^>]*>(?:(?!</li>).)*?p={source_id}\b.*?</li>', body, re.S)
    assert match, f"no row for PM {source_id}"
    row = match.group(0)
    copy = re.sub(rf"\bp={source_id}\b", f"p={new_id}", row)
    copy = re.sub(r'(class="topictitle">)[^<]*', rf"\g<1>{subject}", copy)
    return body[: match.start()] + copy + body[match.start() :]


def captcha_login_page(lang: str = "en") -> str:
    """The real login-failed page with phpBB's default CAPTCHA block added to the form
    (derived: no board in the capture had a CAPTCHA switched on)."""
    body = page(lang, "login_failed_wrong_password.html")
    block = (
        '<dl><dt><label for="confirm_code">Confirmation code:</label></dt>'
        '<dd><img src="./ucp.php?mode=confirm&amp;confirm_id=abc&amp;type=1" alt="" /></dd>'
        '<dd><input type="text" name="confirm_code" id="confirm_code" size="7" class="inputbox narrow" />'
        '<input type="hidden" name="confirm_id" value="abc" /></dd></dl>'
    )
    return body.replace(
        '<input type="submit" name="login"', block + '<input type="submit" name="login"', 1
    )


def board_maker(fake: FakePhpbb, *, url: str = BASE) -> Callable[..., object]:
    """A `make_board` hook for `board check` and `export`: the saved board as the GM, over
    `fake`, for the one board address `url` the command is given."""
    from forums.phpbb import PhpbbBoard

    time = FakeTime()

    def make(engine: str, given: str, user: str, password: str, **_: object) -> PhpbbBoard:
        assert (engine, given) == ("phpbb", url), f"a command named {engine} board {given}"
        return PhpbbBoard(
            BASE,
            user,
            PASSWORD,
            client=fake.client(),
            clock=time,
            sleep=time.sleep,
            allow_insecure_http=True,
        )

    return make


def with_edit(page: str, post: str, text: str, when: str, editor: str, user: int) -> str:
    """A saved topic page with one post's content replaced and phpBB's edit notice under it,
    as the Russian pack writes it (derived page: what an edit makes of the saved one)."""
    start = page.index(f'id="{post}"')
    content = page.index('<div class="content">', start)
    end = page.index("</div>", content) + len("</div>")
    notice = (
        f'<div class="notice">Последний раз редактировалось <a href="./memberlist.php?mode='
        f'viewprofile&amp;u={user}" class="username">{editor}</a> {when}, всего редактировалось '
        "1 раз.</div>"
    )
    return page[:content] + f'<div class="content">{text}</div>\n{notice}' + page[end:]
