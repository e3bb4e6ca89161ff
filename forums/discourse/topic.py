"""Discourse's JSON answers → forumgm's records: pure readers, no HTTP.

- A topic (`GET /t/{id}.json`) lists every post id in `post_stream.stream` and carries the
  first chunk of posts (`chunk_size`, 20 on stock boards) in `post_stream.posts`; the rest
  come from `GET /t/{id}/posts.json?post_ids[]=…` (`post_stream.posts` again).
- A post is `cooked` HTML (`forums.discourse.body`) with ISO 8601 times to the millisecond
  (`created_at`, `updated_at`); `version` counts its revisions (1: never edited), so an
  edit is `version > 1`, dated `updated_at`. A post its author withdrew (`user_deleted`),
  one a moderator deleted (`deleted_at`, seen by staff only: others no longer get its id)
  and one the community's flags hid (`hidden`) are deleted: no reader sees their words.
- Small actions ("closed the topic", a split; `post_type` 3) carry no words and staff
  whispers (`post_type` 4) are not public: neither is a post of the thread.
- A personal-message topic (`archetype: private_message`) lists its members in
  `details.allowed_users`; each of its posts is a `PrivateMessage` to the others.
- The GM's message list (`GET /topics/private-messages/{user}.json`) gives the topics,
  most recently active first, each with `highest_post_number`.

A JSON answer without what these readers need is `LayoutChanged`, never "no posts".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from typing import Any
from urllib.parse import parse_qsl, urljoin, urlsplit

from forums.discourse.body import cooked_body
from forums.errors import N_, LayoutChanged
from forums.records import EditInfo, Post, PrivateMessage

__all__ = [
    "PMTopicRow",
    "Topic",
    "iso_time",
    "pm_list",
    "pm_record",
    "post_record",
    "read_posts",
    "read_topic",
]

REGULAR, MODERATOR_ACTION, SMALL_ACTION, WHISPER = 1, 2, 3, 4
PUBLIC_POST_TYPES = frozenset({REGULAR, MODERATOR_ACTION})
CHUNK_SIZE = 20
"""Discourse's `chunk_size` when an answer does not say (its stock value)."""


def iso_time(value: Any) -> datetime:
    """An aware time from Discourse's ISO 8601 (`2025-12-12T21:24:58.916Z`, `-04:00`)."""
    if not isinstance(value, str):
        raise ValueError(f"not a time: {value!r}")
    moment = datetime.fromisoformat(value.strip())
    if moment.tzinfo is None:
        raise ValueError(f"a time without its zone: {value!r}")
    return moment


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _obj(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


@dataclass(frozen=True)
class Topic:
    """A topic as `/t/{id}.json` gives it."""

    id: str
    title: str
    archetype: str
    stream: tuple[int, ...]
    """Every post id of the topic the reader may see, in the topic's order."""
    posts: tuple[dict[str, Any], ...]
    """The post objects served with it (the first chunk)."""
    chunk_size: int
    members: tuple[str, ...] = ()
    """A personal message's `details.allowed_users`, by name."""
    slug: str = ""

    @property
    def private(self) -> bool:
        return self.archetype == "private_message"


def _post_objects(body: Mapping[str, Any], url: str) -> tuple[dict[str, Any], ...]:
    stream = body.get("post_stream")
    posts = stream.get("posts") if isinstance(stream, dict) else None
    if not isinstance(posts, list):
        raise LayoutChanged(url, N_("a Discourse answer without post_stream.posts"))
    return tuple(p for p in posts if isinstance(p, dict))


def read_topic(body: Mapping[str, Any], url: str) -> Topic:
    """The topic of a `/t/{id}.json` answer."""
    stream = _obj(body.get("post_stream")).get("stream")
    topic_id = _int(body.get("id"))
    if not isinstance(stream, list) or topic_id is None:
        raise LayoutChanged(url, N_("a Discourse topic without its id or post_stream.stream"))
    ids = tuple(i for i in stream if _int(i) is not None)
    if not ids:
        raise LayoutChanged(url, N_("a Discourse topic whose post stream is empty"))
    details = _obj(body.get("details"))
    allowed = details.get("allowed_users")
    members = tuple(
        str(u["username"])
        for u in (allowed if isinstance(allowed, list) else [])
        if isinstance(u, dict) and u.get("username")
    )
    return Topic(
        id=str(topic_id),
        title=str(body.get("title") or ""),
        archetype=str(body.get("archetype") or "regular"),
        stream=ids,
        posts=_post_objects(body, url),
        chunk_size=_int(body.get("chunk_size")) or CHUNK_SIZE,
        members=members,
        slug=str(body.get("slug") or ""),
    )


def read_posts(body: Mapping[str, Any], url: str) -> tuple[dict[str, Any], ...]:
    """The post objects of a `/t/{id}/posts.json` answer."""
    return _post_objects(body, url)


@dataclass(frozen=True)
class _Fields:
    id: str
    author: str
    author_id: str | None
    at: datetime
    cooked: str
    number: int


def _fields(data: Mapping[str, Any], url: str) -> _Fields:
    try:
        post_id = _int(data.get("id"))
        author = str(data["username"])
        at = iso_time(data.get("created_at"))
        if post_id is None or not author:
            raise ValueError("no id or author")
    except (KeyError, TypeError, ValueError) as exc:
        raise LayoutChanged(
            url, N_("a Discourse post without id, author or time ({exc})").format(exc=exc)
        ) from None
    user_id = _int(data.get("user_id"))
    return _Fields(
        id=str(post_id),
        author=author,
        author_id=str(user_id) if user_id is not None else None,
        at=at,
        cooked=str(data.get("cooked") or ""),
        number=_int(data.get("post_number")) or 0,
    )


def _edit(data: Mapping[str, Any], url: str) -> EditInfo | None:
    version = _int(data.get("version")) or 1
    if version <= 1:
        return None
    try:
        at: datetime | None = iso_time(data.get("updated_at"))
    except ValueError:
        raise LayoutChanged(url, N_("an edited Discourse post without updated_at")) from None
    return EditInfo(by=None, at=at, count=version - 1)


def deleted(data: Mapping[str, Any]) -> bool:
    """Withdrawn by its author, deleted by a moderator, or hidden by flags."""
    return bool(data.get("deleted_at") or data.get("user_deleted") or data.get("hidden"))


def post_record(
    data: Mapping[str, Any], topic: str, base_url: str, url: str, tz: tzinfo | None = None
) -> Post | None:
    """A thread's `Post` from a post object; None for what is no public post (a small
    action, a whisper)."""
    kind = _int(data.get("post_type")) or REGULAR
    if kind not in PUBLIC_POST_TYPES:
        return None
    got = _fields(data, url)
    where = str(data.get("post_url") or "")
    if not where and got.number:
        where = f"t/{data.get('topic_slug') or '-'}/{topic}/{got.number}"
    return Post(
        id=got.id,
        thread_id=topic,
        number=got.number,
        author=got.author,
        author_id=got.author_id,
        posted_at=got.at.astimezone(tz) if tz is not None else got.at,
        body=cooked_body(got.cooked, base_url=base_url),
        url=urljoin(base_url, where) if where else None,
        edit=_edit(data, url),
        deleted=deleted(data),
        raw=got.cooked,
    )


def pm_record(
    data: Mapping[str, Any], topic: Topic, base_url: str, url: str, tz: tzinfo | None = None
) -> PrivateMessage | None:
    """One post of a personal-message topic as a `PrivateMessage` to the topic's other
    members; None for a small action ("added X", "removed Y") or a deleted post."""
    if (_int(data.get("post_type")) or REGULAR) not in PUBLIC_POST_TYPES or deleted(data):
        return None
    got = _fields(data, url)
    sender = got.author.casefold()
    where = str(data.get("post_url") or "") or f"t/{topic.slug or '-'}/{topic.id}/{got.number}"
    return PrivateMessage(
        id=got.id,
        sender=got.author,
        sender_id=got.author_id,
        recipients=tuple(m for m in topic.members if m.casefold() != sender),
        sent_at=got.at.astimezone(tz) if tz is not None else got.at,
        subject=topic.title,
        body=cooked_body(got.cooked, base_url=base_url),
        url=urljoin(base_url, where),
        raw=got.cooked,
    )


@dataclass(frozen=True)
class PMTopicRow:
    """One personal-message topic in the GM's message list."""

    id: str
    highest: int
    """`highest_post_number`: grows with every post in the topic."""


@dataclass(frozen=True)
class PMList:
    rows: Sequence[PMTopicRow] = field(default_factory=tuple)
    next_page: int | None = None
    """The list goes on: the `page` its `more_topics_url` names (Discourse counts from 0)."""


def pm_list(body: Mapping[str, Any], url: str) -> PMList:
    """The rows of a `/topics/private-messages/{user}.json` answer."""
    listing = body.get("topic_list")
    topics = listing.get("topics") if isinstance(listing, dict) else None
    if not isinstance(topics, list):
        raise LayoutChanged(url, N_("a Discourse message list without topic_list.topics"))
    rows = []
    for t in topics:
        if not isinstance(t, dict) or _int(t.get("id")) is None:
            raise LayoutChanged(url, N_("a message-list topic without its id"))
        if t.get("archetype", "private_message") != "private_message":
            continue
        rows.append(PMTopicRow(id=str(t["id"]), highest=_int(t.get("highest_post_number")) or 0))
    assert isinstance(listing, dict)
    more = listing.get("more_topics_url")
    next_page = None
    if isinstance(more, str) and more:
        pages = [v for k, v in parse_qsl(urlsplit(more).query) if k == "page" and v.isdigit()]
        next_page = int(pages[0]) if pages else None
        if next_page is None:
            raise LayoutChanged(
                url, N_("a message list whose next page is unclear ({more!r})").format(more=more)
            )
    return PMList(rows=tuple(rows), next_page=next_page)
