"""Tables for posts and PMs as the board served them, with every revision of their content."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from engine.store.models.base import Base, UTCDateTime


class RawPost(Base):
    """A thread post as last seen; its earlier contents live in `RawPostRevision`."""

    __tablename__ = "raw_posts"
    __table_args__ = (
        UniqueConstraint("game_id", "post_id"),
        Index("ix_raw_posts_game_id_thread_id_number", "game_id", "thread_id", "number"),
        Index("ix_raw_posts_game_id_thread_id_posted_at", "game_id", "thread_id", "posted_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    thread_id: Mapped[str] = mapped_column(String(100))
    post_id: Mapped[str] = mapped_column(String(100))
    number: Mapped[int]
    author: Mapped[str] = mapped_column(String(200))
    author_id: Mapped[str | None] = mapped_column(String(100))
    posted_at: Mapped[datetime] = mapped_column(UTCDateTime())
    url: Mapped[str | None] = mapped_column(String(500))
    raw: Mapped[str | None] = mapped_column(Text)
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    content_hash: Mapped[str] = mapped_column(String(64))
    edit_by: Mapped[str | None] = mapped_column(String(200))
    edit_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    edit_count: Mapped[int] = mapped_column(default=0)
    deleted: Mapped[bool] = mapped_column(default=False)
    deleted_seen_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    missing_since: Mapped[datetime | None] = mapped_column(UTCDateTime())
    """A full read of the board no longer served the post (a hard delete) from then on."""
    first_seen_at: Mapped[datetime] = mapped_column(UTCDateTime())
    last_seen_at: Mapped[datetime] = mapped_column(UTCDateTime())


class RawPostRevision(Base):
    """One content of a post, from the moment it is known to have been there."""

    __tablename__ = "raw_post_revisions"
    __table_args__ = (UniqueConstraint("raw_post_id", "rev"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    raw_post_id: Mapped[int] = mapped_column(ForeignKey("raw_posts.id", ondelete="CASCADE"))
    rev: Mapped[int]
    """1 for the first content seen, then one more for each change."""
    content_hash: Mapped[str] = mapped_column(String(64))
    raw: Mapped[str | None] = mapped_column(Text)
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    author: Mapped[str | None] = mapped_column(String(200))
    """Who the board named as the author with this content (None: from before 0006)."""
    author_id: Mapped[str | None] = mapped_column(String(100))
    edit_by: Mapped[str | None] = mapped_column(String(200))
    edit_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    edit_count: Mapped[int] = mapped_column(default=0)
    seen_at: Mapped[datetime] = mapped_column(UTCDateTime())
    """When forumgm first read this content."""
    valid_from: Mapped[datetime] = mapped_column(UTCDateTime())
    """When the content appeared: the board's post or edit time where it gives one."""


class RawPM(Base):
    """A private message to (or from) the GM as last seen."""

    __tablename__ = "raw_pms"
    __table_args__ = (
        UniqueConstraint("game_id", "pm_id"),
        Index("ix_raw_pms_game_id_sent_at", "game_id", "sent_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    pm_id: Mapped[str] = mapped_column(String(100))
    sender: Mapped[str] = mapped_column(String(200))
    sender_id: Mapped[str | None] = mapped_column(String(100))
    recipients: Mapped[list[str]] = mapped_column(JSON)
    sent_at: Mapped[datetime] = mapped_column(UTCDateTime())
    subject: Mapped[str] = mapped_column(String(500))
    url: Mapped[str | None] = mapped_column(String(500))
    raw: Mapped[str | None] = mapped_column(Text)
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    content_hash: Mapped[str] = mapped_column(String(64))
    first_seen_at: Mapped[datetime] = mapped_column(UTCDateTime())
    last_seen_at: Mapped[datetime] = mapped_column(UTCDateTime())
    routing: Mapped[str | None] = mapped_column(String(16))
    """None: the PM is this game's. "unclear": its sender plays in several games of the
    GM account and its subject names none of them (held for the host, the sender asked)."""


class RawPMRevision(Base):
    """One content of a PM (XenForo lets conversation messages be edited)."""

    __tablename__ = "raw_pm_revisions"
    __table_args__ = (UniqueConstraint("raw_pm_id", "rev"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    raw_pm_id: Mapped[int] = mapped_column(ForeignKey("raw_pms.id", ondelete="CASCADE"))
    rev: Mapped[int]
    content_hash: Mapped[str] = mapped_column(String(64))
    subject: Mapped[str] = mapped_column(String(500))
    raw: Mapped[str | None] = mapped_column(Text)
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    seen_at: Mapped[datetime] = mapped_column(UTCDateTime())
    valid_from: Mapped[datetime] = mapped_column(UTCDateTime())


class OutsiderMessage(Base):
    """A post or PM by a board member who holds no seat in the game (issue 10 item 7).

    It is never read for commands and holds no phase; the host sees it in `forumgm status`.
    """

    __tablename__ = "outsider_messages"
    __table_args__ = (
        UniqueConstraint("game_id", "channel", "item_id"),
        Index("ix_outsider_messages_game_id_phase", "game_id", "phase"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    phase: Mapped[str] = mapped_column(String(32))
    channel: Mapped[str] = mapped_column(String(16))
    """"thread" or "pm"."""
    item_id: Mapped[str] = mapped_column(String(100))
    author: Mapped[str] = mapped_column(String(200))
    at: Mapped[datetime] = mapped_column(UTCDateTime())
    url: Mapped[str | None] = mapped_column(String(500))
    excerpt: Mapped[str] = mapped_column(Text, default="")
    noted_at: Mapped[datetime] = mapped_column(UTCDateTime())
