"""A board on 127.0.0.1 that only a browser can log in to, for the browser-fallback tests.

Whatever engine's pages it serves, it sets both of its cookies only from scripts: the login
page first runs a challenge (`js_ok`, then a reload into the real form), and a correct
login answers with a page whose script sets the session cookie and goes home. An HTTP
client alone never gets past it; Chromium (driven by Playwright) does. An engine's pages
come from an `Engine`: its login path and form fields, the pages a member or a guest sees.

`needs_browser` skips a test where no Chromium or Playwright is installed — except in CI
(`CI` or `FORUMGM_REQUIRE_BROWSER` set, as `.ci/run` does after installing Debian's
chromium), where a missing browser fails the run instead.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http import cookies as http_cookies
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qsl

import pytest

from forums.browser import browser_available
from tests.local_http import running

MISSING = browser_available()
REQUIRED = bool(os.environ.get("CI") or os.environ.get("FORUMGM_REQUIRE_BROWSER"))
if MISSING is not None and REQUIRED:
    pytest.fail(f"the browser fallback cannot run in CI: {MISSING}", pytrace=False)
needs_browser = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")

CHALLENGE = (
    "<html><body><p>Checking your browser…</p><script>"
    'document.cookie = "js_ok=1; path=/"; location.reload();</script></body></html>'
)
WELCOME = (
    "<html><body><p>Welcome back!</p><script>"
    'document.cookie = "{cookie}={token}; path=/"; location.href = "/";</script></body></html>'
)


@dataclass(frozen=True)
class Engine:
    """What one engine's board serves. `page(path, logged_in)` answers every other GET
    (status, html); `base` is the board's URL, for pages that name it."""

    login_get: str
    """The path prefix of the login page (a GET)."""
    login_post: str
    """The path the login form posts to."""
    login_page: Callable[[str], str]
    failed_page: Callable[[str], str]
    user_field: str
    password_field: str
    username: str
    password: str
    page: Callable[[str, bool, str], tuple[int, str]]
    session_cookie: str = "session"


@dataclass
class JsBoard:
    """The board's state: the sessions it knows and what it was sent."""

    engine: Engine
    url: str = ""
    sessions: set[str] = field(default_factory=set)
    logins: int = 0
    posted: list[dict[str, str]] = field(default_factory=list)
    user_agents: set[str] = field(default_factory=set)

    def expire(self) -> None:
        self.sessions.clear()


def _handler(board: JsBoard) -> type[BaseHTTPRequestHandler]:
    engine = board.engine

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # quiet test output
            return

        def _cookies(self) -> dict[str, str]:
            jar = http_cookies.SimpleCookie(self.headers.get("Cookie", ""))
            return {k: v.value for k, v in jar.items()}

        def _send(self, status: int, body: str) -> None:
            data = body.encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            board.user_agents.add(self.headers.get("User-Agent", ""))
            jar = self._cookies()
            if self.path.startswith(engine.login_get):
                passed = jar.get("js_ok") == "1"
                self._send(200, engine.login_page(board.url) if passed else CHALLENGE)
                return
            logged_in = jar.get(engine.session_cookie) in board.sessions
            self._send(*engine.page(self.path, logged_in, board.url))

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            form = dict(parse_qsl(self.rfile.read(length).decode("utf-8")))
            board.posted.append(form)
            if self.path != engine.login_post or self._cookies().get("js_ok") != "1":
                self._send(403, CHALLENGE)
                return
            given = (form.get(engine.user_field), form.get(engine.password_field))
            if given != (engine.username, engine.password):
                self._send(200, engine.failed_page(board.url))
                return
            token = secrets.token_hex(8)
            board.sessions.add(token)
            board.logins += 1
            self._send(200, WELCOME.format(cookie=engine.session_cookie, token=token))

    return Handler


@contextmanager
def serve(engine: Engine) -> Iterator[JsBoard]:
    """The board running on a free port of 127.0.0.1 for the duration of the block."""
    board = JsBoard(engine)
    with running(_handler(board)) as url:
        board.url = url
        yield board
