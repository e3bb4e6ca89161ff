"""PhpbbBoard over respx and the saved phpBB 3.3.10 pages: login, sync, inbox, reply, PM."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from helpers_http import (
    BASE,
    MOSCOW,
    PASSWORD,
    USER,
    FakePhpbb,
    FakeTime,
    captcha_login_page,
    html,
    page,
    redirect,
    run,
    with_edit,
    with_pm_row_copied,
    without_pm_rows,
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
from forums.phpbb import PhpbbBoard
from forums.records import Post


def make(fake: FakePhpbb, time: FakeTime | None = None, **options: Any) -> PhpbbBoard:
    time = time or FakeTime()
    return PhpbbBoard(
        BASE,
        USER,
        PASSWORD,
        client=fake.client(),
        tz=options.pop("tz", MOSCOW),
        clock=time,
        sleep=time.sleep,
        allow_insecure_http=options.pop("allow_insecure_http", True),
        **options,
    )


# -- login ---------------------------------------------------------------------------------


def test_login_posts_the_form_with_its_tokens_and_remember_me() -> None:
    fake = FakePhpbb("en").with_login()
    time = FakeTime()
    board = make(fake, time)
    me = run(board, lambda b: b.login())
    assert me == User(id="58", name=USER)
    (sent,) = fake.posted("/ucp.php")
    assert sent["username"] == USER
    assert sent["password"] == PASSWORD
    assert sent["autologin"] == "on"
    assert sent["form_token"] == "bb7919cc8384d1d820c5dc1a921088f704554a9f"
    assert sent["creation_time"] == "1796006587"
    assert sent["sid"] == "ea064af69f7f3833d10c7d2a03bf6ea0"
    assert "login" in sent
    # The form was at least form_min_age old when posted (phpBB wants ≥ 1 s).
    assert sum(time.slept) >= 2.0
    assert isinstance(board, Board)
    assert board_factory("phpbb") is PhpbbBoard


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_wrong_password_is_login_failed_with_the_boards_words(lang: str) -> None:
    fake = FakePhpbb(lang).with_login()
    fake.on("POST", "/ucp.php?mode=login", "login_failed_wrong_password.html")
    with pytest.raises(LoginFailed) as caught:
        run(make(fake), lambda b: b.login())
    said = str(caught.value)
    assert USER in said
    assert ("incorrect password" in said) if lang == "en" else ("неверный пароль" in said)
    assert PASSWORD not in said


def test_captcha_tells_the_host_what_to_do() -> None:
    fake = FakePhpbb("en").with_login()
    fake.on("POST", "/ucp.php?mode=login", html(captcha_login_page("en")))
    with pytest.raises(CaptchaRequired) as caught:
        run(make(fake), lambda b: b.login())
    said = str(caught.value)
    assert "CAPTCHA" in said and "by hand" in said and "board check" in said
    assert PASSWORD not in said


def test_captcha_on_the_login_page_itself_posts_nothing() -> None:
    fake = FakePhpbb("en").with_login()
    fake.on("GET", "/ucp.php?mode=login", html(captcha_login_page("en")))
    with pytest.raises(CaptchaRequired):
        run(make(fake), lambda b: b.login())
    assert fake.posted("/ucp.php") == []


# -- thread sync ---------------------------------------------------------------------------


def _topic_gets(fake: FakePhpbb) -> list[str]:
    return [t for t in fake.targets("GET") if t.startswith("/viewtopic.php")]


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_full_sync_reads_every_page_once(lang: str) -> None:
    fake = FakePhpbb(lang).with_login().with_thread()
    result = run(make(fake), lambda b: b.thread_posts("2"))
    gets = _topic_gets(fake)
    assert len(gets) == len(set(gets)) == 7
    assert len(result.items) == 61
    ids = [int(p.id) for p in result.items]
    assert ids == sorted(ids) and ids[0] == 2 and ids[-1] == 64
    assert result.cursor.data == {"topic": "2", "last_id": 64, "count": 61, "per_page": 10}


def test_poll_fetches_only_the_last_page_and_returns_its_posts() -> None:
    """A poll returns the posts of the pages it read: the new ones, and the seen ones as the
    page shows them now (an edit notice or an edit is taken from every page view)."""
    fake = FakePhpbb("ru").with_login().with_thread()
    board = make(fake)

    async def go(b: PhpbbBoard) -> tuple[list[str], list[str], Cursor]:
        full = await b.thread_posts("2")
        # The GM's day-2 result went up: page 7 now also holds post 65.
        fake.on("GET", "/viewtopic.php?t=2&start=60", "after_post_viewtopic.html")
        before = len(fake.requests)
        polled = await b.thread_posts("2", full.cursor)
        gets = [str(r.url) for r in fake.requests[before:]]
        return gets, [p.id for p in polled.items], polled.cursor

    gets, new_ids, cursor = run(board, go)
    assert gets == [f"{BASE}viewtopic.php?t=2&start=60"]
    assert new_ids == ["64", "65"]  # 64 seen before, 65 new
    assert cursor.data["last_id"] == 65 and cursor.data["count"] == 62
    # Nothing new: the same single page, its one post as it is now.
    fake2 = FakePhpbb("ru").with_login()
    fake2.on("GET", "/viewtopic.php?t=2&start=60", "viewtopic_p7.html")
    again = run(
        make(fake2),
        lambda b: b.thread_posts(
            "2", Cursor({"topic": "2", "last_id": 64, "count": 61, "per_page": 10})
        ),
    )
    assert [p.id for p in again.items] == ["64"]
    assert _topic_gets(fake2) == ["/viewtopic.php?start=60&t=2"]


def test_a_poll_takes_the_edit_notice_of_a_seen_post_on_the_page_it_reads() -> None:
    """Post 64 was read without a notice; the next poll reads its page again, now with the
    post edited «в 05:40» (today, the time alone): it comes back with that edit time."""
    fake = FakePhpbb("ru").with_login().with_thread()
    board = make(fake)

    async def go(b: PhpbbBoard) -> list[Post]:
        full = await b.thread_posts("2")
        assert next(p for p in full.items if p.id == "64").edit is None
        edited = with_edit(
            page("ru", "viewtopic_p7.html"), "p64", "голос за Лёху", "в 05:40", "Alu", 65
        )
        fake.on("GET", "/viewtopic.php?t=2&start=60", html(edited))
        return list((await b.thread_posts("2", full.cursor)).items)

    [post] = run(board, go)
    assert post.id == "64" and post.body.full_text() == "голос за Лёху"
    assert post.edit is not None and post.edit.by == "Alu"
    assert post.edit.at == datetime(2026, 11, 30, 5, 40, tzinfo=MOSCOW)  # the board clock's day


def test_poll_steps_back_when_deletions_moved_posts_to_an_earlier_page() -> None:
    # The cursor believes 71 posts (the last seen on page 8); the thread now has 61.
    fake = FakePhpbb("ru").with_login().with_thread()
    fake.on("GET", "/viewtopic.php?t=2&start=70", "viewtopic_p7.html")
    cursor = Cursor({"topic": "2", "last_id": 58, "count": 71, "per_page": 10})
    result = run(make(fake), lambda b: b.thread_posts("2", cursor))
    gets = _topic_gets(fake)
    assert len(gets) == len(set(gets))
    ids = [int(p.id) for p in result.items]
    assert [i for i in ids if i > 58] == list(range(59, 65)) and min(ids) <= 58


def test_session_expiry_mid_sync_logs_in_again_once() -> None:
    fake = FakePhpbb("en").with_login().with_thread(3)
    # Page 2 comes back as a guest sees it, page 3 as a login form: two expiries.
    fake.on("GET", "/viewtopic.php?t=2&start=10", "viewtopic_p1_guest.html", "viewtopic_p2.html")
    fake.on(
        "GET", "/viewtopic.php?t=2&start=20", "pm_inbox_session_expired.html", "viewtopic_p3.html"
    )
    board = make(fake)

    async def go(b: PhpbbBoard) -> int:
        await b.login()
        return len((await b.thread_posts("2")).items)

    with pytest.raises(SessionExpired):
        # Two expiries in one sync: the second one is not retried.
        run(board, go)
    assert len(fake.posted("/ucp.php")) == 2

    fake = FakePhpbb("en").with_login().with_thread(3)
    fake.on(
        "GET", "/viewtopic.php?t=2&start=20", "pm_inbox_session_expired.html", "viewtopic_p3.html"
    )
    # Page 3 only says "7 pages": serve the rest so the sync can finish.
    for n in range(4, 8):
        fake.on("GET", f"/viewtopic.php?t=2&start={(n - 1) * 10}", f"viewtopic_p{n}.html")
    board = make(fake)

    async def go2(b: PhpbbBoard) -> int:
        await b.login()
        return len((await b.thread_posts("2")).items)

    assert run(board, go2) == 61
    assert len(fake.posted("/ucp.php")) == 2


def test_expired_twice_in_a_row_is_session_expired() -> None:
    fake = FakePhpbb("ru").with_login()
    fake.on("GET", "/ucp.php?i=pm&folder=inbox", "pm_inbox_session_expired.html")
    with pytest.raises(SessionExpired) as caught:
        run(make(fake), lambda b: b.inbox())
    assert "again" in str(caught.value)
    assert PASSWORD not in str(caught.value)


def test_a_page_in_an_unknown_layout_is_layout_changed_with_its_url() -> None:
    fake = FakePhpbb("en").with_login()
    fake.on("GET", "/viewtopic.php?t=2", "viewtopic_print_p1.html")
    with pytest.raises(LayoutChanged) as caught:
        run(make(fake), lambda b: b.thread_posts("2"))
    assert "viewtopic.php" in caught.value.url
    assert "topic" in caught.value.what and "unknown" in caught.value.what


def test_a_topic_page_whose_posts_lost_their_classes_is_read_by_their_marks() -> None:
    # Issue 26: a style's classes are the fast path; the post anchors (id="pNNN"), the
    # profile links and <time> still say where each post is.
    body = page("en", "viewtopic_p1.html").replace('class="post has-profile', 'class="entry')
    fake = FakePhpbb("en").with_login()
    fake.on("GET", "/viewtopic.php?t=2", html(body))
    restyled = run(make(fake), lambda b: b.topic_page("2"))
    fake = FakePhpbb("en").with_login()
    fake.on("GET", "/viewtopic.php?t=2", "viewtopic_p1.html")
    served = run(make(fake), lambda b: b.topic_page("2"))
    assert [(p.id, p.author, p.posted_at, p.body) for p in restyled.posts] == [
        (p.id, p.author, p.posted_at, p.body) for p in served.posts
    ]


def test_a_topic_page_whose_posts_lost_their_markup_is_layout_changed() -> None:
    body = page("en", "viewtopic_p1.html").replace('class="post has-profile', 'class="entry')
    body = body.replace('id="p', 'id="x')  # no post anchors either
    fake = FakePhpbb("en").with_login()
    fake.on("GET", "/viewtopic.php?t=2", html(body))
    with pytest.raises(LayoutChanged):
        run(make(fake), lambda b: b.thread_posts("2"))


# -- transport trouble ---------------------------------------------------------------------


def test_503_then_success() -> None:
    fake = FakePhpbb("en").with_login()
    fake.on("GET", "/viewtopic.php?t=2", html("busy", 503), "viewtopic_p1.html")
    fake.on("GET", "/viewtopic.php?t=2&start=10", "viewtopic_p7.html")
    time = FakeTime()
    run(make(fake, time), lambda b: b.topic_page("2"))
    assert _topic_gets(fake) == ["/viewtopic.php?t=2", "/viewtopic.php?t=2"]


def test_timeouts_are_retried_then_board_unavailable() -> None:
    fake = FakePhpbb("en").with_login()
    fake.on("GET", "/viewtopic.php?t=2", httpx.ReadTimeout("slow"))
    time = FakeTime()
    with pytest.raises(BoardUnavailable) as caught:
        run(make(fake, time, max_tries=3), lambda b: b.thread_posts("2"))
    assert len(_topic_gets(fake)) == 3
    assert "ReadTimeout" in str(caught.value) and "3 tries" in str(caught.value)


# -- reply -----------------------------------------------------------------------------------


def _with_reply(fake: FakePhpbb, *answers: Any) -> FakePhpbb:
    fake.on("GET", "/posting.php?mode=reply&t=2", "posting_reply_form.html")
    fake.on("POST", "/posting.php?mode=reply&t=2", *answers)
    fake.on("GET", "/viewtopic.php?p=66", "after_post_viewtopic.html")
    return fake


POSTED = redirect(f"{BASE}viewtopic.php?p=66#p66")


def test_reply_waits_for_the_form_to_age_and_confirms_the_post() -> None:
    fake = _with_reply(FakePhpbb("en").with_login(), POSTED)
    time = FakeTime()
    post_id = run(make(fake, time), lambda b: b.reply("2", "Спасибо всем за игру!"))
    assert post_id == "66"
    (sent,) = fake.posted("/posting.php")
    assert sent["message"] == "Спасибо всем за игру!"
    assert sent["form_token"] == "b936e139af02cb3b3f0904c4b612c9007b64ea1c"
    assert sent["creation_time"] == "1796006590"
    assert sent["topic_cur_post_id"] == "64"
    assert sent["subject"].startswith("Re: ")
    assert "post" in sent and sent["attach_sig"] == "on"


def test_flood_control_waits_and_retries_then_succeeds() -> None:
    fake = _with_reply(FakePhpbb("en").with_login(), "posting_flood_error.html", POSTED)
    time = FakeTime()
    assert run(make(fake, time, flood_wait=15), lambda b: b.reply("2", "x")) == "66"
    _, second = fake.posted("/posting.php")
    # The retry uses the fresh token of the re-displayed form.
    assert second["form_token"] == "5dcf8620d737c736976b6af79add3a321ba9b28e"
    assert 15 in time.slept


def test_flood_control_that_persists_is_flood_control() -> None:
    fake = _with_reply(FakePhpbb("ru").with_login(), "posting_flood_error.html")
    with pytest.raises(FloodControl) as caught:
        run(make(fake, flood_retries=2, flood_wait=20), lambda b: b.reply("2", "x"))
    assert caught.value.retry_after == 20
    assert len(fake.posted("/posting.php")) == 3
    assert "сразу после предыдущего" in str(caught.value)


def test_form_token_error_refetches_the_form_once() -> None:
    fake = _with_reply(FakePhpbb("en").with_login(), "posting_form_token_invalid.html", POSTED)
    fake.on(
        "GET",
        "/posting.php?mode=reply&t=2",
        "posting_reply_form.html",
        "posting_reply_form_before_submit.html",
    )
    assert run(make(fake), lambda b: b.reply("2", "x")) == "66"
    assert fake.targets("GET").count("/posting.php?mode=reply&t=2") == 2
    tokens = [d["form_token"] for d in fake.posted("/posting.php")]
    assert tokens[0] != tokens[1]


def test_form_token_error_twice_is_an_error() -> None:
    fake = _with_reply(FakePhpbb("en").with_login(), "posting_form_token_invalid.html")
    with pytest.raises(BoardError, match="submitted form was invalid"):
        run(make(fake), lambda b: b.reply("2", "x"))
    assert fake.targets("GET").count("/posting.php?mode=reply&t=2") == 2


# -- the recorded flow -----------------------------------------------------------------------


def test_end_to_end_login_sync_inbox_reply_pm_never_fetches_a_page_twice() -> None:
    fake = FakePhpbb("en").with_login().with_thread().with_inbox()
    _with_reply(fake, POSTED)
    fake.on("GET", "/memberlist.php?mode=searchuser&username=Alu", "memberlist.html")
    fake.on("GET", "/ucp.php?i=pm&mode=compose", "pm_compose_form.html")
    fake.on("POST", "/ucp.php?i=pm&mode=compose&action=post", "pm_sent_confirmation.html")
    outbox = with_pm_row_copied(page("en", "pm_outbox.html"), "19", "23", "Спасибо за игру")
    fake.on("GET", "/ucp.php?i=pm&folder=outbox", html(outbox))

    async def flow(b: PhpbbBoard) -> dict[str, Any]:
        out: dict[str, Any] = {"me": await b.login()}
        mark = len(fake.requests)
        # The GM last saw post 43, the 41st: the sync reads pages 5, 6 and 7.
        seen = Cursor({"topic": "2", "last_id": 43, "count": 41, "per_page": 10})
        out["posts"] = await b.thread_posts("2", seen)
        out["sync_gets"] = [str(r.url) for r in fake.requests[mark:]]
        out["inbox"] = await b.inbox()
        out["reply"] = await b.reply("2", "Спасибо всем за игру!")
        out["pm"] = await b.send_pm(["Alu"], "Спасибо за игру", "Отличная проверка!")
        return out

    out = run(make(fake), flow)
    assert out["me"].name == USER
    assert out["sync_gets"] == [f"{BASE}viewtopic.php?t=2&start={start}" for start in (40, 50, 60)]
    # Page 5 shows 43 (seen) again beside the new 44, 45, 46…
    assert [p.id for p in out["posts"].items][:4] == ["43", "44", "45", "46"]
    assert out["posts"].items[-1].id == "64"
    inbox = out["inbox"]
    assert [m.id for m in inbox.items] == ["12", "14", "15", "16", "17"]
    assert inbox.items[1].sender == "Alu"
    assert inbox.cursor.data == {"last_id": 17}
    assert out["reply"] == "66"
    assert out["pm"] == "23"
    (pm_sent,) = fake.posted("/ucp.php")[1:]
    assert pm_sent["address_list[u][65]"] == "to"
    assert pm_sent["subject"] == "Спасибо за игру"
    assert pm_sent["form_token"] == "4b9f931016465968bbc17be582a74cab65689549"
    # Only one login in the whole flow, and every page read once.
    assert len(fake.posted("/ucp.php")) == 2  # the login and the PM
    gets = fake.targets("GET")
    assert len(gets) == len(set(gets)), gets


def test_send_pm_not_found_in_outbox_or_sentbox_is_an_error() -> None:
    fake = FakePhpbb("en").with_login()
    fake.on("GET", "/memberlist.php?mode=searchuser&username=alu", "memberlist.html")
    fake.on("GET", "/ucp.php?i=pm&mode=compose", "pm_compose_form.html")
    fake.on("POST", "/ucp.php?i=pm&mode=compose&action=post", "pm_sent_confirmation.html")
    fake.on("GET", "/ucp.php?i=pm&folder=outbox", "pm_outbox.html")
    fake.on("GET", "/ucp.php?i=pm&folder=sentbox", "pm_sentbox.html")
    with pytest.raises(BoardError, match="PM 23"):
        run(make(fake), lambda b: b.send_pm(["alu"], "s", "b"))


def test_sent_reads_outbox_and_sentbox() -> None:
    fake = FakePhpbb("en").with_login()
    # PM 19's view was not captured: the outbox is served without its row.
    outbox = without_pm_rows(page("en", "pm_outbox.html"), {"19"})
    fake.on("GET", "/ucp.php?i=pm&folder=outbox", html(outbox))
    fake.on("GET", "/ucp.php?i=pm&folder=sentbox", "pm_sentbox.html")
    fake.on("GET", "/ucp.php?i=pm&mode=view&f=-1&p=18", "pm_view_sent_N1g.html")
    # Everything up to 17 was seen: 18, read by Alu and so in the sentbox, is new.
    result = run(make(fake), lambda b: b.sent(Cursor({"last_id": 17})))
    assert [m.id for m in result.items] == ["18"]
    assert result.items[0].recipients == ("Alu",)
    assert result.cursor.data == {"last_id": 18}
    assert fake.targets("GET")[-3:-1] == [
        "/ucp.php?folder=outbox&i=pm",
        "/ucp.php?folder=sentbox&i=pm",
    ]


def test_find_user_through_the_memberlist() -> None:
    fake = FakePhpbb("ru").with_login()
    fake.on(
        "GET",
        f"/memberlist.php?mode=searchuser&username={quote('том & джерри')}",
        "memberlist.html",
    )
    # No match in the search: the whole list is walked before giving up.
    fake.on("GET", "/memberlist.php?mode=searchuser&username=Nobody", "memberlist.html")
    fake.on("GET", "/memberlist.php", "memberlist.html")

    async def go(b: PhpbbBoard) -> tuple[User | None, User | None]:
        return await b.find_user("том & джерри"), await b.find_user("Nobody")

    tom, nobody = run(make(fake), go)
    assert tom == User(id="69", name="Том & Джерри")
    assert nobody is None
    assert fake.targets("GET")[-1] == "/memberlist.php"


# -- secrets -------------------------------------------------------------------------------


def test_the_password_is_in_no_log_record_repr_or_error(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    fake = FakePhpbb("en").with_login()
    board = make(fake)
    run(board, lambda b: b.login())
    fake2 = FakePhpbb("en").with_login()
    fake2.on("POST", "/ucp.php?mode=login", "login_failed_wrong_password.html")
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


def test_a_board_in_a_style_with_every_class_renamed_is_read_as_served() -> None:
    # Issue 26: the board's own page flow (page kind, logged-in user, posts) holds when no
    # prosilver class is left.
    from tests.forums.restyle import rename_classes

    fake = FakePhpbb("en").with_login()
    fake.on("GET", "/viewtopic.php?t=2", html(rename_classes(page("en", "viewtopic_p1.html"))))
    restyled = run(make(fake), lambda b: b.topic_page("2"))
    fake = FakePhpbb("en").with_login()
    fake.on("GET", "/viewtopic.php?t=2", "viewtopic_p1.html")
    served = run(make(fake), lambda b: b.topic_page("2"))
    assert [(p.id, p.author, p.posted_at, p.body.text()) for p in restyled.posts] == [
        (p.id, p.author, p.posted_at, p.body.text()) for p in served.posts
    ]
    assert restyled.logged_in_as == served.logged_in_as
