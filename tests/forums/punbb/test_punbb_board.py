"""`PunbbBoard` over a fake that answers with the real PunBB 1.4.4 pages
(fixtures/punbb/1.4.4): the login with the form's token (the password only in its POST,
the board's 302 after it), the GM's zone and date format from his settings, the topic
whole and from its cursor against the board's own table, in English and in Russian, a
reply through flood control (the board's 60 s waited out, then its 302 naming the post,
confirmed on the topic page, or on the last page where the board's own page for the post
misplaces it), a wrong password in the board's words, a session lost
mid-read, a missing topic, a member found by the member list, and no private messages."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import format_datetime
from urllib.parse import parse_qs

import httpx
import pytest

from forums.errors import FloodControl, LoginFailed, NoPrivateMessages, NotFound
from forums.punbb.board import PunbbBoard
from forums.records import Cursor, User
from tests.adapter_helpers import FakeTime, run
from tests.forums.punbb.test_punbb_pages import page, seen, truth

BASE = "https://forum.example.org/"
PASSWORD = "petya-pass-2"
COOKIE = "forum_cookie_1a2b3c"


@dataclass
class FakePunbb:
    """PunBB 1.4.4 as its saved pages show it, to `Petya` (`lang`: "" or "_ru")."""

    lang: str = ""
    floods: int = 0
    """Replies refused by flood control before one is taken."""
    drop_session_once: bool = False
    misplaced_pid: bool = False
    """`viewtopic.php?pid=N` shows the wrong page (PunBB counts the posts older than N:
    posts of the same second are not)."""
    logged_in: bool = False
    requests: list[httpx.Request] = field(default_factory=list)

    def answer(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        path = request.url.path.lstrip("/")
        query = {k: v[0] for k, v in parse_qs(request.url.query.decode()).items()}
        me = self.logged_in and COOKIE in request.headers.get("cookie", "")
        if me and self.drop_session_once and path == "viewtopic.php":
            self.drop_session_once = me = self.logged_in = False
        headers = {"Date": format_datetime(seen(), usegmt=True)}
        if path == "login.php" and request.method == "GET":
            return self.html("login_form.html", headers)
        if path == "login.php":
            form = parse_qs(request.content.decode())
            token = form.get("csrf_token", [""])[0]
            good = form.get("req_password") == [PASSWORD] and form.get("req_username") == ["Petya"]
            if good and len(token) == 40 and form.get("form_sent") == ["1"]:
                self.logged_in = True
                headers["Set-Cookie"] = f"{COOKIE}=4%7Chash; path=/"
                headers["Location"] = BASE + "index.php?login=1"
                return self.html("login_redirect.html", headers, status=302)
            return self.html("login_failed.html", headers)
        if path == "index.php":
            return self.html("index_member.html" if me else "index.html", headers)
        if path == "profile.php" and me and query == {"section": "settings", "id": "4"}:
            return self.html(f"profile_settings{self.lang}.html", headers)
        if path == "userlist.php" and me:
            return self.html("userlist.html", headers)
        if path == "viewtopic.php" and query.get("id") == "999":
            return self.html("message.html", headers)
        if path == "viewtopic.php" and (query.get("id") == "2" or "pid" in query):
            late = query.get("pid") in ("6", "7") and not self.misplaced_pid
            number = "2" if late else query.get("p", "1")
            who = f"member{self.lang}" if me else "guest"
            return self.html(f"topic_p{number}_{who}.html", headers)
        if path == "post.php" and request.method == "GET" and me:
            return self.html("post_form.html", headers)
        if path == "post.php" and me:
            if self.floods:
                self.floods -= 1
                return self.html(f"flood{self.lang}.html", headers)
            headers["Location"] = BASE + "viewtopic.php?pid=7#p7"
            return self.html("posted_redirect.html", headers, status=302)
        return httpx.Response(404, text="no such page")

    @staticmethod
    def html(name: str, headers: dict[str, str], status: int = 200) -> httpx.Response:
        text = page(name).replace("http://127.0.0.1:8090/", BASE)
        return httpx.Response(status, text=text, headers=headers)


def board(fake: FakePunbb, password: str = PASSWORD) -> tuple[PunbbBoard, FakeTime]:
    clock = FakeTime(now=seen())
    gm = PunbbBoard(
        BASE,
        "Petya",
        password,
        client=httpx.AsyncClient(transport=httpx.MockTransport(fake.answer)),
        clock=clock,
        sleep=clock.sleep,
    )
    return gm, clock


def test_login_sends_the_forms_token_and_reads_the_gms_settings() -> None:
    fake = FakePunbb()
    gm, _ = board(fake)
    assert run(gm, lambda b: b.login()) == User(id="4", name="Petya")
    assert gm.date_order == "ymd" and gm.tz == UTC
    assert "the GM's settings: UTC+0, dates like 2026-12-05 (default)" in gm.times_read()
    carrying = [r for r in fake.requests if PASSWORD.encode() in r.content]
    assert [(r.method, r.url.path) for r in carrying] == [("POST", "/login.php")]
    sent = parse_qs(carrying[0].content.decode())
    assert sent["save_pass"] == ["1"] and sent["redirect_url"] and "preview" not in sent


@pytest.mark.parametrize("lang", ["", "_ru"])
def test_the_topic_whole_then_from_its_cursor_is_the_boards(lang: str) -> None:
    fake = FakePunbb(lang=lang)
    gm, _ = board(fake)

    async def both(b: PunbbBoard) -> tuple[list[datetime], list[str], list[str], list[str]]:
        whole = await b.thread_posts("2")
        again = await b.thread_posts("2", since=whole.cursor)
        edited = [p.id for p in whole.items if p.edit is not None]
        return (
            [p.posted_at for p in whole.items],
            [p.id for p in whole.items],
            [p.id for p in again.items],
            edited,
        )

    times, whole, again, edited = run(gm, both)
    rows = truth()
    assert whole == sorted(rows, key=int)
    assert times == [datetime.fromtimestamp(rows[i]["posted"], UTC) for i in whole]
    assert again == whole[4:]  # the cursor's page: page 2 (four posts a page)
    assert edited == [i for i in whole if rows[i]["edited"] is not None]


def test_a_cursor_whose_page_deletions_emptied_of_seen_posts_steps_back_a_page() -> None:
    """The last post seen was on page 2; deletions since moved it to page 1, so page 2 now
    holds only unseen posts: the poll reads page 1 again rather than miss what is there."""
    fake = FakePunbb()
    gm, _ = board(fake)
    whole = sorted(truth(), key=int)
    moved = Cursor({"thread": "2", "last_id": int(whole[2]), "page": 2, "per_page": 4})
    again = run(gm, lambda b: b.thread_posts("2", since=moved))
    assert [p.id for p in again.items] == whole
    topic = [r.url.params.get("p") for r in fake.requests if r.url.path == "/viewtopic.php"]
    assert topic[-2:] == ["2", None]  # page 2, then back to page 1


def test_a_friendly_topic_url_names_its_topic() -> None:
    assert PunbbBoard.topic_id(BASE + "topic/2/mafia-day-1/") == "2"
    assert PunbbBoard.topic_id(BASE + "topic2-mafia-day-1.html") == "2"
    assert PunbbBoard.topic_id(BASE + "viewtopic.php?id=2&p=2") == "2"
    with pytest.raises(NotFound, match="not a PunBB topic"):
        PunbbBoard.topic_id(BASE + "viewforum.php?id=2")


@pytest.mark.parametrize("lang", ["", "_ru"])
def test_a_reply_waits_out_flood_control_then_is_confirmed_on_its_page(lang: str) -> None:
    fake = FakePunbb(lang=lang, floods=1)
    gm, clock = board(fake)
    assert run(gm, lambda b: b.reply("2", "vote Masha")) == "7"
    assert clock.slept.count(61.0) == 1  # the board's 60 s and a second's margin
    sent = [r for r in fake.requests if r.method == "POST" and r.url.path == "/post.php"]
    assert len(sent) == 2
    fields = parse_qs(sent[1].content.decode())
    assert fields["req_message"] == ["vote Masha"] and fields["form_sent"] == ["1"]
    assert len(fields["csrf_token"][0]) == 40 and "preview" not in fields
    assert [r.url.params.get("pid") for r in fake.requests if r.url.path == "/viewtopic.php"] == [
        "7"
    ]


def test_flood_control_that_does_not_lift_is_said_in_one_line() -> None:
    gm, _ = board(FakePunbb(floods=5))
    with pytest.raises(FloodControl, match="At least 60 seconds have to pass between posts"):
        run(gm, lambda b: b.reply("2", "vote Masha"))


def test_a_wrong_password_is_the_boards_words() -> None:
    gm, _ = board(FakePunbb(), password="wrong-pass")
    with pytest.raises(LoginFailed, match="Incorrect username and/or password"):
        run(gm, lambda b: b.login())


def test_a_session_lost_mid_read_logs_in_again_once() -> None:
    fake = FakePunbb(drop_session_once=True)
    gm, _ = board(fake)
    posts = run(gm, lambda b: b.thread_posts("2"))
    assert [p.id for p in posts.items] == sorted(truth(), key=int)
    logins = [r for r in fake.requests if r.method == "POST" and r.url.path == "/login.php"]
    assert len(logins) == 2


def test_a_missing_topic_is_not_found_in_the_boards_words() -> None:
    gm, _ = board(FakePunbb())
    with pytest.raises(NotFound, match="Bad request"):
        run(gm, lambda b: b.thread_posts("999"))


def test_a_member_is_found_through_the_member_list() -> None:
    gm, _ = board(FakePunbb())
    assert run(gm, lambda b: b.find_user("masha")) == User(id="5", name="Masha")


def test_there_are_no_private_messages_and_sending_one_says_so_in_one_line() -> None:
    fake = FakePunbb()
    gm, _ = board(fake)

    async def go(b: PunbbBoard) -> tuple[int, int]:
        inbox, sent = await b.inbox(), await b.sent()
        with pytest.raises(NoPrivateMessages, match="PunBB has no private messages; a game"):
            await b.send_pm(["Masha"], "role", "you are mafia")
        return len(inbox.items), len(sent.items)

    assert run(gm, go) == (0, 0)
    assert fake.requests == []  # nothing asked of the board


def test_a_reply_that_pids_page_misplaces_is_found_on_the_last_page() -> None:
    fake = FakePunbb(misplaced_pid=True)
    gm, _ = board(fake)
    assert run(gm, lambda b: b.reply("2", "vote Masha")) == "7"
    asked = [dict(r.url.params) for r in fake.requests if r.url.path == "/viewtopic.php"]
    assert asked == [{"pid": "7"}, {"id": "2", "p": "2"}]
