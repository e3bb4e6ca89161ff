"""Tables for what forumgm derived: parsed orders, warnings, host overrides, events, outbox."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from engine.core import Audience, Channel, OrderKind
from engine.store.models.base import Base, UTCDateTime, utcnow
from engine.store.models.game import enum_type


class OrderStatus(StrEnum):
    ACCEPTED = "accepted"
    REJECTED = "rejected"
    OVERRIDDEN = "overridden"
    """The host replaced or dropped it; the override holds what counts instead."""


class OutboxStatus(StrEnum):
    DRAFT = "draft"
    APPROVED = "approved"
    POSTED = "posted"
    FAILED = "failed"
    """The last attempt failed; the item stays due for another attempt."""


class OutboxKind(StrEnum):
    POST = "post"
    PM = "pm"


class OverrideTarget(StrEnum):
    ORDER = "order"
    WARNING = "warning"


class ParsedOrderRow(Base):
    __tablename__ = "parsed_orders"
    __table_args__ = (UniqueConstraint("phase_id", "seq"), Index("ix_parsed_orders_ref", "ref"))

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    phase_id: Mapped[int] = mapped_column(ForeignKey("phases.id", ondelete="CASCADE"))
    seq: Mapped[int]
    """Arrival order within the phase; intake replays the orders in it."""
    player: Mapped[str] = mapped_column(String(200))
    kind: Mapped[OrderKind] = mapped_column(enum_type(OrderKind))
    action: Mapped[str | None] = mapped_column(String(100))
    targets: Mapped[list[str]] = mapped_column(JSON)
    args: Mapped[dict[str, Any]] = mapped_column(JSON)
    candidates: Mapped[list[str]] = mapped_column(JSON)
    form: Mapped[str | None] = mapped_column(String(32))
    channel: Mapped[Channel] = mapped_column(enum_type(Channel))
    source_id: Mapped[str | None] = mapped_column(String(100))
    """The board id of the post (thread channel) or PM (pm channel)."""
    source_url: Mapped[str | None] = mapped_column(String(500))
    line: Mapped[int | None]
    text: Mapped[str] = mapped_column(Text, default="")
    at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    status: Mapped[OrderStatus] = mapped_column(enum_type(OrderStatus))
    ref: Mapped[str] = mapped_column(String(64))
    """A hash of where the order was read, so host overrides survive a re-parse."""


class ParseWarningRow(Base):
    __tablename__ = "parse_warnings"
    __table_args__ = (Index("ix_parse_warnings_phase_id_code", "phase_id", "code"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    phase_id: Mapped[int] = mapped_column(ForeignKey("phases.id", ondelete="CASCADE"))
    seq: Mapped[int]
    code: Mapped[str] = mapped_column(String(64))
    message: Mapped[str] = mapped_column(Text)
    player: Mapped[str | None] = mapped_column(String(200))
    action: Mapped[str | None] = mapped_column(String(100))
    accepted: Mapped[bool] = mapped_column(default=False)
    channel: Mapped[Channel | None] = mapped_column(enum_type(Channel))
    source_id: Mapped[str | None] = mapped_column(String(100))
    source_url: Mapped[str | None] = mapped_column(String(500))
    line: Mapped[int | None]
    text: Mapped[str] = mapped_column(Text, default="")
    choices: Mapped[list[str]] = mapped_column(JSON)
    resolved_by_host: Mapped[bool] = mapped_column(default=False)
    fix: Mapped[Any | None] = mapped_column(JSON)
    """The fix the host chose: one of `choices`, or another JSON value."""
    ref: Mapped[str] = mapped_column(String(64), index=True)


class ParseCacheRow(Base):
    """What parsing one content of a post or PM gave under one parse context.

    A cache: `key` hashes everything the parse reads (the content, sender, time, roster,
    grammar, parser code), so a replay takes the stored result instead of parsing again
    and still gets exactly what parsing would give.
    """

    __tablename__ = "parse_cache"
    __table_args__ = (
        UniqueConstraint("game_id", "key"),
        Index("ix_parse_cache_game_id_at", "game_id", "at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(64))
    at: Mapped[datetime] = mapped_column(UTCDateTime())
    """When the post or PM was made: a phase's replay loads the results of its window."""
    result: Mapped[dict[str, Any]] = mapped_column(JSON)


class HostOverride(Base):
    """A host decision: an order replaced or dropped, or the fix chosen for a warning."""

    __tablename__ = "host_overrides"
    __table_args__ = (Index("ix_host_overrides_phase_id_ref", "phase_id", "ref"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    phase_id: Mapped[int] = mapped_column(ForeignKey("phases.id", ondelete="CASCADE"))
    target: Mapped[OverrideTarget] = mapped_column(enum_type(OverrideTarget))
    ref: Mapped[str] = mapped_column(String(64))
    """The `ref` of the order or warning; a re-parse finds the override by it."""
    order: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    """The order that counts instead (None with target=order: the order is dropped)."""
    fix: Mapped[Any | None] = mapped_column(JSON)
    by: Mapped[str] = mapped_column(String(200))
    at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class EventRow(Base):
    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("phase_id", "seq"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    phase_id: Mapped[int] = mapped_column(ForeignKey("phases.id", ondelete="CASCADE"))
    seq: Mapped[int]
    type: Mapped[str] = mapped_column(String(64))
    fields: Mapped[dict[str, Any]] = mapped_column(JSON)
    audience: Mapped[Audience] = mapped_column(enum_type(Audience))
    recipients: Mapped[list[str]] = mapped_column(JSON)


class OutboxItem(Base):
    __tablename__ = "outbox"
    __table_args__ = (Index("ix_outbox_status_id", "status", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    phase_id: Mapped[int | None] = mapped_column(ForeignKey("phases.id", ondelete="CASCADE"))
    kind: Mapped[OutboxKind] = mapped_column(enum_type(OutboxKind))
    recipients: Mapped[list[str]] = mapped_column(JSON)
    subject: Mapped[str | None] = mapped_column(String(500))
    bbcode: Mapped[str] = mapped_column(Text)
    marker: Mapped[str] = mapped_column(String(100), unique=True)
    """Written into the post/PM too, so a restarted publisher can see what already went out."""
    status: Mapped[OutboxStatus] = mapped_column(
        enum_type(OutboxStatus), default=OutboxStatus.DRAFT
    )
    attempts: Mapped[int] = mapped_column(default=0)
    last_error: Mapped[str | None] = mapped_column(Text)
    board_id: Mapped[str | None] = mapped_column(String(100))
    """The post or PM id the board gave the published item."""
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    approved_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    sending_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    """When a send was first started: from then on the item may be on the board."""
    look_from: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    """A board cursor from before the first send (the thread's for a post, the sent box's
    for a PM): if the item reached the board, it is after it."""
    posted_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, onupdate=utcnow)
