"""The polite, pinned HTTP side of one board, for every engine: `BoardClient`.

Every request an adapter makes goes through one `BoardClient`:

- only to the configured board (`forums.guard.BoardOrigin` pins the httpx client: a request
  or a redirect anywhere else is `ForeignOrigin`, nothing sent), naming forumgm in the
  User-Agent, never logging request bodies (the login POST carries the password), logging
  URLs with session ids masked;
- spaced by `min_delay`, at most `max_in_flight` at once, 429/5xx/timeouts retried with
  exponential backoff (and the board's `Retry-After`) a bounded number of times, then
  `BoardUnavailable`; a POST the board may have taken is never sent twice;
- bounded against a broken or hostile board: one exchange (redirects and body included)
  has an overall `deadline` (httpx's timeout is per read: a board that drips a byte every
  few seconds never trips it), an answer is read only up to `max_bytes` (decoded, so a
  compressed bomb is cut too) and a redirect loop ends after `max_redirects`, each with one
  line that says so (`TooSlow`, `AnswerTooLarge`, `RedirectLoop`), not retried.

One `BoardClient` is one board's connection pool and cookie jar: the object several boards
(games) on one board and GM account can hold together; whoever made it closes it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from email.utils import parsedate_to_datetime
from typing import Any
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

import httpx

from forums.errors import N_, BoardUnavailable
from forums.guard import BoardOrigin, redact

log = logging.getLogger("forums.client")

USER_AGENT = "forumgm/0.1 (forum mafia game master; +https://github.com/forumgm/forumgm)"

Sleep = Callable[[float], Awaitable[None]]
Monotonic = Callable[[], float]

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504, 520, 521, 522, 523, 524})
# A POST that reached the server may have been processed: retry it only when the board
# said outright that it did not take it (429, 503) or the connection never opened.
POST_RETRY_STATUSES = frozenset({429, 503})

DEADLINE = 60.0
"""Seconds one exchange may take, whole: a thread page or a login comes in a few."""
MAX_BYTES = 16 * 1024 * 1024
"""The largest answer read: a page of 50 posts of phpBB's longest (60,000 Cyrillic
characters, 2 bytes each) is 6 MB with its markup; a 300 MB page is a broken board."""
MAX_IN_FLIGHT = 2
"""Requests one board may have open at once, whoever sends them."""
MAX_REDIRECTS = 10

__all__ = [
    "DEADLINE",
    "MAX_BYTES",
    "USER_AGENT",
    "AnswerTooLarge",
    "BoardClient",
    "RedirectLoop",
    "Sleep",
    "TooSlow",
    "redact",
]


class TooSlow(BoardUnavailable):
    """The board did not finish an answer within the deadline (it may still be sending)."""


class AnswerTooLarge(BoardUnavailable):
    """The board's answer is larger than any page, PM or API answer forumgm reads."""


class RedirectLoop(BoardUnavailable):
    """The board sent us round in redirects (often a misconfigured URL: http↔https, www)."""


def _size(count: int) -> str:
    return f"{count / 1024 / 1024:.0f} MiB" if count >= 1024 * 1024 else f"{count} bytes"


class BoardClient:
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
        deadline: float = DEADLINE,
        max_bytes: int = MAX_BYTES,
        max_in_flight: int = MAX_IN_FLIGHT,
        max_redirects: int = MAX_REDIRECTS,
        sleep: Sleep | None = None,
        monotonic: Monotonic | None = None,
        user_agent: str = USER_AGENT,
        allow_insecure_http: bool = False,
    ) -> None:
        if max_tries < 1 or max_in_flight < 1:
            raise ValueError("max_tries and max_in_flight must be at least 1")
        self.base_url = base_url.rstrip("/") + "/"
        self.origin = BoardOrigin.parse(self.base_url, allow_insecure_http=allow_insecure_http)
        self._owns_client = client is None
        self.http = self.origin.pin(client or httpx.AsyncClient(timeout=timeout))
        self.http.headers["User-Agent"] = user_agent
        self.min_delay = min_delay
        self.max_tries = max_tries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.deadline = deadline
        self.max_bytes = max_bytes
        self.max_redirects = max_redirects
        self._sleep: Sleep = sleep or asyncio.sleep
        self._monotonic: Monotonic = monotonic or time.monotonic
        self._last_request: float | None = None
        self._lock = asyncio.Lock()
        self._in_flight = asyncio.Semaphore(max_in_flight)
        self.requests = 0

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.base_url!r})"

    session_params: tuple[str, ...] = ()
    """Query parameters that carry a session (phpBB's `sid`): dropped from a path given,
    added back by `session_query` where the board wants them."""

    def url(self, path: str, params: Mapping[str, str | int] | None = None) -> str:
        """An absolute URL on the board, `params` added to its query (and the session's)."""
        parts = urlsplit(urljoin(self.base_url, path))
        query = [
            (k, v)
            for k, v in parse_qsl(parts.query, keep_blank_values=True)
            if k not in self.session_params
        ]
        query += [(k, str(v)) for k, v in (params or {}).items()]
        query += self.session_query()
        return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(query), ""))

    def session_query(self) -> list[tuple[str, str]]:
        """Hook: the session's query parameters for the next URL (none: cookies carry it)."""
        return []

    async def sleep(self, seconds: float) -> None:
        if seconds > 0:
            await self._sleep(seconds)

    def now(self) -> float:
        return self._monotonic()

    async def get(self, url: str) -> httpx.Response:
        """GET, following redirects (on the board only)."""
        return await self.request("GET", url, follow_redirects=True)

    async def post(
        self, url: str, data: Mapping[str, Any], headers: Mapping[str, str] | None = None
    ) -> httpx.Response:
        """POST a form, not following redirects (a reply's 302 names the new post).
        `headers`: what the board checks besides the form (FluxBB: the `Referer`)."""
        return await self.request("POST", url, data=data, follow_redirects=False, headers=headers)

    async def request(
        self,
        method: str,
        url: str,
        *,
        data: Mapping[str, Any] | None = None,
        follow_redirects: bool,
        headers: Mapping[str, str] | None = None,
    ) -> httpx.Response:
        retry_statuses = RETRY_STATUSES if method == "GET" else POST_RETRY_STATUSES
        problem = ""
        for attempt in range(1, self.max_tries + 1):
            await self._space()
            try:
                async with self._in_flight:
                    response = await self._exchange(method, url, data, follow_redirects, headers)
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
                self.note(response)
                if self.hands_back(response):
                    return response
                if response.status_code in retry_statuses:
                    pass
                elif response.status_code in RETRY_STATUSES:
                    # A POST the board may have processed: never sent twice.
                    raise BoardUnavailable(
                        N_(
                            "{method} {url}: HTTP {status} (not repeated: the board may have "
                            "taken it)"
                        ).format(method=method, url=redact(url), status=response.status_code)
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
        tries = N_("{what}: {problem} after {n} try") if attempt == 1 else None
        raise BoardUnavailable(
            (tries or N_("{what}: {problem} after {n} tries")).format(
                what=f"{method} {redact(url)}", problem=problem, n=attempt
            )
        )

    async def _exchange(
        self,
        method: str,
        url: str,
        data: Mapping[str, Any] | None,
        follow_redirects: bool,
        headers: Mapping[str, str] | None = None,
    ) -> httpx.Response:
        """One request and the redirects it leads to, each answer read whole (up to
        `max_bytes`), all within `deadline` seconds."""
        what = f"{method} {redact(url)}"
        received = [0]
        try:
            async with asyncio.timeout(self.deadline):
                request = self.http.build_request(method, url, data=data, headers=headers)
                history: list[httpx.Response] = []
                while True:
                    response = await self._read(
                        await self.http.send(request, stream=True), what, received
                    )
                    following = response.next_request if follow_redirects else None
                    if following is None:
                        return _with_history(response, history)
                    if len(history) >= self.max_redirects:
                        raise RedirectLoop(
                            N_(
                                "{what}: the board sent more than {n} redirects in a row (last "
                                "to {url}): is [board] url the address the board itself uses "
                                "(https or http, with or without www)?"
                            ).format(
                                what=what, n=self.max_redirects, url=redact(str(following.url))
                            )
                        )
                    history.append(response)
                    request = following
        except TimeoutError:
            raise TooSlow(
                N_(
                    "{what}: no whole answer within {seconds:g} s (the board sent {size} by "
                    "then); not retried"
                ).format(what=what, seconds=self.deadline, size=_size(received[0]))
            ) from None
        except httpx.DecodingError as error:
            raise BoardUnavailable(
                N_("{what}: an answer that cannot be decoded ({error})").format(
                    what=what, error=error
                )
            ) from None

    async def _read(
        self, response: httpx.Response, what: str, received: list[int]
    ) -> httpx.Response:
        """The streamed `response` read into memory, refused beyond `max_bytes`."""
        try:
            declared = response.headers.get("Content-Length", "")
            if declared.isdigit() and int(declared) > self.max_bytes:
                raise AnswerTooLarge(
                    N_(
                        "{what}: the board's answer is {size}, over the {most} forumgm reads; "
                        "refused unread"
                    ).format(what=what, size=_size(int(declared)), most=_size(self.max_bytes))
                )
            chunks: list[bytes] = []
            size = 0
            async for chunk in response.aiter_bytes():
                size += len(chunk)
                received[0] += len(chunk)
                if size > self.max_bytes:
                    raise AnswerTooLarge(
                        N_(
                            "{what}: the board's answer goes on past the {most} forumgm reads; "
                            "refused"
                        ).format(what=what, most=_size(self.max_bytes))
                    )
                chunks.append(chunk)
        finally:
            await response.aclose()
        headers = [
            (k, v)
            for k, v in response.headers.multi_items()
            if k.lower() not in ("content-encoding", "content-length", "transfer-encoding")
        ]
        read = httpx.Response(
            response.status_code,
            headers=headers,
            content=b"".join(chunks),
            request=response.request,
            extensions=response.extensions,
        )
        read.next_request = response.next_request
        return read

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

    def hands_back(self, response: httpx.Response) -> bool:
        """Hook: an answer the engine reads itself instead of it being retried here
        (Discourse: a 429 asking for hours is a limit to report, not a pause to wait)."""
        return False

    def note(self, response: httpx.Response) -> None:
        """Hook: see every answer the board gave (phpBB takes its session id from it)."""

    async def aclose(self) -> None:
        if self._owns_client:
            await self.http.aclose()


def _with_history(response: httpx.Response, history: list[httpx.Response]) -> httpx.Response:
    if history:
        response.history = list(history)
    return response
