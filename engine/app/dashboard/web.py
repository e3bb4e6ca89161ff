"""The dashboard as an ASGI app (Starlette): pages, forms, the host's session, safe headers,
the host names it answers, and the proxy it trusts (if the host named one)."""

from __future__ import annotations

import asyncio
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, tzinfo
from math import ceil
from typing import Any, cast

import jinja2
from starlette.applications import Starlette
from starlette.datastructures import FormData
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from engine import i18n
from engine.app.dashboard import guard
from engine.app.dashboard.actions import ACTIONS, FormError
from engine.app.dashboard.hostnames import HostCheck, HostNames
from engine.app.dashboard.pages import TEMPLATE_WORDS, GamePage, game_title, games_rows
from engine.app.review import Review, ReviewError, detail_words, host_word
from engine.clock import local_time
from engine.i18n import _, phase_name
from engine.service.driver import GameDriver
from engine.store import Store

VIA = "dashboard"
SENT_FORMS_KEPT = 2000
"""How many host commands' form tokens the dashboard remembers (a form older than that is
refused by the rules alone, as from the CLI)."""
PAGE_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
PICTURE_POLICY = "default-src 'none'; style-src 'unsafe-inline'"
REPORT_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"
"""The game report is one page with its CSS inside and no script: it may style itself only."""
"""An SVG opened on its own may style itself, and nothing else (no scripts, no fetches)."""

_templates = jinja2.Environment(
    loader=jinja2.PackageLoader("engine.app.dashboard", "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)
_templates.globals.update(TEMPLATE_WORDS)


class SafeHeaders:
    """Headers every answer carries: no framing, no sniffing, no referrer, a strict CSP."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_wrapper(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {k.lower() for k, _ in headers}
                extra = {
                    b"content-security-policy": PAGE_POLICY.encode(),
                    b"x-frame-options": b"DENY",
                    b"x-content-type-options": b"nosniff",
                    b"referrer-policy": b"no-referrer",
                    b"cache-control": b"no-store",
                }
                headers += [(k, v) for k, v in extra.items() if k not in present]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_wrapper)


class Speaking:
    """Each request is answered in the host's language (`Dashboard.language`)."""

    def __init__(self, app: ASGIApp, choose: Callable[[Request], str]) -> None:
        self.app = app
        self.choose = choose

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        with i18n.use(self.choose(Request(scope))):
            await self.app(scope, receive, send)


class Sessions:
    """Starlette's signed-cookie sessions, with the cookie marked `Secure` on a request that
    came over HTTPS (TLS, or a proxy the host named that says https): a browser then never
    sends it over plain HTTP."""

    def __init__(self, app: ASGIApp, /, **options: Any) -> None:
        self.plain = SessionMiddleware(app, **options)
        self.https = SessionMiddleware(app, https_only=True, **options)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        chosen = self.https if scope.get("scheme") in ("https", "wss") else self.plain
        await chosen(scope, receive, send)


@dataclass
class Flashes:
    """What each session's next page says about the form it sent, kept here and not in the
    session's cookie: a message may echo what the host typed, and a browser drops a cookie
    over 4 KB, and the message with it. Keyed by the session's CSRF token (its own, random)."""

    most: int = 10
    """Messages kept per session until its next page (a script posting without reading)."""
    _kept: dict[str, list[tuple[str, str, str]]] = field(default_factory=dict)

    def add(self, session: str, kind: str, text: str, back: str = "") -> None:
        """A message for the next page, shown at `back` (the anchor of the part of the page
        the form was in, which the browser scrolls to) when the page has it, else on top."""
        kept = self._kept.setdefault(session, [])
        kept.append((kind, text, back))
        del kept[: -self.most]

    def take(self, session: str) -> list[tuple[str, str, str]]:
        return self._kept.pop(session, [])


@dataclass
class Dashboard:
    """The games a dashboard serves, over one store."""

    store: Store
    drivers: list[GameDriver]
    limiter: guard.LoginLimiter | None = None
    """The login throttle (by default over `store`, with its usual spacing)."""
    host_names: HostNames = field(default_factory=HostNames)
    proxies: tuple[str, ...] = ()
    """Addresses (or networks) of the reverse proxy in front: only a request from one of them
    has its client address and scheme read from X-Forwarded-For and X-Forwarded-Proto."""
    flashes: Flashes = field(default_factory=Flashes)
    lang: str | None = None
    """The host's language (`--lang`, FORUMGM_LANG); None: the browser's, else the games'."""
    _locks: dict[int, asyncio.Lock] = field(default_factory=dict)
    _sent: OrderedDict[tuple[str, ...], None] = field(default_factory=OrderedDict)

    def __post_init__(self) -> None:
        if self.lang is None:
            self.lang = i18n.chosen() or i18n.from_env()
        if self.limiter is None:
            self.limiter = guard.LoginLimiter(self.store)

    def language(self, request: Request) -> str:
        """The language a request is answered in: the host's `lang` when he named one, else
        the first of ours the browser asks for (Accept-Language), else the language of the
        games served (when they share one), else English."""
        if self.lang is not None:
            return self.lang
        asked = i18n.from_accept_language(request.headers.get("accept-language"))
        if asked is not None:
            return asked
        return i18n.languages_of(d.config.language for d in self.drivers) or i18n.DEFAULT

    def driver(self, request: Request) -> GameDriver | None:
        game_id = request.path_params.get("game_id")
        return next((d for d in self.drivers if d.game_id == game_id), None)

    def lock(self, game_id: int) -> asyncio.Lock:
        """One host decision at a time per game (two tabs, two hosts)."""
        return self._locks.setdefault(game_id, asyncio.Lock())

    # -- rendering ------------------------------------------------------------------------

    def page(
        self, request: Request, template: str, status_code: int = 200, **context: Any
    ) -> HTMLResponse:
        csrf = guard.csrf_token(request)
        html = _templates.get_template(template).render(
            csrf=csrf,
            once=secrets.token_urlsafe(16),
            host=context.pop("host", None),
            flashes=self.flashes.take(csrf),
            placed=context.pop("placed", frozenset()),
            lang=i18n.current(),
            **context,
        )
        return HTMLResponse(html, status_code=status_code)

    def flash(self, request: Request, kind: str, text: str, back: str = "") -> None:
        self.flashes.add(guard.csrf_token(request), kind, text, back)

    # -- pages ----------------------------------------------------------------------------

    def host_or_login(self, request: Request) -> str | Response:
        host = guard.logged_in_host(request, self.store)
        if host is not None:
            return host
        target = request.url.path
        return RedirectResponse(f"/login?next={target}", status_code=303)

    async def home(self, request: Request) -> Response:
        host = self.host_or_login(request)
        if isinstance(host, Response):
            return host
        return self.page(request, "games.html.j2", host=host, games=games_rows(self.drivers))

    async def game(self, request: Request) -> Response:
        host = self.host_or_login(request)
        if isinstance(host, Response):
            return host
        driver = self.driver(request)
        if driver is None:
            return self.page(request, "missing.html.j2", 404, host=host)
        g = GamePage(Review(driver, by=host, via=VIA))
        return self.page(request, "game.html.j2", host=host, g=g, placed=g.places())

    async def picture(self, request: Request) -> Response:
        host = self.host_or_login(request)
        if isinstance(host, Response):
            return host
        driver = self.driver(request)
        svg = Review(driver, by=host, via=VIA).host_picture() if driver else None
        if svg is None:
            return PlainTextResponse(_("this game has no picture"), status_code=404)
        headers = {"content-security-policy": PICTURE_POLICY}
        return Response(svg, media_type="image/svg+xml", headers=headers)

    async def report(self, request: Request) -> Response:
        """The game's report page (`forumgm report`): everything, or `?public=1`."""
        host = self.host_or_login(request)
        if isinstance(host, Response):
            return host
        driver = self.driver(request)
        if driver is None:
            return self.page(request, "missing.html.j2", 404, host=host)
        from engine.report import report_html

        public = request.query_params.get("public") == "1"
        html = report_html(driver.store, driver.game_id, public=public, now=driver.clock())
        return HTMLResponse(html, headers={"content-security-policy": REPORT_POLICY})

    async def log(self, request: Request) -> Response:
        host = self.host_or_login(request)
        if isinstance(host, Response):
            return host
        driver = self.driver(request)
        if "game_id" in request.path_params and driver is None:
            return self.page(request, "missing.html.j2", 404, host=host)
        zones = {d.game_id: d.config.schedule.tz for d in self.drivers}
        if driver is not None:
            entries = Review(driver, by=host, via=VIA).log()
            title = game_title(driver)
            zone: tzinfo = driver.config.schedule.tz
        else:
            entries, title = self.store.host_actions(None), _("every game")
            # An entry of no game (a login) in the games' zone when they share one, else UTC.
            shared = {str(z): z for z in zones.values()}
            zone = next(iter(shared.values())) if len(shared) == 1 else UTC
        rows = [
            {
                "at": local_time(e.at, zones.get(e.game_id or 0, zone)),
                "by": e.by,
                "via": e.via,
                "game": e.game_id,
                "phase": phase_name(e.phase) if e.phase else "",
                "action": host_word(e.action),
                "detail": detail_words(e.detail, zones.get(e.game_id or 0, zone)),
            }
            for e in entries
        ]
        return self.page(
            request, "log.html.j2", host=host, title=title, rows=rows, driver=driver, zone=str(zone)
        )

    # -- login ----------------------------------------------------------------------------

    async def login_form(self, request: Request) -> Response:
        if guard.logged_in_host(request, self.store) is not None:
            return RedirectResponse(_next(request.query_params.get("next")), status_code=303)
        return self.page(
            request, "login.html.j2", next=_next(request.query_params.get("next")), error=None
        )

    async def login(self, request: Request, form: FormData) -> Response:
        name = _printable(str(form.get("name") or "").strip()[:200])
        password = str(form.get("password") or "")
        target = _next(str(form.get("next") or ""))
        limiter, client = self.limiter, guard.client_key(request)
        assert limiter is not None  # made in __post_init__
        try:
            waited = limiter.admit(client)
        except guard.TooSoon as soon:
            wait = max(1, ceil(soon.wait))
            detail = {**_client(request), "wait": f"{wait} s"}
            self.store.record_action("login_refused", by=name or "?", via=VIA, detail=detail)
            response = self.page(
                request,
                "login.html.j2",
                429,
                next=target,
                error=_("Too many wrong passwords from your address: try again in {wait}.").format(
                    wait=_span(wait)
                ),
            )
            response.headers["retry-after"] = str(wait)
            return response
        if waited > 0:  # slowed down, not refused: the right password still gets in
            await asyncio.sleep(waited)
        detail = {**_client(request), **({"waited": f"{waited:.1f} s"} if waited > 0 else {})}
        if not guard.verify_login(self.store, name, password):
            self.store.record_action("login_failed", by=name or "?", via=VIA, detail=detail)
            return self.page(
                request, "login.html.j2", 401, next=target, error=_("Wrong name or password.")
            )
        limiter.succeeded(client)
        guard.start_session(request, self.store, name)
        self.store.record_action("login", by=name, via=VIA, detail=detail)
        return RedirectResponse(target, status_code=303)

    async def logout(self, request: Request, form: FormData, host: str) -> Response:
        self.store.record_action("logout", by=host, via=VIA, detail=_client(request))
        guard.end_session(request, self.store)
        return RedirectResponse("/login", status_code=303)

    # -- decisions ------------------------------------------------------------------------

    async def act(self, request: Request, form: FormData, host: str) -> Response:
        driver = self.driver(request)
        action = ACTIONS.get(request.path_params["action"])
        if driver is None or action is None:
            return PlainTextResponse(_("no such game or action"), status_code=404)
        rv = Review(driver, by=host, via=VIA)
        back = str(form.get("back") or "")
        back = back if back.replace("-", "").isalnum() else ""
        async with self.lock(driver.game_id):
            sent = self._sent_before(request.path_params["action"], form)
            try:
                if sent is None:
                    raise FormError(
                        _(
                            "this form was sent already and is done: nothing was done again "
                            "(the page below shows the game as it is now)"
                        )
                    )
                self.flash(request, "ok", await action(rv, form), back)
                if sent:
                    self._sent[sent] = None
                    while len(self._sent) > SENT_FORMS_KEPT:
                        self._sent.popitem(last=False)
            except (ReviewError, FormError) as exc:
                self.flash(request, "error", str(exc), back)
        # Back where the form was: the page shows the message there (`Flashes.add`).
        anchor = f"#{back}" if back else ""
        return RedirectResponse(f"/games/{driver.game_id}{anchor}", status_code=303)

    def _sent_before(self, action: str, form: FormData) -> tuple[str, ...] | None:
        """A host command's form carries a token made with its page (`once`): the same form
        sent twice (a double click, a reload that posts again) is refused the second time,
        or the players would read its post twice. None: sent and done already; () for a
        form with no token (a decision the rules refuse twice on their own)."""
        once = form.get("once")
        if not action.startswith("steer-") or not isinstance(once, str) or not once:
            return ()
        key = (action, once)
        return None if key in self._sent else key

    # -- the app --------------------------------------------------------------------------

    def app(self) -> Starlette:
        routes = [
            Route("/", self.home),
            Route("/login", self.login_form, methods=["GET"]),
            Route("/login", form_endpoint(self, self.login, need_host=False), methods=["POST"]),
            Route("/logout", form_endpoint(self, self.logout), methods=["POST"]),
            Route("/log", self.log),
            Route("/games/{game_id:int}", self.game),
            Route("/games/{game_id:int}/log", self.log),
            Route("/games/{game_id:int}/picture.svg", self.picture),
            Route("/games/{game_id:int}/report", self.report, methods=["GET"]),
            Route("/games/{game_id:int}/{action}", form_endpoint(self, self.act), methods=["POST"]),
            Mount("/static", StaticFiles(packages=[("engine.app.dashboard", "static")])),
        ]
        middleware = [
            Middleware(SafeHeaders),
            Middleware(Speaking, choose=self.language),
            Middleware(HostCheck, names=self.host_names),
            Middleware(
                Sessions,
                secret_key=guard.session_secret(self.store),
                session_cookie=guard.SESSION_COOKIE,
                max_age=guard.SESSION_HOURS * 3600,
                same_site="strict",
            ),
        ]
        if self.proxies:  # outermost: the client and scheme are the proxy's word from here on
            middleware.insert(0, Middleware(_Proxied, trusted_hosts=list(self.proxies)))
        return Starlette(routes=routes, middleware=middleware)


def form_endpoint(
    dash: Dashboard, handler: Callable[..., Awaitable[Response]], *, need_host: bool = True
) -> Callable[[Request], Awaitable[Response]]:
    """A POST endpoint: refused (403) without this session's CSRF token or, where a host is
    needed, without a logged-in host; else `handler(request, form[, host])`."""

    async def endpoint(request: Request) -> Response:
        form = await request.form(max_files=0, max_fields=50)
        try:
            guard.check_csrf(request, form)
        except guard.CsrfRefused as exc:
            return PlainTextResponse(_("Refused: {why}").format(why=exc), status_code=403)
        if not need_host:
            return await handler(request, form)
        host = guard.logged_in_host(request, dash.store)
        if host is None:
            return PlainTextResponse(_("Refused: log in first"), status_code=403)
        return await handler(request, form, host)

    return endpoint


def _next(target: str | None) -> str:
    """Where to go after logging in: one of our own pages (never another site)."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    return target


def _printable(text: str) -> str:
    """`text` with each character no name is written with (NUL, other controls) as U+FFFD:
    PostgreSQL refuses NUL in a query and a row, and the audit log says what was typed."""
    return "".join(ch if ch.isprintable() else "\ufffd" for ch in text)


def _client(request: Request) -> dict[str, str]:
    return {"client": guard.client_address(request)}


def _span(seconds: int) -> str:
    if seconds < 90:
        return _("{n} s").format(n=seconds)
    return _("{n} min").format(n=round(seconds / 60))


class _Proxied:
    """uvicorn's reading of X-Forwarded-For and X-Forwarded-Proto, for requests from the
    proxy addresses the host named only (uvicorn itself runs with proxy headers off, so that
    its default trust of 127.0.0.1 and $FORWARDED_ALLOW_IPS never applies)."""

    def __init__(self, app: ASGIApp, trusted_hosts: list[str]) -> None:
        self.inner = ProxyHeadersMiddleware(cast(Any, app), trusted_hosts=trusted_hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.inner(cast(Any, scope), cast(Any, receive), cast(Any, send))
