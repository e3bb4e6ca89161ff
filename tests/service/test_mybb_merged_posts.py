"""MyBB's merged double posts, end to end: adapter → store → parser → replay → the tally.

MyBB joins a user's post to their previous one when it comes soon after and nobody posted
in between (`postmergemins`): two posts' worth of votes in one post id, the second after
`[hr]`, and an edit notice at the time of the merge. The last vote still counts when the
merge came before the deadline; a merge after it is read as the post was at the deadline
(when forumgm saw it then), or flagged for the host (when it never did).

The thread is a one-page thread derived from the saved last page (`showthread_p7.html`, its
pagination taken out): вася2's post 62 «Голосую за Alu» (22:02), then the GM's post 63. The
merged version is derived the way MyBB renders a merge (`showthread_p7_merged_double_post.html`
shows the real one): the second text after `<hr class="mycode_hr" />` and the edit notice.
"""

from __future__ import annotations

import asyncio
import re
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import httpx

from engine.config import parse_config
from engine.service.driver import GameDriver
from engine.store import open_store
from forums.local import ManualClock
from tests.service.helpers import start_went_out
from tests.service.mybb_fixture_board import helpers, make_board

MSK = ZoneInfo("Europe/Moscow")
GAME = """\
[game]
ruleset = "votecount"
language = "ru"
review = "always"
receipts = false

[board]
engine = "mybb"
url = "http://127.0.0.1:8082/"
allow_insecure_http = true
thread = "1"
gm_user = "Ведущий"
password = "env:FORUMGM_TEST_GM"

[schedule]
timezone = "Europe/Moscow"
deadlines = ["2026-11-29 23:00"]
start = "2026-11-29 21:00"

[players]
players = ["вася2", "Alu", "Nekr0"]
"""


def _one_page(body: str) -> str:
    return re.sub(r"<!-- start: multipage -->.*?<!-- end: multipage -->", "", body, flags=re.S)


def thread_page(*, merged_at: str | None) -> httpx.Response:
    body = _one_page(helpers.page("showthread_p7"))
    if merged_at is not None:
        body = body.replace(
            '<div class="post_body scaleimages" id="pid_62">\n\t\tГолосую за Alu',
            '<div class="post_body scaleimages" id="pid_62">\n\t\tГолосую за Alu<br />\n'
            '<hr class="mycode_hr" />\nГолосую за Nekr0',
        )
        body = body.replace(
            '<span class="post_edit" id="edited_by_62"></span>',
            '<span class="post_edit" id="edited_by_62"><span class="edited_post">(This post was '
            f'last modified: 11-29-2026, {merged_at} by <a href="http://127.0.0.1:8082/member.php'
            '?action=profile&amp;uid=4">вася2</a>.)</span></span>',
        )
        assert "Голосую за Nekr0" in body and "10:" in body
    return helpers.html(body)


def empty_inbox() -> httpx.Response:
    """The inbox with every row replaced by MyBB's empty-folder row (derived)."""
    rows = re.compile(r"<!-- start: private_messagebit -->.*<!-- end: private_messagebit -->", re.S)
    empty = '<tr><td class="trow1" colspan="6" align="center">There are no messages in this folder.</td></tr>'
    return helpers.html(rows.sub(empty, helpers.page("private_inbox")))


def play(
    tmp_path: Path, reads: list[tuple[str, httpx.Response]]
) -> tuple[dict[str, str | None], list[tuple[str, bool]]]:
    """Step the driver at each (time, what the thread page shows then); the day's votes and
    warnings after the deadline."""
    config = parse_config(GAME)
    store = open_store(f"sqlite:///{tmp_path / 'game.sqlite'}")
    fake = helpers.FakeMybb().with_login()
    fake.on("GET", "/private.php?fid=0", empty_inbox())
    board = make_board(fake)
    clock = ManualClock(config.start)
    driver = GameDriver(store, board, config, clock=clock)
    assert driver.start()
    start_went_out(store, driver.game_id, config.start)

    async def day() -> list[str]:
        said = []
        for when, shown in reads:
            fake.on("GET", helpers.thread_url(1), shown)
            clock.set(datetime.fromisoformat(when).replace(tzinfo=MSK))
            said.append(await driver.step(clock()))
        await board.close()
        return said

    said = asyncio.run(day())
    assert said[-1].startswith("day 1: results wait for the host"), said
    tally = next(e for e in store.events(driver.game_id, "day 1") if e.type == "vote_tally")
    warnings = [
        (w.warning.code, w.warning.accepted) for w in store.parse_warnings(driver.game_id, "day 1")
    ]
    return dict(tally.fields["votes"]), warnings


def test_a_merge_before_the_deadline_counts_the_second_vote(tmp_path: Path) -> None:
    votes, warnings = play(
        tmp_path,
        [
            ("2026-11-29 22:30", thread_page(merged_at=None)),
            ("2026-11-29 22:45", thread_page(merged_at="10:40 PM")),
            ("2026-11-29 23:05", thread_page(merged_at="10:40 PM")),
        ],
    )
    assert votes["вася2"] == "Nekr0"
    assert not [w for w in warnings if w[0] == "edited_after_deadline"]


def test_a_merge_seen_only_at_the_freeze_before_the_deadline_counts_too(tmp_path: Path) -> None:
    votes, _ = play(
        tmp_path,
        [
            ("2026-11-29 22:30", thread_page(merged_at=None)),
            ("2026-11-29 23:05", thread_page(merged_at="10:50 PM")),
        ],
    )
    assert votes["вася2"] == "Nekr0"


def test_a_merge_after_the_deadline_keeps_the_vote_seen_before_it(tmp_path: Path) -> None:
    votes, warnings = play(
        tmp_path,
        [
            ("2026-11-29 22:30", thread_page(merged_at=None)),
            ("2026-11-29 23:15", thread_page(merged_at="11:10 PM")),
        ],
    )
    assert votes["вася2"] == "Alu"
    assert ("edited_after_deadline", True) in warnings


def test_a_merge_after_the_deadline_never_seen_before_goes_to_the_host(tmp_path: Path) -> None:
    votes, warnings = play(tmp_path, [("2026-11-29 23:15", thread_page(merged_at="11:10 PM"))])
    assert votes["вася2"] == "Nekr0"  # read as it is now, and the host is asked
    assert ("edited_after_deadline", False) in warnings
