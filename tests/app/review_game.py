"""A classic game on the local board whose turn 1 waits for the host with three warnings.

Shared by the review CLI tests and the dashboard tests: a game file in a temporary folder,
the local board, chosen moments (FORUMGM_NOW) and the CLI's own commands.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from typer.testing import CliRunner, Result

from engine.app.cli import app
from forums.local import LocalBoard
from tests.service.helpers import GM, game_toml, local_board

MSK = ZoneInfo("Europe/Moscow")
NAMES = ["Вася", "Петя", "Маша", "Коля", "Оля"]
ROLES = {"Вася": "commissar", "Петя": "mafioso", "Маша": "doctor", "Коля": "citizen"}
XSS = "<script>alert(1)</script><img src=x onerror=alert(2)>"
AFTER_DEADLINE = "2026-12-02T19:06+03:00"
runner = CliRunner(env={"COLUMNS": "200"})


@dataclass
class ReviewGame:
    path: Path
    db: str
    board: LocalBoard
    thread: str

    def cli(self, *words: str, at: str = AFTER_DEADLINE) -> Result:
        """`forumgm WORDS… --db DB` at the moment `at`."""
        return runner.invoke(app, [*words, "--db", self.db], env={"FORUMGM_NOW": at})

    def thread_texts(self) -> list[str]:
        return [p.body.full_text() for p in self.board.posts_after(self.thread, 0)]


def make_review_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, check: bool = False
) -> ReviewGame:
    """Started, the start approved and published; four PMs (three misread) and the deadline
    passed: turn 1 is resolved and its results wait for the host. With `check` the
    commissar checks Петя too, so the results hold a PM to him besides the post."""
    url = f"sqlite:///{tmp_path / 'board.sqlite'}"
    board, thread = local_board(url, NAMES)
    path = tmp_path / "game.toml"
    path.write_text(
        game_toml(
            url=url,
            thread=thread,
            players=NAMES,
            review="warnings",
            password="env:TEST_GM_PASSWORD",
            start="2026-12-01 19:00",
            roles={**ROLES, "Оля": "citizen"},
        ),
        encoding="utf-8",
    )
    monkeypatch.setenv("TEST_GM_PASSWORD", "gm-secret")
    game = ReviewGame(path, f"sqlite:///{tmp_path / 'store.sqlite'}", board, thread)
    for words, at in (
        (("game", "start", str(path)), "2026-12-01T18:00+03:00"),
        (("review", str(path), "--approve"), "2026-12-01T18:00+03:00"),
        (("run", str(path), "--once"), "2026-12-01T19:01+03:00"),
    ):
        result = game.cli(*words, at=at)
        assert result.exit_code == 0, result.output
    sent = datetime(2026, 12, 1, 20, 0, tzinfo=MSK)
    board.pm_as("Коля", [GM], "ход", "голосую за Петьку", at=sent)  # a nickname's short form
    board.pm_as("Оля", [GM], "ход", "голосую за Ксюшу", at=sent)  # nobody of that name
    board.pm_as("Маша", [GM], "ход", "лечу Васю", at=sent)
    board.pm_as("Вася", [GM], "ход", f"голосую за {XSS}", at=sent)  # a hostile player
    if check:
        board.pm_as("Вася", [GM], "проверка", "проверяю Петю", at=sent)
    for at in ("2026-12-01T21:00+03:00", "2026-12-02T19:01+03:00"):
        result = game.cli("run", str(path), "--once", at=at)
        assert result.exit_code == 0, result.output
    assert "results wait for the host (3 warnings)" in result.output
    return game


@pytest.fixture
def review_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ReviewGame:
    return make_review_game(tmp_path, monkeypatch)
