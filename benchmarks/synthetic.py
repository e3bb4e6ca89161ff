"""Big threads for the benchmarks, built from the real game and the saved pages in fixtures/.

`game_posts(n)` cycles the 425 posts of the real mafiascum game (fixtures/phpbb/real/
17378.jsonl: its authors, its HTML bodies as `PostBody`, ten seconds apart) into a thread of
`n` posts with their own ids. `GAME_TOML` is that game as a `votecount` game file (the nine
players, the two substitutes, the moderator as the GM).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path

from forums.html import html_to_postbody
from forums.records import Post, PostBody

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures" / "phpbb"
GAME_FILE = FIXTURES / "real" / "17378.jsonl"
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
THREAD = "17378"
GM = "flinter"
PLAYERS = [
    *("lobstermania", "RaudhrGarm", "kondi2424", "Spadille", "don_johnson"),
    *("Midnight's Sorrow", "redtail896", "My Milked Eek", "Internet Stranger"),
]
GAME_TOML = """\
[game]
ruleset = "votecount"
title = "Game 1164"
language = "en"
review = "auto"
receipts = false

[board]
engine = "{engine}"
url = "{url}"
thread = "{thread}"
gm_user = "flinter"
password = "env:FORUMGM_BENCH_GM"
{board_extra}
[schedule]
timezone = "UTC"
deadlines = [{deadlines}]
start = "{start}"

[players]
players = [{players}]
replacements = {{ "SleepyKrew" = "kondi2424", "pappums rat" = "redtail896" }}
"""


def game_toml(engine: str, url: str, deadlines: list[datetime], *, extra: str = "") -> str:
    return GAME_TOML.format(
        engine=engine,
        url=url,
        thread=THREAD,
        board_extra=extra,
        deadlines=", ".join(f'"{d.isoformat()}"' for d in deadlines),
        start=(T0 - timedelta(hours=1)).isoformat(),
        players=", ".join(json.dumps(p) for p in PLAYERS),
    )


@cache
def real_game() -> list[tuple[str, str, str, PostBody]]:
    """(author, author id, HTML, body) of each post of the real game, in thread order."""
    lines = GAME_FILE.read_text(encoding="utf-8").splitlines()
    docs = sorted((json.loads(line) for line in lines), key=lambda d: d["number"])
    return [(d["user"], d["user_id"], d["content"], html_to_postbody(d["content"])) for d in docs]


def game_posts(count: int, *, start: int = 0, gap: timedelta = timedelta(seconds=10)) -> list[Post]:
    """Posts `start`..`start + count - 1` of the synthetic thread."""
    game = real_game()
    posts = []
    for n in range(start, start + count):
        author, author_id, html, body = game[n % len(game)]
        posts.append(
            Post(
                id=str(1_000_000 + n),
                thread_id=THREAD,
                number=n + 1,
                author=author,
                author_id=author_id,
                posted_at=T0 + n * gap,
                body=body,
                url=f"https://forum.example/viewtopic.php?p={1_000_000 + n}",
                raw=html,
            )
        )
    return posts


def saved_page(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")
