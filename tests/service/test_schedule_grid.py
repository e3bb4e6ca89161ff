"""Repeating deadlines keep their grid through the service: a phase resolved late does not
move the next deadline, and "every 2 days" is every other day, not every day."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from engine.config import parse_config
from engine.service.driver import GameDriver
from engine.store import open_store
from forums.local import ManualClock
from tests.service.helpers import game_toml, local_board

MSK = ZoneInfo("Europe/Moscow")
PLAYERS = ["Вася", "Петя", "Коля", "Маша", "Оля"]


def _deadlines(tmp_path: Path, rule: str, start: datetime, late: timedelta) -> list[datetime]:
    """The deadlines of days 1–3 of a votecount game on `rule`, each day resolved `late`."""
    url = f"sqlite:///{tmp_path / 'game.sqlite'}"
    clock = ManualClock(start)
    board, thread = local_board(url, PLAYERS, clock=clock, gm="GM", gm_password="pw")
    text = game_toml(
        url=url,
        thread=thread,
        players=PLAYERS,
        ruleset="votecount",
        gm="GM",
        deadlines=rule,
        start=f"{start:%Y-%m-%d %H:%M}",
    )
    driver = GameDriver(open_store(url), board, parse_config(text), clock=clock)
    driver.start()
    driver.store.approve(driver.game_id, None)
    asyncio.run(driver.step(clock()))
    for _ in range(2):
        ph = driver.store.current_phase(driver.game_id)
        assert ph is not None
        clock.set(ph.deadline + late)
        asyncio.run(driver.step(clock()))
    return [ph.deadline.astimezone(MSK) for ph in driver.store.phases(driver.game_id)]


@pytest.mark.parametrize(
    ("rule", "period"),
    [("every 2 days 21:30", timedelta(days=2)), ("every 12 hours", timedelta(hours=12))],
)
def test_each_deadline_is_one_period_after_the_last_however_late_it_was_resolved(
    tmp_path: Path, rule: str, period: timedelta
) -> None:
    start = datetime(2026, 12, 1, 12, 0, tzinfo=MSK)
    first, second, third = _deadlines(tmp_path, rule, start, late=timedelta(minutes=7))
    assert second - first == period and third - second == period
