"""Posts edited after the deadline: read as they were at the deadline, and flagged for the host."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

from tests.service.test_vote_count import START, _game


def _votes_and_warnings(
    driver: object, phase: str
) -> tuple[dict[str, str | None], list[tuple[str, bool]]]:
    store = driver.store  # type: ignore[attr-defined]
    game = driver.game_id  # type: ignore[attr-defined]
    tally = next(e for e in store.events(game, phase) if e.type == "vote_tally")
    warnings = [(w.warning.code, w.warning.accepted) for w in store.parse_warnings(game, phase)]
    return dict(tally.fields["votes"]), warnings


def test_an_edit_seen_after_the_deadline_is_read_as_before(tmp_path: Path) -> None:
    driver, board, clock, thread = _game(tmp_path, "votecount", every="off")
    driver.store.approve(driver.game_id, None)
    asyncio.run(driver.step(START))
    clock.set(START + timedelta(hours=2))
    post = board.post_as("Вася", thread, "голос за Колю")
    asyncio.run(driver.step(START + timedelta(hours=3)))  # polled: the original is stored
    clock.set(START + timedelta(days=1, minutes=5))
    board.edit_post(post, "голос за Машу", "Вася")
    asyncio.run(driver.step(START + timedelta(days=1, minutes=10)))
    votes, warnings = _votes_and_warnings(driver, "day 1")
    assert votes["Вася"] == "Коля"
    assert ("edited_after_deadline", True) in warnings


def test_a_post_first_seen_after_a_late_edit_is_flagged(tmp_path: Path) -> None:
    driver, board, clock, thread = _game(tmp_path, "votecount", every="off")
    driver.store.approve(driver.game_id, None)
    asyncio.run(driver.step(START))
    clock.set(START + timedelta(hours=2))
    post = board.post_as("Вася", thread, "голос за Колю")
    clock.set(START + timedelta(days=1, minutes=5))  # the service never saw the original
    board.edit_post(post, "голос за Машу", "Вася")
    asyncio.run(driver.step(START + timedelta(days=1, minutes=10)))
    votes, warnings = _votes_and_warnings(driver, "day 1")
    assert votes["Вася"] == "Маша"
    assert ("edited_after_deadline", False) in warnings


def test_edit_notices_on_the_saved_phpbb_board(tmp_path: Path) -> None:
    """Day 1 of the saved phpBB 3.3.10 game: read at 21:00, then two posts are edited and the
    deadline (22:00) re-read shows their notices. Nekr0's edit says «в 22:00» (a time alone):
    its time is kept, and an edit in the deadline's own minute is held for the host. Том &
    Джерри's edit at 22:03 came after the deadline: the vote stays as it was, and the
    warning shows the text as it was (it used to show nothing)."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from engine.service.driver import GameDriver
    from engine.store import open_store
    from forums.local import ManualClock
    from tests.service import phpbb_fixture_board as saved

    msk = ZoneInfo("Europe/Moscow")
    config = saved.game_config("ru")
    fake = saved.saved_board("ru")
    board_clock = saved.FakeTime(datetime(2026, 11, 27, 21, 0, tzinfo=msk))
    clock = ManualClock(datetime(2026, 11, 27, 21, 0, tzinfo=msk))
    store = open_store(f"sqlite:///{tmp_path / 's.sqlite'}")
    driver = GameDriver(store, saved.make_board(fake, board_clock), config, clock=clock)
    driver.start()
    asyncio.run(driver.step(clock()))  # the first poll reads the thread as it was

    page = saved.helpers.page("ru", "viewtopic_p4.html")
    page = saved.helpers.with_edit(
        page, "p39", "Последнее слово: голосую за Лёху", "в 22:00", "Nekr0", 63
    )
    page = saved.helpers.with_edit(
        page, "p38", "Голосую за Васю", "Сегодня, 22:03", "Том &amp; Джерри", 69
    )
    fake.on("GET", "/viewtopic.php?t=2&start=30", saved.helpers.html(page))
    board_clock.now = clock.set(datetime(2026, 11, 27, 22, 5, tzinfo=msk))
    asyncio.run(driver.step(clock()))

    [nekr0] = [r for r in store.post_history(driver.game_id, "39") if r.edit_at is not None]
    assert nekr0.edit_at == datetime(2026, 11, 27, 22, 0, tzinfo=msk)
    found = {
        (w.warning.code, w.warning.player): w.warning
        for w in store.parse_warnings(driver.game_id, "day 1")
    }
    minute = found["deadline_minute", "Nekr0"]
    assert not minute.accepted and "голосую за Лёху" in minute.source.text  # type: ignore[union-attr]
    late = found["edited_after_deadline", "Том & Джерри"]
    assert late.accepted and late.source is not None
    assert late.source.text == "Голосую за Лёху :evil:"  # as it was at the deadline
    votes, _ = _votes_and_warnings(driver, "day 1")
    assert votes["Том & Джерри"] == "Лёха" and votes["Nekr0"] == "Лёха"
