"""Issue 10 §7: nothing is published for a game whose start the host has not approved.

Through the CLI with a game file, the local board and a chosen clock: players PM votes and
ask for a rating before the host has looked at the role PMs; `run` reads and answers but
sends nothing. Once the host approves the start, the opening, the role PMs, the receipts
and the rating all go out.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from typer.testing import CliRunner

from engine.app.cli import app
from forums.local import LocalBoard, ManualClock
from tests.service.helpers import GM, game_toml, local_board

MSK = ZoneInfo("Europe/Moscow")
START = datetime(2026, 12, 1, 19, 0, tzinfo=MSK)
PLAYERS = ["Вася", "Петя", "Маша", "Коля", "Оля"]
ROLES = {"Вася": "mafioso", "Петя": "commissar", "Маша": "doctor", "Коля": "citizen"}
ROLES["Оля"] = "citizen"


def test_receipts_and_ratings_wait_for_the_approved_start(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'board.sqlite'}"
    clock = ManualClock(START)
    board, thread = local_board(url, PLAYERS, clock=clock)
    path = tmp_path / "game.toml"
    text = game_toml(url=url, thread=thread, players=PLAYERS, roles=ROLES, review="warnings")
    path.write_text(text.replace("env:UNUSED", "env:TEST_GM_PASSWORD"), encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'store.sqlite'}"
    runner = CliRunner(env={"TEST_GM_PASSWORD": "gm-secret", "COLUMNS": "200"})

    def forumgm(at: datetime, *command: str) -> str:
        words = [*command[:-1], str(path), *([command[-1]] if command[-1] else []), "--db", db]
        result = runner.invoke(app, words, env={"FORUMGM_NOW": at.isoformat()})
        assert result.exit_code == 0, result.output
        return result.output

    def sent_by_gm() -> tuple[int, int]:
        gm = LocalBoard(board.db, GM, "gm-secret")
        posts = [p for p in asyncio.run(gm.thread_posts(thread)).items if p.author == GM]
        return len(posts), len(asyncio.run(gm.sent()).items)

    forumgm(START, "game", "start", "")
    clock.set(START + timedelta(minutes=30))
    board.pm_as("Коля", [GM], "ход", "голосую за Васю")
    board.post_as("Оля", thread, "рейтинг")
    forumgm(START + timedelta(minutes=40), "run", "--once")
    assert sent_by_gm() == (0, 0)  # not a receipt, not the rating, not the opening
    forumgm(START + timedelta(minutes=45), "review", "--approve")
    forumgm(START + timedelta(minutes=50), "run", "--once")
    posts, pms = sent_by_gm()
    assert posts == 2  # the opening and the rating
    assert pms == len(PLAYERS) + 1  # the role PMs and Коля's receipt


def test_a_post_and_a_pm_with_the_same_board_id_are_both_answered(tmp_path: Path) -> None:
    # Boards number posts and PMs separately: post 6 and PM 6 are two different messages.
    from engine.config import parse_config
    from engine.service.driver import GameDriver
    from engine.store import open_store

    url = f"sqlite:///{tmp_path / 'game.sqlite'}"
    clock = ManualClock(START)
    board, thread = local_board(url, PLAYERS, clock=clock)
    config = parse_config(game_toml(url=url, thread=thread, players=PLAYERS, roles=ROLES))
    driver = GameDriver(open_store(url), board, config, clock=clock)
    driver.start()
    asyncio.run(driver.step(START))  # the opening is post 1, the role PMs are PMs 1–5
    clock.set(START + timedelta(minutes=10))
    for n in range(4):
        board.post_as("Маша", thread, f"привет {n}")
    post = board.post_as("Оля", thread, "рейтинг")  # answered in the thread
    pm = board.pm_as("Коля", [GM], "ход", "голосую за Васю")  # a PM vote: a receipt
    assert post == pm == "6"
    asyncio.run(driver.step(START + timedelta(minutes=15)))
    posts = asyncio.run(board.thread_posts(thread)).items
    kolya = asyncio.run(board.as_user("Коля", "pw").inbox()).items
    assert any(p.author == GM and "Рейтинг" in (p.raw or "") for p in posts)
    assert any("Голос за" in (m.raw or "") for m in kolya)
