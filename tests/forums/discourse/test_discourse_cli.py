"""`engine = "discourse"` through the CLI a host uses: board check (the engine found from
the board's answer), game validate with `api_key` and `api_user`, the game file's board."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from engine.app import board_cmd
from engine.app.cli import app
from engine.config import parse_config
from engine.service.build import login_secret, make_board
from forums.discourse.board import DiscourseBoard
from tests.adapter_helpers import FakeTime
from tests.discourse_board import (
    BASE,
    GM,
    KEY,
    PASSWORD,
    USER_KEY,
    FakeDiscourse,
    fixture,
    real_posts,
)

runner = CliRunner(env={"FORUMGM_NOW": "2026-11-30T12:00+03:00", "COLUMNS": "300"})
ARGS = ["board", "check", BASE, "--user", GM, "--thread", "2144"]


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeDiscourse]:
    fake = FakeDiscourse()
    fake.add_topic(2144, "KPop Demon Hunters", real_posts("criticalfallibilism_t_2144_posts.json"))
    fake.add_user("Alu")
    fake.pm("Alu", [GM], "Ночь 1", "Проверяю Бармалея")
    time = FakeTime()

    def make(engine: str, url: str, user: str, password: str, **options: Any) -> DiscourseBoard:
        assert engine == "discourse"
        options.pop("deadline", None)
        return DiscourseBoard(
            url, user, password, client=fake.client(), clock=time, sleep=time.sleep, **options
        )

    monkeypatch.setattr(board_cmd, "make_board", make)
    monkeypatch.setattr(board_cmd, "detect_client", fake.client)
    monkeypatch.setenv("FORUMGM_GM_PASSWORD", PASSWORD)
    yield fake


def test_board_check_finds_discourse_and_reads_it_with_the_password(fake: FakeDiscourse) -> None:
    # The board's address answers with JSON here (a topic list's shape): that is Discourse.
    fake.queue(
        lambda r: r.url.path == "/",
        httpx.Response(200, json=fixture("discourse_api_private_messages.json")),
    )
    result = runner.invoke(app, ARGS)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Detected Discourse (a Discourse API answer (topic_list))" in out
    assert f"Logged in as {GM} (user id 7)" in out
    assert "Time zone: UTC" in out and "to the millisecond" in out
    assert "'KPop Demon Hunters', 20 posts on 1 page(s), 20 per page" in out
    assert "last post: #21 (id 20200) by" in out
    assert "Inbox: 1 private messages" in out and "'Ночь 1' from Alu" in out
    assert "Posted nothing" in out and PASSWORD not in out
    assert [r.url.path for r in fake.requests if r.method == "POST"] == ["/session"]


def test_board_check_with_an_api_key_posts_a_test_reply(
    fake: FakeDiscourse, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISCOURSE_KEY", KEY)
    monkeypatch.delenv("FORUMGM_GM_PASSWORD")
    args = [*ARGS, "--engine", "discourse", "--api-key-env", "DISCOURSE_KEY", "--post-test"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "over its REST API" in result.output and "Test post: id" in result.output
    assert all(r.headers.get("Api-Key") == KEY for r in fake.requests)
    assert "/session" not in [r.url.path for r in fake.requests]


def test_board_check_says_a_refused_key_in_one_line(
    fake: FakeDiscourse, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISCOURSE_KEY", "not-the-key")
    args = [*ARGS, "--engine", "discourse", "--api-key-env", "DISCOURSE_KEY"]
    result = runner.invoke(app, args)
    assert result.exit_code == 1
    assert "LoginFailed" in result.output and "refused the API key" in result.output
    assert "Traceback" not in result.output and "not-the-key" not in result.output


GAME = """\
[game]
ruleset = "votecount"
title = "Мафия на Discourse"

[board]
engine = "{engine}"
url = "https://forum.example.org/"
thread = "2144"
gm_user = "Ведущий_GM"
{extra}
[schedule]
deadlines = "every day 19:00"
start = "2026-12-01 19:00"
[players]
players = ["Alu", "Бармалей", "Вася"]
"""
KEYED = 'api_key = "env:DISCOURSE_KEY"\n'


def _validate(tmp_path: Path, engine: str, extra: str) -> Any:
    path = tmp_path / "game.toml"
    path.write_text(GAME.format(engine=engine, extra=extra), encoding="utf-8")
    return runner.invoke(app, ["game", "validate", str(path)], env={"DISCOURSE_KEY": KEY})


def test_game_validate_knows_the_key_and_whom_it_acts_as(tmp_path: Path) -> None:
    good = _validate(tmp_path, "discourse", KEYED + 'api_user = "ведущий_gm"\n')
    assert good.exit_code == 0 and "warning:" not in good.output, good.output
    plain = _validate(tmp_path, "discourse", 'password = "env:GM_PW"\n')
    assert plain.exit_code == 0, plain.output
    other = _validate(tmp_path, "discourse", KEYED + 'api_user = "system"\n')
    assert other.exit_code == 1
    assert "api_user: the key must act as the GM account 'Ведущий_GM', not 'system'" in (
        other.output
    )
    keyless = _validate(tmp_path, "discourse", 'password = "env:GM_PW"\napi_user = "Ведущий_GM"\n')
    assert keyless.exit_code == 1 and "set api_key too" in keyless.output
    xenforo = _validate(tmp_path, "xenforo", KEYED + 'api_user = "Ведущий_GM"\n')
    assert xenforo.exit_code == 1
    assert "api_user: the xenforo board's key names no user (only discourse)" in xenforo.output
    leaked = _validate(tmp_path, "discourse", 'api_key = "0f3c5d-raw-key"\n')
    assert leaked.exit_code == 1 and "api_key must say where the key is" in leaked.output
    assert "0f3c5d-raw-key" not in leaked.output


def test_the_game_file_makes_the_discourse_board() -> None:
    env = {"DISCOURSE_KEY": KEY, "GM_PW": PASSWORD}
    keyed = parse_config(GAME.format(engine="discourse", extra=KEYED + 'api_user = "Ведущий_GM"'))
    board = make_board(keyed, env)
    assert isinstance(board, DiscourseBoard) and board.by_key
    assert board.http.http.headers["Api-Key"] == KEY
    assert board.http.http.headers["Api-Username"] == GM
    assert keyed.password is None and login_secret(keyed, env) == KEY
    by_password = make_board(
        parse_config(GAME.format(engine="discourse", extra='password = "env:GM_PW"')), env
    )
    assert isinstance(by_password, DiscourseBoard) and not by_password.by_key
    assert "Api-Key" not in by_password.http.http.headers


USER_KEYED = 'api_key = "env:DISCOURSE_KEY"\napi_key_kind = "user"\n'


def test_board_check_with_a_user_api_key(
    fake: FakeDiscourse, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake.add_user_key(USER_KEY, GM, "read,write")
    monkeypatch.setenv("DISCOURSE_KEY", USER_KEY)
    monkeypatch.delenv("FORUMGM_GM_PASSWORD")
    args = [*ARGS, "--engine", "discourse", "--api-key-env", "DISCOURSE_KEY"]
    result = runner.invoke(app, [*args, "--api-key-kind", "user", "--post-test"])
    assert result.exit_code == 0, result.output
    assert "over its API with a user API key" in result.output
    assert "Test post: id" in result.output
    assert all(r.headers.get("User-Api-Key") == USER_KEY for r in fake.requests)
    # Said as an administrator's key, the user key is refused with the hint to say so.
    result = runner.invoke(app, args)
    assert result.exit_code == 1
    assert 'looks like a user API key (32 digits): set api_key_kind = "user"' in result.output
    assert USER_KEY not in result.output
    fake.revoke(USER_KEY)
    result = runner.invoke(app, [*args, "--api-key-kind", "user"])
    assert result.exit_code == 1 and "refused the user API key" in result.output
    wrong = runner.invoke(app, [*args, "--api-key-kind", "bot"])
    assert wrong.exit_code == 2 and "--api-key-kind: admin or user, got 'bot'" in wrong.output


def test_game_validate_knows_the_kind_of_key(tmp_path: Path) -> None:
    good = _validate(tmp_path, "discourse", USER_KEYED)
    assert good.exit_code == 0 and "warning:" not in good.output, good.output
    named = _validate(tmp_path, "discourse", USER_KEYED + 'api_user = "Ведущий_GM"\n')
    assert named.exit_code == 1
    assert "a user API key acts as the account that made it" in named.output
    odd = _validate(tmp_path, "discourse", KEYED + 'api_key_kind = "bot"\n')
    assert odd.exit_code == 1 and 'api_key_kind: "admin"' in odd.output
    keyless = _validate(tmp_path, "discourse", 'password = "env:GM_PW"\napi_key_kind = "user"\n')
    assert keyless.exit_code == 1 and "set api_key too" in keyless.output
    xenforo = _validate(tmp_path, "xenforo", USER_KEYED)
    assert xenforo.exit_code == 1 and "has one kind of key" in xenforo.output


def test_the_game_file_makes_a_board_with_a_user_api_key() -> None:
    env = {"DISCOURSE_KEY": USER_KEY}
    config = parse_config(GAME.format(engine="discourse", extra=USER_KEYED))
    assert config.api_key_kind == "user"
    board = make_board(config, env)
    assert isinstance(board, DiscourseBoard) and board.user_key
    headers = board.http.http.headers
    assert headers["User-Api-Key"] == USER_KEY and "Api-Key" not in headers
    assert "Api-Username" not in headers


def test_board_check_says_what_the_gm_account_may_send(
    fake: FakeDiscourse, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISCOURSE_KEY", KEY)
    args = [*ARGS, "--engine", "discourse", "--api-key-env", "DISCOURSE_KEY"]
    plain = runner.invoke(app, args)
    assert plain.exit_code == 0, plain.output
    assert "The GM account is not staff" in plain.output
    assert "max personal messages per day" in plain.output
    assert "does not let the GM account send personal messages" not in plain.output
    fake.account.update(trust_level=0, can_send_private_messages=False)
    new = runner.invoke(app, args)
    assert "does not let the GM account send personal messages (trust level 0;" in new.output
    fake.account.update(trust_level=2, moderator=True, staff=True, can_send_private_messages=True)
    staff = runner.invoke(app, args)
    assert staff.exit_code == 0
    assert "not staff" not in staff.output and "personal messages (trust" not in staff.output
