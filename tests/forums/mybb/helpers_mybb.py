"""The saved MyBB 1.8.37 board (fixtures/mybb/1.8.37/), for parser and HTTP tests.

`load_saved_page` gives a page with the URL and the time it was captured. `FakeMybb` plays
the board back over respx: it answers each (method, path, query) with the pages queued for
it, in order (the last one repeats), stamps each answer with the `Date` header the board
sent at capture time, and records every request. Derived pages (built from real ones) say
what was changed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from email.utils import format_datetime
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import httpx
import respx

from forums.mybb import MybbBoard
from tests import adapter_helpers
from tests.adapter_helpers import run as run

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "fixtures" / "mybb" / "1.8.37"
HOST = "http://127.0.0.1:8082"
BASE = HOST + "/"
MSK = timezone(timedelta(hours=3))
USER = "Ведущий"
PASSWORD = "s3cret-Пароль-42"
CAPTURED = datetime(2026, 11, 30, 2, 47, 36, tzinfo=UTC)
"""When the board was saved (most pages; `capture_log.json` has each page's second)."""


@dataclass(frozen=True)
class SavedPage:
    name: str
    html: str
    url: str
    captured_at: datetime


@cache
def _capture_log() -> dict[str, dict[str, Any]]:
    entries = json.loads((FIXTURES / "capture_log.json").read_text(encoding="utf-8"))
    return {entry["file"].rsplit(".", 1)[0]: entry for entry in entries}


def captured_at(name: str) -> datetime:
    return datetime.strptime(_capture_log()[name]["captured_at"], "%Y-%m-%dT%H:%M:%S%z")


def page(name: str) -> str:
    return (FIXTURES / f"{name}.html").read_text(encoding="utf-8")


def load_saved_page(name: str) -> SavedPage:
    entry = _capture_log()[name]
    return SavedPage(name, page(name), HOST + entry["url"], captured_at(name))


def truth(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    return data


@dataclass
class FakeTime(adapter_helpers.FakeTime):
    """The board's clock, at the capture's moment (so relative times read right)."""

    now: datetime = CAPTURED


Responder = str | httpx.Response | Exception | Callable[[httpx.Request], httpx.Response]


def html(
    body: str, status: int = 200, *, at: datetime | None = None, **headers: str
) -> httpx.Response:
    stamp = format_datetime((at or CAPTURED).astimezone(UTC), usegmt=True)
    return httpx.Response(
        status,
        text=body,
        headers={"Content-Type": "text/html; charset=UTF-8", "Date": stamp, **headers},
    )


def saved(name: str) -> httpx.Response:
    """A saved page as the board answered it (with the Date of its capture)."""
    return html(page(name), at=captured_at(name))


def redirect(location: str, *, cookies: dict[str, str] | None = None) -> httpx.Response:
    headers = [("Location", location), ("Content-Type", "text/html; charset=UTF-8")]
    for name, value in (cookies or {}).items():
        headers.append(("Set-Cookie", f"{name}={value}; path=/; HttpOnly"))
    return httpx.Response(302, headers=headers, text="")


def _key(method: str, target: str) -> tuple[str, str, frozenset[tuple[str, str]]]:
    parts = urlsplit(target)
    return method.upper(), parts.path, frozenset(parse_qsl(parts.query))


def thread_url(page_no: int, tid: int = 1) -> str:
    """The thread page forumgm asks for (linear mode forced)."""
    return f"/showthread.php?tid={tid}&mode=linear" + (f"&page={page_no}" if page_no > 1 else "")


class FakeMybb:
    """The saved board at 127.0.0.1:8082."""

    def __init__(self) -> None:
        self._queues: dict[tuple[str, str, frozenset[tuple[str, str]]], list[Responder]] = {}
        self.router = respx.MockRouter(assert_all_called=False)
        self.router.route().mock(side_effect=self._dispatch)
        self.requests: list[httpx.Request] = []

    def on(self, method: str, target: str, *responses: Responder) -> FakeMybb:
        """Answer `method target` (query order ignored) with `responses` in turn."""
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
            return saved(answer)
        if isinstance(answer, httpx.Response):
            return answer
        return answer(request)

    # -- what happened -------------------------------------------------------------------

    def targets(self, method: str = "GET") -> list[str]:
        """Requested path?query (query sorted) in order, for one method."""
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

    # -- the usual pages -----------------------------------------------------------------

    def with_login(self) -> FakeMybb:
        """The login page; a correct POST sets `mybbuser` and answers the friendly redirect."""
        self.on("GET", "/member.php?action=login", "login_page")
        ok = saved("login_success_redirect")
        ok.headers["Set-Cookie"] = "mybbuser=2_throwawayloginkey; path=/; HttpOnly"
        self.on("POST", "/member.php", ok)
        self.on("GET", "/index.php", "index")
        self.on("GET", "/", "index")
        return self

    def with_thread(self, pages: int = 7) -> FakeMybb:
        for n in range(1, pages + 1):
            self.on("GET", thread_url(n), f"showthread_p{n}")
        return self


def mybb_board(
    fake: FakeMybb,
    time: FakeTime | None = None,
    *,
    url: str = BASE,
    user: str = USER,
    password: str = PASSWORD,
    **options: Any,
) -> MybbBoard:
    """The adapter on the fake board, on the fake clock (so relative times read right)."""
    time = time or FakeTime()
    return MybbBoard(
        url,
        user,
        password,
        client=fake.client(),
        clock=time,
        sleep=time.sleep,
        allow_insecure_http=True,  # the saved board is served at http://127.0.0.1
        **options,
    )


def board_maker(fake: FakeMybb, made: list[str] | None = None) -> Callable[..., MybbBoard]:
    """What the CLI's `make_board` hook gets: the engine it asks for is noted in `made`."""
    time = FakeTime()

    def make(engine: str, url: str, user: str, password: str) -> MybbBoard:
        if made is not None:
            made.append(engine)
        assert engine == "mybb", engine
        return mybb_board(fake, time, url=url, user=user, password=password)

    return make


def without_pm_rows(body: str, ids: set[str]) -> str:
    """A folder page with the rows of the PMs `ids` taken out (derived: for PMs whose
    view pages were not captured)."""
    start, end = "<!-- start: private_messagebit -->", "<!-- end: private_messagebit -->"

    def dropped(chunk: str) -> bool:
        row = chunk.split(end)[0]
        return chunk.startswith(start) and any(re.search(rf"pmid={i}\b", row) for i in ids)

    chunks = re.split(f"(?={re.escape(start)})", body)
    return "".join(c[c.index(end) + len(end) :] if dropped(c) else c for c in chunks)


def with_pm_row_copied(
    body: str, source_id: str, new_id: str, subject: str, user: str | None = None
) -> str:
    """A folder page with the row of `source_id` duplicated (on top) as `new_id` (derived:
    the Sent Items as they would list a PM sent after the capture)."""
    match = re.search(
        rf"<!-- start: private_messagebit -->(?:(?!<!-- end: private_messagebit -->).)*?pmid={source_id}\b.*?<!-- end: private_messagebit -->",
        body,
        re.S,
    )
    assert match, f"no row for PM {source_id}"
    row = re.sub(rf"\bpmid={source_id}\b", f"pmid={new_id}", match.group(0))
    row = re.sub(rf"check\[{source_id}\]", f"check[{new_id}]", row)
    row = re.sub(r'(pmid=\d+">)[^<]*', rf"\g<1>{subject}", row, count=1)
    if user is not None:
        row = re.sub(r'(uid=\d+">)[^<]*(</a></td>)', rf"\g<1>{user}\g<2>", row, count=1)
    first = body.index("<!-- start: private_messagebit -->")
    return body[:first] + row + body[first:]


INBOX_VIEWS = {"23": "N1a", "27": "N1c", "29": "N1e", "31": "N1d", "33": "N1f"}
"""The GM's inbox PMs whose view pages were captured (pmid → label in pms_truth.json)."""
NO_VIEW = {"25", "39", "41"}
SENT_NO_VIEW = {str(n) for n in range(2, 23, 2)} | {"38"}
"""The GM's Sent Items copies whose view pages were not captured (only 36's was)."""


def with_inbox(fake: FakeMybb) -> FakeMybb:
    """The inbox (derived: without the rows of PMs whose views were not captured) and views."""
    fake.on("GET", "/private.php?fid=0", html(without_pm_rows(page("private_inbox"), NO_VIEW)))
    for pmid, label in INBOX_VIEWS.items():
        fake.on("GET", f"/private.php?action=read&pmid={pmid}", f"private_read_{label}")
    return fake


def sent_page(*, new: str | None = None) -> httpx.Response:
    """Sent Items with only PM 36's row (derived), and a copy of it as `new` on top (the GM's
    copy of a PM sent after the capture)."""
    body = without_pm_rows(page("private_sent"), SENT_NO_VIEW)
    if new is not None:
        body = with_pm_row_copied(body, "36", new, "Спасибо за игру")
    return html(body)


def with_sent(fake: FakeMybb) -> FakeMybb:
    fake.on("GET", "/private.php?fid=2", sent_page())
    fake.on("GET", "/private.php?action=read&pmid=36", "private_read_sent_N1g")
    return fake
