"""A classic game on a real phpBB 3.3.10 (SQLite, its Russian pack, Europe/Moscow), run
through `forumgm` as a host runs it; the players are real accounts that send their votes
and orders by PM and talk in the thread, and read their inboxes and the thread as
themselves. Every read of the thread is checked against phpBB's own database."""

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
ROLES = {
    "Вася": "commissar",
    "Петя": "mafioso",
    "Маша": "doctor",
    "Коля": "citizen",
    "Оля": "citizen",
}
SHOWN_ROLES = {"Вася": "Комиссар", "Петя": "Мафиози", "Маша": "Доктор", "Коля": "Честный житель"}


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=MSK)


@pytest.fixture
def classic(phpbb: LiveBoard, tmp_path: Path) -> Iterator[LiveGame]:
    assert phpbb.clock is not None
    phpbb.clock.set(at("2026-12-01 17:00"))
    gm = gm_reader(phpbb)
    thread = gm.open_topic("Мафия: классика", "Здесь будет игра.")
    gm.close()
    text = game_file(phpbb, thread, PLAYERS, ruleset="classic", roles=ROLES)
    game = LiveGame(phpbb, tmp_path, thread, text)
    yield game
    game.close()


def test_a_classic_game_on_phpbb(classic: LiveGame, phpbb: LiveBoard) -> None:
    g = classic
    g.forumgm(at("2026-12-01 18:00"), "game", "start")
    g.forumgm(at("2026-12-01 18:01"), "review", "--approve")
    assert "turn 1: open until" in g.forumgm(at("2026-12-01 18:50"), "run", "--once")
    for name, role in SHOWN_ROLES.items():  # each player reads his role in his own inbox
        [dealt] = g.inbox(name)
        assert role in dealt, (name, dealt)
    opening = gm_thread(phpbb, g.thread)[-1]
    assert opening.author == phpbb.gm and "Ролевой состав" in opening.body.full_text()
    assert not any(f"{n} — {r}" in opening.body.full_text() for n, r in SHOWN_ROLES.items())

    g.pm(at("2026-12-01 19:05"), "Вася", "проверка Пети. Голосую за Петю")
    g.pm(at("2026-12-01 19:10"), "Маша", "лечу Васю")
    g.pm(at("2026-12-01 19:12"), "Коля", "голосую за Олю")
    g.pm(at("2026-12-01 19:20"), "Коля", "снимаю голос. голосую за Петю")
    g.post(at("2026-12-01 19:25"), "Оля", '[quote="Вася"]Голосую за Петю[/quote]согласна')
    g.forumgm(at("2026-12-01 19:30"), "run", "--once")
    vasya, kolya, masha = g.inbox("Вася"), g.inbox("Коля"), g.inbox("Маша")
    assert len(vasya) == 2 and "Голос за Петю принят" in vasya[-1], vasya
    assert "Проверка" in vasya[-1]
    assert len(masha) == 2 and "принят" in masha[-1], masha
    # One receipt per poll: both of Коля's PMs, in order, the unvote between.
    assert len(kolya) == 2, kolya
    assert "Голос за Олю принят.\n\nВаш голос снят.\n\nГолос за Петю принят." in kolya[-1]
    assert len(g.inbox("Оля")) == 1  # a post in the thread is talk: no receipt

    # The deadline: read again, frozen, resolved, held for the host (review = "always").
    out = g.forumgm(at("2026-12-02 19:01"), "run", "--once")
    assert "results wait for the host" in out, out
    assert "2 draft(s) wait for approval" in g.forumgm(at("2026-12-02 19:02"), "review")
    review = g.forumgm(at("2026-12-02 19:02"), "review", "--orders")
    assert "Коля: vote Петя" in review and "Вася: vote Петя" in review, review
    assert "Маша: heal Вася" in review and "Вася: check Петя" in review, review
    assert "Итоги хода 1" not in "".join(p.body.full_text() for p in gm_thread(phpbb, g.thread))
    g.forumgm(at("2026-12-02 19:03"), "review", "--approve")

    # forumgm is killed right after phpBB took the results post, before the store recorded
    # it; the next run finds its marker on the board and posts nothing twice.
    assert g.killed_after_post(at("2026-12-02 19:04"), "run", "--once") == -signal.SIGKILL
    g.forumgm(at("2026-12-02 19:10"), "run", "--once")
    stored = [row.text for row in stored_posts(phpbb, g.thread)]
    assert sum("Итоги хода 1" in text for text in stored) == 1, stored

    # What the players read: the thread as Коля, and it is phpBB's own.
    kolya_reads = g.member("Коля").thread(g.thread)
    results = kolya_reads[-1]
    text = results.body.full_text()
    assert results.author == phpbb.gm and "Итоги хода 1" in text
    assert "Вася → Петя" in text and "Коля → Петя" in text and "Петя — 2 голоса" in text
    agree(phpbb, g.thread, kolya_reads)
    agree(phpbb, g.thread, gm_thread(phpbb, g.thread))
    assert [p.author for p in kolya_reads].count(phpbb.gm) == 3  # topic, opening, results
