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


def _timed(run: Callable[[], Any]) -> tuple[float, float]:
    """(wall, CPU) seconds of one run; the CPU time is this process's (SQLite works in it)."""
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return time.perf_counter() - wall, time.process_time() - cpu


def _median(runs: list[tuple[float, float]], out: dict[str, Any], key: str) -> None:
    out[key] = statistics.median(w for w, _ in runs)
    out[f"{key}_cpu"] = statistics.median(c for _, c in runs)


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

    def poll(self, new: int) -> tuple[tuple[float, float], int]:
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
    _median([_timed(lambda: bench.step(bench.now()))], out, "first_sync")
    out["first_sync_parsed"] = bench.driver.reader.stats.parsed - parsed_before
    out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    repeats = 3 if quick else 7
    one = [bench.poll(1) for _ in range(repeats)]
    _median([t for t, _ in one], out, "poll_1")
    out["poll_1_statements"] = statistics.median(n for _, n in one)
    ten = [bench.poll(10) for _ in range(max(2, repeats // 2))]
    _median([t for t, _ in ten], out, "poll_10")
    out["poll_10_statements"] = statistics.median(n for _, n in ten)
    _median([bench.poll(0)[0] for _ in range(repeats)], out, "poll_idle")
    ph = bench.phase()

    def full_replay() -> None:
        bench.driver.reader.forget()
        bench.driver.replay(ph, bench.now())

    _median([_timed(full_replay) for _ in range(2)], out, "poll_full_replay")

    # The deadline: the freeze reads the whole phase again, then the resolve.
    bench.clock.set(bench.deadline + timedelta(minutes=1))
    now = bench.clock()
    _median([_timed(lambda: asyncio.run(bench.driver.freeze(ph, now)))], out, "freeze")
    sample = bench.board.posts[-(200 if quick else 500) :]
    wall, cpu = _timed(
        lambda: [
            record_unchanged_one_by_one(bench.store, bench.driver.game_id, p, now) for p in sample
        ]
    )
    scale = len(bench.board.posts) / len(sample)
    out["freeze_baseline"], out["freeze_baseline_cpu"] = wall * scale, cpu * scale
    out["baseline_sample"] = len(sample)
    ph = bench.phase()
    _median([_timed(lambda: bench.driver.resolve(ph))], out, "resolve")

    # A restarted process with the stored parse cache, and one without (every post parsed
    # again: the old cost).
    restarted = GameDriver(bench.store, bench.board, bench.driver.config, clock=bench.clock)
    _median([_timed(lambda: restarted.replay(ph, ph.deadline))], out, "resolve_restarted")
    if not quick:
        with bench.store.engine.begin() as conn:
            conn.execute(delete(ParseCacheRow))
        cold = GameDriver(bench.store, bench.board, bench.driver.config, clock=bench.clock)
        _median([_timed(lambda: cold.replay(ph, ph.deadline))], out, "resolve_cold_replay")
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

    posts = 10_000
    size = f"{posts:,} posts"
    stores: list[tuple[str, dict[str, Any]]] = []
    with tempfile.TemporaryDirectory() as work:
        stores.append(("SQLite", _run(f"sqlite:///{work}/bench.sqlite", posts, quick)))
    base = os.environ.get("FORUMGM_TEST_DATABASE_URL")
    if base:
        stores.append(("PostgreSQL", _postgres(base, posts, quick)))

    def judged(name: str, r: dict[str, Any], key: str) -> float:
        # SQLite works inside this process: its CPU time is the cost, whatever the load.
        # PostgreSQL works in the server's processes: only the wall time tells.
        return float(r[f"{key}_cpu"] if name == "SQLite" else r[key])

    def figure(name: str, r: dict[str, Any], key: str) -> str:
        if name == "SQLite":
            return f"{ms(r[f'{key}_cpu'])} CPU ({ms(r[key])} wall)"
        return f"{ms(r[key])} wall"

    how = {
        "SQLite": "judged on CPU time (SQLite runs in the process; the machine is shared)",
        "PostgreSQL": "judged on wall time (the server does part of the work)",
    }
    out = []
    for name, r in stores:
        poll = judged(name, r, "poll_1")
        full = judged(name, r, "poll_full_replay")
        out.append(
            Row(
                f"a poll with 1 new post, {size} in the thread ({name})",
                f"{figure(name, r, 'poll_1')}, {r['poll_1_statements']:.0f} statements; "
                f"10 new posts {figure(name, r, 'poll_10')}, "
                f"{r['poll_10_statements']:.0f} statements; idle {figure(name, r, 'poll_idle')}",
                "≤ 50 ms, growing with the new posts only",
                poll <= 0.05,
                f"the same poll replaying the whole phase (parse cache warm): {ms(full)} "
                f"({full / poll:.0f}×)",
                how[name],
                r,
            )
        )
    for name, r in stores:
        freeze, before = judged(name, r, "freeze"), judged(name, r, "freeze_baseline")
        out.append(
            Row(
                f"deadline freeze with {size} ({name})",
                figure(name, r, "freeze"),
                "≤ 2 s",
                freeze <= 2,
                f"one commit per post as before: {ms(before)} ({before / freeze:.0f}×; "
                f"{r['baseline_sample']} posts timed, scaled to the thread)",
                f"every post of the phase read and recorded again (in-memory board); {how[name]}",
                r,
            )
        )
    for name, r in stores:
        resolve = judged(name, r, "resolve")
        restarted = judged(name, r, "resolve_restarted")
        cold = (
            f"; with no parse cache {ms(judged(name, r, 'resolve_cold_replay'))} (every post "
            "parsed again, the old cost)"
            if "resolve_cold_replay" in r
            else ""
        )
        out.append(
            Row(
                f"deadline resolve with {size} ({name})",
                figure(name, r, "resolve"),
                "≤ 2 s",
                resolve <= 2,
                f"the replay of a restarted process reading the stored parse cache: "
                f"{ms(restarted)}{cold}",
                how[name],
                r,
            )
        )
    sqlite = stores[0][1]
    out.append(
        Row(
            f"peak RSS syncing a {size} thread",
            f"{sqlite['peak_rss_mb']:.0f} MB (first sync {figure('SQLite', sqlite, 'first_sync')},"
            f" {sqlite['first_sync_parsed']} posts parsed)",
            "< 200 MB",
            sqlite["peak_rss_mb"] < 200,
            "—",
            "the whole process (SQLite store, the in-memory board holding the thread), "
            "ru_maxrss after the first sync",
            sqlite,
        )
    )
    return out
