"""Opening the store: the engine, SQLite foreign keys, and migrations run in-process."""

from __future__ import annotations

from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event

from engine.store.store import Store
from forums.guard import private_sqlite

DEFAULT_URL = "sqlite:///forumgm.db"
MIGRATIONS = "engine.store:migrations"
"""The migrations as a package resource, so they are found from any working directory."""


def _sqlite_settings(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # SQLite ignores foreign keys (and ON DELETE CASCADE) unless each connection asks.
    cursor.execute("PRAGMA foreign_keys=ON")
    # Write-ahead log: a commit appends to the log instead of rewriting pages and syncing
    # twice, and readers never wait for the writer. synchronous=NORMAL syncs the log at
    # checkpoints only: a power cut may lose the last commits (the outbox's marker check
    # covers a lost "posted"), never corrupt the file; a killed process loses nothing.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def make_engine(url: str = DEFAULT_URL, **kwargs: Any) -> Engine:
    engine = create_engine(url, **kwargs)
    if engine.dialect.name == "sqlite":
        private_sqlite(engine.url.database)  # it holds marker keys and board sessions' traces
        event.listen(engine, "connect", _sqlite_settings)
    return engine


def alembic_config(engine: Engine) -> Config:
    config = Config()
    config.set_main_option("script_location", MIGRATIONS)
    # Percent signs in URLs (escaped passwords, options) would read as interpolation.
    url = engine.url.render_as_string(hide_password=False).replace("%", "%%")
    config.set_main_option("sqlalchemy.url", url)
    return config


def upgrade(engine: Engine, revision: str = "head") -> None:
    config = alembic_config(engine)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def downgrade(engine: Engine, revision: str = "base") -> None:
    config = alembic_config(engine)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, revision)


def open_store(url: str | None = None, *, migrate: bool = True, **engine_kwargs: Any) -> Store:
    """The store at `url` (a SQLite file by default), migrated to the latest schema."""
    engine = make_engine(url or DEFAULT_URL, **engine_kwargs)
    if migrate:
        upgrade(engine)
    return Store(engine)
