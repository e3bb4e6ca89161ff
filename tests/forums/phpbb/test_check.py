"""`forumgm board check` against the respx-backed saved board (typer CliRunner)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from helpers_http import (
    BASE,
    PASSWORD,
    USER,
    FakePhpbb,
    board_maker,
    redirect,
)
from typer.testing import CliRunner

from engine.app import board_cmd
from engine.app.cli import app

runner = CliRunner()


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakePhpbb]:
    fake = FakePhpbb("ru").with_login().with_thread().with_inbox()
    monkeypatch.setattr(board_cmd, "make_board", board_maker(fake))
    monkeypatch.setenv("FORUMGM_GM_PASSWORD", PASSWORD)
    yield fake


ARGS = [
    "board",
    "check",
    "--engine",
    "phpbb",
    "--url",
    BASE,
    "--user",
    USER,
    "--thread",
    "2",
    "--allow-insecure-http",
]


def test_check_prints_a_readable_report_and_posts_nothing(fake: FakePhpbb) -> None:
    result = runner.invoke(app, ARGS)
    assert result.exit_code == 0, result.output
    out = result.output
    assert f"Logged in as {USER} (user id 58)" in out
    assert "Time zone: " in out and ("Moscow" in out or "UTC+03:00" in out or "+03" in out)
    assert "61 posts on 7 page(s), 10 per page" in out
    assert "first page: 10 posts" in out
    assert "last page (7): 1 posts" in out
    assert "(id 64)" in out
    assert "Inbox: 5 private messages" in out
    assert "Posted nothing" in out
    assert PASSWORD not in out
    assert [r.method for r in fake.requests].count("POST") == 1  # the login only
    gets = fake.targets("GET")
    assert "/viewtopic.php?t=2" in gets and "/viewtopic.php?start=60&t=2" in gets
    assert "/viewtopic.php?start=30&t=2" not in gets


def test_check_with_post_test_posts_once(fake: FakePhpbb) -> None:
    fake.on("GET", "/posting.php?mode=reply&t=2", "posting_reply_form.html")
    fake.on("POST", "/posting.php?mode=reply&t=2", redirect(f"{BASE}viewtopic.php?p=65#p65"))
    fake.on("GET", "/viewtopic.php?p=65", "after_post_viewtopic.html")
    result = runner.invoke(app, [*ARGS, "--post-test"])
    assert result.exit_code == 0, result.output
    assert "Test post: id 65" in result.output


def test_check_reports_board_errors_without_the_password(fake: FakePhpbb) -> None:
    fake.on("POST", "/ucp.php?mode=login", "login_failed_wrong_password.html")
    result = runner.invoke(app, ARGS)
    assert result.exit_code == 1
    assert "LoginFailed" in result.output and "неверный пароль" in result.output
    assert PASSWORD not in result.output


def test_the_password_comes_only_from_the_environment(
    fake: FakePhpbb, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("FORUMGM_GM_PASSWORD")
    result = runner.invoke(app, ARGS)
    assert result.exit_code == 2
    assert "FORUMGM_GM_PASSWORD" in result.output
    assert runner.invoke(app, [*ARGS, "--password", "x"]).exit_code == 2
    monkeypatch.setenv("OTHER_VAR", PASSWORD)
    result = runner.invoke(app, [*ARGS, "--password-env", "OTHER_VAR"])
    assert result.exit_code == 0, result.output
