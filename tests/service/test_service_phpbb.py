"""One full phase of the service against a web board adapter, over respx and saved pages.

The saved thread (topic 2) is played as a `votecount` game: the driver polls during day 1,
freezes after its deadline (every page read again), resolves and replies once; the lynch is
the one the truth file expects. A send that may have reached the board already is looked
for on the last page alone.

The same test runs per engine (`ENGINES`): phpBB on the saved 3.3.10 pages, XenForo on the
same thread served as XenForo 2 pages (tests/service/xenforo_fixture_board.py), MyBB on the
real MyBB 1.8.37 board of the same game (thread 1 there, with its own truth file). An engine
case says how its board is built and how its requests read (which are thread pages, which
is the reply, which read the GM's sent messages); the phase and its checks are shared.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from types import ModuleType
from typing import Any
from urllib.parse import parse_qsl
from zoneinfo import ZoneInfo

import httpx
import pytest

from engine.publish import find_markers
from engine.service.driver import GameDriver
from engine.store import open_store
from engine.store.models import OutboxStatus, PhaseStatus
from forums.local import ManualClock
from tests.service import mybb_fixture_board as mybb_board
from tests.service import phpbb_fixture_board as phpbb_board
from tests.service import xenforo_fixture_board as xenforo_board
from tests.service.phpbb_fixture_board import PASSWORD, thread_truth

MSK = ZoneInfo("Europe/Moscow")
TRUTH = thread_truth()
DAY1_END = datetime.fromisoformat(TRUTH["deadlines"]["day1"])
FIRST_POST = datetime.fromisoformat(TRUTH["posts"][0]["posted_at"]["utc"])


def _target(request: httpx.Request) -> str:
    """path?query with `sid` dropped and the query sorted, as the fake boards key pages."""
    query = sorted((k, v) for k, v in parse_qsl(request.url.query.decode()) if k != "sid")
    return request.url.path + ("?" + "&".join(f"{k}={v}" for k, v in query) if query else "")


@dataclass(frozen=True)
class EngineCase:
    """How one engine's saved board is built and how its requests read."""

    engine: str
    url: str
    board: ModuleType
    """The fixture-board module: `saved_board(lang)`, `make_board(fake)`."""
    new_post: Callable[[str], str]
    """The id the board gives the results post, per language."""
    is_thread_page: Callable[[httpx.Request], bool]
    last_page: str
    """The target of the thread's last page (what a poll reads)."""
    reply_path: str
    login_path: str
    sent_reads: Callable[[list[httpx.Request]], int]
    """How many reads of the GM's sent messages are among these requests."""
    before_reply: Callable[[httpx.Request], bool]
    """Whether the request just before the reply is what the engine reads first (a form)."""
    confirm_page: Callable[[str], str]
    """The target read last: the board's page of the new post."""
    thread: str = "2"
    truth: dict[str, Any] | None = None
    """The board's own truth file when it is not the phpBB board's (players, tallies)."""

    @property
    def facts(self) -> dict[str, Any]:
        return self.truth or TRUTH


def _phpbb_sent(requests: list[httpx.Request]) -> int:
    folders = [
        dict(parse_qsl(r.url.query.decode())).get("folder")
        for r in requests
        if r.method == "GET" and r.url.path == "/ucp.php"
    ]
    return folders.count("outbox") + folders.count("sentbox")


def _mybb_sent(requests: list[httpx.Request]) -> int:
    reads = [r for r in requests if r.method == "GET" and r.url.path == "/private.php"]
    return sum(dict(parse_qsl(r.url.query.decode())).get("fid") == "2" for r in reads)


def _xenforo_sent(requests: list[httpx.Request]) -> int:
    # The GM's sent messages are in the same conversations as the inbox: the freeze reads
    # the list once for the inbox; every further read would be the sent box.
    lists = [r for r in requests if r.method == "GET" and r.url.path == "/conversations/"]
    return len(lists) - 1


ENGINES = {
    "phpbb": EngineCase(
        engine="phpbb",
        url="http://127.0.0.1:8081/",
        board=phpbb_board,
        new_post=lambda lang: phpbb_board.NEW_POST[lang],
        is_thread_page=lambda r: r.url.path == "/viewtopic.php",
        last_page="/viewtopic.php?start=60&t=2",
        reply_path="/posting.php",
        login_path="/ucp.php",
        sent_reads=_phpbb_sent,
        before_reply=lambda r: _target(r) == "/posting.php?mode=reply&t=2",
        confirm_page=lambda new: f"/viewtopic.php?p={new}",
    ),
    "xenforo": EngineCase(
        engine="xenforo",
        url="http://127.0.0.1:8082/",
        board=xenforo_board,
        new_post=lambda lang: xenforo_board.NEW_POST,
        is_thread_page=lambda r: r.url.path.startswith("/threads/2/"),
        last_page="/threads/2/page-7",
        reply_path="/threads/2/add-reply",
        login_path="/login/login",
        sent_reads=_xenforo_sent,
        # XenForo takes the token of the page just read: no form is fetched first.
        before_reply=lambda r: r.url.path.startswith(("/threads/2/", "/conversations/")),
        confirm_page=lambda new: "/threads/2/page-7",
    ),
    "mybb": EngineCase(
        engine="mybb",
        url="http://127.0.0.1:8082/",
        board=mybb_board,
        new_post=lambda lang: mybb_board.NEW_POST,
        is_thread_page=lambda r: r.url.path == "/showthread.php",
        last_page="/showthread.php?mode=linear&page=7&tid=1",
        reply_path="/newreply.php",
        login_path="/member.php",
        sent_reads=_mybb_sent,
        before_reply=lambda r: _target(r) == "/newreply.php?tid=1",
        confirm_page=lambda new: f"/showthread.php?mode=linear&pid={new}&tid=1",
        thread="1",
        truth=mybb_board.thread_truth(),
    ),
}


def _config(case: EngineCase, lang: str) -> Any:
    return phpbb_board.game_config(
        lang, engine=case.engine, url=case.url, thread=case.thread, players=case.facts["players"]
    )


@pytest.mark.parametrize("engine", sorted(ENGINES))
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_one_phase_on_the_saved_board(tmp_path: Any, lang: str, engine: str) -> None:
    case = ENGINES[engine]
    assert case.facts["deadlines"]["day1"] == TRUTH["deadlines"]["day1"]
    final = case.facts["expected_tallies"]["day1_final (GM post P39)"]
    config = _config(case, lang)
    assert config.start < FIRST_POST < DAY1_END
    store = open_store(f"sqlite:///{tmp_path / 'game.sqlite'}")
    fake = case.board.saved_board(lang)
    clock = ManualClock(config.start)
    board = case.board.make_board(fake)
    driver = GameDriver(store, board, config, clock=clock)
    assert driver.start()
    ph = store.current_phase(driver.game_id)
    assert ph is not None and ph.phase == "day 1" and ph.deadline == DAY1_END

    async def day() -> tuple[list[str], list[int]]:
        said, marks = [], []
        # Two polls in the day, then a step after the deadline.
        for now in ("2026-11-27 14:00", "2026-11-27 21:00", "2026-11-27 22:05"):
            clock.set(datetime.fromisoformat(now).replace(tzinfo=MSK))
            said.append(await driver.step(clock()))
            marks.append(len(fake.requests))
        await board.close()
        return said, marks

    said, (first_poll, second_poll, end) = asyncio.run(day())
    assert said[0].startswith("day 1: open") and said[1].startswith("day 1: open")
    assert "the list of deadlines has run out" in said[2]  # the one listed deadline is done
    assert end == len(fake.requests)

    # -- the request log ----------------------------------------------------------------
    def topic_reads(start: int, stop: int) -> list[str]:
        return [_target(r) for r in fake.requests[start:stop] if case.is_thread_page(r)]

    assert len(topic_reads(0, first_poll)) == 7  # the first poll reads the thread whole
    # The next poll starts at the page that held the last post seen: only the last page.
    assert topic_reads(first_poll, second_poll) == [case.last_page]
    posts = [r for r in fake.requests if r.method == "POST" and r.url.path == case.reply_path]
    assert len(posts) == 1, "the results were posted exactly once"
    post_at = fake.requests.index(posts[0])
    # After the deadline: every page read again (the freeze). A first send is never looked
    # for on the board (it cannot be there yet): no marker check at all before the reply.
    assert len(topic_reads(second_poll, post_at)) == 7
    assert case.sent_reads(fake.requests[second_poll:post_at]) == 0
    assert case.before_reply(fake.requests[post_at - 1])
    form = dict(parse_qsl(posts[0].content.decode(), keep_blank_values=True))
    marker = driver.marker("day 1", "results")
    assert find_markers(form["message"]) == [marker]
    assert PASSWORD not in form["message"]
    # The board's page of the new post is the last thing read; one login in all.
    new_post = case.new_post(lang)
    assert _target(fake.requests[-1]) == case.confirm_page(new_post)
    assert len(fake.posted(case.login_path)) == 1

    # -- the outbox and the phase -------------------------------------------------------
    items = {i.marker: i for i in store.outbox(driver.game_id)}
    results = items[marker]
    assert results.status is OutboxStatus.POSTED and results.board_id == new_post
    day_items = store.outbox(driver.game_id, "day 1")
    assert [i.marker for i in day_items] == [marker]  # no PMs: votecount has no private results
    # No opening post was drafted: the saved thread has the host's own (P01).
    assert driver.marker("opening") not in items
    assert store.get_phase(driver.game_id, "day 1").status is PhaseStatus.PUBLISHED

    # -- the lynch, as the truth file expects at the end of day 1 -----------------------
    events = store.events(driver.game_id, "day 1")
    (tally,) = [e for e in events if e.type == "vote_tally"]
    assert tally.fields["votes"] == final["each_players_vote"]
    expected = {row["target"]: row["count"] for row in final["tally"]}
    assert tally.fields["totals"] == expected
    assert tally.fields["not_voting"] == final["not_voting"]
    lynched = [e.fields["player"] for e in events if e.type == "lynch"]
    top = max(final["tally"], key=lambda row: row["count"])["target"]
    assert lynched == [top] == ["Лёха"]
    assert TRUTH["deaths"][0]["player"] == "Лёха"
    body = form["message"]
    assert "Лёха" in body and str(expected["Лёха"]) in body
    assert ("Итоги дня 1" in body) if lang == "ru" else ("Results of day 1" in body)

    # A restarted process finds the phase published and sends nothing again.
    fake_again = case.board.saved_board(lang)
    again = GameDriver(store, case.board.make_board(fake_again), config, clock=clock)
    assert "the list of deadlines has run out" in asyncio.run(again.step(clock()))
    assert fake_again.posted(case.reply_path) == []
