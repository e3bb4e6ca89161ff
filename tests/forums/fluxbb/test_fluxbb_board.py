"""`FluxbbBoard` over a fake FluxBB that answers with the real saved pages: the login (the
password only in the login form's POST), the GM's zone from his profile, the thread read
whole and then from its cursor, a session the board forgot (logged in again once), a
reply through flood control (sent with the form page as referrer), a missing topic, a
wrong password, and no private messages."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC
from email.utils import format_datetime
from urllib.parse import parse_qs

import httpx
import pytest

from forums.errors import LoginFailed, NoPrivateMessages, NotFound
from forums.fluxbb.board import FluxbbBoard
from forums.records import Cursor, User
from tests.adapter_helpers import FakeTime, run
from tests.forums.fluxbb.helpers_fluxbb import SEEN_EN, page, truth

BASE = "https://forum.example.org/"
PASSWORD = "s3cret-Пароль-42"
COOKIE = "pun_cookie_5d7e0d"


@dataclass
class FakeFluxbb:
    """FluxBB as seen through its saved pages; `floods`: replies refused before one is taken."""

    floods: int = 1
    logged_in: bool = False
    forget_once: bool = False
    requests: list[httpx.Request] = field(default_factory=list)

    def answer(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        path = request.url.path.lstrip("/")
        query = {k: v[0] for k, v in parse_qs(request.url.query.decode()).items()}
        me = COOKIE in request.headers.get("cookie", "") and self.logged_in
        if me and self.forget_once and path == "viewtopic.php":
            self.forget_once = False
            self.logged_in = False
            me = False
        headers = {"Date": format_datetime(SEEN_EN.astimezone(UTC), usegmt=True)}
        if path == "login.php" and request.method == "GET":
            return self.html("login_form_en.html", headers)
        if path == "login.php":
            form = parse_qs(request.content.decode())
            if form.get("req_password") == [PASSWORD] and form.get("csrf_token"):
                self.logged_in = True
                headers["Set-Cookie"] = f"{COOKIE}=3%7Chash; path=/; HttpOnly"
                return self.html("login_redirect_en.html", headers)
            return self.html("login_failed_en.html", headers)
        if path == "index.php":
            return self.html("index_en.html" if me else "login_form_en.html", headers)
        if path == "profile.php":
            return self.html("profile_essentials_en.html", headers)
        if path == "viewtopic.php":
            if query.get("id") != "2":
                return self.html("bad_request_en.html", headers, 404)
            if not me:
                return self.html("topic_guest_en.html", headers)
            return self.html(f"topic_p{query.get('p', '1')}_en.html", headers)
        if path == "post.php" and request.method == "GET":
            return self.html("post_form_en.html", headers)
        if path == "post.php":
            if not request.headers.get("referer", "").startswith(BASE + "post.php?tid=2"):
                return self.html("bad_referrer_en.html", headers)
            if self.floods:
                self.floods -= 1
                return self.html("flood_en.html", headers)
            return self.html("posted_redirect_en.html", headers)
        return httpx.Response(404, text="no such page")

    @staticmethod
    def html(name: str, headers: dict[str, str], status: int = 200) -> httpx.Response:
        text = page(name).replace("http://127.0.0.1:8080/", BASE)
        return httpx.Response(status, text=text, headers=headers)


def board(fake: FakeFluxbb, password: str = PASSWORD) -> tuple[FluxbbBoard, FakeTime]:
    clock = FakeTime(now=SEEN_EN)
    found = FluxbbBoard(
        BASE,
        "Ведущий",
        password,
        client=httpx.AsyncClient(transport=httpx.MockTransport(fake.answer)),
        clock=clock,
        sleep=clock.sleep,
    )
    return found, clock


def test_login_reads_the_gm_and_his_zone_and_sends_the_password_once() -> None:
    fake = FakeFluxbb()
    gm, _ = board(fake)
    assert run(gm, lambda b: b.login()) == User(id="3", name="Ведущий")
    assert gm.date_order == "ymd" and "UTC+3" in gm.times_read()
    carrying = [
        r for r in fake.requests if PASSWORD.encode() in r.content or b"s3cret" in r.content
    ]
    assert [(r.method, r.url.path) for r in carrying] == [("POST", "/login.php")]
    sent = parse_qs(carrying[0].content.decode())
    assert sent["save_pass"] == ["1"] and sent["req_username"] == ["Ведущий"]


def test_the_thread_whole_then_from_its_cursor() -> None:
    fake = FakeFluxbb()
    gm, _ = board(fake)

    async def both(b: FluxbbBoard) -> tuple[list[str], list[str], dict[str, object]]:
        whole = await b.thread_posts("https://forum.example.org/viewtopic.php?id=2&p=2")
        fake.requests.clear()
        again = await b.thread_posts("2", since=whole.cursor)
        return [p.id for p in whole.items], [p.id for p in again.items], again.cursor.data

    whole, again, cursor = run(gm, both)
    rows = truth()
    assert whole == [i for i in rows if int(i) <= 33]  # what the pages showed, in order
    assert again == whole[25:]  # the cursor's page: page 2 alone
    assert [r.url.params.get("p") for r in fake.requests] == ["2"]
    assert cursor == {"thread": "2", "last_id": 33, "page": 2, "per_page": 25}


def test_a_cursor_whose_page_deletions_emptied_of_seen_posts_steps_back_a_page() -> None:
    """The last post seen was on page 2; deletions since moved it to page 1, so page 2 now
    holds only unseen posts: the poll reads page 1 again rather than miss what is there."""
    fake = FakeFluxbb()
    gm, _ = board(fake)
    whole = [i for i in truth() if int(i) <= 33]
    moved = Cursor({"thread": "2", "last_id": int(whole[23]), "page": 2, "per_page": 25})
    again = run(gm, lambda b: b.thread_posts("2", since=moved))
    assert [p.id for p in again.items] == whole
    topic = [r.url.params.get("p") for r in fake.requests if r.url.path == "/viewtopic.php"]
    assert topic[-2:] == ["2", None]  # page 2, then back to page 1


def test_a_session_the_board_forgot_is_logged_in_again_once() -> None:
    fake = FakeFluxbb(forget_once=True)
    gm, _ = board(fake)
    posts = run(gm, lambda b: b.thread_posts("2")).items
    assert len(posts) == 32
    logins = [r for r in fake.requests if r.method == "POST" and r.url.path == "/login.php"]
    assert len(logins) == 2


def test_a_reply_waits_out_flood_control_and_names_its_post() -> None:
    fake = FakeFluxbb(floods=1)
    gm, clock = board(fake)
    assert run(gm, lambda b: b.reply("2", "Итоги скоро.")) == "34"
    assert 59.0 in clock.slept  # «Please wait 58 seconds», and a second more
    posts = [r for r in fake.requests if r.method == "POST" and r.url.path == "/post.php"]
    assert len(posts) == 2
    assert parse_qs(posts[-1].content.decode())["req_message"] == ["Итоги скоро."]


def test_flood_control_that_does_not_end_is_said() -> None:
    from forums.errors import FloodControl

    gm, _ = board(FakeFluxbb(floods=5))
    with pytest.raises(FloodControl, match="At least 60 seconds"):
        run(gm, lambda b: b.reply("2", "x"))


def test_a_topic_that_does_not_exist_is_not_found() -> None:
    gm, _ = board(FakeFluxbb())
    with pytest.raises(NotFound, match="Bad request"):
        run(gm, lambda b: b.thread_posts("999"))
    with pytest.raises(NotFound, match="not a FluxBB topic"):
        FluxbbBoard.topic_id("showthread.php?tid=5")


def test_a_wrong_password_is_the_boards_words() -> None:
    gm, _ = board(FakeFluxbb(), password="wrong")
    with pytest.raises(LoginFailed, match="Wrong username and/or password"):
        run(gm, lambda b: b.login())


def test_no_private_messages() -> None:
    fake = FakeFluxbb()
    gm, _ = board(fake)
    with pytest.raises(NoPrivateMessages, match="FluxBB has no private messages"):
        run(gm, lambda b: b.send_pm(["Маша"], "Роль", "Ты мафия."))
    gm, _ = board(fake)
    assert run(gm, lambda b: b.inbox()).items == []
    gm, _ = board(fake)
    assert run(gm, lambda b: b.sent()).items == []
    assert fake.requests == []  # nothing was asked of the board


def test_board_check_counts_the_thread_from_its_last_page() -> None:
    """FluxBB prints no count of a topic's posts: `board check` reads it from the last
    page's last post number («32 posts», not «? posts»)."""
    from engine.app.board_cmd import _first_page

    fake = FakeFluxbb()
    gm, _ = board(fake)
    seen = run(gm, lambda b: _first_page(b, "2"))
    assert (seen["total"], seen["pages"], seen["per_page"]) == (32, 2, 25)
    assert seen["total"] == len([i for i in truth() if int(i) <= 33])  # every post shown
