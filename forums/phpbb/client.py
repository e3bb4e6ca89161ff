"""phpBB's use of the shared `forums.client.BoardClient`: the session id in the URL.

phpBB names its session cookie `<prefix>_sid`; a board that does not take our cookies (or
was set up to put the session in links) wants `sid=` in every URL instead. Everything else
(spacing, retries, the pin to the board, deadlines and size caps) is the shared client's.
"""

from __future__ import annotations

from typing import Any

import httpx

from forums.client import USER_AGENT, BoardClient, Sleep
from forums.guard import redact

__all__ = ["USER_AGENT", "PhpbbClient", "Sleep", "redact"]


class PhpbbClient(BoardClient):
    """HTTP for one phpBB board: the shared client, carrying `sid` when the board wants it."""

    session_params = ("sid",)

    def __init__(self, base_url: str, **options: Any) -> None:
        super().__init__(base_url, **options)
        self.sid: str | None = None
        self.sid_in_urls = False
        """Set when the board's links carry `sid=`: it does not read our cookies."""

    def session_query(self) -> list[tuple[str, str]]:
        return [("sid", self.sid)] if self.sid_in_urls and self.sid else []

    def note(self, response: httpx.Response) -> None:
        for name, value in response.cookies.items():
            if name.endswith("_sid") and value:
                self.sid = value
