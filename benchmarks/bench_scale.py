"""Many games in one `forumgm run` (issue 31): memory, open files, start-up, idle CPU,
requests per poll, a shared deadline and a takeover after `kill -9`.

The boards are fake phpBB 3.3 boards on 127.0.0.1 (`scale_boards.py`, served over HTTP by
a process of their own: what `run` meets is sockets, not mocks), 5 of them, each game in a
topic of its own of 30 posts (the real game's, one page). The games are `votecount` games
already running — started and their start on the board, as a process restarted finds
them — in one SQLite store; the process measured is the real `forumgm run` with every game
file on its command line.

- start-up: from the process's start until every game has done its first step (a line
  "game N: …" on its output), wall time and the process's CPU by then;
- memory: the process's RSS once all are driven (and its peak), per game over a process
  with one game; open files: the process's file descriptors then;
- idle CPU per minute: the process's CPU over a stretch with nothing due (the next poll of
  every game is a quarter of an hour away), per minute;
- requests per poll: the boards' requests in the first wave, per game;
- shared deadline: N games whose deadline is the same moment; from the deadline until every
  game's results are drafted (the phase resolved), read from the store;
- takeover: two processes on one store; the one holding games is killed with SIGKILL; from
  then until the other has driven every one of its games.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.request import urlopen

from bench_common import Row
from synthetic import PLAYERS, ROOT

HERE = Path(__file__).resolve().parent
FORUMGM = Path(sys.executable).parent / "forumgm"
BOARDS = 5
POSTS = 30
PASSWORD_ENV = "FORUMGM_BENCH_GM"
TICK = os.sysconf("SC_CLK_TCK")
STEP = re.compile(r"\bgame (\d+)(?: \([^)]*\))?: ")

GAME = """\
[game]
ruleset = "votecount"
title = "Scale {n}"
language = "en"
review = "auto"
receipts = false
opening_post = false

[board]
engine = "phpbb"
url = "{url}"
allow_insecure_http = true
thread = "{thread}"
gm_user = "Ведущий"
password = "env:{env}"

[schedule]
timezone = "Europe/Moscow"
deadlines = ["{deadline}", "{later}"]
start = "{start}"

[players]
players = [{players}]
replacements = {{ "SleepyKrew" = "kondi2424", "pappums rat" = "redtail896" }}
"""


def _env() -> dict[str, str]:
    return {**os.environ, PASSWORD_ENV: "bench-password", "PYTHONUNBUFFERED": "1"}


class Boards:
    """The fake boards' process."""

    def __init__(self, topics: int) -> None:
        args = [sys.executable, str(HERE / "scale_boards.py"), str(BOARDS), str(topics), str(POSTS)]
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, text=True, cwd=ROOT)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the fake boards did not start")
        self.boards: list[dict[str, Any]] = json.loads(line)["boards"]

    def places(self, count: int) -> list[tuple[str, str]]:
        """(board URL, topic) for `count` games, spread over the boards in turn."""
        out = []
        for n in range(count):
            board = self.boards[n % BOARDS]
            out.append((board["url"], board["topics"][n // BOARDS]))
        return out

    def requests(self) -> dict[str, int]:
        total: dict[str, int] = {}
        for board in self.boards:
            with urlopen(f"{board['url']}__stats", timeout=30) as answer:
                for kind, count in json.loads(answer.read()).items():
                    total[kind] = total.get(kind, 0) + count
        return total

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()


def write_games(folder: Path, places: list[tuple[str, str]], deadline: datetime) -> list[Path]:
    now = datetime.now(UTC)
    players = ", ".join(f'"{p}"' for p in PLAYERS)
    paths = []
    for n, (url, thread) in enumerate(places, start=1):
        path = folder / f"game{n:04d}.toml"
        path.write_text(
            GAME.format(
                n=n,
                url=url,
                thread=thread,
                env=PASSWORD_ENV,
                deadline=deadline.isoformat(timespec="seconds"),
                later=(deadline + timedelta(days=1)).isoformat(timespec="seconds"),
                start=(now - timedelta(hours=1)).isoformat(timespec="seconds"),
                players=players,
            ),
            encoding="utf-8",
        )
        paths.append(path)
    return paths


def start_games(paths: list[Path], db: str) -> None:
    """Start every game in the store (roles dealt) with its start on the board already: the
    games a restarted process finds."""
    code = (
        "import sys, os\n"
        "from pathlib import Path\n"
        "sys.path.insert(0, 'benchmarks')\n"
        "from fakeboard import MemoryBoard\n"
        "from engine.app.game_file import load_game\n"
        "from engine.service.driver import GameDriver\n"
        "from engine.store import open_store\n"
        "from engine.clock import utc_now\n"
        "store = open_store(sys.argv[1])\n"
        "for p in sys.argv[2:]:\n"
        "    c = load_game(Path(p))\n"
        "    GameDriver(store, MemoryBoard(c.gm_user, utc_now), c, clock=utc_now).start()\n"
    )
    subprocess.run(
        [sys.executable, "-c", code, db, *map(str, paths)], check=True, cwd=ROOT, env=_env()
    )
    with sqlite3.connect(db.removeprefix("sqlite:///")) as conn:
        conn.execute(
            "UPDATE outbox SET status = 'posted', board_id = 'bench', posted_at = ?, "
            "attempts = 1 WHERE phase_id IS NULL",
            (datetime.now(UTC).isoformat(),),
        )


@dataclass
class Run:
    """One `forumgm run` process and what its output said, when."""

    paths: list[Path]
    db: str
    proc: subprocess.Popen[str] = field(init=False)
    began: float = field(init=False)
    first_step: dict[int, float] = field(default_factory=dict)
    steps: list[tuple[float, int, str]] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        args = [str(FORUMGM), "run", "--db", self.db, *map(str, self.paths)]
        if os.environ.get("BENCH_PROFILE"):  # a cProfile of the process, for a developer
            args = [sys.executable, "-m", "cProfile", "-o", os.environ["BENCH_PROFILE"], *args]
        self.began = time.monotonic()
        self.proc = subprocess.Popen(
            args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT, env=_env()
        )
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            found = STEP.search(line)
            if found is None:
                continue
            at, game = time.monotonic(), int(found.group(1))
            self.first_step.setdefault(game, at)
            self.steps.append((at, game, line.strip()))
            if "step failed" in line:
                self.failed.append(line.strip())

    def wait_driven(self, count: int, limit: float) -> float | None:
        """Seconds from the start until `count` games have done a step (None: not by `limit`)."""
        end = self.began + limit
        while time.monotonic() < end and self.proc.poll() is None:
            if len(self.first_step) >= count:
                return max(self.first_step.values()) - self.began
            time.sleep(0.1)
        return None

    def cpu(self) -> float:
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK

    def memory(self) -> tuple[float, float]:
        """RSS and its peak, MB."""
        found = {}
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                found[key] = int(value.split()[0]) / 1024
        return found["VmRSS"], found["VmHWM"]

    def fds(self) -> int:
        return len(os.listdir(f"/proc/{self.proc.pid}/fd"))

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def _phases_resolved(db: str, ids: list[int]) -> dict[int, bool]:
    with sqlite3.connect(f"file:{db.removeprefix('sqlite:///')}?mode=ro", uri=True) as conn:
        rows = conn.execute(
            "SELECT game_id, status FROM phases WHERE phase = 'day 1' AND game_id IN "
            f"({','.join('?' * len(ids))})",
            ids,
        ).fetchall()
    return {g: s in ("resolved", "published") for g, s in rows}


@dataclass
class Measured:
    games: int
    first: float | None
    """Seconds from the start until the first game's first step (the files read, the
    drivers made)."""
    driven: float | None
    start_cpu: float
    rss: float
    peak: float
    fds: int
    idle_cpu_per_min: float
    requests: dict[str, int]
    failed: list[str]


def measure_many(count: int, idle: float) -> Measured:
    """`count` games in one process: start-up, memory, files, idle CPU, requests."""
    topics = -(-count // BOARDS)
    boards = Boards(topics)
    try:
        with tempfile.TemporaryDirectory() as work:
            folder = Path(work)
            db = f"sqlite:///{folder / 'store.sqlite'}"
            deadline = datetime.now(UTC) + timedelta(hours=3)
            paths = write_games(folder, boards.places(count), deadline)
            start_games(paths, db)
            before = boards.requests()
            run = Run(paths, db)
            try:
                driven = run.wait_driven(count, limit=600)
                start_cpu = run.cpu()
                after = boards.requests()
                rss, peak = run.memory()
                fds = run.fds()
                cpu0 = run.cpu()
                time.sleep(idle)
                idle_cpu = (run.cpu() - cpu0) * 60 / idle
            finally:
                run.stop()
            wave = {k: after.get(k, 0) - before.get(k, 0) for k in after}
            first = min(run.first_step.values(), default=None)
            began = None if first is None else first - run.began
            return Measured(
                count, began, driven, start_cpu, rss, peak, fds, idle_cpu, wave, run.failed
            )
    finally:
        boards.close()


def shared_deadline(count: int, lead: float) -> tuple[float | None, int, list[str]]:
    """`count` games with one deadline `lead` seconds after the process starts: seconds from
    the deadline until the last game's results are drafted; how many were."""
    boards = Boards(-(-count // BOARDS))
    try:
        with tempfile.TemporaryDirectory() as work:
            folder = Path(work)
            db = f"sqlite:///{folder / 'store.sqlite'}"
            # A placeholder deadline for the start; the files are written again below.
            deadline = datetime.now(UTC) + timedelta(hours=3)
            places = boards.places(count)
            paths = write_games(folder, places, deadline)
            start_games(paths, db)
            deadline = (datetime.now(UTC) + timedelta(seconds=lead)).replace(microsecond=0)
            write_games(folder, places, deadline)
            with sqlite3.connect(db.removeprefix("sqlite:///")) as conn:
                conn.execute("UPDATE phases SET deadline = ?", (deadline.isoformat(),))
                ids = [g for (g,) in conn.execute("SELECT id FROM games ORDER BY id")]
            run = Run(paths, db)
            try:
                while datetime.now(UTC) < deadline:
                    time.sleep(0.2)
                end = time.monotonic() + 240
                done: dict[int, bool] = {}
                while time.monotonic() < end:
                    done = _phases_resolved(db, ids)
                    if sum(done.values()) == count:
                        return (datetime.now(UTC) - deadline).total_seconds(), count, run.failed
                    time.sleep(0.25)
                return None, sum(done.values()), run.failed
            finally:
                run.stop()
    finally:
        boards.close()


def takeover(count: int) -> tuple[float | None, int, str]:
    """Two processes on one store; the one holding games is killed: seconds until the other
    has driven every one of them; how many it took."""
    boards = Boards(-(-count // BOARDS))
    try:
        with tempfile.TemporaryDirectory() as work:
            folder = Path(work)
            db = f"sqlite:///{folder / 'store.sqlite'}"
            paths = write_games(
                folder, boards.places(count), datetime.now(UTC) + timedelta(hours=3)
            )
            start_games(paths, db)
            first = Run(paths, db)
            first.wait_driven(count, limit=120)
            second = Run(paths, db)
            try:
                second.wait_driven(count, limit=120)  # every game: driven, or held by the first
                with sqlite3.connect(db.removeprefix("sqlite:///")) as conn:
                    owners = dict(conn.execute("SELECT game_id, owner FROM game_leases"))
                held = [g for g, o in owners.items() if o.endswith(f":{first.proc.pid}")]
                killed = time.monotonic()
                first.stop(signal.SIGKILL)
                end = killed + 180
                while time.monotonic() < end:
                    took = {
                        g for at, g, line in second.steps if at > killed and "another" not in line
                    }
                    if took >= set(held):
                        return time.monotonic() - killed, len(held), "ok"
                    time.sleep(0.2)
                return None, len(held), "not all taken over"
            finally:
                first.stop(signal.SIGKILL)
                second.stop()
    finally:
        boards.close()


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.1f}/{five:.1f} on {os.cpu_count()} CPUs"


def rows(quick: bool) -> list[Row]:
    out: list[Row] = []
    sizes = [1, 200] if quick else [1, 200, 1000]
    idle = 20.0 if quick else 60.0
    results = {n: measure_many(n, idle) for n in sizes}
    base = results[1]
    for n in sizes[1:]:
        r = results[n]
        per_game = (r.rss - base.rss) / (n - 1)
        per_poll = {k: v for k, v in r.requests.items() if v}
        total = sum(r.requests.values())
        note = (
            f"{_load()}; first step after {r.first or 0:.1f} s; {len(r.failed)} failed step(s)"
            + (f": {r.failed[0]}" if r.failed else "")
        )
        values = {
            "games": n,
            "first_step_s": r.first,
            "driven_s": r.driven,
            "start_cpu_s": r.start_cpu,
            "rss_mb": r.rss,
            "peak_mb": r.peak,
            "rss_one_game_mb": base.rss,
            "mb_per_game": per_game,
            "fds": r.fds,
            "idle_cpu_s_per_min": r.idle_cpu_per_min,
            "requests_first_wave": per_poll,
        }
        out += [
            Row(
                f"scale {n}: all games driven after start",
                "not all" if r.driven is None else f"{r.driven:.1f} s ({r.start_cpu:.1f} s CPU)",
                "< 60 s",
                r.driven is not None and r.driven < 60 and not r.failed,
                note=note,
                values=values,
            ),
            Row(
                f"scale {n}: memory",
                f"RSS {r.rss:.0f} MB (peak {r.peak:.0f}); {per_game:.2f} MB per game over "
                f"one game's {base.rss:.0f} MB",
                "< 1 GB; < 0.5 MB per game",
                r.peak < 1024 and per_game < 0.5,
            ),
            Row(f"scale {n}: open files", str(r.fds), "< 200", r.fds < 200),
            Row(
                f"scale {n}: idle CPU per minute",
                f"{r.idle_cpu_per_min:.2f} s",
                "—",
                None,
                note=f"measured over {idle:.0f} s with nothing due",
            ),
            Row(
                f"scale {n}: requests in the first poll wave",
                f"{total / n:.2f} per game ({', '.join(f'{k} {v}' for k, v in per_poll.items())})",
                "one topic page per game; per board one login (form and POST), the inbox "
                "read at most twice",
                r.requests.get("topic page", 0) == n
                and r.requests.get("login", 0) <= 2 * BOARDS
                and r.requests.get("inbox", 0) <= 2 * BOARDS,
            ),
        ]
    count = 100
    latency, drafted, failed = shared_deadline(count, lead=45.0)
    out.append(
        Row(
            f"shared deadline: {count} games, results drafted",
            f"{drafted}/{count}" + ("" if latency is None else f" within {latency:.1f} s"),
            "all within 60 s",
            latency is not None and latency < 60,
            note=f"{_load()}; {len(failed)} failed step(s)",
        )
    )
    took, held, said = takeover(20)
    out.append(
        Row(
            "takeover after kill -9 (20 games, two processes)",
            said if took is None else f"{held} game(s) taken over in {took:.1f} s",
            "< 60 s",
            took is not None and took < 60 and held > 0,
            note=_load(),
        )
    )
    return out


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    only = sys.argv[sys.argv.index("--games") + 1] if "--games" in sys.argv else None
    if only:
        m = measure_many(int(only), 20.0)
        print(m)
    else:
        for row in rows(quick):
            print(row.what, "|", row.figure, "|", row.target, "|", row.passed, "|", row.note)
