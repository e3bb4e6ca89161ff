"""MyBB with `browser = true`: Chromium logs in to a board that needs JavaScript.

The board (tests/browser_board.py) serves the saved MyBB pages with their URLs pointed at
itself. MyBB's login page has two password fields: the header's hidden quick-login popup
comes first, the page's own form second; the browser must fill the one a person sees.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers_mybb import BASE, PASSWORD, USER, FakeMybb, FakeTime, page, run

from forums import BoardError, LoginFailed, User
from forums.mybb import MybbBoard
from tests.browser_board import Engine, needs_browser, serve


def _saved(name: str, base: str) -> str:
    return page(name).replace(BASE, base)


def _page(path: str, logged_in: bool, base: str) -> tuple[int, str]:
    if path in ("/", "/index.php"):
        return 200, _saved("index" if logged_in else "index_guest", base)
    return 404, "<html><body>not here</body></html>"


MYBB = Engine(
    login_get="/member.php?action=login",
    login_post="/member.php",
    login_page=lambda base: _saved("login_page", base),
    failed_page=lambda base: _saved("login_failed_wrong_password", base),
    user_field="username",
    password_field="password",
    username=USER,
    password=PASSWORD,
    page=_page,
    session_cookie="mybbuser",
)


@needs_browser
def test_the_browser_fills_the_visible_login_form_and_hands_the_session_over() -> None:
    with serve(MYBB) as state:
        board = MybbBoard(
            state.url, USER, PASSWORD, min_delay=0, browser=True, allow_insecure_http=True
        )
        assert run(board, lambda b: b.login()) == User(id="2", name=USER)
        (form,) = state.posted
        # The page's own form, not the quick-login popup's `quick_username`/`quick_password`.
        assert form["action"] == "do_login" and "quick_login" not in form
        assert state.logins == 1 and len(state.user_agents) == 1
        # Without the browser the challenge page is all an HTTP client gets.
        plain = MybbBoard(state.url, USER, PASSWORD, min_delay=0, allow_insecure_http=True)
        with pytest.raises(BoardError) as caught:
            run(plain, lambda b: b.login())
        assert state.logins == 1 and PASSWORD not in str(caught.value)


def test_the_adapter_goes_on_with_the_browsers_cookies_and_posts_no_form() -> None:
    fake = FakeMybb().with_login()
    calls: list[dict[str, Any]] = []

    async def browser(url: str, user: str, password: str, **options: Any) -> list[dict[str, Any]]:
        calls.append({"url": url, "user": user, "password": password, **options})
        return [{"name": "mybbuser", "value": "2_abcdef", "domain": "127.0.0.1", "path": "/"}]

    time = FakeTime()
    board = MybbBoard(
        BASE, USER, PASSWORD, client=fake.client(), clock=time, sleep=time.sleep,
        allow_insecure_http=True, browser=True, browser_login=browser,
    )  # fmt: skip
    assert run(board, lambda b: b.login()) == User(id="2", name=USER)
    (call,) = calls
    assert call["url"] == f"{BASE}member.php?action=login" and call["password"] == PASSWORD
    assert "forumgm" in call["user_agent"] and call["allow_insecure_http"] is True
    assert fake.posted("/member.php") == []
    assert "mybbuser=2_abcdef" in fake.requests[-1].headers["Cookie"]


def test_a_browser_login_that_ends_as_a_guest_is_login_failed() -> None:
    fake = FakeMybb()
    fake.on("GET", "/index.php", "index_guest")

    async def browser(*args: Any, **options: Any) -> list[dict[str, Any]]:
        return []

    board = MybbBoard(
        BASE, USER, PASSWORD, client=fake.client(), min_delay=0, allow_insecure_http=True,
        browser=True, browser_login=browser,
    )  # fmt: skip
    with pytest.raises(LoginFailed, match="a guest"):
        run(board, lambda b: b.login())
