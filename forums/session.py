"""One GM account's session on one board: its polite client and whom it is logged in as.

A `Session` is what boards on the same board and GM account can hold together (one game's
board each): one `BoardClient` (one cookie jar, one pool, one bound on requests in flight),
one login at a time, and a re-login that one board made serving every other board whose
session had gone at the same moment (`renew`). Whoever made the session closes it.

Each board keeps its own *budget*: a public operation (a poll of the thread, a reply) may
log in again once; a session dropped again right after a fresh login is `SessionExpired`,
never a loop of logins (`forums.webboard.WebBoard.relogin`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from forums.client import BoardClient
from forums.records import User

__all__ = ["Login", "Session"]

Login = Callable[[], Awaitable[User]]
"""A board's `login`: what the session calls when it needs one (the service may have put a
guard before it: engine.service.logins)."""


class Session:
    """The client and login state of one GM account on one board."""

    def __init__(self, http: BoardClient, username: str) -> None:
        self.http = http
        self.username = username
        self.me: User | None = None
        """Whom the board serves us as, once logged in; None before or after a lost session."""
        self.logins = 0
        """How many logins went through: a board that saw the session go at login N knows
        whether another board logged in since."""
        self._lock = asyncio.Lock()

    def __repr__(self) -> str:
        return f"Session({self.http.base_url!r}, {self.username!r})"

    def logged_in(self, user: User) -> User:
        """What a board's login calls once the board shows `user` logged in."""
        self.me = user
        self.logins += 1
        return user

    async def ensure(self, login: Login) -> None:
        """Logged in: at once if so, else through `login` (one login at a time)."""
        if self.me is not None:
            return
        async with self._lock:
            if self.me is None:
                await login()

    async def renew(self, seen: int, login: Login) -> None:
        """A new login after the session went at login number `seen`, unless another board
        sharing the session has logged in since."""
        async with self._lock:
            if self.logins == seen or self.me is None:
                self.me = None
                await login()

    async def aclose(self) -> None:
        await self.http.aclose()
