"""The browser fallback against a board this test starts on 127.0.0.1 that needs JavaScript.

The board (tests/browser_board.py, serving XenForo 2 pages from the fixtures) sets both of
its cookies only from scripts. An HTTP client alone never gets past it; Chromium (driven by
Playwright) does, and hands the session over to httpx. When the board forgets the session,
the adapter logs in again with the browser.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from typer.testing import CliRunner
from xf_helpers import PASSWORD, USER, fixture, thread_page

from engine.app.cli import app
from forums import BoardError
from forums.browser import BrowserMissing, board_cookies, browser_login
from forums.guard import ForeignOrigin
from forums.xenforo import XenforoBoard
from tests.browser_board import Engine, JsBoard, needs_browser, serve


def _page(path: str, logged_in: bool, base: str) -> tuple[int, str]:
    page = 1
    if "/page-" in path:
        page = int(path.rsplit("page-", 1)[1].strip("/") or 1)
    if path == "/" or path.startswith("/threads/8276/"):
        return 200, thread_page(page, logged_in=logged_in)
    if path == "/conversations/":
        empty = "synthetic/synthetic-conversation-list-empty.html"
        return 200, fixture(empty if logged_in else "synthetic/synthetic-login.html")
    return 404, "<html><body>not here</body></html>"


XENFORO = Engine(
    login_get="/login/",
    login_post="/login/login",
    login_page=lambda base: fixture("synthetic/synthetic-login.html"),
    failed_page=lambda base: fixture("synthetic/synthetic-login-failed.html"),
    user_field="login",
    password_field="password",
    username=USER,
    password=PASSWORD,
    page=_page,
    session_cookie="xf_session",
)


@pytest.fixture
def js_board() -> Iterator[tuple[JsBoard, str]]:
    with serve(XENFORO) as board:
        yield board, board.url


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


@needs_browser
def test_a_browser_login_form_posting_elsewhere_gets_nothing() -> None:
    # The login page's form names another origin (localhost is not 127.0.0.1): the browser
    # fills nothing and submits nothing; both servers are ours, so a stray post would show.
    with serve(XENFORO) as elsewhere:
        moved = fixture("synthetic/synthetic-login.html").replace(
            'action="/login/login"',
            f'action="{elsewhere.url.replace("127.0.0.1", "localhost")}login/login"',
        )
        with serve(replace(XENFORO, login_page=lambda base: moved)) as board:
            with pytest.raises(ForeignOrigin, match="nothing was sent"):
                asyncio.run(
                    browser_login(f"{board.url}login/", USER, PASSWORD, allow_insecure_http=True)
                )
            assert board.posted == [] and elsewhere.posted == []


def test_only_the_boards_cookies_are_handed_to_httpx() -> None:
    jar = [
        {"name": "xf_session", "value": "1", "domain": "forum.example.org"},
        {"name": "cf_clearance", "value": "2", "domain": ".example.org"},
        {"name": "other", "value": "3", "domain": "ample.org"},
        {"name": "tracker", "value": "4", "domain": ".ads.example.net"},
        {"name": "sub", "value": "5", "domain": "cdn.forum.example.org"},
    ]
    kept = board_cookies(jar, "forum.example.org")
    assert [c["name"] for c in kept] == ["xf_session", "cf_clearance"]
