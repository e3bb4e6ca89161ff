"""The chosen clock (`FORUMGM_NOW`): the CLI runs a game as if it were a given moment."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.app.cli import app
from engine.clock import ClockError, ShiftedClock, game_clock, parse_now, utc_now
from tests.app.rehearsal import PLAYERS, ROLES
from tests.service.helpers import game_toml, local_board

NAMES = list(PLAYERS)


def test_the_chosen_clock_starts_at_the_moment_and_runs_on() -> None:
    ticks = iter([100.0, 100.0, 160.5])
    clock = ShiftedClock(parse_now("2026-12-01T18:55+03:00"), monotonic=lambda: next(ticks))
    assert clock() == datetime(2026, 12, 1, 15, 55, tzinfo=UTC)
    assert clock() == datetime(2026, 12, 1, 15, 56, 0, 500000, tzinfo=UTC)
    assert game_clock({}) is utc_now
    assert isinstance(game_clock({"FORUMGM_NOW": "2026-12-01T15:55Z"}), ShiftedClock)


@pytest.mark.parametrize("text", ["tomorrow", "2026-12-01 18:55"])
def test_a_bad_moment_is_refused(text: str) -> None:
    with pytest.raises(ClockError, match="FORUMGM_NOW"):
        game_clock({"FORUMGM_NOW": text})


def test_the_cli_runs_a_game_at_the_chosen_moments(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'board.sqlite'}"
    board, thread = local_board(url, NAMES)
    path = tmp_path / "game.toml"
    path.write_text(
        game_toml(
            url=url,
            thread=thread,
            players=NAMES,
            roles=ROLES,
            password="env:TEST_GM_PASSWORD",
            start="2026-12-01 19:00",
            deadlines="every day 19:00",
        ),
        encoding="utf-8",
    )
    db = f"sqlite:///{tmp_path / 'store.sqlite'}"
    runner = CliRunner(env={"TEST_GM_PASSWORD": "gm-secret", "COLUMNS": "200"})

    def forumgm(now: str, *args: str) -> str:
        result = runner.invoke(app, [*args, "--db", db], env={"FORUMGM_NOW": now})
        assert result.exit_code == 0, result.output
        return result.output

    forumgm("2026-12-01T18:00+03:00", "game", "start", str(path))
    out = forumgm("2026-12-01T19:05+03:00", "run", str(path), "--once")
    assert "turn 1: open until 2026-12-02 19:00 MSK" in out
    opening = board.posts_after(thread, 0)
    assert len(opening) == 1 and _near(
        opening[0].posted_at, datetime(2026, 12, 1, 16, 5, tzinfo=UTC)
    )
    at = datetime(2026, 12, 2, 10, tzinfo=UTC)
    board.pm_as("Коля", ["Ведущий"], "ход", "голосую за Васю", at=at)
    out = forumgm("2026-12-02T19:01+03:00", "run", str(path), "--once")
    assert "turn 2: open until 2026-12-03 19:00 MSK" in out
    results = board.posts_after(thread, 1)[0]
    assert "Итоги хода 1" in results.body.full_text() and "Вася" in results.body.full_text()
    assert _near(results.posted_at, datetime(2026, 12, 2, 16, 1, tzinfo=UTC))


def _near(when: datetime, expected: datetime) -> bool:
    return timedelta(0) <= when - expected < timedelta(seconds=30)


def test_a_bad_clock_is_one_line_on_the_cli(tmp_path: Path) -> None:
    path = tmp_path / "game.toml"
    path.write_text(game_toml(url="sqlite://", thread="1", players=NAMES, roles=ROLES))
    result = CliRunner().invoke(
        app,
        ["run", str(path), "--once", "--db", f"sqlite:///{tmp_path / 's.sqlite'}"],
        env={"FORUMGM_NOW": "soon", "UNUSED": "x"},
    )
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "FORUMGM_NOW='soon' is not a date and time; write e.g. 2026-12-01T18:55+03:00"
    ]


def _near(when: datetime, expected: datetime) -> bool:
    return timedelta(0) <= when - expected < timedelta(seconds=30)
