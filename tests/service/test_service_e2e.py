"""A whole classic game through the service on the local board, with a fake clock.

Simulated players post and send PMs; the driver polls, answers, freezes at each deadline,
resolves, holds results with warnings for the host, and publishes once approved.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from engine.app.demo.bots import Table
from engine.config import GameConfig, parse_config
from engine.publish import find_markers
from engine.service.driver import GameDriver
from engine.store import open_store
from engine.store.models import GameStatus, PhaseStatus
from forums.local import LocalBoard, ManualClock
from forums.records import Post
from tests.service.helpers import game_toml, local_board

MSK = ZoneInfo("Europe/Moscow")
START = datetime(2026, 12, 1, 19, 0, tzinfo=MSK)
NAMES = ["Вася", "Петя", "Маша", "Коля", "Оля", "Гена", "Лена", "Орёл", "Катя"]

DEAL = {"mafioso": 2, "commissar": 1, "doctor": 1, "citizen": 5}


def _config(url: str, thread: str, review: str) -> GameConfig:
    return parse_config(
        game_toml(
            url=url,
            thread=thread,
            players=NAMES,
            seed=11,
            review=review,
            password="env:FORUMGM_TEST_GM",
            deal=DEAL,
        )
    )


def test_a_whole_game_through_the_service(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'game.sqlite'}"
    store = open_store(url)
    clock = ManualClock(START - timedelta(hours=2))
    board, thread = local_board(url, NAMES, clock=clock)
    config = _config(url, thread, "warnings")
    driver = GameDriver(store, board, config, clock=clock)
    assert driver.start() and not driver.start()

    async def play() -> None:
        await driver.step(START - timedelta(hours=1))
        assert await _gm_posts(board, thread) == 0  # the opening waits for the host
        store.approve(driver.game_id, None)
        clock.set(START)
        await driver.step(START)
        assert await _gm_posts(board, thread) == 1  # the opening post
        state = store.load_state(driver.game_id)
        assert state is not None
        bots = Table(state, random.Random(5))
        for _ in range(30):
            ph = store.current_phase(driver.game_id)
            assert ph is not None
            if store.get_game(driver.game_id).status is GameStatus.FINISHED:
                return
            state = store.load_state(driver.game_id)
            assert state is not None
            opened = ph.opened_at
            for message in bots.turn(state, ph.deadline.day):
                clock.set(opened + timedelta(minutes=message.minute % 1300))
                if message.channel == "thread":
                    board.post_as(message.author, thread, message.text)
                else:
                    board.pm_as(message.author, ["Ведущий"], "ход", message.text)
                if message.minute % 7 == 0:
                    await driver.step(clock())
            clock.set(ph.deadline + timedelta(minutes=1))
            waiting = await driver.step(clock())
            if "wait for the host" in waiting:
                assert store.get_phase(driver.game_id, ph.phase).status is PhaseStatus.RESOLVED
                assert await _results_posted(board, thread) < len(store.phases(driver.game_id))
                store.approve(driver.game_id, ph.phase)  # the host approves the drafts
                await driver.step(clock())
            assert store.get_phase(driver.game_id, ph.phase).status is PhaseStatus.PUBLISHED
            bots.learn(store.events(driver.game_id, ph.phase))
        raise AssertionError("the game did not end in 30 phases")

    asyncio.run(play())
    state = store.load_state(driver.game_id)
    assert state is not None and state.winner in {"town", "mafia"}
    phases = store.phases(driver.game_id)
    assert all(p.status is PhaseStatus.PUBLISHED for p in phases)
    assert asyncio.run(_results_posted(board, thread)) == len(phases)
    markers = asyncio.run(_all_markers(board, thread))
    assert markers and max(Counter(markers).values()) == 1  # nothing posted twice
    assert all(i.status == "posted" for i in store.outbox(driver.game_id))


def test_a_deadline_missed_while_down_uses_only_earlier_posts(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'late.sqlite'}"
    store = open_store(url)
    clock = ManualClock(START)
    board, thread = local_board(url, NAMES, clock=clock)
    config = _config(url, thread, "auto")
    driver = GameDriver(store, board, config, clock=clock)
    driver.start()
    asyncio.run(driver.step(clock()))  # the start goes out, then the service goes down
    clock.set(START + timedelta(hours=3))
    for voter in ("Вася", "Петя", "Маша"):
        board.pm_as(voter, ["Ведущий"], "ход", "голосую за Колю")
    clock.set(START + timedelta(days=1, hours=2))  # the service was down over the deadline
    for voter in ("Коля", "Оля", "Гена", "Лена"):
        board.pm_as(voter, ["Ведущий"], "ход", "голосую за Васю")
    clock.set(START + timedelta(days=1, hours=3))  # the service comes back
    restarted = GameDriver(store, board, config, clock=clock)
    asyncio.run(restarted.step(clock()))
    events = store.events(restarted.game_id, "turn 1")
    jailed = [e.fields["player"] for e in events if e.type == "imprisonment"]
    assert jailed == ["Коля"]
    turn2 = store.parse_warnings(restarted.game_id, "turn 2")
    assert [w.warning.code for w in turn2] == ["late"] * 4


async def _posts(board: LocalBoard, thread: str) -> list[Post]:
    return list((await board.thread_posts(thread)).items)


async def _gm_posts(board: LocalBoard, thread: str) -> int:
    return sum(1 for p in await _posts(board, thread) if p.author == "Ведущий")


async def _results_posted(board: LocalBoard, thread: str) -> int:
    posts = await _posts(board, thread)
    return sum(1 for p in posts if p.author == "Ведущий" and "Итоги хода" in p.body.full_text())


async def _all_markers(board: LocalBoard, thread: str) -> list[str]:
    sent = (await board.sent()).items
    posts = await _posts(board, thread)
    texts = [p.body.full_text() for p in posts] + [m.body.full_text() for m in sent]
    return [m for t in texts for m in find_markers(t)]
