"""`Vb5Board` against a fake vBulletin 5 board (tests/forums/vbulletin/helpers_vb5.py): the
login form, reading the real thread page with the page cursor, a lost session, replies and
PMs through flood control, a refused token and the board's refusals, the name look-up, the
inbox and sent box with their cursors."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from forums.errors import (
    BoardError,
    BoardUnavailable,
    CaptchaRequired,
    FloodControl,
    LoginFailed,
    NotFound,
)
from forums.records import Cursor
from forums.vbulletin import vb5board
from forums.vbulletin.vb5board import Vb5Board
from tests.adapter_helpers import run
from tests.forums.vbulletin.helpers_vb5 import (
    CANONICAL,
    GM,
    GM_ID,
    PASSWORD,
    THREAD,
    TOKEN,
    Vb5Fake,
    form,
    html,
    json_answer,
    vb5_board,
)

SHIROHIGE = ("250472", "Shirohige")


def test_login_posts_the_dialogs_call_to_the_board_and_the_home_page_must_name_the_gm() -> None:
    board, _fake, sent, _ = vb5_board()
    me = run(board, lambda b: b.login())
    assert (me.id, me.name) == (GM_ID, GM)
    posts = [r for r in sent if r.method == "POST"]
    assert [str(r.url) for r in posts] == ["https://fandompost.vbulletin.net/auth/ajax-login"]
    data = form(posts[0])
    assert (data["username"], data["password"]) == (GM, PASSWORD)
    assert data["securitytoken"] == "guest" and data["rememberme"] == "1"
    assert [r.url.path for r in sent if r.method == "GET"] == ["/", "/"]
    assert board._token_value == TOKEN


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        (
            {"errors": [["badlogin_strikes_logintypeusername", "https://x/lostpw", 2]]},
            r"wrong user name or password \(badlogin_strikes_logintypeusername\)",
        ),
        ({"errors": [["strikes", "https://x/lostpw"]]}, "locks the name out for 15 minutes"),
        ({"errors": [["badmfa"]]}, "one-time code"),
        ({"errors": [["humanverify_missing"]]}, "wants a CAPTCHA"),
        ({"errors": [["something_new"]]}, "failed: something_new"),
    ],
)
def test_a_refused_login_says_why_and_is_not_tried_again(
    answer: dict[str, object], said: str
) -> None:
    fake = Vb5Fake()
    fake.queue("/auth/ajax-login", answer)
    board, _, sent, _ = vb5_board(fake)
    with pytest.raises((LoginFailed, CaptchaRequired), match=said) as caught:
        run(board, lambda b: b.login())
    assert PASSWORD not in str(caught.value)
    assert sum(r.method == "POST" for r in sent) == 1


def test_a_wrong_password_is_said_and_not_tried_again() -> None:
    board, fake, _, _ = vb5_board(password="wrong")
    with pytest.raises(LoginFailed, match="wrong user name or password") as caught:
        run(board, lambda b: b.login())
    assert "wrong" not in str(caught.value).replace("wrong user name", "")
    assert fake.logins == 1


def test_a_board_before_5_3_is_logged_in_with_the_login_pages_form() -> None:
    board, _fake, sent, _ = vb5_board(Vb5Fake(old_login=True))
    me = run(board, lambda b: b.login())
    assert me.name == GM
    posts = [r.url.path for r in sent if r.method == "POST"]
    assert posts == ["/auth/ajax-login", "/auth/login"]
    data = form(next(r for r in sent if r.url.path == "/auth/login"))
    assert (data["username"], data["password"]) == (GM, PASSWORD)

    board, fake, _, _ = vb5_board(Vb5Fake(old_login=True), password="wrong")
    with pytest.raises(LoginFailed, match="invalid username or password"):
        run(board, lambda b: b.login())
    assert fake.logins == 1


def test_a_login_the_home_page_does_not_confirm_is_refused() -> None:
    fake = Vb5Fake()
    board, _, _, _ = vb5_board(fake)
    fake.queue("/auth/ajax-login", {"success": True, "newtoken": "guest"})
    with pytest.raises(LoginFailed, match="shows a guest"):
        run(board, lambda b: b.login())


def test_a_page_that_is_not_vbulletin_5_is_named() -> None:
    fake = Vb5Fake()
    fake.queue("/", httpx.Response(200, text="<html><body>phpBB</body></html>"))
    board, _, sent, _ = vb5_board(fake)
    with pytest.raises(Exception, match="not a vBulletin 5 page"):
        run(board, lambda b: b.login())
    assert all(r.method == "GET" for r in sent)


def test_the_thread_is_read_through_its_node_then_its_own_address_and_the_cursor_reads_on() -> None:
    board, fake, sent, _ = vb5_board()
    first = run(board, lambda b: b.thread_posts(THREAD))
    assert len(first.items) == 16
    assert first.items[0].id == THREAD and first.items[0].author == "Buckeye"
    assert first.items[0].posted_at == datetime.fromtimestamp(1554824243, UTC)
    assert first.items[-1].id == "731700" and first.items[-1].number == 16
    assert first.cursor.data == {"thread": THREAD, "last_id": 731700, "page": 2, "per_page": 15}
    gets = [r.url.path for r in sent if r.method == "GET" and r.url.path != "/"]
    # The node redirects to the thread's own address; page 2 is asked for there, once.
    assert gets == [f"/node/{THREAD}", CANONICAL, CANONICAL + "/page2"]

    board, fake, sent, _ = vb5_board()
    fake.page2.append(fake.page2[0].replace("731700", "731750").replace(">#16<", ">#17<"))
    again = run(board, lambda b: b.thread_posts(THREAD, first.cursor))
    assert [p.id for p in again.items] == ["731700", "731750"]
    assert [r.url.path for r in sent if r.url.path.startswith("/node/")] == [
        f"/node/{THREAD}/page2"
    ]  # the cursor's page only
    assert again.cursor.data["last_id"] == 731750


def test_a_cursor_whose_page_deletions_emptied_of_seen_posts_steps_back_a_page() -> None:
    """The last post seen was on page 2; deletions since moved it to page 1, so page 2 now
    holds only unseen posts: the poll reads page 1 again rather than miss what is there."""
    board, _, _, _ = vb5_board()
    whole = [p.id for p in run(board, lambda b: b.thread_posts(THREAD)).items]
    board, _, sent, _ = vb5_board()
    moved = Cursor({"thread": THREAD, "last_id": int(whole[13]), "page": 2, "per_page": 15})
    again = run(board, lambda b: b.thread_posts(THREAD, moved))
    assert [p.id for p in again.items] == whole
    pages = ["2" if r.url.path.endswith("/page2") else "1" for r in sent if THREAD in r.url.path]
    assert pages[0] == "2" and pages[-1] == "1"  # page 2 (by node, then its address), then 1


def test_a_thread_id_from_its_urls() -> None:
    assert Vb5Board.topic_id("727744") == "727744"
    assert Vb5Board.topic_id("https://fandompost.vbulletin.net/node/727744") == "727744"
    assert Vb5Board.topic_id("https://fandompost.vbulletin.net" + CANONICAL + "/page2") == "727744"
    with pytest.raises(NotFound):
        Vb5Board.topic_id("https://fandompost.vbulletin.net/forum/anime")


def test_a_session_lost_while_reading_is_logged_in_again_once() -> None:
    fake = Vb5Fake()
    board, _, _, _ = vb5_board(fake)

    async def go(b: Vb5Board) -> int:
        await b.login()
        fake.logged_in = False  # the board forgot the session: pages come as a guest's
        got = await b.thread_posts(THREAD)
        return len(got.items)

    assert run(board, go) == 16
    assert fake.logins == 2


def test_a_reply_goes_as_the_editor_sends_it_and_is_confirmed_on_the_thread() -> None:
    board, _fake, sent, _ = vb5_board()
    post_id = run(board, lambda b: b.reply(THREAD, "[b]Vote:[/b] <Shirohige> & co\nline two"))
    assert post_id == "731801"
    post = next(r for r in sent if r.url.path == "/create-content/text")
    data = form(post)
    assert data["parentid"] == THREAD and data["nl2br"] == "1"
    assert data["text"] == "[b]Vote:[/b] &lt;Shirohige&gt; &amp; co\nline two"
    assert data["securitytoken"] == TOKEN
    assert any(r.url.path == "/node/731801" for r in sent)  # read back on its page


def test_flood_control_is_waited_out_as_the_board_says() -> None:
    fake = Vb5Fake()
    fake.queue("/create-content/text", {"errors": [["postfloodcheck", "30", "12"]]})
    board, _, sent, clock = vb5_board(fake)
    assert run(board, lambda b: b.reply(THREAD, "text")) == "731801"
    assert 13.0 in clock.slept
    assert sum(r.url.path == "/create-content/text" for r in sent) == 2


def test_flood_control_that_does_not_let_go_is_flood_control() -> None:
    fake = Vb5Fake()
    flood = {"errors": [["postfloodcheck", "30", "12"]]}
    fake.queue("/create-content/text", flood, flood, flood)
    board, _, _, _ = vb5_board(fake)
    with pytest.raises(FloodControl, match="postfloodcheck"):
        run(board, lambda b: b.reply(THREAD, "text"))


def test_a_token_an_hour_old_is_fetched_anew_before_it_is_used() -> None:
    fake = Vb5Fake()
    board, _, sent, clock = vb5_board(fake)

    async def go(b: Vb5Board) -> str:
        await b.login()
        clock.now += timedelta(hours=2)
        fake.token = "1733094000-0123456789abcdef0123456789abcdef01234567"  # a new one
        return await b.reply(THREAD, "text")

    assert run(board, go) == "731801"
    tries = [form(r)["securitytoken"] for r in sent if r.url.path == "/create-content/text"]
    assert tries == [fake.token]


def test_an_error_page_after_a_reply_is_not_sent_again() -> None:
    fake = Vb5Fake()
    fake.queue("/create-content/text", httpx.Response(500, text="<html>Error</html>"))
    board, _, sent, _ = vb5_board(fake)
    with pytest.raises(BoardUnavailable, match="not repeated"):
        run(board, lambda b: b.reply(THREAD, "text"))
    assert sum(r.url.path == "/create-content/text" for r in sent) == 1


def test_a_page_instead_of_an_answer_is_sent_once_more_with_a_fresh_token() -> None:
    fake = Vb5Fake()
    fake.queue("/create-content/text", httpx.Response(200, text="<html>Error</html>"))
    board, _, sent, _ = vb5_board(fake)
    assert run(board, lambda b: b.reply(THREAD, "text")) == "731801"
    assert sum(r.url.path == "/create-content/text" for r in sent) == 2


def test_a_session_lost_before_a_reply_is_logged_in_again() -> None:
    fake = Vb5Fake()
    fake.queue("/create-content/text", "LOGGED_OUT")
    board, _, _, _ = vb5_board(fake)
    assert run(board, lambda b: b.reply(THREAD, "text")) == "731801"
    assert fake.logins == 2


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        ({"errors": [["no_create_permissions"]], "userid": GM_ID}, "no_create_permissions"),
        ({"errors": [["maxchars_exceeded_x_y", 10000, 12000]]}, r"maxchars_exceeded_x_y \(10000"),
        ({"nodeId": 731801, "moderateNode": True}, "waits for a moderator"),
    ],
)
def test_a_refused_reply_is_a_board_error_naming_the_boards_phrase(
    answer: dict[str, object], said: str
) -> None:
    fake = Vb5Fake()
    fake.queue("/create-content/text", answer)
    board, _, _, _ = vb5_board(fake)
    with pytest.raises(BoardError, match=said):
        run(board, lambda b: b.reply(THREAD, "text"))


def test_a_reply_the_thread_does_not_show_is_an_error() -> None:
    fake = Vb5Fake()
    fake.queue("/create-content/text", json_answer({"nodeId": 731799}))
    fake.queue("/node/731799", httpx.Response(301, headers={"Location": CANONICAL}))
    board, _, _, _ = vb5_board(fake)
    with pytest.raises(BoardError, match="post 731799 is not there"):
        run(board, lambda b: b.reply(THREAD, "text"))


def test_a_user_is_found_by_name_in_any_case_and_as_vbulletin_keeps_it() -> None:
    board, _, sent, _ = vb5_board()

    async def go(b: Vb5Board) -> list[object]:
        return [await b.find_user("SHIROHIGE"), await b.find_user("B&B"), await b.find_user("x")]

    found = run(board, go)
    assert [(u.id, u.name) if u else None for u in found] == [  # type: ignore[attr-defined]
        SHIROHIGE,
        ("31", "B&B"),
        None,
    ]
    asked = [form(r)["username"] for r in sent if r.url.path.endswith("fetchByUsername")]
    assert asked == ["SHIROHIGE", "B&amp;B", "x"]


def test_a_pm_goes_to_known_names_only_and_is_read_back() -> None:
    board, _fake, sent, _ = vb5_board()
    pm_id = run(board, lambda b: b.send_pm(["shirohige"], "Your role", "You are [b]Mafia[/b]."))
    add = next(r for r in sent if r.url.path.endswith("content_privatemessage/add"))
    data = form(add)
    assert data["data[msgRecipients]"] == "Shirohige" and data["data[title]"] == "Your role"
    assert data["options[nl2br]"] == "1" and data["securitytoken"] == TOKEN
    assert any(r.url.path.endswith("getMessage") and form(r)["nodeid"] == pm_id for r in sent)

    board, _fake, sent, _ = vb5_board()
    with pytest.raises(NotFound, match="nobody"):
        run(board, lambda b: b.send_pm(["Shirohige", "nobody"], "Role", "text"))
    assert not any(r.url.path.endswith("content_privatemessage/add") for r in sent)


def test_pm_flood_control_is_waited_out() -> None:
    fake = Vb5Fake()
    path = "/ajax/api/content_privatemessage/add"
    fake.queue(path, {"errors": [["pmfloodcheck", "60", "41"]]})
    board, _, _, clock = vb5_board(fake)
    run(board, lambda b: b.send_pm(["Shirohige"], "Role", "text"))
    assert 42.0 in clock.slept


def test_the_inbox_and_sent_box_read_conversations_on_from_their_cursors() -> None:
    fake = Vb5Fake()
    first = fake.add_message(SHIROHIGE, "I claim [i]cop[/i].", "Claim", recipients=[GM])
    mine = fake.add_message((GM_ID, GM), "Noted.", "Orders", recipients=["Shirohige"])
    fake.add_message(SHIROHIGE, "Target: B&amp;B", to=mine)
    board, _, _, _ = vb5_board(fake)

    async def go(b: Vb5Board) -> tuple[object, ...]:
        inbox = await b.inbox()
        sent = await b.sent()
        fake.add_message(SHIROHIGE, "One more", to=first)
        again = await b.inbox(inbox.cursor)
        quiet = await b.sent(sent.cursor)
        return inbox, sent, again, quiet

    inbox, sent, again, quiet = run(board, go)
    assert [(m.sender, m.subject, m.body.full_text()) for m in inbox.items] == [  # type: ignore[attr-defined]
        ("Shirohige", "Claim", "I claim cop."),
        ("Shirohige", "Orders", "Target: B&B"),
    ]
    assert all(m.recipients == (GM,) for m in inbox.items)  # type: ignore[attr-defined]
    assert [(m.sender, m.recipients, m.id) for m in sent.items] == [  # type: ignore[attr-defined]
        (GM, ("Shirohige",), str(mine))
    ]
    assert [m.body.full_text() for m in again.items] == ["One more"]  # type: ignore[attr-defined]
    assert quiet.items == []  # type: ignore[attr-defined]
    assert isinstance(again.cursor, Cursor)  # type: ignore[attr-defined]


def test_a_pm_the_board_cannot_find_is_not_found() -> None:
    fake = Vb5Fake()
    board, _, _, _ = vb5_board(fake)

    async def go(b: Vb5Board) -> object:
        await b.login()
        return await b.call("content_privatemessage/getMessage", {"nodeid": "5"})

    with pytest.raises(NotFound, match="invalid_node_id"):
        run(board, go)


def test_a_session_lost_before_reading_pms_is_logged_in_again() -> None:
    fake = Vb5Fake()
    fake.add_message(SHIROHIGE, "vote Kinematics", "Vote", recipients=[GM])
    board, _, _, _ = vb5_board(fake)

    async def go(b: Vb5Board) -> int:
        await b.login()
        fake.logged_in = False  # the API now answers as to a guest: {"userid": 0, "errors"…}
        return len((await b.inbox()).items)

    assert run(board, go) == 1
    assert fake.logins == 2


def test_a_poll_reads_folder_pages_only_down_to_the_cursors_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(vb5board, "PM_PAGE", 2)
    fake = Vb5Fake()
    talks = [fake.add_message(SHIROHIGE, f"msg {i}", f"T{i}", recipients=[GM]) for i in range(5)]
    board, _, sent, _ = vb5_board(fake)

    async def go(b: Vb5Board) -> tuple[object, object]:
        first = await b.inbox()
        fake.add_message(SHIROHIGE, "late", to=talks[1])
        return first, await b.inbox(first.cursor)

    first, second = run(board, go)
    assert [m.body.full_text() for m in first.items] == [f"msg {i}" for i in range(5)]  # type: ignore[attr-defined]
    assert [m.body.full_text() for m in second.items] == ["late"]  # type: ignore[attr-defined]
    pages = [
        form(r)["data[pageNum]"]
        for r in sent
        if r.url.path.endswith("listMessages") and form(r)["data[folderid]"] == "11"
    ]
    # All of it, then down to the first conversation quiet since the last poll's newest.
    assert pages == ["1", "2", "3", "1", "2"]


def test_page_data_is_read_on_one_line_or_many_whatever_its_values_hold() -> None:
    from forums.vbulletin.vb5 import page_data

    one_line = (
        '<script>var pageData = {"userid": "5", "username": "A \\"}\\" B", "x": "}"};</script>'
    )
    assert page_data(one_line) == {"userid": "5", "username": 'A "}" B', "x": "}"}
    many = (
        '<script>\n\tvar pageData = {\n\t\t"userid": "0",\n\t\t"username": "Guest"\n\t};\n</script>'
    )
    assert page_data(many) == {"userid": "0", "username": "Guest"}
    assert page_data("<html><body>no data</body></html>") == {}


def test_a_thread_no_longer_at_its_address_is_asked_for_through_its_node_again() -> None:
    board, fake, sent, _ = vb5_board()

    async def twice(b: Vb5Board) -> tuple[Any, Any]:
        first = await b.thread_posts(THREAD)
        fake.queue(CANONICAL + "/page2", html("<html><body>Invalid Page URL.</body></html>", 404))
        return first, await b.thread_posts(THREAD, first.cursor)

    first, again = run(board, twice)
    assert [p.id for p in again.items] == ["731700"]
    assert again.cursor.data == first.cursor.data
    polled = [r.url.path for r in sent if r.method == "GET" and r.url.path != "/"][3:]
    assert polled == [CANONICAL + "/page2", f"/node/{THREAD}/page2", CANONICAL + "/page2"]
