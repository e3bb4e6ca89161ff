"""A `forumgm run` stand-in for the two-process test: the real Service with a fast cadence.

Usage: python run_child.py DB_URL OWNER MAX_SECONDS GAME.toml… The games' boards and GM
passwords come from their files and the environment, as `forumgm run` takes them; only the
cadence (a quick poll, a lease that outlasts the test: a killed process's games are taken
over because it is gone, not because its lease expired) and the owner name are the test's.
Every step is appended to `OWNER.steps` next to the first game file, so the test can see
who drove what.

The child imports everything and opens the store, writes `OWNER.ready`, and waits for the
file `go` (next to the game files) before it reads them: the test writes the games'
deadlines once both children are up, so a slow start on a loaded machine costs no deadline.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import time
from datetime import timedelta
from pathlib import Path

import rulesets
from engine.config import load_config
from engine.core.ruleset import get_ruleset, registered
from engine.service import runner
from engine.service.build import make_driver
from engine.service.driver import GameDriver
from engine.service.pool import BoardPool
from engine.store import open_store

CADENCE = runner.Cadence(
    far=timedelta(seconds=0.3),
    near=timedelta(seconds=0.3),
    near_window=timedelta(seconds=5),
    waiting=timedelta(seconds=0.3),
    watch=timedelta(seconds=0.3),
    lease=timedelta(minutes=10),
)


def main() -> None:
    url, owner, max_seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
    paths = [Path(p) for p in sys.argv[4:]]
    folder = paths[0].parent
    steps = folder / f"{owner}.steps"
    logging.basicConfig(level=logging.WARNING)
    rulesets.load_all()
    known = {r: get_ruleset(r) for r in registered()}
    store = open_store(url)
    (folder / f"{owner}.ready").write_text(str(os.getpid()), encoding="utf-8")
    end = time.monotonic() + max_seconds
    while not (folder / "go").exists():
        if time.monotonic() > end:
            return
        time.sleep(0.05)
    pool = BoardPool()  # as `forumgm run` makes them: one board session for the games
    drivers = [make_driver(load_config(p, rulesets=known), store, pool=pool) for p in paths]
    drive_once = runner.drive_once

    async def logged(driver: GameDriver, who: str, cadence: runner.Cadence) -> str:
        status = await drive_once(driver, who, cadence)
        with steps.open("a", encoding="utf-8") as out:
            out.write(f"{driver.game_id}\t{status}\n")
        return status

    runner.drive_once = logged  # the Service looks it up at each job

    async def run() -> None:
        stop = asyncio.Event()
        asyncio.get_running_loop().call_later(max_seconds, stop.set)  # never outlive the test
        await runner.Service(drivers, cadence=CADENCE, owner=owner).run(stop)

    asyncio.run(run())


if __name__ == "__main__":
    main()
