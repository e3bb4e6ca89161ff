"""Phase opening posts: when a ruleset's results do not open the next phase, the service does."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.service.test_vote_count import START, _game


def _gm_posts(board: object, thread: str) -> list[str]:
    async def read() -> list[str]:
        posts = (await board.thread_posts(thread)).items  # type: ignore[attr-defined]
        return [p.raw or "" for p in posts if p.author == "Ведущий"]

    return asyncio.run(read())


def test_votecount_day_2_is_opened_with_its_deadline_and_who_is_in_play(tmp_path: Path) -> None:
    driver, board, clock, thread = _game(tmp_path, "votecount", every="off")
    store = driver.store
    store.approve(driver.game_id, None)
    asyncio.run(driver.step(START))
    for voter in ("Вася", "Петя", "Маша"):
        clock.set(START + timedelta(hours=2))
        board.post_as(voter, thread, "голос за Колю")
    clock.set(START + timedelta(days=1, minutes=1))
    asyncio.run(driver.step(clock()))
    posts = _gm_posts(board, thread)
    opening = [p for p in posts if "День 2 начинается" in p]
    assert len(opening) == 1, posts
    assert "03.12.2026 19:00" in opening[0]
    assert "В игре (4): Вася, Петя, Маша, Оля." in opening[0]
    asyncio.run(driver.step(clock() + timedelta(minutes=1)))
    assert len([p for p in _gm_posts(board, thread) if "День 2 начинается" in p]) == 1


def test_classic_results_already_open_the_next_turn(tmp_path: Path) -> None:
    driver, board, clock, thread = _game(tmp_path, "classic", every="off")
    driver.store.approve(driver.game_id, None)
    asyncio.run(driver.step(START))
    clock.set(START + timedelta(days=1, minutes=1))
    asyncio.run(driver.step(clock()))
    posts = _gm_posts(board, thread)
    assert any("Итоги хода 1" in p for p in posts)
    assert not any("начинается." in p for p in posts)


def test_a_crash_between_opening_day_2_and_queueing_its_post_loses_nothing(
    tmp_path: Path,
) -> None:
    """The process dies right after the store opened day 2, before its opening post was
    queued: the next step (a restarted process) queues and publishes it, once."""
    driver, board, clock, thread = _game(tmp_path, "votecount", every="off")
    driver.store.approve(driver.game_id, None)
    asyncio.run(driver.step(START))
    for voter in ("Вася", "Петя", "Маша"):
        clock.set(START + timedelta(hours=2))
        board.post_as(voter, thread, "голос за Колю")
    clock.set(START + timedelta(days=1, minutes=1))

    class Killed(BaseException):
        """What SIGKILL leaves: nothing after this point ran."""

    real = driver.queue_opening

    def killed(ph: Any, previous: str | None = None) -> None:
        if ph.phase == "day 2":
            raise Killed
        real(ph, previous)

    driver.queue_opening = killed  # type: ignore[method-assign]
    with pytest.raises(Killed):
        asyncio.run(driver.step(clock()))
    assert driver.store.current_phase(driver.game_id).phase == "day 2"  # type: ignore[union-attr]
    assert not any("День 2 начинается" in p for p in _gm_posts(board, thread))
    del driver.queue_opening  # the restarted process runs the real code
    asyncio.run(driver.step(clock() + timedelta(minutes=1)))
    asyncio.run(driver.step(clock() + timedelta(minutes=2)))
    opening = [p for p in _gm_posts(board, thread) if "День 2 начинается" in p]
    assert len(opening) == 1 and "03.12.2026 19:00" in opening[0]
