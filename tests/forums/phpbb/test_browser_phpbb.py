"""phpBB with `[board] browser = true`: the browser's cookies carry the session over httpx.

Chromium itself is exercised in tests/forums/xenforo/test_xf_browser.py against a board that
needs JavaScript; here the browser step is a stand-in that returns the cookies phpBB's login
would set, so the test checks what the adapter does with them.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from helpers_http import BASE, PASSWORD, USER, FakePhpbb, FakeTime

from forums import LoginFailed, User
from forums.phpbb import PhpbbBoard


def test_the_browsers_cookies_log_the_adapter_in_and_it_never_posts_the_password() -> None:
    fake = FakePhpbb("en").with_login()
    calls: list[dict[str, Any]] = []

    async def browser(url: str, user: str, password: str, **options: Any) -> list[dict[str, Any]]:
        calls.append({"url": url, "user": user, "password": password, **options})
        return [
            {
                "name": "phpbb3_bzfgv_sid",
                "value": "931a825c0b5415d41b07214d2114b38a",
                "domain": "127.0.0.1",
                "path": "/",
            }
        ]

    time = FakeTime()
    board = PhpbbBoard(
        BASE, USER, PASSWORD, client=fake.client(), clock=time, sleep=time.sleep,
        allow_insecure_http=True, browser=True, browser_login=browser,
    )  # fmt: skip

    async def go() -> User:
        try:
            return await board.login()
        finally:
            await board.close()

    assert asyncio.run(go()) == User(id="58", name=USER)
    (call,) = calls
    assert call["url"] == f"{BASE}ucp.php?mode=login" and call["password"] == PASSWORD
    assert call["allow_insecure_http"] is True and "forumgm" in call["user_agent"]
    # httpx sent the browser's session cookie and no login form of its own.
    assert fake.posted("/ucp.php") == []
    assert "931a825c0b5415d41b07214d2114b38a" in fake.requests[-1].headers["Cookie"]


def test_a_browser_login_that_ends_as_a_guest_is_login_failed() -> None:
    fake = FakePhpbb("en").with_login()
    fake.on("GET", "/index.php", "index_guest.html")

    async def browser(*args: Any, **options: Any) -> list[dict[str, Any]]:
        return []

    board = PhpbbBoard(
        BASE,
        USER,
        PASSWORD,
        client=fake.client(),
        allow_insecure_http=True,
        browser=True,
        browser_login=browser,
        min_delay=0,
    )
    with pytest.raises(LoginFailed, match="a guest"):
        asyncio.run(board.login())
