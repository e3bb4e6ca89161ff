"""Issue 25: the host steers a running game through `forumgm steer` — remove a player, move
deadlines, pause and resume, end early, grant, speak — driven as a host does (a game file
in a temporary folder, the rehearsal board, a chosen clock) and checked on the board."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from engine.service.build import database_url
from engine.store import open_store
from tests.app.rehearsal import Rehearsal
from tests.app.steer_game import steer_game
from tests.service.helpers import cli_game

MSK = ZoneInfo("Europe/Moscow")


@pytest.fixture
def game(tmp_path: Path) -> Rehearsal:
    return steer_game(tmp_path)


def _audit(g: Rehearsal) -> list[tuple[str, dict[str, object]]]:
    store = open_store(database_url(g.db))
    return [(a.action, dict(a.detail)) for a in reversed(store.host_actions(1))]


def test_remove_a_player_waits_for_review_then_the_votes_by_and_for_him_stop(
    game: Rehearsal,
) -> None:
    said = game.host("2026-12-01T20:00+03:00", "steer remove", "петя", "--reveal")
    assert "Петя: removed from play (counts for turn 1)" in said
    assert "1 wait for approval" in said
    assert "выбывает из игры по решению ведущего. Роль: [b]Мафиози[/b]" in said
    # Nothing reaches the players before the host approves; the preview shows it.
    game.host("2026-12-01T20:01+03:00", "run", "--once")
    assert "выбывает" not in game.thread()
    preview = game.host("2026-12-01T20:02+03:00", "review", "--preview", "--votes")
    assert "--- draft post to thread" in preview and "выбывает из игры" in preview
    assert "(out: Петя)" in preview
    assert "totals: Коля 1" in preview  # Оля's vote alone: Петя's and those for him are gone
    game.host("2026-12-01T20:03+03:00", "review", "--approve")
    game.host("2026-12-01T20:04+03:00", "run", "--once")
    thread = game.thread()
    assert "Петя выбывает из игры по решению ведущего. Роль: Мафиози." in thread
    # A vote by the removed player after the removal is refused; at the deadline the town
    # wins: the only mafioso is out of play.
    game.pm("2026-12-01T21:00+03:00", "Петя", "голосую за Машу")
    game.host("2026-12-01T21:05+03:00", "run", "--once")
    assert "не принято" in game.inbox("Петя").lower()
    held = game.host("2026-12-02T19:01+03:00", "run", "--once")
    assert "waiting for review (1 warning(s))" in held  # his late vote: sender_not_in_play
    review = game.host("2026-12-02T19:02+03:00", "review")
    assert "sender_not_in_play Петя" in review
    game.host("2026-12-02T19:03+03:00", "review", "--approve", "--publish")
    results = game.thread().rpartition("--- #")[2]
    assert "Петя" not in results.partition("Итоги голосования")[2].partition("\n\n")[0]
    assert "Победа" in results or "победили" in results.lower()
    actions = _audit(game)
    assert ("remove", {"player": "Петя", "counts_for": "turn 1", "reveal": True}) in actions


def test_a_removal_may_hide_the_role_and_refuses_a_stranger(game: Rehearsal) -> None:
    said = game.host("2026-12-01T20:00+03:00", "steer remove", "Оля", "--no-reveal", "--approve")
    assert "Роль" not in said and "0 wait" not in said and "wait for approval" not in said
    game.host("2026-12-01T20:01+03:00", "run", "--once")
    assert "Оля выбывает из игры по решению ведущего.\n" in game.thread()
    again = game.host("2026-12-01T20:02+03:00", "steer remove", "Оля", code=2)
    assert again.strip() == "Оля is not in play"
    nobody = game.host("2026-12-01T20:03+03:00", "steer remove", "Ксюша", code=2)
    assert "'Ксюша' is not a player: one of Вася, Петя, Маша, Коля, Оля" in nobody


def test_deadlines_extend_shorten_set_and_shift(game: Rehearsal) -> None:
    said = game.host("2026-12-01T20:00+03:00", "steer deadline", "--extend", "1d", "--approve")
    assert "turn 1 now ends 2026-12-03 19:00 MSK" in said
    status = game("2026-12-01T20:01+03:00", "status", "--db", game.db)
    assert "2026-12-03 19:00" in status
    game.host("2026-12-01T20:02+03:00", "run", "--once")
    assert "Ход 1 теперь заканчивается [b]" not in game.thread()  # plain text on the board
    assert "Ход 1 теперь заканчивается 03.12.2026 19:00" in game.thread()
    # The old deadline passes and nothing is resolved.
    assert "turn 1: open until 2026-12-03 19:00" in game.host(
        "2026-12-02T19:05+03:00", "run", "--once"
    )
    said = game.host("2026-12-02T19:10+03:00", "steer deadline", "--extend", "-2h", "--approve")
    assert "turn 1 now ends 2026-12-03 17:00 MSK" in said
    refused = game.host("2026-12-02T19:11+03:00", "steer deadline", "--extend", "-2d", code=2)
    assert "which is not to come" in refused
    bad = game.host("2026-12-02T19:12+03:00", "steer deadline", "--extend", "soon", code=2)
    assert "write a length such as 2h" in bad
    said = game.host(
        "2026-12-02T19:13+03:00", "steer deadline", "--at", "2026-12-03 21:30", "--approve"
    )
    assert "turn 1 now ends 2026-12-03 21:30 MSK" in said
    said = game.host("2026-12-02T19:14+03:00", "steer deadline", "--shift", "1d", "--approve")
    assert "turn 1 now ends 2026-12-04 21:30 MSK; every later deadline moves as much" in said
    game.host("2026-12-02T19:15+03:00", "run", "--once")
    assert "Все следующие сроки сдвигаются на 1 д." in game.thread()
    status = game("2026-12-02T19:16+03:00", "status", "--db", game.db)
    assert "2026-12-04 21:30" in status
    # Every later deadline of the schedule moved a day; turn 1 is resolved at its new one.
    assert open_store(database_url(game.db)).get_game(1).deadline_shift == 86400
    assert "Итоги" not in game.thread()
    game.host("2026-12-04T21:29+03:00", "run", "--once")
    assert "Итоги" not in game.thread()
    game.host("2026-12-04T21:31+03:00", "run", "--once")
    assert "Итоги" in game.thread()
    actions = [a for a, _ in _audit(game)]
    assert actions.count("deadline") == 4


def test_pause_and_resume(game: Rehearsal) -> None:
    said = game.host("2026-12-02T12:00+03:00", "steer pause", "--approve")
    assert "paused: no deadline passes until resume" in said
    assert "paused by the host" in game.host("2026-12-02T12:01+03:00", "run", "--once")
    assert "paused since 2026-12-02 12:00" in game(
        "2026-12-02T12:01+03:00", "status", "--db", game.db
    )
    assert "Игра на паузе" in game.thread() or "игра на паузе" in game.thread()
    # The deadline passes while paused: nothing is resolved, but PMs are still answered.
    game.pm("2026-12-02T19:30+03:00", "Вася", "голосую за Олю")
    out = game.host("2026-12-02T19:31+03:00", "run", "--once")
    assert "paused by the host since 2026-12-02 12:00" in out
    assert "Голос за Олю принят" in game.inbox("Вася")
    assert "Итоги" not in game.thread()
    said = game.host("2026-12-02T20:00+03:00", "steer resume", "--approve")
    # Paused 8 hours: the deadline moves from 2026-12-02 19:00 to 2026-12-03 03:00.
    assert "resumed after 8 h; turn 1 ends 2026-12-03 03:00 MSK" in said
    game.host("2026-12-02T20:01+03:00", "run", "--once")
    assert "Ход 1 теперь заканчивается 03.12.2026 03:00" in game.thread()
    again = game.host("2026-12-02T20:02+03:00", "steer resume", code=2)
    assert "the game is not paused" in again
    actions = [a for a, _ in _audit(game)]
    assert "pause" in actions and "resume" in actions


def test_end_the_game_early(game: Rehearsal) -> None:
    wrong = game.host("2026-12-01T20:00+03:00", "steer end", "aliens", code=2)
    assert "'aliens': one of town, mafia, draw, abandoned" in wrong
    said = game.host("2026-12-01T20:01+03:00", "steer end", "draw")
    assert "the game ends: draw" in said and "1 wait for approval" in said
    out = game.host("2026-12-01T20:02+03:00", "run", "--once")
    assert "ended by the host: the final post waits" in out
    game.host("2026-12-01T20:03+03:00", "review", "--approve")
    assert "finished (ended by the host)" in game.host("2026-12-01T20:04+03:00", "run", "--once")
    final = game.thread().rpartition("--- #")[2]
    assert "От ведущего: игра окончена досрочно." in final and "Итог: ничья." in final
    assert "Петя — Мафиози" in final and "Вася — Комиссар" in final
    # Nothing more is resolved at the deadline.
    assert game.host("2026-12-02T19:01+03:00", "run", "--once").strip().endswith("finished")
    assert "Итоги" not in game.thread()
    refused = game.host("2026-12-02T19:02+03:00", "steer pause", code=2)
    assert "the game is over" in refused


def test_the_host_speaks_in_the_thread_and_by_pm(game: Rehearsal) -> None:
    game.host("2026-12-01T20:00+03:00", "steer say", "Завтра сервер перезагружают.", "--approve")
    game.host("2026-12-01T20:01+03:00", "steer say", "Вы в игре?", "--to", "оля", "--approve")
    game.host("2026-12-01T20:02+03:00", "run", "--once")
    post = game.thread().rpartition("--- #")[2]
    assert "От ведущего\n\nЗавтра сервер перезагружают." in post and "fgm:" in post
    assert "От ведущего\n\nВы в игре?" in game.inbox("Оля")
    assert [a for a, _ in _audit(game)][-2:] == ["say", "say"]


def test_grant_a_vote_weight_and_cannot_vote_in_votecount(tmp_path: Path) -> None:
    names = ["Вася", "Петя", "Маша", "Коля", "Оля"]
    g = cli_game(tmp_path, names, ruleset="votecount", review="auto")
    g.opened()
    at = datetime(2026, 12, 1, 20, 0, tzinfo=MSK)
    g.board.post_as("Вася", g.thread, "голос за Петю", at=at)
    g.board.post_as("Петя", g.thread, "голос за Васю", at=at + timedelta(minutes=1))
    g.board.post_as("Коля", g.thread, "голос за Васю", at=at + timedelta(minutes=2))
    g.board.post_as("Маша", g.thread, "голос за Петю", at=at + timedelta(minutes=3))
    g.cli("run", str(g.path), "--once", at="2026-12-01T20:10+03:00")
    said = g.cli("steer", "grant", str(g.path), "маша", "weight", "2", at="2026-12-01T21:00+03:00")
    assert "Маша: granted weight (counts for day 1)" in said
    g.cli("steer", "grant", str(g.path), "Коля", "cannot_vote", "yes", at="2026-12-01T21:01+03:00")
    bad = g.cli("steer", "grant", str(g.path), "Оля", "vest", at="2026-12-01T21:02+03:00", code=2)
    assert "votecount games have no grant 'vest'" in bad
    wrong = g.cli(
        "steer", "grant", str(g.path), "Оля", "weight", "lots", at="2026-12-01T21:03+03:00", code=2
    )
    assert "weight: a whole number 0 or more" in wrong
    votes = g.cli("review", str(g.path), "--votes", at="2026-12-01T21:04+03:00")
    assert "totals: Петя 3, Вася 1" in votes
    g.cli("run", str(g.path), "--once", at="2026-12-01T21:05+03:00")
    said = "\n".join(g.gm_posts("От ведущего"))
    assert "Вес голоса Маши теперь — 2." in said
    assert "Коля больше не может голосовать: его голос не учитывается." in said
    g.cli("run", str(g.path), "--once", at="2026-12-02T19:01+03:00")
    results = g.gm_posts("Итоги дня 1")[0]
    assert "Петя — 3 голоса" in results
