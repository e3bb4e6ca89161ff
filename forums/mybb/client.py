"""The HTTP side of one MyBB board: phpBB's polite client, pinned to the configured board.

`PhpbbClient` already spaces requests, retries 429/5xx/timeouts with backoff (then
`BoardUnavailable`), never repeats a POST the board may have taken and never logs bodies.
On top, every request — a form action, a redirect httpx follows — must go to the board's
own scheme, host and port: anything else is `BoardUnavailable` and nothing is sent, so the
password and the session cookie never leave the board. (`forums.guard` from the security
work will provide this for every adapter; this module then only forwards to it.)
"""

from __future__ import annotations

import logging
import re

import httpx

from forums.errors import BoardUnavailable
from forums.phpbb.client import PhpbbClient, Sleep

__all__ = ["MybbClient", "Sleep", "redact"]

log = logging.getLogger("forums.mybb")

_PORTS = {"http": 80, "https": 443}
_SECRET_IN_URL = re.compile(r"(?i)((?:\bsid|my_post_key|logoutkey)=)[^&#\s\"'<>]{6,}")


def redact(text: str) -> str:
    """A URL or log line with the session id and form keys masked."""
    return _SECRET_IN_URL.sub(r"\1…", text)


def _origin(url: httpx.URL) -> tuple[str, str, int | None]:
    return url.scheme, url.host, url.port or _PORTS.get(url.scheme)


class MybbClient(PhpbbClient):
    """HTTP for one MyBB board; `client` may be injected (tests pass one backed by respx)."""

    def __init__(
        self,
        base_url: str,
        *,
        client: httpx.AsyncClient | None = None,
        allow_insecure_http: bool = False,
        **options: object,
    ) -> None:
        super().__init__(base_url, client=client, **options)  # type: ignore[arg-type]
        board = httpx.URL(self.base_url)
        if board.scheme not in _PORTS or not board.host:
            raise ValueError(f"{base_url!r}: a board URL starts with https:// and names a host")
        if board.scheme == "http" and not allow_insecure_http:
            raise ValueError(
                f"{base_url}: an http:// board would get the GM's password unencrypted; use "
                "https:// or allow insecure http for this board"
            )
        self.origin = _origin(board)

        async def pinned(request: httpx.Request) -> None:
            self.check(request.url, f"{request.method} {redact(str(request.url))}")

        hooks = self.http.event_hooks
        self.http.event_hooks = {**hooks, "request": [*hooks.get("request", []), pinned]}

    def owns(self, url: str | httpx.URL) -> bool:
        return _origin(httpx.URL(url)) == self.origin

    def check(self, url: str | httpx.URL, what: str = "a request") -> None:
        """`BoardUnavailable` unless `url` is on the configured board (nothing is sent)."""
        if not self.owns(url):
            scheme, host, port = self.origin
            raise BoardUnavailable(
                f"{what} points to {redact(str(url))}, not to the configured board "
                f"{scheme}://{host}:{port}: nothing was sent there"
            )
