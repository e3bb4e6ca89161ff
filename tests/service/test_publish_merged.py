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


class FloodingBoard(MergingBoard):
    """A MyBB that takes one PM, then asks to wait 60 s (its «Private Message Flood Time»)."""

    def __init__(self) -> None:
        super().__init__()
        self.sent_to: list[str] = []
        self.flood = False

    async def send_pm(self, recipients: Sequence[str], subject: str, bbcode: str) -> str:
        from forums.errors import FloodControl

        if self.flood:
            self.flood = False
            raise FloodControl("Please wait 56 more seconds.", 56.0)
        self.flood = True
        self.sent_to.append(recipients[0])
        return str(len(self.sent_to))


def test_pms_go_out_in_the_order_the_game_needs_through_a_flood_limit(tmp_path: Path) -> None:
    """Issue 24 §3: a flood-refused PM was retried after every newer one (the publisher sent
    the least tried first), so a game's role PMs went out after the game had ended."""
    from datetime import UTC, datetime, timedelta

    from engine.publish import pm_draft
    from tests.store.conftest import make_phase, make_state

    store = open_store(f"sqlite:///{tmp_path / 'game.sqlite'}")
    board_row = store.create_board("mybb", "http://127.0.0.1:8081/", "Ведущий")
    game = store.create_game(board_row.id, "2", "classic", seed=1)
    store.enqueue(
        game.id,
        None,
        [
            pm_draft(n, "Ваша роль", "роль", f"{n}role".ljust(24, "r"))
            for n in ("Аня", "Боря", "Вера")
        ],
    )
    store.approve(game.id, None)
    store.open_phase(game.id, make_phase(), make_state())
    receipts = [
        pm_draft(n, "Ведущий", "принято", f"{n}rcpt".ljust(24, "r")) for n in ("Гена", "Даша")
    ]
    store.enqueue(game.id, "day 1", receipts)
    store.approve(game.id, "day 1")
    board = FloodingBoard()
    publisher = Publisher(store, board, game.id, "2", "Ведущий")  # type: ignore[arg-type]
    now = datetime(2026, 12, 1, 5, 2, tzinfo=UTC)
    for _ in range(12):
        asyncio.run(publisher.publish(now))
        now += timedelta(seconds=61)
    assert board.sent_to == ["Аня", "Боря", "Вера", "Гена", "Даша"]


class LimitedBoard(MergingBoard):
    """A Discourse whose GM account has sent its day's personal messages: every PM is
    refused for 20 hours (`max_personal_messages_per_day`); posts still go out."""

    engine = "discourse"

    def __init__(self) -> None:
        super().__init__()
        self.tries = 0
        self.limit_lifted = False
        self.sent_to: list[str] = []

    async def reply(self, thread: str, bbcode: str) -> str:
        self.posted.append(bbcode)
        return str(100 + len(self.posted))

    async def send_pm(self, recipients: Sequence[str], subject: str, bbcode: str) -> str:
        from forums.errors import FloodControl

        self.tries += 1
        if not self.limit_lifted:
            raise FloodControl(
                "Discourse refuses a personal message for 20 h (HTTP 429); the limit is "
                "max_personal_messages_per_day",
                20 * 3600.0,
            )
        self.sent_to.append(recipients[0])
        return str(200 + len(self.sent_to))


def test_a_limit_of_hours_is_kept_in_the_store_and_the_pms_wait_for_it_in_order(
    tmp_path: Path,
) -> None:
    """A day's personal messages spent (Discourse): the round does not wait for hours nor
    try each PM, the thread's post still goes out, the round's failure says the board's
    line, the PMs stay queued in their order and go out once it lifts — and a new
    publisher (the next `run --once`) knows the limit from the store: it sends no PM before."""
    from datetime import UTC, datetime, timedelta

    from engine.publish import pm_draft
    from engine.store.models import OutboxKind, OutboxStatus

    store = open_store(f"sqlite:///{tmp_path / 'game.sqlite'}")
    board_row = store.create_board("discourse", "https://forum.example.org/", "Ведущий")
    game = store.create_game(board_row.id, "2", "classic", seed=1)
    names = ("Аня", "Боря", "Вера")
    drafts = [pm_draft(n, "Ваша роль", "роль", f"{n}role".ljust(24, "r")) for n in names]
    store.enqueue(game.id, None, [*drafts, post_draft("Игра начинается", "p" * 24)])
    store.approve(game.id, None)
    board = LimitedBoard()
    publisher = Publisher(store, board, game.id, "2", "Ведущий")  # type: ignore[arg-type]
    now = datetime(2026, 12, 1, 5, 0, tzinfo=UTC)

    assert asyncio.run(publisher.publish(now)) == 1  # the opening post
    assert board.tries == 1  # one refusal, not one per PM
    assert len(board.posted) == 1  # the opening post is not held by the PMs' limit
    (failure,) = publisher.failures
    assert "20 h" in failure and "\n" not in failure
    pending = store.pending(game.id)
    assert [i.marker[:3] for i in pending] == ["Аня", "Бор", "Вер"]
    assert all(i.status is OutboxStatus.APPROVED and i.attempts == 0 for i in pending)
    (held,) = publisher.held
    assert (held.kind, held.count, held.until) == (OutboxKind.PM, 3, now + timedelta(hours=20))
    said = publisher.limit_met  # what the hosts are told (engine.service.notify)
    assert said is not None and "max_personal_messages_per_day" in said
    assert "3 PMs wait behind the board's limit until about 2026-12-02 01:00 UTC" in said

    # An hour later, in another process: the store keeps the limit, nothing is tried.
    later = Publisher(store, board, game.id, "2", "Ведущий")  # type: ignore[arg-type]
    assert asyncio.run(later.publish(now + timedelta(hours=1))) == 0
    assert board.tries == 1 and later.failures == []
    assert later.limit_met == said
    # When it lifts, every PM goes out in the order the game needs.
    board.limit_lifted = True
    assert asyncio.run(later.publish(now + timedelta(hours=20, minutes=1))) == 3
    assert board.sent_to == list(names)
    assert store.pending(game.id) == []
    assert later.limit_met is None and later.held == []  # lifted
    assert store.send_limits(board_row.id) == {}
