"""The local board's own tables (prefixed `local_`, own MetaData), engine, and passwords."""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    event,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.pool import StaticPool
from sqlalchemy.types import TypeDecorator

from forums.guard import private_sqlite

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite") and (url.rstrip("/") == "sqlite:" or ":memory:" in url):
        # An in-memory database lives in one connection; share it or each query sees a new one.
        return create_engine(url, poolclass=StaticPool, connect_args={"check_same_thread": False})
    engine = create_engine(url)
    if engine.dialect.name == "sqlite":
        private_sqlite(engine.url.database)  # password hashes; often the store's file too
        event.listen(engine, "connect", _write_ahead_log)
    return engine


def _write_ahead_log(dbapi_connection: Any, _record: Any) -> None:
    # A rehearsal posts a lot: commits append to a log instead of syncing the file twice.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


metadata = MetaData()
"""Separate from the store's MetaData: the local board is a forum, not part of forumgm's
data, and may share a database file with the store or live alone."""


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes on every backend (SQLite keeps no offset, so it is restored)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("local board times must be timezone-aware")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


users = Table(
    "local_users",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(100), nullable=False),
    # Names are unique ignoring case, as on phpBB and XenForo: "Вася" and "вася" are one user.
    Column("name_key", String(100), nullable=False, unique=True),
    Column("password_hash", String(300), nullable=False),
)

threads = Table(
    "local_threads",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("title", String(300), nullable=False),
    Column("created", UTCDateTime, nullable=False),
)

posts = Table(
    "local_posts",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("thread_id", ForeignKey("local_threads.id"), nullable=False, index=True),
    Column("number", Integer, nullable=False),
    Column("author_id", ForeignKey("local_users.id"), nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("bbcode", Text, nullable=False),
    Column("deleted", Boolean, nullable=False, default=False),
    Column("edit_count", Integer, nullable=False, default=0),
    Column("edited_at", UTCDateTime),
    Column("edited_by", ForeignKey("local_users.id")),
    UniqueConstraint("thread_id", "number", name="local_posts_thread_number"),
)

post_revisions = Table(
    "local_post_revisions",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("post_id", ForeignKey("local_posts.id"), nullable=False, index=True),
    Column("bbcode", Text, nullable=False),
    Column("replaced_at", UTCDateTime, nullable=False),
    Column("replaced_by", ForeignKey("local_users.id"), nullable=False),
)
"""One row per edit: the text as it was before that edit."""

pms = Table(
    "local_pms",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("sender_id", ForeignKey("local_users.id"), nullable=False),
    Column("subject", String(300), nullable=False),
    Column("bbcode", Text, nullable=False),
    Column("sent_at", UTCDateTime, nullable=False),
)

pm_recipients = Table(
    "local_pm_recipients",
    metadata,
    Column("pm_id", ForeignKey("local_pms.id"), primary_key=True),
    Column("user_id", ForeignKey("local_users.id"), primary_key=True),
    Column("position", Integer, nullable=False),
)

SCRYPT_N = 2**14
"""scrypt cost; the hash records it, so lowering it (tests do) keeps old hashes valid."""


NO_LOGIN = "!"
"""The password hash of an account no password opens."""


def name_key(name: str) -> str:
    return name.strip().casefold()


def hash_password(password: str) -> str:
    salt = os.urandom(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=SCRYPT_N, r=8, p=1, dklen=32)
    return f"scrypt${SCRYPT_N}$8$1${salt.hex()}${digest.hex()}"


def check_password(password: str, stored: str) -> bool:
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        actual = hashlib.scrypt(
            password.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p), dklen=32
        )
    except ValueError:
        return False
    return hmac.compare_digest(actual.hex(), digest)
