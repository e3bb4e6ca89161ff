"""What the form-login engines' pages are, board-independent: the page kinds the HTTP side
acts on, a thread page and a PM folder row. Pure records: no client, no parsing.

phpBB's and MyBB's readers classify a served page into one `PageKind` (each by its own
markup) and read thread pages into `TopicPage`s, so the board base (`forums.formboard`)
and the page cursor (`forums.cursor`) treat both alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from enum import Enum

from forums.errors import N_, LayoutChanged
from forums.records import Post, User

__all__ = [
    "MemberList",
    "PMFolder",
    "PMListItem",
    "PageKind",
    "TopicPage",
    "Undated",
    "page_size",
    "place_undated",
]


def page_size(shown: int, page: int, pages: int, known: int | None, default: int) -> int:
    """How many posts a page of the thread holds, as page `page` of `pages` showing `shown`
    posts tells it: a page before the last is full; the last holds at most a page, so the
    size is what a full page showed before (`known`), else the engine's stock `default`
    (or what the last page shows, when that is more)."""
    if page < pages:
        return shown
    return known or max(default, shown)


class PageKind(Enum):
    """What a served page is, as far as the HTTP side needs to know."""

    LOGIN_FORM = "login form"
    """The login page itself, no error."""
    LOGIN_FAILED = "login failed"
    """The login form re-displayed with an error (wrong user name or password, inactive)."""
    NOT_LOGGED_IN = "not logged in"
    """A login form served instead of a page that needs a session."""
    SESSION_EXPIRED = "session expired"
    """Like NOT_LOGGED_IN, but the board just issued a new session id in the links: the
    session it was sent no longer exists server-side."""
    CAPTCHA = "captcha"
    """A login form that wants a CAPTCHA (too many attempts, or a board policy)."""
    TWO_STEP = "two-step verification"
    """A form asking for a one-time code after the password (a two-factor plugin)."""
    FLOOD = "flood control"
    """A posting form re-displayed with "you cannot post so soon"."""
    FORM_INVALID = "form token invalid"
    """A posting form re-displayed with "the submitted form was invalid"."""
    NEW_POSTS = "new posts since the form"
    """A reply form re-displayed because others posted since it was served."""
    FORM_ERROR = "form error"
    """A posting form re-displayed with an error this module does not know."""
    POSTING_FORM = "posting form"
    """A reply/quote/compose form without an error."""
    POSTED = "posted confirmation"
    """The board's information box after a successful submission."""
    MESSAGE = "message box"
    """Any other information/error box (e.g. "The requested topic does not exist")."""
    TOPIC = "topic"
    PM_FOLDER = "pm folder"
    PM_VIEW = "pm view"
    MEMBERLIST = "memberlist"
    PREFERENCES = "preferences form"
    """The account's own settings with its date format (`forums.userprefs`)."""
    INDEX = "index"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class TopicPage:
    url: str
    thread_id: str
    title: str
    posts: list[Post]
    page: int
    pages: int
    per_page: int
    start: int
    total_posts: int | None
    logged_in_as: str | None

    @classmethod
    def numbered(
        cls,
        url: str,
        thread_id: str,
        title: str,
        posts: list[Post],
        page: tuple[int, int, int],
        logged_in_as: str | None,
    ) -> TopicPage:
        """Page `number` of `pages` of a thread whose pages hold `size` posts, `page` being
        `(number, pages, size)`: its first post is the ((number - 1) × size + 1)th, and on
        the last page the thread's total is what it shows after those."""
        number, pages, size = page
        start = (number - 1) * size
        total = start + len(posts) if number == pages else None
        return cls(url, thread_id, title, posts, number, pages, size, start, total, logged_in_as)


@dataclass(frozen=True)
class PMListItem:
    id: str
    subject: str
    sender: str
    sender_id: str | None
    recipients: tuple[str, ...]
    sent_at: datetime
    url: str
    unread: bool


@dataclass(frozen=True)
class PMFolder:
    """One page of a PM folder as the board lists it (newest first)."""

    url: str
    folder: str
    """The folder as the engine names it (MyBB's id "0", phpBB's "inbox", …)."""
    items: list[PMListItem]
    page: int
    pages: int
    logged_in_as: str | None


@dataclass(frozen=True)
class MemberList:
    """One page of the board's member list."""

    users: tuple[User, ...]
    page: int
    pages: int


@dataclass(frozen=True)
class Undated:
    """A post a page shows without its time (a soft-deleted post's stub): all but the time."""

    post: Post


def place_undated(
    parsed: Sequence[Post | Undated], known: Mapping[str, datetime], url: str
) -> list[Post]:
    """The page's posts, each undated one given a time: the one seen before (`known`, by
    post id), else its neighbour's (it lies between them), so it keeps its place.
    `LayoutChanged` when the page dates none of them."""
    times = [p.posted_at if isinstance(p, Post) else None for p in parsed]
    placed: list[Post] = []
    for i, item in enumerate(parsed):
        if isinstance(item, Post):
            placed.append(item)
            continue
        before = [t for t in times[:i] if t is not None]
        after = [t for t in times[i + 1 :] if t is not None]
        when = known.get(item.post.id) or (before[-1] if before else after[0] if after else None)
        if when is None:
            raise LayoutChanged(
                url,
                N_("post {post_id}: a deleted-post stub on a page of stubs").format(
                    post_id=item.post.id
                ),
            )
        placed.append(replace(item.post, posted_at=when))
    return placed
