"""`forumgm demo --ruleset twelve-rooms`: a whole game, turn 0 to the end, through the driver."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.app.cli import app
from engine.app.demo import twelve_bots
from engine.app.demo.run import run_demo
from engine.store import open_store


def test_a_whole_game_is_played_and_published(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "twelve.sqlite"
    result = run_demo(1, 10, "ru", db, quiet=False, ruleset="twelve-rooms")
    shown = capsys.readouterr().out
    # The host's view is headed by the game's own turns (turn 0 is the placement, no vote).
    assert "Ход 0 — дедлайн" in shown and "Ход 1 — дедлайн" in shown
    assert "не судить" in shown and "no_lynch" not in shown and "Рейтинг" not in shown
    assert f"Ходов: {result.turns - 1}." in shown and "Победитель: mafia" not in shown
    assert result.winner in ("mafia", "town")
    assert 2 <= result.turns < twelve_bots.MAX_PHASES
    assert result.transcript[0].startswith("[b]Начальное распределение[/b]")
    assert result.transcript[1].startswith("[b]Итоги хода 1[/b]")
    assert "[b]Игра окончена." in result.transcript[-1]
    store = open_store(f"sqlite:///{db}")
    state = store.load_state(1)
    assert state is not None and state.finished and state.winner == result.winner
    assert all(item.status == "posted" for item in store.outbox(1))
    subjects = {item.subject for item in store.outbox(1)}
    assert {"Начальное распределение", "Итоги хода 1"} <= subjects  # turn 0's PMs, turn 1's
    # The bots write their turns as players do: nothing they sent was misread.
    codes = {w.warning.code for ph in store.phases(1) for w in store.parse_warnings(1, ph.phase)}
    assert codes <= {"laughter_violation"}, codes


def test_the_command_names_the_ruleset() -> None:
    result = CliRunner().invoke(app, ["demo", "--ruleset", "twelve rooms"])
    assert result.exit_code == 2 and "twelve-rooms" in result.output
