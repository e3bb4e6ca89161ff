"""The service's own parse warnings in the host's language: stored in English (the log and
the store keep one text), shown in Russian by `engine.i18n.warning_text` — the deadline's
and the opening's minute, a deletion or a vanishing after the deadline, and a message by
someone who does not hold the seat (yet, or any more)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from engine.config import parse_config
from engine.core.slots import Handover, Slots
from engine.i18n import warning_text
from engine.service.driver import GameDriver
from engine.service.reader import _post_doubts
from engine.service.seats import speakers
from engine.store import open_store
from engine.store.repo.raw import StoredItem
from forums.local import ManualClock
from tests.service.helpers import GM, game_toml, local_board

MSK = ZoneInfo("Europe/Moscow")
START = datetime(2026, 12, 1, 19, 0, tzinfo=MSK)
DEADLINE = START + timedelta(days=1)
NAMES = ["Вася", "Петя", "Маша", "Коля", "Оля"]
ROLES = {
    "Вася": "mafioso",
    "Петя": "commissar",
    "Маша": "doctor",
    "Коля": "citizen",
    "Оля": "citizen",
}


def test_a_pm_in_the_deadlines_minute_reads_in_russian(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'game.sqlite'}"
    clock = ManualClock(START)
    board, thread = local_board(url, NAMES, clock=clock)
    text = game_toml(url=url, thread=thread, players=NAMES, ruleset="classic", roles=ROLES)
    config = parse_config(text.replace('review = "auto"', 'review = "warnings"'))
    driver = GameDriver(open_store(url), board, config, clock=clock)
    driver.start()
    driver.store.approve(driver.game_id, None)
    asyncio.run(driver.step(START))
    clock.set(DEADLINE)  # the board shows 19:00: before or after 19:00:00?
    board.pm_as("Коля", [GM], "ход", "голосую за Васю")
    clock.set(DEADLINE + timedelta(minutes=10))
    asyncio.run(driver.step(DEADLINE + timedelta(minutes=10)))
    ph = driver.store.phases(driver.game_id)[0]
    [held] = [w for w in driver.held_warnings(ph) if w.code == "deadline_minute"]
    assert held.message.startswith("the board dates this PM to the minute of the deadline")
    assert warning_text(held.message, "ru") == (
        "доска датирует это ЛС только минутой дедлайна: оно могло прийти сразу после него"
    )
    assert warning_text(held.message, "en") == held.message


def _post(**fields: object) -> StoredItem:
    at = datetime(2026, 12, 2, 16, 0, 0, tzinfo=UTC)
    return StoredItem(
        id="7",
        author="Петя",
        at=at,
        url=None,
        revision=1,
        digest="d",
        **fields,  # type: ignore[arg-type]
    )


def test_a_post_in_the_deadlines_minute_and_one_gone_after_it_read_in_russian() -> None:
    until = datetime(2026, 12, 2, 16, 0, 30, tzinfo=UTC)
    later = datetime(2026, 12, 2, 17, 5, tzinfo=UTC)
    doubts = dict(_post_doubts(_post(deleted_since=later), until, last=False))
    minute = warning_text(doubts["deadline_minute"], "ru")
    assert minute == (
        "написано в 16:00 UTC, в минуту дедлайна (доска показывает только минуты): оно могло "
        "прийти сразу после него"
    )
    assert warning_text(doubts["deleted_after_deadline"], "ru") == (
        "впервые замечено удалённым в 2026-12-02 17:05 UTC, после дедлайна: его могли удалить "
        "и раньше; прочитано в прежнем виде"
    )
    gone = dict(_post_doubts(_post(missing_since=later), until, last=False, exact=True))
    assert set(gone) == {"vanished"}  # exact times: no minute to doubt
    assert warning_text(gone["vanished"], "ru").startswith("пропало с доски в 2026-12-02 17:05 UTC")


def test_a_former_holder_and_a_substitute_before_his_time_read_in_russian() -> None:
    at = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
    slots = Slots(NAMES, [Handover("Новичок", "Петя", at=at)])
    before, after = at - timedelta(hours=1), at + timedelta(hours=1)
    _, said = speakers(slots, [("Петя", after), ("Новичок", before)])
    old, new = said["Петя", after].refused, said["Новичок", before].refused
    assert old is not None and new is not None
    assert old.startswith("Петя no longer plays this seat: it is Новичок's")
    assert warning_text(old, "ru").startswith(
        "Петя больше не играет за это место: теперь оно за игроком Новичок ("
    )
    assert warning_text(new, "ru").startswith(
        "Новичок ещё не играет за это место: пока оно за игроком Петя ("
    )
