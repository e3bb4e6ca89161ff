"""Parse time of crafted posts: `.venv/bin/python benchmarks/parse_time.py`.

The attacks of issue 10 item 2 (and a few more), rendered from BBCode and parsed by the
votecount grammar with no length cap, at 8, 16, 32 and 64 KB: CPU milliseconds (best of
three) and the ratio 64 KB / 8 KB, which is about 8 when the time grows with the length
(before the matcher read each line once, 8 KB of «vote Вася » took 6.9 s and 20 KB 51 s).
Exit status 1 when a ratio passes 16 (super-linear).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core.orders import Channel
from forums.bbcode import parse_bbcode
from rulesets.votecount.grammar import GRAMMAR
from scraper.matcher import parse_post
from scraper.nicknames import NameResolver

ATTACKS = {
    "vote Вася ×n": lambda n: "vote Вася " * (n // 10),
    "голосую за Васю ?×n a": lambda n: "голосую за Васю " + "?" * n + "a",
    "vote Вася .×n": lambda n: "vote Вася" + "." * n,
    "[a= ×n": lambda n: "[a=" * (n // 3),
    "[quote= ×n": lambda n: "[quote=" * (n // 7),
    "A. ×n": lambda n: "A. " * (n // 3),
    "[s]a ×n": lambda n: "[s]a" * (n // 4),
    "a[s]b[/s][/quote] ×n": lambda n: "a[s]b[/s][/quote]" * (n // 17),
    "a\\n ×n": lambda n: "a\n" * (n // 2),
}
SIZES = (8_000, 16_000, 32_000, 64_000)
RESOLVER = NameResolver(["Вася", "Петя", "Alu", "Nekr0", "Уставший Скиталец"], lenient=True)


def cpu_ms(text: str) -> float:
    best = float("inf")
    for _ in range(3):
        started = time.process_time()
        body = parse_bbcode(text)
        parse_post(body, GRAMMAR, RESOLVER, sender="Alu", channel=Channel.THREAD, max_chars=None)
        best = min(best, time.process_time() - started)
    return best * 1000


def main() -> int:
    cpu_ms("vote Вася")  # load the dictionaries first
    print(f"{'attack':<24}" + "".join(f"{s // 1000:>7} KB" for s in SIZES) + "   64/8")
    worst = 0.0
    for name, make in ATTACKS.items():
        times = [cpu_ms(make(size)) for size in SIZES]
        ratio = times[-1] / max(times[0], 0.01)
        worst = max(worst, ratio)
        print(f"{name:<24}" + "".join(f"{t:>7.1f} ms" for t in times) + f"   {ratio:5.1f}")
    return 0 if worst <= 16 else 1


if __name__ == "__main__":
    raise SystemExit(main())
