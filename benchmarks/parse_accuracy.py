"""Parse accuracy on the labelled corpus: `.venv/bin/python benchmarks/parse_accuracy.py [-v]`.

Prints, per ruleset and overall: posts, correct, wrong (differs from the label and nothing
warned), warned (differs, or warned where the label did not, and the host is told), and the
warned share among posts with an unambiguous reading (labels that expect no warning).
Targets (issue 4): wrong = 0, warned ≤ 5% of the unambiguous posts. `-v` lists every miss.
Exit status 1 when a target is missed.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.corpus import run


def main(argv: list[str]) -> int:
    tallies, outcomes = run()
    print(
        f"{'ruleset':<10} {'posts':>6} {'correct':>8} {'wrong':>6} {'warned':>7} "
        f"{'unambiguous':>12} {'warned/unamb.':>14}"
    )
    for key in sorted(tallies, key=lambda k: (k == "all", k)):
        t = tallies[key]
        print(
            f"{key:<10} {t.posts:>6} {t.correct:>8} {t.wrong:>6} {t.warned:>7} "
            f"{t.unambiguous:>12} {t.warned_share:>13.1%}"
        )
    misses = [o for o in outcomes if o.verdict != "correct"]
    if "-v" in argv:
        for o in misses:
            print(f"\n[{o.verdict}] {o.item.id} ({o.item.cls}) {o.item.sender}: {o.item.text!r}")
            print(f"  expected: {o.item.orders} {o.item.warnings}")
            print(f"  read:     {o.orders} {o.warnings}")
    total = tallies["all"]
    return 0 if total.wrong == 0 and total.warned_share <= 0.05 else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
