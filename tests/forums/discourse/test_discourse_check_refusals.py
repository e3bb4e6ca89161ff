"""`board check` on a Discourse board refuses what its adapter would do nothing with — a
browser login (`--browser`) and the GM's own date format (`--set-date-format`) — in the
game file's words and the host's language, before it logs in; the other engines' refusals
of both say theirs."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from engine.app import board_cmd
from engine.app.cli import app
from forums.discourse.board import DiscourseBoard
from tests.adapter_helpers import FakeTime
from tests.discourse_board import BASE, GM, PASSWORD, FakeDiscourse, fixture, real_posts

runner = CliRunner(env={"FORUMGM_NOW": "2026-11-30T12:00+03:00", "COLUMNS": "400"})
ARGS = ["board", "check", BASE, "--user", GM, "--thread", "2144"]
NO_BROWSER = (
    "--browser: Discourse is read through its JSON API: there is no login page for a "
    "browser to open (forumgm logs in with the password, or uses the API key)"
)
NO_DATE_FORMAT = (
    "--set-date-format: forumgm sets no date format of an account's own on a discourse "
    "board: Discourse is read through its JSON API, whose every time is an ISO timestamp (to "
    "the millisecond, in UTC): there are no pages and no date format to set (only mybb, phpbb)"
)


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeDiscourse]:
    fake = FakeDiscourse()
    fake.add_topic(2144, "KPop Demon Hunters", real_posts("criticalfallibilism_t_2144_posts.json"))
    time = FakeTime()

    def make(engine: str, url: str, user: str, password: str, **options: Any) -> DiscourseBoard:
        options.pop("deadline", None)
        return DiscourseBoard(
            url, user, password, client=fake.client(), clock=time, sleep=time.sleep, **options
        )

    monkeypatch.setattr(board_cmd, "make_board", make)
    monkeypatch.setattr(board_cmd, "detect_client", fake.client)
    monkeypatch.setenv("FORUMGM_GM_PASSWORD", PASSWORD)
    yield fake


@pytest.mark.parametrize(
    ("flag", "said"), [("--browser", NO_BROWSER), ("--set-date-format", NO_DATE_FORMAT)]
)
def test_board_check_refuses_what_discourse_does_nothing_with_before_it_logs_in(
    fake: FakeDiscourse, flag: str, said: str
) -> None:
    result = runner.invoke(app, [*ARGS, "--engine", "discourse", flag])
    assert result.exit_code == 2, result.output
    assert said in result.output
    assert fake.requests == []  # nothing asked of the board, the password sent nowhere


def test_a_detected_discourse_board_refuses_a_browser_login_too(fake: FakeDiscourse) -> None:
    fake.queue(
        lambda r: r.url.path == "/",
        httpx.Response(200, json=fixture("discourse_api_private_messages.json")),
    )
    result = runner.invoke(app, [*ARGS, "--browser"])
    assert result.exit_code == 2, result.output
    assert "Detected Discourse" in result.output and NO_BROWSER in result.output
    assert "/session" not in [r.url.path for r in fake.requests]


def test_board_check_refuses_them_in_russian(fake: FakeDiscourse) -> None:
    browser = runner.invoke(app, ["--lang", "ru", *ARGS, "--engine", "discourse", "--browser"])
    assert browser.exit_code == 2, browser.output
    assert (
        "--browser: forumgm читает Discourse через его JSON API: страницы входа, которую "
        "открыл бы браузер, там нет (forumgm входит по паролю или работает с ключом API)"
    ) in browser.output
    dates = runner.invoke(
        app, ["--lang", "ru", *ARGS, "--engine", "discourse", "--set-date-format"]
    )
    assert dates.exit_code == 2, dates.output
    assert (
        "--set-date-format: на форуме discourse forumgm не задаёт учётной записи собственный "
        "формат даты: forumgm читает Discourse через его JSON API, где всякое время — метка "
        "ISO (до миллисекунды, в UTC): страниц нет, и задавать формат даты не для чего "
        "(только на mybb, phpbb)"
    ) in dates.output
    assert fake.requests == []


@pytest.mark.parametrize(
    ("engine", "flag", "said"),
    [
        (
            "smf",
            "--browser",
            "--browser: the smf board cannot log in through a browser (only mybb, phpbb, xenforo)",
        ),
        (
            "vbulletin",
            "--browser",
            "--browser: the vbulletin board cannot log in through a "
            "browser (only mybb, phpbb, xenforo)",
        ),
        (
            "smf",
            "--set-date-format",
            "board: forumgm reads the SMF GM's times in whatever "
            "format his profile chose, in the zone his profile names, so there is nothing to set",
        ),
        (
            "fluxbb",
            "--set-date-format",
            "forumgm reads the FluxBB GM's own zone and date format "
            "from his profile after each login",
        ),
    ],
)
def test_board_check_gives_every_engine_its_own_reason(
    monkeypatch: pytest.MonkeyPatch, engine: str, flag: str, said: str
) -> None:
    made: list[str] = []
    monkeypatch.setattr(board_cmd, "make_board", lambda engine, *a, **o: made.append(engine))
    monkeypatch.setenv("FORUMGM_GM_PASSWORD", PASSWORD)
    result = runner.invoke(app, [*ARGS, "--engine", engine, flag])
    assert result.exit_code == 2, result.output
    assert said in result.output and made == []
