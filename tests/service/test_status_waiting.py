"""`forumgm status` names the games whose deadline passed and that wait their turn.

Three games on one local board share a deadline; the first has been read and resolved, the
other two not yet: status says of each of those two that it waits its turn and how many
games of its board come before it; the resolved game is not named.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

from typer.testing import CliRunner

from engine.app.cli import app
from engine.config import load_config
from engine.service.driver import GameDriver
from engine.store import open_store
from forums.local import LocalBoard, ManualClock

runner = CliRunner(env={"COLUMNS": "200"})
GM, PASSWORD = "Ведущий", "gm-status"
NAMES = ["Вася", "Петя", "Маша", "Коля", "Оля"]
DEADLINE = datetime(2026, 12, 3, 16, 0, tzinfo=UTC)
GAME = """\
[game]
ruleset = "votecount"
title = "Игра {n}"
review = "auto"
receipts = false

[board]
engine = "local"
url = "{board}"
thread = "{thread}"
gm_user = "Ведущий"
password = "env:FORUMGM_STATUS_GM"

[schedule]
timezone = "Europe/Moscow"
deadlines = ["{deadline}", "{later}"]
start = "{start}"

[players]
players = ["Вася", "Петя", "Маша", "Коля", "Оля"]
"""


def test_status_names_the_games_waiting_their_turn(tmp_path: Path) -> None:
    clock = ManualClock(DEADLINE - timedelta(hours=2))
    board_url = f"sqlite:///{tmp_path / 'board.sqlite'}"
    board = LocalBoard(board_url, GM, PASSWORD, clock=clock)
    board.create_schema()
    board.add_user(GM, PASSWORD)
    for name in NAMES:
        board.add_user(name, "pw")
    db = f"sqlite:///{tmp_path / 'store.sqlite'}"
    store = open_store(db)
    drivers = []
    for n in (1, 2, 3):
        path = tmp_path / f"game{n}.toml"
        path.write_text(
            GAME.format(
                n=n,
                board=board_url,
                thread=board.create_thread(f"Игра {n}", GM),
                deadline=DEADLINE.isoformat(),
                later=(DEADLINE + timedelta(days=1)).isoformat(),
                start=(DEADLINE - timedelta(hours=3)).isoformat(),
            ),
            encoding="utf-8",
        )
        driver = GameDriver(store, board, load_config(path), clock=clock)
        assert driver.start()
        asyncio.run(driver.step())  # the start published, day 1 open
        drivers.append(driver)
    clock.set(DEADLINE + timedelta(seconds=20))
    asyncio.run(drivers[0].step())  # the first game is read and resolved; the others wait
    now = (DEADLINE + timedelta(seconds=30)).isoformat()
    result = runner.invoke(app, ["status", "--db", db], env={"FORUMGM_NOW": now})
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if "waiting its turn" in line]
    ids = [d.game_id for d in drivers]
    assert [line.split(":")[0] for line in lines] == [f"game {ids[1]}", f"game {ids[2]}"], lines
    assert "30 s ago" in lines[0] and "(0 game(s) of its board before it)" in lines[0]
    assert "(1 game(s) of its board before it)" in lines[1]
