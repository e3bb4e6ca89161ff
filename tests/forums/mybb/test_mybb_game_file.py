"""`engine = "mybb"` in a game file, as a host writes and checks one with the CLI."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from engine.app.cli import app
from engine.config import BOARD_ENGINES, parse_config
from engine.service.build import make_board
from forums.mybb import MybbBoard

GAME = """\
[game]
ruleset = "votecount"
title = "Мафия #7: Город в тумане"

[board]
engine = "{engine}"
url = "https://mafia.example.org/forum/"
thread = "1"
gm_user = "Ведущий"
password = "env:FORUMGM_GM_PASSWORD"

[schedule]
timezone = "Europe/Moscow"
deadlines = ["2026-11-27 22:00"]
start = "2026-11-26 19:00"

[players]
players = ["Вася", "вася2", "Лёха"]
"""

runner = CliRunner(env={"FORUMGM_NOW": "2026-11-20T12:00+03:00"})  # before the start


def test_game_validate_takes_mybb_and_names_the_engines_for_a_typo(tmp_path: Path) -> None:
    good = tmp_path / "game.toml"
    good.write_text(GAME.format(engine="mybb"), encoding="utf-8")
    result = runner.invoke(app, ["game", "validate", str(good)])
    assert result.exit_code == 0, result.output
    assert "OK" in result.output and "3 players" in result.output
    bad = tmp_path / "bad.toml"
    bad.write_text(GAME.format(engine="mybbb"), encoding="utf-8")
    result = runner.invoke(app, ["game", "validate", str(bad)])
    assert result.exit_code == 1
    assert f"line 6: [board] engine: one of {', '.join(BOARD_ENGINES)}" in result.output
    assert "'mybbb'" in result.output


def test_game_new_offers_mybb(tmp_path: Path) -> None:
    path = tmp_path / "new.toml"
    answers = [
        "ru",
        "votecount",
        "Мафия #8",
        "mybb",
        "https://mafia.example.org/forum/",
        "1",
        "Ведущий",
        "GM_PW",
        "Europe/Moscow",
        "every day 19:00",
        "2026-12-01 19:00",
        "Вася, Петя, Маша",
        "3",  # votecount deals no roles: no question about them
        "warnings",
    ]
    result = runner.invoke(app, ["game", "new", str(path)], input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    assert f"Board engine ({', '.join(BOARD_ENGINES)}" in result.output
    assert "It is valid." in result.output
    assert 'engine = "mybb"' in path.read_text(encoding="utf-8")


def test_browser_true_and_an_api_key_in_a_mybb_game_file(tmp_path: Path) -> None:
    # MyBB logs in through the browser when asked; it has no REST API forumgm uses.
    browser = GAME.replace('password = "env:FORUMGM_GM_PASSWORD"\n', "").replace(
        'gm_user = "Ведущий"\n', 'gm_user = "Ведущий"\npassword = "env:GM_PW"\nbrowser = true\n'
    )
    path = tmp_path / "browser.toml"
    path.write_text(browser.format(engine="mybb"), encoding="utf-8")
    result = runner.invoke(app, ["game", "validate", str(path)])
    assert result.exit_code == 0, result.output
    board = make_board(parse_config(browser.format(engine="mybb")), {"GM_PW": "pw"})
    assert isinstance(board, MybbBoard) and board.browser
    keyed = tmp_path / "key.toml"
    keyed.write_text(
        GAME.format(engine="mybb").replace("[schedule]", 'api_key = "env:KEY"\n\n[schedule]'),
        encoding="utf-8",
    )
    result = runner.invoke(app, ["game", "validate", str(keyed)])
    assert result.exit_code == 1 and "api_key: the mybb board has no API" in result.output
