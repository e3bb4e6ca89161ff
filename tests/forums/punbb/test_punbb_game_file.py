"""`engine = "punbb"` in a game file: PunBB's core has no private messages, so `game
validate` takes only a game played in the open thread (`votecount`), and refuses anything
else in the line it uses for FluxBB, in English and in Russian."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.app.board_cmd import engine_notes
from engine.app.cli import app
from engine.config import parse_config
from engine.i18n import use
from engine.service.build import make_board
from forums.punbb import PunbbBoard

GAME = """\
[game]
ruleset = "{ruleset}"
{game}
[board]
engine = "punbb"
url = "https://mafia.example.org/forum/"
thread = "https://mafia.example.org/forum/viewtopic.php?id=2"
gm_user = "Ведущий"
password = "env:FORUMGM_GM_PASSWORD"
{board}
[schedule]
timezone = "Europe/Moscow"
deadlines = ["2026-11-27 22:00"]
start = "2026-11-26 19:00"

[players]
players = ["Вася", "Петя", "Маша", "Коля", "Оля", "Лёха", "Dima"]
{more}"""

ENV = {"FORUMGM_NOW": "2026-11-20T12:00+03:00", "FORUMGM_GM_PASSWORD": "x"}


def validate(
    tmp_path: Path, ruleset: str = "votecount", game: str = "", more: str = "", **extra: str
) -> str:
    path = tmp_path / "game.toml"
    text = GAME.format(ruleset=ruleset, game=game, more=more, board=extra.get("board", ""))
    path.write_text(text, encoding="utf-8")
    env = dict(ENV, FORUMGM_LANG=extra.get("lang", "en"))
    result = CliRunner(env=env).invoke(app, ["game", "validate", str(path)])
    assert result.exit_code == (0 if "OK" in result.output else 1), result.output
    return result.output


def test_a_votecount_game_in_the_thread_is_taken_with_receipts_off(tmp_path: Path) -> None:
    assert "OK" in validate(tmp_path)
    config = parse_config((tmp_path / "game.toml").read_text(encoding="utf-8"))
    assert config.engine == "punbb" and config.receipts is False  # receipts are PMs
    board = make_board(config, {"FORUMGM_GM_PASSWORD": "x"})
    assert isinstance(board, PunbbBoard) and board.private_messages is False


@pytest.mark.parametrize(
    ("ruleset", "options", "why"),
    [
        ("classic", "[deal]\nmafia = 2\ndoctor = 1\n", "it deals secret roles"),
        ("votecount", '[options]\nvote_channel = "pm"\n', 'vote_channel = "pm" takes votes'),
    ],
)
def test_what_needs_private_messages_is_refused_with_the_reason(
    tmp_path: Path, ruleset: str, options: str, why: str
) -> None:
    said = validate(tmp_path, ruleset, more=options)
    assert f"line 2: [game] ruleset '{ruleset}' cannot run on punbb: PunBB has no " in said
    assert why in said, said


def test_hosts_notices_by_pm_are_refused_in_russian_too(tmp_path: Path) -> None:
    said = validate(tmp_path, game='hosts = ["Хост"]', lang="ru")
    assert "в PunBB нет личных сообщений" in said, said


def test_set_date_format_says_why_it_changes_nothing_on_punbb(tmp_path: Path) -> None:
    said = validate(tmp_path, board="set_date_format = true").replace("\n", " ")
    assert "OK" in said
    assert "reads the PunBB GM's own zone and date format from his settings" in said


def test_board_check_tells_the_host_of_the_flood_interval_and_the_missing_pms() -> None:
    flood, pms = engine_notes("punbb")
    assert "«Post flood interval»" in flood and "Users → Groups → Members" in flood
    assert "pun_pm" in pms and "votecount with thread votes" in pms
    with use("ru"):
        flood, pms = engine_notes("punbb")
    assert "«Интервал между сообщениями»" in flood and "В PunBB нет личных сообщений" in pms
