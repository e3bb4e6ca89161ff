"""`engine = "fluxbb"` in a game file: FluxBB has no private messages, so `game validate`
(and `game start`, which reads the file the same way) takes only a game played in the
open thread, and says why it refuses anything else."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.app.cli import app
from engine.config import parse_config
from engine.service.build import make_board
from forums.fluxbb import FluxbbBoard

GAME = """\
[game]
ruleset = "{ruleset}"
{game}
[board]
engine = "fluxbb"
url = "https://mafia.example.org/forum/"
thread = "2"
gm_user = "Ведущий"
password = "env:FORUMGM_GM_PASSWORD"

[schedule]
timezone = "Europe/Moscow"
deadlines = ["2026-11-27 22:00"]
start = "2026-11-26 19:00"

[players]
players = ["Вася", "Петя", "Маша", "Коля", "Оля", "Лёха", "Dima"]
{more}"""

runner = CliRunner(env={"FORUMGM_NOW": "2026-11-20T12:00+03:00", "FORUMGM_GM_PASSWORD": "x"})


def validate(tmp_path: Path, ruleset: str = "votecount", game: str = "", more: str = "") -> str:
    path = tmp_path / "game.toml"
    path.write_text(GAME.format(ruleset=ruleset, game=game, more=more), encoding="utf-8")
    result = runner.invoke(app, ["game", "validate", str(path)])
    assert result.exit_code == (0 if "OK" in result.output else 1), result.output
    return result.output


def test_a_votecount_game_in_the_thread_is_taken_with_receipts_off(tmp_path: Path) -> None:
    assert "OK" in validate(tmp_path)
    config = parse_config((tmp_path / "game.toml").read_text(encoding="utf-8"))
    assert config.engine == "fluxbb" and config.receipts is False  # receipts are PMs
    board = make_board(config, {"FORUMGM_GM_PASSWORD": "x"})
    assert isinstance(board, FluxbbBoard) and board.private_messages is False


@pytest.mark.parametrize(
    ("ruleset", "options", "why"),
    [
        ("classic", "[deal]\nmafia = 2\ndoctor = 1\n", "it deals secret roles"),
        ("yakuza", "", "it deals secret roles"),
        ("votecount", '[options]\nvote_channel = "pm"\n', 'vote_channel = "pm" takes votes'),
        ("votecount", '[options]\nvote_channel = "both"\n', 'vote_channel = "both"'),
    ],
)
def test_what_needs_private_messages_is_refused_with_the_reason(
    tmp_path: Path, ruleset: str, options: str, why: str
) -> None:
    said = validate(tmp_path, ruleset, more=options)
    assert f"line 2: [game] ruleset '{ruleset}' cannot run on fluxbb: FluxBB has no " in said
    assert why in said, said


@pytest.mark.parametrize(
    ("game", "more", "line"),
    [
        ("receipts = true", "", "line 3: [game] receipts: FluxBB has no private messages"),
        ('hosts = ["Хост"]', "", "line 3: [game] hosts: FluxBB has no private messages"),
        ("", "[activity]\nmin_posts = 2\nprod = true\n", "[activity] prod and substitute"),
    ],
)
def test_what_would_send_a_pm_is_refused(tmp_path: Path, game: str, more: str, line: str) -> None:
    said = validate(tmp_path, game=game, more=more)
    assert line in said, said


def test_a_thread_votecount_game_may_say_receipts_false(tmp_path: Path) -> None:
    assert "OK" in validate(tmp_path, game="receipts = false")


def test_set_date_format_says_why_it_changes_nothing_on_fluxbb(tmp_path: Path) -> None:
    said = validate(tmp_path, more="").replace("\n", " ")
    assert "OK" in said
    path = tmp_path / "game.toml"
    text = path.read_text(encoding="utf-8").replace(
        'engine = "fluxbb"', 'engine = "fluxbb"\nset_date_format = true'
    )
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["game", "validate", str(path)])
    assert result.exit_code == 0, result.output
    assert "reads the FluxBB GM's own zone and date format from his" in result.output
