"""Tables for the host's side: host accounts (dashboard logins), settings, the audit log."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from engine.store.models.base import Base, UTCDateTime, utcnow


class HostAccount(Base):
    """A host who may log in to the dashboard; the password is kept only as a scrypt hash."""

    __tablename__ = "host_accounts"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    password_hash: Mapped[str] = mapped_column(String(300))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    password_set_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    """A session made before this moment is no longer valid (a changed password logs out)."""


class Setting(Base):
    """One value of the installation (e.g. the key dashboard session cookies are signed with)."""

    __tablename__ = "settings"

    key: Mapped[str] = mapped_column(String(100), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class HostAction(Base):
    """One thing a host did (a fix, an approval, a login), from the CLI or the dashboard."""

    __tablename__ = "host_actions"
    __table_args__ = (Index("ix_host_actions_game_id_id", "game_id", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"))
    phase: Mapped[str | None] = mapped_column(String(32))
    at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    by: Mapped[str] = mapped_column(String(200))
    """The host account (dashboard) or the system user (CLI)."""
    via: Mapped[str] = mapped_column(String(16))
    """"cli" or "dashboard"."""
    action: Mapped[str] = mapped_column(String(64))
    detail: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)

    def detail_text(self) -> str:
        """The detail as the host's views show it: "warning=3, fix=Петя"."""
        return ", ".join(f"{k}={v}" for k, v in self.detail.items())


class HostMeasure(Base):
    """Something the host did to a running game that its phases are read with: a player
    removed (modkill) or a grant (a vest, immunity, a vote weight). The replay of `phase`
    applies it at `at` (before the first post or PM after it), so a restarted process and
    a host's fix read the phase exactly as before."""

    __tablename__ = "host_measures"
    __table_args__ = (Index("ix_host_measures_game_id_phase", "game_id", "phase"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    phase: Mapped[str] = mapped_column(String(32))
    """The phase it counts for (the next one when it was made after a deadline)."""
    at: Mapped[datetime] = mapped_column(UTCDateTime())
    kind: Mapped[str] = mapped_column(String(32))
    """"remove" or "grant"."""
    player: Mapped[str] = mapped_column(String(200))
    detail: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    by: Mapped[str] = mapped_column(String(200))


class HostNotice(Base):
    """A notice the hosts were sent (a board PM, an e-mail): one per game, phase and cause,
    so a restarted service does not send it again."""

    __tablename__ = "host_notices"
    __table_args__ = (UniqueConstraint("game_id", "phase", "cause"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    phase: Mapped[str] = mapped_column(String(32))
    cause: Mapped[str] = mapped_column(String(32))
    at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
