"""Issue 10 §3 under the service: a game on a board that points the GM's login elsewhere.

The saved phpBB board (respx, tests/service/phpbb_fixture_board.py) runs a game through one
step of the service, as `forumgm run` takes it: the board's login form names another host,
or the https board's answer to the login redirects to http://. The step fails with one clear
line for the host, and nothing (not the password, not the session cookie) leaves the
configured scheme, host and port.
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from engine.config import parse_config
from engine.service.driver import GameDriver
from engine.service.runner import Cadence, drive_once
from engine.store import open_store
from forums.local import ManualClock
from tests.service.helpers import game_toml
from tests.service.phpbb_fixture_board import BASE, USER, helpers, make_board

MSK = ZoneInfo("Europe/Moscow")
SECURE = "https://127.0.0.1:8081/"
PLAYERS = ["Лёха", "Кира", "Марат", "Ника", "Оскар"]


def _step(tmp_path: Path, fake: Any, url: str) -> str:
    text = game_toml(url=url, thread="2", players=PLAYERS, ruleset="votecount", gm=USER)
    text = text.replace('engine = "local"', 'engine = "phpbb"')
    text = text.replace(f'url = "{url}"', f'url = "{url}"\nallow_insecure_http = true')
    config = parse_config(text)
    board = make_board(fake, url=url)
    clock = ManualClock(datetime(2026, 12, 1, 20, tzinfo=MSK))
    driver = GameDriver(
        open_store(f"sqlite:///{tmp_path / 'store.sqlite'}"), board, config, clock=clock
    )
    driver.start()

    async def go() -> str:
        try:
            return await drive_once(driver, "test", Cadence())
        finally:
            await board.close()

    return asyncio.run(go())


def test_a_login_form_naming_another_host_stops_the_step_and_sends_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    form = helpers.page("ru", "login_page.html").replace(
        'action="./ucp.php?mode=login', 'action="https://evil.example/ucp.php?mode=login', 1
    )
    fake = helpers.FakePhpbb("ru").with_login().with_thread()
    fake.on("GET", "/ucp.php?mode=login", helpers.html(form))
    said = _step(tmp_path, fake, BASE)
    assert said.startswith("step failed: the login form (it would get the GM's password) points")
    assert "https://evil.example/ucp.php?mode=login" in said
    assert "not to the configured board http://127.0.0.1:8081" in said
    assert "Traceback" not in caplog.text  # one line for the host, not a stack
    assert fake.strays(BASE) == [] and not fake.password_sent()


def test_an_https_board_redirecting_to_http_keeps_its_session(tmp_path: Path) -> None:
    fake = helpers.FakePhpbb("ru").with_login().with_thread()  # login answers with http://
    said = _step(tmp_path, fake, SECURE)
    assert said.startswith("step failed: GET http://127.0.0.1:8081/index.php")
    assert fake.strays(SECURE) == []  # the session cookie never travelled in clear
