"""A board whose PM flood asks for an hour between PMs, through the CLI a host uses.

MyBB's administrator may set «Floodcheck - Minimum Time Between PMs» (`pmfloodsecs`) to an
hour; the adapter hands such a wait back at once (`WebBoard.longest_flood_wait`). Played on
the local board of a host's rehearsal (tests/app/rehearsal.py), whose PMs are refused with
MyBB's words and wait while the flood holds: the general layer (engine.publish, the driver)
keeps the wait in the store — each `run --once` is a new process — and the game goes on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from engine.config import parse_config
from engine.service.driver import GameDriver
from engine.service.runner import Cadence, next_run
from engine.store import open_store
from forums.errors import FloodControl
from forums.local import LocalBoard, ManualClock
from tests.app.dashboard_client import host_client
from tests.app.rehearsal import PASSWORD_ENV, ROLES, Rehearsal
from tests.app.review_game import ReviewGame
from tests.service.helpers import GM_PASSWORD, game_toml, local_board


class Flood:
    """The board's PM flood: while `on`, every PM is refused for an hour."""

    def __init__(self) -> None:
        self.on = True
        self.tried: list[str] = []


@pytest.fixture
def flood(monkeypatch: pytest.MonkeyPatch) -> Flood:
    flood = Flood()
    send = LocalBoard.send_pm

    async def send_pm(
        self: LocalBoard, recipients: Sequence[str], subject: str, bbcode: str
    ) -> str:
        flood.tried.append(recipients[0])
        if flood.on:
            raise FloodControl(
                "http://127.0.0.1:8082/: You are trying to send a message too quickly after "
                "sending a previous message. Please wait 3600 more seconds.",
                retry_after=3600,
            )
        return await send(self, recipients, subject, bbcode)

    monkeypatch.setattr(LocalBoard, "send_pm", send_pm)
    return flood


def one_line(text: str) -> str:
    return " ".join(text.split())


def test_an_hour_between_pms_holds_no_turn_and_the_pms_go_out_in_order_after(
    tmp_path: Path, flood: Flood, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = Rehearsal(tmp_path, review="auto")
    g("2026-12-01T17:00+03:00", "board", "local", "init", "GAME")
    g.host("2026-12-01T18:00+03:00", "game start")
    g.host("2026-12-01T18:45+03:00", "review", "--approve")
    said = one_line(g.host("2026-12-01T19:01+03:00", "run", "--once", code=1))
    assert flood.tried == ["Вася"]  # one refusal, not one per PM
    assert "5 PMs wait behind the board's limit until about 2026-12-01 20:01 MSK" in said
    assert "Please wait 3600 more seconds" in said and "nothing was lost" in said
    assert "Игра начинается" in g.thread()

    g.pm("2026-12-01T19:10+03:00", "Маша", "голосую за Колю")
    g.pm("2026-12-01T19:11+03:00", "Петя", "голосую за Колю")
    said = one_line(g.host("2026-12-01T19:30+03:00", "run", "--once"))
    assert flood.tried == ["Вася"]  # the store knows the wait: no PM tried before it ends
    assert "7 PMs wait behind the board's limit until about 2026-12-01 20:01 MSK" in said
    status = one_line(g("2026-12-01T19:31+03:00", "status", "--db", g.db))
    assert "game 1: 7 PMs wait behind the board's limit until about 2026-12-01 20:01 MSK" in status
    assert "approved:7" in status  # kept, none failed
    status = one_line(g("2026-12-01T19:31+03:00", "--lang", "ru", "status", "--db", g.db))
    assert (
        "игра 1: 7 ЛС ждут: форум ограничил отправку примерно до 2026-12-01 20:01 MSK; они "
        "сохранены и уйдут тогда (http://127.0.0.1:8082/: You are trying" in status
    )
    # The dashboard's game page says it too.
    monkeypatch.setenv(PASSWORD_ENV, GM_PASSWORD)
    review = ReviewGame(g.game, f"sqlite:///{g.db}", LocalBoard(g.board_url, "x", "x"), "1")
    page = host_client(review, monkeypatch, at="2026-12-01T19:32+03:00").get("/games/1").text
    assert "7 PMs wait behind the board&#39;s limit until about 2026-12-01 20:01 MSK" in page

    # The deadline, the hour long past: one PM is tried (still refused), the turn is read,
    # resolved and its results posted in the thread; turn 2 opens.
    said = one_line(g.host("2026-12-02T19:01+03:00", "run", "--once", code=1))
    assert flood.tried == ["Вася", "Вася"]
    assert "turn 2: open until 2026-12-03 19:00 MSK" in said
    assert "until about 2026-12-02 20:01 MSK" in said
    thread = g.thread()
    assert "Итоги хода 1" in thread and "Начинается ход 2" in thread
    assert "Коля" in thread.split("Итоги хода 1")[1]
    assert "Ваша роль" not in g.inbox("Вася")

    # The flood lifts: the roles go out first, then the receipts, in their order.
    flood.on = False
    said = one_line(g.host("2026-12-02T20:02+03:00", "run", "--once"))
    assert flood.tried[2:] == ["Вася", "Петя", "Маша", "Коля", "Оля", "Маша", "Петя"]
    assert "wait behind the board's limit" not in said
    status = one_line(g("2026-12-02T20:03+03:00", "status", "--db", g.db))
    assert "wait behind" not in status and "failed" not in status


def test_the_service_wakes_the_game_when_the_limit_lifts(tmp_path: Path, flood: Flood) -> None:
    """Between two polls far apart (hours before a deadline), `forumgm run` steps the game
    again when the board's wait ends: what waits goes out then, not at the next poll."""
    url = f"sqlite:///{tmp_path / 'board.sqlite'}"
    start = datetime(2026, 12, 1, 16, 1, tzinfo=UTC)  # 19:01 MSK
    clock = ManualClock(start)
    board, thread = local_board(url, list(ROLES), clock=clock)
    config = parse_config(game_toml(url=url, thread=thread, players=list(ROLES), roles=ROLES))
    driver = GameDriver(
        open_store(f"sqlite:///{tmp_path / 'store.sqlite'}"), board, config, clock=clock
    )
    assert driver.start()
    driver.store.approve(driver.game_id, None)
    asyncio.run(driver.step(start))
    cadence = Cadence(far=timedelta(hours=6))
    assert next_run(driver, start, cadence) == start + timedelta(hours=1)
    flood.on = False
    asyncio.run(driver.step(start + timedelta(hours=1)))
    assert flood.tried == ["Вася", *ROLES]
    assert next_run(driver, start + timedelta(hours=1), cadence) == start + timedelta(hours=7)
