"""Leases: a game is driven by one process at a time; an expired lease can be taken over,
and so can the lease of a process on this machine that is gone.

A lease names its owner (`forumgm run`'s "host:pid", or a test's name) and the process that
holds it: the host name, the machine (the kernel's boot id and the pid namespace: two
containers may share a host name, never both), the pid and when that process started (a
pid the kernel handed to another process since is not the owner). A process that finds a
lease of a process on its own machine that no longer runs (`kill -9`, a crash, an
out-of-memory kill) takes it at once; a lease held from another machine is waited out.
"""

from __future__ import annotations

import logging
import os
import socket
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from pathlib import Path

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError

from engine.store.models import GameLease
from engine.store.repo.base import RepoBase

log = logging.getLogger("forumgm.store")

PROC = Path("/proc")


@dataclass(frozen=True)
class Process:
    """A running process as a lease names it."""

    host: str
    machine: str | None
    pid: int
    started: int | None

    def same_machine(self, host: str | None, machine: str | None) -> bool:
        """Whether a process named by `host` and `machine` runs where this one could see it."""
        return self.machine is not None and host == self.host and machine == self.machine


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="ascii", errors="replace").strip()
    except OSError:
        return None


def _stat(pid: int) -> tuple[str, int] | None:
    """A process's state letter and start time (ticks after boot) from /proc, or None."""
    text = _read(PROC / str(pid) / "stat")
    if text is None:
        return None
    # "pid (comm) state ppid …": comm may hold spaces and parentheses; the last ")" ends it.
    fields = text[text.rfind(")") + 2 :].split()
    try:
        return fields[0], int(fields[19])
    except (IndexError, ValueError):
        return None


def _machine() -> str | None:
    """The kernel's boot id and this process's pid namespace (None where /proc has neither)."""
    boot = _read(PROC / "sys" / "kernel" / "random" / "boot_id")
    try:
        namespace = os.readlink(PROC / "self" / "ns" / "pid")
    except OSError:
        return None
    return f"{boot}/{namespace}" if boot else None


@cache
def this_process(pid: int | None = None) -> Process:
    """This process (`pid` only to tell a forked child from its parent in the cache)."""
    pid = os.getpid() if pid is None else pid
    stat = _stat(pid)
    return Process(socket.gethostname(), _machine(), pid, stat[1] if stat else None)


def current() -> Process:
    return this_process(os.getpid())


def process_gone(pid: int, started: int | None) -> bool:
    """Whether process `pid` (started at `started`) no longer runs on this machine: no such
    process, a zombie (killed, not yet reaped), or another process under a reused pid."""
    stat = _stat(pid)
    if stat is None:
        if PROC.joinpath("self").exists():
            return True  # /proc works and has no such process
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        except PermissionError:
            return False
        return False
    state, start = stat
    return state in ("Z", "X") or (started is not None and start != started)


class LeasesRepo(RepoBase):
    def acquire_lease(
        self,
        game_id: int,
        owner: str,
        now: datetime,
        ttl: timedelta,
        process: Process | None = None,
    ) -> bool:
        """Take or renew the game's lease; False while another owner's lease is still valid
        and its process may be alive."""
        me = process or current()
        try:
            with self._sessions.begin() as s:
                row = s.scalar(
                    select(GameLease).where(GameLease.game_id == game_id).with_for_update()
                )
                if row is None:
                    row = GameLease(game_id=game_id, owner=owner, expires_at=now + ttl)
                    s.add(row)
                elif row.owner != owner and row.expires_at > now:
                    if not self._owner_gone(row, me):
                        return False
                    log.warning(
                        "game %s: took the lease of %s over (process %s on %s is gone)",
                        game_id,
                        row.owner,
                        row.pid,
                        row.host,
                    )
                row.owner, row.expires_at = owner, now + ttl
                row.host, row.machine, row.pid, row.pid_start = (
                    me.host,
                    me.machine,
                    me.pid,
                    me.started,
                )
                return True
        except IntegrityError:
            return False  # another process inserted the lease first

    @staticmethod
    def _owner_gone(row: GameLease, me: Process) -> bool:
        if row.pid is None or not me.same_machine(row.host, row.machine):
            return False  # another machine's process (or an old lease): wait it out
        if row.pid == me.pid and row.pid_start == me.started:
            return False  # another owner name in this very process
        return process_gone(row.pid, row.pid_start)

    def renew_leases(self, owner: str, now: datetime, ttl: timedelta) -> int:
        """Extend every lease `owner` holds (one statement for all its games); how many."""
        with self._sessions.begin() as s:
            done = s.execute(
                update(GameLease)
                .where(GameLease.owner == owner, GameLease.expires_at > now)
                .values(expires_at=now + ttl)
            )
        return int(getattr(done, "rowcount", 0) or 0)

    def release_lease(self, game_id: int, owner: str) -> None:
        with self._sessions.begin() as s:
            s.execute(
                delete(GameLease).where(GameLease.game_id == game_id, GameLease.owner == owner)
            )

    def release_leases(self, owner: str) -> None:
        """Let go of every game `owner` holds (a process stopping)."""
        with self._sessions.begin() as s:
            s.execute(delete(GameLease).where(GameLease.owner == owner))

    def lease_owner(self, game_id: int, now: datetime) -> str | None:
        with self._sessions() as s:
            row = s.get(GameLease, game_id)
        return row.owner if row is not None and row.expires_at > now else None

    def leases(self, now: datetime) -> dict[int, str]:
        """Every game's owner now (a valid lease)."""
        with self._sessions() as s:
            rows = s.execute(
                select(GameLease.game_id, GameLease.owner).where(GameLease.expires_at > now)
            ).all()
        return {game_id: owner for game_id, owner in rows}
