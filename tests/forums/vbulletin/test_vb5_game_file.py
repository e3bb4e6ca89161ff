"""`engine = "vbulletin5"` in a game file: `game validate` takes a game with PMs, builds a
`Vb5Board` for the thread's node (its number or its address), and refuses what the adapter
does not offer (a login through Chromium, an API key) with its line."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.app.cli import app
from engine.config import parse_config
from engine.service.build import make_board
from forums.vbulletin.vb5board import Vb5Board

GAME = """\
[game]
ruleset = "votecount"
receipts = true

[board]
engine = "vbulletin5"
url = "https://mafia.example.org/"
thread = "{thread}"
gm_user = "Ведущий"
password = "env:FORUMGM_GM_PASSWORD"
{board}
[schedule]
timezone = "Europe/Moscow"
deadlines = "every day 19:00"
start = "2026-11-26 19:00"

[players]
players = ["Вася", "Петя", "Маша", "Коля", "Оля", "Лёха", "Dima"]
"""

runner = CliRunner(env={"FORUMGM_NOW": "2026-11-20T12:00+03:00", "FORUMGM_GM_PASSWORD": "x"})


def validate(tmp_path: Path, board: str = "", thread: str = "727744") -> tuple[int, str]:
    path = tmp_path / "game.toml"
    path.write_text(GAME.format(board=board, thread=thread), encoding="utf-8")
    result = runner.invoke(app, ["game", "validate", str(path)])
    return result.exit_code, result.output


@pytest.mark.parametrize(
    "thread",
    [
        "727744",
        "https://mafia.example.org/forum/games/727744-mafia-xii",
        "https://mafia.example.org/node/727744",
    ],
)
def test_a_game_with_pms_is_taken_on_vbulletin_5(tmp_path: Path, thread: str) -> None:
    code, out = validate(tmp_path, thread=thread)
    assert code == 0 and "OK" in out, out
    config = parse_config((tmp_path / "game.toml").read_text(encoding="utf-8"))
    assert config.engine == "vbulletin5"
    board = make_board(config, {"FORUMGM_GM_PASSWORD": "x"})
    assert isinstance(board, Vb5Board)
    assert board.topic_id(config.thread) == "727744"


@pytest.mark.parametrize("line", ["browser = true\n", 'api_key = "env:FORUMGM_GM_PASSWORD"\n'])
def test_what_the_adapter_does_not_offer_is_refused_with_its_line(
    tmp_path: Path, line: str
) -> None:
    code, out = validate(tmp_path, line)
    assert code == 1, out
    assert line.split(" ")[0] in out, out
