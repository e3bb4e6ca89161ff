"""A restarted process looks for a send the board may have taken only where it can be: after
where the thread (or the GM's sent box) stood before that send, as the store kept it.

Driven on the local board with a fake clock: the board takes the post (or PM) and the
process dies before the store hears of it; a new driver on the same store publishes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from engine.config import parse_config
from engine.publish import pm_draft, post_draft
from engine.service.driver import GameDriver
from engine.store import open_store
from engine.store.models import OutboxKind, OutboxStatus
from forums.board import PMPage, ThreadPage
from forums.local import LocalBoard, ManualClock
from forums.records import Cursor
from tests.service.helpers import game_toml, local_board

MSK = ZoneInfo("Europe/Moscow")
START = datetime(2026, 12, 1, 19, 0, tzinfo=MSK)
PLAYERS = ["Вася", "Петя", "Коля", "Маша", "Оля"]


class Board:
    """The local board as the driver sees it, recording where each look began; `dies` makes
    the next send reach the board and then kill the process (an exception, nothing recorded)."""

    def __init__(self, board: LocalBoard) -> None:
        self.board = board
        self.thread_since: list[Cursor | None] = []
        self.sent_since: list[Cursor | None] = []
        self.dies = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self.board, name)

    async def thread_posts(self, thread: str, since: Cursor | None = None) -> ThreadPage:
        self.thread_since.append(since)
        return await self.board.thread_posts(thread, since)

    async def sent(self, since: Cursor | None = None) -> PMPage:
        self.sent_since.append(since)
        return await self.board.sent(since)

    async def reply(self, thread: str, bbcode: str) -> str:
        post_id = await self.board.reply(thread, bbcode)
        self._die()
        return post_id

    async def send_pm(self, recipients: Sequence[str], subject: str, bbcode: str) -> str:
        pm_id = await self.board.send_pm(recipients, subject, bbcode)
        self._die()
        return pm_id

    def _die(self) -> None:
        if self.dies:
            self.dies = False
            raise RuntimeError("the process died before the store heard back")


class Game:
    def __init__(self, tmp_path: Path) -> None:
        self.url = f"sqlite:///{tmp_path / 'game.sqlite'}"
        self.clock = ManualClock(START)
        self.local, self.thread = local_board(self.url, PLAYERS, clock=self.clock, gm="GM")
        text = game_toml(
            url=self.url,
            thread=self.thread,
            players=PLAYERS,
            gm="GM",
            ruleset="votecount",
            game_extra="receipts = false",
        )
        self.config = parse_config(text)
        self.store = open_store(self.url)
        self.board = Board(self.local)
        self.driver = self.process()
        self.driver.start()
        self.step()  # the opening post and role PMs go out

    def process(self) -> GameDriver:
        """A driver as a (re)started process makes it: nothing in memory but the store."""
        self.board = Board(self.local)
        return GameDriver(self.store, self.board, self.config, clock=self.clock)  # type: ignore[arg-type]

    def step(self, minutes: int = 1) -> None:
        self.clock.set(self.clock() + timedelta(minutes=minutes))
        asyncio.run(self.driver.step(self.clock()))

    def chatter(self, count: int) -> None:
        for n in range(count):
            self.local.post_as(PLAYERS[n % len(PLAYERS)], self.thread, f"Сообщение {n}")

    def gm_posts(self) -> list[str]:
        page = asyncio.run(self.local.thread_posts(self.thread))
        return [p.id for p in page.items if p.author == "GM"]

    def queue(self, kind: OutboxKind, name: str) -> str:
        marker = self.driver.marker("test", name)
        draft = (
            post_draft(f"Итог {name}", marker)
            if kind is OutboxKind.POST
            else pm_draft("Вася", "Итоги", f"Итог {name}", marker)
        )
        ph = self.store.current_phase(self.driver.game_id)
        assert ph is not None
        self.store.enqueue(self.driver.game_id, ph.phase, [draft])
        self.store.approve(self.driver.game_id, ph.phase)
        return marker

    def send_and_die(self, kind: OutboxKind, name: str) -> str:
        marker = self.queue(kind, name)
        self.board.dies = True
        asyncio.run(self.driver.publisher.publish(self.clock()))
        item = self.store.find_by_marker(marker)
        assert item is not None and item.status is OutboxStatus.FAILED
        return marker


def test_a_restarted_process_looks_for_a_post_after_where_the_thread_stood(
    tmp_path: Path,
) -> None:
    game = Game(tmp_path)
    game.chatter(40)
    game.step()  # the driver reads the 40 posts
    stood = game.store.read_cursors(game.driver.game_id)[0]
    posts = len(game.gm_posts())
    marker = game.send_and_die(OutboxKind.POST, "дня 1")
    item = game.store.find_by_marker(marker)
    assert item is not None and stood is not None and item.look_from == stood.data
    game.chatter(5)

    game.driver = game.process()
    asyncio.run(game.driver.publisher.publish(game.clock()))
    # Looked from where the thread stood before the send, not from its first post …
    assert game.board.thread_since == [stood]
    # … found the post there, and did not post it again.
    item = game.store.find_by_marker(marker)
    assert item is not None and item.status is OutboxStatus.POSTED
    assert len(game.gm_posts()) == posts + 1 and item.board_id == game.gm_posts()[-1]


def test_the_sent_box_is_read_on_from_where_the_last_look_ended(tmp_path: Path) -> None:
    game = Game(tmp_path)
    first = game.send_and_die(OutboxKind.PM, "первый")
    game.driver = game.process()
    asyncio.run(game.driver.publisher.publish(game.clock()))
    assert game.board.sent_since == [None]  # nothing known of the sent box yet: all of it
    item = game.store.find_by_marker(first)
    assert item is not None and item.status is OutboxStatus.POSTED
    ended = game.store.sent_cursor(game.driver.game_id)
    assert ended is not None  # where that look ended, kept for the next process

    second = game.send_and_die(OutboxKind.PM, "второй")
    game.driver = game.process()
    asyncio.run(game.driver.publisher.publish(game.clock()))
    assert game.board.sent_since == [ended]
    item = game.store.find_by_marker(second)
    assert item is not None and item.status is OutboxStatus.POSTED
    sent = asyncio.run(game.local.sent()).items
    assert sum("Итог второй" in pm.body.full_text() for pm in sent) == 1
