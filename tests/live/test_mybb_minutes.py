"""Issue 24 §1, 2, 4 and 5 on a real MyBB 1.8.37 (board zone UTC, times printed to the
minute), through `forumgm` as a host runs it:

- day 2 opens when the host approves day 1's results, in the middle of a minute; votes
  posted later in that same minute print as the minute itself (before the opening, to the
  second) and still count for day 2, after the GM's opening post (§1);
- an unvote posted in the deadline's own minute is held as `deadline_minute`, and the
  host's `--ignore` of that warning takes it out, so the vote before it counts (§2);
- the GM's results and his next opening within MyBB's «Post Merge Time» (60 minutes) are
  merged by the board into one post: `run` says so to the host (§4);
- the vote history goes out as a spoiler, which MyBB 1.8 does not have: players read a
  bold title over a quote, never a raw `[spoiler=…]` tag (§5).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from tests.live.boards import LiveBoard
from tests.live.games import LiveGame, agree, game_file, gm_reader, gm_thread

MSK = ZoneInfo("Europe/Moscow")
PLAYERS = ("вася", "петя", "маша", "коля", "оля")


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=MSK)


@pytest.fixture
def game(mybb: LiveBoard, tmp_path: Path) -> Iterator[LiveGame]:
    assert mybb.clock is not None
    mybb.clock.set(at("2026-12-05 17:00"))
    gm = gm_reader(mybb)
    thread = gm.open_topic("Мафия: минуты", "Здесь будет игра.")
    gm.close()
    text = game_file(
        mybb,
        thread,
        PLAYERS,
        ruleset="votecount",
        start="2026-12-05 19:00",
    )
    live = LiveGame(mybb, tmp_path, thread, text)
    yield live
    live.close()


def test_votes_in_the_opening_minute_the_deadline_minute_merges_and_spoilers(
    game: LiveGame, mybb: LiveBoard
) -> None:
    g = game
    g.forumgm(at("2026-12-05 18:00"), "game", "start")
    g.forumgm(at("2026-12-05 18:01"), "review", "--approve")
    g.forumgm(at("2026-12-05 18:50"), "run", "--once")
    g.post(at("2026-12-05 19:05"), "вася", "голосую за петю")
    g.post(at("2026-12-05 19:06"), "маша", "голосую за петю")
    g.post(at("2026-12-05 19:07"), "петя", "голосую за машу")
    out = g.forumgm(at("2026-12-06 19:00:30"), "run", "--once")
    assert "results wait for the host" in out, out
    # The host approves late, in the middle of a minute: day 2 opens at 19:37:21.
    g.forumgm(at("2026-12-06 19:37:10"), "review", "--approve")
    out = g.forumgm(at("2026-12-06 19:37:21"), "run", "--once")
    assert "day 2: open until 2026-12-07 19:00 MSK" in out, out
    # MyBB appended the opening of day 2 to the results, the GM's post of a second before.
    assert "merged this post into post" in out and "Merge User Groups to Ignore" in out, out

    # Later in the opening's minute: the board prints 19:37, before 19:37:21.
    g.post(at("2026-12-06 19:37:39"), "коля", "голосую за васю")
    g.post(at("2026-12-06 19:37:40"), "оля", "голосую за васю")
    g.post(at("2026-12-06 19:50"), "вася", "голосую за олю")
    read = {p.id: p for p in gm_thread(mybb, g.thread)}
    printed = [p.posted_at.astimezone(MSK) for p in read.values() if p.author == "коля"]
    assert printed == [at("2026-12-06 19:37")], printed  # minutes only
    g.forumgm(at("2026-12-06 20:00"), "run", "--once")
    votes = g.forumgm(at("2026-12-06 20:01"), "votes")
    assert "late" not in votes, votes
    assert re.search(r"вася\D*2", votes), votes  # коля and оля, in the minute of the opening

    g.post(at("2026-12-07 07:50"), "маша", "подсчет голосов")  # with the votes' history
    out = g.forumgm(at("2026-12-07 08:00"), "run", "--once")
    assert "published 1 post(s)" in out, out

    # 19:00:16 on the deadline day: printed «19:00», the deadline's own minute.
    g.post(at("2026-12-07 19:00:16"), "коля", "снимаю голос")
    out = g.forumgm(at("2026-12-07 19:10"), "run", "--once")
    assert "results wait for the host" in out, out
    review = g.forumgm(at("2026-12-07 19:11"), "review")
    [held] = re.findall(r"^! #(\d+) deadline_minute коля 'снимаю голос'", review, re.M)
    assert "late" not in review, review
    g.forumgm(at("2026-12-07 19:12"), "review", "--ignore", held)
    g.forumgm(at("2026-12-07 19:13"), "review", "--approve")
    g.forumgm(at("2026-12-07 19:14"), "run", "--once")

    kolya_reads = g.member("коля").thread(g.thread)
    gm_posts = [p for p in kolya_reads if p.author == mybb.gm]
    text = "\n".join(p.body.full_text() for p in gm_posts)
    results = next(p for p in gm_posts if "Итоги дня 2" in p.body.full_text()).body.full_text()
    # коля's vote stands (his unvote in the deadline's minute was ignored by the host), and
    # оля's from the opening's minute counts.
    assert "вася — 2 голоса (коля, оля)" in results, results
    assert "оля — 1 голос (вася)" in results, results
    # No BBCode the board lacks reaches the players (MyBB 1.8 has no [spoiler]).
    raw = mybb.rows(
        "SELECT message FROM mybb_posts WHERE tid = ? AND username = ?", int(g.thread), mybb.gm
    )
    assert raw and not any("[spoiler" in r[0].lower() for r in raw), raw
    assert "[spoiler" not in text.lower() and "[/spoiler" not in text.lower(), text
    counts = [r[0] for r in raw if "Голосование на данный момент" in r[0]]
    assert counts and all("[b]История голосов[/b]\n[quote]" in c for c in counts), counts
    shown = next(p for p in gm_posts if "История голосов" in p.body.full_text())
    assert "коля → вася" in shown.body.text(include_quoted=True), shown.body.full_text()
    agree(mybb, g.thread, kolya_reads)
