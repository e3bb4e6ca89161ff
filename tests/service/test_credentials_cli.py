"""Issue 10 §3 as a host meets it: http:// boards need consent, the store is private.

Through the CLI with a game file in a temporary folder: a plain http:// board is refused by
`game validate` and `board check` unless the host allows it, and the SQLite store (with the
marker keys) and the local board's file are created readable by their owner only.
"""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.app.cli import app
from tests.service.helpers import game_toml, local_board

runner = CliRunner(
    env={"COLUMNS": "200", "FORUMGM_NOW": "2026-11-30T12:00+03:00"}
)  # before the start
PLAYERS = ["Вася", "Петя", "Маша", "Коля", "Оля"]
ROLES = {"Вася": "commissar", "Петя": "mafioso", "Маша": "doctor", "Коля": "citizen"}


def _web_game(tmp_path: Path, url: str, extra: str = "") -> Path:
    text = game_toml(url=url, thread="2", players=PLAYERS, roles={**ROLES, "Оля": "citizen"})
    text = text.replace('engine = "local"', 'engine = "phpbb"')
    text = text.replace(f'url = "{url}"', f'url = "{url}"\n{extra}')
    path = tmp_path / "game.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_an_http_board_is_refused_unless_the_host_allows_it(tmp_path: Path) -> None:
    path = _web_game(tmp_path, "http://forum.example/")
    result = runner.invoke(app, ["game", "validate", str(path)])
    assert result.exit_code == 1
    assert "unencrypted" in result.output and "allow_insecure_http = true" in result.output
    path = _web_game(tmp_path, "http://forum.example/", "allow_insecure_http = true")
    result = runner.invoke(app, ["game", "validate", str(path)])
    assert result.exit_code == 0 and "travel unencrypted" in result.output  # the host is warned
    secure = _web_game(tmp_path, "https://forum.example/")
    assert runner.invoke(app, ["game", "validate", str(secure)]).exit_code == 0


def test_board_check_refuses_http_before_any_request(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FORUMGM_GM_PASSWORD", "pw")
    args = ["board", "check", "--url", "http://forum.example/", "--user", "GM", "--thread", "2"]
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and "--allow-insecure-http" in result.output


def test_the_store_and_the_local_board_are_private_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    board_file, store_file = tmp_path / "board.sqlite", tmp_path / "store.sqlite"
    _board, thread = local_board(f"sqlite:///{board_file}", PLAYERS)
    path = tmp_path / "game.toml"
    text = game_toml(url=f"sqlite:///{board_file}", thread=thread, players=PLAYERS, roles=ROLES)
    path.write_text(text.replace("[roles]", '[roles]\n"Оля" = "citizen"'), encoding="utf-8")
    monkeypatch.setenv("UNUSED", "gm-secret")
    result = runner.invoke(app, ["game", "start", str(path), "--db", f"sqlite:///{store_file}"])
    assert result.exit_code == 0, result.output
    for created in (board_file, store_file):
        assert stat.S_IMODE(created.stat().st_mode) == 0o600, created


def test_the_log_file_is_private_too_after_each_rotation(tmp_path: Path) -> None:
    """Issue 22, item 6: `--log-file` holds the text of players' PMs; it was created 0644."""
    import logging.handlers
    import os

    from engine.app.logs import file_handler
    from tests.app.rehearsal import Rehearsal

    was = os.umask(0o022)  # a usual umask: what `open` alone would give is 0644
    try:
        game = Rehearsal(tmp_path)
        game("2026-12-01T17:00+03:00", "board", "local", "init", "GAME")
        game.host("2026-12-01T18:00+03:00", "game start")
        game.host("2026-12-01T18:01+03:00", "review", "--approve")
        game.pm("2026-12-01T19:05+03:00", "Коля", "голосую за Петю")
        log = tmp_path / "logs" / "run.log"
        log.parent.mkdir()  # `run` makes no folder a mistyped --log-file names
        game.host("2026-12-01T19:10+03:00", "run", "--once", "--log-file", str(log))
        assert log.stat().st_size > 0
        assert stat.S_IMODE(log.stat().st_mode) == 0o600
        # A rotation makes a new file: it is private as well, and so are the old ones.
        rotated = tmp_path / "rotated.log"
        handler = file_handler(rotated)
        assert isinstance(handler, logging.handlers.RotatingFileHandler)
        handler.maxBytes = 200
        for n in range(20):
            handler.emit(logging.makeLogRecord({"msg": f"PM {n}: " + "голосую за Петю " * 4}))
        handler.close()
    finally:
        os.umask(was)
    files = sorted(tmp_path.glob("rotated.log*"))
    assert len(files) == 6  # the file and its five old ones
    assert {stat.S_IMODE(f.stat().st_mode) for f in files} == {0o600}
