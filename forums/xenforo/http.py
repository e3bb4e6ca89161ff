"""HTTP for one XenForo board: the phpBB adapter's polite client, pinned to the board.

Politeness (spacing, bounded retries with backoff, Retry-After, POSTs never repeated once
they may have reached the board) is `forums.phpbb.client.PhpbbClient`'s. On top of it every
request, and every redirect hop, must stay on the configured scheme and host: the session
cookies, the password and the API key go nowhere else. A form action or a redirect that
points elsewhere is `BoardUnavailable`, and nothing is sent there.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from urllib.parse import urljoin, urlsplit

import httpx

from forums.errors import BoardUnavailable
from forums.phpbb.client import PhpbbClient

log = logging.getLogger("forums.xenforo")

MAX_REDIRECTS = 10


def origin(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    port = parts.port or {"http": 80, "https": 443}.get(parts.scheme.lower())
    return parts.scheme.lower(), f"{(parts.hostname or '').lower()}:{port}"


class PinnedClient(PhpbbClient):
    """`PhpbbClient` that refuses any URL off the board's scheme and host."""

    def check(self, url: str) -> None:
        if origin(url) != origin(self.base_url):
            scheme, host = origin(url)
            raise BoardUnavailable(
                f"{self.base_url}: refused to send the session to {scheme}://{host} "
                "(a form or redirect pointing off the configured board)"
            )

    async def request(
        self,
        method: str,
        url: str,
        *,
        data: Mapping[str, str] | None = None,
        follow_redirects: bool,
    ) -> httpx.Response:
        self.check(url)
        for _ in range(MAX_REDIRECTS):
            response = await super().request(method, url, data=data, follow_redirects=False)
            if not (follow_redirects and response.is_redirect):
                return response
            url = urljoin(str(response.url), response.headers.get("Location", ""))
            self.check(url)
            method, data = "GET", None
        raise BoardUnavailable(f"{self.base_url}: more than {MAX_REDIRECTS} redirects")
