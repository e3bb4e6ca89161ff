"""`engine = "smf"` in a game file: `game validate` takes a game with PMs (receipts: SMF has
personal messages), builds an `SmfBoard` (the zone to be read from the GM's profile), warns
that `set_date_format` changes nothing there, and refuses what SMF's
adapter does not offer (a login through Chromium) with its line."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from engine.app.cli import app
from engine.config import parse_config
from engine.service.build import make_board
from forums.smf import SmfBoard

GAME = """\
[game]
ruleset = "votecount"
receipts = true

[board]
engine = "smf"
url = "https://mafia.example.org/forum/"
thread = "https://mafia.example.org/forum/index.php?topic=12.0"
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


def validate(tmp_path: Path, board: str = "") -> tuple[int, str]:
    path = tmp_path / "game.toml"
    path.write_text(GAME.format(board=board), encoding="utf-8")
    result = runner.invoke(app, ["game", "validate", str(path)])
    return result.exit_code, result.output


def test_a_game_with_pms_is_taken_on_smf(tmp_path: Path) -> None:
    code, out = validate(tmp_path, "set_date_format = true\n")
    assert code == 0 and "OK" in out, out
    assert "set_date_format: forumgm reads the SMF GM's times in whatever format" in out, out
    config = parse_config((tmp_path / "game.toml").read_text(encoding="utf-8"))
    assert config.engine == "smf" and config.receipts is True
    board = make_board(config, {"FORUMGM_GM_PASSWORD": "x"})
    assert isinstance(board, SmfBoard) and board.tz is None  # read from the GM's profile
    assert board.topic_id(config.thread) == "12"


def test_a_browser_login_is_refused_on_smf_with_its_reason(tmp_path: Path) -> None:
    code, out = validate(tmp_path, "browser = true\n")
    assert code == 1, out
    assert "browser" in out and "only mybb, phpbb, xenforo" in out, out
