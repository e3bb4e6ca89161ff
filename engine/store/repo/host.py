"""Host accounts, installation settings and the audit log of what hosts did."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from engine.store.models import DashboardSession, HostAccount, HostAction, Setting, utcnow
from engine.store.repo.base import RepoBase


class HostRepo(RepoBase):
    def set_host_password(self, name: str, password_hash: str) -> HostAccount:
        """Create the host account `name`, or give it a new password (older sessions end)."""
        with self._sessions.begin() as s:
            row = s.scalar(select(HostAccount).where(HostAccount.name == name))
            if row is None:
                row = HostAccount(name=name, password_hash=password_hash)
                s.add(row)
            else:
                row.password_hash, row.password_set_at = password_hash, utcnow()
                s.execute(delete(DashboardSession).where(DashboardSession.host_id == row.id))
        return row

    def host_account(self, name: str) -> HostAccount | None:
        with self._sessions() as s:
            return s.scalar(select(HostAccount).where(HostAccount.name == name))

    def host_accounts(self) -> list[HostAccount]:
        with self._sessions() as s:
            return list(s.scalars(select(HostAccount).order_by(HostAccount.name)))

    def setting(self, key: str, *, default_token: int | None = None) -> str | None:
        """A setting's value; with `default_token`, a random one of that many bytes is made
        (once: two processes asking at the same moment get the same value)."""
        with self._sessions() as s:
            row = s.get(Setting, key)
        if row is not None or default_token is None:
            return row.value if row is not None else None
        try:
            with self._sessions.begin() as s:
                s.add(Setting(key=key, value=secrets.token_hex(default_token)))
        except IntegrityError:
            pass  # another process made it first: take theirs
        with self._sessions() as s:
            made = s.get(Setting, key)
        return made.value if made is not None else None

    def record_action(
        self,
        action: str,
        *,
        by: str,
        via: str,
        game_id: int | None = None,
        phase: str | None = None,
        detail: Mapping[str, Any] | None = None,
        at: datetime | None = None,
    ) -> HostAction:
        """Write one host action to the audit log (never a password or a session token)."""
        with self._sessions.begin() as s:
            row = HostAction(
                game_id=game_id,
                phase=phase,
                by=by,
                via=via,
                action=action,
                detail=dict(detail or {}),
                at=at or utcnow(),
            )
            s.add(row)
        return row

    def host_actions(self, game_id: int | None = None, *, limit: int = 200) -> list[HostAction]:
        """The audit log, newest first (one game's, or every game's and the logins)."""
        query = select(HostAction).order_by(HostAction.id.desc()).limit(limit)
        if game_id is not None:
            query = query.where(HostAction.game_id == game_id)
        with self._sessions() as s:
            return list(s.scalars(query))
