"""`forumgm run --once` killed (SIGKILL, no clean-up) right after the live board took the
GM's first post and before the store recorded it.

    python -m tests.live.crash_child CLOCK_FILE forumgm-args…

The board's clock is the test's (CLOCK_FILE): every wait of forumgm's client moves it on,
as the live tests' fixtures do in process. The environment carries FORUMGM_NOW and the
GM's password."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path
from typing import Any

from forums.client import BoardClient
from forums.fluxbb.board import FluxbbBoard
from forums.phpbb.board import PhpbbBoard
from tests.live.boards import BoardClock


def main() -> None:
    clock = BoardClock(Path(sys.argv[1]), attach=True)

    async def waited(self: BoardClient, seconds: float) -> None:
        if seconds > 0:
            clock.advance(seconds)
        await asyncio.sleep(0)

    BoardClient.sleep = waited  # type: ignore[method-assign]
    for engine in (PhpbbBoard, FluxbbBoard):
        reply = engine.reply

        async def reply_then_die(self: Any, thread: str, bbcode: str, reply: Any = reply) -> Any:
            await reply(self, thread, bbcode)
            os.kill(os.getpid(), signal.SIGKILL)  # the board has it; the store never hears

        engine.reply = reply_then_die  # type: ignore[method-assign]
    from engine.app.cli import app

    app(sys.argv[2:], prog_name="forumgm")


if __name__ == "__main__":
    main()
