"""The browser fallback against a board this test starts on 127.0.0.1 that needs JavaScript.

The board (XenForo 2 pages from the fixtures) sets both of its cookies only from scripts:
the login page first runs a challenge (`js_ok`, then a reload into the real form), and a
correct login answers with a page whose script sets the session cookie and goes home. An
HTTP client alone never gets past it; Chromium (driven by Playwright) does, and hands the
session over to httpx. When the board forgets the session, the adapter logs in again with
the browser.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import threading
from collections.abc import Iterator
from http import cookies as http_cookies
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl

import pytest
from typer.testing import CliRunner
from xf_helpers import PASSWORD, USER, fixture, thread_page

from engine.app.cli import app
from forums import BoardError
from forums.browser import BrowserMissing, browser_available, browser_login
from forums.xenforo import XenforoBoard

MISSING = browser_available()
if MISSING is not None and os.environ.get("CI"):
    # CI installs Debian's chromium (.ci/run): there the test must run, not skip.
    pytest.fail(f"the browser fallback cannot run in CI: {MISSING}", pytrace=False)
needs_browser = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")

CHALLENGE = (
    "<html><body><p>Checking your browser…</p><script>"
    'document.cookie = "js_ok=1; path=/"; location.reload();</script></body></html>'
)
WELCOME = (
    "<html><body><p>Welcome back!</p><script>"
    'document.cookie = "xf_session={token}; path=/"; location.href = "/";</script></body></html>'
)


class JsBoard:
    """The board's state: the sessions it knows and what it was sent."""

    def __init__(self) -> None:
        self.sessions: set[str] = set()
        self.logins = 0
        self.posted: list[dict[str, str]] = []
        self.user_agents: set[str] = set()

    def expire(self) -> None:
        self.sessions.clear()


def _handler(board: JsBoard) -> type[BaseHTTPRequestHandler]:
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
            if self.path.startswith("/login/"):
                login = fixture("synthetic/synthetic-login.html")
                self._send(200, login if jar.get("js_ok") == "1" else CHALLENGE)
                return
            logged_in = jar.get("xf_session") in board.sessions
            page = 1
            if "/page-" in self.path:
                page = int(self.path.rsplit("page-", 1)[1].strip("/") or 1)
            if self.path == "/" or self.path.startswith("/threads/8276/"):
                self._send(200, thread_page(page, logged_in=logged_in))
            elif self.path == "/conversations/":
                empty = "synthetic/synthetic-conversation-list-empty.html"
                self._send(200, fixture(empty if logged_in else "synthetic/synthetic-login.html"))
            else:
                self._send(404, "<html><body>not here</body></html>")

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            form = dict(parse_qsl(self.rfile.read(length).decode("utf-8")))
            board.posted.append(form)
            if self.path != "/login/login" or self._cookies().get("js_ok") != "1":
                self._send(403, CHALLENGE)
                return
            if form.get("login") != USER or form.get("password") != PASSWORD:
                self._send(200, fixture("synthetic/synthetic-login-failed.html"))
                return
            token = secrets.token_hex(8)
            board.sessions.add(token)
            board.logins += 1
            self._send(200, WELCOME.format(token=token))

    return Handler


@pytest.fixture
def js_board() -> Iterator[tuple[JsBoard, str]]:
    board = JsBoard()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(board))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield board, f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def _board(url: str, browser: bool) -> XenforoBoard:
    return XenforoBoard(url, USER, PASSWORD, min_delay=0, browser=browser, allow_insecure_http=True)


def test_http_alone_cannot_log_in_there(js_board: tuple[JsBoard, str]) -> None:
    state, url = js_board
    board = _board(url, browser=False)

    async def go() -> None:
        try:
            await board.login()
        finally:
            await board.close()

    with pytest.raises(BoardError):
        asyncio.run(go())
    assert state.logins == 0 and state.sessions == set()


@needs_browser
def test_the_browser_logs_in_hands_the_session_to_httpx_and_does_it_again(
    js_board: tuple[JsBoard, str],
) -> None:
    state, url = js_board
    board = _board(url, browser=True)

    async def go() -> tuple[Any, int, int]:
        try:
            me = await board.login()
            first = len((await board.thread_posts("8276")).items)
            state.expire()  # the board forgets the session: the next read is a guest's
            again = len((await board.thread_posts("8276")).items)
            return me, first, again
        finally:
            await board.close()

    me, first, again = asyncio.run(go())
    assert (me.name, me.id) == (USER, "58")
    assert first == again == 8
    assert state.logins == 2  # once at the start, once after the expiry
    # One User-Agent for the browser and httpx: challenge cookies stay valid.
    assert len(state.user_agents) == 1 and "forumgm" in next(iter(state.user_agents))
    assert [f["login"] for f in state.posted] == [USER, USER]


@needs_browser
def test_a_wrong_password_in_the_browser_is_login_failed(js_board: tuple[JsBoard, str]) -> None:
    _, url = js_board
    board = XenforoBoard(url, USER, "wrong", min_delay=0, browser=True, allow_insecure_http=True)

    async def go() -> None:
        try:
            await board.login()
        finally:
            await board.close()

    with pytest.raises(BoardError) as caught:
        asyncio.run(go())
    assert "wrong" not in str(caught.value)


@needs_browser
def test_board_check_with_browser_as_a_host_runs_it(
    js_board: tuple[JsBoard, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    state, url = js_board
    monkeypatch.setenv("FORUMGM_GM_PASSWORD", PASSWORD)
    args = ["board", "check", "--engine", "xenforo", "--url", url, "--user", USER]
    args += ["--thread", "8276", "--allow-insecure-http"]
    without = CliRunner().invoke(app, args)
    assert without.exit_code == 1 and "Traceback" not in without.output
    result = CliRunner().invoke(app, [*args, "--browser"])
    assert result.exit_code == 0, result.output
    assert f"Logged in as {USER} (user id 58)" in result.output
    assert "last post: #8 (id 1358710) by sub_ubi" in result.output
    assert "Inbox: 0 private messages" in result.output
    assert state.logins == 1 and PASSWORD not in result.output


def test_no_chromium_is_a_clear_error_naming_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("forums.browser.find_chromium", lambda: None)
    with pytest.raises(BrowserMissing) as caught:
        asyncio.run(browser_login("https://forum.example.org/login/", USER, PASSWORD))
    said = str(caught.value)
    assert "apt-get install chromium" in said and "forumgm[browser]" in said
    assert PASSWORD not in said
