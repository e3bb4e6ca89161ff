"""The service on a big thread: first sync, polls, the deadline freeze and resolve.

Run as its own process per store (`python benchmarks/bench_service.py URL POSTS [--quick]`),
so its peak memory is its own; prints one JSON object. The thread is the real game cycled
to POSTS posts (`synthetic.game_posts`) on an in-memory board, all in one day, so every
figure is the service's and the store's own cost.

Baselines, measured in the same process: a poll's is the same poll replaying the whole
phase (the old cost without its parsing: with it, `cold_replay`); the freeze's is the old
one-commit-per-post recording (`baseline_store`) on a sample, scaled to the thread; the
resolve's is a restarted process resolving with no parse cache.
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from baseline_store import record_unchanged_one_by_one
from fakeboard import MemoryBoard
from sqlalchemy import delete, event
from synthetic import GM, T0, game_posts, game_toml

from engine.config import parse_config
from engine.service.driver import GameDriver
from engine.store import open_store
from engine.store.models import ParseCacheRow, PhaseRecord
from forums.local import ManualClock


def _timed(run: Callable[[], Any]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


class Bench:
    def __init__(self, url: str, posts: int) -> None:
        self.clock = ManualClock(T0)
        self.deadline = T0 + timedelta(days=3)
        self.board = MemoryBoard(GM, self.clock)
        config = parse_config(game_toml("local", "sqlite://", [self.deadline]))
        self.store = open_store(url)
        self.driver = GameDriver(self.store, self.board, config, clock=self.clock)
        self.driver.start()
        self.step(T0)  # the opening post
        self.next = 0
        self.total = posts
        self.statements = 0
        event.listen(self.store.engine, "before_cursor_execute", self._count)

    def _count(self, *_args: Any) -> None:
        self.statements += 1

    def step(self, now: Any) -> str:
        self.clock.set(now)
        return asyncio.run(self.driver.step(now))

    def add(self, count: int) -> None:
        for post in game_posts(count, start=self.next):
            self.board.posts.append(replace(post, number=len(self.board.posts) + 1))
        self.next += count

    def now(self) -> Any:
        last = self.board.posts[-1].posted_at
        return max(last, self.clock()) + timedelta(seconds=30)

    def phase(self) -> PhaseRecord:
        ph = self.store.current_phase(self.driver.game_id)
        assert ph is not None
        return ph

    def poll(self, new: int) -> tuple[float, int]:
        self.add(new)
        self.statements = 0
        took = _timed(lambda: self.step(self.now()))
        return took, self.statements


def main(argv: list[str]) -> int:
    url, posts = argv[0], int(argv[1])
    quick = "--quick" in argv
    out: dict[str, Any] = {"posts": posts}
    bench = Bench(url, posts)
    bench.add(posts)
    parsed_before = bench.driver.reader.stats.parsed
    out["first_sync"] = _timed(lambda: bench.step(bench.now()))
    out["first_sync_parsed"] = bench.driver.reader.stats.parsed - parsed_before
    out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    repeats = 3 if quick else 7
    one = [bench.poll(1) for _ in range(repeats)]
    out["poll_1"] = statistics.median(t for t, _ in one)
    out["poll_1_statements"] = statistics.median(s for _, s in one)
    ten = [bench.poll(10) for _ in range(max(2, repeats // 2))]
    out["poll_10"] = statistics.median(t for t, _ in ten)
    out["poll_10_statements"] = statistics.median(s for _, s in ten)
    out["poll_idle"] = statistics.median(bench.poll(0)[0] for _ in range(repeats))
    ph = bench.phase()

    def full_replay() -> None:
        bench.driver.reader.forget()
        bench.driver.replay(ph, bench.now())

    out["poll_full_replay"] = statistics.median(_timed(full_replay) for _ in range(2))

    # The deadline: the freeze reads the whole phase again, then the resolve.
    bench.clock.set(bench.deadline + timedelta(minutes=1))
    now = bench.clock()
    out["freeze"] = _timed(lambda: asyncio.run(bench.driver.freeze(ph, now)))
    sample = bench.board.posts[-500:]
    per_post = _timed(
        lambda: [
            record_unchanged_one_by_one(bench.store, bench.driver.game_id, p, now) for p in sample
        ]
    ) / len(sample)
    out["freeze_baseline"] = per_post * len(bench.board.posts)
    ph = bench.phase()
    out["resolve"] = _timed(lambda: bench.driver.resolve(ph))

    # A restarted process with no parse cache: every post parsed again (the old cost).
    with bench.store.engine.begin() as conn:
        conn.execute(delete(ParseCacheRow))
    fresh = GameDriver(bench.store, bench.board, bench.driver.config, clock=bench.clock)
    out["resolve_cold_replay"] = _timed(lambda: fresh.replay(ph, ph.deadline))
    out["resolve_restarted"] = 0.0
    restarted = GameDriver(bench.store, bench.board, bench.driver.config, clock=bench.clock)
    out["resolve_restarted"] = _timed(lambda: restarted.replay(ph, ph.deadline))
    print(json.dumps(out))
    bench.store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))


# -- the rows (run.py) -----------------------------------------------------------------


def _run(url: str, posts: int, quick: bool) -> dict[str, Any]:
    args = [sys.executable, __file__, url, str(posts), *(["--quick"] if quick else [])]
    done = subprocess.run(args, capture_output=True, text=True, timeout=900, check=False)
    if done.returncode != 0:
        raise RuntimeError(done.stderr.strip().splitlines()[-1] if done.stderr else "failed")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _postgres(base: str, posts: int, quick: bool) -> dict[str, Any]:
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    schema = f"forumgm_bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(base)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = make_url(base).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        return _run(url.render_as_string(hide_password=False), posts, quick)
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        admin.dispose()


def rows(quick: bool) -> list[Any]:
    from bench_common import Row, ms

    posts = 2_000 if quick else 10_000
    size = f"{posts:,} posts"
    stores: list[tuple[str, dict[str, Any]]] = []
    with tempfile.TemporaryDirectory() as work:
        stores.append(("SQLite", _run(f"sqlite:///{work}/bench.sqlite", posts, quick)))
    base = os.environ.get("FORUMGM_TEST_DATABASE_URL")
    if base:
        stores.append(("PostgreSQL", _postgres(base, posts, quick)))
    out = []
    for name, r in stores:
        out.append(
            Row(
                f"a poll with 1 new post, {size} in the thread ({name})",
                f"{ms(r['poll_1'])} ({r['poll_1_statements']:.0f} statements); "
                f"10 new posts {ms(r['poll_10'])} ({r['poll_10_statements']:.0f} statements); "
                f"idle {ms(r['poll_idle'])}",
                "≤ 50 ms, growing with the new posts only",
                r["poll_1"] <= 0.05,
                f"the same poll replaying the whole phase: {ms(r['poll_full_replay'])} "
                f"({r['poll_full_replay'] / r['poll_1']:.0f}×)",
                "wall time, median; statements counted with an SQLAlchemy event hook",
                r,
            )
        )
    for name, r in stores:
        out.append(
            Row(
                f"deadline freeze with {size} ({name})",
                ms(r["freeze"]),
                "≤ 2 s",
                r["freeze"] <= 2,
                f"one commit per post as before: {ms(r['freeze_baseline'])} "
                f"({r['freeze_baseline'] / r['freeze']:.0f}×, 500 posts timed and scaled)",
                "every post of the phase read and recorded again (in-memory board)",
                r,
            )
        )
    for name, r in stores:
        out.append(
            Row(
                f"deadline resolve with {size} ({name})",
                ms(r["resolve"]),
                "≤ 2 s",
                r["resolve"] <= 2,
                f"a restarted process with no parse cache: {ms(r['resolve_cold_replay'])} "
                f"for its replay ({r['resolve_cold_replay'] / r['resolve']:.1f}×)",
                f"a restarted process with the stored parse cache replays in "
                f"{ms(r['resolve_restarted'])}",
                r,
            )
        )
    sqlite = stores[0][1]
    out.append(
        Row(
            f"peak RSS syncing a {size} thread",
            f"{sqlite['peak_rss_mb']:.0f} MB (first sync {ms(sqlite['first_sync'])}, "
            f"{sqlite['first_sync_parsed']} posts parsed)",
            "< 200 MB",
            sqlite["peak_rss_mb"] < 200,
            "—",
            "the whole process (SQLite store), ru_maxrss after the first sync",
            sqlite,
        )
    )
    return out
