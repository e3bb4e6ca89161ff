"""Session-wide: the duration of a whole passing test run is kept for `benchmarks/run.py`,
and hypothesis's profile: `HYPOTHESIS_PROFILE=ci` (set by .ci/run) draws the same examples on
every run, so CI's verdict does not depend on luck; runs without it explore new examples.

With pytest-xdist (`-n 2`) the controller keeps it once its workers are gone: the CPU time
is its own and its workers' (child processes).

Many tests run `forumgm` as a host does, in a child process. Where PYTHONDONTWRITEBYTECODE
is set (as on this project's machines) each child would compile the whole project again, so
the controller compiles it once before the workers start (py_compile writes the cache files
whatever that variable says; the children only read them)."""

from __future__ import annotations

import compileall
import os
import resource
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from engine import i18n

# The suite's assertions read forumgm in English; a test of another language sets it itself
# (FORUMGM_LANG is the host's language for every command, as `--lang`).
os.environ["FORUMGM_LANG"] = "en"


@pytest.fixture(autouse=True)
def _language_of_no_earlier_test() -> None:
    """Each test starts with no language chosen and English spoken: a CLI command run in this
    process (`--lang ru`, a Russian game's file) leaves its language behind."""
    i18n.forget()


settings.register_profile("ci", derandomize=True, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

_STARTED: dict[str, float] = {}
ROOT = Path(__file__).resolve().parents[1]


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput") or not os.environ.get("PYTHONDONTWRITEBYTECODE"):
        return  # a worker, or Python writes its cache files itself
    for package in ("forums", "scraper", "engine", "rulesets", "tests"):
        compileall.compile_dir(ROOT / package, quiet=1, workers=0)


def _cpu() -> float:
    """CPU seconds of this process and of its children that have ended (xdist's workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def pytest_sessionstart(session: pytest.Session) -> None:
    _STARTED["wall"], _STARTED["cpu"] = time.perf_counter(), _cpu()


@pytest.hookimpl(trylast=True)  # after xdist has shut its workers down
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    config: Any = session.config
    if hasattr(config, "workerinput"):
        return  # an xdist worker: the controller keeps the whole run
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
            "cpu": round(_cpu() - _STARTED["cpu"], 1),
            "tests": session.testscollected,
            "at": time.strftime("%Y-%m-%d %H:%M:%S"),
        },
    )
