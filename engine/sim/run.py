"""Many simulated games on every core: chunks of game numbers handed to worker processes.

Each chunk is games first … first+count-1 of one setup; a game's seed is its number's, so
the summaries (whole-number counts) add up to the same figures whatever the chunking, the
worker count or the order chunks finish in.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from typing import Any

from engine.sim.play import run_chunk
from engine.sim.policy import Policy
from engine.sim.setup import SimSetup
from engine.sim.stats import Summary

CHUNK = 200
"""Games per task at most: small enough for a smooth progress bar and an even spread."""


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)


def chunks(games: int, workers: int) -> list[tuple[int, int]]:
    """(first, count) of each task of one setup's games."""
    size = max(1, min(CHUNK, -(-games // (workers * 4))))
    return [(first, min(size, games - first)) for first in range(0, games, size)]


def _task(args: tuple[int, SimSetup, Policy, int, int, int]) -> tuple[int, int, Summary]:
    index, setup, policy, seed, first, count = args
    return index, count, run_chunk(setup, policy, seed, first, count)


def simulate(
    setups: Sequence[SimSetup],
    policy: Policy,
    *,
    games: int,
    seed: int,
    workers: int,
    advance: Callable[[int], None] | None = None,
) -> list[Summary]:
    """One summary per setup, of `games` games each; `advance(n)` as n more games finish."""
    tasks = [
        (i, setup, policy, seed, first, count)
        for i, setup in enumerate(setups)
        for first, count in chunks(games, workers)
    ]
    summaries = [Summary() for _ in setups]
    if workers <= 1:
        for task in tasks:
            index, count, part = _task(task)
            summaries[index].merge(part)
            if advance is not None:
                advance(count)
        return summaries
    with _pool(min(workers, len(tasks))) as pool:
        for index, count, part in pool.imap_unordered(_task, tasks):
            summaries[index].merge(part)
            if advance is not None:
                advance(count)
    return summaries


def _pool(workers: int) -> Any:
    # fork where there is one: the workers start with the rules already imported.
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    return context.Pool(workers)
