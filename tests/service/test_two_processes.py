"""Two `forumgm run` processes on one PostgreSQL store share three games.

Each game is driven by one process at a time (its lease); when the process holding games
is killed with SIGKILL, the other takes them over at once — its lease would hold for ten
minutes more, but its process is gone from this machine — and finishes them. The board
shows every step done exactly once: no marker twice.

Robust on a loaded machine: the children start (imports, the store) before the games'
deadlines are set, the gap between the two deadlines grows with the load, and every wait
is a generous cap, never a timing assertion.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from engine.config import load_config
from engine.publish import Markers, find_markers
from engine.service.driver import GameDriver
from engine.store import Store, open_store
from engine.store.models import OutboxStatus, PhaseStatus
from forums.local import LocalBoard

PG_ENV = "FORUMGM_TEST_DATABASE_URL"
CHILD = Path(__file__).with_name("run_child.py")
GM, GM_PASSWORD = "Ведущий", "gm-two-processes"
NAMES = ["Вася", "Петя", "Маша", "Коля", "Оля"]
GAMES = 3

GAME = """\
[game]
ruleset = "votecount"
title = "Игра {n}"
review = "auto"
receipts = false

[board]
engine = "local"
url = "{board}"
thread = "{thread}"
gm_user = "Ведущий"
password = "env:FORUMGM_TWO_GM"

[schedule]
timezone = "Europe/Moscow"
deadlines = ["{d1}", "{d2}"]
start = "{start}"

[players]
players = ["Вася", "Петя", "Маша", "Коля", "Оля"]
"""


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A schema of its own on the test PostgreSQL, dropped afterwards."""
    base = os.environ.get(PG_ENV)
    if not base:
        pytest.skip(f"two processes share a PostgreSQL store: set {PG_ENV} to run this")
    schema = f"forumgm_two_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = make_url(base).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        admin.dispose()


def _wait(what: str, done: Callable[[], bool], *, limit: float = 240.0) -> None:
    """Wait for a condition (a generous cap, not a timing assertion)."""
    end = time.monotonic() + limit
    while not done():
        if time.monotonic() > end:
            raise AssertionError(f"waited {limit:.0f} s for {what}")
        time.sleep(0.1)


def _published(store: Store, game_id: int, phase: str) -> bool:
    phases = {p.phase: p.status for p in store.phases(game_id)}
    return phases.get(phase) is PhaseStatus.PUBLISHED


def _opened_posted(store: Store, game_id: int, phase: str) -> bool:
    """The phase's opening post is on the board (players' votes after it are the phase's)."""
    marker = Markers(store.get_game(game_id).marker_key, game_id).make(phase, "opened")
    item = store.find_by_marker(marker)
    return item is not None and item.status is OutboxStatus.POSTED


def _load_factor() -> float:
    """How much slower than an idle machine this one may be now (1 to 4)."""
    return min(4.0, max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1)))


def _gm_texts(board: LocalBoard, threads: list[str]) -> list[tuple[str, str]]:
    async def read() -> list[tuple[str, str]]:
        out = []
        for thread in threads:
            posts = (await board.thread_posts(thread)).items
            out += [(thread, p.raw or "") for p in posts if p.author == GM]
        return out

    return asyncio.run(read())


def test_two_processes_share_games_and_take_over_a_killed_ones(pg_url: str, tmp_path: Path) -> None:
    board_url = f"sqlite:///{tmp_path / 'board.sqlite'}"
    board = LocalBoard(board_url, GM, GM_PASSWORD)
    board.create_schema()
    board.add_user(GM, GM_PASSWORD)
    for name in NAMES:
        board.add_user(name, "pw")
    store = open_store(pg_url)
    env = {**os.environ, "FORUMGM_TWO_GM": GM_PASSWORD}
    paths = [tmp_path / f"game{n}.toml" for n in range(1, GAMES + 1)]

    def child(owner: str) -> subprocess.Popen[bytes]:
        args = [sys.executable, str(CHILD), pg_url, owner, "600", *map(str, paths)]
        return subprocess.Popen(args, env=env, cwd=tmp_path)

    first, second = child("A"), child("B")
    try:
        _wait("both processes up", lambda: all((tmp_path / f"{o}.ready").exists() for o in "AB"))
        now = datetime.now(UTC).replace(microsecond=0)
        d1 = now + timedelta(seconds=2 * _load_factor())
        d2 = d1 + timedelta(seconds=5 * _load_factor())
        threads, drivers = [], []
        for n, path in enumerate(paths, start=1):
            thread = board.create_thread(f"Игра {n}", GM)
            path.write_text(
                GAME.format(
                    n=n,
                    board=board_url,
                    thread=thread,
                    d1=d1.isoformat(),
                    d2=d2.isoformat(),
                    start=(now - timedelta(minutes=1)).isoformat(),
                ),
                encoding="utf-8",
            )
            config = load_config(path)
            driver = GameDriver(store, board, config, clock=lambda: datetime.now(UTC))
            assert driver.start()  # roles dealt, the opening queued: the processes publish it
            threads.append(thread)
            drivers.append(driver)
        ids = [d.game_id for d in drivers]
        # Day 1: Петя gets three votes in every game.
        for thread in threads:
            for voter in ("Вася", "Маша", "Коля"):
                board.post_as(voter, thread, "Голосую за Петю")
        (tmp_path / "go").touch()
        _wait(
            "day 1 published and day 2 opened in every game",
            lambda: all(
                _published(store, g, "day 1") and _opened_posted(store, g, "day 2") for g in ids
            ),
        )
        assert datetime.now(UTC) < d2, "day 2 opened after its deadline: the machine is too slow"
        # Day 2: Оля gets two votes in every game.
        for thread in threads:
            for voter in ("Маша", "Вася"):
                board.post_as(voter, thread, "Голосую за Олю")
        # Kill the process that holds games now (SIGKILL: its leases stay, valid for ten
        # minutes more; its process is gone, so the other takes them at once).
        owners = {g: store.lease_owner(g, datetime.now(UTC)) for g in ids}
        victim, survivor = (first, "B") if "A" in owners.values() else (second, "A")
        victim_name = "A" if victim is first else "B"
        orphaned = [g for g, o in owners.items() if o == victim_name]
        assert orphaned, owners
        victim.send_signal(signal.SIGKILL)
        victim.wait(timeout=60)
        _wait(
            "day 2 published in every game", lambda: all(_published(store, g, "day 2") for g in ids)
        )
    finally:
        for proc in (first, second):
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                proc.wait(timeout=60)

    for owner in ("A", "B"):
        log = tmp_path / f"{owner}.steps"
        assert "step failed" not in (log.read_text(encoding="utf-8") if log.exists() else "")
    # The survivor took the orphaned games over and finished them.
    steps = (tmp_path / f"{survivor}.steps").read_text(encoding="utf-8").splitlines()
    driven = Counter(int(line.split("\t")[0]) for line in steps if "another process" not in line)
    assert all(driven[g] > 0 for g in orphaned), (orphaned, driven)
    for g in ids:
        assert store.lease_owner(g, datetime.now(UTC)) in (survivor, None)

    # Every step done once: the opening, two results and day 2's opening per game, no
    # marker twice.
    posted = _gm_texts(board, threads)
    markers = [m for _, raw in posted for m in find_markers(raw)]
    assert len(markers) == len(posted) == GAMES * 4
    assert max(Counter(markers).values()) == 1
    for g, thread in zip(ids, threads, strict=True):
        mine = {m for t, raw in posted if t == thread for m in find_markers(raw)}
        markers_of = Markers(store.get_game(g).marker_key, g)
        assert mine == {
            markers_of.make("opening"),
            markers_of.make("day 1", "results"),
            markers_of.make("day 2", "opened"),
            markers_of.make("day 2", "results"),
        }
        assert all(i.status is OutboxStatus.POSTED for i in store.outbox(g))
        lynched = [
            [e.fields["player"] for e in store.events(g, phase) if e.type == "lynch"]
            for phase in ("day 1", "day 2")
        ]
        assert lynched == [["Петя"], ["Оля"]]
    assert all(GM_PASSWORD not in raw for _, raw in posted)
