"""What the host does to a running game (removals, grants, pause, deadlines) and the notices
the hosts were sent."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from engine.store.models import HostMeasure, HostNotice, Setting
from engine.store.repo.base import RepoBase, aware, get_game_row, get_phase_row


class SteerRepo(RepoBase):
    def add_measure(
        self,
        game_id: int,
        phase: str,
        *,
        at: datetime,
        kind: str,
        player: str,
        detail: Mapping[str, Any],
        by: str,
    ) -> HostMeasure:
        """Record a removal or a grant the phase `phase` is read with from `at` on."""
        with self._sessions.begin() as s:
            get_game_row(s, game_id)
            row = HostMeasure(
                game_id=game_id,
                phase=phase,
                at=at,
                kind=kind,
                player=player,
                detail=dict(detail),
                by=by,
            )
            s.add(row)
        return row

    def measures(self, game_id: int, phase: str | None = None) -> list[HostMeasure]:
        """The game's measures (one phase's), in the order they were made."""
        query = select(HostMeasure).where(HostMeasure.game_id == game_id)
        if phase is not None:
            query = query.where(HostMeasure.phase == phase)
        with self._sessions() as s:
            return list(s.scalars(query.order_by(HostMeasure.at, HostMeasure.id)))

    def set_paused(self, game_id: int, at: datetime | None) -> None:
        """Pause the game from `at` (None: it runs again)."""
        with self._sessions.begin() as s:
            get_game_row(s, game_id).paused_at = at

    def paused_at(self, game_id: int) -> datetime | None:
        with self._sessions() as s:
            when = get_game_row(s, game_id).paused_at
        return aware(when) if when is not None else None

    def set_phase_deadline(self, game_id: int, phase: str, deadline: datetime) -> None:
        """The host moved an open phase's deadline."""
        with self._sessions.begin() as s:
            get_phase_row(s, game_id, phase).deadline = deadline

    def notice_once(self, game_id: int, phase: str, cause: str, *, at: datetime) -> bool:
        """Record that the hosts are told `cause` for `phase`; False if they already were
        (by this process or another one, before a restart or not)."""
        try:
            with self._sessions.begin() as s:
                get_game_row(s, game_id)
                s.add(HostNotice(game_id=game_id, phase=phase, cause=cause, at=at))
        except IntegrityError:
            return False
        return True

    def forget_notice(self, game_id: int, phase: str, cause: str) -> None:
        """A notice that could not be sent: the next step tries again."""
        with self._sessions.begin() as s:
            row = s.scalar(
                select(HostNotice).where(
                    HostNotice.game_id == game_id,
                    HostNotice.phase == phase,
                    HostNotice.cause == cause,
                )
            )
            if row is not None:
                s.delete(row)

    def failing_since(self, game_id: int, at: datetime | None) -> datetime | None:
        """A step of the game failed at `at` (None: one went through): since when its steps
        fail without a break (None: they do not). Kept across restarts."""
        key = f"failing_since:{game_id}"
        with self._sessions.begin() as s:
            row = s.get(Setting, key)
            if at is None:
                if row is not None:
                    s.delete(row)
                return None
            if row is None:
                s.add(Setting(key=key, value=at.isoformat()))
                return at
            return aware(row.value)

    def set_ended(self, game_id: int, marker: str) -> None:
        """The host ended the game (`forumgm steer end`); `marker` is its final post's."""
        with self._sessions.begin() as s:
            get_game_row(s, game_id)
            key = f"ended_by_host:{game_id}"
            row = s.get(Setting, key)
            if row is None:
                s.add(Setting(key=key, value=marker))
            else:
                row.value = marker

    def ended_by_host(self, game_id: int) -> str | None:
        """The final post's marker of a game the host ended, else None (read without the
        game's state)."""
        with self._sessions() as s:
            row = s.get(Setting, f"ended_by_host:{game_id}")
        return row.value if row is not None else None
