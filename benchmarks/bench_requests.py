"""Requests the service sends a phpBB board, counted with respx on a synthetic 50-page topic.

The game is driven through `GameDriver` on the phpBB adapter (`phpbb_server`): the first
sync, an idle poll, a poll with 3 new posts, the deadline re-read of a 10-page day, and
publishing one result — as a first send, and as the retry of a send a killed process had
started (the board has the post, the store does not know).
"""

from __future__ import annotations

import asyncio
import logging
import tempfile
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from bench_common import Row
from phpbb_server import BASE, GM, SyntheticPhpbb
from synthetic import PLAYERS

from engine.config import parse_config
from engine.service.driver import GameDriver
from engine.store import open_store
from engine.store.models import OutboxStatus
from forums.local import ManualClock
from forums.phpbb import PhpbbBoard

T0 = datetime(2026, 11, 20, 6, 0, tzinfo=UTC)
D1, D2 = T0 + timedelta(hours=10), T0 + timedelta(days=1, hours=10)
GAME = f"""\
[game]
ruleset = "votecount"
language = "en"
review = "auto"
receipts = false

[board]
engine = "phpbb"
url = "{BASE}"
allow_insecure_http = true
thread = "2"
gm_user = "{GM}"
password = "env:FORUMGM_BENCH_GM"

[schedule]
timezone = "Europe/Moscow"
deadlines = ["{D1.isoformat()}", "{D2.isoformat()}"]
start = "{(T0 - timedelta(hours=1)).isoformat()}"

[players]
players = [{", ".join(f'"{p}"' for p in PLAYERS)}]
replacements = {{ "SleepyKrew" = "kondi2424", "pappums rat" = "redtail896" }}
"""


class _Sleep:
    def __init__(self, clock: ManualClock) -> None:
        self.clock = clock

    async def __call__(self, seconds: float) -> None:
        self.clock.advance(seconds=max(seconds, 0))


def _board(
    server: SyntheticPhpbb, clock: ManualClock, kind: type[PhpbbBoard] = PhpbbBoard
) -> PhpbbBoard:
    return kind(
        BASE,
        GM,
        "bench-password",
        client=server.client(),
        tz=ZoneInfo("Europe/Moscow"),
        clock=clock,
        sleep=_Sleep(clock),
        allow_insecure_http=True,
    )


class _DiesAfterPosting(PhpbbBoard):
    """The board takes the post; the process dies before it hears back."""

    async def reply(self, thread: str, bbcode: str) -> str:
        await super().reply(thread, bbcode)
        raise RuntimeError("killed before the store heard of the post")


def measure() -> dict[str, dict[str, int]]:
    server = SyntheticPhpbb(499, T0)  # with the opening post: 50 pages of 10
    clock = ManualClock(T0)
    out: dict[str, dict[str, int]] = {}
    with tempfile.TemporaryDirectory() as work:
        store = open_store(f"sqlite:///{work}/store.sqlite")
        config = parse_config(GAME)
        driver = GameDriver(store, _board(server, clock), config, clock=clock)
        driver.start()

        def counted(name: str, action: Any) -> None:
            before = len(server.requests)
            asyncio.run(action)
            out[name] = server.count(before)

        clock.set(T0 + timedelta(hours=9))
        counted("opening", driver.publisher.publish(clock()))
        counted("first_sync", driver.read(full=False))
        counted("idle", driver.read(full=False))
        server.add(3)
        counted("three_new", driver.read(full=False))

        # Day 1's deadline; the board takes the results post but the process dies before
        # the store records it: a restarted process must find it on the board, not post
        # again.
        clock.set(D1 + timedelta(minutes=1))
        day1 = store.current_phase(driver.game_id)
        assert day1 is not None
        asyncio.run(driver.freeze(day1, clock()))
        driver.resolve(day1)
        results = next(i for i in store.pending(driver.game_id) if i.phase_id == day1.id)
        dying = GameDriver(store, _board(server, clock, _DiesAfterPosting), config, clock=clock)
        asyncio.run(dying.publisher.publish(clock()))
        assert store.find_by_marker(results.marker).status is OutboxStatus.FAILED
        restarted = GameDriver(store, _board(server, clock), config, clock=clock)
        counted("publish_retry", restarted.publisher.publish(clock()))
        posted = store.find_by_marker(results.marker)
        assert posted is not None and posted.status is OutboxStatus.POSTED, "posted twice"
        asyncio.run(restarted.step(clock()))  # day 1 published, day 2 opens

        # Day 2: ten more pages, then its deadline re-reads them, and its result goes out.
        server.add(100)
        clock.set(D2 + timedelta(minutes=1))
        day2 = store.current_phase(restarted.game_id)
        assert day2 is not None and day2.phase == "day 2", day2
        counted("deadline_reread", restarted.freeze(day2, clock()))
        restarted.resolve(day2)
        counted("publish_first", restarted.publisher.publish(clock()))
        store.close()
    return out


def rows(quick: bool) -> list[Row]:
    # The synthetic thread's real moderator and substitutes post as non-players here: the
    # service notes each once (a warning line); these rows count requests, not those notes.
    logging.getLogger("forumgm").setLevel(logging.ERROR)
    c = measure()

    def show(kinds: dict[str, int]) -> str:
        parts = [f"{n} {k}" for k, n in kinds.items() if k != "total"]
        return f"{kinds['total']} ({', '.join(parts)})"

    reply = 3  # the reply form, the POST, and the topic page that shows the new post
    first_extra = c["publish_first"]["total"] - reply
    # A restarted process logs in whatever it does first: that is not the publisher's cost.
    retry_extra = c["publish_retry"]["total"] - c["publish_retry"].get("login", 0)
    reread = c["deadline_reread"]
    return [
        Row(
            "requests: first sync of a 50-page thread",
            show(c["first_sync"]),
            "50 topic pages + 1 inbox page (+ login, + each PM read once)",
            c["first_sync"].get("topic page") == 50 and c["first_sync"].get("pm folder") == 1,
            values=c["first_sync"],
        ),
        Row(
            "requests: idle poll",
            show(c["idle"]),
            "1 thread + 1 inbox request",
            c["idle"]["total"] == 2,
            values=c["idle"],
        ),
        Row(
            "requests: poll with 3 new posts",
            show(c["three_new"]),
            "≤ 2 + 1",
            c["three_new"].get("topic page", 0) <= 2 and c["three_new"].get("pm folder", 0) <= 1,
            note="the 3 posts start page 51: the page of the last post seen, then the new one",
            values=c["three_new"],
        ),
        Row(
            "requests: deadline re-read of a 10-page phase",
            show(reread),
            "≤ 11 topic pages (the phase's, from the page it began on) + 1 inbox",
            reread.get("topic page", 0) <= 11 and reread.get("pm folder", 0) <= 1,
            "before issue 12 the deadline read every page of the thread: 61 here",
            values=reread,
        ),
        Row(
            "publishing one result on phpBB",
            f"first send: {first_extra} beyond the post itself ({show(c['publish_first'])}); "
            f"retry in a restarted process: {retry_extra} beyond its login "
            f"({show(c['publish_retry'])})",
            "≤ 2 requests beyond the post itself",
            first_extra <= 2 and retry_extra <= 2,
            "before: every page of the thread and the sent box on every publish; a retry in "
            "a restarted process read all 51 pages of the thread",
            "the post itself: reply form, POST, the topic page showing the new post; the "
            "retry: the board took the post, the process died before recording it, and the "
            "restarted one reads from where the thread stood before the send (kept in the "
            "store): one more page per 10 posts made since",
            {"first": c["publish_first"], "retry": c["publish_retry"]},
        ),
    ]
