"""`[board] set_date_format = true` on MyBB (issue 26): the adapter makes the GM account's
date and time format ISO 8601 and 24-hour (user CP → Edit Options) once after logging in,
sending the options form back as served — MyBB turns off any option a form leaves out.

Over respx with the pages a real MyBB 1.8.37 served to the adapter doing it
(`fixtures/mybb/own-date-format/`, see its SOURCE.md); login and index are the saved board's."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import httpx
from helpers_mybb import PASSWORD, FakeMybb, html, mybb_board

from forums.mybb import MybbBoard
from forums.mybb.dates import parse_mybb_time
from tests.adapter_helpers import run

OWN = Path(__file__).resolve().parents[3] / "fixtures" / "mybb" / "own-date-format"
OPTIONS = "/usercp.php?action=options"


def own(name: str) -> httpx.Response:
    return html((OWN / name).read_text(encoding="utf-8"))


def prefs_posted(fake: FakeMybb) -> list[dict[str, str]]:
    return fake.posted("/usercp.php")


def test_the_date_and_time_format_are_set_with_every_other_option_sent_back() -> None:
    fake = FakeMybb().with_login()
    fake.on("GET", OPTIONS, own("usercp_options.html"), own("usercp_options_after.html"))
    fake.on("POST", "/usercp.php", own("usercp_options_updated.html"))
    gm = mybb_board(fake, set_date_format=True)
    run(gm, lambda b: b.login())
    assert gm.date_setting is not None and gm.date_setting.changed
    assert gm.date_setting.before == "Use Default, Use Default"
    [sent] = prefs_posted(fake)
    assert (sent["dateformat"], sent["timeformat"]) == ("13", "3")
    assert sent["action"] == "do_options" and sent["my_post_key"]
    # What the GM had is sent back as it was: MyBB would turn off any box left out.
    kept = {
        "allownotices": "1",
        "receivepms": "1",
        "pmnotice": "1",
        "pmnotify": "1",
        "buddyrequestspm": "1",
        "showimages": "1",
        "showsigs": "1",
        "showredirect": "1",
        "timezoneoffset": "0",
        "dstcorrection": "0",
        "subscriptionmethod": "0",
    }
    assert {k: sent.get(k) for k in kept} == kept
    assert "invisible" not in sent and "hideemail" not in sent  # unchecked stay unchecked
    assert PASSWORD not in sent.values()
    assert gm.date_order == "ymd" and "set to Y-m-d H:i" in gm.times_read()


def test_set_before_it_is_left_alone() -> None:
    fake = FakeMybb().with_login()
    fake.on("GET", OPTIONS, own("usercp_options_after.html"))
    gm = mybb_board(fake, set_date_format=True)
    run(gm, lambda b: b.login())
    assert gm.date_setting is not None and not gm.date_setting.changed
    assert prefs_posted(fake) == []
    plain: MybbBoard = mybb_board(fake2 := FakeMybb().with_login())
    run(plain, lambda b: b.login())
    assert OPTIONS not in fake2.targets("GET")


def test_the_formats_times_read_whatever_the_boards_date_order() -> None:
    moscow = ZoneInfo("Europe/Moscow")
    now = datetime(2026, 12, 5, 12, tzinfo=UTC)
    for order in ("mdy", "dmy"):
        read = parse_mybb_time("2026-12-05, 15:07", tz=moscow, now=now, order=order)
        assert read == datetime(2026, 12, 5, 15, 7, tzinfo=moscow)
