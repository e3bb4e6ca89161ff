"""A votecount game on a real FluxBB 1.5.11 (SQLite, the GM's zone UTC+3 from his profile),
run through `forumgm` as a host runs it. FluxBB has no private messages: the game is played
in the open thread alone — no receipts, nothing sent privately — and the players vote,
quote, take votes back, delete and edit as on any board. The GM is a plain member, so
FluxBB's 60 s between posts holds for him. Every read of the thread is checked against
FluxBB's own database."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from tests.live.boards import LiveBoard
from tests.live.games import LiveGame, agree, game_file, gm_reader, gm_thread, stored_posts

MSK = ZoneInfo("Europe/Moscow")
PLAYERS = ("Вася", "Петя", "Маша", "Коля", "Оля")


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=MSK)


@pytest.fixture
def votecount(fluxbb: LiveBoard, tmp_path: Path) -> Iterator[LiveGame]:
    assert fluxbb.clock is not None
    fluxbb.clock.set(at("2026-12-01 17:00"))
    gm = gm_reader(fluxbb)
    thread = gm.open_topic("Мафия: дневное голосование", "Здесь будет игра.")
    gm.close()
    text = game_file(fluxbb, thread, PLAYERS, ruleset="votecount")
    game = LiveGame(fluxbb, tmp_path, thread, text)
    yield game
    game.close()


def test_a_votecount_game_on_fluxbb(votecount: LiveGame, fluxbb: LiveBoard) -> None:
    g = votecount
    g.forumgm(at("2026-12-01 18:00"), "game", "start")
    g.forumgm(at("2026-12-01 18:01"), "review", "--approve")
    assert "day 1: open until" in g.forumgm(at("2026-12-01 18:50"), "run", "--once")
    g.post(at("2026-12-01 19:05"), "Вася", "Голосую за Петю")
    masha = g.post(
        at("2026-12-01 19:10"), "Маша", "[quote=Вася]Голосую за Петю[/quote]а я голосую за Колю"
    )
    g.post(at("2026-12-01 19:20"), "Коля", "голосую за Машу")
    g.post(at("2026-12-01 19:25"), "Оля", "голосую за Машу :)")
    g.post(at("2026-12-01 19:30"), "Коля", "снимаю голос. [b]Голосую за Петю[/b]")
    deleted = g.post(at("2026-12-01 19:32"), "Оля", "голосую за Колю")
    g.at(at("2026-12-01 19:33"))
    g.member("Оля").delete(deleted)  # before the deadline: her vote stays Маша
    assert fluxbb.rows("SELECT id FROM posts WHERE id = ?", int(deleted)) == []  # gone for good
    # A vote for someone not in the game: refused, and (no PMs on FluxBB) told to nobody.
    g.post(at("2026-12-01 19:40"), "Петя", "голосую за Лену")
    out = g.forumgm(at("2026-12-01 19:45"), "run", "--once")
    assert "polled: 6 new post(s), 0 new PM(s); 0 receipt(s) queued" in out, out

    agree(fluxbb, g.thread, g.member("Вася").thread(g.thread))  # mid-game, as Вася reads it
    # The host's words to one player would be a PM: refused, with the reason.
    words = ("steer", "say", str(g.path), "Не забудь проголосовать", "--to", "Вася")
    said = g.forumgm(at("2026-12-01 19:50"), *words, code=2, game=False)
    assert "FluxBB has no private messages: the host's words go to the thread only" in said

    # Two minutes after the deadline Маша changes her vote; FluxBB marks the edit.
    g.at(at("2026-12-02 19:02"))
    g.member("Маша").edit(masha, "[quote=Вася]Голосую за Петю[/quote]а я голосую за Петю")
    [(edited,)] = fluxbb.rows("SELECT edited FROM posts WHERE id = ?", int(masha))
    assert 0 <= edited - at("2026-12-02 19:02").timestamp() < 60  # the board's clock runs
    out = g.forumgm(at("2026-12-02 19:03"), "run", "--once")
    assert "results wait for the host" in out, out
    review = g.forumgm(at("2026-12-02 19:04"), "review")
    # The vote counts as it was before the edit, and the host is told.
    assert "edited_after_deadline Маша 'а я голосую за Колю'" in review, review
    assert "Петя 'голосую за Лену'" in review, review
    g.forumgm(at("2026-12-02 19:05"), "review", "--approve")
    # forumgm is killed right after FluxBB took the results post, before the store recorded
    # it; the next run finds its marker on the board (FluxBB has no [size]: the marker line
    # went out without it) and posts nothing twice.
    assert g.killed_after_post(at("2026-12-02 19:06"), "run", "--once") == -signal.SIGKILL
    g.forumgm(at("2026-12-02 19:10"), "run", "--once")
    stored = [row.text for row in stored_posts(fluxbb, g.thread)]
    assert sum("Итоги дня 1" in text for text in stored) == 1, stored
    assert not any("[size" in text for text in stored), stored

    kolya_reads = g.member("Коля").thread(g.thread)
    results = next(p for p in kolya_reads if "Итоги дня 1" in p.body.full_text())
    text = results.body.full_text()
    assert results.author == fluxbb.gm
    assert "Петя — 2 голоса (Вася, Коля)" in text, text  # Коля's unvote, Маша's quote
    assert "Маша — 1 голос (Оля)" in text, text
    assert "Коля — 1 голос (Маша)" in text, text
    agree(fluxbb, g.thread, kolya_reads)
    agree(fluxbb, g.thread, gm_thread(fluxbb, g.thread))
    gms = [p.body.full_text().split("\n")[0] for p in kolya_reads if p.author == fluxbb.gm]
    assert gms == ["Здесь будет игра.", "Игра начинается!", "Итоги дня 1", "День 2 начинается."]
