"""Leases: one process drives a game; another takes over once the lease expires."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from engine.store import Store

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
TTL = timedelta(minutes=2)


def test_one_owner_at_a_time_and_takeover(store: Store) -> None:
    board = store.create_board("local", "local://lease", "GM")
    game = store.create_game(board.id, "1", "classic", seed=1)
    assert store.acquire_lease(game.id, "a", NOW, TTL)
    assert not store.acquire_lease(game.id, "b", NOW + timedelta(minutes=1), TTL)
    assert store.acquire_lease(game.id, "a", NOW + timedelta(minutes=1), TTL)  # renewal
    assert store.lease_owner(game.id, NOW + timedelta(minutes=2)) == "a"
    later = NOW + timedelta(minutes=4)  # "a" died and stopped renewing
    assert store.lease_owner(game.id, later) is None
    assert store.acquire_lease(game.id, "b", later, TTL)
    assert not store.acquire_lease(game.id, "a", later, TTL)
    store.release_lease(game.id, "b")
    assert store.acquire_lease(game.id, "a", later, TTL)
