"""A poll costs what is new: its SQL statements and parse calls do not grow with the thread.

Counted with an SQLAlchemy event hook on the store's engine and a counter on the parser,
on the local board (a game file's votecount game, a fake clock). Resolution still replays
the phase from the store: the deadline count is what a fresh process reads too.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import event

import engine.session
from engine.config import parse_config
from engine.service.driver import GameDriver
from engine.store import open_store
from forums.local import ManualClock
from tests.service.helpers import game_toml, local_board

MSK = ZoneInfo("Europe/Moscow")
START = datetime(2026, 12, 1, 19, 0, tzinfo=MSK)
PLAYERS = ["Вася", "Петя", "Коля", "Маша", "Оля"]
CHATTER = ["Доброе утро!", "Кто что думает?", "Петя подозрителен.", "Голосую за Петю"]


class Counted:
    def __init__(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        url = f"sqlite:///{tmp_path / 'game.sqlite'}"
        self.clock = ManualClock(START)
        self.board, self.thread = local_board(url, PLAYERS, clock=self.clock)
        text = game_toml(
            url=url, thread=self.thread, players=PLAYERS, ruleset="votecount", game_extra=""
        ).replace('review = "auto"', 'review = "auto"\nreceipts = false')
        self.store = open_store(url)
        self.driver = GameDriver(self.store, self.board, parse_config(text), clock=self.clock)
        self.driver.start()
        self.statements = 0
        self.parses = 0
        event.listen(self.store.engine, "before_cursor_execute", self._statement)
        real = engine.session.parse_post

        def counting(*args: Any, **kwargs: Any) -> Any:
            self.parses += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(engine.session, "parse_post", counting)
        self.minutes = 0

    def _statement(self, *_args: Any) -> None:
        self.statements += 1

    def post(self, count: int) -> None:
        for n in range(count):
            self.minutes += 1
            self.clock.set(START + timedelta(minutes=self.minutes))
            who = PLAYERS[n % len(PLAYERS)]
            self.board.post_as(who, self.thread, CHATTER[n % len(CHATTER)])

    def poll(self) -> tuple[int, int]:
        """One step of the open phase: (SQL statements, parse calls) it took."""
        self.statements = self.parses = 0
        self.minutes += 1
        now = START + timedelta(minutes=self.minutes)
        self.clock.set(now)
        status = asyncio.run(self.driver.step(now))
        assert status.startswith("day 1: open")
        return self.statements, self.parses


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Counted]:
    counted = Counted(tmp_path, monkeypatch)
    yield counted
    counted.store.close()


def test_a_poll_costs_the_same_in_a_short_and_a_long_thread(game: Counted) -> None:
    game.poll()  # the opening post goes out
    game.post(20)
    assert game.poll()[1] == 20  # the first sync parses every post once
    game.post(1)
    short = game.poll()
    game.post(400)
    assert game.poll()[1] == 400
    game.post(1)
    long = game.poll()
    assert long == short  # the same statements, one parse
    assert long[1] == 1
    game.post(10)
    ten = game.poll()
    game.post(30)
    thirty = game.poll()
    assert (ten[1], thirty[1]) == (10, 30)
    assert ten[0] == thirty[0]  # recorded and stored in the same statements, however many
    idle = game.poll()
    assert idle[1] == 0 and idle[0] < short[0]  # an idle poll parses nothing

    # The deadline reads the phase from the store: a driver in a fresh process agrees.
    deadline = START + timedelta(days=1, minutes=1)
    game.clock.set(deadline)
    asyncio.run(game.driver.step(deadline))
    ph = game.store.get_phase(game.driver.game_id, "day 1")
    fresh = GameDriver(game.store, game.board, game.driver.config, clock=game.clock)
    replayed = fresh.replay(ph, ph.deadline)
    assert replayed.session.inputs is not None
    ours = game.store.parsed_orders(game.driver.game_id, "day 1")
    assert [o.order for o in ours] == list(replayed.session.inputs.log)
    lynch = [e for e in game.store.events(game.driver.game_id, "day 1") if e.type == "lynch"]
    assert [e.fields["player"] for e in lynch] == ["Петя"]


def test_the_deadline_re_reads_the_phase_and_sees_an_edit(game: Counted) -> None:
    """Day 2's deadline reads the thread from where day 2 began (not the whole thread) and
    still sees a vote edited between two polls."""
    game.poll()
    game.post(8)
    game.poll()
    day1 = START + timedelta(days=1, minutes=1)
    game.clock.set(day1)
    assert asyncio.run(game.driver.step(day1)).startswith("day 2: open")
    day2 = game.store.current_phase(game.driver.game_id)
    assert day2 is not None and day2.read_from is not None and day2.read_from["thread"]
    game.clock.set(day1 + timedelta(hours=1))
    first = game.board.post_as("Вася", game.thread, "Голосую за Колю")
    asyncio.run(game.driver.step(game.clock()))
    game.clock.set(day1 + timedelta(hours=3))
    game.board.edit_post(first, "Голосую за Олю", "Вася")
    game.board.post_as("Маша", game.thread, "Голосую за Олю")
    game.board.post_as("Коля", game.thread, "Голосую за Олю")
    deadline = START + timedelta(days=2, minutes=1)
    game.clock.set(deadline)
    asyncio.run(game.driver.step(deadline))
    lynch = [e for e in game.store.events(game.driver.game_id, "day 2") if e.type == "lynch"]
    assert [e.fields["player"] for e in lynch] == ["Оля"]
