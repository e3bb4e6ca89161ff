"""The GM loop: reading commands off the local board and publishing without double posts."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

import rulesets
from engine.core.ruleset import Seat
from engine.gm import GameMaster
from engine.render import Renderer
from engine.session import GameSession
from engine.store import Store, open_store
from forums.local import LocalBoard, ManualClock

MSK = ZoneInfo("Europe/Moscow")
OPEN = datetime(2026, 12, 1, 19, 0, tzinfo=MSK)
ROLES = {
    "Вася": "citizen",
    "Петя": "commissar",
    "Коля": "mafioso",
    "Маша": "doctor",
    "Оля": "citizen",
}


class Table:
    def __init__(self, tmp_path: Path) -> None:
        url = f"sqlite:///{tmp_path / 'gm.sqlite'}"
        self.store: Store = open_store(url)
        self.clock = ManualClock(OPEN)
        self.board = LocalBoard(url, "GM", "gm-pass", clock=self.clock)
        self.board.create_schema()
        self.board.add_user("GM", "gm-pass")
        for name in ROLES:
            self.board.add_user(name, "pw")
        self.thread = self.board.create_thread("Игра", "GM")
        board_row = self.store.create_board("local", "local://t", "GM")
        game = self.store.create_game(board_row.id, self.thread, "classic", seed=5)
        ruleset = rulesets.find("classic")
        seats = [Seat(n, r) for n, r in ROLES.items()]
        self.session = GameSession.new(ruleset, seats, None, 5)
        self.gm = GameMaster(
            self.store,
            self.board,
            game.id,
            self.session,
            Renderer.for_ruleset(ruleset),
            self.thread,
            gm_name="GM",
        )
        self.game_id = game.id
        self.session.open_phase(OPEN, OPEN + timedelta(days=1))
        self.store.open_phase(game.id, self.session.log.phase, self.session.state)  # type: ignore[union-attr]

    def posts_by_gm(self) -> int:
        page = asyncio.run(self.board.thread_posts(self.thread))
        return sum(1 for p in page.items if p.author == "GM")


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return Table(tmp_path)


def test_pm_commands_are_read_acknowledged_and_resolved(table: Table) -> None:
    table.clock.set(OPEN + timedelta(hours=1))
    table.board.pm_as("Вася", ["GM"], "ход", "голосую за Колю")
    table.board.pm_as("Оля", ["GM"], "ход", "Привет!\nвиноват Коля")
    table.board.pm_as("Коля", ["GM"], "ход", "стреляю в Машу\nголосую за Олю")
    table.board.post_as("Петя", table.thread, "рейтинг")
    result = asyncio.run(table.gm.poll())
    assert (result.pms, result.posts) == (3, 1)
    assert [e.type for e in result.events if e.is_public] == ["vote_rating"]
    asyncio.run(table.gm.publish())
    inbox = asyncio.run(table.board.as_user("Вася", "pw").inbox())
    assert any("Коля" in pm.body.full_text() for pm in inbox.items)  # the receipt names the target
    log = table.gm.close_phase()
    assert [e.fields["player"] for e in log.resolution if e.type == "imprisonment"] == ["Коля"]
    assert asyncio.run(table.gm.publish()) >= 1
    assert table.posts_by_gm() == 2  # the rating and the results post


def test_a_crash_between_sending_and_recording_never_double_posts(table: Table) -> None:
    table.gm.close_phase()
    pending = table.store.pending(table.game_id)
    post = next(i for i in pending if i.kind == "post")
    # The post went out, then the process died before the outbox recorded it.
    asyncio.run(table.board.reply(table.thread, post.bbcode))
    asyncio.run(table.gm.publish())
    assert table.posts_by_gm() == 1
    assert table.store.find_by_marker(post.marker).status == "posted"  # type: ignore[union-attr]
    assert asyncio.run(table.gm.publish()) == 0


def test_a_failed_send_stays_in_the_outbox(table: Table) -> None:
    table.gm.close_phase()

    async def broken(*args: object, **kwargs: object) -> str:
        raise ConnectionError("board down")

    table.board.reply = broken  # type: ignore[method-assign]
    table.board.send_pm = broken  # type: ignore[method-assign]
    asyncio.run(table.gm.publish())
    items = table.store.outbox(table.game_id)
    assert items and all(
        i.status == "failed" and "board down" in (i.last_error or "") for i in items
    )


def test_a_pm_after_the_deadline_is_late(table: Table) -> None:
    table.clock.set(OPEN + timedelta(days=1, minutes=3))
    table.board.pm_as("Вася", ["GM"], "ход", "голосую за Колю")
    result = asyncio.run(table.gm.poll())
    assert [w.code for w in result.warnings] == ["late"]
    assert table.session.inputs.votes == {}  # type: ignore[union-attr]
