"""`VbulletinBoard` against a fake vBulletin 3.8 board serving the saved pages: the login form,
reading with the page cursor, a lost session, replies and PMs through flood control and a
stale token, the name search, and vBulletin 5 refused with a clear line."""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta, timezone
from urllib.parse import parse_qs

import httpx
import pytest

from forums.errors import BoardError, LoginFailed, NotFound
from forums.records import Cursor
from forums.vbulletin.board import VbulletinBoard, md5_fields
from tests.adapter_helpers import run
from tests.forums.vbulletin.helpers_vb import (
    GM,
    PASSWORD,
    VB3,
    VB5,
    fake_board,
    html,
    made,
    page,
    vb3_last_page,
    with_deleted_post,
)

EST = timezone(timedelta(hours=-5))
TOKEN = "1562130495-6c94371919301b321336ef39cd23940fa58e0cb4"  # the real page's


def form(request: httpx.Request) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(request.content.decode(), keep_blank_values=True).items()}


class Board:
    """A vBulletin 3.8 board: the GM logs in, then the real pages answer."""

    def __init__(self) -> None:
        self.logged_in = False
        self.logins = 0
        self.thread = vb3_last_page()
        self.answers: dict[tuple[str, str], list[str]] = {}

    def queue(self, method: str, path: str, *names: str) -> None:
        self.answers.setdefault((method, path), []).extend(names)

    def __call__(self, request: httpx.Request) -> httpx.Response | None:
        path = request.url.path
        key = (request.method, path)
        if key == ("POST", "/login.php"):
            self.logins += 1
            self.logged_in = True
            return html(made("login_redirect.html"))
        if not self.logged_in:
            return html(made("not_logged_in.html"))
        queued = self.answers.get(key)
        if queued:
            name = queued.pop(0)
            if name == "LOGGED_OUT":
                self.logged_in = False
                return html(made("not_logged_in.html"))
            return html(self.thread if name == "THREAD" else made(name))
        if path in ("/", "/index.php"):
            return html(page(VB3))
        if path == "/showthread.php":
            return html(self.thread)
        return None


def board(
    fake: Board | None = None, **options: object
) -> tuple[VbulletinBoard, Board, list[httpx.Request]]:
    fake = fake or Board()
    adapter, sent, _ = fake_board(fake, **options)
    return adapter, fake, sent


def test_login_sends_the_digests_vbulletin_makes_never_the_password() -> None:
    adapter, _fake, sent = board()
    me = run(adapter, lambda b: b.login())
    assert (me.id, me.name) == ("47030", GM)
    post = next(r for r in sent if r.method == "POST")
    data = form(post)
    assert post.url.path == "/login.php" and data["do"] == "login"
    assert data["vb_login_username"] == GM and data["securitytoken"] == "guest"
    assert data["vb_login_password"] == ""
    # vbulletin_md5.js: characters above U+00FF as &#N; for one digest, low bytes for the other.
    entities = "s3cret-&#1055;&#1072;&#1088;&#1086;&#1083;&#1100;"
    assert data["vb_login_md5password"] == hashlib.md5(entities.encode("latin-1")).hexdigest()
    assert data["vb_login_md5password_utf"] == md5_fields(PASSWORD)["vb_login_md5password_utf"]
    assert all(PASSWORD not in r.content.decode() + str(r.url) for r in sent)
    assert adapter.version == 3 and adapter.charset == "iso-8859-1"


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        ("login_failed.html", "invalid username or password"),
        ("login_strikes.html", "used up your failed login quota"),
    ],
)
def test_a_refused_login_says_the_boards_words(answer: str, said: str) -> None:
    def route(request: httpx.Request) -> httpx.Response:
        if request.method == "POST":
            return html(made(answer))
        return html(made("not_logged_in.html"))

    adapter, sent, _ = fake_board(route)
    with pytest.raises(LoginFailed, match=said) as caught:
        run(adapter, lambda b: b.login())
    assert PASSWORD not in str(caught.value)
    assert sum(r.method == "POST" for r in sent) == 1  # no second try with a wrong password


def test_vbulletin_5_is_refused_with_a_clear_line() -> None:
    adapter, sent, _ = fake_board(lambda r: html(page(VB5)))
    with pytest.raises(LoginFailed, match=r"runs vBulletin 5.*engine = \"vbulletin5\""):
        run(adapter, lambda b: b.login())
    assert all(r.method == "GET" for r in sent)  # nothing posted, no password sent


def test_a_poll_reads_the_page_of_the_cursor_and_costs_no_more() -> None:
    adapter, _fake, sent = board()
    cursor = Cursor({"thread": "128882", "last_id": 5768696, "page": 152, "per_page": 20})
    got = run(adapter, lambda b: b.thread_posts("128882", cursor))
    assert len(got.items) == 20 and got.items[0].id == "5768670"
    assert got.cursor.data == {"thread": "128882", "last_id": 5778211, "page": 152, "per_page": 20}
    pages = [r for r in sent if r.url.path == "/showthread.php"]
    assert [r.url.params["page"] for r in pages] == ["152"]  # one page, the cursor's
    edited = next(p for p in got.items if p.id == "5768696")
    assert edited.edit is not None and edited.edit.at == datetime(2016, 2, 1, 3, 31, tzinfo=EST)


def test_a_deletion_on_the_page_read_is_seen_at_once() -> None:
    fake = Board()
    fake.thread = with_deleted_post()
    adapter, _, _ = board(fake)
    cursor = Cursor({"thread": "128882", "last_id": 5778211, "page": 152, "per_page": 20})
    got = run(adapter, lambda b: b.thread_posts("128882", cursor))
    deleted = next(p for p in got.items if p.id == "5768676")
    assert deleted.deleted and deleted.body.runs == ()


def test_a_lost_session_is_logged_in_again_once() -> None:
    adapter, fake, _sent = board()
    fake.queue("GET", "/showthread.php", "LOGGED_OUT")
    cursor = Cursor({"thread": "128882", "last_id": 5778211, "page": 152})
    got = run(adapter, lambda b: b.thread_posts("128882", cursor))
    assert len(got.items) == 20 and fake.logins == 2


def test_a_missing_thread_is_not_found() -> None:
    adapter, fake, _ = board()
    fake.queue("GET", "/showthread.php", "invalid_thread.html")
    with pytest.raises(NotFound, match="Invalid Thread specified"):
        run(adapter, lambda b: b.thread_posts("999"))


def test_a_reply_waits_out_flood_control_and_is_confirmed_on_the_thread() -> None:
    adapter, fake, sent = board()
    fake.queue("POST", "/newreply.php", "flood_reply.html", "post_redirect.html")
    adapter_clock = adapter._clock
    before = adapter_clock()
    post_id = run(
        adapter,
        lambda b: b.reply(
            "https://forums.animesuki.com/showthread.php?t=128882", "Голосую: [b]Shirohige[/b]"
        ),
    )
    assert post_id == "5778211"
    posts = [r for r in sent if r.method == "POST" and r.url.path == "/newreply.php"]
    assert len(posts) == 2
    data = form(posts[0])
    # The thread's real quick-reply form, with the session's token; the legacy charset gets
    # the Cyrillic as character references.
    assert data["securitytoken"] == TOKEN and data["t"] == "128882" and data["do"] == "postreply"
    assert data["loggedinuser"] == "47030" and "preview" not in data
    assert data["message"] == "&#1043;&#1086;&#1083;&#1086;&#1089;&#1091;&#1102;: [b]Shirohige[/b]"
    # "Please try again in 12 seconds": waited 12 s and a second more.
    assert (adapter_clock() - before).total_seconds() >= 13
    confirm = [r for r in sent if r.url.params.get("p") == "5778211"]
    assert confirm


def test_flood_control_that_does_not_end_is_a_flood_error() -> None:
    from forums.errors import FloodControl

    adapter, fake, _ = board()
    fake.queue("POST", "/newreply.php", "flood_reply.html", "flood_reply.html", "flood_reply.html")
    with pytest.raises(FloodControl, match="wait 30 seconds between posts"):
        run(adapter, lambda b: b.reply("128882", "text"))


def test_a_stale_token_fetches_a_fresh_form_once() -> None:
    adapter, fake, sent = board()
    fake.queue("POST", "/newreply.php", "token_invalid.html", "post_redirect.html")
    assert run(adapter, lambda b: b.reply("128882", "vote X")) == "5778211"
    forms = [r for r in sent if r.url.path == "/showthread.php" and r.url.params.get("goto")]
    assert len(forms) == 2
    fake.queue("POST", "/newreply.php", "token_invalid.html", "token_invalid.html")
    with pytest.raises(BoardError, match=r"rejected a fresh form.*security token"):
        run(adapter, lambda b: b.reply("128882", "vote X"))


def test_a_pm_is_sent_with_a_copy_and_found_in_sent_items() -> None:
    adapter, fake, sent = board()
    fake.queue(
        "GET", "/private.php", "pm_sent_before.html", "newpm.html", "newpm.html", "pm_sent.html"
    )
    fake.queue("POST", "/private.php", "pm_flood.html", "pm_sent_redirect.html")
    pm_id = run(adapter, lambda b: b.send_pm(["Shirohige"], "Your role", "You are [b]mafia[/b]."))
    assert pm_id == "901240"
    posts = [form(r) for r in sent if r.method == "POST" and r.url.path == "/private.php"]
    assert len(posts) == 2  # flood control: "Please try again in 42 seconds", then sent
    data = posts[-1]
    assert data["recipients"] == "Shirohige" and data["title"] == "Your role"
    assert data["message"] == "You are [b]mafia[/b]." and data["savecopy"] == "1"
    assert "receipt" not in data and "preview" not in data
    assert data["securitytoken"] == "1562131000-0f1e2d3c4b5a69788796a5b4c3d2e1f001122334"


def test_a_pm_to_an_unknown_name_is_not_found() -> None:
    adapter, fake, _ = board()
    fake.queue("GET", "/private.php", "pm_sent_before.html", "newpm.html")
    fake.queue("POST", "/private.php", "pm_users_not_found.html")
    with pytest.raises(NotFound, match="users were not found: Nobody"):
        run(adapter, lambda b: b.send_pm(["Nobody"], "Role", "text"))


def test_the_inbox_reads_only_what_is_new() -> None:
    adapter, fake, sent = board()
    fake.queue("GET", "/private.php", "pm_inbox.html", "pm_showpm.html")
    got = run(adapter, lambda b: b.inbox(Cursor({"last_id": 901200})))
    assert [(m.id, m.sender, m.subject) for m in got.items] == [
        ("901234", "Shirohige", "Night 1 orders")
    ]
    assert got.items[0].recipients == (GM,)
    assert got.cursor.data == {"last_id": 901234}
    shown = [r for r in sent if r.url.params.get("do") == "showpm"]
    assert [r.url.params["pmid"] for r in shown] == ["901234"]


def test_the_name_search_finds_the_exact_name_in_any_case() -> None:
    fake = Board()
    xml = Board.__module__ and made("usersearch.xml")

    def route(request: httpx.Request) -> httpx.Response | None:
        if request.url.path == "/ajax.php":
            assert form(request)["do"] == "usersearch"
            return httpx.Response(200, text=xml, headers={"Content-Type": "text/xml"})
        return fake(request)

    adapter, _sent, _ = fake_board(route)
    user = run(adapter, lambda b: b.find_user("shirohige"))
    assert user is not None and (user.id, user.name) == ("250472", "Shirohige")
    assert run(adapter, lambda b: b.find_user("Shiro")) is None
    with pytest.raises(BoardError, match="3 letters or more"):
        run(adapter, lambda b: b.find_user("Al"))
