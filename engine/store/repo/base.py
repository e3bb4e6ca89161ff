"""What every part of the store shares: sessions, errors and the common look-ups."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session, sessionmaker

from engine.core import PhaseId
from engine.store.models import Game, PhaseRecord


def aware(value: datetime | str) -> datetime:
    """A datetime from an aggregate (MIN, MAX), which skips the column's type: SQLite hands
    back naive UTC (or text)."""
    moment = datetime.fromisoformat(value) if isinstance(value, str) else value
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


class StoreError(Exception):
    """A request the store cannot carry out as asked."""


class NotFound(StoreError, LookupError):
    """No such board, game, phase, order, warning or outbox item."""


class InvalidTransition(StoreError):
    """A status change the lifecycle does not allow (e.g. posting a draft)."""


class MarkerTaken(StoreError):
    """An outbox marker already belongs to an item past the draft stage."""


class RepoBase:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        # Rows are handed out after the session closes; they must keep their loaded values.
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        self._phase_ids: dict[tuple[int, str], int] = {}
        """(game, phase) → the phase's row id: a row never changes its game or name."""

    def _phase_id(self, s: Session, game_id: int, phase: PhaseId | str) -> int:
        key = (game_id, str(phase))
        found = self._phase_ids.get(key)
        if found is None:
            found = self._phase_ids[key] = get_phase_id(s, game_id, phase)
        return found

    def close(self) -> None:
        self.engine.dispose()


def get_game_row(session: Session, game_id: int) -> Game:
    game = session.get(Game, game_id)
    if game is None:
        raise NotFound(f"no game with id {game_id}")
    return game


def get_phase_id(session: Session, game_id: int, phase: PhaseId | str) -> int:
    """The phase's row id alone (its state JSON stays unread)."""
    name = str(PhaseId.parse(phase) if isinstance(phase, str) else phase)
    found = session.scalar(
        select(PhaseRecord.id).where(PhaseRecord.game_id == game_id, PhaseRecord.phase == name)
    )
    if found is None:
        raise NotFound(f"game {game_id} has no phase {name!r}")
    return int(found)


def get_phase_row(session: Session, game_id: int, phase: PhaseId | str) -> PhaseRecord:
    name = str(PhaseId.parse(phase) if isinstance(phase, str) else phase)
    row = session.scalar(
        select(PhaseRecord).where(PhaseRecord.game_id == game_id, PhaseRecord.phase == name)
    )
    if row is None:
        raise NotFound(f"game {game_id} has no phase {name!r}")
    return row
