"""A `votecount` day on a fake vBulletin 3/4 board (the `vbulletin` engine) built from the
real vB 3.8 thread page the GM sees (fixtures/vbulletin/real) and the templated PM pages,
end to end through the game driver: the opening post and the count go out through the
thread's quick-reply form, the players' votes are read off the thread's last page (or,
voting by PM, out of the GM's inbox), and the count is read back from the board the way
the players see it.

The only real vB4 page saved is a guest's (no quick-reply form, no security token), so
the GM's side is driven on the vB3 page; vB3 and vB4 share the engine, its forms and its
scripts."""

from __future__ import annotations

import asyncio
import html as htmlmod
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from email.utils import format_datetime
from pathlib import Path
from urllib.parse import parse_qs

import httpx
import pytest

from engine.config import parse_config
from engine.service.driver import GameDriver
from engine.store import open_store
from forums.local import ManualClock
from tests.adapter_helpers import FakeTime
from tests.forums.vbulletin.helpers_vb import GM, fake_board, made, vb3_last_page

GAME = """\
[game]
ruleset = "votecount"
language = "en"
review = "auto"
receipts = false

[board]
engine = "vbulletin"
url = "https://forums.animesuki.com/"
thread = "128882"
gm_user = "Kinematics"
password = "env:FORUMGM_TEST_GM"

[schedule]
timezone = "UTC"
deadlines = ["2026-12-01 23:00"]
start = "2026-12-01 21:00"

[players]
players = ["Shirohige", "Kamieichi", "Proto"]

[options]
vote_channel = "{channel}"
"""

MEMBERS = {"Kinematics": "47030", "Shirohige": "250472", "Kamieichi": "218113", "Proto": "11155"}
BOARD_ZONE = timezone(timedelta(hours=-5))
"""The page footer's "All times are GMT -5"."""
LAST = "5778211"
"""The real page's last post, whose markup every added post copies."""


def shown(when: datetime) -> str:
    return f"{when.astimezone(BOARD_ZONE):%Y-%m-%d, %H:%M}"


def rendered(bbcode: str) -> str:
    """The message as vBulletin shows it: the form's `&#N;` as characters, `[b]` and
    `[color]` as HTML, lines as `<br />`."""
    text = re.sub(r"&#(\d+);", lambda m: chr(int(m.group(1))), bbcode)
    text = htmlmod.escape(text, quote=False)
    text = re.sub(r"\[b\](.*?)\[/b\]", r"<b>\1</b>", text, flags=re.S)
    text = re.sub(r"\[color=(#?\w+)\](.*?)\[/color\]", r'<font color="\1">\2</font>', text)
    return text.replace("\n", "<br />\n")


@dataclass
class VbThread:
    """Thread 128882 as the GM sees it, growing: every post made since the capture is
    added after the real page's last, in its markup; the inbox lists the PMs sent to him."""

    now: datetime
    posts: list[tuple[str, str, datetime, str]] = field(default_factory=list)
    pms: list[tuple[str, str, datetime, str, str]] = field(default_factory=list)
    logged_in: bool = False

    def add(self, who: str, when: datetime, bbcode: str) -> str:
        pid = str(int(LAST) + 100 + len(self.posts))
        self.posts.append((pid, who, when, bbcode))
        return pid

    def add_pm(self, who: str, when: datetime, subject: str, bbcode: str) -> None:
        self.pms.append((str(901300 + len(self.pms)), who, when, subject, bbcode))

    def thread(self) -> str:
        text = vb3_last_page()
        start = text.index(f"<!-- post #{LAST} -->")
        end = text.index(f"<!-- / post #{LAST} -->") + len(f"<!-- / post #{LAST} -->")
        model = text[start:end]
        body = re.search(
            r'<div id="post_message_\d+"[^>]*>(.*?)</div>\s*<!-- / message -->', model, re.S
        )
        assert body is not None
        added = []
        for pid, who, when, bbcode in self.posts:
            parts = [model[: body.start(1)], model[body.end(1) :]]
            for old, new in (
                ("2016-02-13, 10:38", shown(when)),
                (LAST, pid),
                ("Kamieichi", who),
                ("218113", MEMBERS[who]),
            ):
                parts = [part.replace(old, new) for part in parts]
            added.append(parts[0] + rendered(bbcode) + parts[1])
        return text[:end] + "".join(added) + text[end:]

    def inbox(self) -> str:
        text = made("pm_inbox.html")
        first = text.index("<tr>", text.index('name="pmform"'))  # the folder's own rows
        head, rest = text[:first], text[first:]
        rows = []
        for pmid, who, when, subject, _ in reversed(self.pms):
            local = when.astimezone(BOARD_ZONE)
            rows.append(f"""<tr>
	<td class="alt1"><img src="images/statusicon/pm_new.gif" alt="" border="0" /></td>
	<td class="alt1 alt1Active" id="m{pmid}" width="100%">
		<div>
			<span style="float:right" class="smallfont">{local:%Y-%m-%d}</span>
			<a href="private.php?do=showpm&amp;pmid={pmid}">{htmlmod.escape(subject)}</a>
		</div>
		<div class="smallfont">
			<span style="float:right" class="time">{local:%H:%M}</span>
			<span style="cursor:pointer" onclick="window.location='member.php?u={MEMBERS[who]}';">{who}</span>
		</div>
	</td>
	<td class="alt2" align="center" style="padding:0px"><input type="checkbox" name="pm[{pmid}]" id="pmlist_{pmid}" value="0" /></td>
</tr>
""")
        table_end = rest.index("</table>")
        return head + "".join(rows) + rest[table_end:]

    def showpm(self, pmid: str) -> str | None:
        for number, who, when, subject, bbcode in self.pms:
            if number == pmid:
                text = made("pm_showpm.html").replace("Night 1 orders", htmlmod.escape(subject))
                text = text.replace("Today, 11:58", shown(when))
                text = text.replace("u=250472", f"u={MEMBERS[who]}").replace("Shirohige", who)
                start = text.index('<div id="post_message_">') + len('<div id="post_message_">')
                end = text.index("</div>\n\t\t<!-- / message -->")
                return text[:start] + rendered(bbcode) + text[end:]
        return None

    def __call__(self, request: httpx.Request) -> httpx.Response | None:
        path, params = request.url.path, request.url.params
        if (request.method, path) == ("POST", "/login.php"):
            self.logged_in = True
            return self.html(made("login_redirect.html"))
        if not self.logged_in:
            return self.html(made("not_logged_in.html"))
        if path in ("/", "/index.php"):
            return self.html(vb3_last_page())
        if path == "/showthread.php" and params.get("t", "128882") == "128882":
            return self.html(self.thread())
        if (request.method, path) == ("POST", "/newreply.php"):
            form = {k: v[0] for k, v in parse_qs(request.content.decode()).items()}
            assert form["t"] == "128882" and form["securitytoken"]
            pid = self.add(GM, self.now, form["message"])
            return self.html(made("post_redirect.html").replace(LAST, pid))
        if path == "/private.php" and params.get("do") == "showpm":
            shown_pm = self.showpm(params.get("pmid", ""))
            return self.html(shown_pm) if shown_pm else None
        if path == "/private.php" and params.get("folderid", "0") == "0" and "do" not in params:
            return self.html(self.inbox())
        return None

    def html(self, text: str) -> httpx.Response:
        headers = {
            "Content-Type": "text/html; charset=utf-8",
            "Date": format_datetime(self.now, usegmt=True),
        }
        return httpx.Response(200, text=text, headers=headers)


@pytest.mark.parametrize("by_pm", [False, True], ids=["thread-votes", "pm-votes"])
def test_a_day_is_read_and_counted_on_vbulletin_3_and_4(tmp_path: Path, by_pm: bool) -> None:
    config = parse_config(GAME.format(channel="pm" if by_pm else "thread"))
    store = open_store(f"sqlite:///{tmp_path / 'game.sqlite'}")
    fake = VbThread(now=config.start)
    board, _, board_clock = fake_board(fake, clock=FakeTime(config.start))
    clock = ManualClock(config.start)
    driver = GameDriver(store, board, config, clock=clock)
    assert driver.start()
    store.approve(driver.game_id, None)

    def at(hhmm: str) -> datetime:
        when = datetime.fromisoformat(f"2026-12-01 {hhmm}").replace(tzinfo=UTC)
        clock.set(when)
        fake.now = board_clock.now = when
        return when

    def vote(who: str, hhmm: str, text: str) -> None:
        when = datetime.fromisoformat(f"2026-12-01 {hhmm}").replace(tzinfo=UTC)
        if by_pm:
            fake.add_pm(who, when, "Vote", text)
        else:
            fake.add(who, when, text)

    async def day() -> list[str]:
        said = [await driver.step(at("21:01"))]  # the opening post goes out
        vote("Shirohige", "21:30", "vote Kamieichi")
        vote("Proto", "21:40", "I vote [b]Kamieichi[/b] too")
        vote("Kamieichi", "22:10", "vote Shirohige")
        said.append(await driver.step(at("22:30")))
        said.append(await driver.step(at("23:05")))  # the deadline: the count goes out
        said.append(await driver.step(at("23:06")))
        return said

    said = asyncio.run(day())
    tally = next(e for e in store.events(driver.game_id, "day 1") if e.type == "vote_tally")
    assert dict(tally.fields["votes"]) == {
        "Shirohige": "Kamieichi",
        "Proto": "Kamieichi",
        "Kamieichi": "Shirohige",
    }, said

    async def read_back() -> list[tuple[str, str]]:
        got = await board.thread_posts(config.thread)
        await board.close()
        return [(p.author, p.body.text()) for p in got.items]

    on_board = asyncio.run(read_back())
    gm_posts = [text for who, text in on_board if who == GM]
    assert len(gm_posts) == 2, (said, on_board)  # the opening post and the day's count
    count = gm_posts[-1]
    assert "Results of day 1" in count, count
    assert "Kamieichi — 2 votes (Shirohige, Proto)" in count, count
    assert "Shirohige — 1 vote (Kamieichi)" in count, count
    assert "Kamieichi has been lynched (most votes)." in count, count
    assert "[color" not in count and "&#" not in count, count  # shown as the board shows it
