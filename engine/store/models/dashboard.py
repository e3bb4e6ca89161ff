"""Tables of the dashboard's logins: the hosts' sessions and the wrong passwords per client."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from engine.store.models.base import Base, UTCDateTime, utcnow


class DashboardSession(Base):
    """One host's login to the dashboard. The browser's cookie holds a random token and the
    store only its SHA-256: logging out deletes the row, and every saved copy of the cookie
    stops working with it."""

    __tablename__ = "dashboard_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    host_id: Mapped[int] = mapped_column(
        ForeignKey("host_accounts.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime())
    client: Mapped[str] = mapped_column(String(64))
    """The address the host logged in from (as the audit log has it)."""


class LoginThrottle(Base):
    """The dashboard's login attempts from one client (an address; an IPv6 /64) that were not
    the right password, and when its next attempt may be checked. A right password deletes
    the row; so does an hour with no attempt."""

    __tablename__ = "login_throttle"

    client: Mapped[str] = mapped_column(String(64), primary_key=True)
    attempts: Mapped[int] = mapped_column(default=0)
    """Attempts checked (or reserved for checking) since the client's last right password."""
    last_attempt_at: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)
    next_check_at: Mapped[datetime] = mapped_column(UTCDateTime())
