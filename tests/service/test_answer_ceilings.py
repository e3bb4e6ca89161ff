"""Issue 22, item 6: the host's ceilings per hour on automatic answers, and a repeat answered once.

The limits were per player: one player got 90 rating posts in 16.5 hours, seven players 210
in 5.5 hours; votecount's refusals made 205 PMs in 5.5 hours; an order PM sent again at each
poll got a receipt at each poll. Driven as a host drives forumgm (a game file with
`[answers]`, the local board, a chosen clock, `run --once`), checked on the board.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from tests.service.helpers import GM, ClockedGame, clocked_game

MSK = ZoneInfo("Europe/Moscow")
START = datetime(2026, 12, 1, 19, 0, tzinfo=MSK)
PLAYERS = ["Вася", "Петя", "Маша", "Коля", "Оля"]
ROLES = {"Вася": "mafioso", "Петя": "commissar", "Маша": "doctor", "Коля": "citizen"}
ROLES["Оля"] = "citizen"


def _host(tmp_path: Path, ruleset: str, answers: str = "") -> ClockedGame:
    roles = ROLES if ruleset == "classic" else None
    host = clocked_game(tmp_path, PLAYERS, start=START, ruleset=ruleset, roles=roles)
    text = host.path.read_text(encoding="utf-8")
    if answers:
        text += f"\n[answers]\n{answers}\n"
    host.path.write_text(text, encoding="utf-8")
    host.forumgm(START, "game start")
    host.forumgm(START, "run", "--once")  # the opening (and the role PMs)
    return host


def _at(minutes: int) -> datetime:
    return START + timedelta(hours=1, minutes=minutes)


def test_rating_posts_stop_at_the_games_ceiling_per_hour(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    host = _host(tmp_path, "classic", "posts_per_hour = 2")
    host.clock.set(_at(0))
    host.board.pm_as("Коля", [GM], "ход", "голосую за Васю")
    for n, player in enumerate(["Вася", "Петя", "Маша", "Коля", "Оля"]):
        host.clock.set(_at(n))  # five players, each within his own ten minutes
        host.board.pm_as(player, [GM], "рейтинг", "рейтинг")
        host.forumgm(_at(n) + timedelta(seconds=30), "run", "--once")
    assert len([p for p in host.gm_bbcode() if "Рейтинг" in p]) == 2
    assert "not answered: 1 vote_rating" in caplog.text  # the host is told, poll by poll
    # The hour after the first two: room for one more.
    host.clock.set(_at(61))
    host.board.pm_as("Оля", [GM], "рейтинг", "рейтинг, пожалуйста")
    host.forumgm(_at(62), "run", "--once")
    assert len([p for p in host.gm_bbcode() if "Рейтинг" in p]) == 3


def test_an_order_pm_sent_again_at_every_poll_gets_one_receipt(tmp_path: Path) -> None:
    host = _host(tmp_path, "classic")
    for poll in range(4):
        host.clock.set(_at(poll * 15))
        host.board.pm_as("Коля", [GM], "ход", "голосую за Васю")
        host.forumgm(_at(poll * 15 + 1), "run", "--once")
    receipts = [pm for pm in host.inbox("Коля") if "Голос за" in pm and "принят" in pm]
    assert len(receipts) == 1
    # A change, and the change back, are answered: each differs from the one before it.
    host.clock.set(_at(70))
    host.board.pm_as("Коля", [GM], "ход", "голосую за Петю")
    host.forumgm(_at(71), "run", "--once")
    host.clock.set(_at(80))
    host.board.pm_as("Коля", [GM], "ход", "голосую за Васю")
    host.forumgm(_at(81), "run", "--once")
    receipts = [pm for pm in host.inbox("Коля") if "Голос за" in pm and "принят" in pm]
    assert len(receipts) == 3 and "Петю" in receipts[1] and "Васю" in receipts[2]
    # The vote counted throughout: the host's table has it.
    votes = host.forumgm(_at(82), "votes")
    assert "Коля" in votes and "Вася" in votes


def test_votecount_refusals_stop_at_the_games_ceiling(tmp_path: Path) -> None:
    host = _host(tmp_path, "votecount", "refusals_per_hour = 2")
    host.clock.set(_at(0))
    host.board.post_as("Маша", host.thread, "голосую за Васю")
    host.board.post_as("Оля", host.thread, "подсчет голосов")
    host.forumgm(_at(1), "run", "--once")
    assert len(host.gm_bbcode()) == 2  # the opening and the count
    for n in range(5):  # asked again too soon, in other words each time
        host.clock.set(_at(5 + n * 5))
        host.board.post_as("Оля", host.thread, f"подсчет голосов{'!' * (n + 1)}")
        host.forumgm(_at(6 + n * 5), "run", "--once")
    refusals = [pm for pm in host.inbox("Оля") if "подсчёт" in pm.lower() or "подсчет" in pm]
    assert len(refusals) == 2, refusals
    assert len(host.gm_bbcode()) == 2


def test_the_ceilings_are_checked_in_the_game_file(tmp_path: Path) -> None:
    host = clocked_game(tmp_path, PLAYERS, start=START, roles=ROLES)
    text = host.path.read_text(encoding="utf-8")
    host.path.write_text(
        text + "\n[answers]\nposts_per_hour = 0\nreceipts_per_hour = true\nrating = 3\n",
        encoding="utf-8",
    )
    out = host.cli("game", "validate", str(host.path), at=START.isoformat(), db=False, code=1)
    assert "[answers] posts_per_hour: a number of answers per hour from 1 to 10000, got 0" in out
    assert "[answers] receipts_per_hour" in out
    assert "unknown key `rating` in [answers]" in out
