"""A Discourse board read and written with an administrator's API key that answers "not
logged in" (403 `not_logged_in`): a key has no session to log in again, so the GET and the
POST each stop at once with `LoginFailed` saying the key no longer works, and no password
login is tried."""

from __future__ import annotations

import httpx
import pytest

from forums import LoginFailed
from tests.adapter_helpers import run
from tests.discourse_board import NOT_LOGGED_IN, errors
from tests.forums.discourse.test_discourse_board import board, forum, paths


def test_a_read_with_a_key_the_board_no_longer_takes_is_a_failed_login() -> None:
    fake = forum()

    def gone(who: str | None, query: list[tuple[str, str]]) -> httpx.Response:
        return errors(403, "not_logged_in", *NOT_LOGGED_IN)

    fake._pm_list = gone  # type: ignore[method-assign]
    gm, _ = board(fake)
    with pytest.raises(LoginFailed, match=r"the API key no longer works \(You are not perm"):
        run(gm, lambda b: b.inbox())
    assert not [p for p in paths(fake) if p == "POST /session"]


def test_a_post_with_a_key_the_board_no_longer_takes_is_a_failed_login() -> None:
    fake = forum()

    def gone(who: str, form: dict[str, str]) -> httpx.Response:
        return errors(403, "not_logged_in", *NOT_LOGGED_IN)

    fake._create = gone  # type: ignore[method-assign]
    gm, _ = board(fake)
    with pytest.raises(LoginFailed, match="the API key no longer works"):
        run(gm, lambda b: b.reply("2108", "Голосую за Alu."))
    assert [p for p in paths(fake) if p == "POST /posts.json"] == ["POST /posts.json"]
