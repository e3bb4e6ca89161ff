"""One full phase of the service against the phpBB adapter, over respx and the saved pages.

The saved thread (topic 2) is played as a `votecount` game: the driver polls during day 1,
freezes after its deadline (every page read again), resolves and replies once; the lynch is
the one the truth file expects. A send that may have reached the board already is looked
for on the last page alone.
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any
from urllib.parse import parse_qsl
from zoneinfo import ZoneInfo

import httpx
import pytest

from engine.config import parse_config
from engine.publish import find_markers
from engine.service.driver import GameDriver
from engine.store import open_store
from engine.store.models import OutboxStatus, PhaseStatus
from forums.local import ManualClock
from tests.service.phpbb_fixture_board import (
    NEW_POST,
    PASSWORD,
    make_board,
    saved_board,
    thread_truth,
)

MSK = ZoneInfo("Europe/Moscow")
TRUTH = thread_truth()
DAY1_END = datetime.fromisoformat(TRUTH["deadlines"]["day1"])
FINAL = TRUTH["expected_tallies"]["day1_final (GM post P39)"]
FIRST_POST = datetime.fromisoformat(TRUTH["posts"][0]["posted_at"]["utc"])

GAME = """\
[game]
ruleset = "votecount"
title = "Мафия #7: Город в тумане"
language = "{lang}"
review = "warnings"
receipts = false

[board]
engine = "phpbb"
url = "http://127.0.0.1:8081/"
allow_insecure_http = true  # the saved board is served at http://127.0.0.1
thread = "2"
gm_user = "Ведущий"
password = "env:FORUMGM_TEST_GM"

[schedule]
timezone = "Europe/Moscow"
deadlines = ["{deadline}"]
start = "2026-11-26 19:00"

[players]
players = [{players}]
"""


def _config(lang: str) -> Any:
    players = ", ".join(f'"{p["username"]}"' for p in TRUTH["players"])
    deadline = DAY1_END.astimezone(MSK).strftime("%Y-%m-%d %H:%M")
    return parse_config(GAME.format(lang=lang, players=players, deadline=deadline))


def _target(request: httpx.Request) -> str:
    """path?query with `sid` dropped and the query sorted, as the fake board keys pages."""
    query = sorted((k, v) for k, v in parse_qsl(request.url.query.decode()) if k != "sid")
    return request.url.path + ("?" + "&".join(f"{k}={v}" for k, v in query) if query else "")


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_one_phase_on_the_saved_phpbb_board(tmp_path: Any, lang: str) -> None:
    config = _config(lang)
    assert config.start < FIRST_POST < DAY1_END
    store = open_store(f"sqlite:///{tmp_path / 'game.sqlite'}")
    fake = saved_board(lang)
    clock = ManualClock(config.start)
    board = make_board(fake)
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
    assert said[2] == "no more deadlines"  # the one listed deadline is done
    assert end == len(fake.requests)

    # -- the request log ----------------------------------------------------------------
    def topic_reads(start: int, stop: int) -> list[str]:
        return [_target(r) for r in fake.requests[start:stop] if r.url.path == "/viewtopic.php"]

    assert len(topic_reads(0, first_poll)) == 7  # the first poll reads the thread whole
    # The next poll starts at the page that held the last post seen: only the last page.
    assert topic_reads(first_poll, second_poll) == ["/viewtopic.php?start=60&t=2"]
    posts = [r for r in fake.requests if r.method == "POST" and r.url.path == "/posting.php"]
    assert len(posts) == 1, "the results were posted exactly once"
    post_at = fake.requests.index(posts[0])
    # After the deadline: every page read again (the freeze). A first send is never looked
    # for on the board (it cannot be there yet): no marker check at all before the reply.
    assert len(topic_reads(second_poll, post_at)) == 7
    folders = [
        dict(parse_qsl(r.url.query.decode())).get("folder")
        for r in fake.requests[second_poll:post_at]
        if r.method == "GET" and r.url.path == "/ucp.php"
    ]
    assert folders.count("outbox") == folders.count("sentbox") == 0
    assert _target(fake.requests[post_at - 1]) == "/posting.php?mode=reply&t=2"  # the form
    form = dict(parse_qsl(posts[0].content.decode(), keep_blank_values=True))
    marker = driver.marker("day 1", "results")
    assert find_markers(form["message"]) == [marker]
    assert PASSWORD not in form["message"]
    # The board's page of the new post is the last thing read; one login in all.
    assert _target(fake.requests[-1]) == f"/viewtopic.php?p={NEW_POST[lang]}"
    assert len(fake.posted("/ucp.php")) == 1

    # -- the outbox and the phase -------------------------------------------------------
    items = {i.marker: i for i in store.outbox(driver.game_id)}
    results = items[marker]
    assert results.status is OutboxStatus.POSTED and results.board_id == NEW_POST[lang]
    day_items = store.outbox(driver.game_id, "day 1")
    assert [i.marker for i in day_items] == [marker]  # no PMs: votecount has no private results
    # The opening post was never approved: the saved thread has the host's own (P01).
    opening = items[driver.marker("opening")]
    assert opening.status is OutboxStatus.DRAFT
    assert store.get_phase(driver.game_id, "day 1").status is PhaseStatus.PUBLISHED

    # -- the lynch, as the truth file expects at the end of day 1 -----------------------
    events = store.events(driver.game_id, "day 1")
    (tally,) = [e for e in events if e.type == "vote_tally"]
    assert tally.fields["votes"] == FINAL["each_players_vote"]
    expected = {row["target"]: row["count"] for row in FINAL["tally"]}
    assert tally.fields["totals"] == expected
    assert tally.fields["not_voting"] == FINAL["not_voting"]
    lynched = [e.fields["player"] for e in events if e.type == "lynch"]
    top = max(FINAL["tally"], key=lambda row: row["count"])["target"]
    assert lynched == [top] == ["Лёха"]
    assert TRUTH["deaths"][0]["player"] == "Лёха"
    body = form["message"]
    assert "Лёха" in body and str(expected["Лёха"]) in body
    assert ("Итоги дня 1" in body) if lang == "ru" else ("Results of day 1" in body)

    # A restarted process finds the phase published and sends nothing again.
    fake_again = saved_board(lang)
    again = GameDriver(store, make_board(fake_again), config, clock=clock)
    assert asyncio.run(again.step(clock())) == "no more deadlines"
    assert fake_again.posted("/posting.php") == []
