"""Reading a paged thread or message list from where the last poll stopped, for every engine.

A thread is pages 1‥N of posts in order. A poll resumes at the page that held the last post
seen (`Resume`), steps back while that page holds only unseen posts (deletions move posts to
earlier pages) and reads on to the last page (the thread may grow while it is read);
without a cursor every page is read (the deadline freeze, which catches edits and deletions
on earlier pages). No page is read twice in one sync. A board that serves another page than
the one asked for (past the end: XenForo serves the last, MyBB the first) has its last page
read too.

A message folder is a list, newest first, of items with ids that grow with time: it is read
page by page until an item at or below the cursor's id shows (`newer_items`).

Pure of I/O: the engine passes the function that fetches one page.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from forums.records import Post

__all__ = ["ListPage", "Resume", "ThreadView", "newer_items", "read_thread", "seen_posts"]


class ThreadView(Protocol):
    """One page of a thread as an engine's reader gives it."""

    @property
    def page(self) -> int: ...

    @property
    def pages(self) -> int: ...

    @property
    def per_page(self) -> int: ...

    @property
    def posts(self) -> Sequence[Post]: ...


class ListPage(Protocol):
    """One page of a message folder."""

    @property
    def items(self) -> Sequence[Any]: ...

    @property
    def page(self) -> int: ...

    @property
    def pages(self) -> int: ...


V = TypeVar("V", bound=ThreadView)
L = TypeVar("L", bound=ListPage)


@dataclass(frozen=True)
class Resume:
    """Where a poll goes on: the page that held the last post seen, and that post's id."""

    page: int
    last_id: int

    @classmethod
    def of(cls, state: Mapping[str, Any], thread: str, key: str = "thread") -> Resume | None:
        """The resume point of a cursor `{key: thread, "last_id": …, "page": …}`, or None
        when it is another thread's or not one at all."""
        page, last_id = state.get("page"), state.get("last_id")
        if state.get(key) != thread or not isinstance(last_id, int):
            return None
        if not isinstance(page, int) or page < 1:
            return None
        return cls(page=page, last_id=last_id)


async def read_thread(fetch: Callable[[int], Awaitable[V]], resume: Resume | None) -> dict[int, V]:
    """The pages a sync reads, by page number: from `resume` (or the first page) to the last."""
    asked: dict[int, V] = {}

    async def view(number: int) -> V:
        if number in asked:  # never read one page twice in one sync
            return asked[number]
        got = asked[number] = await fetch(number)
        asked.setdefault(got.page, got)
        if got.page != number and got.pages not in asked:
            # Past the end: the thread has fewer pages now; its last one is what is new.
            return await view(got.pages)
        return got

    current = await view(resume.page if resume is not None else 1)
    if resume is not None:
        while current.page > 1 and min(int(p.id) for p in current.posts) > resume.last_id:
            current = await view(current.page - 1)
    views = {v.page: v for v in asked.values()}
    current = views[max(views)]
    while current.page < current.pages:
        current = await view(current.page + 1)
        views[current.page] = current
    return views


def seen_posts(views: Mapping[int, ThreadView]) -> list[Post]:
    """Every post on the pages read, in the thread's order, each once."""
    seen: dict[str, Post] = {}
    for number in sorted(views):
        for post in views[number].posts:
            seen.setdefault(post.id, post)
    return list(seen.values())


async def newer_items(fetch: Callable[[int, int], Awaitable[L]], after: int) -> list[Any]:
    """A folder's items with an id above `after`: pages are read (`fetch(number, offset)`,
    the offset being the items listed before that page) until one lists an older item."""
    items: list[Any] = []
    number = 1
    while True:
        listing = await fetch(number, len(items))
        items.extend(listing.items)
        if not listing.items or listing.page >= listing.pages:
            break
        if any(int(item.id) <= after for item in listing.items):
            break
        number += 1
    return [item for item in items if int(item.id) > after]
