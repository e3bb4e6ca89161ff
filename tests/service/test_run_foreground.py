"""Issue 9 §3: `forumgm run` in the foreground says what it does, one line per action, and
keeps a log file; stopped with Ctrl-C it lets go of its games.

The real command in a child process, two seconds before a deadline (`FORUMGM_NOW`): it
polls (a PM vote, its receipt), freezes at the deadline, resolves, publishes and opens the
next turn, on the rehearsal board a host made with `forumgm board local init`.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from engine.store import open_store
from tests.app.rehearsal import PASSWORD_ENV, PLAYERS, ROLES, Rehearsal
from tests.service.helpers import GM_PASSWORD

ROOT = Path(__file__).resolve().parents[2]
MSK = ZoneInfo("Europe/Moscow")


def test_run_prints_each_action_and_releases_its_game(tmp_path: Path) -> None:
    players = (*PLAYERS, "Гена", "Лена")
    roles = {**ROLES, "Гена": "mafioso", "Лена": "citizen"}
    game = Rehearsal(tmp_path, players=players, roles=roles)
    game("2026-12-01T17:00+03:00", "board", "local", "init", "GAME")
    game.host("2026-12-01T18:00+03:00", "game start")
    game.host("2026-12-01T18:01+03:00", "review", "--approve")
    game.host("2026-12-01T19:01+03:00", "run", "--once")
    game.pm("2026-12-02T18:55+03:00", "Коля", "голосую за Петю")
    log = tmp_path / "run.log"
    env = {
        **os.environ,
        PASSWORD_ENV: GM_PASSWORD,
        "FORUMGM_NOW": "2026-12-02T18:59:58+03:00",
        "PYTHONPATH": str(ROOT),
    }
    command = "from engine.app.cli import main; main()"
    args = [sys.executable, "-c", command, "run", str(game.game), "--db", game.db]
    child = subprocess.Popen(
        [*args, "--log-file", str(log)], env=env, cwd=tmp_path, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if log.exists() and "turn 2 opened" in log.read_text(encoding="utf-8"):
                break
            time.sleep(0.2)
        child.send_signal(signal.SIGINT)
        _, said = child.communicate(timeout=30)
    finally:
        child.kill()
    assert child.returncode == 0, said
    lines = said.splitlines()
    expected = [
        "game 1: turn 1: polled: 0 new post(s), 1 new PM(s); 1 receipt(s) queued",
        "game 1: published 0 post(s) and 1 PM(s)",
        "game 1: turn 1: the deadline passed; read again and frozen",
        "game 1: turn 1: resolved; approved",
        "game 1: turn 1: results published",
        "game 1: turn 2 opened, deadline 2026-12-03 19:00 MSK",
    ]
    for text in expected:
        assert any(line.endswith(text) for line in lines), (text, said)
    assert all(line[:8].count(":") == 2 for line in lines), said  # "19:02:11 game 1: …"
    assert "Traceback" not in said and GM_PASSWORD not in log.read_text(encoding="utf-8")
    assert "turn 1: resolved; approved" in log.read_text(encoding="utf-8")
    assert "Итоги хода 1" in game.thread() and "Ведущий: принято" in game.inbox("Коля")
    now = datetime(2026, 12, 2, 19, 5, tzinfo=MSK)
    store = open_store(f"sqlite:///{game.db}")
    assert store.acquire_lease(1, "another process", now, timedelta(minutes=5))  # let go
