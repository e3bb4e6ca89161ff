"""Session-wide: the duration of a whole passing test run is kept for `benchmarks/run.py`."""

from __future__ import annotations

import time
from typing import Any

import pytest

_STARTED: dict[str, float] = {}


def pytest_sessionstart(session: pytest.Session) -> None:
    _STARTED["wall"], _STARTED["cpu"] = time.perf_counter(), time.process_time()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    config: Any = session.config
    whole = [str(a).rstrip("/") for a in config.args] in ([], ["tests"])
    selected = config.option.keyword or config.option.markexpr or config.option.deselect
    if (
        exitstatus != 0
        or not whole
        or selected
        or getattr(config, "cache", None) is None
        or not _STARTED
    ):
        return
    config.cache.set(
        "forumgm/suite",
        {
            "wall": round(time.perf_counter() - _STARTED["wall"], 1),
            "cpu": round(time.process_time() - _STARTED["cpu"], 1),
            "tests": session.testscollected,
            "at": time.strftime("%Y-%m-%d %H:%M:%S"),
        },
    )
