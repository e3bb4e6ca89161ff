"""The polite HTTP side of one phpBB board: one connection pool, a minimum delay, backoff.

Every request of a board goes through one `PhpbbClient`: it spaces requests by
`min_delay`, retries 429/5xx/timeouts with exponential backoff a bounded number of times
(then `BoardUnavailable`), names forumgm in the User-Agent, and carries the session id in
the URL when the board does not take our cookies. It talks only to the configured board
(`forums.guard`: a request or redirect elsewhere is `ForeignOrigin`, nothing sent), never
logs request bodies (the login POST carries the password) and logs URLs with the session id
masked.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from email.utils import parsedate_to_datetime
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

import httpx

from forums.errors import BoardUnavailable
from forums.guard import BoardOrigin, redact

log = logging.getLogger("forums.phpbb")

USER_AGENT = "forumgm/0.1 (forum mafia game master; +https://github.com/forumgm/forumgm)"

Sleep = Callable[[float], Awaitable[None]]
Monotonic = Callable[[], float]

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504, 520, 521, 522, 523, 524})
# A POST that reached the server may have been processed: retry it only when the board
# said outright that it did not take it (429, 503) or the connection never opened.
POST_RETRY_STATUSES = frozenset({429, 503})

__all__ = ["PhpbbClient", "redact"]


class PhpbbClient:
    """HTTP for one board. `client` may be injected (tests pass one backed by respx)."""

    def __init__(
        self,
        base_url: str,
        *,
        client: httpx.AsyncClient | None = None,
        min_delay: float = 1.0,
        max_tries: int = 4,
        backoff: float = 2.0,
        max_backoff: float = 60.0,
        timeout: float = 30.0,
        sleep: Sleep | None = None,
        monotonic: Monotonic | None = None,
        user_agent: str = USER_AGENT,
        allow_insecure_http: bool = False,
    ) -> None:
        if max_tries < 1:
            raise ValueError("max_tries must be at least 1")
        self.base_url = base_url.rstrip("/") + "/"
        self.origin = BoardOrigin.parse(self.base_url, allow_insecure_http=allow_insecure_http)
        self._owns_client = client is None
        self.http = self.origin.pin(client or httpx.AsyncClient(timeout=timeout))
        self.http.headers["User-Agent"] = user_agent
        self.min_delay = min_delay
        self.max_tries = max_tries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self._sleep: Sleep = sleep or asyncio.sleep
        self._monotonic: Monotonic = monotonic or time.monotonic
        self._last_request: float | None = None
        self._lock = asyncio.Lock()
        self.sid: str | None = None
        self.sid_in_urls = False
        """Set when the board's links carry `sid=`: it does not read our cookies."""
        self.requests = 0

    def __repr__(self) -> str:
        return f"PhpbbClient({self.base_url!r})"

    def url(self, path: str, params: Mapping[str, str | int] | None = None) -> str:
        """An absolute URL on the board, with the session id when the board wants it."""
        absolute = urljoin(self.base_url, path)
        parts = urlsplit(absolute)
        query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "sid"]
        query += [(k, str(v)) for k, v in (params or {}).items()]
        if self.sid_in_urls and self.sid:
            query.append(("sid", self.sid))
        return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(query), ""))

    async def sleep(self, seconds: float) -> None:
        if seconds > 0:
            await self._sleep(seconds)

    def now(self) -> float:
        return self._monotonic()

    async def get(self, url: str) -> httpx.Response:
        """GET, following redirects."""
        return await self.request("GET", url, follow_redirects=True)

    async def post(self, url: str, data: Mapping[str, str]) -> httpx.Response:
        """POST a form, not following redirects (a reply's 302 names the new post)."""
        return await self.request("POST", url, data=data, follow_redirects=False)

    async def request(
        self,
        method: str,
        url: str,
        *,
        data: Mapping[str, str] | None = None,
        follow_redirects: bool,
    ) -> httpx.Response:
        retry_statuses = RETRY_STATUSES if method == "GET" else POST_RETRY_STATUSES
        problem = ""
        for attempt in range(1, self.max_tries + 1):
            await self._space()
            try:
                response = await self.http.request(
                    method, url, data=data, follow_redirects=follow_redirects
                )
            except (httpx.TimeoutException, httpx.TransportError) as error:
                sent = not isinstance(error, httpx.ConnectError | httpx.ConnectTimeout)
                problem = f"{type(error).__name__}"
                log.warning(
                    "%s %s: %s (try %d/%d)", method, redact(url), problem, attempt, self.max_tries
                )
                if method != "GET" and sent:
                    break
                wait = self._backoff(attempt)
            else:
                self.requests += 1
                log.debug("%s %s -> %d", method, redact(url), response.status_code)
                self._note_sid(response)
                if response.status_code in retry_statuses:
                    pass
                elif response.status_code in RETRY_STATUSES:
                    # A POST the board may have processed: never sent twice.
                    raise BoardUnavailable(
                        f"{method} {redact(url)}: HTTP {response.status_code} "
                        "(not repeated: the board may have taken it)"
                    )
                else:
                    return response
                problem = f"HTTP {response.status_code}"
                log.warning(
                    "%s %s: %s (try %d/%d)", method, redact(url), problem, attempt, self.max_tries
                )
                wait = max(self._backoff(attempt), self._retry_after(response))
            if attempt < self.max_tries:
                await self.sleep(wait)
        raise BoardUnavailable(
            f"{method} {redact(url)}: {problem} after {attempt} tr{'y' if attempt == 1 else 'ies'}"
        )

    async def _space(self) -> None:
        async with self._lock:
            if self._last_request is not None:
                await self.sleep(self._last_request + self.min_delay - self._monotonic())
            self._last_request = self._monotonic()

    def _backoff(self, attempt: int) -> float:
        return float(min(self.max_backoff, self.backoff * 2 ** (attempt - 1)))

    def _retry_after(self, response: httpx.Response) -> float:
        value = response.headers.get("Retry-After", "").strip()
        if not value:
            return 0.0
        if value.isdigit():
            return float(min(int(value), self.max_backoff))
        try:
            when = parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return 0.0
        date = response.headers.get("Date")
        try:
            server_now = parsedate_to_datetime(date) if date else None
        except (TypeError, ValueError):
            server_now = None
        if server_now is None:
            return 0.0
        return max(0.0, min((when - server_now).total_seconds(), self.max_backoff))

    def _note_sid(self, response: httpx.Response) -> None:
        for name, value in response.cookies.items():
            if name.endswith("_sid") and value:
                self.sid = value

    async def aclose(self) -> None:
        if self._owns_client:
            await self.http.aclose()
