"""An in-memory `Board` for the service benchmarks: what they time is the service and store.

Cursors are positions in the post and PM lists, as the local board's are; a read without a
cursor (a first sync, a deadline with no starting point) returns everything. Replies and PMs
are kept like any post (BBCode rendered as the local board renders it).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from forums.bbcode import parse_bbcode
from forums.board import PMPage, ThreadPage
from forums.records import Cursor, Post, PrivateMessage, User


def _after(cursor: Cursor | None) -> int:
    value = cursor.data.get("after", 0) if cursor is not None else 0
    return value if isinstance(value, int) else 0


class MemoryBoard:
    engine = "memory"

    def __init__(self, gm: str, clock: object) -> None:
        self.gm = gm
        self.clock = clock
        self.posts: list[Post] = []
        self.inbox_pms: list[PrivateMessage] = []
        self.sent_pms: list[PrivateMessage] = []

    async def login(self) -> User:
        return User("1", self.gm)

    async def whoami(self) -> User | None:
        return User("1", self.gm)

    async def thread_posts(self, thread: str, since: Cursor | None = None) -> ThreadPage:
        after = _after(since)
        return ThreadPage(items=self.posts[after:], cursor=Cursor({"after": len(self.posts)}))

    async def inbox(self, since: Cursor | None = None) -> PMPage:
        after = _after(since)
        items = self.inbox_pms[after:]
        return PMPage(items=items, cursor=Cursor({"after": len(self.inbox_pms)}))

    async def sent(self, since: Cursor | None = None) -> PMPage:
        after = _after(since)
        return PMPage(items=self.sent_pms[after:], cursor=Cursor({"after": len(self.sent_pms)}))

    async def find_user(self, name: str) -> User | None:
        return User(name, name)

    def _now(self) -> datetime:
        now = self.clock()  # type: ignore[operator]
        assert isinstance(now, datetime)
        return now

    async def reply(self, thread: str, bbcode: str) -> str:
        number = len(self.posts) + 1
        post_id = str(9_000_000 + number)
        self.posts.append(
            Post(
                post_id, thread, number, self.gm, "1", self._now(), parse_bbcode(bbcode), raw=bbcode
            )
        )
        return post_id

    async def send_pm(self, recipients: Sequence[str], subject: str, bbcode: str) -> str:
        pm_id = str(8_000_000 + len(self.sent_pms) + 1)
        body = parse_bbcode(bbcode)
        pm = PrivateMessage(pm_id, self.gm, "1", tuple(recipients), self._now(), subject, body)
        self.sent_pms.append(pm)
        return pm_id

    async def close(self) -> None:
        return None
