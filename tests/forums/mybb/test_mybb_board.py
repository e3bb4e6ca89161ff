"""MybbBoard over respx and the saved MyBB 1.8.37 pages: login, sync, inbox, reply, PM, failures."""

from __future__ import annotations

import logging
import re
from typing import Any
from urllib.parse import parse_qsl

import httpx
import pytest
from helpers_mybb import (
    BASE,
    PASSWORD,
    USER,
    FakeMybb,
    FakeTime,
    html,
    mybb_board,
    page,
    redirect,
    run,
    saved,
    sent_page,
    thread_url,
    with_inbox,
    with_sent,
)

from forums import (
    Board,
    BoardError,
    BoardUnavailable,
    CaptchaRequired,
    Cursor,
    FloodControl,
    LayoutChanged,
    LoginFailed,
    SessionExpired,
    User,
    board_factory,
)
from forums.guard import InsecureBoardUrl
from forums.mybb import MybbBoard


def make(fake: FakeMybb, time: FakeTime | None = None, **options: Any) -> MybbBoard:
    return mybb_board(fake, time, **options)


# -- login ---------------------------------------------------------------------------------


def test_login_posts_the_form_with_its_key_and_remember_me() -> None:
    fake = FakeMybb().with_login()
    board = make(fake)
    assert run(board, lambda b: b.login()) == User(id="2", name=USER)
    (sent,) = fake.posted("/member.php")
    assert sent["username"] == USER and sent["password"] == PASSWORD
    assert sent["action"] == "do_login" and sent["remember"] == "yes"
    assert sent["my_post_key"] == "bb2f3c8a56255c383447633a393e4e4d"
    assert sent["url"] == BASE
    assert "quick_password" not in sent  # the header's popup form is not the one sent
    assert isinstance(board, Board)
    assert board_factory("mybb") is MybbBoard


def test_wrong_password_is_login_failed_with_the_boards_words() -> None:
    fake = FakeMybb().with_login()
    fake.on("POST", "/member.php", "login_failed_wrong_password")
    with pytest.raises(LoginFailed) as caught:
        run(make(fake), lambda b: b.login())
    said = str(caught.value)
    assert USER in said and "invalid username/password combination" in said
    assert PASSWORD not in said


def captcha_page() -> str:
    """The real login-failed page with MyBB's image CAPTCHA rows added to the form (derived:
    the board in the capture had no CAPTCHA on)."""
    rows = (
        '<tr><td class="trow1"><strong>Image Verification:</strong></td><td class="trow1">'
        '<img src="captcha.php?action=regimage&amp;imagehash=abc" alt="" />'
        '<input type="text" class="textbox" name="imagestring" value="" />'
        '<input type="hidden" name="imagehash" value="abc" /></td></tr>'
    )
    body = page("login_failed_wrong_password")
    return body.replace(
        '</table>\n<br />\n<div align="center"><input type="submit"',
        rows + '</table>\n<br />\n<div align="center"><input type="submit"',
        1,
    )


def test_captcha_tells_the_host_what_to_do_and_posts_nothing_more() -> None:
    assert "imagestring" in captcha_page()
    fake = FakeMybb().with_login()
    fake.on("POST", "/member.php", html(captcha_page()))
    with pytest.raises(CaptchaRequired) as caught:
        run(make(fake), lambda b: b.login())
    assert "CAPTCHA" in str(caught.value) and "by hand" in str(caught.value)
    fake = FakeMybb().with_login()
    fake.on("GET", "/member.php?action=login", html(captcha_page()))
    with pytest.raises(CaptchaRequired):
        run(make(fake), lambda b: b.login())
    assert fake.posted("/member.php") == []


def two_step_page() -> str:
    """The real login-success page with its message replaced by the one-time-code form of
    the My2FA plugin (derived: the plugin's `my2fa__verification` template with its `otp`
    field; MyBB itself has no two-step verification and the capture had no plugin)."""
    form = (
        '<form action="member.php?action=my2fa&amp;method=totp" method="post" '
        'class="my2fa__verification my2fa__verification--totp">'
        '<table border="0" cellspacing="0" cellpadding="5" class="tborder"><tr><td class="thead">'
        "<strong>Two-Factor Authentication - TOTP</strong></td></tr><tr>"
        '<td class="trow1" style="text-align:center"><p>Enter the code from your app.</p>'
        '<input type="text" name="otp" class="textbox" autocomplete="off" /></td></tr></table>'
        '<input type="hidden" name="my_post_key" value="bb2f3c8a56255c383447633a393e4e4d" />'
        '<input type="submit" class="button" value="Verify" /></form>'
    )
    body = page("login_page")
    start = body.index('<form action="member.php" method="post">')
    end = body.index("</form>", start) + len("</form>")
    return body[:start] + form + body[end:]


def test_two_step_verification_is_a_clear_login_error_and_no_code_is_sent() -> None:
    fake = FakeMybb().with_login()
    fake.on("POST", "/member.php", html(two_step_page()))
    with pytest.raises(LoginFailed) as caught:
        run(make(fake), lambda b: b.login())
    said = str(caught.value)
    assert "two-step verification" in said and USER in said and PASSWORD not in said
    (sent,) = fake.posted("/member.php")
    assert "otp" not in sent
    # Served in the middle of a game (the plugin asking again): the same error, no loop.
    fake = FakeMybb().with_login().with_thread()
    fake.on("GET", thread_url(3), html(two_step_page()))
    with pytest.raises(LoginFailed, match="two-step verification"):
        run(make(fake), lambda b: b.thread_posts("1"))
    assert len(fake.posted("/member.php")) == 1


# -- thread sync ---------------------------------------------------------------------------


def _thread_gets(fake: FakeMybb) -> list[str]:
    return [t for t in fake.targets("GET") if t.startswith("/showthread.php")]


def pages_read(fake: FakeMybb) -> list[int]:
    """The thread pages requested, in order."""
    return [
        int(dict(parse_qsl(r.url.query.decode())).get("page", 1))
        for r in fake.requests
        if r.url.path == "/showthread.php"
    ]


def test_full_sync_reads_every_page_once_in_linear_mode() -> None:
    fake = FakeMybb().with_login().with_thread()
    result = run(make(fake), lambda b: b.thread_posts("1"))
    gets = _thread_gets(fake)
    assert len(gets) == len(set(gets)) == 7
    assert all("mode=linear" in g for g in gets)
    assert len(result.items) == 62
    ids = [int(p.id) for p in result.items]
    assert ids == sorted(ids) and ids[0] == 1 and ids[-1] == 63
    deleted = [p for p in result.items if p.deleted]
    assert [(p.id, p.body.runs) for p in deleted] == [("46", ())]
    assert result.cursor.data == {"thread": "1", "last_id": 63, "page": 7, "per_page": 10}


def test_poll_reads_only_the_last_page() -> None:
    fake = FakeMybb().with_login().with_thread()
    board = make(fake)

    async def go(b: MybbBoard) -> tuple[list[str], list[str], Cursor]:
        full = await b.thread_posts("1")
        # The GM's day-2 result went up: page 7 now also holds post 64.
        fake.on("GET", thread_url(7), "after_post_showthread")
        before = len(fake.requests)
        polled = await b.thread_posts("1", full.cursor)
        gets = [str(r.url) for r in fake.requests[before:]]
        return gets, [p.id for p in polled.items], polled.cursor

    gets, ids, cursor = run(board, go)
    assert gets == [f"{BASE}showthread.php?tid=1&mode=linear&page=7"]
    # Every post of the page read comes back: an edit (or a merge) there is seen at once.
    assert ids == ["62", "63", "64"]
    assert cursor.data == {"thread": "1", "last_id": 64, "page": 7, "per_page": 10}


def test_poll_from_a_cursor_of_another_board_run_reads_from_its_page() -> None:
    fake = FakeMybb().with_login().with_thread()
    cursor = Cursor({"thread": "1", "last_id": 43, "page": 5, "per_page": 10})
    result = run(make(fake), lambda b: b.thread_posts("1", cursor))
    assert pages_read(fake) == [5, 6, 7]
    assert [p.id for p in result.items if int(p.id) > 43][:3] == ["44", "45", "46"]


def test_poll_past_the_end_steps_back_to_the_last_page() -> None:
    # The cursor believes in a page 8 (posts were deleted since): MyBB then serves page 1.
    fake = FakeMybb().with_login().with_thread()
    fake.on("GET", thread_url(8), "showthread_p1")
    cursor = Cursor({"thread": "1", "last_id": 58, "page": 8, "per_page": 10})
    result = run(make(fake), lambda b: b.thread_posts("1", cursor))
    gets = _thread_gets(fake)
    assert len(gets) == len(set(gets))
    assert pages_read(fake) == [8, 7, 6]
    assert [p.id for p in result.items if int(p.id) > 58] == ["59", "60", "61", "62", "63"]
    assert result.cursor.data["page"] == 7


def test_session_expiry_mid_sync_logs_in_again_once() -> None:
    fake = FakeMybb().with_login().with_thread(3)
    # Page 2 comes back as a guest sees it, page 3 as the no-permission page: two expiries.
    fake.on("GET", thread_url(2), "showthread_p1_guest", "showthread_p2")
    fake.on("GET", thread_url(3), "private_session_expired", "showthread_p3")
    with pytest.raises(SessionExpired):
        run(make(fake), lambda b: b.thread_posts("1"))
    assert len(fake.posted("/member.php")) == 2

    fake = FakeMybb().with_login().with_thread()
    fake.on("GET", thread_url(3), "private_session_expired", "showthread_p3")
    assert len(run(make(fake), lambda b: b.thread_posts("1")).items) == 62
    assert len(fake.posted("/member.php")) == 2


def test_expired_twice_in_a_row_is_session_expired() -> None:
    fake = FakeMybb().with_login()
    fake.on("GET", "/private.php?fid=0", "private_session_expired")
    with pytest.raises(SessionExpired) as caught:
        run(make(fake), lambda b: b.inbox())
    assert "again" in str(caught.value) and PASSWORD not in str(caught.value)


@pytest.mark.parametrize(
    ("name", "what"),
    [("printthread_p1", "topic"), ("showthread_threaded_mode", "threaded"), ("index", "topic")],
)
def test_a_page_in_an_unknown_layout_is_layout_changed_with_its_url(name: str, what: str) -> None:
    fake = FakeMybb().with_login()
    fake.on("GET", thread_url(1), name)
    with pytest.raises(LayoutChanged) as caught:
        run(make(fake), lambda b: b.thread_posts("1"))
    assert "showthread.php" in caught.value.url and what in caught.value.what


def test_a_thread_page_whose_posts_lost_their_markup_is_layout_changed() -> None:
    # A renamed class alone is no loss (issue 26: MyBB's `id="pid_N"` still marks the
    # body, see test_mybb_styles); a post with no body at all is.
    body = re.sub(
        r'<div class="post_body[^"]*" id="pid_1">.*?</div>', "", page("showthread_p1"), flags=re.S
    )
    fake = FakeMybb().with_login()
    fake.on("GET", thread_url(1), html(body))
    with pytest.raises(LayoutChanged, match="no body"):
        run(make(fake), lambda b: b.thread_posts("1"))


def test_thread_ids_from_urls() -> None:
    assert MybbBoard.topic_id("1") == "1"
    assert MybbBoard.topic_id(f"{BASE}showthread.php?tid=12&page=3") == "12"
    assert MybbBoard.topic_id("tid=7") == "7"
    assert MybbBoard.topic_id(f"{BASE}thread-42-page-2.html") == "42"
    with pytest.raises(BoardError):
        MybbBoard.topic_id(f"{BASE}forumdisplay.php?fid=4")


# -- transport trouble ---------------------------------------------------------------------


def test_503_then_success() -> None:
    fake = FakeMybb().with_login().with_thread(1)
    fake.on("GET", thread_url(1), html("busy", 503), "showthread_p1")
    run(make(fake), lambda b: b.thread_page("1"))
    assert _thread_gets(fake) == [_thread_gets(fake)[0]] * 2


def test_timeouts_are_retried_then_board_unavailable() -> None:
    fake = FakeMybb().with_login()
    fake.on("GET", thread_url(1), httpx.ReadTimeout("slow"))
    with pytest.raises(BoardUnavailable) as caught:
        run(make(fake, max_tries=3), lambda b: b.thread_posts("1"))
    assert len(_thread_gets(fake)) == 3
    assert "ReadTimeout" in str(caught.value) and "3 tries" in str(caught.value)


# -- credentials go only to the board ------------------------------------------------------


def test_a_login_form_posting_elsewhere_gets_nothing() -> None:
    body = page("login_page").replace(
        '<form action="member.php" method="post">',
        '<form action="https://evil.example/steal" method="post">',
    )
    fake = FakeMybb().with_login()
    fake.on("GET", "/member.php?action=login", html(body))
    with pytest.raises(BoardUnavailable, match="not to the configured board"):
        run(make(fake), lambda b: b.login())
    assert [r for r in fake.requests if r.method == "POST"] == []
    assert all(r.url.host == "127.0.0.1" for r in fake.requests)


def test_a_redirect_elsewhere_is_not_followed() -> None:
    fake = FakeMybb().with_login()
    fake.on("GET", thread_url(1), redirect("https://evil.example/showthread.php?tid=1"))
    with pytest.raises(BoardUnavailable, match=r"evil\.example"):
        run(make(fake), lambda b: b.thread_posts("1"))
    assert all(r.url.host == "127.0.0.1" for r in fake.requests)


def test_a_plain_http_board_needs_the_hosts_consent() -> None:
    with pytest.raises(InsecureBoardUrl, match="unencrypted"):
        MybbBoard(BASE, USER, PASSWORD)


# -- reply -----------------------------------------------------------------------------------

POSTED = "newreply_submit_response"


def _with_reply(fake: FakeMybb, *answers: Any, confirm: str = "after_post_showthread") -> FakeMybb:
    fake.on("GET", "/newreply.php?tid=1", "newreply_form")
    fake.on("POST", "/newreply.php?tid=1&processed=1", *answers)
    fake.on("GET", "/showthread.php?tid=1&pid=64&mode=linear", confirm)
    return fake


def test_reply_posts_the_form_and_confirms_the_post() -> None:
    fake = _with_reply(FakeMybb().with_login(), POSTED)
    assert run(make(fake), lambda b: b.reply("1", "Спасибо всем за игру!")) == "64"
    (sent,) = fake.posted("/newreply.php")
    assert sent["message"] == "Спасибо всем за игру!"
    assert sent["my_post_key"] == "e6f1a05b61e5366eed1a15e2368abaa3"
    assert sent["posthash"] == "732dabcdb4d53f4ff3c45f5cbeee2cc3"
    assert (sent["action"], sent["tid"], sent["replyto"]) == ("do_newreply", "1", "0")
    assert sent["subject"].startswith("RE: ")
    assert sent["postoptions[subscriptionmethod]"] == ""
    assert "previewpost" not in sent and "postoptions[signature]" not in sent


def test_reply_answered_with_a_302_works_too() -> None:
    fake = _with_reply(
        FakeMybb().with_login(), redirect(f"{BASE}showthread.php?tid=1&pid=64#pid64")
    )
    assert run(make(fake), lambda b: b.reply("1", "x")) == "64"


def test_flood_control_waits_as_told_and_retries_then_succeeds() -> None:
    fake = _with_reply(FakeMybb().with_login(), "newreply_flood_error", POSTED)
    time = FakeTime()
    assert run(make(fake, time), lambda b: b.reply("1", "x")) == "64"
    _, second = fake.posted("/newreply.php")
    # The retry uses the re-displayed form's own posthash.
    assert second["posthash"] == "3cf65585086d37a7251496c0676ebe7c"
    assert second["message"] == "x"
    assert 62 in time.slept  # "Please wait 61 more seconds." and one to spare


def test_flood_control_that_persists_is_flood_control() -> None:
    fake = _with_reply(FakeMybb().with_login(), "newreply_flood_error")
    with pytest.raises(FloodControl) as caught:
        run(make(fake, flood_retries=2), lambda b: b.reply("1", "x"))
    assert caught.value.retry_after == 61
    assert len(fake.posted("/newreply.php")) == 3
    assert "too quickly" in str(caught.value)


def test_a_stale_post_key_refetches_the_form_once() -> None:
    fake = _with_reply(FakeMybb().with_login(), "newreply_bad_post_key", POSTED)
    fake.on("GET", "/newreply.php?tid=1", "newreply_form", "newreply_form_before_submit")
    assert run(make(fake), lambda b: b.reply("1", "x")) == "64"
    assert fake.targets("GET").count("/newreply.php?tid=1") == 2


def test_a_stale_post_key_twice_is_an_error() -> None:
    fake = _with_reply(FakeMybb().with_login(), "newreply_bad_post_key")
    with pytest.raises(BoardError, match="Authorization code mismatch"):
        run(make(fake), lambda b: b.reply("1", "x"))
    assert fake.targets("GET").count("/newreply.php?tid=1") == 2


def test_reply_form_not_logged_in_logs_in_again() -> None:
    fake = _with_reply(FakeMybb().with_login(), POSTED)
    fake.on("GET", "/newreply.php?tid=1", "newreply_not_logged_in", "newreply_form")
    assert run(make(fake), lambda b: b.reply("1", "x")) == "64"
    assert len(fake.posted("/member.php")) == 2


def test_a_reply_merged_into_the_previous_post_is_reported(
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake = _with_reply(FakeMybb().with_login(), POSTED, confirm="showthread_p7_merged_double_post")
    caplog.set_level(logging.WARNING, logger="forums.mybb")
    assert run(make(fake), lambda b: b.reply("1", "Проверка антифлуда")) == "64"
    assert any("merged the reply into the GM's post 64" in r.getMessage() for r in caplog.records)


# -- PMs -------------------------------------------------------------------------------------


def test_inbox_reads_new_messages_oldest_first() -> None:
    fake = with_inbox(FakeMybb().with_login())
    result = run(make(fake), lambda b: b.inbox(Cursor({"last_id": 27})))
    assert [m.id for m in result.items] == ["29", "31", "33"]
    assert result.items[0].sender == "Мaрина" and result.items[0].recipients == (USER,)
    assert result.cursor.data == {"last_id": 33}
    reads = [t for t in fake.targets("GET") if "action=read" in t]
    assert len(reads) == 3


def test_sent_reads_sent_items() -> None:
    fake = with_sent(FakeMybb().with_login())
    result = run(make(fake), lambda b: b.sent(Cursor({"last_id": 33})))
    assert [m.id for m in result.items] == ["36"]
    assert result.items[0].sender == USER and result.items[0].recipients == ("Alu",)
    assert result.cursor.data == {"last_id": 36}


def _with_pm(fake: FakeMybb, after: httpx.Response) -> FakeMybb:
    fake.on("GET", "/memberlist.php?username=Alu", "memberlist")
    fake.on("GET", "/private.php?fid=2", sent_page(), after)
    fake.on("GET", "/private.php?action=send", "private_compose_form")
    fake.on("POST", "/private.php", "private_sent_confirmation")
    return fake


def test_send_pm_fills_the_form_and_finds_the_copy_in_sent_items() -> None:
    fake = _with_pm(FakeMybb().with_login(), sent_page(new="44"))
    assert (
        run(make(fake), lambda b: b.send_pm(["Alu"], "Спасибо за игру", "Отличная проверка!"))
        == "44"
    )
    (sent,) = fake.posted("/private.php")
    assert (sent["to"], sent["subject"], sent["message"]) == (
        "Alu",
        "Спасибо за игру",
        "Отличная проверка!",
    )
    assert sent["options[savecopy]"] == "1" and "options[readreceipt]" not in sent
    assert sent["my_post_key"] == "e6f1a05b61e5366eed1a15e2368abaa3" and sent["action"] == "do_send"
    assert "saveasdraft" not in sent and "preview" not in sent


def test_send_pm_not_found_in_sent_items_is_an_error() -> None:
    fake = _with_pm(FakeMybb().with_login(), sent_page())
    with pytest.raises(BoardError, match="not in Sent Items"):
        run(make(fake), lambda b: b.send_pm(["Alu"], "s", "b"))


def test_a_pm_flood_of_an_hour_is_handed_back_at_once_not_sat_out() -> None:
    """An administrator set an hour between PMs (`pmfloodsecs`): the adapter does not sleep
    through it in the step (nor try again); the publisher keeps the PMs for later
    (engine.publish) while the game goes on. Derived page: the saved reply form's flood
    error with the PM datahandler's words (`pmdata_pm_flooding`) and an hour's wait."""
    said = (
        "You are trying to send a message too quickly after sending a previous message. "
        "Please wait 3600 more seconds."
    )
    flood = page("newreply_flood_error").replace(
        "You are trying to post a message too quickly after posting a previous message. "
        "Please wait 61 more seconds.",
        said,
    )
    assert said in flood
    fake = _with_pm(FakeMybb().with_login(), sent_page())
    fake.on("POST", "/private.php", html(flood))
    time = FakeTime()
    with pytest.raises(FloodControl) as caught:
        run(make(fake, time), lambda b: b.send_pm(["Alu"], "s", "b"))
    assert caught.value.retry_after == 3600 and "too quickly" in str(caught.value)
    assert len(fake.posted("/private.php")) == 1
    assert not any(wait >= 60 for wait in time.slept)


def test_send_pm_with_a_stale_key_twice_is_an_error() -> None:
    fake = _with_pm(FakeMybb().with_login(), sent_page())
    fake.on("POST", "/private.php", "private_bad_post_key")
    with pytest.raises(BoardError, match="Authorization code mismatch"):
        run(make(fake), lambda b: b.send_pm(["Alu"], "s", "b"))
    assert len(fake.posted("/private.php")) == 2


def test_find_user_through_the_member_list() -> None:
    fake = FakeMybb().with_login()
    fake.on("GET", "/memberlist.php?username=том и джерри", "memberlist")
    fake.on("GET", "/memberlist.php?username=Nobody", "memberlist")
    fake.on("GET", "/memberlist.php?username=Nobody&username_match=begins", "memberlist")

    async def go(b: MybbBoard) -> tuple[User | None, User | None]:
        return await b.find_user("том и джерри"), await b.find_user("Nobody")

    tom, nobody = run(make(fake), go)
    assert tom == User(id="13", name="Том и Джерри")
    assert nobody is None
    # Not found by MyBB's exact search (its LOWER()), then looked for with a LIKE.
    assert fake.targets()[-2:] == [
        "/memberlist.php?username=Nobody",
        "/memberlist.php?username=Nobody&username_match=begins",
    ]


# -- the recorded flow -----------------------------------------------------------------------


def test_end_to_end_login_sync_inbox_reply_pm_never_fetches_a_page_twice() -> None:
    fake = with_inbox(FakeMybb().with_login().with_thread())
    _with_reply(fake, POSTED)
    _with_pm(fake, sent_page(new="44"))

    async def flow(b: MybbBoard) -> dict[str, Any]:
        out: dict[str, Any] = {"me": await b.login()}
        mark = len(fake.requests)
        # The GM last saw post 43, on page 5: the sync reads pages 5, 6 and 7.
        seen = Cursor({"thread": "1", "last_id": 43, "page": 5, "per_page": 10})
        out["posts"] = await b.thread_posts("1", seen)
        out["sync_gets"] = [str(r.url) for r in fake.requests[mark:]]
        out["inbox"] = await b.inbox()
        out["reply"] = await b.reply("1", "Спасибо всем за игру!")
        out["pm"] = await b.send_pm(["Alu"], "Спасибо за игру", "Отличная проверка!")
        return out

    out = run(make(fake), flow)
    assert out["me"].name == USER
    assert out["sync_gets"] == [
        f"{BASE}showthread.php?tid=1&mode=linear&page={n}" for n in (5, 6, 7)
    ]
    new = [p.id for p in out["posts"].items if int(p.id) > 43]
    assert new[:3] == ["44", "45", "46"] and new[-1] == "63"
    inbox = out["inbox"]
    assert [m.id for m in inbox.items] == ["23", "27", "29", "31", "33"]
    assert inbox.items[1].sender == "Alu" and inbox.cursor.data == {"last_id": 33}
    assert (out["reply"], out["pm"]) == ("64", "44")
    # One login in the whole flow, and every page read once (Sent Items before and after).
    assert len(fake.posted("/member.php")) == 1
    gets = [g for g in fake.targets("GET") if g != "/private.php?fid=2"]
    assert len(gets) == len(set(gets)), gets
    assert fake.targets("GET").count("/private.php?fid=2") == 2


# -- secrets -------------------------------------------------------------------------------


def test_the_password_is_in_no_log_record_repr_or_error(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    fake = FakeMybb().with_login()
    board = make(fake)
    run(board, lambda b: b.login())
    fake2 = FakeMybb().with_login()
    fake2.on("POST", "/member.php", "login_failed_wrong_password")
    board2 = make(fake2)
    with pytest.raises(LoginFailed) as caught:
        run(board2, lambda b: b.login())
    texts = [r.getMessage() for r in caplog.records] + [
        repr(board),
        repr(vars(board)),
        str(caught.value),
        repr(caught.value),
    ]
    assert caplog.records
    for text in texts:
        assert PASSWORD not in text


def test_saved_helper_stamps_the_capture_date() -> None:
    assert saved("showthread_p1").headers["Date"].endswith("GMT")


def test_a_board_in_a_theme_with_every_class_renamed_is_read_as_served() -> None:
    # Issue 26: the board's page flow (page kind, logged-in user, pages, posts) holds when
    # no class of the default theme is left.
    from tests.forums.restyle import rename_classes

    served_fake = FakeMybb().with_login().with_thread()
    restyled_fake = FakeMybb().with_login()
    for n in range(1, 8):
        restyled_fake.on("GET", thread_url(n), html(rename_classes(page(f"showthread_p{n}"))))
    served = run(make(served_fake), lambda b: b.thread_posts("1"))
    restyled = run(make(restyled_fake), lambda b: b.thread_posts("1"))
    assert len(served.items) == 62
    assert [(p.id, p.author, p.posted_at, p.body.text()) for p in restyled.items] == [
        (p.id, p.author, p.posted_at, p.body.text()) for p in served.items
    ]
