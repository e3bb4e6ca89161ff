"""Who may use the dashboard: host login, the session, CSRF tokens, login rate limiting.

The session is a signed cookie (Starlette's SessionMiddleware: itsdangerous, HttpOnly,
SameSite=Strict) holding the host's name, when they logged in and the session's CSRF token.
It is valid while the host account exists and its password has not changed since the login
(`forumgm host set-password` ends older sessions). Every POST must carry the session's CSRF
token in its form (else 403), and a request whose Origin names another site is refused too.
"""

from __future__ import annotations

import hmac
import secrets
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from urllib.parse import urlsplit

from starlette.datastructures import FormData
from starlette.requests import Request

from engine.host_password import check_password, hash_password
from engine.store import Store

SESSION_COOKIE = "forumgm_session"
SESSION_KEY_SETTING = "dashboard_session_key"
SESSION_HOURS = 12
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


def logged_in_host(request: Request, store: Store) -> str | None:
    """The host this request's session belongs to, or None (and the session is emptied)."""
    name, at = request.session.get("host"), request.session.get("at")
    if not isinstance(name, str) or not isinstance(at, int | float):
        return None
    account = store.host_account(name)
    expired = time.time() - at > SESSION_HOURS * 3600
    if account is None or expired or at < account.password_set_at.timestamp():
        request.session.clear()
        return None
    return name


def verify_login(store: Store, name: str, password: str) -> bool:
    """Whether `name` is a host account and `password` its password (same cost either way)."""
    account = store.host_account(name) if name else None
    ok = check_password(password, account.password_hash if account else _dummy_hash())
    return ok and account is not None


def start_session(request: Request, name: str) -> None:
    """A fresh session for `name`: nothing from before the login is kept (a new CSRF token)."""
    request.session.clear()
    request.session.update({"host": name, "at": time.time()})
    csrf_token(request)


@dataclass
class LoginLimiter:
    """At most `attempts` failed logins per `window` seconds for one client address and for one
    account name; past that, logins from there (or to it) are refused without a check until
    the oldest failure is older than the window."""

    attempts: int = 5
    window: float = 600.0
    clock: Callable[[], float] = time.monotonic
    _failures: dict[str, deque[float]] = field(default_factory=dict)

    def _recent(self, key: str) -> deque[float]:
        times = self._failures.setdefault(key, deque())
        now = self.clock()
        while times and now - times[0] >= self.window:
            times.popleft()
        if not times:
            del self._failures[key]
            return deque()
        return times

    def wait(self, keys: Iterable[str]) -> float:
        """Seconds until a login may be tried for every one of `keys` (0: now)."""
        longest = 0.0
        for key in keys:
            times = self._recent(key)
            if len(times) >= self.attempts:
                longest = max(longest, self.window - (self.clock() - times[0]))
        return longest

    def failed(self, keys: Iterable[str]) -> None:
        now = self.clock()
        for key in keys:
            self._failures.setdefault(key, deque()).append(now)
            while len(self._failures[key]) > self.attempts:
                self._failures[key].popleft()

    def succeeded(self, keys: Iterable[str]) -> None:
        for key in keys:
            self._failures.pop(key, None)


def limiter_keys(request: Request, name: str) -> tuple[str, str]:
    client = request.client.host if request.client is not None else "unknown"
    return f"client:{client}", f"account:{name.strip().casefold()}"
