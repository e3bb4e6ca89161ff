"""XenforoBoard over respx: login, sync, conversations, reply, start conversation, failures."""

from __future__ import annotations

import logging
from typing import Any

import httpx
import pytest
from xf_helpers import (
    BASE,
    NEW_POST,
    PASSWORD,
    SLUG,
    USER,
    FakeTime,
    FakeXenforo,
    as_json,
    conversation_parts,
    fixture,
    gm_post,
    html,
    post_ids,
    redirect,
    run,
    thread_page,
    with_new_conversation,
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
    NotFound,
    SessionExpired,
    User,
    board_factory,
)
from forums.xenforo import XenforoBoard, xenforo_board


def make(fake: FakeXenforo, time: FakeTime | None = None, **options: Any) -> XenforoBoard:
    time = time or FakeTime()
    return XenforoBoard(
        BASE,
        USER,
        PASSWORD,
        client=fake.client(),
        clock=time,
        sleep=time.sleep,
        allow_insecure_http=True,
        **options,
    )


def thread_gets(fake: FakeXenforo) -> list[str]:
    return [t for t in fake.targets("GET") if t.startswith("/threads/")]


# -- login ---------------------------------------------------------------------------------


def test_login_posts_the_form_with_its_token_and_stay_logged_in() -> None:
    fake = FakeXenforo().with_login()
    board = make(fake)
    me = run(board, lambda b: b.login())
    assert me == User(id="58", name=USER)
    (sent,) = fake.posted("/login/login")
    assert sent["login"] == USER and sent["password"] == PASSWORD
    assert sent["remember"] == "1"
    assert sent["_xfToken"] == "1796006587,5f2b3c0d1e4a6b7c8d9e0f1a2b3c4d5e"
    assert sent["_xfRedirect"] == "http://127.0.0.1:8082/"
    assert isinstance(board, Board) and board_factory("xenforo") is xenforo_board


def test_wrong_password_is_login_failed_with_the_boards_words() -> None:
    fake = FakeXenforo().with_login()
    fake.on("POST", "/login/login", html(fixture("synthetic/synthetic-login-failed.html"), 400))
    with pytest.raises(LoginFailed) as caught:
        run(make(fake), lambda b: b.login())
    assert "Incorrect password" in str(caught.value) and USER in str(caught.value)
    assert PASSWORD not in str(caught.value)


@pytest.mark.parametrize("answer", ["redirect", "page"])
def test_two_step_verification_is_a_clear_login_error(answer: str) -> None:
    fake = FakeXenforo().with_login()
    if answer == "redirect":
        fake.on(
            "POST", "/login/login", redirect(f"{BASE}login/two-step?_xfRedirect=%2F&remember=1")
        )
    else:
        fake.on("POST", "/login/login", "synthetic/synthetic-two-step.html")
    with pytest.raises(LoginFailed) as caught:
        run(make(fake), lambda b: b.login())
    said = str(caught.value)
    assert "two-step verification" in said and "api_key" in said
    # Nothing was sent to the two-step form.
    assert fake.posted("/login/two-step") == []


def test_a_two_step_page_in_the_middle_of_a_sync_is_the_same_clear_error() -> None:
    fake = FakeXenforo().with_login().with_thread()
    fake.on("GET", f"/{SLUG}page-2", "synthetic/synthetic-two-step.html")
    with pytest.raises(LoginFailed, match="two-step verification"):
        run(make(fake), lambda b: b.thread_posts("8276"))
    assert len(fake.posted("/login/login")) == 1 and fake.posted("/login/two-step") == []


def test_a_captcha_on_the_login_form_posts_nothing() -> None:
    page = fixture("synthetic/synthetic-login.html").replace(
        '<dl class="formRow">',
        '<div data-xf-init="re-captcha" data-sitekey="x"></div><dl class="formRow">',
        1,
    )
    fake = FakeXenforo().with_login().on("GET", "/login/", html(page))
    with pytest.raises(CaptchaRequired, match="CAPTCHA"):
        run(make(fake), lambda b: b.login())
    assert fake.posted("/login/login") == []


# -- the configured board only -------------------------------------------------------------


def test_a_login_form_posting_elsewhere_is_refused_and_nothing_is_sent() -> None:
    page = fixture("synthetic/synthetic-login.html").replace(
        'action="/login/login"', 'action="https://evil.example/login/login"'
    )
    fake = FakeXenforo().with_login().on("GET", "/login/", html(page))
    with pytest.raises(BoardUnavailable, match=r"evil\.example"):
        run(make(fake), lambda b: b.login())
    assert [r for r in fake.requests if r.method == "POST"] == []
    assert all(r.url.host == "127.0.0.1" for r in fake.requests)


def test_a_redirect_off_the_board_is_refused() -> None:
    fake = FakeXenforo().with_login()
    fake.on("GET", "/threads/8276/", redirect("http://127.0.0.1:9999/threads/8276/", status=301))
    with pytest.raises(BoardUnavailable, match=r"127\.0\.0\.1:9999"):
        run(make(fake), lambda b: b.thread_posts("8276"))
    assert all(r.url.port == 8082 for r in fake.requests)


# -- thread sync ---------------------------------------------------------------------------


def test_full_sync_reads_every_page_once_and_follows_the_slug_redirect() -> None:
    fake = FakeXenforo().with_login().with_thread()
    result = run(make(fake), lambda b: b.thread_posts(f"{BASE}{SLUG}"))
    assert [p.id for p in result.items] == [*post_ids(1), *post_ids(2), *post_ids(3)]
    assert [p.number for p in result.items] == list(range(1, 9))
    pages = [t for t in thread_gets(fake) if t.startswith(f"/{SLUG}")]
    assert len(pages) == len(set(pages)) == 3
    assert result.cursor.data == {"thread": "8276", "last_id": 1358710, "page": 3, "per_page": 3}


def test_poll_reads_only_the_last_page_and_returns_the_new_post() -> None:
    fake = FakeXenforo().with_login().with_thread(extra=(gm_post(),))
    cursor = Cursor({"thread": "8276", "last_id": 1358710, "page": 3, "per_page": 3})
    result = run(make(fake), lambda b: b.thread_posts("8276", cursor))
    assert [p.id for p in result.items] == [NEW_POST]
    assert result.items[0].author == USER and result.items[0].author_id == "58"
    assert [t for t in thread_gets(fake) if t.startswith(f"/{SLUG}")] == [f"/{SLUG}page-3"]
    assert result.cursor.data["last_id"] == int(NEW_POST)


def test_a_thread_no_longer_at_its_slug_is_asked_for_by_its_id_again() -> None:
    fake = FakeXenforo().with_login().with_thread()
    missing = html(fixture("synthetic/synthetic-error.html"), 404)
    fake.on("GET", f"/{SLUG}page-3", missing, html(thread_page(3)))
    cursor = Cursor({"thread": "8276", "last_id": 1091229, "page": 2, "per_page": 3})
    result = run(make(fake), lambda b: b.thread_posts("8276", cursor))
    assert [p.id for p in result.items] == post_ids(3)
    assert thread_gets(fake) == [
        "/threads/8276/page-2",
        f"/{SLUG}page-2",
        f"/{SLUG}page-3",  # gone: asked for by the id again
        "/threads/8276/page-3",
        f"/{SLUG}page-3",
    ]


def test_poll_steps_back_when_deletions_moved_posts_to_an_earlier_page() -> None:
    # The cursor saw up to 1091229 (page 2) and believes 4 pages; page 4 is served as
    # XenForo does past the end: the last page. Page 3 starts with an unseen post.
    fake = FakeXenforo().with_login().with_thread()
    fake.on("GET", "/threads/8276/page-4", redirect(f"{BASE}{SLUG}page-3", status=301))
    cursor = Cursor({"thread": "8276", "last_id": 1091229, "page": 4, "per_page": 3})
    result = run(make(fake), lambda b: b.thread_posts("8276", cursor))
    assert [p.id for p in result.items] == post_ids(3)
    pages = [t for t in thread_gets(fake) if t.startswith(f"/{SLUG}")]
    assert pages == [f"/{SLUG}page-3", f"/{SLUG}page-2"]


def test_a_page_served_to_a_guest_logs_in_again_once() -> None:
    fake = FakeXenforo().with_login().with_thread()
    fake.on("GET", f"/{SLUG}page-2", html(thread_page(2, logged_in=False)), html(thread_page(2)))
    result = run(make(fake), lambda b: b.thread_posts("8276"))
    assert len(result.items) == 8
    assert len(fake.posted("/login/login")) == 2


def test_expired_twice_in_a_row_is_session_expired() -> None:
    fake = FakeXenforo().with_login().with_thread()
    fake.on("GET", f"/{SLUG}", html(thread_page(1, logged_in=False)))
    with pytest.raises(SessionExpired) as caught:
        run(make(fake), lambda b: b.thread_posts("8276"))
    assert "again" in str(caught.value) and PASSWORD not in str(caught.value)


def test_a_missing_thread_is_not_found() -> None:
    fake = FakeXenforo().with_login()
    fake.on("GET", "/threads/9/", html(fixture("synthetic/synthetic-error.html"), 404))
    with pytest.raises(NotFound, match="could not be found"):
        run(make(fake), lambda b: b.thread_posts("9"))


def test_a_page_whose_posts_lost_their_markup_is_layout_changed() -> None:
    fake = FakeXenforo().with_login().with_thread()
    broken = (
        thread_page(1)
        .replace("message--post", "message--other")
        .replace('data-content="post-', 'data-x="')
        .replace('id="js-post-', 'id="x-')
        .replace('id="post-', 'id="y-')  # no post mark left at all
    )
    fake.on("GET", f"/{SLUG}", html(broken))
    with pytest.raises(LayoutChanged) as caught:
        run(make(fake), lambda b: b.thread_posts("8276"))
    assert SLUG in caught.value.url


def test_503_then_success_and_timeouts_then_board_unavailable() -> None:
    fake = FakeXenforo().with_login().with_thread()
    fake.on("GET", f"/{SLUG}", html("busy", 503), html(thread_page(1)))
    time = FakeTime()
    run(make(fake, time), lambda b: b.thread_page("8276"))
    assert [t for t in thread_gets(fake) if t == f"/{SLUG}"] == [f"/{SLUG}", f"/{SLUG}"]
    fake = FakeXenforo().with_login().on("GET", "/threads/8276/", httpx.ReadTimeout("slow"))
    with pytest.raises(BoardUnavailable, match=r"ReadTimeout.*3 tries"):
        run(make(fake, max_tries=3), lambda b: b.thread_posts("8276"))


# -- reply -----------------------------------------------------------------------------------


def with_reply(fake: FakeXenforo, *answers: Any) -> FakeXenforo:
    fake.with_thread(extra=(gm_post(),))
    fake.on("POST", "/threads/8276/add-reply", *answers)
    fake.on("GET", f"/posts/{NEW_POST}/", redirect(f"{BASE}{SLUG}page-3", status=301))
    return fake


POSTED = as_json(
    {
        "status": "ok",
        "message": "Your message has been posted.",
        "redirect": f"{BASE}posts/{NEW_POST}/",
    }
)
FLOOD = as_json(
    {
        "status": "error",
        "errors": ["You must wait at least 30 seconds before performing this action."],
    },
    400,
)


def test_reply_in_json_mode_and_the_post_confirmed_on_its_page() -> None:
    fake = with_reply(FakeXenforo().with_login(), POSTED)
    assert run(make(fake), lambda b: b.reply("8276", "Итоги дня 1")) == NEW_POST
    (sent,) = fake.posted("/threads/8276/add-reply")
    assert sent == {
        "message": "Итоги дня 1",
        "_xfToken": "1562130994,d8f3b3c32cbd2529ed60e8a76656f7c7",
        "_xfResponseType": "json",
    }


def test_flood_control_waits_what_the_board_says_then_succeeds() -> None:
    fake = with_reply(FakeXenforo().with_login(), FLOOD, POSTED)
    time = FakeTime()
    assert run(make(fake, time), lambda b: b.reply("8276", "x")) == NEW_POST
    assert 30 in time.slept and len(fake.posted("/threads/8276/add-reply")) == 2


def test_flood_control_that_persists_is_flood_control() -> None:
    fake = with_reply(FakeXenforo().with_login(), FLOOD)
    with pytest.raises(FloodControl) as caught:
        run(make(fake, flood_retries=2), lambda b: b.reply("8276", "x"))
    assert caught.value.retry_after == 30
    assert len(fake.posted("/threads/8276/add-reply")) == 3


def test_a_stale_token_is_refreshed_once_then_an_error() -> None:
    stale = as_json(
        {
            "status": "error",
            "errors": [
                "Security error occurred. Please press back, refresh the page, and try again."
            ],
        },
        400,
    )
    fake = with_reply(FakeXenforo().with_login(), stale, POSTED)
    assert run(make(fake), lambda b: b.reply("8276", "x")) == NEW_POST
    fake = with_reply(FakeXenforo().with_login(), stale)
    with pytest.raises(BoardError, match="fresh token"):
        run(make(fake), lambda b: b.reply("8276", "x"))
    assert len(fake.posted("/threads/8276/add-reply")) == 2


def test_a_logout_before_the_reply_logs_in_again_and_posts_once() -> None:
    out = as_json({"status": "error", "errors": ["You must be logged-in to do that."]}, 403)
    fake = with_reply(FakeXenforo().with_login(), out, POSTED)
    assert run(make(fake), lambda b: b.reply("8276", "x")) == NEW_POST
    assert (
        len(fake.posted("/login/login")) == 2 and len(fake.posted("/threads/8276/add-reply")) == 2
    )


def test_an_accepted_reply_missing_from_its_page_is_an_error() -> None:
    fake = with_reply(FakeXenforo().with_login(), POSTED)
    fake.on("GET", f"/posts/{NEW_POST}/", redirect(f"{BASE}{SLUG}page-2", status=301))
    with pytest.raises(BoardError, match=f"post {NEW_POST} is not there"):
        run(make(fake), lambda b: b.reply("8276", "x"))


def test_a_reply_whose_post_fails_with_500_is_not_repeated() -> None:
    fake = with_reply(FakeXenforo().with_login(), html("oops", 500))
    with pytest.raises(BoardUnavailable, match="not repeated"):
        run(make(fake), lambda b: b.reply("8276", "x"))
    assert len(fake.posted("/threads/8276/add-reply")) == 1


# -- conversations ---------------------------------------------------------------------------


def test_inbox_and_sent_read_every_message_of_every_conversation() -> None:
    fake = FakeXenforo().with_login().with_conversations()

    async def go(b: XenforoBoard) -> tuple[Any, Any]:
        return await b.inbox(), await b.sent()

    inbox, sent = run(make(fake), go)
    assert [(m.id, m.sender, m.subject) for m in inbox.items] == [
        ("881", "Alu", "Роль"),
        ("903", "Alu", "Проверка, ночь 1"),
    ]
    assert inbox.items[0].recipients == ("Ведущий", "Бармалей")
    assert [(m.id, m.recipients) for m in sent.items] == [
        ("880", ("Alu", "Бармалей")),
        ("905", ("Alu",)),
    ]
    assert inbox.cursor.data == {
        "last_id": 903,
        "latest": 1796162400,
        "pages": {"412": 1, "411": 1},
        "replies": {"412": 1, "411": 1},
    }


def test_a_poll_opens_only_conversations_active_since_the_cursor() -> None:
    fake = FakeXenforo().with_login().with_conversations()
    # Everything up to conversation 411's last activity was seen; 412 is newer.
    cursor = Cursor(
        {"last_id": 881, "latest": 1796076000, "pages": {"411": 1}, "replies": {"411": 1}}
    )
    inbox = run(make(fake), lambda b: b.inbox(cursor))
    assert [m.id for m in inbox.items] == ["903"]
    assert "/conversations/rol.411/" not in fake.targets("GET")
    # A cursor that knows no reply counts (written before they were kept) opens the
    # conversation of its last second once more: nothing is returned twice.
    fake = FakeXenforo().with_login().with_conversations()
    older = Cursor({"last_id": 881, "latest": 1796076000, "pages": {"411": 1}})
    assert [m.id for m in run(make(fake), lambda b: b.inbox(older)).items] == ["903"]


def test_a_message_in_the_same_second_as_the_last_one_seen_is_not_missed() -> None:
    # The last poll read conversation 412 up to Ведущий's 905 at 1796162400 (1 reply). Alu
    # answers in that same second: the list shows the same time, but 2 replies.
    seen = Cursor(
        {"last_id": 905, "latest": 1796162400, "pages": {"412": 1, "411": 1},
         "replies": {"412": 1, "411": 1}}
    )  # fmt: skip
    listing = fixture("synthetic/synthetic-conversation-list.html")
    row_end = listing.index('href="/conversations/proverka-noch-1.412/latest"')
    replies = listing.rindex("<dt>Replies</dt><dd>1</dd>", 0, row_end)
    busier = listing[:replies] + "<dt>Replies</dt><dd>2</dd>" + listing[replies + 26 :]
    head, messages, tail = conversation_parts(fixture("synthetic/synthetic-conversation-view.html"))
    answer = messages[1].replace("905", "906").replace("Ведущий", "Alu")
    answer = answer.replace("vedushchii.58", "alu.65").replace(
        'data-user-id="58"', 'data-user-id="65"'
    )
    answer = answer.replace("Принято: проверка Бармалея.", "А если Лёху?")
    fake = FakeXenforo().with_login().with_conversations()
    fake.on("GET", "/conversations/", html(busier))
    fake.on(
        "GET",
        "/conversations/proverka-noch-1.412/",
        html(head + "\n".join([*messages, answer]) + tail),
    )
    inbox = run(make(fake), lambda b: b.inbox(seen))
    assert [(m.id, m.sender, m.body.text()) for m in inbox.items] == [
        ("906", "Alu", "А если Лёху?")
    ]
    assert inbox.cursor.data["replies"]["412"] == 2
    assert "/conversations/rol.411/" not in fake.targets("GET")
    # With the count unchanged, the conversation is not opened again.
    fake = FakeXenforo().with_login().with_conversations()
    assert run(make(fake), lambda b: b.inbox(seen)).items == []
    assert [t for t in fake.targets("GET") if t.startswith("/conversations/")] == [
        "/conversations/"
    ]


def test_send_pm_to_several_users_and_the_first_message_confirmed() -> None:
    fake = FakeXenforo().with_login().with_conversations()
    with_new_conversation(fake, "conversations/rol.411/")
    fake.on("GET", "/conversations/411/", redirect(f"{BASE}conversations/rol.411/", status=301))
    message_id = run(
        make(fake), lambda b: b.send_pm(["Alu", "Бармалей"], "Роль", "Ваша роль: Комиссар.")
    )
    assert message_id == "880"
    (sent,) = fake.posted("/conversations/add")
    assert sent["recipients"] == "Alu, Бармалей" and sent["title"] == "Роль"
    assert sent["message"] == "Ваша роль: Комиссар." and sent["_xfResponseType"] == "json"


def test_a_started_conversation_that_shows_no_message_by_the_gm_is_an_error() -> None:
    # The board names a conversation, but its page holds only Alu's message (412).
    fake = FakeXenforo().with_login().with_conversations()
    with_new_conversation(fake, "conversations/proverka-noch-1.412/")
    head, (alus, _), tail = conversation_parts(
        fixture("synthetic/synthetic-conversation-view.html")
    )
    fake.on("GET", "/conversations/412/", html(head + alus + tail))
    with pytest.raises(BoardError, match=f"shows no message by {USER}"):
        run(make(fake), lambda b: b.send_pm(["Alu"], "Роль", "Ваша роль: Комиссар."))
    assert len(fake.posted("/conversations/add")) == 1  # not sent again


def test_send_pm_to_an_unknown_user_is_not_found() -> None:
    fake = FakeXenforo().with_login()
    fake.on("GET", "/conversations/add", "synthetic/synthetic-conversation-add.html")
    fake.on(
        "POST",
        "/conversations/add",
        as_json(
            {"status": "error", "errors": ["The following recipients could not be found: Nobody."]},
            400,
        ),
    )
    with pytest.raises(NotFound, match="Nobody"):
        run(make(fake), lambda b: b.send_pm(["Nobody"], "s", "b"))


def test_find_user_through_the_member_search() -> None:
    fake = FakeXenforo().with_login()
    fake.on("GET", "/members/?username=Alu", redirect(f"{BASE}members/alu.65/"))
    fake.on(
        "GET",
        "/members/alu.65/",
        html(
            "<html id='XF' data-template='member_view'><body><h1 class='memberHeader-name'><span class='username'>Alu</span></h1></body></html>"
        ),
    )
    fake.on(
        "GET", "/members/?username=Nobody", html(fixture("synthetic/synthetic-error.html"), 404)
    )

    async def go(b: XenforoBoard) -> tuple[User | None, User | None]:
        return await b.find_user("Alu"), await b.find_user("Nobody")

    assert run(make(fake), go) == (User(id="65", name="Alu"), None)


# -- the recorded flow -----------------------------------------------------------------------


def test_end_to_end_login_sync_conversations_reply_start_conversation() -> None:
    fake = with_reply(FakeXenforo().with_login().with_conversations(), POSTED)
    with_new_conversation(fake, "conversations/rol.411/")
    fake.on("GET", "/conversations/411/", redirect(f"{BASE}conversations/rol.411/", status=301))

    async def flow(b: XenforoBoard) -> dict[str, Any]:
        out: dict[str, Any] = {"me": await b.login()}
        seen = Cursor({"thread": "8276", "last_id": 1091229, "page": 2, "per_page": 3})
        mark = len(fake.requests)
        out["posts"] = await b.thread_posts("8276", seen)
        out["sync"] = [r.url.path for r in fake.requests[mark:]]
        out["inbox"] = await b.inbox()
        out["reply"] = await b.reply("8276", "Итоги дня 1")
        out["pm"] = await b.send_pm(["Alu", "Бармалей"], "Роль", "Ваша роль: Комиссар.")
        return out

    out = run(make(fake), flow)
    assert out["me"].name == USER
    # The id's URL redirects to the slug's once; the next page is asked for there.
    assert out["sync"] == ["/threads/8276/page-2", f"/{SLUG}page-2", f"/{SLUG}page-3"]
    assert [p.id for p in out["posts"].items] == [*post_ids(3), NEW_POST]
    assert [m.id for m in out["inbox"].items] == ["881", "903"]
    assert out["reply"] == NEW_POST and out["pm"] == "880"
    # One login in the whole flow.
    assert len(fake.posted("/login/login")) == 1


def test_the_password_is_in_no_log_record_repr_or_error(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    fake = FakeXenforo().with_login()
    board = make(fake)
    run(board, lambda b: b.login())
    fake2 = (
        FakeXenforo()
        .with_login()
        .on("POST", "/login/login", "synthetic/synthetic-login-failed.html")
    )
    board2 = make(fake2)
    with pytest.raises(LoginFailed) as caught:
        run(board2, lambda b: b.login())
    texts = [r.getMessage() for r in caplog.records] + [
        repr(board),
        repr(vars(board)),
        str(caught.value),
    ]
    assert caplog.records
    assert not any(PASSWORD in text for text in texts)


def test_xenforo_1_json_answers_flood_then_the_redirect_target() -> None:
    # XenForo 1 answers a JSON-mode post with {"error": [...]} or {"_redirectTarget": ...}.
    # The board is the real XF1 page, served to its logged-in reader (Kinematics).
    xf1 = fixture("sufficientvelocity/thread_page54.html").lstrip("\ufeff")
    sv = "https://forums.sufficientvelocity.com/"
    fake = FakeXenforo().on("GET", "/login/", html(xf1))
    flood = {"error": ["You must wait at least 5 seconds before performing this action."]}
    done = {"_redirectTarget": f"{sv}posts/2146619/", "_redirectStatus": "ok"}
    fake.on("POST", "/threads/10402/add-reply", as_json(flood), as_json(done))
    fake.on("GET", "/posts/2146619/", html(xf1))
    time = FakeTime()
    board = XenforoBoard(
        sv, "Kinematics", PASSWORD, client=fake.client(), clock=time, sleep=time.sleep
    )
    assert run(board, lambda b: b.reply("renascence-a-homura-quest.10402", "[X] Plan")) == "2146619"
    assert 5 in time.slept
    first, second = fake.posted("/threads/10402/add-reply")
    assert first == second
    assert second["_xfToken"] == "4076,1499113436,8d4b44da51107c625c458332cccdd981e5cd1b37"
    assert second["message"] == "[X] Plan" and second["_xfResponseType"] == "json"
    assert fake.posted("/login/login") == []  # the page showed the account logged in already
