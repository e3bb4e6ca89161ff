"""A game's last results wait for the host like any others, and `forumgm run` publishes them.

The game used to be marked finished as soon as its last phase was resolved: the running
service dropped it, and the approved final post and PMs stayed in the outbox until a manual
`run --once`. Here the real `Service` (a fast cadence) keeps running while the host
approves from the command line, and the results reach the board on their own.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from engine.config import load_config
from engine.service.build import make_driver
from engine.service.runner import Cadence, Service
from engine.store import GameStatus, PhaseStatus, open_store
from tests.service.helpers import GM, cli_game

MSK = ZoneInfo("Europe/Moscow")
NAMES = ["Вася", "Петя", "Маша"]
FAST = Cadence(
    far=timedelta(seconds=0.2),
    near=timedelta(seconds=0.2),
    near_window=timedelta(seconds=1),
    waiting=timedelta(seconds=0.2),
    lease=timedelta(seconds=30),
)


def test_run_publishes_the_final_results_once_the_host_approves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    roles = {"Вася": "mafioso", "Петя": "citizen", "Маша": "citizen"}
    g = cli_game(tmp_path, NAMES, review="always", roles=roles)
    path, board, db = g.path, g.board, g.db
    cli = g.cli

    g.opened()
    for voter in ("Петя", "Маша"):  # turn 1 jails the only mafioso: the town wins
        board.pm_as(voter, [GM], "ход", "голосую за Васю", at=datetime(2026, 12, 1, 20, tzinfo=MSK))
    after = datetime(2026, 12, 2, 19, 5, tzinfo=MSK)
    monkeypatch.setenv("TEST_GM_PASSWORD", "gm-secret")
    store = open_store(db)
    driver = make_driver(load_config(path), store, clock=lambda: after)

    async def service() -> None:
        stop = asyncio.Event()
        task = asyncio.create_task(Service([driver], cadence=FAST).run(stop))
        try:
            await _until(lambda: _phase_status(store, driver.game_id) is PhaseStatus.RESOLVED)
            await asyncio.sleep(0.5)  # several more jobs while the results wait
            status = cli("status", at="2026-12-02T19:05+03:00")
            assert "running" in status and "turn 1 (resolved)" in status
            assert not g.gm_posts("Итоги")
            await asyncio.to_thread(
                cli, "review", str(path), "--approve", at="2026-12-02T19:06+03:00"
            )
            await _until(lambda: bool(g.gm_posts("Итоги")))
        finally:
            stop.set()
            await task

    asyncio.run(service())
    assert store.get_game(driver.game_id).status is GameStatus.FINISHED
    assert "finished" in cli("status", at="2026-12-02T19:10+03:00")
    received = {m.recipients[0] for m in board.pms_after(board.user(GM), "sent", 0)}  # type: ignore[arg-type]
    assert set(NAMES) <= received


async def _until(condition: object, seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if condition():  # type: ignore[operator]
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the service did not get there")


def _phase_status(store: object, game_id: int) -> PhaseStatus | None:
    ph = store.current_phase(game_id)  # type: ignore[attr-defined]
    return ph.status if ph is not None else None
