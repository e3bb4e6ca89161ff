"""`engine = "xenforo"` through the CLI a host uses: board check, game validate, game new."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner
from xf_helpers import (
    BASE,
    NEW_POST,
    PASSWORD,
    SLUG,
    USER,
    FakeTime,
    FakeXenforo,
    as_json,
    gm_post,
    redirect,
)

from engine.app import board_cmd
from engine.app.cli import app
from engine.config import BOARD_ENGINES, parse_config
from engine.service.build import login_secret, make_board
from forums.xenforo import XenforoApiBoard, XenforoBoard, xenforo_board

runner = CliRunner(env={"FORUMGM_NOW": "2026-11-30T12:00+03:00"})  # before the start
ARGS = [
    "board",
    "check",
    "--engine",
    "xenforo",
    "--url",
    BASE,
    "--user",
    USER,
    "--thread",
    "8276",
    "--allow-insecure-http",
]


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeXenforo]:
    fake = FakeXenforo().with_login().with_thread().with_conversations()
    time = FakeTime()

    def make(engine: str, url: str, user: str, password: str) -> XenforoBoard:
        board = xenforo_board(
            url,
            user,
            password,
            client=fake.client(),
            clock=time,
            sleep=time.sleep,
            allow_insecure_http=True,
        )
        assert engine == "xenforo" and isinstance(board, XenforoBoard)
        return board

    monkeypatch.setattr(board_cmd, "make_board", make)
    monkeypatch.setenv("FORUMGM_GM_PASSWORD", PASSWORD)
    yield fake


def test_board_check_prints_what_it_read_and_posts_nothing(fake: FakeXenforo) -> None:
    result = runner.invoke(app, ARGS)
    assert result.exit_code == 0, result.output
    out = result.output
    assert f"Logged in as {USER} (user id 58)" in out
    assert "Time zone: UTC" in out  # XenForo 2 pages stamp every time in Unix seconds
    # XenForo 2 prints no total on a thread page: the check counts it off the last page.
    assert "'a dark theme option', 8 posts on 3 page(s), 3 per page" in out
    assert "first page: 3 posts" in out and "last page (3): 2 posts" in out
    assert "last post: #8 (id 1358710) by sub_ubi" in out
    assert "Inbox: 2 private messages" in out and "'Проверка, ночь 1' from Alu" in out
    assert "Posted nothing" in out and PASSWORD not in out
    assert [r.method for r in fake.requests].count("POST") == 1  # the login only


def test_board_check_post_test_posts_once(fake: FakeXenforo) -> None:
    fake.with_thread(extra=(gm_post("forumgm board check: test post."),))
    fake.on(
        "POST",
        "/threads/8276/add-reply",
        as_json({"status": "ok", "redirect": f"{BASE}posts/{NEW_POST}/"}),
    )
    fake.on("GET", f"/posts/{NEW_POST}/", redirect(f"{BASE}{SLUG}page-3", status=301))
    result = runner.invoke(app, [*ARGS, "--post-test"])
    assert result.exit_code == 0, result.output
    assert f"Test post: id {NEW_POST}" in result.output
    (sent,) = fake.posted("/threads/8276/add-reply")
    assert sent["message"] == "forumgm board check: test post."


def test_board_check_says_what_went_wrong_in_one_line(fake: FakeXenforo) -> None:
    fake.on("POST", "/login/login", redirect(f"{BASE}login/two-step?remember=1"))
    result = runner.invoke(app, ARGS)
    assert result.exit_code == 1
    assert "LoginFailed" in result.output and "two-step verification" in result.output
    assert "Traceback" not in result.output and PASSWORD not in result.output


GAME = """\
[game]
ruleset = "votecount"
[board]
engine = "{engine}"
url = "https://forum.example.org/"
thread = "a-dark-theme-option.8276"
gm_user = "Ведущий"
password = "env:GM_PW"
{extra}
[schedule]
deadlines = "every day 19:00"
start = "2026-12-01 19:00"
[players]
players = ["Alu", "Бармалей", "Вася"]
"""


def test_game_validate_accepts_xenforo_and_names_the_known_engines(tmp_path: Path) -> None:
    good = tmp_path / "xf.toml"
    good.write_text(
        GAME.format(engine="xenforo", extra='api_key = "env:XF_KEY"\nbrowser = false'),
        encoding="utf-8",
    )
    result = runner.invoke(app, ["game", "validate", str(good)])
    assert result.exit_code == 0, result.output
    assert "line 9: warning: [board] api_key: the environment variable XF_KEY is not set" in (
        result.output
    )
    keyed = runner.invoke(app, ["game", "validate", str(good)], env={"XF_KEY": "k", "GM_PW": "p"})
    assert keyed.exit_code == 0 and "warning:" not in keyed.output
    bad = tmp_path / "bad.toml"
    bad.write_text(GAME.format(engine="xenfor0", extra=""), encoding="utf-8")
    result = runner.invoke(app, ["game", "validate", str(bad)])
    assert result.exit_code == 1
    assert (
        f"line 4: [board] engine: one of {', '.join(BOARD_ENGINES)}, got 'xenfor0'" in result.output
    )
    leaked = tmp_path / "leak.toml"
    leaked.write_text(
        GAME.format(engine="xenforo", extra='api_key = "s3cr3t-key"'), encoding="utf-8"
    )
    result = runner.invoke(app, ["game", "validate", str(leaked)])
    assert result.exit_code == 1 and "api_key must say where the key is" in result.output
    assert "s3cr3t-key" not in result.output
    local = tmp_path / "local.toml"
    local.write_text(GAME.format(engine="local", extra="browser = true"), encoding="utf-8")
    result = runner.invoke(app, ["game", "validate", str(local)])
    assert result.exit_code == 1 and "cannot log in through a browser" in result.output


def test_the_game_file_picks_pages_or_the_api() -> None:
    env = {"GM_PW": PASSWORD, "XF_KEY": "key-1"}
    pages = make_board(parse_config(GAME.format(engine="xenforo", extra="")), env)
    assert isinstance(pages, XenforoBoard) and not pages.browser
    api = make_board(
        parse_config(GAME.format(engine="xenforo", extra='api_key = "env:XF_KEY"')), env
    )
    assert isinstance(api, XenforoApiBoard)
    browser = make_board(parse_config(GAME.format(engine="xenforo", extra="browser = true")), env)
    assert isinstance(browser, XenforoBoard) and browser.browser


def test_an_api_game_needs_no_password_but_a_page_game_does(tmp_path: Path) -> None:
    """With `[board] api_key` the key is the GM's only credential: no password line, no
    password variable; without the key the password stays required."""
    text = GAME.replace('password = "env:GM_PW"\n', "")
    keyed = tmp_path / "api.toml"
    keyed.write_text(text.format(engine="xenforo", extra='api_key = "env:XF_KEY"'), "utf-8")
    result = runner.invoke(app, ["game", "validate", str(keyed)], env={"XF_KEY": "key-1"})
    assert result.exit_code == 0 and "warning:" not in result.output, result.output
    config = parse_config(keyed.read_text(encoding="utf-8"))
    assert config.password is None
    assert isinstance(make_board(config, {"XF_KEY": "key-1"}), XenforoApiBoard)
    assert login_secret(config, {"XF_KEY": "key-1"}) == "key-1"
    pages = tmp_path / "pages.toml"
    pages.write_text(text.format(engine="xenforo", extra=""), encoding="utf-8")
    result = runner.invoke(app, ["game", "validate", str(pages)])
    assert result.exit_code == 1 and "[board] needs `password`" in result.output, result.output


def test_game_new_offers_xenforo_and_writes_a_valid_file(tmp_path: Path) -> None:
    path = tmp_path / "new.toml"
    answers = [
        "ru", "votecount", "Мафия #9", "xenforo", "https://forum.example.org/", "a-dark-theme-option.8276",
        "Ведущий", "GM_PW", "Europe/Moscow", "every day 19:00", "2026-12-01 19:00",
        "Alu, Бармалей, Вася", "", "3", "warnings",
    ]  # fmt: skip
    result = runner.invoke(app, ["game", "new", str(path)], input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    assert f"Board engine ({', '.join(BOARD_ENGINES)})" in result.output
    assert "It is valid." in result.output
    assert 'engine = "xenforo"' in path.read_text(encoding="utf-8")
