"""A votecount game on a real SMF 2.1.4 (PostgreSQL, board zone Europe/Moscow), run through
`forumgm` as a host runs it: the players are real accounts that vote in the thread (Russian
word forms, quotes, strikes, unvotes), delete a post and write to the GM, and read their
inboxes and the thread as themselves. The GM is a plain member. Every read of the thread is
checked against SMF's own database.

SMF answers a reply with a redirect to the thread's first unread post, naming no post: the
adapter finds its post there. SMF 2.1.4 on PostgreSQL does not hold its 5 s between posts
from one IP (its flood log's upsert reports one row either way): two posts a second apart
both stand, as the test shows."""

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
PLAYERS = ("Вася", "Петя", "Маша", "Коля", "Оля")


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=MSK)


@pytest.fixture
def votecount(smf_live: LiveBoard, tmp_path: Path) -> Iterator[LiveGame]:
    assert smf_live.clock is not None
    smf_live.clock.set(at("2026-12-01 17:00"))
    gm = gm_reader(smf_live)
    thread = gm.open_topic("Мафия: дневное голосование", "Здесь будет игра.")
    gm.close()
    text = game_file(smf_live, thread, PLAYERS, ruleset="votecount")
    game = LiveGame(smf_live, tmp_path, thread, text)
    yield game
    game.close()


def test_a_votecount_game_on_smf(votecount: LiveGame, smf_live: LiveBoard) -> None:
    g, board = votecount, smf_live
    g.forumgm(at("2026-12-01 18:00"), "game", "start")
    g.forumgm(at("2026-12-01 18:01"), "review", "--approve")
    assert "day 1: open until" in g.forumgm(at("2026-12-01 18:50"), "run", "--once")
    g.post(at("2026-12-01 19:05"), "Вася", "Голосую за петю")
    masha = g.post(
        at("2026-12-01 19:10"),
        "Маша",
        "[quote author=Вася]Голосую за петю[/quote]а я голосую за [s]Олю[/s] колю",
    )
    g.post(at("2026-12-01 19:20"), "Коля", "голосую за машу")
    g.post(at("2026-12-01 19:25"), "Оля", "голосую за машу")
    g.post(at("2026-12-01 19:30"), "Коля", "снимаю голос. Голосую за петю")
    deleted = g.post(at("2026-12-01 19:30:01"), "Оля", "голосую за колю")
    [(when,)] = board.rows("SELECT poster_time FROM smf_messages WHERE id_msg = ?", int(deleted))
    assert when - at("2026-12-01 19:30").timestamp() < 5  # SMF on PostgreSQL let it through
    g.at(at("2026-12-01 19:33"))
    g.member("Оля").delete(deleted)  # before the deadline: her vote stays Маша
    assert board.rows("SELECT id_msg FROM smf_messages WHERE id_msg = ?", int(deleted)) == []
    # Three players write to the GM.
    g.pm(at("2026-12-01 19:40"), "Петя", "я не мафия, голосую за васю")
    g.pm(at("2026-12-01 19:41"), "Вася", "голосую за петю")
    g.pm(at("2026-12-01 19:42"), "Оля", "голосую за машу")
    out = g.forumgm(at("2026-12-01 19:45"), "run", "--once")
    assert "3 receipt(s) queued" in out and "published 0 post(s) and 3 PM(s)" in out, out
    for name in ("Петя", "Вася", "Оля"):
        [receipt] = g.inbox(name)
        assert "Голос не принят: голоса принимаются только в игровой теме." in receipt, receipt
    assert g.inbox("Маша") == [] and g.inbox("Коля") == []

    agree(board, g.thread, g.member("Вася").thread(g.thread))  # mid-game, as Вася reads it

    # Two minutes after the deadline Маша changes her vote; SMF marks the edit (past its
    # 90 s of silent edits) with "Last Edit: … by Маша".
    g.at(at("2026-12-02 19:02"))
    g.member("Маша").edit(masha, "[quote author=Вася]Голосую за петю[/quote]а я голосую за петю")
    [(edited,)] = board.rows("SELECT modified_time FROM smf_messages WHERE id_msg = ?", int(masha))
    assert 0 <= edited - at("2026-12-02 19:02").timestamp() < 60
    out = g.forumgm(at("2026-12-02 19:03"), "run", "--once")
    assert "results wait for the host" in out, out
    review = g.forumgm(at("2026-12-02 19:04"), "review")
    assert "pm_vote_ignored Петя 'я не мафия, голосую за васю'" in review, review
    # The vote counts as it was before the edit, and the host is told.
    assert "edited_after_deadline Маша" in review, review
    held = re.findall(r"^! #(\d+) pm_vote_ignored", review, re.M)
    assert len(held) == 3, review
    g.forumgm(at("2026-12-02 19:05"), "review", *[w for n in held for w in ("--ignore", n)])
    g.forumgm(at("2026-12-02 19:05"), "review", "--approve")
    g.forumgm(at("2026-12-02 19:06"), "run", "--once")

    kolya_reads = g.member("Коля").thread(g.thread)
    results = next(p for p in kolya_reads if "Итоги дня 1" in p.body.full_text())
    text = results.body.full_text()
    assert results.author == board.gm
    assert "Петя — 2 голоса (Вася, Коля)" in text, text  # Коля's unvote, Маша's quote
    assert "Маша — 1 голос (Оля)" in text, text  # Оля's deleted post does not count
    assert "Коля — 1 голос (Маша)" in text, text  # the struck name does not count
    agree(board, g.thread, kolya_reads)
    gm_reads = gm_thread(board, g.thread)
    agree(board, g.thread, gm_reads)
    edited_post = next(p for p in gm_reads if p.id == masha)
    assert edited_post.edit is not None and edited_post.edit.by == "Маша"
