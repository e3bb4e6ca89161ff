"""The thread's cursor on the real FluxBB 1.5.11, pages of five posts (the GM's own
setting): a poll resumes at the cursor's page and reads only it; when a deletion on an
earlier page (FluxBB deletes a post for good) moves the last post seen back a page, the
cursor's page holds only unseen posts and the poll steps back a page, losing nothing. Each
read is checked against the board's database."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from zoneinfo import ZoneInfo

from forums.pages import TopicPage
from tests.live.boards import LiveBoard
from tests.live.games import agree, gm_reader
from tests.live.members import Member

MSK = ZoneInfo("Europe/Moscow")


def test_a_poll_resumes_at_its_page_and_steps_back_over_a_deletion(fluxbb: LiveBoard) -> None:
    assert fluxbb.clock is not None
    fluxbb.clock.set(datetime(2026, 12, 3, 12, 0, tzinfo=MSK))
    fluxbb.execute("UPDATE users SET disp_posts = 5 WHERE username = ?", fluxbb.gm)
    gm = gm_reader(fluxbb)
    thread = gm.open_topic("Страницы", "Первый пост.")
    players = [Member(fluxbb, name) for name in ("Вася", "Петя", "Маша")]

    def post(n: int) -> str:
        fluxbb.clock.advance(70)
        return players[n % 3].post(thread, f"Пост номер {n}.")

    posted = [post(n) for n in range(2, 8)]  # 7 posts: pages of 5 and 2
    asked: list[int] = []
    reads: Callable[[str, int], Awaitable[TopicPage]] = gm.adapter.thread_page

    async def counted(topic: str, number: int = 1) -> TopicPage:
        asked.append(number)
        return await reads(topic, number)

    gm.adapter.thread_page = counted
    first = gm.run(gm.adapter.thread_posts(thread))
    assert len(first.items) == 7 and asked == [1, 2]
    assert first.cursor.data == {"thread": thread, "last_id": int(posted[-1]), "page": 2,
                                 "per_page": 5}  # fmt: skip
    agree(fluxbb, thread, first.items)

    newer = post(8)
    asked.clear()
    again = gm.run(gm.adapter.thread_posts(thread, since=first.cursor))
    assert asked == [2] and [p.id for p in again.items] == [posted[-2], posted[-1], newer]

    # Three posts on page 1 go: the last seen one moves to page 1, page 2 holds only new ones.
    players[0].delete(posted[1])  # Вася's «Пост номер 3»
    players[1].delete(posted[2])  # Петя's «Пост номер 4»
    players[2].delete(posted[3])  # Маша's «Пост номер 5»
    latest = [post(9), post(10)]
    asked.clear()
    after = gm.run(gm.adapter.thread_posts(thread, since=again.cursor))
    assert asked == [2, 1], asked  # the cursor's page, then back one
    ids = [p.id for p in after.items]
    assert ids[-2:] == latest and not set(posted[1:4]) & set(ids)
    assert after.cursor.data["last_id"] == int(latest[-1])
    agree(fluxbb, thread, gm.run(gm.adapter.thread_posts(thread)).items)
    for member in (gm, *players):
        member.close()
