"""What every benchmark row shares: the row record and timing by medians of CPU time.

The machine is shared, so a row's figure is the median of several runs and, where a target
is a ratio, its baseline is measured in the same run right beside it. Times are process
CPU time (what our code costs; another process's load does not slow the clock) unless a
row says wall time.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class Row:
    what: str
    figure: str
    target: str
    passed: bool | None
    """None: not judged (informational, or not measurable here: see `note`)."""
    baseline: str = "—"
    note: str = ""
    values: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def cpu(run: Callable[[], Any], repeat: int) -> float:
    """Median process CPU seconds of `repeat` runs."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return statistics.median(times)


def cpu_side_by_side(runs: dict[str, Callable[[], Any]], repeat: int) -> dict[str, float]:
    """The best process CPU seconds of each run, taken in turns (`repeat` rounds of one of
    each), so that a ratio between them is not a ratio between two moments of the machine's
    load. Best, not median: another process can only add time."""
    best = {name: float("inf") for name in runs}
    for _ in range(repeat):
        for name, run in runs.items():
            start = time.process_time()
            run()
            best[name] = min(best[name], time.process_time() - start)
    return best


def wall(run: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"
