"""Issue 30: simulated games per second (`forumgm simulate`), per core and on every core.

The figure is classic games of docs/examples/classic.toml (9 players: 2 mafiosi, a commissar,
a doctor, 5 citizens) with the default smart players, in one process, per second of that
process's CPU time: what one core plays (another process's load still slows it through the shared
caches and the core's other hardware thread: the row notes the load average). The baseline,
measured in the same run and in turns with it, is the same games with the state copied by
`copy.deepcopy` (no resolution in place) and the random stream restored and read back on
every phase, as the engine did before issue 30 (the smaller savings in classic's steps and intake stay in both).
"""

from __future__ import annotations

import copy
import os
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench_common import Row, cpu_side_by_side

import rulesets
from engine.app.game_file import load_game
from engine.core import rng as rngmod
from engine.core.model import GameState
from engine.session import GameSession, PhaseLog
from engine.sim.play import Table
from engine.sim.policy import Policy
from engine.sim.run import default_workers, simulate
from engine.sim.setup import from_config

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "classic.toml"
TARGET = 2000.0
"""Games per second per core (issue 30)."""


@contextmanager
def _engine_before() -> Iterator[None]:
    """The state copy and the random stream as they were before issue 30."""

    def restore(state: rngmod.RngState) -> random.Random:
        rng = random.Random()
        version, internal, gauss = state
        rng.setstate((version, tuple(internal), gauss))
        return rng

    def snapshot(rng: random.Random) -> rngmod.RngState:
        version, internal, gauss = rng.getstate()
        return [version, list(internal), gauss]

    def resolve(self: GameSession, *, in_place: bool = False) -> PhaseLog:
        return plain_resolve(self)  # every phase on a copy of the state, as before

    saved = GameState.copy, rngmod.restore, rngmod.snapshot
    plain_resolve = GameSession.resolve
    GameState.copy = lambda self: copy.deepcopy(self)  # type: ignore[method-assign]
    rngmod.restore, rngmod.snapshot = restore, snapshot
    GameSession.resolve = resolve  # type: ignore[method-assign]
    try:
        yield
    finally:
        GameState.copy, rngmod.restore, rngmod.snapshot = saved  # type: ignore[method-assign]
        GameSession.resolve = plain_resolve  # type: ignore[method-assign]


def rows(quick: bool) -> list[Row]:
    rulesets.load_all()
    setup = from_config(load_game(EXAMPLE))
    games = 300 if quick else 1000
    table = Table(setup, Policy())
    table.run(7, 0, 50)  # imports and caches warm, as in a worker after its first chunk
    first = [0]

    def now() -> None:
        table.run(1, first[0], games)

    def before() -> None:
        with _engine_before():
            table.run(1, first[0], games)

    timed: dict[str, Callable[[], Any]] = {"now": now, "before": before}
    best = cpu_side_by_side(timed, 3 if quick else 5)
    rate, old = games / best["now"], games / best["before"]
    out = [
        Row(
            "simulated classic games per second, one core (forumgm simulate)",
            f"{rate:.0f} games/s = {rate / TARGET:.2f}× the goal ({games} games of "
            f"docs/examples/classic.toml, smart players, {1000 * best['now'] / games:.2f} ms "
            "CPU a game)",
            "≥ 2,000 games/s per core",
            rate >= TARGET,
            f"the state copy and random stream as before issue 30 (deepcopy, the stream "
            f"reloaded every phase): {old:.0f} games/s ({rate / old:.1f}× slower)",
            f"CPU time of one process; load average {os.getloadavg()[0]:.1f} on "
            f"{os.cpu_count()} cores while it ran; the same games both ways",
            {"games_per_second": rate, "baseline_games_per_second": old, "games": games},
        )
    ]
    workers = default_workers()
    total = 2000 if quick else 10_000
    started = time.perf_counter()
    [summary] = simulate([setup], Policy(), games=total, seed=1, workers=workers)
    wall = time.perf_counter() - started
    out.append(
        Row(
            f"forumgm simulate classic.toml --games {total:,} on {workers} worker(s)",
            f"{wall:.1f} s wall ({total / wall:.0f} games/s); town wins "
            f"{100 * summary.win_rate('town')[0]:.1f}%",
            "(measured)",
            None,
            "—",
            "wall time on the shared machine, process start-up included",
            {"seconds": wall, "games": total, "workers": workers},
        )
    )
    return out
