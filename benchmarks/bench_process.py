"""Whole processes: `forumgm tally` on the real game, the yakuza demo, and the test suite."""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_common import Row
from synthetic import FIXTURES, ROOT

FORUMGM = Path(sys.executable).parent / "forumgm"
PLAYERS_17378 = {
    "players": [
        *("lobstermania", "RaudhrGarm", "SleepyKrew", "Spadille", "don_johnson"),
        *("Midnight's Sorrow", "pappums rat", "My Milked Eek", "Internet Stranger"),
    ],
    "replacements": {"SleepyKrew": "kondi2424", "pappums rat": "redtail896"},
}


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
PACKAGES = ("forums", "scraper", "engine", "rulesets")


def _compiled() -> None:
    """As an installed package runs: its modules compiled once, not on every start (an
    environment that says not to write bytecode would make each run compile them all)."""
    args = [sys.executable, "-m", "compileall", "-q", *PACKAGES]
    subprocess.run(args, check=True, capture_output=True, cwd=ROOT, env=ENV)


def _process(args: list[str], repeat: int) -> tuple[float, float]:
    """Median wall and CPU (user + system) seconds of running `args` as a process."""
    walls, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(args, check=True, capture_output=True, cwd=ROOT, env=ENV)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def rows(quick: bool) -> list[Row]:
    repeat = 3 if quick else 7
    _compiled()
    start_wall, start_cpu = _process([sys.executable, "-c", "pass"], repeat)
    with tempfile.TemporaryDirectory() as work:
        players = Path(work) / "players.json"
        players.write_text(json.dumps(PLAYERS_17378), encoding="utf-8")
        posts = FIXTURES / "real" / "17378.jsonl"
        tally = [str(FORUMGM), "tally", "--posts", str(posts), "--players", str(players)]
        tally_wall, tally_cpu = _process([*tally, "--json"], repeat)
        demo = [str(FORUMGM), "demo", "--ruleset", "yakuza", "--seed", "1", "--quiet"]
        database = ["--database", f"{work}/demo.sqlite"]
        demo_wall, demo_cpu = _process([*demo, *database], 1 if quick else 3)
    baseline = f"the interpreter starting: {start_cpu:.2f} s CPU ({start_wall:.2f} s wall)"
    load = os.getloadavg()[0]
    note = f"judged on the process's CPU time: the machine is shared (load {load:.1f})"
    return [
        Row(
            "`forumgm tally` on a 425-post real game, whole process",
            f"{tally_cpu:.2f} s CPU ({tally_wall:.2f} s wall)",
            "≤ 0.6 s",
            tally_cpu <= 0.6,
            baseline,
            note,
            {"cpu": tally_cpu, "wall": tally_wall, "start_cpu": start_cpu},
        ),
        Row(
            "`forumgm demo --ruleset yakuza --seed 1 --quiet`",
            f"{demo_cpu:.2f} s CPU ({demo_wall:.2f} s wall)",
            "≤ 5 s",
            demo_cpu <= 5,
            baseline,
            note,
            {"cpu": demo_cpu, "wall": demo_wall},
        ),
    ]


def suite_rows(quick: bool) -> list[Row]:
    cache = ROOT / ".pytest_cache" / "v" / "forumgm" / "suite"
    if not cache.exists():
        return [
            Row(
                "test suite",
                "not measured: no whole passing run recorded",
                "under 2 minutes",
                None,
                note="`.venv/bin/python -m pytest -n 2` records its duration (tests/conftest.py)",
            )
        ]
    last = json.loads(cache.read_text(encoding="utf-8"))
    return [
        Row(
            "test suite",
            f"{last['wall']:.0f} s wall, {last['cpu']:.0f} s CPU (pytest and its workers), "
            f"{last['tests']} tests",
            "under 2 minutes",
            last["wall"] <= 120,
            "—",
            f"the last whole passing run ({last['at']}), as tests/conftest.py recorded it; "
            "not run by the benchmark itself",
            last,
        )
    ]
