"""One game's long post never delays another game's deadline (issue 22 item 2).

Reading a phase (parsing posts, taking them in, resolving) is CPU work, and one post may
take a good part of a second; it runs in a worker thread (`engine.service.driver.off_loop`),
so the event loop that drives every game keeps going. Here game A's parse of one post is
made to wait until game B's deadline step has finished: were the parse on the event loop,
B's step could not run until A's parse gave up waiting. Measured by the order of events,
not by time (the wait's timeout only keeps a broken build from hanging).
"""

from __future__ import annotations

import asyncio
import threading
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from engine.config import parse_config
from engine.service.driver import GameDriver
from engine.service.runner import Cadence, drive_once, failed
from engine.session import GameSession
from engine.store import open_store
from engine.store.models import PhaseStatus
from forums.local import LocalBoard, ManualClock
from tests.service.helpers import game_toml, local_board

MSK = ZoneInfo("Europe/Moscow")
START = datetime(2026, 12, 1, 19, 0, tzinfo=MSK)
DEADLINE = START + timedelta(days=1)
NAMES = ["Вася", "Петя", "Маша", "Коля", "Оля"]
SLOW = "медленный пост: голосую за Петю"


def _game(folder: Path) -> tuple[GameDriver, LocalBoard, ManualClock]:
    folder.mkdir()
    url = f"sqlite:///{folder / 'game.sqlite'}"
    clock = ManualClock(START)
    board, thread = local_board(url, NAMES, clock=clock)
    config = parse_config(game_toml(url=url, thread=thread, players=NAMES, ruleset="votecount"))
    driver = GameDriver(open_store(url), board, config, clock=clock)
    driver.start()
    driver.store.approve(driver.game_id, None)  # the host approved the start
    status = asyncio.run(driver.step(START))
    assert "open until" in status, status
    return driver, board, clock


def test_a_slow_parse_in_one_game_does_not_hold_another_games_deadline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, a_board, a_clock = _game(tmp_path / "a")
    b, b_board, b_clock = _game(tmp_path / "b")
    a_clock.set(START + timedelta(hours=2))
    a_board.post_as("Вася", a.config.thread, SLOW)
    b_clock.set(START + timedelta(hours=2))
    b_board.post_as("Маша", b.config.thread, "голосую за Колю")
    b_clock.set(DEADLINE + timedelta(minutes=1))  # game B's deadline has come

    events: list[str] = []
    a_parsing, b_stepped = threading.Event(), threading.Event()
    read = GameSession.read

    def slow_read(self: GameSession, player: str, body: Any, *args: Any, **kwargs: Any) -> Any:
        if SLOW in body.text():
            events.append("A: parse starts")
            a_parsing.set()
            waited = b_stepped.wait(timeout=10)
            events.append("A: parse ends" if waited else "A: parse gave up waiting for B")
        return read(self, player, body, *args, **kwargs)

    monkeypatch.setattr(GameSession, "read", slow_read)

    async def game_b() -> str:
        for _ in range(10_000):  # B's turn comes once A's step is in its parse
            if a_parsing.is_set():
                break
            await asyncio.sleep(0.001)
        status = await drive_once(b, "test", Cadence())
        events.append("B: deadline step done")
        b_stepped.set()
        return status

    async def both() -> tuple[str, str]:
        return await asyncio.gather(drive_once(a, "test", Cadence()), game_b())

    a_status, b_status = asyncio.run(both())
    assert events == ["A: parse starts", "B: deadline step done", "A: parse ends"]
    assert not failed(a_status) and not failed(b_status), (a_status, b_status)
    b_phase = b.store.phases(b.game_id)[0]
    assert b_phase.status is not PhaseStatus.OPEN  # resolved at its deadline
    assert "open until" in a_status
