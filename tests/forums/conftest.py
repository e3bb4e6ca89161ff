"""Fixtures for the forums tests: a controllable clock and local boards on SQLite/PostgreSQL."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine, text

from forums.local import LocalBoard, ManualClock
from forums.local import tables as local_tables

PG_URL_ENV = "FORUMGM_TEST_DATABASE_URL"


@pytest.fixture(autouse=True)
def cheap_passwords(monkeypatch: pytest.MonkeyPatch) -> None:
    # Real scrypt cost makes every add_user/login ~80 ms; the hash records its cost anyway.
    monkeypatch.setattr(local_tables, "SCRYPT_N", 2**4)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(datetime(2024, 3, 1, 12, 0, tzinfo=UTC))


def _postgres_engine(url: str) -> Iterator[Engine]:
    schema = f"forums_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(url)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    engine = create_engine(url, connect_args={"options": f"-csearch_path={schema}"})
    try:
        yield engine
    finally:
        engine.dispose()
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """A database for the local board: an SQLite file, and PostgreSQL when configured."""
    if request.param == "sqlite":
        engine = create_engine(f"sqlite:///{tmp_path / 'board.db'}")
        yield engine
        engine.dispose()
        return
    url = os.environ.get(PG_URL_ENV)
    if not url:
        pytest.skip(f"set {PG_URL_ENV} (e.g. postgresql+psycopg://postgres@127.0.0.1/test)")
    yield from _postgres_engine(url)


@pytest.fixture
def board(db_engine: Engine, clock: ManualClock) -> LocalBoard:
    """The GM's board with a schema, the GM and three players (password = name + "-pw")."""
    gm = LocalBoard(db_engine, "GM", "gm-pw", clock=clock)
    gm.create_schema()
    for name in ["GM", "Alice", "Bob", "Вася"]:
        gm.add_user(name, f"{name.lower()}-pw")
    return gm


@pytest.fixture
def thread(board: LocalBoard) -> str:
    return board.create_thread("Mafia I", "GM", first_post="Day 1 begins.")
