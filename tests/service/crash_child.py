"""A `forumgm run` stand-in for the crash tests: one step of a game, killed at a chosen point.

Usage: python crash_child.py WORKDIR NOW_ISO [CRASH_POINT]. The process kills itself with
SIGKILL right after the named step has taken effect, as a power cut or OOM kill would.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

from engine.config import parse_config
from engine.service.driver import GameDriver
from engine.store import open_store
from forums.local import LocalBoard, ManualClock

NAMES = ["Вася", "Петя", "Маша", "Коля", "Оля"]
GAME = """
[game]
ruleset = "classic"
seed = 5
review = "auto"
[board]
engine = "local"
url = "{url}"
thread = "{thread}"
gm_user = "Ведущий"
password = "env:UNUSED"
[schedule]
timezone = "Europe/Moscow"
deadlines = "every day 19:00"
start = "2026-12-01 19:00"
[players]
players = ["Вася", "Петя", "Маша", "Коля", "Оля"]
[roles]
"Вася" = "commissar"
"Петя" = "mafioso"
"Маша" = "doctor"
"Коля" = "citizen"
"Оля" = "citizen"
"""


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def after(obj: Any, name: str, *, nth: int = 1) -> None:
    """Kill the process once `obj.name` has returned for the nth time."""
    original = getattr(obj, name)
    calls = {"n": 0}

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        result = original(*args, **kwargs)
        calls["n"] += 1
        if calls["n"] == nth:
            die()
        return result

    async def awrapped(*args: Any, **kwargs: Any) -> Any:
        result = await original(*args, **kwargs)
        calls["n"] += 1
        if calls["n"] == nth:
            die()
        return result

    setattr(obj, name, awrapped if asyncio.iscoroutinefunction(original) else wrapped)


def main() -> None:
    work, now_text = Path(sys.argv[1]), sys.argv[2]
    point = sys.argv[3] if len(sys.argv) > 3 else ""
    url = f"sqlite:///{work / 'game.sqlite'}"
    clock = ManualClock(datetime.fromisoformat(now_text))
    board = LocalBoard(url, "Ведущий", "gm-secret", clock=clock)
    thread = (work / "thread").read_text()
    config = parse_config(GAME.format(url=url, thread=thread))
    driver = GameDriver(open_store(url), board, config, clock=clock)
    driver.start()
    store = driver.store
    if point == "after_freeze":
        after(store, "freeze_phase")
    elif point == "after_resolve":
        after(store, "resolve_phase")
    elif point == "after_enqueue":
        after(store, "enqueue", nth=1)
    elif point == "during_publish":
        after(store, "mark_posted", nth=2)
    elif point == "accepted_not_recorded":
        after(board, "send_pm", nth=1)
    asyncio.run(driver.step(clock()))


if __name__ == "__main__":
    main()
