"""`LocalBoard`: the rehearsal board, a real `Board` whose forum lives in a SQL database."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Engine

from forums.board import PMPage, ThreadPage
from forums.local.forum import LocalForum
from forums.local.tables import Clock
from forums.records import Cursor, User


@dataclass
class ManualClock:
    """A board clock that moves only when told to, for simulated games and tests."""

    now: datetime = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        """Move on by `timedelta(**delta)` and return the new time."""
        self.now += timedelta(**delta)
        return self.now

    def set(self, when: datetime) -> datetime:
        if when.tzinfo is None:
            raise ValueError("the clock needs a timezone-aware time")
        self.now = when
        return when


def _after(since: Cursor | None) -> int:
    if since is None:
        return 0
    value = since.data.get("after", 0)
    return value if isinstance(value, int) else 0


class LocalBoard(LocalForum):
    """The local board seen through one account (the GM's, or a player's via `as_user`).

    The async methods are the `Board` protocol; the synchronous ones inherited from
    `LocalForum` (`add_user`, `post_as`, `edit_post`, …) administer the board and act as
    players, which is how rehearsals and tests simulate a game. The database calls are
    synchronous inside the async methods: a local database answers in microseconds, and
    running them inline keeps in-memory SQLite usable without thread hand-offs.

    Cursors: a thread cursor is the last post number seen, a PM cursor the last PM id seen.
    `thread_posts(thread)` without a cursor re-reads the whole thread (the deadline freeze),
    with current text, edit notices and soft-deleted posts (flagged `deleted`).
    """

    engine = "local"

    def __init__(
        self,
        engine_or_url: Engine | str,
        gm_name: str,
        gm_password: str,
        *,
        clock: Clock | None = None,
        edits_without_notice: bool = False,
    ) -> None:
        super().__init__(engine_or_url, clock=clock, edits_without_notice=edits_without_notice)
        self._name = gm_name
        self._password = gm_password
        self._me: User | None = None

    def as_user(self, name: str, password: str) -> LocalBoard:
        """Another account's session on the same database and clock (it logs in on first use)."""
        return LocalBoard(
            self.db,
            name,
            password,
            clock=self.clock,
            edits_without_notice=self.edits_without_notice,
        )

    async def _session(self) -> User:
        # Like a real adapter: act only as a logged-in account, logging in when needed.
        return self._me if self._me is not None else await self.login()

    async def login(self) -> User:
        self._me = self.authenticate(self._name, self._password)
        return self._me

    async def whoami(self) -> User | None:
        return self._me

    async def thread_posts(self, thread: str, since: Cursor | None = None) -> ThreadPage:
        await self._session()
        after = _after(since)
        items = self.posts_after(thread, after)
        last = items[-1].number if items else after
        return ThreadPage(items=items, cursor=Cursor({"after": last}))

    async def _folder(self, folder: str, since: Cursor | None) -> PMPage:
        me = await self._session()
        after = _after(since)
        items = self.pms_after(me, folder, after)
        last = int(items[-1].id) if items else after
        return PMPage(items=items, cursor=Cursor({"after": last}))

    async def inbox(self, since: Cursor | None = None) -> PMPage:
        return await self._folder("inbox", since)

    async def sent(self, since: Cursor | None = None) -> PMPage:
        return await self._folder("sent", since)

    async def find_user(self, name: str) -> User | None:
        await self._session()
        return self.user(name)

    async def reply(self, thread: str, bbcode: str) -> str:
        return self.post_as(await self._session(), thread, bbcode)

    async def send_pm(self, recipients: Sequence[str], subject: str, bbcode: str) -> str:
        return self.pm_as(await self._session(), recipients, subject, bbcode)

    async def close(self) -> None:
        self._me = None
        self.dispose()

    def __repr__(self) -> str:
        return f"LocalBoard({self.db.url!r}, {self._name!r})"


def open_local_board(
    url: str | Engine,
    username: str,
    password: str,
    *,
    clock: Clock | None = None,
    **_ignored: Any,
) -> LocalBoard:
    """The registry's factory: the board URL is the database URL.

    Options meant for web adapters (an httpx client, time zone) mean nothing here.
    """
    return LocalBoard(url, username, password, clock=clock)
