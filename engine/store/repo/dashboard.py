"""The dashboard's sessions and its per-client login throttle (engine/app/dashboard/guard.py
decides; the store keeps, so a restarted dashboard forgets neither)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from sqlalchemy import delete, select

from engine.store.models import DashboardSession, HostAccount, LoginThrottle
from engine.store.repo.base import RepoBase


class DashboardRepo(RepoBase):
    # -- sessions ---------------------------------------------------------------------------

    def start_dashboard_session(
        self, name: str, token_hash: str, *, client: str, now: datetime, expires_at: datetime
    ) -> bool:
        """Keep a new session of host `name` (False: no such account). Expired sessions of
        every host are deleted on the way."""
        with self._sessions.begin() as s:
            s.execute(delete(DashboardSession).where(DashboardSession.expires_at <= now))
            host_id = s.scalar(select(HostAccount.id).where(HostAccount.name == name))
            if host_id is None:
                return False
            s.add(
                DashboardSession(
                    token_hash=token_hash,
                    host_id=host_id,
                    created_at=now,
                    expires_at=expires_at,
                    client=client[:64],
                )
            )
        return True

    def dashboard_session_host(self, token_hash: str, now: datetime) -> str | None:
        """The host whose live session this is: None once it was ended or expired, or the
        host's password changed after it began."""
        query = (
            select(HostAccount.name, HostAccount.password_set_at, DashboardSession.created_at)
            .join(HostAccount, HostAccount.id == DashboardSession.host_id)
            .where(DashboardSession.token_hash == token_hash, DashboardSession.expires_at > now)
        )
        with self._sessions() as s:
            row = s.execute(query).one_or_none()
        if row is None:
            return None
        name, password_set_at, created_at = row
        return name if created_at >= password_set_at else None

    def end_dashboard_session(self, token_hash: str) -> bool:
        """Delete the session (logging out); False if it was not there."""
        with self._sessions.begin() as s:
            gone = s.execute(
                delete(DashboardSession).where(DashboardSession.token_hash == token_hash)
            )
        return bool(getattr(gone, "rowcount", 0))

    # -- the login throttle -----------------------------------------------------------------

    def reserve_login_check(
        self,
        client: str,
        now: datetime,
        *,
        spacing: Callable[[int], timedelta],
        hold: timedelta,
        forget: timedelta,
    ) -> tuple[timedelta, bool]:
        """When a login attempt from `client` may be checked, as (wait from now, reserved).

        A wait up to `hold` reserves the check: the attempt counts as not right until
        `login_was_right` says otherwise, and the client's next check comes `spacing(count)`
        after this one. A longer wait reserves nothing (the attempt is refused). Clients with
        no attempt for `forget` are forgotten.
        """
        with self._sessions.begin() as s:
            s.execute(delete(LoginThrottle).where(LoginThrottle.last_attempt_at <= now - forget))
            row = s.get(LoginThrottle, client, with_for_update=True)
            check_at = max(now, row.next_check_at) if row is not None else now
            wait = check_at - now
            if wait > hold:
                return wait, False
            if row is None:
                row = LoginThrottle(client=client, attempts=0)
                s.add(row)
            row.attempts += 1
            row.last_attempt_at = check_at
            row.next_check_at = check_at + spacing(row.attempts)
        return wait, True

    def login_was_right(self, client: str) -> None:
        """The right password came from `client`: its attempts are forgotten."""
        with self._sessions.begin() as s:
            s.execute(delete(LoginThrottle).where(LoginThrottle.client == client))

    def login_throttle(self, client: str) -> LoginThrottle | None:
        with self._sessions() as s:
            return s.get(LoginThrottle, client)
