"""Issue 24 §4: MyBB appends a user's new post to his previous one within an hour («Post Merge
Time»): 4 of 10 bot posts were merged on a live board (the final results became part of the
previous turn's post) and only the log file said so. `run` says it now, with what to change."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from pathlib import Path

import pytest

from engine.publish import Publisher, post_draft
from engine.store import open_store
from forums.board import PMPage, ThreadPage
from forums.records import Cursor, User


class MergingBoard:
    """A MyBB that merges every post into the GM's first one (the id it answers with)."""

    engine = "mybb"

    def __init__(self) -> None:
        self.posted: list[str] = []

    async def login(self) -> User:
        return User("1", "Ведущий")

    async def whoami(self) -> User | None:
        return User("1", "Ведущий")

    async def thread_posts(self, thread: str, since: Cursor | None = None) -> ThreadPage:
        return ThreadPage([], Cursor())

    async def inbox(self, since: Cursor | None = None) -> PMPage:
        return PMPage([], Cursor())

    async def sent(self, since: Cursor | None = None) -> PMPage:
        return PMPage([], Cursor())

    async def find_user(self, name: str) -> User | None:
        return None

    async def reply(self, thread: str, bbcode: str) -> str:
        self.posted.append(bbcode)
        return "41"  # the GM's previous post, which the new one was appended to

    async def send_pm(self, recipients: Sequence[str], subject: str, bbcode: str) -> str:
        raise AssertionError("no PM here")

    async def close(self) -> None:
        return None


def test_a_merged_post_is_said_in_run(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'game.sqlite'}")
    board_row = store.create_board("mybb", "http://127.0.0.1:8081/", "Ведущий")
    game = store.create_game(board_row.id, "2", "votecount", seed=1)
    board = MergingBoard()
    publisher = Publisher(store, board, game.id, "2", "Ведущий")  # type: ignore[arg-type]
    store.enqueue(game.id, None, [post_draft("Итоги дня 1", "a" * 24)])
    store.approve(game.id, None)
    with caplog.at_level(logging.WARNING, logger="forumgm"):
        assert asyncio.run(publisher.publish()) == 1
    assert not [r for r in caplog.records if "merged" in r.getMessage()]
    store.enqueue(game.id, None, [post_draft("День 2 начинается", "b" * 24)])
    store.approve(game.id, None)
    with caplog.at_level(logging.WARNING, logger="forumgm"):
        assert asyncio.run(publisher.publish()) == 1
    [said] = [r.getMessage() for r in caplog.records if "merged" in r.getMessage()]
    assert "post 41" in said and "Merge User Groups to Ignore" in said
