"""`forumgm run`: APScheduler drives each game's steps; the store holds the truth.

Each game gets one job. After every step the job is rescheduled: every few minutes in a
phase's last hour, rarer before, at the deadline itself, and once a minute while results
wait for the host. A restarted process rebuilds the jobs from the games it finds, and a
lease in the store makes sure only one process drives a game at a time.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.date import DateTrigger
from apscheduler.triggers.interval import IntervalTrigger

from engine.clock import Clock
from engine.i18n import L_, Said, said_of
from engine.publish import one_line
from engine.service.driver import GameDriver
from engine.service.logins import LoginHeld
from engine.service.vote_count import next_vote_count
from engine.store import Store
from engine.store.models import GameStatus, PhaseStatus
from forums.errors import BoardError, CaptchaRequired, LoginFailed

log = logging.getLogger("forumgm.run")


@dataclass(frozen=True)
class Cadence:
    far: timedelta = timedelta(minutes=15)
    near: timedelta = timedelta(minutes=2)
    near_window: timedelta = timedelta(hours=1)
    waiting: timedelta = timedelta(minutes=1)
    lease: timedelta = timedelta(seconds=90)
    """How long a lease holds without renewal: the running service renews its leases every
    third of it (`Service`), so a process that stopped without a word (on another machine;
    on this one its lease is taken at once) is waited for at most this long."""
    watch: timedelta = timedelta(seconds=20)
    """How often a game driven by another process is looked at again: its owner may be
    gone (a lease of a dead process on this machine is taken at once)."""
    retry: timedelta = timedelta(minutes=2)
    """After a failed step (the board unreachable…), the next try."""


STOP_GRACE = timedelta(seconds=60)
"""How long a stopped service waits for a step under way to end (a post being sent); less
than a lease, which is not renewed meanwhile."""

STEP_FAILED = "step failed"
"""How `drive_once`'s answer starts when the step raised (the rest says what failed): its
English, whatever language the host reads it in (`engine.i18n.Said`)."""

ELSEWHERE = "driven by another process"
"""`drive_once`'s answer when another process holds the game's lease."""


def failed(status: str) -> bool:
    return status.startswith(STEP_FAILED)


def failure(status: str) -> str:
    """What failed in a failed step's answer, without the "step failed: " it starts with."""
    why = status.field("why") if isinstance(status, Said) else None
    return why if isinstance(why, str) else status.removeprefix(f"{STEP_FAILED}: ")


def step_failed(why: str) -> Said:
    """A failed step's answer: "step failed: …" (`failed` tells it by its English)."""
    return L_("step failed: {why}", why=why)


def owner_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def next_run(driver: GameDriver, now: datetime, cadence: Cadence) -> datetime | None:
    """When this game needs attention next (None: it is over): what the game waits for, or
    the moment a limit of the board lifts, if sooner (what waits behind it goes out then)."""
    when = _next_run(driver, now, cadence)
    lifts = [held.until for held in driver.publisher.held if held.until > now]
    return min(when, *lifts) if when is not None and lifts else when


def _next_run(driver: GameDriver, now: datetime, cadence: Cadence) -> datetime | None:
    game = driver.store.get_game(driver.game_id)
    if game.status is GameStatus.FINISHED:
        return None
    if driver.store.ended_by_host(driver.game_id) is not None:
        return now + cadence.waiting  # its final post waits for the host
    ph = driver.store.current_phase(driver.game_id)
    if game.paused_at is not None:
        # No deadline passes; the thread and the inbox are still read.
        return now + (
            cadence.far if ph is not None and ph.status is PhaseStatus.OPEN else cadence.waiting
        )
    if ph is None or ph.status is not PhaseStatus.OPEN:
        return now + cadence.waiting
    left = ph.deadline - now
    if left <= timedelta(0):
        return now
    interval = cadence.near if left <= cadence.near_window else cadence.far
    count_at = next_vote_count(driver.config.vote_count, ph, now)  # a vote count post
    return min(ph.deadline, now + interval, *([count_at] if count_at is not None else []))


async def drive_once(driver: GameDriver, owner: str, cadence: Cadence) -> str:
    """One step of one game, if this process holds (or can take) its lease; then the hosts
    are told what needs them (`driver.notifier`)."""
    status = await _step(driver, owner, cadence)
    if driver.notifier is not None and status != ELSEWHERE:
        try:
            await driver.notifier.after_step(status, failed(status), driver.clock())
        except Exception:  # a notice never stops the game
            log.exception(L_("game {game}: telling the hosts failed", game=driver.game_id))
    return status


async def _step(driver: GameDriver, owner: str, cadence: Cadence) -> str:
    now = driver.clock()
    if not driver.store.acquire_lease(driver.game_id, owner, now, cadence.lease):
        return L_("driven by another process")
    try:
        return await driver.step(now)
    except (LoginFailed, CaptchaRequired) as exc:
        # No traceback: what went wrong and what the host should do is all there is to say.
        why = said_of(exc)
        log.warning(L_("game {game}: no login: {why}", game=driver.game_id, why=why))
        if isinstance(exc, LoginHeld):
            return step_failed(L_("not logged in: {why}", why=why))
        return step_failed(
            L_(
                "not logged in: {error}: {why}; forumgm logs in there no more on its own: check "
                "the password, then run `forumgm board login {path}`",
                error=type(exc).__name__,
                why=why,
                path=driver.config.path,
            )
        )
    except Exception as exc:
        # One line for the operator (the caller prints it): a board's error says what went
        # wrong in its own words, anything else names its kind too. The traceback goes to
        # `--debug` and the log file.
        log.debug("game %s: the failed step's traceback", driver.game_id, exc_info=True)
        said = said_of(exc)  # a line of ours (the publisher's) keeps its translation
        text = said if isinstance(said, Said) else " ".join(str(exc).split())
        return step_failed(text if isinstance(exc, BoardError) and text else one_line(exc))


class Service:
    """Runs the jobs of several games in one process."""

    def __init__(
        self,
        drivers: Sequence[GameDriver],
        *,
        cadence: Cadence | None = None,
        owner: str | None = None,
    ) -> None:
        self.drivers = list(drivers)
        self.cadence = cadence or Cadence()
        self.owner = owner or owner_id()
        self.scheduler = AsyncIOScheduler()
        self.last: dict[int, str] = {}
        """Game id → what its last finished step said (what `forumgm run` says when stopped)."""
        self._busy: set[asyncio.Task[None]] = set()
        self.grace = STOP_GRACE

    async def _job(self, driver: GameDriver) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._busy.add(task)
        try:
            await self._step(driver)
        finally:
            if task is not None:
                self._busy.discard(task)

    async def _step(self, driver: GameDriver) -> None:
        try:
            status = await drive_once(driver, self.owner, self.cadence)
        except asyncio.CancelledError:
            # The service is stopping (Ctrl-C, `run --once` done) while this step waited on a
            # worker thread: the step is left where it was, and the next run does it again
            # from what the store holds (every step can be repeated), so nothing is lost.
            log.info(
                L_(
                    "game {game}: stopped in the middle of a step; the next run repeats it",
                    game=driver.game_id,
                )
            )
            return
        self.last[driver.game_id] = status
        now = driver.clock()
        when = next_run(driver, now, self.cadence)
        if status == ELSEWHERE:
            when = now + self.cadence.watch  # check whether its owner is still alive
        if failed(status):
            when = now + self.cadence.retry
            tz = driver.config.schedule.tz
            status = L_(
                "{status}; retrying at {at}", status=status, at=f"{when.astimezone(tz):%H:%M}"
            )
            log.error(L_("game {game}: {what}", game=driver.game_id, what=status))
        else:
            log.info(L_("game {game}: {what}", game=driver.game_id, what=status))
        if when is None:
            driver.store.release_lease(driver.game_id, self.owner)
            log.info(L_("game {game} is over", game=driver.game_id))
            return
        self.scheduler.add_job(
            self._job,
            # The scheduler waits on the real time; the game's clock may be a chosen one
            # (FORUMGM_NOW), so the job is due after the same delay, not at the same instant.
            DateTrigger(datetime.now(UTC) + max(when - now, timedelta(0))),
            args=[driver],
            id=f"game-{driver.game_id}",
            replace_existing=True,
            misfire_grace_time=None,
            # This run still counts as running until its task's done-callback: a next run
            # due at once (a deadline just passed) would be skipped as a second instance,
            # and a date trigger never fires again, so the game would stop being driven.
            max_instances=2,
        )

    def _heartbeat(self) -> None:
        """Renew every lease this process holds, in one statement: a game between two polls
        (a quarter of an hour apart far from its deadline) stays this process's."""
        for store, clock in self._stores():
            try:
                store.renew_leases(self.owner, clock(), self.cadence.lease)
            except Exception as exc:  # the store away a moment: the next beat tries again
                log.warning(L_("could not renew the leases: {why}", why=one_line(exc)))

    def _stores(self) -> list[tuple[Store, Clock]]:
        """The stores the games are in (one, as `forumgm run` opens them), with a clock."""
        found: dict[int, tuple[Store, Clock]] = {}
        for driver in self.drivers:
            found.setdefault(id(driver.store), (driver.store, driver.clock))
        return list(found.values())

    async def run(self, stop: asyncio.Event | None = None) -> None:
        stop = stop or asyncio.Event()
        self.scheduler.start()
        self.scheduler.add_job(
            self._heartbeat,
            IntervalTrigger(seconds=max(self.cadence.lease.total_seconds() / 3, 0.1)),
            id="leases",
            replace_existing=True,
            coalesce=True,
            misfire_grace_time=None,
        )
        for driver in self.drivers:
            self.scheduler.add_job(
                self._job,
                DateTrigger(datetime.now(UTC)),
                args=[driver],
                id=f"game-{driver.game_id}",
                replace_existing=True,
                misfire_grace_time=None,
            )
        try:
            await stop.wait()
        finally:
            self.scheduler.shutdown(wait=False)  # no new step starts
        try:
            if self._busy:  # a step under way ends first (a second Ctrl-C does not wait)
                log.info(L_("stopping: the step under way finishes first"))
                await asyncio.wait(set(self._busy), timeout=self.grace.total_seconds())
        finally:
            for store, _ in self._stores():
                store.release_leases(self.owner)
