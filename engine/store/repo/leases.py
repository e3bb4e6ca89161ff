"""Leases: a game is driven by one process at a time; an expired lease can be taken over."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from engine.store.models import GameLease
from engine.store.repo.base import RepoBase


class LeasesRepo(RepoBase):
    def acquire_lease(self, game_id: int, owner: str, now: datetime, ttl: timedelta) -> bool:
        """Take or renew the game's lease; False while another owner's lease is still valid."""
        try:
            with self._sessions.begin() as s:
                row = s.scalar(
                    select(GameLease).where(GameLease.game_id == game_id).with_for_update()
                )
                if row is None:
                    s.add(GameLease(game_id=game_id, owner=owner, expires_at=now + ttl))
                    return True
                if row.owner != owner and row.expires_at > now:
                    return False
                row.owner, row.expires_at = owner, now + ttl
                return True
        except IntegrityError:
            return False  # another process inserted the lease first

    def release_lease(self, game_id: int, owner: str) -> None:
        with self._sessions.begin() as s:
            s.execute(
                delete(GameLease).where(GameLease.game_id == game_id, GameLease.owner == owner)
            )

    def lease_owner(self, game_id: int, now: datetime) -> str | None:
        with self._sessions() as s:
            row = s.get(GameLease, game_id)
        return row.owner if row is not None and row.expires_at > now else None
