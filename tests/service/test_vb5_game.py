"""A `votecount` day on the fake vBulletin 5 board (tests/forums/vbulletin/helpers_vb5.py),
end to end: the driver posts the opening post through `create-content/text`, reads the
players' votes off the thread's node pages (or, voting by PM, out of the GM's
conversations), and posts the vote count at the deadline."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

import pytest

from engine.config import parse_config
from engine.service.driver import GameDriver
from engine.store import open_store
from forums.local import ManualClock
from tests.forums.vbulletin.helpers_vb5 import GM, Vb5Fake, made_post, vb5_board

GAME = """\
[game]
ruleset = "votecount"
language = "en"
review = "auto"
receipts = false

[board]
engine = "vbulletin5"
url = "https://fandompost.vbulletin.net/"
thread = "727744"
gm_user = "Kinematics"
password = "env:FORUMGM_TEST_GM"

[schedule]
timezone = "UTC"
deadlines = ["2026-12-01 23:00"]
start = "2026-12-01 21:00"

[players]
players = ["Shirohige", "Buckeye", "Deo"]

[options]
vote_channel = "{channel}"
"""


@pytest.mark.parametrize("by_pm", [False, True], ids=["thread-votes", "pm-votes"])
def test_a_day_is_read_and_counted_on_vbulletin_5(tmp_path: Path, by_pm: bool) -> None:
    game = GAME.format(channel="pm" if by_pm else "thread")
    config = parse_config(game)
    store = open_store(f"sqlite:///{tmp_path / 'game.sqlite'}")
    fake = Vb5Fake()
    board, _, _, _ = vb5_board(fake)
    clock = ManualClock(config.start)
    driver = GameDriver(store, board, config, clock=clock)
    assert driver.start()
    store.approve(driver.game_id, None)

    def at(hhmm: str) -> datetime:
        when = datetime.fromisoformat(f"2026-12-01 {hhmm}").replace(tzinfo=UTC)
        clock.set(when)
        fake.now = int(when.timestamp())
        return when

    def vote(node: int, who: str, uid: str, hhmm: str, text: str) -> None:
        stamp = int(datetime.fromisoformat(f"2026-12-01 {hhmm}").replace(tzinfo=UTC).timestamp())
        if by_pm:  # a new conversation with the GM, sent at that time
            fake.now = stamp - 60
            fake.add_message((uid, who), text, "Vote", recipients=[GM])
        else:
            fake.page2.append(made_post(str(node), who, uid, stamp, 16 + len(fake.page2), text))

    async def day() -> list[str]:
        said = [await driver.step(at("21:01"))]  # the opening post goes out
        vote(731900, "Shirohige", "250472", "21:30", "vote Buckeye")
        vote(731901, "Deo", "77", "21:40", "vote Buckeye")
        vote(731902, "Buckeye", "1712", "22:10", "vote Shirohige")
        said.append(await driver.step(at("22:30")))
        said.append(await driver.step(at("23:05")))  # the deadline: the count goes out
        said.append(await driver.step(at("23:06")))
        await board.close()
        return said

    said = asyncio.run(day())
    gm_posts = [p for p in fake.page2 if f">{GM}<" in p]
    assert len(gm_posts) >= 2, said  # the opening post and the day's count
    tally = next(e for e in store.events(driver.game_id, "day 1") if e.type == "vote_tally")
    assert dict(tally.fields["votes"]) == {
        "Shirohige": "Buckeye",
        "Deo": "Buckeye",
        "Buckeye": "Shirohige",
    }
    assert "Results of day 1" in gm_posts[-1] and "[b]Buckeye[/b] — 2 votes" in gm_posts[-1]
