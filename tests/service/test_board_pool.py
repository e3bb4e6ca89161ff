"""Games on one board and GM account share one client, one login and one inbox read a poll.

Two games in two topics of the saved phpBB 3.3.10 board (topic 3 is served the saved pages
of topic 2) are made as `forumgm run` makes them, through one `BoardPool`: their adapters
hold one session (one HTTP client, one cookie jar), the board sees one login, and a poll
of both reads the GM's inbox once. A game made without the pool has a session of its own
(what every game had before). A deadline's read never takes an inbox page fetched before
the deadline.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from engine.service import build
from engine.service.build import make_driver
from engine.service.driver import GameDriver
from engine.service.pool import BoardPool
from engine.store import Store, open_store
from forums.local import ManualClock
from forums.phpbb import PhpbbBoard
from tests.service.phpbb_fixture_board import (
    MOSCOW,
    PASSWORD,
    FakeTime,
    game_config,
    saved_board,
    thread_truth,
)

DAY1_END = datetime.fromisoformat(thread_truth()["deadlines"]["day1"])


def _kinds(fake: Any) -> dict[str, int]:
    """The board's requests by kind: logins, inbox reads, topic pages."""
    kinds = {"login": 0, "inbox": 0, "topic": 0}
    for request in fake.requests:
        target = str(request.url)
        if request.method == "POST" and "mode=login" in target:
            kinds["login"] += 1
        elif "folder=inbox" in target:
            kinds["inbox"] += 1
        elif "viewtopic.php" in target:
            kinds["topic"] += 1
    return kinds


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Any:
    fake = saved_board("ru")
    for number in range(1, 8):  # topic 3: the saved pages of topic 2
        start = f"&start={(number - 1) * 10}" if number > 1 else ""
        fake.on("GET", f"/viewtopic.php?t=3{start}", f"viewtopic_p{number}.html")
    time = FakeTime()

    def factory(_engine: str) -> Any:
        def make(url: str, user: str, password: str, **options: Any) -> PhpbbBoard:
            options.pop("allow_insecure_http", None)
            return PhpbbBoard(
                url,
                user,
                password,
                client=fake.client(),
                tz=MOSCOW,
                clock=time,
                sleep=time.sleep,
                allow_insecure_http=True,
                **options,
            )

        return make

    monkeypatch.setattr(build, "board_factory", factory)
    monkeypatch.setenv("FORUMGM_TEST_GM", PASSWORD)
    return fake


def _drivers(store: Store, clock: ManualClock, pool: BoardPool | None) -> list[GameDriver]:
    drivers = []
    for thread in ("2", "3"):
        driver = make_driver(game_config(thread=thread), store, clock=clock, pool=pool)
        driver.start()
        drivers.append(driver)
    return drivers


async def _poll(drivers: list[GameDriver]) -> None:
    async def one(driver: GameDriver) -> None:
        ph = driver.store.current_phase(driver.game_id)
        assert ph is not None
        await driver.read(full=False, phase=ph)

    await asyncio.gather(*(one(d) for d in drivers))


def test_games_on_one_board_share_one_client_one_login_and_one_inbox_read(
    fake: Any, tmp_path: Path
) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'store.sqlite'}")
    clock = ManualClock(DAY1_END - timedelta(hours=2))
    pool = BoardPool()
    first, second = _drivers(store, clock, pool)
    assert isinstance(first.board, PhpbbBoard) and isinstance(second.board, PhpbbBoard)
    assert first.board is not second.board  # each game's own cursor and page size
    assert first.board.session is second.board.session
    assert first.board.http is second.board.http
    assert pool.sessions() == 1 and first.inbox_share is second.inbox_share

    asyncio.run(_poll([first, second]))
    kinds = _kinds(fake)
    assert kinds["login"] == 1, kinds
    assert kinds["inbox"] == 1, kinds  # read once for both games
    assert kinds["topic"] == 14, kinds  # each game's own thread, 7 pages each
    # The inbox is asked for before the thread pages: its one read stands first in the
    # board's queue of requests, so a game's poll ends with its own pages, not everyone's.
    targets = [str(r.url) for r in fake.requests]
    inbox_at = next(i for i, t in enumerate(targets) if "folder=inbox" in t)
    assert all(i > inbox_at for i, t in enumerate(targets) if "viewtopic.php" in t), targets
    # Both games have the inbox's PMs of their players (the same saved players).
    assert store.read_cursors(first.game_id)[1] == store.read_cursors(second.game_id)[1]

    # The next poll wave, a minute later: the inbox once more, no second login.
    clock.advance(minutes=1)
    asyncio.run(_poll([first, second]))
    kinds = _kinds(fake)
    assert kinds["login"] == 1 and kinds["inbox"] == 2, kinds

    # A deadline's read takes only an inbox page fetched after the deadline.
    assert first.inbox_share is not None
    ph = store.current_phase(first.game_id)
    assert ph is not None
    clock.set(ph.deadline + timedelta(seconds=5))
    asyncio.run(first.read(full=True, phase=ph))
    assert _kinds(fake)["inbox"] == 3


def test_without_the_pool_each_game_has_its_own_session(fake: Any, tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'store.sqlite'}")
    clock = ManualClock(DAY1_END - timedelta(hours=2))
    first, second = _drivers(store, clock, None)
    assert isinstance(first.board, PhpbbBoard) and isinstance(second.board, PhpbbBoard)
    assert first.board.session is not second.board.session
    asyncio.run(_poll([first, second]))
    kinds = _kinds(fake)
    assert kinds["login"] == 2 and kinds["inbox"] == 2, kinds
