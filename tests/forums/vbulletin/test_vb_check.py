"""`forumgm board check` on a vBulletin 3.8 board: the engine and its version found from the
board's page with no credentials, then the board read as the GM; vBulletin 5 found and read
with its own engine (`vbulletin5`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from engine.app import board_cmd
from engine.app.cli import app
from tests.forums.vbulletin.helpers_vb import BOARD, GM, PASSWORD, VB3, VB5, fake_board, html, page
from tests.forums.vbulletin.helpers_vb5 import BOARD as VB5_BOARD
from tests.forums.vbulletin.helpers_vb5 import GM_ID, THREAD, vb5_board
from tests.forums.vbulletin.helpers_vb5 import PASSWORD as VB5_PASSWORD
from tests.forums.vbulletin.test_vb_board import Board

runner = CliRunner()
ARGS = ["board", "check", BOARD, "--user", GM, "--thread", "128882"]


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[Board]:
    fake = Board()
    fake.queue("GET", "/private.php", "pm_inbox.html", "pm_showpm.html", "pm_showpm.html")
    made: list[str] = []

    def make(engine: str, url: str, user: str, password: str, **options: Any) -> Any:
        made.append(engine)
        adapter, _, _ = fake_board(fake, username=user)
        return adapter

    def visitor() -> httpx.AsyncClient:
        # What the board shows a visitor without cookies: the page detection reads.
        return httpx.AsyncClient(transport=httpx.MockTransport(lambda r: html(page(VB3))))

    monkeypatch.setattr(board_cmd, "make_board", make)
    monkeypatch.setattr(board_cmd, "detect_client", visitor)
    monkeypatch.setenv("FORUMGM_GM_PASSWORD", PASSWORD)
    fake.made = made  # type: ignore[attr-defined]
    yield fake


def test_check_finds_vbulletin_3_and_reads_the_board_as_the_gm(fake: Board) -> None:
    result = runner.invoke(app, ARGS)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Detected vBulletin 3.8.11 (generator “vBulletin 3.8.11”" in out
    assert f"Checking vbulletin board {BOARD} as {GM}" in out
    assert f"Logged in as {GM} (user id 47030)" in out
    assert "Time zone: UTC-05:00" in out
    assert "vBulletin 3, dates mdy, zone from each page's footer" in out
    assert "(id 5778211) by Kamieichi" in out
    assert "Inbox: 2 private messages" in out
    assert "Minimum Time Between Posts" in out and "Sent Items" in out
    assert fake.made == ["vbulletin"]  # type: ignore[attr-defined]


def test_check_finds_vbulletin_5_and_reads_it_with_its_own_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    visited: list[httpx.Request] = []
    made: list[str] = []

    def visitor() -> httpx.AsyncClient:
        def answer(request: httpx.Request) -> httpx.Response:
            visited.append(request)
            return html(page(VB5))

        return httpx.AsyncClient(transport=httpx.MockTransport(answer))

    def make(engine: str, url: str, user: str, password: str, **options: Any) -> Any:
        made.append(engine)
        board, _, _, _ = vb5_board(username=user, password=password)
        return board

    monkeypatch.setattr(board_cmd, "make_board", make)
    monkeypatch.setattr(board_cmd, "detect_client", visitor)
    monkeypatch.setenv("FORUMGM_GM_PASSWORD", VB5_PASSWORD)
    result = runner.invoke(app, ["board", "check", VB5_BOARD, "--user", GM, "--thread", THREAD])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Detected vBulletin 5.5.2 (generator “vBulletin 5.5.2”" in out
    assert f"Logged in as {GM} (user id {GM_ID})" in out
    assert "each post's Unix time" in out
    assert "16 posts on 2 page(s), 15 per page" in out
    assert "Inbox: 0 private messages" in out
    assert made == ["vbulletin5"] and [r.method for r in visited] == ["GET"]


GAME = """\
[game]
ruleset = "votecount"
[board]
engine = "vbulletin"
url = "https://forums.animesuki.com/"
thread = "128882"
gm_user = "Kinematics"
password = "env:GM_PW"
{extra}
[schedule]
deadlines = "every day 19:00"
start = "2036-12-01 19:00"
[players]
players = ["Shirohige", "BBOvenGuy", "Romanticide"]
"""


def test_game_validate_knows_vbulletin(tmp_path: Path) -> None:
    good = tmp_path / "vb.toml"
    good.write_text(GAME.format(extra=""), encoding="utf-8")
    result = runner.invoke(app, ["game", "validate", str(good)], env={"GM_PW": "p"})
    assert result.exit_code == 0, result.output
    # vBulletin's login was checked with its form only: no browser login offered.
    browser = tmp_path / "browser.toml"
    browser.write_text(GAME.format(extra="browser = true"), encoding="utf-8")
    result = runner.invoke(app, ["game", "validate", str(browser)], env={"GM_PW": "p"})
    assert result.exit_code == 1 and "browser" in result.output
