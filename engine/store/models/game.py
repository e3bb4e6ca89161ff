"""Tables for boards, games, players and phases."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, BigInteger, Enum, ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from engine.store.models.base import Base, UTCDateTime, utcnow


def enum_type(enum: type[StrEnum]) -> Enum:
    """A VARCHAR holding the enum's values: portable, and new members need no ALTER TYPE."""
    return Enum(
        enum,
        native_enum=False,
        length=16,
        values_callable=lambda members: [m.value for m in members],
        validate_strings=True,
    )


class GameStatus(StrEnum):
    SETUP = "setup"
    RUNNING = "running"
    FINISHED = "finished"


class PhaseStatus(StrEnum):
    OPEN = "open"
    """Commands are being taken."""
    FROZEN = "frozen"
    """The deadline passed and the inputs were read for the last time."""
    RESOLVED = "resolved"
    """Events and the state after are stored; results await the host."""
    PUBLISHED = "published"


class Board(Base):
    __tablename__ = "boards"
    __table_args__ = (UniqueConstraint("base_url", "gm_user"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    engine: Mapped[str] = mapped_column(String(32))
    base_url: Mapped[str] = mapped_column(String(500))
    gm_user: Mapped[str] = mapped_column(String(200))
    credentials_ref: Mapped[str | None] = mapped_column(String(200))
    """Where the GM password lives (e.g. ``env:FORUMGM_PASSWORD``); never the secret itself."""
    login_tried_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    """When the service last tried to log in on its own (at most one try per 15 minutes)."""
    login_failed_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    """When a login was refused: no more logins on its own until the host acts."""
    login_error: Mapped[str | None] = mapped_column(Text)
    """What the board said when it refused the login (never the password)."""
    login_refused_hash: Mapped[str | None] = mapped_column(String(200))
    """A salted scrypt hash of the password that was refused, to notice a changed one."""
    send_limits: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    """A limit of hours the board set on the account's sends, by kind ("pm", "post"): when
    it lifts and the board's line (`GamesRepo.limit_sends`)."""
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class Game(Base):
    __tablename__ = "games"
    __table_args__ = (UniqueConstraint("board_id", "thread_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    board_id: Mapped[int] = mapped_column(ForeignKey("boards.id", ondelete="RESTRICT"))
    title: Mapped[str] = mapped_column(String(300), default="")
    thread_id: Mapped[str] = mapped_column(String(100))
    thread_url: Mapped[str | None] = mapped_column(String(500))
    ruleset: Mapped[str] = mapped_column(String(64))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    seed: Mapped[int] = mapped_column(BigInteger)
    language: Mapped[str] = mapped_column(String(16), default="ru")
    time_zone: Mapped[str] = mapped_column(String(64), default="Europe/Moscow")
    status: Mapped[GameStatus] = mapped_column(enum_type(GameStatus), default=GameStatus.SETUP)
    state: Mapped[dict[str, Any] | None] = mapped_column(JSON, deferred=True)
    """`GameState.to_json()` as of the last resolved (or set-up) phase. Read only when asked
    for (`load_state`): a look at the game's row (its status, its board) never decodes it."""
    marker_key: Mapped[str | None] = mapped_column(String(64))
    """The key outbox markers are an HMAC under (None: a game from before keyed markers)."""
    thread_cursor: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    """Where the last recorded read of the thread ended (the board's opaque cursor)."""
    inbox_cursor: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    tag: Mapped[str | None] = mapped_column(String(100))
    """A short name players may put in a PM's subject to say it is for this game."""
    accounts: Mapped[list[str] | None] = mapped_column(JSON)
    """The board accounts that play or may play in the game (the game file's seats and
    substitutes): other games on the same GM account route PMs by them."""
    deadline_shift: Mapped[int] = mapped_column(default=0)
    """Seconds every deadline of the schedule has moved (the host shifted it after a
    deadline passed while results waited)."""
    sent_cursor: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    """Where the publisher's last look at the GM's sent box ended."""
    paused_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    """When the host paused the game (None: it runs): no deadline passes while paused."""
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, onupdate=utcnow)


class Player(Base):
    __tablename__ = "players"
    __table_args__ = (
        UniqueConstraint("game_id", "name"),
        Index("ix_players_game_id_seat", "game_id", "seat"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[int]
    """Seating order from 1; a substitute takes the seat of the player they replace."""
    name: Mapped[str] = mapped_column(String(200))
    board_user_id: Mapped[str | None] = mapped_column(String(100))
    role: Mapped[str | None] = mapped_column(String(100))
    faction: Mapped[str | None] = mapped_column(String(100))
    alive: Mapped[bool] = mapped_column(default=True)
    in_play: Mapped[bool] = mapped_column(default=True)
    replaced_by: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"))
    since: Mapped[datetime | None] = mapped_column(UTCDateTime())
    """When a substitute took the seat over (None: held it from the start)."""


class PhaseRecord(Base):
    __tablename__ = "phases"
    __table_args__ = (UniqueConstraint("game_id", "phase"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    phase: Mapped[str] = mapped_column(String(32))
    """The phase id as text: "turn 3", "night 1"."""
    opened_at: Mapped[datetime] = mapped_column(UTCDateTime())
    deadline: Mapped[datetime] = mapped_column(UTCDateTime())
    status: Mapped[PhaseStatus] = mapped_column(enum_type(PhaseStatus), default=PhaseStatus.OPEN)
    state_before: Mapped[dict[str, Any]] = mapped_column(JSON)
    state_after: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    next_deadline: Mapped[datetime | None] = mapped_column(UTCDateTime())
    """The deadline the phase's results announce for the next phase: the one it gets."""
    read_from: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    """The board cursors as the phase opened (`{"thread": …, "inbox": …}`): its deadline
    re-read starts there (None: from the start of the thread and the inbox)."""
    frozen_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    resolved_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    published_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class GameLease(Base):
    """Which `forumgm run` process drives a game, until when (several processes, one store)."""

    __tablename__ = "game_leases"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    owner: Mapped[str] = mapped_column(String(200))
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime())
    host: Mapped[str | None] = mapped_column(String(255))
    """The owner's machine (host name), where its process can be looked at."""
    machine: Mapped[str | None] = mapped_column(String(200))
    """The owner's kernel boot and process namespace: one host name, the same process ids."""
    pid: Mapped[int | None] = mapped_column()
    pid_start: Mapped[int | None] = mapped_column(BigInteger)
    """When the owner's process started (clock ticks after boot): a reused pid is another."""
