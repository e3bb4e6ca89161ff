"""The migrations create exactly the models' schema, downgrade cleanly, and run from anywhere."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, inspect, text

from engine.store import downgrade, open_store, upgrade
from engine.store.db import alembic_config
from engine.store.models import Base


def _head(engine: Engine) -> str | None:
    return ScriptDirectory.from_config(alembic_config(engine)).get_current_head()


def _tables(engine: Engine) -> set[str]:
    return set(inspect(engine).get_table_names())


def test_upgrade_from_empty_creates_exactly_the_model_tables(engine: Engine) -> None:
    assert _tables(engine) == set()
    upgrade(engine)
    assert _tables(engine) == set(Base.metadata.tables) | {"alembic_version"}


def test_migrated_schema_matches_the_models(engine: Engine) -> None:
    upgrade(engine)
    with engine.connect() as conn:
        ctx = MigrationContext.configure(conn, opts={"compare_type": True})
        diff = compare_metadata(ctx, Base.metadata)
    assert diff == []


def test_indexes_and_unique_constraints_exist(engine: Engine) -> None:
    upgrade(engine)
    insp = inspect(engine)
    uniques = {tuple(u["column_names"]) for u in insp.get_unique_constraints("raw_posts")}
    assert ("game_id", "post_id") in uniques
    outbox_uniques = {tuple(u["column_names"]) for u in insp.get_unique_constraints("outbox")}
    assert ("marker",) in outbox_uniques
    indexes = {i["name"] for i in insp.get_indexes("raw_posts")}
    assert "ix_raw_posts_game_id_thread_id_number" in indexes


def test_downgrade_to_base_removes_every_table_and_upgrade_again_works(engine: Engine) -> None:
    upgrade(engine)
    downgrade(engine, "base")
    assert _tables(engine) <= {"alembic_version"}
    upgrade(engine)
    assert _tables(engine) == set(Base.metadata.tables) | {"alembic_version"}


def test_open_store_finds_its_migrations_from_any_directory(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    store = open_store(database_url)
    try:
        assert _tables(store.engine) == set(Base.metadata.tables) | {"alembic_version"}
        with store.engine.connect() as conn:
            version = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
        assert version == _head(store.engine)  # the newest migration
        open_store(database_url).close()  # opening an up-to-date store again is a no-op
    finally:
        store.close()


def test_sqlite_connections_enforce_foreign_keys(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'fk.db'}")
    try:
        with store.engine.connect() as conn:
            assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1
    finally:
        store.close()


def test_no_column_could_hold_a_password(engine: Engine) -> None:
    upgrade(engine)
    columns = {(t, c["name"]) for t in Base.metadata.tables for c in inspect(engine).get_columns(t)}
    # The dashboard's host accounts keep a scrypt hash and when it was set, never the password
    # (tests/app/test_host_cmd.py reads the stored value).
    hashed = {("host_accounts", "password_hash"), ("host_accounts", "password_set_at")}
    assert not {c for c in columns - hashed if "password" in c[1] or "secret" in c[1]}
