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

from typer.testing import CliRunner

from engine.app.cli import app
from tests.service.helpers import GM, game_toml, local_board

MSK = ZoneInfo("Europe/Moscow")
NAMES = ["Вася", "Петя", "Маша", "Коля", "Оля"]
runner = CliRunner(env={"COLUMNS": "200", "TEST_GM_PASSWORD": "gm-secret"})


def test_votes_before_the_day_opened_are_held_and_can_be_counted(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'board.sqlite'}"
    board, thread = local_board(url, NAMES)
    path = tmp_path / "game.toml"
    text = game_toml(
        url=url,
        thread=thread,
        players=NAMES,
        ruleset="votecount",
        review="always",
        password="env:TEST_GM_PASSWORD",
        deadlines="every day 19:00",
    )
    path.write_text(text, encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'store.sqlite'}"

    def cli(*words: str, at: str) -> str:
        result = runner.invoke(app, [*words, "--db", db], env={"FORUMGM_NOW": at})
        assert result.exit_code == 0, result.output
        return result.output

    def at(day: int, hour: int, minute: int = 0) -> datetime:
        return datetime(2026, 12, day, hour, minute, tzinfo=MSK)

    cli("game", "start", str(path), at="2026-12-01T18:00+03:00")
    cli("review", str(path), "--approve", at="2026-12-01T18:00+03:00")
    cli("run", str(path), "--once", at="2026-12-01T19:01+03:00")
    board.post_as("Вася", thread, "голос за Колю", at=at(1, 20))
    cli("run", str(path), "--once", at="2026-12-02T19:05+03:00")  # day 1 waits for the host
    board.post_as("Маша", thread, "голос за Петю", at=at(2, 19, 30))  # day 2 is not open yet
    board.post_as("Оля", thread, "Голосую за Петю, он молчит", at=at(2, 19, 40))
    cli("review", str(path), "--approve", at="2026-12-02T20:00+03:00")
    cli("run", str(path), "--once", at="2026-12-02T20:00+03:00")  # day 2 opens now
    cli("run", str(path), "--once", at="2026-12-03T19:05+03:00")  # day 2's deadline
    shown = cli("review", str(path), at="2026-12-03T19:06+03:00")
    late = [line for line in shown.splitlines() if " late " in line]
    assert len(late) == 2 and "Маша 'голос за Петю'" in late[0], shown
    results = [p.body.full_text() for p in board.posts_after(thread, 0) if p.author == GM]
    assert not any("Итоги дня 2" in r for r in results)  # held: nothing went out

    olya = late[1].split()[1].lstrip("#")
    cli("review", str(path), "--typed", f"{olya}=голосую за Петю", at="2026-12-03T19:07+03:00")
    masha = late[0].split()[1].lstrip("#")
    cli("review", str(path), "--ignore", masha, "--approve", at="2026-12-03T19:08+03:00")
    cli("run", str(path), "--once", at="2026-12-03T19:09+03:00")
    day2 = next(
        p.body.full_text()
        for p in board.posts_after(thread, 0)
        if "Итоги дня 2" in p.body.full_text()
    )
    assert "Петя — 1 голос (Оля)" in day2 and "пока" not in day2


def test_a_game_whose_deadlines_ran_out_says_so(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'board.sqlite'}"
    _board, thread = local_board(url, NAMES)
    path = tmp_path / "game.toml"
    text = game_toml(
        url=url,
        thread=thread,
        players=NAMES,
        ruleset="votecount",
        password="env:TEST_GM_PASSWORD",
        deadlines="2026-12-02 19:00",
    )
    path.write_text(text, encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'store.sqlite'}"
    env = {"FORUMGM_NOW": "2026-12-01T18:00+03:00"}
    checked = runner.invoke(app, ["game", "validate", str(path)], env=env)
    assert checked.exit_code == 0
    assert "the list ends at 2026-12-02 19:00 MSK (1 phase(s))" in checked.output
    runner.invoke(app, ["game", "start", str(path), "--db", db], env=env)
    ran = runner.invoke(
        app, ["run", str(path), "--db", db, "--once"], env={"FORUMGM_NOW": "2026-12-02T19:05+03:00"}
    )
    assert "the list of deadlines has run out" in ran.output, ran.output
    shown = runner.invoke(
        app, ["status", "--db", db], env={"FORUMGM_NOW": "2026-12-02T19:06+03:00"}
    )
    assert "running: no deadlines left" in shown.output
    assert "game 1: day 1 is published and the game's list of deadlines has run out" in shown.output
