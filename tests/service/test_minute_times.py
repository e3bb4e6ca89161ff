"""Issue 24 §1–2: boards that print a post's or PM's time to the minute (MyBB, phpBB).

On a live MyBB board day 2 opened at 05:37:21; the players' votes at 05:37:39–40 read as
05:37, before the opening, and all of them were held as `late`. And an unvote at 06:00:16
for a 06:00 deadline (read as 06:00) was counted with a wrong warning that `--ignore` could
not take back. Played here on the local board with a fake clock: the board's clock set to
the whole minute stands for a board that prints minutes only.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

from engine.service.driver import GameDriver
from forums.local import LocalBoard
from tests.service.test_deadline_doubts import (
    DEADLINE,
    START,
    _at,
    _game,
    _held,
    _step,
    _votes,
)

OPENED = DEADLINE + timedelta(minutes=37, seconds=21)
"""Day 2 opens when the host approves day 1's results: 37 minutes 21 seconds late."""
MINUTE = DEADLINE + timedelta(minutes=37)
"""What a minutes-only board prints for anything in the minute of the opening."""
DEADLINE_2 = DEADLINE + timedelta(days=1)


def _open_day_2(tmp_path: Path, ruleset: str = "votecount") -> tuple[GameDriver, LocalBoard, str]:
    driver, board, thread = _game(tmp_path, ruleset)
    _step(driver, OPENED)  # the first look after the deadline: the next phase opens
    phase = driver.store.phases(driver.game_id)[0].phase
    driver.store.approve(driver.game_id, phase)
    _step(driver, OPENED + timedelta(seconds=5))  # the results and the opening go out
    current = driver.store.current_phase(driver.game_id)
    assert current is not None and current.opened_at == OPENED, current
    return driver, board, thread


def _day_2(driver: GameDriver) -> dict[str, str | None]:
    ph = driver.store.current_phase(driver.game_id)
    assert ph is not None
    session = driver.replay(ph, DEADLINE_2).session
    assert session.inputs is not None
    view = driver.ruleset.vote_view(session.state, session.inputs, public=False)
    return dict(view.votes)


def _held_now(driver: GameDriver) -> list[tuple[str, str | None]]:
    ph = driver.store.current_phase(driver.game_id)
    assert ph is not None
    driver.replay(ph, DEADLINE_2)
    return [(w.code, w.player) for w in driver.held_warnings(ph)]


def test_votes_in_the_minute_a_phase_opens_count_after_the_gms_opening_post(
    tmp_path: Path,
) -> None:
    driver, board, thread = _open_day_2(tmp_path)
    _at(board, MINUTE)  # posted at 05:37:39, printed «05:37»
    for voter in ("Вася", "Петя", "Маша"):
        board.post_as(voter, thread, "голос за Колю")
    _step(driver, MINUTE + timedelta(hours=1))
    assert _day_2(driver) == {"Вася": "Коля", "Петя": "Коля", "Маша": "Коля"} | {
        "Коля": None,
        "Оля": None,
    }
    assert _held_now(driver) == []


def test_a_pm_in_the_minute_a_phase_opens_is_read_for_it_and_held(tmp_path: Path) -> None:
    driver, board, _thread = _open_day_2(tmp_path, "classic")
    _at(board, MINUTE)
    board.pm_as("Коля", ["Ведущий"], "ход", "голосую за Васю")
    _step(driver, MINUTE + timedelta(hours=1))
    ph = driver.store.current_phase(driver.game_id)
    assert ph is not None
    session = driver.replay(ph, DEADLINE_2).session
    assert session.inputs is not None
    assert session.inputs.votes["Коля"].target == "Вася"
    assert _held_now(driver) == [("opening_minute", "Коля")]


def test_a_vote_before_the_opening_minute_is_still_late(tmp_path: Path) -> None:
    driver, board, thread = _open_day_2(tmp_path)
    _at(board, MINUTE - timedelta(minutes=1))  # 05:36: before the phase opened
    board.post_as("Вася", thread, "голос за Колю")
    _step(driver, MINUTE + timedelta(hours=1))
    assert _day_2(driver)["Вася"] is None
    assert _held_now(driver) == [("late", "Вася")]


def test_a_post_in_the_deadlines_minute_is_held_and_ignore_drops_it(tmp_path: Path) -> None:
    driver, board, thread = _game(tmp_path)
    _at(board, START + timedelta(hours=2))
    board.post_as("Вася", thread, "голос за Колю")
    board.post_as("Маша", thread, "доброе утро")
    _at(board, DEADLINE)  # posted at 19:00:16, printed «19:00»
    board.post_as("Вася", thread, "снимаю голос")
    _step(driver, DEADLINE + timedelta(minutes=10))
    assert _held(driver) == [("deadline_minute", "Вася")]
    assert _votes(driver)["Вася"] is None  # read as it stands until the host says
    ph = driver.store.phases(driver.game_id)[0]
    [held] = [
        w
        for w in driver.store.parse_warnings(driver.game_id, ph.phase)
        if w.warning.code == "deadline_minute"
    ]
    driver.store.fix_warning(held.id, None, by="host")  # review --ignore
    assert _votes(driver)["Вася"] == "Коля"  # the unvote may have come after the deadline
    assert _held(driver) == []


def test_a_pm_in_the_deadlines_minute_ignored_drops_its_order(tmp_path: Path) -> None:
    driver, board, _thread = _game(tmp_path, "classic")
    _at(board, DEADLINE)
    board.pm_as("Коля", ["Ведущий"], "ход", "голосую за Васю")
    _step(driver, DEADLINE + timedelta(minutes=10))
    assert _votes(driver)["Коля"] == "Вася"
    ph = driver.store.phases(driver.game_id)[0]
    [held] = [
        w
        for w in driver.store.parse_warnings(driver.game_id, ph.phase)
        if w.warning.code == "deadline_minute"
    ]
    driver.store.fix_warning(held.id, None, by="host")
    assert _votes(driver).get("Коля") is None
    asyncio.run(driver.step(DEADLINE + timedelta(minutes=11)))
