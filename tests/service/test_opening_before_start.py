"""Issue 24 §10: a game approved an hour before its start posted «Ход 1 начался» at once.
The opening post says when the game starts; approved after the start, it says it has begun."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.app.cli import app
from tests.service.helpers import GM, game_toml, local_board

runner = CliRunner(env={"COLUMNS": "200", "TEST_GM_PASSWORD": "gm-secret"})
PLAYERS = ["Вася", "Петя", "Маша", "Коля", "Оля"]
ROLES = {"Вася": "commissar", "Петя": "mafioso", "Маша": "doctor", "Коля": "citizen"}


def _opening(tmp_path: Path, ruleset: str, at: str) -> str:
    url = f"sqlite:///{tmp_path / 'board.sqlite'}"
    board, thread = local_board(url, PLAYERS, title="Мафия")
    path = tmp_path / "game.toml"
    roles = {**ROLES, "Оля": "citizen"} if ruleset == "classic" else None
    text = game_toml(
        url=url,
        thread=thread,
        players=PLAYERS,
        ruleset=ruleset,
        review="warnings",
        password="env:TEST_GM_PASSWORD",
        roles=roles,
    )
    path.write_text(text, encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'store.sqlite'}"
    for words in (("game", "start", str(path)), ("review", str(path), "--approve")):
        result = runner.invoke(app, [*words, "--db", db], env={"FORUMGM_NOW": at})
        assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["run", str(path), "--once", "--db", db], env={"FORUMGM_NOW": at})
    assert result.exit_code == 0, result.output

    async def read() -> list[str]:
        posts = (await board.thread_posts(thread)).items
        return [p.raw or "" for p in posts if p.author == GM]

    [opening] = asyncio.run(read())
    return opening


@pytest.mark.parametrize(
    ("ruleset", "before", "after"),
    [
        ("classic", "Ход 1 начинается [b]01.12.2026 19:00", "Ход 1 начался."),
        ("votecount", "Игра начинается [b]01.12.2026 19:00", None),
    ],
)
def test_the_opening_post_says_when_the_game_starts(
    tmp_path: Path, ruleset: str, before: str, after: str | None
) -> None:
    early = _opening(tmp_path / "early", ruleset, "2026-12-01T18:00+03:00")
    assert before in early, early
    assert "начался" not in early
    late = _opening(tmp_path / "late", ruleset, "2026-12-01T19:05+03:00")
    assert before not in late, late
    if after is not None:
        assert after in late, late
