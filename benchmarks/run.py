"""The speed and memory benchmarks of issue 12: `python benchmarks/run.py [--quick]`.

Prints one table (what, figure, target, pass/fail, the baseline measured in the same run)
and writes benchmarks/results.json. `--quick` (under a minute) runs fewer repeats, the same
sizes (the big thread has 10,000 posts in both); the full run takes a few minutes. `--only WORD` runs the rows whose group name contains WORD (pages, service,
requests, engine-polls, process, parsing, rulesets, simulation, suite, scale). The scale rows (issue 31: many
games in one `forumgm run` against fake boards on 127.0.0.1) run 200 games in `--quick`,
and 1,000 too in the full run; they take minutes.

PostgreSQL rows run when FORUMGM_TEST_DATABASE_URL names a server (as the tests do).
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from bench_common import Row  # noqa: E402

RESULTS = HERE / "results.json"


def _groups() -> dict[str, Callable[[bool], list[Row]]]:
    import bench_engine_polls
    import bench_pages
    import bench_process
    import bench_requests
    import bench_rulesets
    import bench_scale
    import bench_service
    import bench_sim

    return {
        "pages": bench_pages.rows,
        "service": bench_service.rows,
        "requests": bench_requests.rows,
        "engine-polls": bench_engine_polls.rows,
        "process": bench_process.rows,
        "parsing": bench_rulesets.parsing_rows,
        "rulesets": bench_rulesets.resolution_rows,
        "simulation": bench_sim.rows,
        "suite": bench_process.suite_rows,
        "scale": bench_scale.rows,
    }


def _verdict(row: Row) -> str:
    return "n/a" if row.passed is None else ("pass" if row.passed else "FAIL")


def print_table(rows: list[Row]) -> None:
    width = max(len(r.what) for r in rows)
    print(f"{'what':<{width}}  {'result':<4}  figure  [target]  (baseline)")
    print("-" * (width + 60))
    for row in rows:
        print(f"{row.what:<{width}}  {_verdict(row):<4}  {row.figure}  [{row.target}]")
        if row.baseline != "—":
            print(f"{'':<{width}}        baseline: {row.baseline}")
        if row.note:
            print(f"{'':<{width}}        {row.note}")


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    only = argv[argv.index("--only") + 1] if "--only" in argv else None
    started = time.perf_counter()
    rows: list[Row] = []
    for name, group in _groups().items():
        if only is not None and only not in name:
            continue
        began = time.perf_counter()
        try:
            rows.extend(group(quick))
        except Exception as exc:  # a broken group is a failing row, not a lost table
            rows.append(Row(f"[{name}]", f"error: {type(exc).__name__}: {exc}", "-", False))
        print(f"  {name}: {time.perf_counter() - began:.1f} s", file=sys.stderr)
    took = time.perf_counter() - started
    print_table(rows)
    failed = [r for r in rows if r.passed is False]
    print(
        f"\n{len(rows)} rows, {len(failed)} failing; {took:.0f} s ({'quick' if quick else 'full'})"
    )
    RESULTS.write_text(
        json.dumps(
            {
                "mode": "quick" if quick else "full",
                "seconds": round(took, 1),
                "machine": {
                    "cpus": os.cpu_count(),
                    "load": os.getloadavg(),
                    "python": platform.python_version(),
                },
                "rows": [r.as_dict() for r in rows],
            },
            ensure_ascii=False,
            indent=2,
        )
        + "\n",
        encoding="utf-8",
    )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
