"""What the adapter tests of every engine share: the board's clock, whose `sleep` moves it on
instead of waiting, and one board action run in a fresh event loop.

Each engine's helpers (helpers_http.py, helpers_mybb.py, xf_helpers.py) take these, with
the moment its own saved pages were captured as the clock's start where it matters.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TypeVar

from forums import Board


@dataclass
class FakeTime:
    """The board's clock for tests: `sleep` moves it on instead of waiting."""

    now: datetime = field(default_factory=lambda: datetime(2026, 12, 1, 20, 0, tzinfo=UTC))
    slept: list[float] = field(default_factory=list)

    def __call__(self) -> datetime:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += timedelta(seconds=seconds)


T = TypeVar("T")
B = TypeVar("B", bound=Board)


def run(board: B, action: Callable[[B], Awaitable[T]]) -> T:
    """Run one board action in a fresh event loop, closing the board after."""

    async def go() -> T:
        try:
            return await action(board)
        finally:
            await board.close()

    return asyncio.run(go())
