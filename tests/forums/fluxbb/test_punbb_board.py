"""`FluxbbBoard` on a PunBB 1.2 board, over a fake that answers with the real PunBB 1.2.50
pages (fixtures/punbb/1.2.50): the login (the password only in its POST), the member's
zone from a profile that has no date format to choose, the topic whole and from its
cursor against the board's own table, a reply sent from the reply form (which shows the
topic's last posts under it), and a wrong password in the board's words. The same adapter
logged in, read, replied and was refused a wrong password on the real board the pages
come from (tests/live/punbb_capture.py installs it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import format_datetime
from urllib.parse import parse_qs

import httpx
import pytest

from forums.errors import LoginFailed
from forums.fluxbb.board import FluxbbBoard
from forums.records import User
from tests.adapter_helpers import FakeTime, run
from tests.forums.fluxbb.test_punbb_pages import page, seen, truth

BASE = "https://forum.example.org/"
PASSWORD = "petya-pass-2"
COOKIE = "punbb_cookie"


@dataclass
class FakePunbb:
    """PunBB 1.2.50 as its saved pages show it, to `Petya`."""

    logged_in: bool = False
    requests: list[httpx.Request] = field(default_factory=list)

    def answer(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        path = request.url.path.lstrip("/")
        query = {k: v[0] for k, v in parse_qs(request.url.query.decode()).items()}
        me = self.logged_in and COOKIE in request.headers.get("cookie", "")
        headers = {"Date": format_datetime(seen("1.2.50"), usegmt=True)}
        if path == "login.php" and request.method == "GET":
            return self.html("login_form.html", headers)
        if path == "login.php":
            form = parse_qs(request.content.decode())
            if form.get("req_password") == [PASSWORD] and form.get("req_username") == ["Petya"]:
                self.logged_in = True
                headers["Set-Cookie"] = f"{COOKIE}=4%7Chash; path=/"
                return self.html("login_redirect.html", headers)
            return self.html("login_failed.html", headers)
        if path == "index.php":
            return self.html("index_member.html" if me else "index.html", headers)
        if path == "profile.php" and me and query.get("id") == "4":
            return self.html("profile_essentials.html", headers)
        if path == "viewtopic.php" and query.get("id") == "2":
            who = "member" if me else "guest"
            return self.html(f"topic_p{query.get('p', '1')}_{who}.html", headers)
        if path == "post.php" and request.method == "GET" and me:
            return self.html("post_form.html", headers)
        if path == "post.php" and me:
            return self.html("posted_redirect.html", headers)
        return httpx.Response(404, text="no such page")

    @staticmethod
    def html(name: str, headers: dict[str, str]) -> httpx.Response:
        text = page("1.2.50", name).replace("http://127.0.0.1:8090/", BASE)
        return httpx.Response(200, text=text, headers=headers)


def board(fake: FakePunbb, password: str = PASSWORD) -> FluxbbBoard:
    clock = FakeTime(now=seen("1.2.50"))
    return FluxbbBoard(
        BASE,
        "Petya",
        password,
        client=httpx.AsyncClient(transport=httpx.MockTransport(fake.answer)),
        clock=clock,
        sleep=clock.sleep,
    )


def test_login_reads_the_member_and_a_zone_without_a_date_format() -> None:
    fake = FakePunbb()
    gm = board(fake)
    assert run(gm, lambda b: b.login()) == User(id="4", name="Petya")
    assert gm.date_order == "ymd" and "no date format in the profile" in gm.times_read()
    carrying = [r for r in fake.requests if PASSWORD.encode() in r.content]
    assert [(r.method, r.url.path) for r in carrying] == [("POST", "/login.php")]


def test_the_topic_whole_then_from_its_cursor_is_the_boards() -> None:
    fake = FakePunbb()
    gm = board(fake)

    async def both(b: FluxbbBoard) -> tuple[list[datetime], list[str], list[str]]:
        whole = await b.thread_posts("2")
        again = await b.thread_posts("2", since=whole.cursor)
        return (
            [p.posted_at for p in whole.items],
            [p.id for p in whole.items],
            [p.id for p in again.items],
        )

    times, whole, again = run(gm, both)
    rows = truth("1.2.50")
    assert whole == sorted(rows, key=int)
    assert times == [datetime.fromtimestamp(rows[i]["posted"], UTC) for i in whole]
    assert again == whole[4:]  # the cursor's page: page 2 (four posts a page)


def test_a_reply_goes_from_the_reply_form_and_names_its_post() -> None:
    fake = FakePunbb()
    gm = board(fake)
    assert run(gm, lambda b: b.reply("2", "vote Masha")) == "3"  # posted_redirect's pid
    sent = [r for r in fake.requests if r.method == "POST" and r.url.path == "/post.php"]
    assert len(sent) == 1
    assert parse_qs(sent[0].content.decode())["req_message"] == ["vote Masha"]
    assert sent[0].headers["referer"].startswith(BASE + "post.php?tid=2")


def test_a_wrong_password_is_the_boards_words() -> None:
    gm = board(FakePunbb(), password="wrong-pass")
    with pytest.raises(LoginFailed, match="Wrong username and/or password"):
        run(gm, lambda b: b.login())
