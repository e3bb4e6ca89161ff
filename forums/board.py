"""The `Board` protocol every adapter implements, and the registry of board engines."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from forums.records import Cursor, Post, PrivateMessage, User


@dataclass(frozen=True)
class Page:
    """A batch of records and the cursor to continue from."""

    items: Sequence[Any]
    cursor: Cursor


@dataclass(frozen=True)
class ThreadPage(Page):
    items: Sequence[Post]


@dataclass(frozen=True)
class PMPage(Page):
    items: Sequence[PrivateMessage]


@runtime_checkable
class Board(Protocol):
    """A forum installation seen through the GM account. All methods are async."""

    engine: str

    async def login(self) -> User: ...

    async def whoami(self) -> User | None: ...

    async def thread_posts(self, thread: str, since: Cursor | None = None) -> ThreadPage: ...

    async def inbox(self, since: Cursor | None = None) -> PMPage: ...

    async def sent(self, since: Cursor | None = None) -> PMPage: ...

    async def find_user(self, name: str) -> User | None: ...

    async def reply(self, thread: str, bbcode: str) -> str:
        """Post to the thread; returns the new post's id once it is confirmed to exist."""
        ...

    async def send_pm(self, recipients: Sequence[str], subject: str, bbcode: str) -> str:
        """Send a PM; returns its id once it is confirmed to exist."""
        ...

    async def close(self) -> None: ...


def edits_without_notice(board: object) -> bool:
    """Whether a post on `board` may change with no edit notice (phpBB lets the topic's last
    post be edited so before anyone replies). A board that says nothing may: the deadline's
    reading then doubts the last post it first reads after the deadline. The local board
    says (`LocalForum.edits_without_notice`)."""
    return bool(getattr(board, "edits_without_notice", True))


def exact_times(board: object) -> bool:
    """Whether `board` dates posts, edits and PMs to the second or finer (Discourse's ISO
    times, to the millisecond): then a time on a whole minute is no board that prints
    minutes only, and the deadline's reading holds nothing for "the deadline's minute". A
    board that says nothing may print minutes only."""
    return bool(getattr(board, "exact_times", False))


BoardFactory = Callable[..., Board]
_ENGINES: dict[str, BoardFactory | str] = {}


def register_engine(name: str, factory: BoardFactory | str) -> None:
    """`factory`, or where it lives ("package.module:name"), imported when first asked for:
    reading a saved page needs no HTTP client."""
    _ENGINES[name] = factory


def board_factory(name: str) -> BoardFactory:
    try:
        factory = _ENGINES[name]
    except KeyError:
        known = ", ".join(sorted(_ENGINES)) or "none"
        raise KeyError(f"unknown board engine {name!r} (known: {known})") from None
    if isinstance(factory, str):
        module, _, attribute = factory.partition(":")
        factory = _ENGINES[name] = getattr(importlib.import_module(module), attribute)
    return factory


def engines() -> list[str]:
    return sorted(_ENGINES)
