"""The dashboard's sessions and login throttle in the store (SQLite and PostgreSQL)."""

from __future__ import annotations

from datetime import timedelta

from engine.store import Store
from engine.store.models import utcnow
from tests.store.conftest import T0

NO_SPACING = 5


def _spacing(attempts: int) -> timedelta:
    return timedelta(seconds=0 if attempts < NO_SPACING else 2 ** (attempts - NO_SPACING))


def _reserve(store: Store, client: str, seconds: float) -> tuple[timedelta, bool]:
    return store.reserve_login_check(
        client,
        T0 + timedelta(seconds=seconds),
        spacing=_spacing,
        hold=timedelta(seconds=10),
        forget=timedelta(hours=1),
    )


def test_a_session_lives_until_it_is_ended_expires_or_the_password_changes(store: Store) -> None:
    store.set_host_password("host", "scrypt$hash")
    later = utcnow() + timedelta(seconds=1)
    assert store.start_dashboard_session(
        "host", "a" * 64, client="127.0.0.1", now=later, expires_at=later + timedelta(hours=12)
    )
    assert not store.start_dashboard_session(
        "nobody", "b" * 64, client="127.0.0.1", now=later, expires_at=later + timedelta(hours=12)
    )
    assert store.dashboard_session_host("a" * 64, later) == "host"
    assert store.dashboard_session_host("a" * 64, later + timedelta(hours=12)) is None  # expired
    assert store.dashboard_session_host("b" * 64, later) is None
    assert store.end_dashboard_session("a" * 64)
    assert store.dashboard_session_host("a" * 64, later) is None  # ended: every copy of it
    assert not store.end_dashboard_session("a" * 64)
    store.start_dashboard_session(
        "host", "c" * 64, client="::1", now=later, expires_at=later + timedelta(hours=12)
    )
    store.set_host_password("host", "scrypt$another")
    assert store.dashboard_session_host("c" * 64, later) is None


def test_the_throttle_reserves_spaced_checks_per_client_and_forgets(store: Store) -> None:
    for _ in range(5):  # the first five are checked at once
        assert _reserve(store, "198.51.100.7", 0) == (timedelta(0), True)
    assert _reserve(store, "198.51.100.7", 0) == (timedelta(seconds=1), True)  # held 1 s
    # Its next check comes 2 s after that one: 3 s from now, within the 10 s held.
    assert _reserve(store, "198.51.100.7", 0) == (timedelta(seconds=3), True)
    assert _reserve(store, "198.51.100.7", 0) == (timedelta(seconds=7), True)
    assert _reserve(store, "198.51.100.7", 0) == (timedelta(seconds=15), False)  # refused
    assert _reserve(store, "198.51.100.7", 1) == (timedelta(seconds=14), False)
    row = store.login_throttle("198.51.100.7")
    assert row is not None and row.attempts == 8
    assert _reserve(store, "192.0.2.10", 0) == (timedelta(0), True)  # another client: at once
    store.login_was_right("198.51.100.7")
    assert store.login_throttle("198.51.100.7") is None
    assert _reserve(store, "198.51.100.7", 2) == (timedelta(0), True)
    # An hour after a client's last attempt, it is forgotten (by anyone's next attempt).
    _reserve(store, "203.0.113.1", 3600 + 3)
    assert store.login_throttle("192.0.2.10") is None
    assert store.login_throttle("198.51.100.7") is None
