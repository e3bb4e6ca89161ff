"""A votecount game on a real MyBB 1.8.37 (SQLite, board zone UTC), run through `forumgm`
as a host runs it; the players are real accounts that vote in the thread (Russian word
forms, quotes, unvotes) and write to the GM, and read their inboxes and the thread as
themselves. The GM is a plain member, so MyBB's 60 s between posts and between PMs holds
for him as for the players: receipts sent one after another meet the PM flood limit, are
waited out as MyBB says, and none is lost. Every read of the thread is checked against
MyBB's own database."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from itertools import pairwise
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
def votecount(mybb: LiveBoard, tmp_path: Path) -> Iterator[LiveGame]:
    assert mybb.clock is not None
    mybb.clock.set(at("2026-12-01 17:00"))
    gm = gm_reader(mybb)
    thread = gm.open_topic("Мафия: дневное голосование", "Здесь будет игра.")
    gm.close()
    text = game_file(mybb, thread, PLAYERS, ruleset="votecount")
    game = LiveGame(mybb, tmp_path, thread, text)
    yield game
    game.close()


def test_a_votecount_game_on_mybb(votecount: LiveGame, mybb: LiveBoard) -> None:
    g = votecount
    g.forumgm(at("2026-12-01 18:00"), "game", "start")
    g.forumgm(at("2026-12-01 18:01"), "review", "--approve")
    assert "day 1: open until" in g.forumgm(at("2026-12-01 18:50"), "run", "--once")
    g.post(at("2026-12-01 19:05"), "вася", "Голосую за петю")
    masha = g.post(
        at("2026-12-01 19:10"), "маша", '[quote="вася"]Голосую за петю[/quote]а я голосую за колю'
    )
    g.post(at("2026-12-01 19:20"), "коля", "голосую за машу")
    g.post(at("2026-12-01 19:25"), "оля", "голосую за машу")
    g.post(at("2026-12-01 19:30"), "коля", "снимаю голос. Голосую за петю")
    deleted = g.post(at("2026-12-01 19:32"), "оля", "голосую за колю")
    g.at(at("2026-12-01 19:33"))
    g.member("оля").delete(deleted)  # before the deadline: her vote stays маша
    [(visible,)] = mybb.rows("SELECT visible FROM mybb_posts WHERE pid = ?", int(deleted))
    assert visible == -1  # MyBB keeps it, soft-deleted, out of the members' sight
    # Three players write to the GM; петя twice within MyBB's 60 s (his own client waits).
    g.pm(at("2026-12-01 19:40"), "петя", "я не мафия, голосую за васю")
    g.pm(at("2026-12-01 19:40:20"), "петя", "и ещё: проверьте олю")
    g.pm(at("2026-12-01 19:41"), "вася", "голосую за петю")
    g.pm(at("2026-12-01 19:42"), "оля", "голосую за машу")
    out = g.forumgm(at("2026-12-01 19:45"), "run", "--once")
    assert "3 receipt(s) queued" in out and "published 0 post(s) and 3 PM(s)" in out, out
    # Each receipt in its player's inbox, read as that player: MyBB's PM flood limit was
    # met (the GM sends three in a row) and waited out, not taken for a refusal.
    for name in ("петя", "вася", "оля"):
        [receipt] = g.inbox(name)
        assert "Голос не принят: голоса принимаются только в игровой теме." in receipt, receipt
    assert g.inbox("маша") == [] and g.inbox("коля") == []
    sent = mybb.rows(
        "SELECT dateline FROM mybb_privatemessages WHERE fromid = "
        "(SELECT uid FROM mybb_users WHERE username = ?) AND folder = 1 ORDER BY dateline",
        mybb.gm,
    )
    gaps = [b[0] - a[0] for a, b in pairwise(sent)]
    assert len(sent) == 3 and all(gap > 60 for gap in gaps), gaps  # MyBB's limit held

    agree(mybb, g.thread, g.member("вася").thread(g.thread))  # mid-game, as вася reads it

    # Two minutes after the deadline маша changes her vote; MyBB marks the edit (to the
    # minute: one in the deadline's own minute would be held for the host as a doubt).
    g.at(at("2026-12-02 19:02"))
    g.member("маша").edit(masha, '[quote="вася"]Голосую за петю[/quote]а я голосую за петю')
    [(edited,)] = mybb.rows("SELECT edittime FROM mybb_posts WHERE pid = ?", int(masha))
    assert 0 <= edited - at("2026-12-02 19:02").timestamp() < 60  # the board's clock runs
    out = g.forumgm(at("2026-12-02 19:03"), "run", "--once")
    assert "results wait for the host" in out, out
    review = g.forumgm(at("2026-12-02 19:04"), "review")
    assert "pm_vote_ignored петя 'я не мафия, голосую за васю'" in review, review
    # The vote counts as it was before the edit, and the host is told.
    assert "edited_after_deadline маша 'а я голосую за колю'" in review, review
    held = re.findall(r"^! #(\d+) pm_vote_ignored", review, re.M)
    assert len(held) == 3, review
    g.forumgm(at("2026-12-02 19:05"), "review", *[w for n in held for w in ("--ignore", n)])
    g.forumgm(at("2026-12-02 19:05"), "review", "--approve")
    g.forumgm(at("2026-12-02 19:06"), "run", "--once")

    kolya_reads = g.member("коля").thread(g.thread)
    results = next(p for p in kolya_reads if "Итоги дня 1" in p.body.full_text())
    text = results.body.full_text()
    assert results.author == mybb.gm
    assert "петя — 2 голоса (вася, коля)" in text, text  # коля's unvote, маша's quote
    assert "маша — 2 голоса (коля, оля)" not in text and "маша — 1 голос (оля)" in text, text
    assert "коля — 1 голос (маша)" in text, text
    agree(mybb, g.thread, kolya_reads)
    agree(mybb, g.thread, gm_thread(mybb, g.thread))
