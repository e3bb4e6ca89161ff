"""Votes posted after a deadline but before the next phase opened (its results waited for the
host) are held for the host, never dropped in silence; the results never say «пока».

A day opens when the previous day's results are published. A vote in the thread between the
deadline and that moment used to be skipped without a word, so a day whose votes all came
early ended with «Голосов пока нет» although players had voted.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from tests.service.helpers import cli_game

MSK = ZoneInfo("Europe/Moscow")
NAMES = ["Вася", "Петя", "Маша", "Коля", "Оля"]


def _at(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 12, day, hour, minute, tzinfo=MSK)


def test_votes_before_the_day_opened_are_held_and_can_be_counted(tmp_path: Path) -> None:
    g = cli_game(tmp_path, NAMES, ruleset="votecount", review="always")
    path = str(g.path)
    g.opened()
    g.board.post_as("Вася", g.thread, "голос за Колю", at=_at(1, 20))
    g.cli("run", path, "--once", at="2026-12-02T19:05+03:00")  # day 1 waits for the host
    g.board.post_as("Маша", g.thread, "голос за Петю", at=_at(2, 19, 30))  # day 2 not open yet
    g.board.post_as("Оля", g.thread, "Голосую за Петю, он молчит", at=_at(2, 19, 40))
    g.cli("review", path, "--approve", at="2026-12-02T20:00+03:00")
    g.cli("run", path, "--once", at="2026-12-02T20:00+03:00")  # day 2 opens now
    g.cli("run", path, "--once", at="2026-12-03T19:05+03:00")  # day 2's deadline
    shown = g.cli("review", path, at="2026-12-03T19:06+03:00")
    late = [line for line in shown.splitlines() if " late " in line]
    assert len(late) == 2 and "Маша 'голос за Петю'" in late[0], shown
    assert not any("Итоги дня 2" in r for r in g.gm_posts())  # held: nothing went out

    olya = late[1].split()[1].lstrip("#")
    g.cli("review", path, "--typed", f"{olya}=голосую за Петю", at="2026-12-03T19:07+03:00")
    masha = late[0].split()[1].lstrip("#")
    g.cli("review", path, "--ignore", masha, "--approve", at="2026-12-03T19:08+03:00")
    g.cli("run", path, "--once", at="2026-12-03T19:09+03:00")
    day2 = next(p for p in g.gm_posts() if "Итоги дня 2" in p)
    assert "Петя — 1 голос (Оля)" in day2 and "пока" not in day2


def test_a_game_whose_deadlines_ran_out_says_so(tmp_path: Path) -> None:
    g = cli_game(tmp_path, NAMES, ruleset="votecount", deadlines="2026-12-02 19:00")
    path = str(g.path)
    checked = g.cli("game", "validate", path, at="2026-12-01T18:00+03:00", db=False)
    assert "the list ends at 2026-12-02 19:00 MSK (1 phase)" in checked
    g.cli("game", "start", path, at="2026-12-01T18:00+03:00")
    g.cli("run", path, "--once", at="2026-12-01T19:01+03:00")  # the opening post
    ran = g.cli("run", path, "--once", at="2026-12-02T19:05+03:00")
    assert "the list of deadlines has run out" in ran
    shown = g.cli("status", at="2026-12-02T19:06+03:00")
    assert "running: no deadlines left" in shown
    assert "game 1: day 1 is published and the game's list of deadlines has run out" in shown
