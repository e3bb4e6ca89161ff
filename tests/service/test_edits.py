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
