"""Tables of a sign-up thread («набор игроков»): its posts as last read, the list they make,
the host's decisions on joins, and the GM's answers in the thread."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from engine.store.models.base import Base, UTCDateTime, utcnow


class Signup(Base):
    """One sign-up thread of a board, read by the GM account."""

    __tablename__ = "signups"
    __table_args__ = (UniqueConstraint("board_id", "thread_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    board_id: Mapped[int] = mapped_column(ForeignKey("boards.id", ondelete="CASCADE"))
    thread_id: Mapped[str] = mapped_column(String(100))
    marker_key: Mapped[str] = mapped_column(String(64))
    """The HMAC key of the markers of the GM's answers in the thread (`engine.publish`)."""
    cursor: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    """Where the last read of the thread ended."""
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    """When the sign-ups closed (the file's `closes`, or the host's `signup close`)."""
    written_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    """When the list was written into the game file's [players]."""
    list_posted_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class SignupPost(Base):
    """A post of the sign-up thread as last read (an edit replaces its text)."""

    __tablename__ = "signup_posts"
    __table_args__ = (UniqueConstraint("signup_id", "post_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    signup_id: Mapped[int] = mapped_column(ForeignKey("signups.id", ondelete="CASCADE"))
    post_id: Mapped[str] = mapped_column(String(100))
    number: Mapped[int]
    author: Mapped[str] = mapped_column(String(200))
    posted_at: Mapped[datetime] = mapped_column(UTCDateTime())
    text: Mapped[str] = mapped_column(Text)
    """The author's own words (quotes and signatures left out)."""
    marker: Mapped[str | None] = mapped_column(String(100))
    """The marker of the GM's own post (`engine.publish.own_marker`)."""
    deleted: Mapped[bool] = mapped_column(default=False)
    answered: Mapped[str | None] = mapped_column(String(32))
    """The note (`engine.signup.Note.kind`) the GM already answered this post with."""
    edits: Mapped[int] = mapped_column(default=0)
    """How many times forumgm saw its text change."""
    seen_at: Mapped[datetime] = mapped_column(UTCDateTime())


class SignupEntry(Base):
    """One player on the list as the thread stood at the last read."""

    __tablename__ = "signup_entries"
    __table_args__ = (UniqueConstraint("signup_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    signup_id: Mapped[int] = mapped_column(ForeignKey("signups.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(200))
    status: Mapped[str] = mapped_column(String(16))
    """in, reserve, pending (the host has not approved yet), over (no room), left, refused."""
    place: Mapped[int]
    """Order of arrival among those who stand on the list (0 for left and refused)."""
    joined_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    post_id: Mapped[str | None] = mapped_column(String(100))
    """The post that put (or took) them there."""


class SignupDecision(Base):
    """The host's answer to a join (`[signup] approve = true`): approve or refuse."""

    __tablename__ = "signup_decisions"
    __table_args__ = (UniqueConstraint("signup_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    signup_id: Mapped[int] = mapped_column(ForeignKey("signups.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(200))
    decision: Mapped[str] = mapped_column(String(16))
    at: Mapped[datetime] = mapped_column(UTCDateTime())


class SignupMessage(Base):
    """A post of the GM in the sign-up thread: queued, being sent, or on the board."""

    __tablename__ = "signup_messages"

    id: Mapped[int] = mapped_column(primary_key=True)
    signup_id: Mapped[int] = mapped_column(ForeignKey("signups.id", ondelete="CASCADE"))
    marker: Mapped[str] = mapped_column(String(100), unique=True)
    bbcode: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), default="queued")
    """queued, sending (a send was started: it may be on the board), posted."""
    post_id: Mapped[str | None] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class SubstituteOffer(Base):
    """A seat offered to a player of the reserve (`game sub`, or a player prodded twice):
    nothing about the seat's role goes to him before he accepts."""

    __tablename__ = "substitute_offers"
    __table_args__ = (Index("ix_substitute_offers_game_id_status", "game_id", "status"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[str] = mapped_column(String(200))
    leaving: Mapped[str] = mapped_column(String(200))
    """Who held the seat when it was offered."""
    candidate: Mapped[str] = mapped_column(String(200))
    reason: Mapped[str] = mapped_column(String(32))
    """host (`game sub`) or prodded (a second prod)."""
    status: Mapped[str] = mapped_column(String(16), default="offered")
    """offered, accepted, declined, expired, cancelled."""
    offered_at: Mapped[datetime] = mapped_column(UTCDateTime())
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime())
    answered_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    answer_pm: Mapped[str | None] = mapped_column(String(100))
    """The PM that accepted or declined."""
