"""The outbox's board check on phpBB costs what is new: the last page, not the whole thread.

A send that may already have reached the board (a crash after the board took it) is looked
for on the pages after the last post the publisher knows of: the freeze just read them all,
so one topic page is read before the reply goes out.
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from pathlib import Path

from engine.publish import Publisher, post_draft
from engine.store import open_store
from tests.service.phpbb_fixture_board import USER, make_board, saved_board


def test_a_send_that_may_be_on_the_board_costs_one_page(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'game.sqlite'}")
    board_row = store.create_board("phpbb", "http://127.0.0.1:8081/", USER)
    game = store.create_game(board_row.id, "2", "votecount", seed=1)
    fake = saved_board("ru")
    board = make_board(fake)
    publisher = Publisher(store, board, game.id, "2", USER)
    marker = "0123456789abcdef01234567"
    store.enqueue(game.id, None, [post_draft("Итоги дня 1", marker)])
    store.approve(game.id, None)
    store.mark_sending(marker, datetime.now().astimezone())  # a crash came mid-send

    async def run() -> tuple[int, int, int]:
        page = await board.thread_posts("2")  # the freeze: every page, read by the driver
        publisher.saw_thread(page.items, page.cursor)
        before = len(fake.requests)
        sent = await publisher.publish()
        await board.close()
        return sent, before, len(fake.requests)

    sent, before, after = asyncio.run(run())
    assert sent == 1
    topic = [
        r.url.params.get("start")
        for r in fake.requests[before:after]
        if r.url.path == "/viewtopic.php" and "t" in r.url.params
    ]
    assert topic == ["60"]  # the marker check: the last page only
    # Beyond the post itself (form, POST, the new post's page): that one page.
    assert after - before == 1 + 3
    item = store.find_by_marker(marker)
    assert item is not None and item.status == "posted"


def test_a_spoiler_goes_to_a_stock_board_as_a_title_over_a_quote(tmp_path: Path) -> None:
    """Issue 24 §5: stock MyBB 1.8 and phpBB 3.3 have no [spoiler]: the vote count's
    «[spoiler=История голосов]» showed as plain text with its tags. The post goes out in the
    board's own BBCode; the store keeps the draft as rendered."""
    from urllib.parse import parse_qs

    store = open_store(f"sqlite:///{tmp_path / 'game.sqlite'}")
    board_row = store.create_board("phpbb", "http://127.0.0.1:8081/", USER)
    game = store.create_game(board_row.id, "2", "votecount", seed=1)
    fake = saved_board("ru")
    board = make_board(fake)
    publisher = Publisher(store, board, game.id, "2", USER)
    marker = "0123456789abcdef01234568"
    text = "[b]Голосование[/b]\n[spoiler=История голосов]\nВася → Коля\n[/spoiler]"
    store.enqueue(game.id, None, [post_draft(text, marker)])
    store.approve(game.id, None)

    async def run() -> int:
        page = await board.thread_posts("2")
        publisher.saw_thread(page.items, page.cursor)
        sent = await publisher.publish()
        await board.close()
        return sent

    assert asyncio.run(run()) == 1
    [message] = [
        parse_qs(r.content.decode())["message"][0]
        for r in fake.requests
        if r.method == "POST" and r.url.path == "/posting.php"
    ]
    assert "[spoiler" not in message and "[/spoiler]" not in message
    assert "[b]История голосов[/b]\n[quote]\nВася → Коля\n[/quote]" in message
    item = store.find_by_marker(marker)
    assert item is not None and "[spoiler=История голосов]" in item.bbcode
