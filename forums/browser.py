"""Logging in with a real browser, for boards that only let one in (any engine).

Some boards put a JavaScript challenge in front of every page or log in through a widget:
an HTTP client alone never gets a session there. With `[board] browser = true` the adapter
calls `browser_login`: Playwright drives the system Chromium (Debian's `chromium`; its own
browser download is not used), opens the board's login page, fills the form that has a
password field, submits it, and hands back the board's cookies. The browser is closed
before the function returns, whatever happened; the adapter puts the cookies into its httpx
client and goes on over HTTP, and calls this again when the session expires.

The password goes only to the configured board: the login page must be on the board's
origin, and the form is submitted only if its action is too (else `ForeignOrigin`); only
the cookies of the board's host (or a domain it is part of) are handed to httpx, whose
client is pinned to the board too. The browser sends the same User-Agent as the httpx
client, so cookies that a challenge binds to it (Cloudflare's) keep working.

The password field is the first *visible* one: MyBB's pages carry a hidden quick-login
popup with its own password field before the login page's form.
"""

from __future__ import annotations

import logging
import os
import shutil
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import httpx

from forums.errors import BoardError, LoginFailed
from forums.guard import BoardOrigin

log = logging.getLogger("forums.browser")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ENV = "FORUMGM_CHROMIUM"
"""Where Chromium is, when not at /usr/bin/chromium (a path)."""
FLAGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
)
INSTALL_HELP = (
    "[board] browser = true needs Chromium and Playwright for Python: install Debian's "
    "chromium (`apt-get install chromium`, or set {env} to its path) and "
    '`pip install "forumgm[browser]"` (Playwright\'s own browser download is not needed)'
)
ACTION_OF = 'f => new URL(f.getAttribute("action") || "", document.baseURI).href'
"""Where a form posts to, absolute (a form without an action posts to its page)."""
USER_FIELDS = (
    "input[name=login]",
    "input[name=username]",
    "input[name=user]",
    "input[type=email]",
    "input[autocomplete=username]",
    "input[type=text]",
)


BrowserLogin = Callable[..., Awaitable[list[dict[str, Any]]]]
"""`browser_login`'s signature: adapters take one injected (tests) or use the real one."""


class BrowserMissing(BoardError):
    """No Chromium or no Playwright on this machine: the message says what to install."""


def find_chromium() -> str | None:
    """The Chromium to drive: $FORUMGM_CHROMIUM, /usr/bin/chromium or one on PATH."""
    given = os.environ.get(CHROMIUM_ENV)
    for candidate in (given, CHROMIUM, shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def browser_available() -> str | None:
    """Why the browser login cannot run here, or None when it can."""
    if find_chromium() is None:
        return INSTALL_HELP.format(env=CHROMIUM_ENV) + f" (no Chromium at {CHROMIUM})"
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return INSTALL_HELP.format(env=CHROMIUM_ENV) + " (the playwright package is missing)"
    return None


async def browser_login(
    login_url: str,
    username: str,
    password: str,
    *,
    user_agent: str = "",
    allow_insecure_http: bool = False,
    timeout: float = 60.0,
) -> list[dict[str, Any]]:
    """Log in through Chromium; the board's cookies (name, value, domain, path, …)."""
    missing = browser_available()
    if missing is not None:
        raise BrowserMissing(missing)
    from playwright.async_api import Error as PlaywrightError
    from playwright.async_api import async_playwright

    origin = BoardOrigin.parse(login_url, allow_insecure_http=allow_insecure_http)
    chromium = find_chromium()
    wait = int(timeout * 1000)
    async with async_playwright() as driver:
        browser = await driver.chromium.launch(
            executable_path=chromium, headless=True, args=list(FLAGS)
        )
        try:
            context = await browser.new_context(user_agent=user_agent or None)
            page = await context.new_page()
            await page.goto(login_url, wait_until="load", timeout=wait)
            # A challenge page may run first and reload into the real login page.
            secret = page.locator("input[type=password]:visible").first
            await secret.wait_for(state="visible", timeout=wait)
            form = secret.locator("xpath=ancestor::form[1]")
            # The attribute, not `form.action`: MyBB's form has an input named "action",
            # which the DOM puts in the property's place.
            action = await form.evaluate(ACTION_OF) if await form.count() else page.url
            origin.check(str(action), "the browser's login form (it would get the GM's password)")
            origin.check(page.url, "the browser's login page")
            user_field = None
            for selector in USER_FIELDS:
                candidate = form.locator(selector).first
                if await candidate.count() and await candidate.is_visible():
                    user_field = candidate
                    break
            if user_field is None:
                raise LoginFailed(f"{page.url}: the login form has no user name field")
            await user_field.fill(username)
            await secret.fill(password)
            async with page.expect_navigation(wait_until="load", timeout=wait):
                await secret.press("Enter")
            await page.wait_for_load_state("networkidle", timeout=wait)
            cookies = [dict(c) for c in await context.cookies()]
        except PlaywrightError as exc:
            said = (str(exc).splitlines() or ["no details"])[0].replace(password, "<secret>")
            raise LoginFailed(
                f"{origin}: the browser login did not finish ({type(exc).__name__}: {said})"
            ) from None
        finally:
            await browser.close()
    mine = board_cookies(cookies, origin.host)
    log.info("browser login at %s gave %d cookies", origin, len(mine))
    return mine


def board_cookies(cookies: Sequence[dict[str, Any]], host: str) -> list[dict[str, Any]]:
    """The cookies a browser holds for `host`: set by it or by a domain it belongs to
    ("forum.example.org" takes ".example.org"'s, never "ample.org"'s or another site's)."""
    host = host.lower().rstrip(".")
    mine = []
    for cookie in cookies:
        domain = str(cookie.get("domain", "")).lower().lstrip(".").rstrip(".")
        if domain and (host == domain or host.endswith("." + domain)):
            mine.append(cookie)
    return mine


async def hand_over_session(
    client: httpx.AsyncClient,
    login_url: str,
    username: str,
    password: str,
    *,
    login: BrowserLogin | None = None,
    allow_insecure_http: bool = False,
) -> None:
    """Log in through the browser (`login`, else `browser_login`) and put the board's
    cookies into the adapter's client, with the client's own User-Agent for the browser.
    The adapter then checks, over HTTP, whom the board now serves."""
    cookies = await (login or browser_login)(
        login_url,
        username,
        password,
        user_agent=client.headers.get("User-Agent", ""),
        allow_insecure_http=allow_insecure_http,
    )
    install_cookies(client, cookies)


def install_cookies(client: httpx.AsyncClient, cookies: Sequence[dict[str, Any]]) -> None:
    """Replace the client's cookies with the browser's (the session, any challenge pass)."""
    client.cookies.clear()
    for cookie in cookies:
        client.cookies.set(
            str(cookie["name"]),
            str(cookie["value"]),
            domain=str(cookie.get("domain", "")).lstrip("."),
            path=str(cookie.get("path") or "/"),
        )
