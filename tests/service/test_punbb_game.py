"""A `votecount` day on a fake PunBB 1.4 board built from its real pages
(fixtures/punbb/1.4.4), end to end through the game driver: the opening post and the
count go out through `post.php` as the GM, the players' votes are read off the topic's
last page, and the count is read back from the board the way the players see it. PunBB
has no private messages, so the day is voted in the thread, and `game validate` refuses
the same game with votes by PM."""

from __future__ import annotations

import asyncio
import html as htmlmod
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import format_datetime
from pathlib import Path
from urllib.parse import parse_qs

import httpx
import pytest
from typer.testing import CliRunner

from engine.app.cli import app
from engine.config import ConfigError, parse_config
from engine.service.driver import GameDriver
from engine.store import open_store
from forums.local import ManualClock
from forums.punbb.board import PunbbBoard
from tests.forums.punbb.test_punbb_board import BASE, COOKIE, PASSWORD
from tests.forums.punbb.test_punbb_pages import page

GAME = """\
[game]
ruleset = "votecount"
language = "en"
review = "auto"
receipts = false

[board]
engine = "punbb"
url = "https://forum.example.org/"
thread = "https://forum.example.org/viewtopic.php?id=2"  # the service files posts under "2"
gm_user = "Petya"
password = "env:FORUMGM_TEST_GM"

[schedule]
timezone = "UTC"
deadlines = ["2026-12-01 23:00"]
start = "2026-12-01 21:00"

[players]
players = ["Vasya", "Masha", "Admin"]
{more}"""

MEMBERS = {"Admin": "2", "Vasya": "3", "Petya": "4", "Masha": "5"}


def rendered(bbcode: str) -> str:
    """The message as PunBB shows it: escaped, `[b]`, `[i]` and `[color]` as HTML, lines as
    `<br />`."""
    text = htmlmod.escape(bbcode, quote=False)
    text = re.sub(r"\[b\](.*?)\[/b\]", r"<strong>\1</strong>", text, flags=re.S)
    text = re.sub(r"\[i\](.*?)\[/i\]", r"<em>\1</em>", text, flags=re.S)
    text = re.sub(
        r"\[color=(#?\w+)\](.*?)\[/color\]", r'<span style="color: \1">\2</span>', text, flags=re.S
    )
    paragraphs = [p.replace("\n", "<br />") for p in text.split("\n\n")]
    return "".join(f"<p>{p}</p>" for p in paragraphs)


def post_html(pid: int, number: int, who: str, when: datetime, bbcode: str) -> str:
    """One reply in the markup of the saved page's own posts (`div.post`, its `#pN` head)."""
    uid = MEMBERS[who]
    profile = f'<a title="Go to {who}\'s profile" href="{BASE}profile.php?id={uid}">{who}</a>'
    return f"""
		<div class="post replypost">
			<div id="p{pid}" class="posthead">
				<h3 class="hn post-ident"><span class="post-num">{number}</span> <span class="post-byline"><span>Reply by </span>{profile}</span> <span class="post-link"><a class="permalink" rel="bookmark" title="Permanent link to this post" href="{BASE}viewtopic.php?pid={pid}#p{pid}">{when:%Y-%m-%d %H:%M:%S}</a></span></h3>
			</div>
			<div class="postbody online">
				<div class="post-author">
					<ul class="author-ident">
						<li class="username">{profile}</li>
					</ul>
				</div>
				<div class="post-entry">
					<h4 id="pc{pid}" class="entry-title hn">Re: Mafia day 1</h4>
					<div class="entry-content">
						{rendered(bbcode)}
					</div>
				</div>
			</div>
		</div>"""


def settings_on(day: datetime) -> str:
    """The GM's settings page served on `day`: PunBB shows each date format by today's date
    (the capture's was 2026-12-05)."""
    shown = {
        "2026-12-05": f"{day:%Y-%m-%d}",
        "2026-05-12": f"{day:%Y-%d-%m}",
        "05-12-2026": f"{day:%d-%m-%Y}",
        "12-05-2026": f"{day:%m-%d-%Y}",
        "Dec 5 2026": f"{day:%b} {day.day} {day:%Y}",
        "5th Dec 2026": f"{day.day}{ORDINAL.get(day.day, 'th')} {day:%b %Y}",
    }
    text = page("profile_settings.html")
    for captured, today in shown.items():
        text = text.replace(f">{captured}", f">{today}")
    return text


ORDINAL = {1: "st", 2: "nd", 3: "rd", 21: "st", 22: "nd", 23: "rd", 31: "st"}


@dataclass
class PunbbTopic:
    """Topic 2 of the saved board, as `Petya` (the GM) sees it, growing: every post made
    since the capture is added to its second (last) page, after the board's own two."""

    now: datetime
    added: list[tuple[int, str, datetime, str]] = field(default_factory=list)
    logged_in: bool = False

    def add(self, who: str, when: datetime, bbcode: str) -> int:
        pid = 8 + len(self.added)
        self.added.append((pid, who, when, bbcode))
        return pid

    def last_page(self) -> str:
        text = page("topic_p2_member.html")
        posts = "".join(
            post_html(pid, 7 + i, who, when, body)
            for i, (pid, who, when, body) in enumerate(self.added)
        )
        end = text.index('</div>\n\n\t<div class="main-foot">')
        return text[:end] + posts + "\n\t" + text[end:]

    def answer(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path.lstrip("/")
        query = {k: v[0] for k, v in parse_qs(request.url.query.decode()).items()}
        me = self.logged_in and COOKIE in request.headers.get("cookie", "")
        headers = {"Date": format_datetime(self.now, usegmt=True)}
        if path == "login.php" and request.method == "GET":
            return self.html(page("login_form.html"), headers)
        if path == "login.php":
            form = parse_qs(request.content.decode())
            if form.get("req_password") == [PASSWORD] and form.get("req_username") == ["Petya"]:
                self.logged_in = True
                headers["Set-Cookie"] = f"{COOKIE}=4%7Chash; path=/"
                headers["Location"] = BASE + "index.php?login=1"
                return self.html(page("login_redirect.html"), headers, status=302)
            return self.html(page("login_failed.html"), headers)
        if path == "index.php":
            return self.html(page("index_member.html" if me else "index.html"), headers)
        if path == "profile.php" and me and query == {"section": "settings", "id": "4"}:
            return self.html(settings_on(self.now), headers)
        if path == "viewtopic.php" and me and (query.get("id") == "2" or "pid" in query):
            early = query.get("pid") in ("2", "3", "4", "5")
            if (query.get("p", "1") == "1" and "pid" not in query) or early:
                return self.html(page("topic_p1_member.html"), headers)
            return self.html(self.last_page(), headers)
        if path == "post.php" and me and request.method == "GET":
            return self.html(page("post_form.html"), headers)
        if path == "post.php" and me:
            form = parse_qs(request.content.decode())
            assert form["csrf_token"] and form["form_sent"] == ["1"]
            pid = self.add("Petya", self.now, form["req_message"][0])
            headers["Location"] = f"{BASE}viewtopic.php?pid={pid}#p{pid}"
            return self.html(page("posted_redirect.html"), headers, status=302)
        return httpx.Response(404, text="no such page")

    @staticmethod
    def html(text: str, headers: dict[str, str], status: int = 200) -> httpx.Response:
        return httpx.Response(
            status, text=text.replace("http://127.0.0.1:8090/", BASE), headers=headers
        )


def test_a_day_voted_in_the_thread_is_counted_on_punbb(tmp_path: Path) -> None:
    config = parse_config(GAME.format(more=""))
    store = open_store(f"sqlite:///{tmp_path / 'game.sqlite'}")
    fake = PunbbTopic(now=config.start)
    board = PunbbBoard(
        BASE,
        "Petya",
        PASSWORD,
        client=httpx.AsyncClient(transport=httpx.MockTransport(fake.answer)),
        min_delay=0,
    )
    clock = ManualClock(config.start)
    driver = GameDriver(store, board, config, clock=clock)
    assert driver.start()
    store.approve(driver.game_id, None)

    def at(hhmm: str) -> datetime:
        when = datetime.fromisoformat(f"2026-12-01 {hhmm}").replace(tzinfo=UTC)
        clock.set(when)
        fake.now = when
        return when

    def vote(who: str, hhmm: str, text: str) -> None:
        fake.add(who, datetime.fromisoformat(f"2026-12-01 {hhmm}").replace(tzinfo=UTC), text)

    async def day() -> list[str]:
        said = [await driver.step(at("21:01"))]  # the opening post goes out
        vote("Vasya", "21:30", "vote Masha")
        vote("Admin", "21:40", "I vote [b]Masha[/b] too")
        vote("Masha", "22:10", "vote Vasya")
        said.append(await driver.step(at("22:30")))
        said.append(await driver.step(at("23:05")))  # the deadline: the count goes out
        said.append(await driver.step(at("23:06")))
        return said

    said = asyncio.run(day())
    tally = next(e for e in store.events(driver.game_id, "day 1") if e.type == "vote_tally")
    assert dict(tally.fields["votes"]) == {
        "Vasya": "Masha",
        "Admin": "Masha",
        "Masha": "Vasya",
    }, said

    async def read_back() -> list[tuple[str, str]]:
        got = await board.thread_posts(config.thread)
        await board.close()
        return [(p.author, p.body.text()) for p in got.items]

    on_board = asyncio.run(read_back())
    gm_posts = [text for who, text in on_board if who == "Petya"]
    # The saved topic's own Petya post, then the opening post and the day's count.
    assert len(gm_posts) >= 3, (said, on_board)
    count = gm_posts[-1]
    assert "Results of day 1" in count, count
    assert "Masha — 2 votes" in count and "Vasya — 1 vote" in count, count
    assert "Masha — 2 votes (Vasya, Admin)" in count and "Vasya — 1 vote (Masha)" in count
    assert "Masha has been lynched (most votes)." in count, count
    assert "[color" not in count and "[b]" not in count, count  # shown as the board shows it


def test_the_same_game_with_votes_by_pm_is_refused_by_validate(tmp_path: Path) -> None:
    path = tmp_path / "game.toml"
    path.write_text(GAME.format(more='\n[options]\nvote_channel = "pm"\n'), encoding="utf-8")
    env = {"FORUMGM_NOW": "2026-11-30T12:00+00:00", "FORUMGM_TEST_GM": "x", "FORUMGM_LANG": "en"}
    result = CliRunner(env=env).invoke(app, ["game", "validate", str(path)])
    assert result.exit_code == 1, result.output
    said = result.output.replace("\n", " ")
    assert "cannot run on punbb: PunBB has no" in said, said
    assert 'vote_channel = "pm" takes votes' in said, said


def test_a_thread_given_by_its_address_is_kept_under_the_id_its_pages_give() -> None:
    assert parse_config(GAME.format(more="")).thread == "2"
    game = GAME.format(more="").replace("viewtopic.php?id=2", "viewforum.php?id=1")
    with pytest.raises(ConfigError, match=r"\[board\] thread: expected the thread's id"):
        parse_config(game)
