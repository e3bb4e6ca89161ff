"""Logging in with a real browser, for boards that only let one in (any engine).

Some boards put a JavaScript challenge in front of every page or log in through a widget:
an HTTP client alone never gets a session there. With `[board] browser = true` the adapter
calls `browser_login`: Playwright drives the system Chromium (Debian's `chromium`; its own
browser download is not used), opens the board's login page, posts the form that has a
password field, and hands back the board's cookies. The browser is closed before the
function returns, whatever happened; the adapter puts the cookies into its httpx client and
goes on over HTTP, and calls this again when the session expires.

The password goes only to the configured board, and never into a page:

- Every request of the browser goes through `_Gate`, a proxy on 127.0.0.1 that lets
  through only the board's scheme, host and port and refuses anything else before it is
  made — a redirect too (Playwright's routing does not see redirects: a 307 to another host
  would re-send the login POST there), a script's beacon, Chromium's own background calls.
  The context's routing refuses the first request of each too, with the page that made it.
- The password is not typed into the login page, where the board's scripts (or whatever
  got into them) could read it or rewrite the form's action as it is sent: the form's
  fields are read as the page has them, the user name and password set here, and the form
  posted by a navigation of the page to the form's action, the POST body given to Chromium
  directly (never to the page). The answer page runs its scripts as usual (a board may set
  its session cookie there); it never saw the password.
- The form is posted only if its action is on the board (else `ForeignOrigin`), and only as
  a POST; only the cookies of the board's host (or a domain it is part of) are handed to
  httpx, whose client is pinned to the board too. The browser sends the same User-Agent as
  the httpx client, so cookies that a challenge binds to it (Cloudflare's) keep working.

The password field is the first *visible* one: MyBB's pages carry a hidden quick-login
popup with its own password field before the login page's form. The user name field is a
text field of that form (never its submit button: phpBB's is named `login`); the form's
default button goes with the post, as a browser sends it (phpBB logs in only when `login`
is posted).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import shutil
from collections.abc import Awaitable, Callable, Sequence
from typing import Any
from urllib.parse import urlencode, urlsplit

import httpx

from forums.errors import N_, BoardError, LoginFailed
from forums.guard import BoardOrigin, ForeignOrigin, redact

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
PRIVATE_FLAGS = (
    "--proxy-bypass-list=<-loopback>",
    "--dns-prefetch-disable",
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
)
"""For the login: every request through the gate, 127.0.0.1 included (Chromium sends
loopback around a proxy otherwise), no lookups of names it will not fetch, no WebRTC
around the proxy."""
NO_CHROMIUM = N_(
    "[board] browser = true needs Chromium and Playwright for Python: install Debian's "
    "chromium (`apt-get install chromium`, or set {env} to its path) and "
    '`pip install "forumgm[browser]"` (Playwright\'s own browser download is not needed) '
    "(no Chromium at {path})"
)
NO_PLAYWRIGHT = N_(
    "[board] browser = true needs Chromium and Playwright for Python: install Debian's "
    "chromium (`apt-get install chromium`, or set {env} to its path) and "
    '`pip install "forumgm[browser]"` (Playwright\'s own browser download is not needed) '
    "(the playwright package is missing)"
)
USER_NAMES = ("login", "username", "user", "email", "name")
"""Names of the user name field, best first (XenForo's is `login`, phpBB's and MyBB's
`username`); a form with none of them uses its first visible text field."""
READ_FORM = """secret => {
  const form = secret.form;
  if (!form) return null;
  const submitter = form.querySelector(
    'input[type=submit], input[type=image], button[type=submit], button:not([type])');
  let data;
  try { data = new FormData(form, submitter || undefined); } catch (e) { data = new FormData(form); }
  const texts = Array.from(form.querySelectorAll('input')).filter(i =>
    ['', 'text', 'email'].includes((i.getAttribute('type') || '').toLowerCase()) &&
    i.name && i.getClientRects().length > 0);
  return {
    action: new URL(form.getAttribute('action') || '', document.baseURI).href,
    method: (form.getAttribute('method') || 'get').toLowerCase(),
    enctype: (form.getAttribute('enctype') || '').toLowerCase(),
    fields: Array.from(data).filter(([, v]) => typeof v === 'string'),
    password: secret.name,
    texts: texts.map(i => [i.name, (i.getAttribute('autocomplete') || '').toLowerCase()]),
  };
}"""
"""What the login form would send, read from the page (nothing is typed into it): where it
posts to (the attribute, not `form.action`: MyBB's form has an input named "action"), how,
its fields as a browser collects them (the default button's included), the password field's
name and the visible text fields' names."""


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
        return NO_CHROMIUM.format(env=CHROMIUM_ENV, path=CHROMIUM)
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return NO_PLAYWRIGHT.format(env=CHROMIUM_ENV)
    return None


class _Gate:
    """A proxy on 127.0.0.1 that passes only the board's scheme, host and port.

    Chromium sends every request through it (`PRIVATE_FLAGS`): an https request as
    `CONNECT host:port` (the tunnel is opened only to the board; what goes through it is
    TLS the gate cannot read), an http one with its whole URL. Anything else gets a 403
    from the gate and is noted in `refused`; nothing reaches its host."""

    def __init__(self, origin: BoardOrigin) -> None:
        self.origin = origin
        self.refused: list[str] = []
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.sockets[0].getsockname()[1]}"

    async def __aenter__(self) -> _Gate:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def refuse(self, what: str) -> None:
        self.refused.append(redact(what))
        log.warning("browser login: refused %s (not the board %s)", redact(what), self.origin)

    def raise_refused(self, doing: str) -> None:
        if self.refused:
            raise ForeignOrigin(
                N_(
                    "{doing}: the browser was sent to {url}, not to the configured board "
                    "{board}: refused, nothing was sent there (forumgm sends the GM's password "
                    "and session only to the board in [board] url)"
                ).format(doing=doing, url=self.refused[-1], board=self.origin)
            )

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            await self._pass(reader, writer)
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
            pass
        finally:
            writer.close()
            if task is not None:
                self._tasks.discard(task)

    async def _pass(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        line, _, rest = head.partition(b"\r\n")
        method, target, version = line.decode("latin-1").split(" ", 2)
        url = f"https://{target}/" if method == "CONNECT" else target
        parts = urlsplit(url)
        if not parts.hostname or not self.origin.owns(url):
            self.refuse(f"{method} {url if method != 'CONNECT' else target}")
            writer.write(
                b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            )
            await writer.drain()
            return
        upstream_reader, upstream = await asyncio.open_connection(
            parts.hostname, parts.port or (443 if parts.scheme == "https" else 80)
        )
        try:
            if method == "CONNECT":
                writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
            else:
                # One request a connection: the next one, whatever its host, comes to the
                # gate anew (Chromium pools a proxy's connections across hosts).
                path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
                headers = [
                    h
                    for h in rest.split(b"\r\n")
                    if h and h.split(b":", 1)[0].strip().lower() not in _HOP_HEADERS
                ]
                upstream.write(
                    f"{method} {path} {version}\r\n".encode("latin-1")
                    + b"".join(h + b"\r\n" for h in headers)
                    + b"Connection: close\r\n\r\n"
                )
            await asyncio.gather(_pipe(reader, upstream), _pipe(upstream_reader, writer))
        finally:
            upstream.close()


_HOP_HEADERS = frozenset(
    {b"connection", b"proxy-connection", b"keep-alive", b"proxy-authorization"}
)


async def _pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
    with contextlib.suppress(OSError):
        while data := await source.read(65536):
            sink.write(data)
            await sink.drain()
    with contextlib.suppress(OSError):
        sink.close()


def _user_field(texts: Sequence[Sequence[str]], password: str) -> str | None:
    names = [name for name, _ in texts if name != password]
    for wanted in USER_NAMES:
        for name in names:
            if name.lower() == wanted:
                return name
    for name, autocomplete in texts:
        if autocomplete in ("username", "email") and name != password:
            return name
    return names[0] if names else None


def _body(fields: list[tuple[str, str]], enctype: str) -> tuple[str, str]:
    """(content type, body) of a form's fields, as a browser encodes them."""
    if enctype == "multipart/form-data":
        boundary = "----forumgm" + secrets.token_hex(12)
        parts = []
        for name, value in fields:
            quoted = name.replace('"', "%22").replace("\r", "%0D").replace("\n", "%0A")
            parts.append(
                f'--{boundary}\r\nContent-Disposition: form-data; name="{quoted}"\r\n\r\n{value}\r\n'
            )
        return f"multipart/form-data; boundary={boundary}", "".join(parts) + f"--{boundary}--\r\n"
    return "application/x-www-form-urlencoded", urlencode(fields)


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
    from playwright.async_api import Route, async_playwright

    origin = BoardOrigin.parse(login_url, allow_insecure_http=allow_insecure_http)
    chromium = find_chromium()
    wait = int(timeout * 1000)
    async with _Gate(origin) as gate, async_playwright() as driver:
        browser = await driver.chromium.launch(
            executable_path=chromium,
            headless=True,
            args=[*FLAGS, *PRIVATE_FLAGS],
            proxy={"server": gate.url},
        )
        try:
            context = await browser.new_context(user_agent=user_agent or None)

            async def only_the_board(route: Route) -> None:
                url = route.request.url
                if url.startswith(("data:", "blob:", "about:")) or origin.owns(url):
                    await route.fallback()
                else:
                    gate.refuse(f"{route.request.method} {url}")
                    await route.abort("blockedbyclient")

            await context.route("**/*", only_the_board)
            page = await context.new_page()
            await page.goto(login_url, wait_until="load", timeout=wait)
            # A challenge page may run first and reload into the real login page.
            secret = page.locator("input[type=password]:visible").first
            await secret.wait_for(state="visible", timeout=wait)
            origin.check(page.url, "the browser's login page")
            form = await secret.evaluate(READ_FORM)
            if not form:
                raise LoginFailed(
                    N_("{value}: the login page's password field is in no form").format(
                        value=redact(page.url)
                    )
                )
            action = str(form["action"])
            origin.check(action, "the browser's login form (it would get the GM's password)")
            if form["method"] != "post":
                raise LoginFailed(
                    N_(
                        "{url}: the login form sends with {method}: it would put the password "
                        "in a URL"
                    ).format(url=redact(page.url), method=str(form["method"]).upper())
                )
            user = _user_field(form["texts"], str(form["password"]))
            if user is None:
                raise LoginFailed(
                    N_("{value}: the login form has no user name field").format(
                        value=redact(page.url)
                    )
                )
            given = {user: username, str(form["password"]): password}
            fields = [(str(k), given.pop(str(k), str(v))) for k, v in form["fields"]]
            fields += list(given.items())
            content_type, body = _body(fields, str(form["enctype"]))
            posted = asyncio.Event()

            async def post_form(route: Route) -> None:
                request = route.request
                if posted.is_set() or not request.is_navigation_request() or request.url != action:
                    await route.fallback()
                    return
                posted.set()
                headers = {
                    **request.headers,
                    "content-type": content_type,
                    "origin": str(origin),
                    "referer": page.url,
                }
                await route.continue_(method="POST", post_data=body, headers=headers)

            await page.route(lambda url: url == action, post_form)
            await page.goto(action, wait_until="load", timeout=wait)
            await page.wait_for_load_state("networkidle", timeout=wait)
            origin.check(page.url, "the page the browser's login ended on")
            cookies = [dict(c) for c in await context.cookies()]
        except PlaywrightError as exc:
            gate.raise_refused("the browser login")
            said = (str(exc).splitlines() or ["no details"])[0].replace(password, "<secret>")
            raise LoginFailed(
                N_("{origin}: the browser login did not finish ({value}: {said})").format(
                    origin=origin, value=type(exc).__name__, said=said
                )
            ) from None
        finally:
            await browser.close()
    if gate.refused:
        log.info(
            "browser login at %s: %d requests off the board refused", origin, len(gate.refused)
        )
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
