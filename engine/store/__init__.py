"""The store: SQLAlchemy tables, Alembic migrations and the `Store` repository."""

from engine.store.db import DEFAULT_URL, downgrade, make_engine, open_store, upgrade
from engine.store.models import GameStatus, OrderStatus, OutboxKind, OutboxStatus, PhaseStatus
from engine.store.repo.base import InvalidTransition, MarkerTaken, NotFound, StoreError
from engine.store.repo.outbox import OutboxDraft
from engine.store.repo.parse import StoredOrder, StoredWarning
from engine.store.repo.raw import Recorded
from engine.store.store import Store

__all__ = [
    "DEFAULT_URL",
    "GameStatus",
    "InvalidTransition",
    "MarkerTaken",
    "NotFound",
    "OrderStatus",
    "OutboxDraft",
    "OutboxKind",
    "OutboxStatus",
    "PhaseStatus",
    "Recorded",
    "Store",
    "StoreError",
    "StoredOrder",
    "StoredWarning",
    "downgrade",
    "make_engine",
    "open_store",
    "upgrade",
]
