"""`forumgm board check` on a vBulletin 3.8 board: the engine and its version found from the
board's page with no credentials, then the board read as the GM; vBulletin 5 named and
left alone."""

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


def test_check_names_vbulletin_5_and_sends_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[httpx.Request] = []

    def visitor() -> httpx.AsyncClient:
        def answer(request: httpx.Request) -> httpx.Response:
            sent.append(request)
            return html(page(VB5))

        return httpx.AsyncClient(transport=httpx.MockTransport(answer))

    monkeypatch.setattr(board_cmd, "detect_client", visitor)
    monkeypatch.setenv("FORUMGM_GM_PASSWORD", PASSWORD)
    result = runner.invoke(app, ARGS)
    assert result.exit_code == 2
    assert "vBulletin 5.5.2 — not a supported engine" in result.output
    assert [r.method for r in sent] == ["GET"]


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
