"""A real mafiascum game (fixtures/phpbb/real/17378.jsonl, SOURCES.md): read every post with
the votecount grammar; each day's plurality at the moderator's day-ending post is the
player SOURCES.md says was lynched."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from engine.core.orders import Channel, OrderKind
from forums.phpbb.html import html_to_postbody
from rulesets.votecount.grammar import GRAMMAR
from scraper.reading import Cast, read_post

POSTS = Path(__file__).resolve().parents[2] / "fixtures" / "phpbb" / "real" / "17378.jsonl"
PLAYERS = ("lobstermania", "RaudhrGarm", "SleepyKrew", "Spadille", "don_johnson",
           "Midnight's Sorrow", "pappums rat", "My Milked Eek", "Internet Stranger")  # fmt: skip
CAST = Cast(PLAYERS, (), {"SleepyKrew": "kondi2424", "pappums rat": "redtail896"})
DAY_ENDS = {239: "don_johnson", 334: "SleepyKrew", 411: "pappums rat"}


def test_each_day_ends_with_the_lynched_player_on_top() -> None:
    posts = [json.loads(line) for line in POSTS.read_text(encoding="utf-8").splitlines()]
    votes: dict[str, str | None] = {}
    leaders = {}
    warnings: Counter[str] = Counter()
    for post in posts:
        if post["number"] in DAY_ENDS:
            totals = Counter(t for t in votes.values() if t)
            [(top, count), (_, second)] = totals.most_common(2)
            assert count > second
            leaders[post["number"]] = top
            votes = {}
        if post["user"] == "flinter" or post["number"] > max(DAY_ENDS):
            continue
        result = read_post(
            html_to_postbody(post["content"]),
            GRAMMAR,
            CAST,
            sender=post["user"],
            channel=Channel.THREAD,
            lenient=True,
        )
        warnings.update(w.code for w in result.warnings)
        for order in result.orders:
            votes[order.player] = order.target if order.kind is OrderKind.VOTE else None
    assert leaders == DAY_ENDS
    # Issue 11: short nicks ("SK", "internetstranger", "pappums-scum") resolve and talk around
    # «vote» is talk ("your vote is better served…" names no "IS", "a 2 vote bandwagon" is no
    # vote); before, 11 unknown_target and 3 multiple_votes warnings. The one left is a typo
    # the host fixes: "Vote:SleepKrew" (choices: SleepyKrew).
    assert warnings == Counter({"unknown_target": 1})
