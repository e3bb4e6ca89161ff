"""Leases: one process drives a game; another takes over once the lease expires."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from engine.store import Store
from engine.store.repo.leases import Process, current, this_process

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


def _finished_process() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_gone_process_on_this_machine_loses_its_lease_at_once(store: Store) -> None:
    board = store.create_board("local", "local://lease", "GM")
    game = store.create_game(board.id, "1", "classic", seed=1)
    me = current()
    assert me.machine is not None, "this test needs /proc"
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        alive = this_process(sleeper.pid)
        assert store.acquire_lease(game.id, "a", NOW, TTL, process=alive)
        # "a" runs: its lease holds.
        assert not store.acquire_lease(game.id, "b", NOW + timedelta(seconds=1), TTL)
        # The same owner name from a process on another machine: waited out as well.
        elsewhere = replace(alive, host="another-host")
        assert store.acquire_lease(game.id, "a", NOW, TTL, process=elsewhere)
        sleeper.kill()  # SIGKILL; not reaped yet: a zombie is gone too
        os.waitid(os.P_PID, sleeper.pid, os.WEXITED | os.WNOWAIT)  # dead, left unreaped
        assert not store.acquire_lease(game.id, "b", NOW + timedelta(seconds=1), TTL)
        assert store.acquire_lease(game.id, "a", NOW, TTL, process=alive)
        assert store.acquire_lease(game.id, "b", NOW + timedelta(seconds=1), TTL)
        assert store.lease_owner(game.id, NOW + timedelta(seconds=2)) == "b"
    finally:
        sleeper.kill()
        sleeper.wait()
    store.release_lease(game.id, "b")
    # A pid the kernel gave to another process since is not the owner.
    reused = Process(me.host, me.machine, me.pid, (me.started or 0) + 1)
    assert store.acquire_lease(game.id, "c", NOW, TTL, process=reused)
    assert store.acquire_lease(game.id, "d", NOW + timedelta(seconds=3), TTL)
    store.release_lease(game.id, "d")
    # A finished process's pid.
    gone = Process(me.host, me.machine, _finished_process(), None)
    assert store.acquire_lease(game.id, "e", NOW + timedelta(seconds=3), TTL, process=gone)
    assert store.acquire_lease(game.id, "f", NOW + timedelta(seconds=4), TTL)


def test_the_heartbeat_renews_every_lease_of_an_owner(store: Store) -> None:
    board = store.create_board("local", "local://lease", "GM")
    games = [store.create_game(board.id, str(n), "classic", seed=1).id for n in range(3)]
    for game_id in games[:2]:
        assert store.acquire_lease(game_id, "a", NOW, TTL)
    assert store.acquire_lease(games[2], "other", NOW, TTL)
    assert store.renew_leases("a", NOW + timedelta(minutes=1), TTL) == 2
    later = NOW + timedelta(minutes=2, seconds=30)
    assert store.leases(later) == {games[0]: "a", games[1]: "a"}
    store.release_leases("a")
    assert store.leases(later) == {}
