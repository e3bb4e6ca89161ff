"""A host's rehearsal as the tests drive it: a game file in a temporary folder, its local
board made by `forumgm board local init`, the store beside it, and every command run
through the CLI at a chosen moment (`FORUMGM_NOW`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from typer.testing import CliRunner

from engine.app.cli import app
from tests.service.helpers import GM, GM_PASSWORD, game_toml

PLAYERS = ("Вася", "Петя", "Маша", "Коля", "Оля")
ROLES = {
    "Вася": "commissar",
    "Петя": "mafioso",
    "Маша": "doctor",
    "Коля": "citizen",
    "Оля": "citizen",
}
PASSWORD_ENV = "REHEARSAL_GM_PASSWORD"


@dataclass
class Rehearsal:
    folder: Path
    players: Sequence[str] = PLAYERS
    roles: Mapping[str, str] = field(default_factory=lambda: dict(ROLES))
    review: str = "warnings"
    start: str = "2026-12-01 19:00"
    deadlines: str = "every day 19:00"

    def __post_init__(self) -> None:
        self.game = self.folder / "game.toml"
        self.db = str(self.folder / "store.sqlite")
        self.board_url = f"sqlite:///{self.folder / 'board.sqlite'}"
        self.game.write_text(
            game_toml(
                url=self.board_url,
                thread="1",
                players=self.players,
                roles=self.roles,
                review=self.review,
                password=f"env:{PASSWORD_ENV}",
                start=self.start,
                deadlines=self.deadlines,
            ),
            encoding="utf-8",
        )
        self.runner = CliRunner(env={PASSWORD_ENV: GM_PASSWORD, "COLUMNS": "200"})

    def __call__(self, at: str, *args: str, code: int = 0) -> str:
        """`forumgm ARGS` at the moment `at` ("2026-12-01T18:55+03:00"); its output."""
        words = [str(self.game) if a == "GAME" else a for a in args]
        result = self.runner.invoke(app, words, env={"FORUMGM_NOW": at})
        assert result.exit_code == code, result.output
        return result.output

    def host(self, at: str, command: str, *args: str, code: int = 0) -> str:
        """A store command on the game: `forumgm COMMAND GAME ARGS --db STORE`."""
        words = command.split()
        return self(at, *words, "GAME", *args, "--db", self.db, code=code)

    def pm(self, at: str, player: str, text: str) -> str:
        return self(at, "board", "local", "pm", "GAME", "--as", player, text)

    def post(self, at: str, player: str, text: str) -> str:
        return self(at, "board", "local", "post", "GAME", "--as", player, text)

    def thread(self) -> str:
        """The game thread as the players see it."""
        return self("2026-12-01T00:00+03:00", "board", "local", "show", "GAME")

    def inbox(self, player: str) -> str:
        return self("2026-12-01T00:00+03:00", "board", "local", "show", "GAME", "--inbox", player)

    def gm_posts(self) -> int:
        return self.thread().count(f" {GM} at ")
