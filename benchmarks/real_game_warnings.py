"""Warnings on a real game: `.venv/bin/python benchmarks/real_game_warnings.py [-v] [CODE]`.

Reads every player post of mafiascum game 17378 (fixtures/phpbb/real/17378.jsonl, the same
cast and day ends as tests/scraper/test_real_game.py) with the votecount grammar and prints
the parse warnings by code, then each day's leader at the moderator's day-ending post.
`-v` lists every warning (or only those of CODE). A change to the parser should lower the
warning counts without changing any leader.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core.orders import Channel, OrderKind
from forums.html import html_to_postbody
from rulesets.votecount.grammar import GRAMMAR
from scraper.reading import Cast, read_post

POSTS = Path(__file__).resolve().parents[1] / "fixtures" / "phpbb" / "real" / "17378.jsonl"
PLAYERS = ("lobstermania", "RaudhrGarm", "SleepyKrew", "Spadille", "don_johnson",
           "Midnight's Sorrow", "pappums rat", "My Milked Eek", "Internet Stranger")  # fmt: skip
CAST = Cast(PLAYERS, (), {"SleepyKrew": "kondi2424", "pappums rat": "redtail896"})
DAY_ENDS = {239: "don_johnson", 334: "SleepyKrew", 411: "pappums rat"}
MODERATOR = "flinter"


def main(argv: list[str]) -> int:
    verbose = "-v" in argv
    only = next((a for a in argv if not a.startswith("-")), None)
    posts = [json.loads(line) for line in POSTS.read_text(encoding="utf-8").splitlines()]
    codes: Counter[str] = Counter()
    votes: dict[str, str | None] = {}
    leaders: dict[int, str | None] = {}
    for post in posts:
        if post["number"] in DAY_ENDS:
            top = Counter(t for t in votes.values() if t).most_common(2)
            unique = len(top) == 1 or (len(top) == 2 and top[0][1] > top[1][1])
            leaders[post["number"]] = top[0][0] if top and unique else None
            votes = {}
        if post["user"] == MODERATOR or post["number"] > max(DAY_ENDS):
            continue
        result = read_post(
            html_to_postbody(post["content"]),
            GRAMMAR,
            CAST,
            sender=post["user"],
            channel=Channel.THREAD,
            lenient=True,
        )
        for warning in result.warnings:
            codes[warning.code] += 1
            if verbose and (only is None or warning.code == only):
                line = warning.source.text if warning.source else ""
                print(f"#{post['number']} {post['user']}: {warning.code} {warning.message}")
                print(f"    {line[:160]!r} choices={list(warning.choices)}")
        for order in result.orders:
            votes[order.player] = order.target if order.kind is OrderKind.VOTE else None
    print("warnings on 17378.jsonl:", ", ".join(f"{c} {n}" for c, n in sorted(codes.items())))
    print(f"total {sum(codes.values())}")
    for number, expected in DAY_ENDS.items():
        mark = "ok" if leaders.get(number) == expected else "CHANGED"
        print(f"day ending at #{number}: leader {leaders.get(number)} ({mark})")
    return 0 if all(leaders.get(n) == e for n, e in DAY_ENDS.items()) else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
