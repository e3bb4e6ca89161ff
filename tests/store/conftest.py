"""Store fixtures: every store test runs on SQLite, and on PostgreSQL when one is given."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url

from engine.core import GameState, Phase, PhaseId, PlayerState
from engine.store import Store, make_engine, open_store
from engine.store.models import Game

PG_ENV = "FORUMGM_TEST_DATABASE_URL"
T0 = datetime(2026, 3, 1, 16, 0, tzinfo=UTC)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A URL of an empty database, removed again after the test."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.db'}"
        return
    base = os.environ.get(PG_ENV)
    if not base:
        pytest.skip(f"PostgreSQL run: set {PG_ENV} (e.g. postgresql+psycopg://postgres@host/db)")
    # A schema of its own per test keeps runs (and other packages' tables) apart.
    schema = f"forumgm_store_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = make_url(base).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    """An unmigrated engine on the empty database."""
    eng = make_engine(database_url)
    yield eng
    eng.dispose()


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    st = open_store(database_url)
    yield st
    st.close()


@pytest.fixture
def game(store: Store) -> Game:
    board = store.create_board("phpbb", "https://forum.example", "GM", "env:FORUMGM_GM_PASSWORD")
    return store.create_game(board.id, "1234", "classic", seed=42, options={"hp": 3})


def make_state(names: tuple[str, ...] = ("Вася", "Петя", "Маша")) -> GameState:
    players = [
        PlayerState(n, role="citizen", faction="town", fields={"alive": True}) for n in names
    ]
    return GameState("classic", {"hp": 3}, players, phase=PhaseId("day", 1))


def make_phase(name: str = "day 1", opened: datetime = T0, hours: int = 24) -> Phase:
    return Phase(PhaseId.parse(name), opened, opened + timedelta(hours=hours))
