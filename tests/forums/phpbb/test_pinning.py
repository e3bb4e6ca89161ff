"""Issue 10 §3: the GM's password and session go only to the configured board.

Each attack is played on the saved phpBB board (respx; the fake answers whatever host is
asked, so a request that went astray would be answered and recorded): a login form whose
action names another host, a redirect to another host, a redirect from https to http, a
plain http:// board, and httpx's request log lines carrying phpBB's `sid=`.
"""

from __future__ import annotations

import asyncio
import logging
import re

import pytest
from helpers_http import BASE, PASSWORD, USER, FakePhpbb, FakeTime, html, page, redirect, run

from forums.guard import ForeignOrigin, InsecureBoardUrl, redact
from forums.phpbb import PhpbbBoard

EVIL = "https://evil.example"
SECURE = "https://127.0.0.1:8081/"


def _board(fake: FakePhpbb, base: str = BASE, **options: bool) -> PhpbbBoard:
    time = FakeTime()
    return PhpbbBoard(
        base, USER, PASSWORD, client=fake.client(), clock=time, sleep=time.sleep, **options
    )


def test_the_password_check_sees_a_posted_password() -> None:
    fake = FakePhpbb("en").with_login()
    run(_board(fake, allow_insecure_http=True), lambda b: b.login())
    assert fake.password_sent()  # so its absence below means something


def test_a_login_form_posting_to_another_host_gets_nothing() -> None:
    form = page("en", "login_page.html").replace(
        'action="./ucp.php?mode=login', f'action="{EVIL}/ucp.php?mode=login', 1
    )
    fake = FakePhpbb("en").with_login().on("GET", "/ucp.php?mode=login", html(form))
    with pytest.raises(ForeignOrigin, match=r"evil\.example.*not to the configured board"):
        run(_board(fake, allow_insecure_http=True), lambda b: b.login())
    assert fake.strays(BASE) == [] and not fake.password_sent()


def test_a_redirect_to_another_host_is_not_followed() -> None:
    # The login page sends the GM to a look-alike host that would serve its own login form.
    fake = FakePhpbb("en").with_login()
    fake.on("GET", "/ucp.php?mode=login", redirect(f"{EVIL}/ucp.php?mode=login"))
    with pytest.raises(ForeignOrigin, match=re.escape("evil.example")):
        run(_board(fake, allow_insecure_http=True), lambda b: b.login())
    assert fake.strays(BASE) == [] and not fake.password_sent()


def test_a_redirect_from_https_to_http_is_not_followed() -> None:
    fake = FakePhpbb("en").with_login()  # its login answer redirects to http://127.0.0.1:8081/
    with pytest.raises(ForeignOrigin, match=re.escape("http://127.0.0.1:8081/index.php")):
        run(_board(fake, SECURE), lambda b: b.login())
    assert fake.strays(SECURE) == []  # the session cookie never travelled in clear


def test_an_http_board_needs_the_hosts_consent(caplog: pytest.LogCaptureFixture) -> None:
    with pytest.raises(InsecureBoardUrl, match="allow_insecure_http"):
        _board(FakePhpbb("en"))
    with caplog.at_level(logging.WARNING, logger="forums.guard"):
        _board(FakePhpbb("en"), allow_insecure_http=True)
    assert "unencrypted" in caplog.text


def test_httpx_request_lines_carry_no_session_id(caplog: pytest.LogCaptureFixture) -> None:
    fake = FakePhpbb("en").with_login().with_thread(1)
    board = _board(fake, allow_insecure_http=True)
    board.http.sid_in_urls = True  # as on a board that does not take cookies

    async def go() -> None:
        try:
            await board.login()
            board.http.sid_in_urls = True
            await board.topic_page("2")
        finally:
            await board.close()

    with caplog.at_level(logging.DEBUG):
        asyncio.run(go())
    sid = board.http.sid
    assert sid and any(sid in str(r.url) for r in fake.requests)  # it was in the URLs…
    assert "HTTP Request" in caplog.text and sid not in caplog.text  # …never in a log line
    assert "sid=…" in caplog.text
    assert PASSWORD not in caplog.text


def test_redact_masks_the_session_tokens_of_every_engine() -> None:
    line = "GET /x.php?t=2&sid=0123456789abcdef&_xfToken=1700000000,abcdef123456&my_post_key=ab12cd34ef"
    assert redact(line) == "GET /x.php?t=2&sid=…&_xfToken=…&my_post_key=…"
