"""Who may use the dashboard: host login, the session, CSRF tokens, the login throttle.

The session is a signed cookie (Starlette's SessionMiddleware: itsdangerous, HttpOnly,
SameSite=Strict, Secure when served over HTTPS) holding the session's CSRF token and, once
the host logged in, a random session token. The store keeps only the token's SHA-256
(`dashboard_sessions`): a session is valid while its row is there, for 12 hours, and while
the host's password has not changed since the login (`forumgm host set-password` ends older
sessions). Logging out deletes the row, so a copy of the cookie saved before is worth
nothing after. Every POST must carry the session's CSRF token in its form (else 403), and a
request whose Origin names another site is refused too.

Wrong passwords slow down the client that sends them, and nobody else (`LoginLimiter`).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from urllib.parse import urlsplit

from starlette.datastructures import FormData
from starlette.requests import Request

from engine.host_password import check_password, hash_password
from engine.store import Store
from engine.store.models import utcnow

SESSION_COOKIE = "forumgm_session"
SESSION_KEY_SETTING = "dashboard_session_key"
SESSION_HOURS = 12
SESSION_TOKEN = "sid"
CSRF_FIELD = "csrf"


@cache
def _dummy_hash() -> str:
    """A hash checked for a name that is no account, so that costs what a wrong password does."""
    return hash_password(secrets.token_hex(16))


class CsrfRefused(Exception):
    """A POST without the session's CSRF token, or from another site's page."""


def session_secret(store: Store) -> str:
    """The key session cookies are signed with: made once per store and kept there."""
    secret = store.setting(SESSION_KEY_SETTING, default_token=32)
    assert secret is not None  # made by the call when missing
    return secret


def csrf_token(request: Request) -> str:
    """The session's CSRF token (made on first use: the login form needs one too)."""
    token = request.session.get(CSRF_FIELD)
    if not isinstance(token, str) or len(token) < 32:
        token = secrets.token_urlsafe(32)
        request.session[CSRF_FIELD] = token
    return token


def check_csrf(request: Request, form: FormData) -> None:
    """Raise `CsrfRefused` unless the form carries this session's token, sent from our page."""
    origin = request.headers.get("origin")
    if origin is not None and origin != "null":
        try:
            netloc = urlsplit(origin).netloc
        except ValueError:  # not an address ("http://["): no page of ours sends it
            netloc = None
        if netloc is None or netloc.lower() != request.headers.get("host", "").lower():
            raise CsrfRefused("the form was sent from another site")
    expected = request.session.get(CSRF_FIELD)
    given = form.get(CSRF_FIELD)
    if not isinstance(expected, str) or not isinstance(given, str) or not expected:
        raise CsrfRefused("the form has no valid CSRF token (reload the page and try again)")
    if not hmac.compare_digest(expected.encode(), given.encode()):
        raise CsrfRefused("the form has no valid CSRF token (reload the page and try again)")


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def logged_in_host(request: Request, store: Store) -> str | None:
    """The host this request's session belongs to, or None (and the session is emptied)."""
    token = request.session.get(SESSION_TOKEN)
    if not isinstance(token, str):
        return None
    name = store.dashboard_session_host(_token_hash(token), utcnow())
    if name is None:
        request.session.clear()
    return name


def verify_login(store: Store, name: str, password: str) -> bool:
    """Whether `name` is a host account and `password` its password (same cost either way)."""
    account = store.host_account(name) if name else None
    ok = check_password(password, account.password_hash if account else _dummy_hash())
    return ok and account is not None


def start_session(request: Request, store: Store, name: str) -> None:
    """A fresh session for `name`, kept in the store: nothing from before the login is kept
    (a new CSRF token)."""
    request.session.clear()
    token = secrets.token_urlsafe(32)
    now = utcnow()
    expires = now + timedelta(hours=SESSION_HOURS)
    store.start_dashboard_session(
        name, _token_hash(token), client=client_address(request), now=now, expires_at=expires
    )
    request.session[SESSION_TOKEN] = token
    csrf_token(request)


def end_session(request: Request, store: Store) -> None:
    """Log out: the session's row goes from the store, whatever copies of the cookie exist."""
    token = request.session.get(SESSION_TOKEN)
    if isinstance(token, str):
        store.end_dashboard_session(_token_hash(token))
    request.session.clear()


def client_address(request: Request) -> str:
    """The address the request came from: the connection's, or what a proxy the host named
    (`--proxy`) says it is; never a header anyone else sent."""
    return request.client.host if request.client is not None else "unknown"


def client_key(request: Request) -> str:
    """The client the throttle counts for: its address, or its /64 for IPv6 (one machine
    usually holds a whole /64)."""
    address = client_address(request)
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return f"{ipaddress.IPv6Address(int(ip) >> 64 << 64)}/64"
    return str(ip)


class TooSoon(Exception):
    """A login attempt from a client that must wait longer than the dashboard holds one."""

    def __init__(self, wait: float) -> None:
        super().__init__(f"wait {wait:.0f} s")
        self.wait = wait


@dataclass
class LoginLimiter:
    """Wrong passwords slow down the client that sends them, and nobody else.

    A client's first `free` attempts are checked at once. From then on its attempts are
    checked one at a time, spaced 1 s, 2 s, 4 s … apart, at most `longest`; the right
    password from it forgets them, and so does an hour without an attempt. An attempt that
    comes sooner waits for its turn when that is at most `hold` away (the answer is slow, not
    refused), else it is refused with the time left (429). Nothing is counted per account:
    a stranger's wrong passwords never slow down the host at another address. The counts are
    in the store, so restarting the dashboard forgets nothing.
    """

    store: Store
    free: int = 5
    longest: float = 300.0
    hold: float = 10.0
    forget: float = 3600.0
    clock: Callable[[], datetime] = utcnow

    def spacing(self, attempts: int) -> timedelta:
        """Between the check of a client's `attempts`-th attempt and its next one."""
        if attempts < self.free:
            return timedelta(0)
        return timedelta(seconds=min(2.0 ** min(attempts - self.free, 30), self.longest))

    def admit(self, client: str) -> float:
        """Seconds to wait before checking this attempt (at most `hold`); `TooSoon` if longer.
        The attempt counts as a wrong one until `succeeded`."""
        wait, reserved = self.store.reserve_login_check(
            client,
            self.clock(),
            spacing=self.spacing,
            hold=timedelta(seconds=self.hold),
            forget=timedelta(seconds=self.forget),
        )
        if not reserved:
            raise TooSoon(wait.total_seconds())
        return wait.total_seconds()

    def succeeded(self, client: str) -> None:
        self.store.login_was_right(client)
