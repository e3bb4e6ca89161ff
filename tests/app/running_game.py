"""A demo game stopped in the middle of a phase: the bots' posts and PMs of the open phase are
read and taken, its results are not out. What a report during a game must keep secret is
then in the store."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from engine.app.demo import run as classic_demo
from engine.app.demo import yakuza_bots
from engine.app.demo.bots import Table
from engine.app.demo.play import GM_NAME, demo_config, demo_table
from engine.core.model import GameState
from engine.service.driver import GameDriver
from engine.store.models import GameStatus


@dataclass
class RunningGame:
    database: Path
    game_id: int
    thread_texts: list[str]
    """Every post in the thread (the bots' and the GM's)."""
    pm_texts: list[str]
    """Every PM a bot sent the GM: orders and secret votes."""


def play_running(ruleset: str, database: Path, *, phases: int, seed: int = 3) -> RunningGame:
    """`phases` whole phases, then the next one's messages, taken but not resolved."""
    return asyncio.run(_play(ruleset, database, phases, seed))


async def _play(ruleset: str, database: Path, phases: int, seed: int) -> RunningGame:
    rng = random.Random(seed * 7919 + 1)
    if ruleset == "classic":
        names = classic_demo.NAMES[:10]
        table = demo_table(database, names, "Мафия: отчёт", None)
        config = demo_config(table, "classic", seed, "ru", names)
        config.deal = classic_demo.demo_roles(10)
    else:
        names = yakuza_bots.NAMES[:18]
        table = demo_table(database, names, "Якудза: отчёт", None)
        config = demo_config(table, "yakuza", seed, "ru", names)
        config.visible_roles = dict(zip(names, rng.sample(yakuza_bots.VISIBLE, 18), strict=True))
    store, board, clock = table.store, table.board, table.clock
    driver = GameDriver(store, board, config, clock=clock)
    clock.set(config.start)
    driver.start()
    state = store.load_state(driver.game_id)
    assert state is not None
    bots = Table(state, rng) if ruleset == "classic" else yakuza_bots.YakuzaTable(state, rng)
    await driver.step(config.start)
    thread: list[str] = []
    pms: list[str] = []
    for n in range(1, phases + 2):
        ph = store.current_phase(driver.game_id)
        assert ph is not None and store.get_game(driver.game_id).status is GameStatus.RUNNING
        for message in bots.turn(GameState.from_json(ph.state_before), n):
            clock.set(ph.opened_at + timedelta(minutes=message.minute))
            if message.channel == "thread":
                board.post_as(message.author, table.thread, message.text)
                thread.append(message.text)
            else:
                board.pm_as(message.author, [GM_NAME], message.subject, message.text)
                pms.append(message.text)
        clock.set(ph.deadline - timedelta(minutes=1))
        await driver.step(clock())
        if n == phases + 1:
            break  # the open phase: read and taken, not resolved
        clock.set(ph.deadline)
        await driver.step(ph.deadline)
        bots.learn(store.events(driver.game_id, ph.phase))
    for item in store.outbox(driver.game_id):
        if item.kind.value == "post" and item.status.value == "posted":
            thread.append(item.bbcode)
    await board.close()
    return RunningGame(database, driver.game_id, thread, pms)
