"""The driver on the local board: PM commands answered and resolved, and the outbox's promises.

A post the board took before the store recorded it is never posted again (the crash tests
cover a PM the same way), and a send the board refused stays in the outbox for a retry.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from engine.config import parse_config
from engine.core.orders import Channel
from engine.service.driver import GameDriver
from engine.service.replay import item_ref
from engine.store import open_store
from forums.local import ManualClock
from tests.service.helpers import game_toml, local_board

MSK = ZoneInfo("Europe/Moscow")
START = datetime(2026, 12, 1, 19, 0, tzinfo=MSK)
PLAYERS = ["Вася", "Петя", "Коля", "Маша", "Оля"]
ROLES = {
    "Вася": "citizen",
    "Петя": "commissar",
    "Коля": "mafioso",
    "Маша": "doctor",
    "Оля": "citizen",
}


class Game:
    def __init__(self, tmp_path: Path) -> None:
        url = f"sqlite:///{tmp_path / 'game.sqlite'}"
        self.clock = ManualClock(START)
        self.board, self.thread = local_board(
            url, PLAYERS, clock=self.clock, gm="GM", gm_password="gm-pass", title="Игра"
        )
        text = game_toml(url=url, thread=self.thread, players=PLAYERS, seed=5, gm="GM", roles=ROLES)
        config = parse_config(text)
        self.store = open_store(url)
        self.driver = GameDriver(self.store, self.board, config, clock=self.clock)
        self.driver.start()

    def step(self, at: datetime) -> str:
        self.clock.set(at)
        return asyncio.run(self.driver.step(at))

    def posts_by_gm(self) -> list[str]:
        page = asyncio.run(self.board.thread_posts(self.thread))
        return [p.body.full_text() for p in page.items if p.author == "GM"]


@pytest.fixture
def game(tmp_path: Path) -> Game:
    return Game(tmp_path)


def test_pm_commands_are_read_acknowledged_and_resolved(game: Game) -> None:
    game.step(START)
    assert len(game.posts_by_gm()) == 1  # the opening post
    game.clock.set(START + timedelta(hours=1))
    game.board.pm_as("Вася", ["GM"], "ход", "голосую за Колю")
    game.board.pm_as("Оля", ["GM"], "ход", "Привет!\nвиноват Коля")
    game.board.pm_as("Коля", ["GM"], "ход", "стреляю в Машу\nголосую за Олю")
    rating = game.board.post_as("Петя", game.thread, "рейтинг")
    game.step(START + timedelta(hours=1, minutes=1))
    ph = game.store.current_phase(game.driver.game_id)
    assert ph is not None
    answers = game.driver.replay(ph, game.clock()).answers
    assert [e.type for e in answers[item_ref(Channel.THREAD, rating)][0] if e.is_public] == [
        "vote_rating"
    ]
    inbox = asyncio.run(game.board.as_user("Вася", "pw").inbox())
    receipts = [pm.body.full_text() for pm in inbox.items if "Колю" in pm.body.full_text()]
    assert receipts  # the receipt names the target
    assert len(game.posts_by_gm()) == 2  # and the rating went to the thread
    game.step(START + timedelta(days=1, minutes=1))
    events = game.store.events(game.driver.game_id, ph.phase)
    assert [e.fields["player"] for e in events if e.type == "imprisonment"] == ["Коля"]
    assert len(game.posts_by_gm()) == 3  # the opening, the rating and the results post


def test_a_post_sent_but_not_recorded_is_not_posted_again(game: Game) -> None:
    opening = next(i for i in game.store.pending(game.driver.game_id) if i.kind == "post")
    # The send started and the board took the post, then the process died before the
    # outbox recorded it.
    game.store.mark_sending(opening.marker, START)
    asyncio.run(game.board.reply(game.thread, opening.bbcode))
    game.step(START)
    assert len(game.posts_by_gm()) == 1
    item = game.store.find_by_marker(opening.marker)
    assert item is not None and item.status == "posted"
    assert asyncio.run(game.driver.publisher.publish()) == 0


def test_a_failed_send_stays_in_the_outbox_until_the_board_is_back(
    game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(*args: object, **kwargs: object) -> str:
        raise ConnectionError("board down")

    with monkeypatch.context() as patched:
        patched.setattr(game.board, "reply", broken)
        patched.setattr(game.board, "send_pm", broken)
        game.step(START)
    items = game.store.outbox(game.driver.game_id)
    assert items and all(
        i.status == "failed" and "board down" in (i.last_error or "") for i in items
    )
    game.step(START + timedelta(minutes=5))
    assert all(i.status == "posted" for i in game.store.outbox(game.driver.game_id))
    assert len(game.posts_by_gm()) == 1


def test_a_board_down_for_hours_still_gets_every_item_when_it_is_back(
    game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The outbox never gives up: twelve failed tries over five hours, then the board is back
    and the opening post and every role PM go out, once each."""

    async def broken(*args: object, **kwargs: object) -> str:
        raise ConnectionError("board down")

    at = START
    with monkeypatch.context() as patched:
        patched.setattr(game.board, "reply", broken)
        patched.setattr(game.board, "send_pm", broken)
        for _ in range(12):
            game.step(at)
            at += timedelta(minutes=31)  # past the longest backoff
    items = game.store.outbox(game.driver.game_id)
    assert items and all(i.status == "failed" and i.attempts >= 12 for i in items)
    game.step(at)
    assert all(i.status == "posted" for i in game.store.outbox(game.driver.game_id))
    assert len(game.posts_by_gm()) == 1


def test_failed_sends_back_off() -> None:
    from datetime import timedelta

    from engine.publish import retry_delay

    assert [retry_delay(n) for n in range(5)] == [
        timedelta(0),
        timedelta(0),
        timedelta(minutes=1),
        timedelta(minutes=2),
        timedelta(minutes=4),
    ]
    assert retry_delay(20) == timedelta(minutes=30)
