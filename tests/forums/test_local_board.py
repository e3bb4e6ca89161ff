"""The local board behaves like a real board seen through the GM account."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from sqlalchemy import Column, Integer, MetaData, String, Table, create_engine, inspect, select

from forums import Board, Cursor, EditInfo, LoginFailed, NotFound, User, board_factory
from forums.local import LocalBoard, ManualClock, metadata
from forums.local import tables as local_tables


def test_is_a_registered_board(board: LocalBoard) -> None:
    assert isinstance(board, Board)
    assert board.engine == "local"
    made = board_factory("local")("sqlite://", "GM", "gm-pw")
    assert isinstance(made, LocalBoard)
    asyncio.run(made.close())


def test_login_and_whoami(board: LocalBoard) -> None:
    async def run() -> None:
        assert await board.whoami() is None
        me = await board.login()
        assert me.name == "GM"
        assert await board.whoami() == me
        with pytest.raises(LoginFailed):
            await board.as_user("Alice", "wrong").login()
        with pytest.raises(LoginFailed):
            await board.as_user("Nobody", "x").login()
        # A wrong GM password fails on first use, as a real adapter's login would.
        with pytest.raises(LoginFailed):
            await board.as_user("GM", "nope").inbox()
        assert (await board.as_user("alice", "alice-pw").login()).name == "Alice"

    asyncio.run(run())


def test_passwords_are_salted_hashes(board: LocalBoard) -> None:
    with board.db.connect() as conn:
        hashes = conn.execute(select(local_tables.users.c.password_hash)).scalars().all()
    assert all(h.startswith("scrypt$") and "-pw" not in h for h in hashes)
    assert len(set(hashes)) == len(hashes)
    assert local_tables.check_password("alice-pw", hashes[1])
    assert not local_tables.check_password("alice-pw", "garbage")


def test_user_names_are_unique_ignoring_case(board: LocalBoard) -> None:
    with pytest.raises(ValueError):
        board.add_user("ALICE", "x")
    assert asyncio.run(board.find_user("вАСЯ")) == board.user("Вася")
    assert asyncio.run(board.find_user("Ghost")) is None


def test_posts_are_numbered_and_read_incrementally(
    board: LocalBoard, thread: str, clock: ManualClock
) -> None:
    clock.advance(minutes=5)
    board.post_as("Alice", thread, "[vote]Bob[/vote]")
    first = asyncio.run(board.thread_posts(thread))
    assert [(p.number, p.author) for p in first.items] == [(1, "GM"), (2, "Alice")]
    alice = first.items[1]
    assert alice.posted_at == datetime(2024, 3, 1, 12, 5, tzinfo=UTC)
    assert alice.body.full_text() == "VOTE: Bob"
    assert alice.raw == "[vote]Bob[/vote]"
    assert alice.url == f"local://thread/{thread}#p{alice.id}"
    assert alice.author_id == board.user("Alice").id  # type: ignore[union-attr]
    assert alice.edit is None and not alice.deleted

    cursor = Cursor.loads(first.cursor.dumps())
    assert asyncio.run(board.thread_posts(thread, cursor)).items == []
    board.post_as("Bob", thread, "[quote=Alice]vote Bob[/quote]no", at=clock.advance(hours=1))
    post_id = asyncio.run(board.reply(thread, "GM here"))
    later = asyncio.run(board.thread_posts(thread, cursor))
    assert [(p.number, p.author) for p in later.items] == [(3, "Bob"), (4, "GM")]
    assert later.items[0].body.text() == "no"
    assert later.items[1].id == post_id
    assert asyncio.run(board.thread_posts(thread, later.cursor)).cursor == later.cursor


def test_numbering_is_per_thread(board: LocalBoard, thread: str) -> None:
    other = board.create_thread("Signups", "Bob")
    board.post_as("Bob", other, "in")
    board.post_as("Alice", thread, "hi")
    assert [p.number for p in asyncio.run(board.thread_posts(other)).items] == [1]
    assert [p.number for p in asyncio.run(board.thread_posts(thread)).items] == [1, 2]


def test_edits_keep_history_and_show_a_notice(
    board: LocalBoard, thread: str, clock: ManualClock
) -> None:
    post = board.post_as("Alice", thread, "vote Bob")
    first_edit = clock.advance(minutes=10)
    board.edit_post(post, "vote Carol", by="Alice")
    board.edit_post(post, "vote Dave", by="GM", at=clock.now + timedelta(minutes=1))
    page = asyncio.run(board.thread_posts(thread))
    edited = page.items[-1]
    assert edited.body.full_text() == "vote Dave"
    assert edited.edit == EditInfo("GM", clock.now + timedelta(minutes=1), 2)
    assert edited.posted_at == datetime(2024, 3, 1, 12, 0, tzinfo=UTC)
    history = board.revisions(post)
    assert [(r.bbcode, r.replaced_by) for r in history] == [
        ("vote Bob", "Alice"),
        ("vote Carol", "GM"),
    ]
    assert history[0].replaced_at == first_edit


def test_deleted_posts_stay_visible_to_the_gm_flagged(board: LocalBoard, thread: str) -> None:
    post = board.post_as("Bob", thread, "vote Alice")
    board.delete_post(post)
    items = asyncio.run(board.thread_posts(thread)).items
    assert items[-1].deleted and items[-1].number == 2
    with pytest.raises(NotFound):
        board.delete_post("999")
    with pytest.raises(NotFound):
        board.edit_post("abc", "x", by="GM")


def test_unknown_threads_and_users(board: LocalBoard) -> None:
    with pytest.raises(NotFound):
        asyncio.run(board.thread_posts("42"))
    with pytest.raises(NotFound):
        asyncio.run(board.reply("not-a-number", "x"))
    with pytest.raises(NotFound):
        board.post_as("Ghost", board.create_thread("t", "GM"), "x")


def test_pms_to_several_recipients_inbox_and_sent(board: LocalBoard, clock: ManualClock) -> None:
    alice = board.as_user("Alice", "alice-pw")

    async def run() -> None:
        pm = await alice.send_pm(["GM", "bob"], "night 1", "[b]kill[/b] Bob")
        inbox = await board.inbox()
        assert [m.id for m in inbox.items] == [pm]
        got = inbox.items[0]
        assert (got.sender, got.recipients, got.subject) == ("Alice", ("GM", "Bob"), "night 1")
        assert got.body.text() == "kill Bob" and got.raw == "[b]kill[/b] Bob"
        assert got.sent_at == clock.now and got.url == f"local://pm/{pm}"

        board.pm_as("Bob", ["Alice"], "not for GM", "secret")
        clock.advance(minutes=1)
        board.pm_as("Вася", ["GM"], "orders", "check Alice")
        newer = await board.inbox(inbox.cursor)
        assert [(m.sender, m.subject) for m in newer.items] == [("Вася", "orders")]
        assert (await board.inbox(newer.cursor)).items == []

        mine = await board.send_pm(["Alice", "Вася"], "role", "You are town.")
        sent = await board.sent()
        assert [(m.id, m.recipients) for m in sent.items] == [(mine, ("Alice", "Вася"))]
        assert (await board.sent(sent.cursor)).items == []
        assert [m.subject for m in (await alice.inbox()).items] == ["not for GM", "role"]

    asyncio.run(run())


def test_pm_to_unknown_user_sends_nothing(board: LocalBoard) -> None:
    async def run() -> None:
        with pytest.raises(NotFound):
            await board.send_pm(["Alice", "Ghost"], "s", "b")
        assert (await board.sent()).items == []
        assert (await board.as_user("Alice", "alice-pw").inbox()).items == []

    asyncio.run(run())


def test_times_are_aware_utc(board: LocalBoard, thread: str) -> None:
    msk = timezone(timedelta(hours=3))
    board.post_as("Alice", thread, "x", at=datetime(2024, 3, 1, 19, 0, tzinfo=msk))
    posted = asyncio.run(board.thread_posts(thread)).items[-1].posted_at
    assert posted == datetime(2024, 3, 1, 16, 0, tzinfo=UTC) and posted.utcoffset() == timedelta(0)
    with pytest.raises(ValueError):
        board.post_as("Alice", thread, "x", at=datetime(2024, 3, 1, 19, 0))


def test_shares_a_database_with_other_tables(tmp_path: Path, clock: ManualClock) -> None:
    url = f"sqlite:///{tmp_path}/shared.db"
    other = MetaData()
    Table("games", other, Column("id", Integer, primary_key=True), Column("name", String(20)))
    engine = create_engine(url)
    other.create_all(engine)
    gm = LocalBoard(url, "GM", "gm-pw", clock=clock)
    gm.create_schema()
    gm.add_user("GM", "gm-pw")
    tables = set(inspect(engine).get_table_names())
    assert tables == {"games"} | set(metadata.tables)
    assert all(name.startswith("local_") for name in metadata.tables)
    gm.drop_schema()
    assert set(inspect(engine).get_table_names()) == {"games"}
    asyncio.run(gm.close())
    engine.dispose()


def test_in_memory_database_works_across_sessions(clock: ManualClock) -> None:
    gm = LocalBoard("sqlite://", "GM", "gm-pw", clock=clock)
    gm.create_schema()
    gm.add_user("GM", "gm-pw")
    gm.add_user("Bob", "b")
    thread = gm.create_thread("t", "GM")
    asyncio.run(gm.as_user("Bob", "b").reply(thread, "hello"))
    assert [p.author for p in asyncio.run(gm.thread_posts(thread)).items] == ["Bob"]
    assert asyncio.run(gm.whoami()) == User(gm.user("GM").id, "GM")  # type: ignore[union-attr]
    asyncio.run(gm.close())
