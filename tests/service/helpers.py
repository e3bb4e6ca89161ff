"""What the service tests share: a local board with the players on it, and a game file."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from engine.store import Store
from forums.local import LocalBoard, ManualClock

GM = "Ведущий"
GM_PASSWORD = "gm-secret"


def local_board(
    url: str,
    players: Sequence[str],
    *,
    clock: Callable[[], datetime] | None = None,
    gm: str = GM,
    gm_password: str = GM_PASSWORD,
    title: str = "Мафия",
    edits_without_notice: bool = False,
) -> tuple[LocalBoard, str]:
    """A fresh local board with the GM and the players, and the game thread's id
    (`edits_without_notice`: it edits as phpBB can, see `LocalForum.edits_without_notice`)."""
    board = LocalBoard(url, gm, gm_password, clock=clock, edits_without_notice=edits_without_notice)
    board.create_schema()
    board.add_user(gm, gm_password)
    for name in players:
        board.add_user(name, "pw")
    return board, board.create_thread(title, gm)


def game_toml(
    *,
    url: str,
    thread: str,
    players: Sequence[str],
    ruleset: str = "classic",
    seed: int = 3,
    review: str = "auto",
    gm: str = GM,
    password: str = "env:UNUSED",
    deadlines: str = "every day 19:00",
    start: str = "2026-12-01 19:00",
    roles: Mapping[str, str] | None = None,
    deal: Mapping[str, int] | None = None,
    game_extra: str = "",
) -> str:
    """A game file for a local-board game; `roles` or `deal` give the roles, if any."""
    names = ", ".join(f'"{n}"' for n in players)
    text = f"""[game]
ruleset = "{ruleset}"
seed = {seed}
review = "{review}"
{game_extra}
[board]
engine = "local"
url = "{url}"
thread = "{thread}"
gm_user = "{gm}"
password = "{password}"
[schedule]
timezone = "Europe/Moscow"
deadlines = "{deadlines}"
start = "{start}"
[players]
players = [{names}]
"""
    if roles:
        text += "[roles]\n" + "".join(f'"{n}" = "{r}"\n' for n, r in roles.items())
    if deal:
        text += "[deal]\n" + "".join(f"{r} = {c}\n" for r, c in deal.items())
    return text


def start_went_out(store: Store, game_id: int, at: datetime) -> None:
    """Record the game's start (opening post, role PMs) as sent at `at`, as an earlier `run`
    would have; for tests over a saved board that takes no posts. The service resolves no
    phase whose opening post is not on the board."""
    store.approve(game_id, None)
    for item in store.outbox(game_id):
        if item.phase_id is None:
            store.mark_sending(item.marker, at)
            store.mark_posted(item.marker, f"sent-before-{item.id}")


PASSWORD_ENV = "TEST_GM_PASSWORD"


@dataclass
class CliGame:
    """A game as a host runs it: its file in a folder, the local board, a store, the CLI."""

    path: Path
    db: str
    board: LocalBoard
    thread: str

    def cli(
        self, *words: str, at: str, code: int = 0, db: bool = True, password: str = GM_PASSWORD
    ) -> str:
        """`forumgm WORDS… [--db DB]` at the moment `at` (FORUMGM_NOW); the exit code checked."""
        env = {"FORUMGM_NOW": at, PASSWORD_ENV: password, "COLUMNS": "250"}
        args = [*words, "--db", self.db] if db else list(words)
        result = CliRunner().invoke(cli_app(), args, env=env)
        assert result.exit_code == code, result.output
        return result.output

    def opened(self) -> None:
        """The host starts the game and approves its start at 18:00 on 1 December; `run
        --once` at 19:01 puts the opening post (and any role PMs) on the board."""
        self.cli("game", "start", str(self.path), at="2026-12-01T18:00+03:00")
        self.cli("review", str(self.path), "--approve", at="2026-12-01T18:00+03:00")
        self.cli("run", str(self.path), "--once", at="2026-12-01T19:01+03:00")

    def gm_posts(self, containing: str = "") -> list[str]:
        """The text of each of the GM's posts in the thread (those with `containing` in it)."""
        texts = [
            p.body.full_text() for p in self.board.posts_after(self.thread, 0) if p.author == GM
        ]
        return [text for text in texts if containing in text]


@dataclass
class ClockedGame(CliGame):
    """A `CliGame` on a board whose clock the test sets (what players send is dated by it),
    run by a host at chosen moments."""

    clock: ManualClock

    def forumgm(self, at: datetime, command: str, *args: str, game: bool = True) -> str:
        """`forumgm COMMAND [GAME-FILE] ARGS… --db STORE` at the moment `at`."""
        words = [*command.split(), *([str(self.path)] if game else []), *args]
        return self.cli(*words, at=at.isoformat())

    def pm(self, at: datetime, sender: str, text: str) -> None:
        """`sender` sends the GM `text` (subject «ход») at `at`."""
        self.clock.set(at)
        self.board.pm_as(sender, [GM], "ход", text)

    def gm_bbcode(self) -> list[str]:
        """The BBCode of each of the GM's posts in the thread."""
        return [p.raw or "" for p in self.board.posts_after(self.thread, 0) if p.author == GM]

    def inbox(self, player: str) -> list[str]:
        """The BBCode of each PM in `player`'s inbox."""
        board = LocalBoard(self.board.db, player, "pw")
        return [m.raw or "" for m in asyncio.run(board.inbox()).items]


def cli_app() -> Any:
    from engine.app.cli import app

    return app


def cli_game(
    tmp_path: Path, players: Sequence[str], *, others: Sequence[str] = (), **game: Any
) -> CliGame:
    """A local board with the GM, `players` and `others`, and a game file over it
    (`game_toml`'s keywords; the GM password from TEST_GM_PASSWORD)."""
    return CliGame(*_cli_game(tmp_path, players, others, None, game))


def clocked_game(
    tmp_path: Path,
    players: Sequence[str],
    *,
    start: datetime,
    others: Sequence[str] = (),
    **game: Any,
) -> ClockedGame:
    """`cli_game` on a board whose clock starts at `start` and moves only when told."""
    clock = ManualClock(start)
    return ClockedGame(*_cli_game(tmp_path, players, others, clock, game), clock)


def _cli_game(
    tmp_path: Path,
    players: Sequence[str],
    others: Sequence[str],
    clock: ManualClock | None,
    game: dict[str, Any],
) -> tuple[Path, str, LocalBoard, str]:
    url = f"sqlite:///{tmp_path / 'board.sqlite'}"
    board, thread = local_board(url, [*players, *others], clock=clock)
    path = tmp_path / "game.toml"
    text = game_toml(
        url=url, thread=thread, players=players, password=f"env:{PASSWORD_ENV}", **game
    )
    path.write_text(text, encoding="utf-8")
    return path, f"sqlite:///{tmp_path / 'store.sqlite'}", board, thread
