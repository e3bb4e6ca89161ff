"""`SmfBoard` over a fake SMF that answers with the real saved pages (fixtures/smf/2.1.4):
the login (the password only in the login form's POST), the GM's zone from his profile, the
thread read whole and from its cursor, a session the board forgot (logged in again once),
the inbox oldest first, a reply found on the page SMF's redirect leads to, the cap of PMs an
hour and the visual verification said to the host, a missing topic, a wrong password."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import format_datetime
from pathlib import Path
from urllib.parse import parse_qs, quote_plus
from zoneinfo import ZoneInfo

import httpx
import pytest

from forums.errors import BoardError, FloodControl, LoginFailed, NotFound
from forums.records import Cursor, User
from forums.smf import pages
from forums.smf.board import SmfBoard
from tests.adapter_helpers import FakeTime, run

HERE = Path(__file__).resolve().parents[3] / "fixtures" / "smf" / "2.1.4"
TRUTH = json.loads((HERE / "truth.json").read_text(encoding="utf-8"))
TOPIC = TRUTH["topic"]
BASE = "https://forum.example.org/"
PASSWORD = "s3cret-Пароль-42"
SEEN = datetime(2026, 11, 25, 14, 25, tzinfo=ZoneInfo("Europe/Moscow"))


def page(name: str) -> str:
    return (
        (HERE / name).read_text(encoding="utf-8").replace("http://127.0.0.1:8080", BASE.rstrip("/"))
    )


@dataclass
class FakeSmf:
    """SMF as its saved pages show it. `forget_once`: the first thread page is served to a
    guest; `per_hour`/`verification`: the PM form is refused so."""

    logged_in: bool = False
    forget_once: bool = False
    per_hour: bool = False
    verification: bool = False
    replied: bool = False
    login_floods: int = 0
    """Logins refused as too soon after another (SMF on MySQL holds 2 s between logins from
    one IP; on PostgreSQL it never does, so no such page was saved: the failed-login page
    carries SMF's own words for it, from Errors.english.php)."""
    requests: list[httpx.Request] = field(default_factory=list)

    def answer(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        query = pages.params(str(request.url))
        action = query.get("action", "")
        me = self.logged_in and "SMFCookie11" in request.headers.get("cookie", "")
        headers = {"Date": format_datetime(SEEN.astimezone(UTC), usegmt=True)}
        if action == "login":
            return self.html("topic_p1_en.html" if me else "login_form_en.html", headers)
        if action == "login2" and request.method == "GET":  # SMF's "sa=check" after a login
            return self.html("topic_p1_en.html" if me else "login_form_en.html", headers)
        if action == "login2" and self.login_floods:
            self.login_floods -= 1
            text = page("login_failed_en.html").replace(
                "Password incorrect", "You will have to wait about 2 seconds to login again, sorry."
            )
            return httpx.Response(200, text=text, headers=headers)
        if action == "login2":
            form = parse_qs(request.content.decode())
            if form.get("passwrd") == [PASSWORD] and form.get("user") == ["Ведущий"]:
                self.logged_in = True
                headers["Set-Cookie"] = "SMFCookie11=%7B%220%22%3A2%7D; path=/; HttpOnly"
                headers["Location"] = BASE + "index.php?action=login2;sa=check;member=2"
                return httpx.Response(302, headers=headers)
            return self.html("login_failed_en.html", headers)
        if action == "profile":
            return self.html("profile_theme_en.html" if me else "pm_guest_en.html", headers)
        if "topic" in query and not action:
            number, _, start = query["topic"].partition(".")
            if number != TOPIC:
                return self.html("topic_missing_en.html", headers, 403)
            if not me or self.forget_once:
                self.forget_once = False
                self.logged_in = False
                return self.html("topic_guest_en.html", headers)
            if start == "new":
                return self.html("topic_after_reply_en.html", headers)
            if self.replied and start == "15":
                return self.html("topic_after_reply_en.html", headers)
            return self.html("topic_p2_en.html" if start == "15" else "topic_p1_en.html", headers)
        if not me:
            return self.html("pm_guest_en.html", headers)
        if action == "pm" and query.get("sa") == "send":
            if self.per_hour:
                return self.html("pm_per_hour_en.html", headers)
            if self.verification:
                return self.html("pm_form_verification_en.html", headers)
            return self.html("pm_form_en.html", headers)
        if action == "pm":
            folder = query.get("f", "inbox")
            return self.html(f"pm_{'sent' if folder == 'sent' else 'inbox'}_en.html", headers)
        if action == "mlist":
            return self.html("memberlist_search_en.html", headers)
        if action == "post" and request.method == "GET":
            return self.html("post_form_en.html", headers)
        if action == "post2":
            form = parse_qs(request.content.decode())
            assert form["message"] == ["Итоги: [b]Маша[/b]"] and form["goback"] == ["1"]
            self.replied = True
            location = (HERE / "reply_location_en.txt").read_text(encoding="utf-8").strip()
            headers["Location"] = location.replace("http://127.0.0.1:8080", BASE.rstrip("/"))
            return httpx.Response(302, headers=headers)
        return httpx.Response(404, text="no such page")

    @staticmethod
    def html(name: str, headers: dict[str, str], status: int = 200) -> httpx.Response:
        return httpx.Response(status, text=page(name), headers=headers)


def board(fake: FakeSmf, password: str = PASSWORD) -> SmfBoard:
    clock = FakeTime(now=SEEN.astimezone(UTC))
    return SmfBoard(
        BASE,
        "Ведущий",
        password,
        client=httpx.AsyncClient(transport=httpx.MockTransport(fake.answer)),
        clock=clock,
        sleep=clock.sleep,
    )


def test_login_reads_the_gm_and_his_zone_and_sends_the_password_only_to_the_login() -> None:
    fake = FakeSmf()
    me = run(board(fake), lambda b: b.login())
    assert me == User("2", "Ведущий")
    posts = [r for r in fake.requests if quote_plus(PASSWORD) in r.content.decode()]
    assert len(posts) == 1 and "action=login2" in str(posts[0].url)
    smf = board(FakeSmf())

    async def zone(b: SmfBoard) -> str:
        await b.login()
        return str(b.tz)

    assert run(smf, zone) == "Europe/Moscow"


def test_a_login_too_soon_after_another_is_waited_out_as_smf_asks() -> None:
    fake = FakeSmf(login_floods=1)
    smf = board(fake)
    clock = smf._clock
    assert isinstance(clock, FakeTime)
    assert run(smf, lambda b: b.login()) == User("2", "Ведущий")
    assert 3.0 in clock.slept  # SMF's 2 s and a second to spare
    with pytest.raises(LoginFailed, match="kept refusing logins"):
        run(board(FakeSmf(login_floods=5)), lambda b: b.login())


def test_a_wrong_password_says_what_smf_said() -> None:
    with pytest.raises(LoginFailed, match="Password incorrect"):
        run(board(FakeSmf(), "wrong"), lambda b: b.login())


def test_the_thread_whole_then_from_its_cursor_through_a_lost_session() -> None:
    fake = FakeSmf(forget_once=True)
    read = run(board(fake), lambda b: b.thread_posts(TOPIC))
    shown = [str(r["id"]) for r in TRUTH["posts"]][: len(read.items)]
    assert [p.id for p in read.items] == shown and len(shown) == 17
    assert read.cursor.data == {"thread": TOPIC, "last_id": 18, "page": 2, "per_page": 15}
    logins = [r for r in fake.requests if r.method == "POST" and "action=login2" in str(r.url)]
    assert len(logins) == 2  # the board forgot the session once: one more login
    again = run(board(FakeSmf()), lambda b: b.thread_posts(TOPIC, read.cursor))
    assert [p.id for p in again.items] == ["17", "18"]  # the cursor's page only


def test_a_cursor_whose_page_deletions_emptied_of_seen_posts_steps_back_a_page() -> None:
    """The last post seen was on page 2; deletions since moved it to page 1, so page 2 now
    holds only unseen posts: the poll reads page 1 again rather than miss what is there."""
    fake = FakeSmf()
    shown = [str(r["id"]) for r in TRUTH["posts"]][:17]
    moved = Cursor({"thread": TOPIC, "last_id": int(shown[13]), "page": 2, "per_page": 15})
    again = run(board(fake), lambda b: b.thread_posts(TOPIC, moved))
    assert [p.id for p in again.items] == shown
    topic = [r.url.params.get("topic") for r in fake.requests if r.url.params.get("topic")]
    assert topic[-2:] == [f"{TOPIC}.15", f"{TOPIC}.0"]  # page 2, then back to page 1


def test_the_inbox_oldest_first_and_from_its_cursor() -> None:
    inbox = run(board(FakeSmf()), lambda b: b.inbox())
    assert [(m.id, m.sender, m.subject) for m in inbox.items] == [
        ("1", "Маша", "Ход ночью"),
        ("2", "Вася", "Вопрос"),
    ]
    assert inbox.cursor.data == {"last_id": 2}
    newer = run(board(FakeSmf()), lambda b: b.inbox(Cursor({"last_id": 1})))
    assert [m.id for m in newer.items] == ["2"]
    sent = run(board(FakeSmf()), lambda b: b.sent())
    assert [(m.id, m.recipients) for m in sent.items] == [("3", ("Вася",))]


def test_a_reply_is_found_where_smfs_redirect_leads() -> None:
    fake = FakeSmf()
    post_id = run(board(fake), lambda b: b.reply(TOPIC, "Итоги: [b]Маша[/b]"))
    assert post_id == str(TRUTH["posts"][-1]["id"])
    assert TRUTH["posts"][-1]["poster"] == "Ведущий"


def test_the_cap_of_pms_an_hour_and_the_verification_are_told_to_the_host() -> None:
    with pytest.raises(FloodControl, match="limit of 2 personal messages an hour"):
        run(board(FakeSmf(per_hour=True)), lambda b: b.send_pm(["Маша"], "Роль", "Ты мирная."))
    with pytest.raises(BoardError, match="visual verification"):
        run(board(FakeSmf(verification=True)), lambda b: b.send_pm(["Маша"], "Роль", "Ты мирная."))


def test_a_missing_topic_and_an_unknown_member() -> None:
    with pytest.raises(NotFound, match="missing or off limits"):
        run(board(FakeSmf()), lambda b: b.thread_posts("999"))
    assert run(board(FakeSmf()), lambda b: b.find_user("маша")) == User("5", "Маша")
    assert run(board(FakeSmf()), lambda b: b.find_user("Никто")) is None


@pytest.mark.parametrize(
    ("given", "topic"),
    [("2", "2"), ("2.15", "2"), ("topic=7.0", "7"), ("https://f.org/index.php?topic=12.30", "12")],
)
def test_the_thread_as_the_host_writes_it(given: str, topic: str) -> None:
    assert SmfBoard.topic_id(given) == topic
    with pytest.raises(NotFound):
        SmfBoard.topic_id("index.php?board=1.0")
